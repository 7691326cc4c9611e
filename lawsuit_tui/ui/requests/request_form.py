"""Create a request: every field the create body allows, checked field by field.

Each field says what is wrong beside it as the user types; nothing is sent while a field is
wrong. The service's 400 and 422 answers name fields too: they are shown beside those fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Collapsible, Input, Select, Static
from textual.widgets.select import NoSelection

from lawsuit_tui.domain.bodies import accepted_response_types, attachments_allowed
from lawsuit_tui.domain.enums import Side
from lawsuit_tui.domain.formatting import parse_date_br, parse_money_br
from lawsuit_tui.domain.identifiers import InvalidSearchKey, SearchKey, parse_search_key
from lawsuit_tui.domain.vocabulary import (
    RESPONSE_TYPE_WORDS,
    SEARCH_TYPE_WORDS,
    SIDE_WORDS,
    word,
)
from lawsuit_tui.i18n import N_, _
from lawsuit_tui.ui.errors import describe_error
from lawsuit_tui.ui.framed_screen import FramedScreen
from lawsuit_tui.ui.widgets.form import (
    FieldBox,
    cancel_button,
    send_button,
    service_problems,
    show_problems,
    split_list,
)

if TYPE_CHECKING:
    from lawsuit_tui.domain.bodies import CreateRequestBody
    from lawsuit_tui.services.errors import BadRequest, Unprocessable

SEARCH_TYPES: tuple[str, ...] = (
    "lawsuit_cnj",
    "cpf",
    "cnpj",
    "oab",
    "name",
    "lawsuit_id",
    # D68, D115
    "rji",
    "custom",
    "lawsuit_attachment",
    "execution_attachment",
)
"""The search types of the form, in this order; shown as words (``SEARCH_TYPE_WORDS``)."""
ATTACHMENT_TYPES = ("lawsuit_attachment", "execution_attachment")
# What the key field asks for, by search type (the others: any of the documents).
KEY_PLACEHOLDERS = {
    "rji": N_("RJI: the BNMP's number of the person"),
    "custom": N_("none: the filters are the search"),
    "lawsuit_attachment": N_("CNJ number of the lawsuit"),
    "execution_attachment": N_("CNJ number of the penal execution"),
}


def shown(table: Mapping[StrEnum, str], value: object) -> str:
    """A code of the service as the form's choices show it: the reader's word, capitalised."""
    text = word(table, value)
    return text[:1].upper() + text[1:]


DOCUMENT_TYPES = ("cpf", "cnpj", "oab", "lawsuit_cnj")
CHECKBOXES = ("on_demand", "with_attachments", "should_search_branches", "judit_ia")
RANGES = (
    ("distribution_from", "distribution_to"),
    ("last_step_from", "last_step_to"),
    ("amount_min", "amount_max"),
)


def _field(label: str, name: str, *, value: str = "", placeholder: str = "") -> FieldBox:
    """A one-line text field of the form: its input is ``#rf-<name>``, its errors go under it."""
    return FieldBox(
        label, Input(value, placeholder=placeholder, compact=True, id=f"rf-{name}"), field=name
    )


Parsed = TypeVar("Parsed")


class FormError(ValueError):
    """A field's value is not usable; the message says why."""


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    """The widget id (``rf-<name>``) and the key of the value."""
    wire: str
    """Dotted path in the body, as the service names it in 400/422 answers."""


FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("search_type", "search.search_type"),
    FieldSpec("search_key", "search.search_key"),
    FieldSpec("response_type", "search.response_type"),
    FieldSpec("attachment_id", "search.search_params.attachment_id"),
    FieldSpec("cache_ttl_in_days", "search.cache_ttl_in_days"),
    FieldSpec("on_demand", "search.on_demand"),
    FieldSpec("with_attachments", "with_attachments"),
    FieldSpec("should_search_branches", "search.should_search_branches"),
    FieldSpec("judit_ia", "judit_ia"),
    FieldSpec("callback_url", "callback_url"),
    FieldSpec("customer_key", "search.search_params.credential.customer_key"),
    FieldSpec("side", "search.search_params.filter.side"),
    FieldSpec("party_names", "search.search_params.filter.party_names"),
    FieldSpec("party_documents", "search.search_params.filter.party_documents"),
    FieldSpec("distribution_from", "search.search_params.filter.distribution_date_gte"),
    FieldSpec("distribution_to", "search.search_params.filter.distribution_date_lte"),
    FieldSpec("last_step_from", "search.search_params.filter.last_step_date_gte"),
    FieldSpec("last_step_to", "search.search_params.filter.last_step_date_lte"),
    FieldSpec("tribunals", "search.search_params.filter.tribunals"),
    FieldSpec("classification_names", "search.search_params.filter.classification_names"),
    FieldSpec("subject_names", "search.search_params.filter.subject_names"),
    FieldSpec("amount_min", "search.search_params.filter.amount_gte"),
    FieldSpec("amount_max", "search.search_params.filter.amount_lte"),
)


def field_for_wire(name: str | None) -> str | None:
    """The form field a service error names (exact path, else its last part)."""
    if not name:
        return None
    for spec in FIELDS:
        if name == spec.wire:
            return spec.name
    last = name.rsplit(".", 1)[-1]
    for spec in FIELDS:
        if spec.wire.rsplit(".", 1)[-1] == last or spec.name == last:
            return spec.name
    return None


def _optional(parse: Callable[[str], Parsed], text: str) -> Parsed | None:
    """What ``parse`` reads in a field that may be left blank (None); what it refuses is the
    field's problem."""
    if not text.strip():
        return None
    try:
        return parse(text)
    except ValueError as error:
        raise FormError(str(error)) from None


def check_key(search_type: str, text: str) -> str:
    """The key to send for this search type; FormError saying what is wrong."""
    value = text.strip()
    if search_type == "custom":
        return value  # D115: no key; the filters are the search
    if not value:
        raise FormError(_("Type what to search for."))
    if search_type == "rji":
        digits = "".join(ch for ch in value if ch.isdigit())
        if not digits or any(ch.isalpha() for ch in value):
            raise FormError(_("An RJI is the BNMP's number: digits only."))
        return digits
    if search_type in ATTACHMENT_TYPES:
        search_type = "lawsuit_cnj"  # D115: the lawsuit's (or execution's) CNJ number
    if search_type == "name":
        if len(value) < 3:
            raise FormError(_("Type at least 3 letters of the name."))
        return value
    if search_type == "lawsuit_id":
        digits = "".join(ch for ch in value if ch.isdigit())
        if len(digits) != 20:
            raise FormError(_("A lawsuit_id is the 20 digits of a CNJ number."))
        return digits
    try:
        key = parse_search_key(value)
    except InvalidSearchKey as error:
        raise FormError(str(error)) from None
    if key.search_type != search_type:
        raise FormError(
            _("This is a {found}, not a {wanted}: change the search type.").format(
                found=word(SEARCH_TYPE_WORDS, key.search_type),
                wanted=word(SEARCH_TYPE_WORDS, search_type),
            )
        )
    return key.key


