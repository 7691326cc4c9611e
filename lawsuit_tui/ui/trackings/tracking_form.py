"""The form to register a tracking, or to edit one (every field but the search).

Everything is checked before sending: the search key (type detected or chosen, check
digits), recurrence (days, 1..90, D66), fixed time (hour 0..23 and minute 0..59 in the
reader's time, both required with it; sent in UTC), e-mails, callback URL, step terms and
tags; then the body's own rules (:class:`TrackingCreateBody`). A 409 (already tracked) is
explained in the form, which stays open. The form sends in a worker and dismisses with the
record the service answered.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Button, Checkbox, Input, Select, Static

from lawsuit_tui.domain import identifiers as ids
from lawsuit_tui.domain.bodies import MAX_RECURRENCE_DAYS, TrackingCreateBody, TrackingPatchBody
from lawsuit_tui.domain.formatting import local_clock_to_utc, utc_clock_to_local, zone_label
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import _
from lawsuit_tui.ui.errors import describe_error, is_conflict, is_not_available
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.keys import words_of_key
from lawsuit_tui.ui.trackings.tracking_text import search_label, type_label
from lawsuit_tui.ui.widgets.form import (
    FieldBox,
    FormDialog,
    cancel_button,
    parse_int,
    parse_tags,
    send_button,
    show_general,
    show_problems,
    split_list,
    validation_problems,
)

__all__ = ["TrackingFormScreen"]


AUTO = "auto"

# Body field -> form field, to show the body's own rule errors beside the right field.
_BODY_FIELDS = {
    "search": "search-key",
    "recurrence": "recurrence",
    "callback_url": "callback",
    "notification_emails": "emails",
    "notification_filters": "step-terms",
    "with_attachments": "with-attachments",
    "tags": "tags",
    "fixed_time": "fixed-time",
    "hour_range": "hour",
    "execution_minute": "minute",
}


class TrackingFormScreen(FormDialog[TrackingRecord | None]):
    """Register a tracking (``record`` None) or edit ``record``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel"), id="trackings.form.cancel"),
        Binding("f10", "submit", _("Send"), id="trackings.form.submit"),
    ]

    def __init__(self, record: TrackingRecord | None = None) -> None:
        super().__init__()
        self.record = record
        self._accept_check_digits_for: str | None = None
        self.sent_body: dict[str, Any] | None = None

    @property
    def editing(self) -> bool:
        return self.record is not None

    def form_title(self) -> str:
        record = self.record
        return (
            _("Edit tracking {search}").format(search=search_label(record))
            if record
            else _("Register a tracking")
        )

    def compose_fields(self) -> ComposeResult:
        record = self.record
        yield Static("", id="form-general-error", markup=False)
        type_options = [(_("Detect from the key"), AUTO)] + [
            (label, value)
            for value, label in (
                ("lawsuit_cnj", _("CNJ number (a lawsuit)")),
                ("cpf", "CPF"),
                ("cnpj", "CNPJ"),
                ("oab", "OAB"),
                ("name", _("Name")),
            )
        ]
        search_type = Select[str](type_options, value=AUTO, allow_blank=False, id="tf-search-type")
        search_key = Input(placeholder=_("CNJ number, CPF, CNPJ, OAB or name"), id="tf-search-key")
        if record is not None:
            search_type.disabled = True
            search_key.disabled = True
            search_key.value = search_label(record)
        with Horizontal(classes="field-pair"):
            yield FieldBox(_("Search type"), search_type, field="search-type")
            yield FieldBox(_("Search key"), search_key, field="search-key")
        recurrence = str(record.recurrence) if record and record.recurrence else "1"
        with Horizontal(classes="field-pair"):
            yield FieldBox(
                _("Recurrence (days, 1-{high})").format(high=MAX_RECURRENCE_DAYS),
                Input(
                    recurrence,
                    id="tf-recurrence",
                    type="integer",
                    # A count of days, not a place to paste a CNJ's twenty digits.
                    max_length=len(str(MAX_RECURRENCE_DAYS)),
                ),
                field="recurrence",
            )
            yield FieldBox(
                _("Attachments"),
                Checkbox(
                    _("Download attachments"),
                    bool(record and record.with_attachments),
                    id="tf-with-attachments",
                ),
                field="with-attachments",
            )
        fixed = bool(record and record.fixed_time)
        # The service keeps the hour in UTC; the form speaks the user's zone (D146).
        local: tuple[int | None, int | None] = (None, None)
        if record is not None and record.hour_range is not None:
            local = utc_clock_to_local(record.hour_range, record.execution_minute or 0)
        with Horizontal(classes="field-pair"):
            yield FieldBox(
                _("Fixed time ({zone})").format(zone=zone_label()),
                Checkbox(_("Run at a fixed time"), fixed, id="tf-fixed-time"),
                field="fixed-time",
            )
            hour = Input(
                _str(local[0]),
                placeholder="0-23",
                id="tf-hour",
                type="integer",
                max_length=2,
                disabled=not fixed,
            )
            minute = Input(
                _str(local[1] if record and record.execution_minute is not None else None),
                placeholder="0-59",
                id="tf-minute",
                type="integer",
                max_length=2,
                disabled=not fixed,
            )
            yield FieldBox(_("Hour"), hour, field="hour")
            yield FieldBox(_("Minute"), minute, field="minute")
        yield FieldBox(
            _("Notification e-mails (separated by commas)"),
            Input(
                ", ".join(record.notification_emails or []) if record else "",
                placeholder="ana@example.com.br, joao@example.com.br",
                id="tf-emails",
            ),
            field="emails",
        )
        terms = (
            record.notification_filters.step_terms
            if record and record.notification_filters
            else None
        )
        yield FieldBox(
            _("Notify only for steps containing (terms separated by commas)"),
            Input(
                ", ".join(terms or []),
                placeholder=_("sentença, acordo"),
                id="tf-step-terms",
            ),
            field="step-terms",
        )
        yield FieldBox(
            _("Tags (key=value, separated by commas)"),
            Input(
                ", ".join(f"{k}={v}" for k, v in (record.tags or {}).items()) if record else "",
                placeholder=_("client=ACME, team=labour"),
                id="tf-tags",
            ),
            field="tags",
        )
        yield FieldBox(
            _("Callback URL (optional)"),
            Input(
                record.callback_url or "" if record else "",
                placeholder="https://example.com.br/hooks",
                id="tf-callback",
            ),
            field="callback",
        )

    def compose_buttons(self) -> ComposeResult:
        yield cancel_button(self.app, "trackings.form.cancel", button_id="tf-cancel")
        yield send_button(
            self.app,
            _("Save ({key})") if self.record else _("Register ({key})"),
            "trackings.form.submit",
            button_id="tf-submit",
        )

    def on_mount(self) -> None:
        first = "#tf-recurrence" if self.editing else "#tf-search-key"
        self.query_one(first, Input).focus()

    # -- interaction ---------------------------------------------------------------------

    @on(Checkbox.Changed, "#tf-fixed-time")
    def _fixed_time_changed(self, event: Checkbox.Changed) -> None:
        for selector in ("#tf-hour", "#tf-minute"):
            self.query_one(selector, Input).disabled = not event.value

    @on(Input.Changed, "#tf-search-key")
    def _key_changed(self, event: Input.Changed) -> None:
        self._accept_check_digits_for = None
        box = self._box("search-key")
        box.set_error(None)
        text = event.value.strip()
        if not text or self._search_type() == "name":
            box.set_hint(None)
            return
        try:
            key = ids.parse_search_key(text, allow_wrong_check_digits=True)
        except ids.InvalidSearchKey:
            box.set_hint(None)
            return
        box.set_hint(f"{type_label(key.search_type)} {key.display}")

    def action_submit(self) -> None:
        body = self.build_body()
        if body is not None:
            self.sent_body = body.to_wire()
            self._send(body)

    # -- validation ----------------------------------------------------------------------

    def _box(self, field: str) -> FieldBox:
        return self.query_one(f"#box-{field}", FieldBox)

    def _value(self, selector: str) -> str:
        return self.query_one(selector, Input).value

    def _search_type(self) -> str:
        value = self.query_one("#tf-search-type", Select).value
        return value if isinstance(value, str) else AUTO

    def _general(self, messages: list[str]) -> None:
        show_general(self.query_one("#form-general-error", Static), messages)

    def _search(self, errors: dict[str, str]) -> dict[str, Any] | None:
        text = self._value("#tf-search-key").strip()
        chosen = self._search_type()
        if chosen == "name":
            if not text:
                errors["search-key"] = _("Type the name to track")
                return None
            return {"search_type": "name", "search_key": text}
        try:
            key = ids.parse_search_key(text)
        except ids.InvalidSearchKey as exc:
            if exc.candidate is not None and self._accept_check_digits_for == text:
                key = exc.candidate
            elif exc.candidate is not None:
                self._accept_check_digits_for = text
                errors["search-key"] = _(
                    "{problem} Send again ({key}) to track it as typed."
                ).format(problem=exc.message, key=words_of_key(self.app, "enter"))
                return None
            else:
                errors["search-key"] = exc.message
                return None
        if chosen != AUTO and key.search_type != chosen:
            errors["search-key"] = _("This is a {found}, not a {chosen}").format(
                found=type_label(key.search_type),
                chosen=type_label(chosen),
            )
            return None
        return {"search_type": key.search_type, "search_key": key.key}

    def collect(self, errors: dict[str, str]) -> dict[str, Any]:
        """The body's fields from the form; problems of the typed text go to ``errors``."""
        data: dict[str, Any] = {}
        try:
            data["recurrence"] = parse_int(
                self._value("#tf-recurrence") or "1",
                what=_("Recurrence"),
                low=1,
                high=MAX_RECURRENCE_DAYS,
            )
        except ValueError as exc:
            errors["recurrence"] = str(exc)
        fixed = self.query_one("#tf-fixed-time", Checkbox).value
        data["fixed_time"] = fixed
        if fixed:
            for field, selector, what, high in (
                ("hour", "#tf-hour", _("Hour"), 23),
                ("minute", "#tf-minute", _("Minute"), 59),
            ):
                text = self._value(selector)
                if not text.strip():
                    errors[field] = _("Give the {what} (0-{high}) of the fixed time").format(
                        what=what.lower(), high=high
                    )
                    continue
                try:
                    number = parse_int(text, what=what, low=0, high=high)
                except ValueError as exc:
                    errors[field] = str(exc)
                    continue
                data["hour_range" if field == "hour" else "execution_minute"] = number
            if "hour_range" in data and "execution_minute" in data:
                data["hour_range"], data["execution_minute"] = local_clock_to_utc(
                    data["hour_range"], data["execution_minute"]
                )
        data["with_attachments"] = self.query_one("#tf-with-attachments", Checkbox).value
        emails = split_list(self._value("#tf-emails"), separators=",; ")
        data["notification_emails"] = emails
        terms = split_list(self._value("#tf-step-terms"), separators=",;")
        data["notification_filters"] = {"step_terms": terms}
        try:
            data["tags"] = parse_tags(self._value("#tf-tags"))
        except ValueError as exc:
            errors["tags"] = str(exc)
        callback = self._value("#tf-callback").strip()
        data["callback_url"] = callback or None
        return data

    def build_body(self) -> TrackingCreateBody | TrackingPatchBody | None:
        """The body to send, or None after showing every problem beside its field."""
        errors: dict[str, str] = {}
        data = self.collect(errors)
        if not self.editing:
            search = self._search(errors)
            if search is not None:
                data["search"] = search
        general: list[str] = []
        if errors:
            # show the body's rules for the other fields too: every problem at once
            rest = {k: v for k, v in data.items() if k != "search"}
            try:
                TrackingPatchBody.model_validate(rest)
            except ValidationError as exc:
                more, _general = validation_problems(exc, _BODY_FIELDS)
                errors = {**more, **errors}
        else:
            try:
                if self.editing:
                    body: TrackingCreateBody | TrackingPatchBody = self._patch_body(data)
                else:
                    body = TrackingCreateBody.model_validate(data)
            except ValidationError as exc:
                errors, general = validation_problems(exc, _BODY_FIELDS)
            else:
                self._show_errors({}, [])
                return body
        self._show_errors(errors, general)
        return None

    def _patch_body(self, data: dict[str, Any]) -> TrackingPatchBody:
        record = self.record
        assert record is not None
        current = TrackingPatchBody.model_validate(
            {
                "recurrence": record.recurrence,
                "fixed_time": bool(record.fixed_time),
                "hour_range": record.hour_range,
                "execution_minute": record.execution_minute,
                "with_attachments": bool(record.with_attachments),
                "notification_emails": record.notification_emails or [],
                "notification_filters": {
                    "step_terms": (
                        record.notification_filters.step_terms
                        if record.notification_filters
                        else None
                    )
                    or []
                },
                "tags": record.tags or {},
                "callback_url": record.callback_url,
            }
        ).model_dump(mode="json")
        wanted = TrackingPatchBody.model_validate(data)
        changed = {
            key: value
            for key, value in wanted.model_dump(mode="json").items()
            if value != current.get(key) and key in data
        }
        if "callback_url" in changed and changed["callback_url"] is None:
            changed.pop("callback_url")  # clearing a URL is not expressible in a patch
        return TrackingPatchBody.model_validate(changed)

    def _show_errors(self, errors: dict[str, str], general: list[str]) -> None:
        show_problems(self, errors, go_to_first=True)
        self._general(general)

    # -- sending -------------------------------------------------------------------------

    @work(exclusive=True, group="tracking-form", exit_on_error=False)
    async def _send(self, body: TrackingCreateBody | TrackingPatchBody) -> None:
        submit = self.query_one("#tf-submit", Button)
        submit.disabled = True
        try:
            ctx = await host_of(self.app).context()
            if isinstance(body, TrackingCreateBody):
                if not await host_of(self.app).paid_call_allowed(_("Register this tracking")):
                    return
                record: object = await ctx.trackings.create(body)
            else:
                assert self.record is not None
                if not body.to_wire():
                    self.notify(_("Nothing changed."), timeout=4)
                    self.dismiss(None)
                    return
                record = await ctx.trackings.patch(self.record.tracking_id, body)
        except Exception as exc:
            if is_conflict(exc):
                self._show_errors(
                    {
                        "search-key": _(
                            "Already tracked: this key has a tracking of this search type "
                            "(not deleted). Open it from the list to edit, pause or resume it."
                        )
                    },
                    [describe_error(exc)],
                )
            elif is_not_available(exc):
                self._general([_("Editing a tracking is not available on this service.")])
                self.notify(describe_error(exc), severity="warning")
            else:
                self._general([describe_error(exc)])
                host_of(self.app).report_error(exc)
            return
        finally:
            submit.disabled = False
        if isinstance(record, TrackingRecord):
            self.dismiss(record)
        else:
            self.dismiss(self.record)


def _str(value: int | None) -> str:
    return "" if value is None else str(value)