class RequestFormScreen(FramedScreen):
    """A full screen form (it does not fit a modal at 80x24)."""

    CSS_PATH = "request_form.tcss"
    TITLE_TEXT = N_("New request")
    AUTO_FOCUS = "#rf-search_key"
    HELP_TEXT = N_(
        "Every field of a request. Only the search type and key are required; the rest "
        "have the service's defaults. {send} sends; fields say what is wrong as you type."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {"send": "request_form.send"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f10", "send", _("Send"), id="request_form.send", priority=True),
        Binding("escape", "close", _("Cancel"), id="request_form.cancel"),
    ]

    def __init__(self, key: SearchKey | None = None) -> None:
        super().__init__()
        self._initial = key
        self.sent_body: dict[str, Any] | None = None

    def compose_body(self) -> ComposeResult:
        initial_type = self._initial.search_type if self._initial else "lawsuit_cnj"
        initial_key = self._initial.display if self._initial else ""
        customer_key = self.host.settings.default_customer_key
        with VerticalScroll(id="form"):
            with Horizontal(classes="row"):
                yield FieldBox(
                    _("Search type"),
                    Select(
                        [(shown(SEARCH_TYPE_WORDS, value), value) for value in SEARCH_TYPES],
                        value=initial_type,
                        allow_blank=False,
                        compact=True,
                        id="rf-search_type",
                    ),
                    field="search_type",
                )
                yield _field(
                    _("Search key"),
                    "search_key",
                    value=initial_key,
                    placeholder=_("CNJ, CPF, CNPJ, OAB or name"),
                )
            with Horizontal(classes="row"):
                yield FieldBox(
                    _("Response type"),
                    Select(
                        self._response_choices(initial_type),
                        allow_blank=True,
                        prompt=_("default"),
                        compact=True,
                        id="rf-response_type",
                    ),
                    field="response_type",
                )
                yield _field(
                    _("Stored copy if younger than (days)"),
                    "cache_ttl_in_days",
                    placeholder=_("1–365, empty: always ask the court"),
                )
            with Horizontal(classes="row", id="attachment-row"):
                yield _field(
                    _("Attachment id"),
                    "attachment_id",
                    placeholder=_("as listed in the lawsuit's attachments"),
                )
            with Horizontal(classes="row checks"):
                yield Checkbox(_("On demand"), compact=True, id="rf-on_demand")
                yield Checkbox(_("With attachments"), compact=True, id="rf-with_attachments")
                yield Checkbox(_("Search branches"), compact=True, id="rf-should_search_branches")
                # D80: the provider's AI summary, a response of its own per lawsuit.
                yield Checkbox(_("With AI summary"), compact=True, id="rf-judit_ia")
            yield Static("", id="box-checks-error", classes="field-error")
            with Horizontal(classes="row"):
                yield _field(_("Customer key (vault)"), "customer_key", value=customer_key)
                yield _field(_("Callback URL"), "callback_url", placeholder="https://…")
            with Collapsible(title=_("Filters"), collapsed=True, id="filters"):
                with Horizontal(classes="row"):
                    yield FieldBox(
                        _("Side"),
                        Select(
                            [
                                (shown(SIDE_WORDS, Side.ACTIVE), "Active"),
                                (shown(SIDE_WORDS, Side.PASSIVE), "Passive"),
                            ],
                            prompt=_("any"),
                            compact=True,
                            id="rf-side",
                        ),
                        field="side",
                    )
                    yield _field(_("Tribunals"), "tribunals", placeholder="TJSP, TRF3")
                with Horizontal(classes="row"):
                    yield _field(_("Party names"), "party_names", placeholder=_("comma separated"))
                    yield _field(_("Party documents"), "party_documents", placeholder="CPF, CNPJ")
                with Horizontal(classes="row"):
                    yield _field(
                        _("Distributed from"), "distribution_from", placeholder=_("dd/mm/yyyy")
                    )
                    yield _field(
                        _("Distributed until"), "distribution_to", placeholder=_("dd/mm/yyyy")
                    )
                with Horizontal(classes="row"):
                    yield _field(_("Last step from"), "last_step_from", placeholder=_("dd/mm/yyyy"))
                    yield _field(_("Last step until"), "last_step_to", placeholder=_("dd/mm/yyyy"))
                with Horizontal(classes="row"):
                    yield _field(
                        _("Classes"), "classification_names", placeholder=_("comma separated")
                    )
                    yield _field(_("Subjects"), "subject_names", placeholder=_("comma separated"))
                with Horizontal(classes="row"):
                    yield _field(_("Amount from"), "amount_min", placeholder="R$ 1.000,00")
                    yield _field(_("Amount up to"), "amount_max", placeholder="R$ 50.000,00")
            yield Static("", id="form-error", classes="field-error")
            with Horizontal(id="form-buttons"):
                yield send_button(
                    self.app, _("Send ({key})"), "request_form.send", button_id="send"
                )
                yield cancel_button(self.app, "request_form.cancel", button_id="cancel")

    @staticmethod
    def _response_choices(search_type: str) -> list[tuple[str, str]]:
        return [
            (shown(RESPONSE_TYPE_WORDS, item), str(item.value))
            for item in accepted_response_types(search_type)
        ]

    def on_mount(self) -> None:
        super().on_mount()
        self._show_type_fields(self._select("search_type") or "lawsuit_cnj")

    def _show_type_fields(self, search_type: str) -> None:
        """The attachment id only for the attachment searches; the key's own hint."""
        self.query_one("#attachment-row").display = search_type in ATTACHMENT_TYPES
        hint = KEY_PLACEHOLDERS.get(search_type)
        self.query_one("#rf-search_key", Input).placeholder = (
            _(hint) if hint else _("CNJ, CPF, CNPJ, OAB or name")
        )

    # --- reading the fields --------------------------------------------------------------

    def _input(self, name: str) -> str:
        return self.query_one(f"#rf-{name}", Input).value

    def _select(self, name: str) -> str | None:
        value = self.query_one(f"#rf-{name}", Select).value
        return None if isinstance(value, NoSelection) else str(value)

    def _check(self, name: str) -> bool:
        return self.query_one(f"#rf-{name}", Checkbox).value

    def _validators(self) -> dict[str, Callable[[], object]]:
        search_type = self._select("search_type") or "lawsuit_cnj"

        def ttl() -> int | None:
            text = self._input("cache_ttl_in_days").strip()
            if not text:
                return None
            if not text.isdigit() or not 1 <= int(text) <= 365:
                raise FormError(_("A whole number of days from 1 to 365."))
            return int(text)

        def url() -> str | None:
            text = self._input("callback_url").strip()
            if not text:
                return None
            if not (text.startswith("http://") or text.startswith("https://")) or " " in text:
                raise FormError(_("An address starting with http:// or https://"))
            return text

        def attachment() -> str | None:
            text = self._input("attachment_id").strip()
            if search_type in ATTACHMENT_TYPES and not text:
                raise FormError(_("Name the attachment to fetch (its id in the lawsuit)."))
            return text or None

        def customer() -> str | None:
            text = self._input("customer_key").strip()
            return text or None

        def documents() -> list[str]:
            found = []
            for part in split_list(self._input("party_documents"), separators=",;"):
                try:
                    found.append(parse_search_key(part).key)
                except InvalidSearchKey as error:
                    raise FormError(f"{part}: {error}") from None
            return found

        return {
            "search_key": lambda: check_key(search_type, self._input("search_key")),
            "cache_ttl_in_days": ttl,
            "attachment_id": attachment,
            "callback_url": url,
            "customer_key": customer,
            "party_documents": documents,
            "distribution_from": lambda: _optional(parse_date_br, self._input("distribution_from")),
            "distribution_to": lambda: _optional(parse_date_br, self._input("distribution_to")),
            "last_step_from": lambda: _optional(parse_date_br, self._input("last_step_from")),
            "last_step_to": lambda: _optional(parse_date_br, self._input("last_step_to")),
            "amount_min": lambda: _optional(parse_money_br, self._input("amount_min")),
            "amount_max": lambda: _optional(parse_money_br, self._input("amount_max")),
        }

    def _check_field(self, name: str) -> tuple[str | None, object]:
        """(problem, value) of one field; a field without a check has neither."""
        validator = self._validators().get(name)
        if validator is None:
            return None, None
        try:
            return None, validator()
        except FormError as error:
            return str(error), None

    def _validate(self, name: str) -> None:
        """Check one field as it is typed; what is wrong shows under it."""
        problem, _value = self._check_field(name)
        for box in self.query(f"#box-{name}").results(FieldBox):
            box.set_error(problem)

    def _checks_error(self, message: str) -> None:
        error = self.query_one("#box-checks-error", Static)
        error.update(message)
        error.display = bool(message)

    def _checkbox_problems(self) -> list[str]:
        search_type = self._select("search_type") or "lawsuit_cnj"
        problems: list[str] = []
        response_type = self._select("response_type")
        if self._check("with_attachments") and not attachments_allowed(search_type, response_type):
            problems.append(_("With attachments only applies to a CNJ search or a warrant search."))
        if self._check("should_search_branches") and search_type != "cnpj":
            problems.append(_("Branches can only be searched for a CNPJ."))
        return problems

    def check(self) -> tuple[dict[str, object], dict[str, str], list[str]]:
        """Every field's value, the problems by field, and the problems of the check boxes."""
        values: dict[str, object] = {}
        problems: dict[str, str] = {}
        for name in self._validators():
            problem, values[name] = self._check_field(name)
            if problem is not None:
                problems[name] = problem
        for low, high in RANGES:
            low_value, high_value = values.get(low), values.get(high)
            both = low_value is not None and high_value is not None
            if both and low_value > high_value:  # type: ignore[operator]
                problems[high] = _("Must not be before the first value.")
        return values, problems, self._checkbox_problems()

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        name = (event.input.id or "").removeprefix("rf-")
        if name == "search_key":
            self._follow_key_type(event.value)
        if event.value.strip():
            self._validate(name)
        else:
            for box in self.query(f"#box-{name}").results(FieldBox):
                box.set_error(None)

    def _follow_key_type(self, text: str) -> None:
        """A CPF typed under "lawsuit_cnj" switches the type to cpf (documents only)."""
        select = self.query_one("#rf-search_type", Select)
        if str(select.value) not in DOCUMENT_TYPES:
            return  # name and lawsuit_id are chosen on purpose
        try:
            key = parse_search_key(text, allow_wrong_check_digits=True)
        except InvalidSearchKey:
            return
        if key.search_type != select.value and key.search_type in DOCUMENT_TYPES:
            select.value = key.search_type

    @on(Select.Changed, "#rf-search_type")
    def _type_changed(self, event: Select.Changed) -> None:
        search_type = str(event.value)
        response = self.query_one("#rf-response_type", Select)
        response.set_options(self._response_choices(search_type))
        self._show_type_fields(search_type)
        if self._input("search_key").strip():
            self._validate("search_key")

    @on(Select.Changed, "#rf-response_type")
    def _response_changed(self, event: Select.Changed) -> None:
        problems = self._checkbox_problems()
        self._checks_error(problems[-1] if problems else "")

    @on(Checkbox.Changed)
    def _checked(self, event: Checkbox.Changed) -> None:
        problems = self._checkbox_problems()
        self._checks_error(problems[-1] if problems else "")

    # --- building and sending ------------------------------------------------------------

    def build_body(self) -> CreateRequestBody | None:
        """The body when every field is right; else None, each problem shown at its field."""
        from pydantic import ValidationError

        from lawsuit_tui.domain.bodies import CreateRequestBody, validation_messages

        self.query_one("#form-error", Static).update("")
        values, problems, checks = self.check()
        show_problems(self, problems)
        self._checks_error(checks[-1] if checks else "")
        if problems or checks:
            return None
        search: dict[str, Any] = {
            "search_type": self._select("search_type") or "lawsuit_cnj",
            "search_key": values["search_key"],
        }
        if self._select("response_type"):
            search["response_type"] = self._select("response_type")
        if values["cache_ttl_in_days"] is not None:
            search["cache_ttl_in_days"] = values["cache_ttl_in_days"]
        if self._check("on_demand"):
            search["on_demand"] = True
        if self._check("should_search_branches"):
            search["should_search_branches"] = True
        params: dict[str, Any] = {}
        if values["customer_key"]:
            params["credential"] = {"customer_key": values["customer_key"]}
        if values["attachment_id"]:
            params["attachment_id"] = values["attachment_id"]
        flt = self._filter(values)
        if flt:
            params["filter"] = flt
        elif search["search_type"] == "custom":
            self.query_one("#filters", Collapsible).collapsed = False
            self.query_one("#form-error", Static).update(
                _("A custom search needs at least one filter: fill one under Filters.")
            )
            return None
        if params:
            search["search_params"] = params
        body: dict[str, Any] = {"search": search}
        if values["callback_url"]:
            body["callback_url"] = values["callback_url"]
        if self._check("with_attachments"):
            body["with_attachments"] = True
        if self._check("judit_ia"):
            body["judit_ia"] = ["summary"]
        try:
            return CreateRequestBody.model_validate(body)
        except ValidationError as error:
            self.query_one("#form-error", Static).update("\n".join(validation_messages(error)))
            return None

    def _filter(self, values: dict[str, object]) -> dict[str, Any]:
        flt: dict[str, Any] = {}
        if self._select("side"):
            flt["side"] = self._select("side")
        if names := split_list(self._input("party_names"), separators=",;"):
            flt["party_names"] = names
        if values["party_documents"]:
            flt["party_documents"] = values["party_documents"]
        for name, wire in (
            ("distribution_from", "distribution_date_gte"),
            ("distribution_to", "distribution_date_lte"),
            ("last_step_from", "last_step_date_gte"),
            ("last_step_to", "last_step_date_lte"),
        ):
            value = values[name]
            if isinstance(value, date):
                flt[wire] = value.isoformat()
        if tribunals := split_list(self._input("tribunals"), separators=",;"):
            flt["tribunals"] = {"keys": tribunals, "not_equal": False}
        if classes := split_list(self._input("classification_names"), separators=",;"):
            flt["classification_names"] = {"keys": classes, "not_equal": False}
        if subjects := split_list(self._input("subject_names"), separators=",;"):
            flt["subject_names"] = {"contains": subjects}
        if values["amount_min"] is not None:
            flt["amount_gte"] = float(values["amount_min"])  # type: ignore[arg-type]
        if values["amount_max"] is not None:
            flt["amount_lte"] = float(values["amount_max"])  # type: ignore[arg-type]
        return flt

    def action_send(self) -> None:
        body = self.build_body()
        if body is None:
            self.notify(_("Some fields need attention."), severity="warning", timeout=3)
            return
        self.sent_body = body.to_wire()
        self._send(body)

    @work(exclusive=True, group="request_form.send", exit_on_error=False)
    async def _send(self, body: CreateRequestBody) -> None:
        from lawsuit_tui.services.errors import ApiError, BadRequest, Unprocessable

        context = await self.services()
        button = self.query_one("#send", Button)
        button.disabled = True
        try:
            if not await self.host.paid_call_allowed(_("Send this request")):
                return
            records = await context.requests.create(body)
        except (BadRequest, Unprocessable) as error:
            self._show_service_errors(error)
            return
        except ApiError as error:
            self.query_one("#form-error", Static).update(describe_error(error))
            return
        finally:
            button.disabled = False
        if not records:
            return
        self.notify(_("Request created."), timeout=3)
        request_id = records[0].request_id
        self.dismiss()
        self.host.open_request(request_id)

    def _show_service_errors(self, error: BadRequest | Unprocessable) -> None:
        """The service's 400/422: each field it names under that field, the rest below."""
        per_field, leftovers = service_problems(error, field_for_wire)
        checks = [per_field.pop(name) for name in CHECKBOXES if name in per_field]
        show_problems(self, per_field)
        if checks:
            self._checks_error(checks[-1])
        head = error.summary if not error.items else error.title
        self.query_one("#form-error", Static).update("\n".join([head, *leftovers]))

    @on(Button.Pressed, "#send")
    def _send_pressed(self) -> None:
        self.action_send()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss()
