"""Count lawsuits matching a filter, for prospecting (the miner's count service).

The form changes with the kind: budget years and natures only for judgement-bond, tags only
for sentence-execution; the amount is a range or a tier, never both. Tribunals are typed by
number (D36: 826 = TJSP) and named as they are typed. Every rule is checked before sending
(:meth:`CountBody.problems`); the service's own ``{errors: [...]}`` is shown in full. A
filter the client refuses can still be sent on purpose (``count.send_anyway``), to see what
the service says about it. The result echoes the filter applied; the history (from the
cache) lists every count made, newest first, and Enter on one puts its filter back in the
form to compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.domain.enums import AmountTier, CountKind, CountTag, Nature
from lawsuit_tui.domain.formatting import format_datetime, format_int, parse_money_br
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.count.count_text import court_acronym, filter_summary, money_value
from lawsuit_tui.ui.errors import http_status, service_messages
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.widgets.form import FieldBox, parse_int_list, show_general, show_problems
from lawsuit_tui.ui.widgets.theme_text import theme_style

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["CountScreen"]

AMOUNT_ANY = "any"
AMOUNT_RANGE = "range"
AMOUNT_TIER = "tier"

# The body field each problem names first -> the form field it belongs to.
_PROBLEM_FIELDS = (
    ("tribunals", "tribunals"),
    ("amount_min", "amount"),
    ("amount_max", "amount"),
    ("amount_tier", "amount"),
    ("budget_years", "budget-years"),
    ("natures", "natures"),
    ("tags", "tags"),
    ("kind", "kind"),
)


# Labels for the service's values (the values themselves are sent untouched).
KIND_LABELS = {
    CountKind.JUDGEMENT_BOND: N_("Judgement bond (precatório)"),
    CountKind.SENTENCE_EXECUTION: N_("Sentence execution"),
}
NATURE_LABELS = {Nature.ALIMENTARY: N_("Alimentary"), Nature.COMMON: N_("Common")}
TAG_LABELS = {
    CountTag.PRECATORY_DISPATCHED: N_("Precatory dispatched"),
    CountTag.POSSIBLE_PRECATORY: N_("Possible precatory"),
    CountTag.POSSIBLE_APPROVED_CALCULATION: N_("Possible approved calculation"),
}


class CountScreen(FramedScreen):
    """The count form, its result and the history of counts."""

    TITLE_TEXT = N_("Count")
    HELP_TEXT = N_(
        "Count the lawsuits that match a filter, to size a prospecting effort; counting is "
        "free. Choose the kind first: budget years and natures apply to judgement-bond, tags "
        "to sentence-execution. Tribunals are numbers made of the CNJ's J and TR digits "
        "(826 = TJSP, 403 = TRF3). The amount is a range or a tier, never both. The history "
        "keeps every count: Enter on one puts its filter back in the form."
    )
    CSS_PATH = "count.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f10", "submit", _("Count"), id="count.submit"),
        Binding("f9", "send_anyway", _("Send as is"), id="count.send_anyway", show=False),
        Binding("ctrl+l", "clear", _("Clear"), id="count.clear"),
        # F7 is the inbox's, everywhere.
        Binding("ctrl+g", "focus_history", _("History"), id="count.history"),
        Binding("escape", "focus_form", _("Form"), id="count.focus_form", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.result: CountRequestResult | None = None
        self.service_errors: list[str] = []
        self.problems: list[str] = []
        self.history: list[dict[str, Any]] = []
        self.sent: dict[str, Any] | None = None

    # --- layout -------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="count-columns"):
            with VerticalScroll(id="count-form"):
                yield FieldBox(
                    _("Kind"),
                    Select[str](
                        [(_(KIND_LABELS[kind]), kind.value) for kind in CountKind],
                        value=CountKind.JUDGEMENT_BOND.value,
                        allow_blank=False,
                        compact=True,
                        id="cn-kind",
                    ),
                    field="kind",
                )
                yield FieldBox(
                    _("Tribunals (826 = TJSP, 403 = TRF3)"),
                    Input(placeholder="826, 403", compact=True, id="cn-tribunals"),
                    field="tribunals",
                )
                yield FieldBox(
                    _("Amount"),
                    Select[str](
                        [
                            (_("any amount"), AMOUNT_ANY),
                            (_("a range (R$)"), AMOUNT_RANGE),
                            (_("a tier"), AMOUNT_TIER),
                        ],
                        value=AMOUNT_ANY,
                        allow_blank=False,
                        compact=True,
                        id="cn-amount-mode",
                    ),
                    field="amount",
                )
                with Horizontal(id="cn-range"):
                    yield Input(placeholder=_("min 1.000,00"), compact=True, id="cn-min")
                    yield Input(placeholder=_("max 50.000,00"), compact=True, id="cn-max")
                yield Select[str](
                    [(tier.value, tier.value) for tier in AmountTier],
                    prompt=_("Choose a tier"),
                    compact=True,
                    id="cn-tier",
                )
                yield FieldBox(
                    _("Budget years"),
                    Input(placeholder="2024, 2025", compact=True, id="cn-budget-years"),
                    field="budget-years",
                )
                with Horizontal(id="box-natures-row", classes="checks"):
                    for nature in Nature:
                        yield Checkbox(
                            _(NATURE_LABELS[nature]), id=f"cn-nature-{nature.value}", compact=True
                        )
                with Vertical(id="box-tags-row", classes="checks"):
                    for tag in CountTag:
                        yield Checkbox(_(TAG_LABELS[tag]), id=f"cn-tag-{tag.value}", compact=True)
                yield Static("", id="cn-problems", markup=False)
                with Horizontal(id="cn-buttons"):
                    yield Button(_("Count (F10)"), id="cn-submit", variant="primary", compact=True)
            with Vertical(id="count-side"):
                yield Static(_("No count yet."), id="count-result")
                yield Static(_("History"), id="count-history-title")
                yield OptionList(id="count-history")

    def on_mount(self) -> None:
        super().on_mount()
        self._kind_changed()
        self._amount_mode_changed()
        self.query_one("#cn-kind", Select).focus()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load_history()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Count lawsuits"),
            _("Send the count filter"),
            self.action_submit,
            binding_id="count.submit",
        )
        yield PaletteCommand(
            _("Count: send as is"),
            _("Send the filter without the client's checks, to see the service's answer"),
            self.action_send_anyway,
            binding_id="count.send_anyway",
        )

    # --- the form -----------------------------------------------------------------------

    def _kind(self) -> str:
        value = self.query_one("#cn-kind", Select).value
        return value if isinstance(value, str) else CountKind.JUDGEMENT_BOND.value

    def _amount_mode(self) -> str:
        value = self.query_one("#cn-amount-mode", Select).value
        return value if isinstance(value, str) else AMOUNT_ANY

    @on(Select.Changed, "#cn-kind")
    def _kind_changed(self) -> None:
        bond = self._kind() == CountKind.JUDGEMENT_BOND
        self.query_one("#box-budget-years").display = bond
        self.query_one("#box-natures-row").display = bond
        self.query_one("#box-tags-row").display = not bond

    @on(Select.Changed, "#cn-amount-mode")
    def _amount_mode_changed(self) -> None:
        mode = self._amount_mode()
        self.query_one("#cn-range").display = mode == AMOUNT_RANGE
        self.query_one("#cn-tier").display = mode == AMOUNT_TIER

    @on(Input.Changed, "#cn-tribunals")
    def _tribunals_changed(self, event: Input.Changed) -> None:
        box = self.query_one("#box-tribunals", FieldBox)
        try:
            numbers = parse_int_list(event.value, what=_("Tribunals"))
        except ValueError:
            box.set_hint(None)
            return
        names = [f"{n} {court_acronym(n) or '?'}" for n in numbers]
        box.set_hint(", ".join(names) if names else None)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#cn-submit")
    def _submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit()

    def collect(self, errors: dict[str, str]) -> dict[str, Any]:
        """The count body from the form (only the fields of the kind); typing problems go to
        ``errors`` by form field."""
        kind = self._kind()
        data: dict[str, Any] = {"kind": kind}
        text = self.query_one("#cn-tribunals", Input).value
        try:
            tribunals = parse_int_list(text, what=_("Tribunals"))
        except ValueError as exc:
            errors["tribunals"] = str(exc)
        else:
            unknown = [str(n) for n in tribunals if court_acronym(n) is None]
            if unknown:
                errors["tribunals"] = _(
                    "No court has the number {numbers}: use the J and TR digits of a CNJ "
                    "number (826 = TJSP)"
                ).format(numbers=", ".join(unknown))
            elif tribunals:
                data["tribunals"] = tribunals
        mode = self._amount_mode()
        if mode == AMOUNT_RANGE:
            for name, selector in (("amount_min", "#cn-min"), ("amount_max", "#cn-max")):
                value = self.query_one(selector, Input).value
                if not value.strip():
                    continue
                try:
                    amount: Decimal = parse_money_br(value)
                except ValueError as exc:
                    errors["amount"] = str(exc)
                    continue
                data[name] = money_value(amount)
            if "amount_min" not in data and "amount_max" not in data and "amount" not in errors:
                errors["amount"] = _("Give a minimum, a maximum or both")
        elif mode == AMOUNT_TIER:
            tier = self.query_one("#cn-tier", Select).value
            if isinstance(tier, str):
                data["amount_tier"] = tier
            else:
                errors["amount"] = _("Choose a tier")
        if kind == CountKind.JUDGEMENT_BOND:
            years_text = self.query_one("#cn-budget-years", Input).value
            try:
                years = parse_int_list(years_text, what=_("Budget years"))
            except ValueError as exc:
                errors["budget-years"] = str(exc)
            else:
                if years:
                    data["budget_years"] = years
            natures = [
                nature.value
                for nature in Nature
                if self.query_one(f"#cn-nature-{nature.value}", Checkbox).value
            ]
            if natures:
                data["natures"] = natures
        else:
            tags = [
                tag.value
                for tag in CountTag
                if self.query_one(f"#cn-tag-{tag.value}", Checkbox).value
            ]
            if tags:
                data["tags"] = tags
        return data

    def _show_problems(self, errors: dict[str, str], problems: list[str]) -> None:
        """Each problem beside its field; the panel says the count was not sent, lists the
        problems no field owns, and offers to send as is."""
        typing_ok = not errors
        unplaced: list[str] = []
        for problem in problems:
            target = next(
                (field for name, field in _PROBLEM_FIELDS if problem.startswith(name)), None
            )
            if target is not None and target not in errors:
                errors[target] = problem
            elif target is None:
                unplaced.append(problem)
        show_problems(self, errors)
        self.problems = list(errors.values()) + unplaced
        lines: list[str] = []
        if self.problems:
            lines = [_("Not sent: fix what is marked.")] + [f"• {line}" for line in unplaced]
            if typing_ok and problems:
                key = self.host.binding_key("count.send_anyway")
                lines.append(
                    _("{key} sends it as is, to see the service's answer.").format(key=key)
                )
        show_general(self.query_one("#cn-problems", Static), lines)

    def action_submit(self) -> None:
        errors: dict[str, str] = {}
        data = self.collect(errors)
        problems = [] if errors else CountBody.problems(data)
        self._show_problems(errors, problems)
        if errors or problems:
            return
        self.send(CountBody.model_validate(data), data)

    def action_send_anyway(self) -> None:
        """Send the filter as typed, skipping the client's cross-field rules."""
        errors: dict[str, str] = {}
        data = self.collect(errors)
        if errors:
            self._show_problems(errors, [])
            return
        self._show_problems({}, [])
        self.send(_construct(data), data)

    def action_clear(self) -> None:
        for selector in ("#cn-tribunals", "#cn-min", "#cn-max", "#cn-budget-years"):
            self.query_one(selector, Input).value = ""
        for box in self.query(Checkbox):
            box.value = False
        self.query_one("#cn-amount-mode", Select).value = AMOUNT_ANY
        self.query_one("#cn-tier", Select).clear()
        self._show_problems({}, [])

    def action_focus_history(self) -> None:
        self.query_one("#count-history", OptionList).focus()

    def action_focus_form(self) -> None:
        self.query_one("#cn-kind", Select).focus()

    # --- sending and results ------------------------------------------------------------

    @work(exclusive=True, group="count.send", exit_on_error=False)
    async def send(self, body: CountBody, data: dict[str, Any]) -> None:
        context = await self.services()
        self.sent = data
        button = self.query_one("#cn-submit", Button)
        button.disabled = True
        self.query_one("#count-result", Static).update(_("Counting…"))
        try:
            result = await context.count.count(body)
        except Exception as exc:
            self.result = None
            self.service_errors = service_messages(exc)
            self._show_service_errors(exc)
            return
        finally:
            button.disabled = False
        self.result = result
        self.service_errors = []
        self._show_result(result)
        self.load_history()

    def _show_service_errors(self, exc: BaseException) -> None:
        status = http_status(exc)
        head = (
            _("The service refused the count (HTTP {status}):").format(status=status)
            if status
            else _("The count failed:")
        )
        text = Text(head + "\n", style=theme_style(self.app, "text-error", bold=True))
        for line in self.service_errors:
            text.append(f"• {line}\n", style=theme_style(self.app, "text-error"))
        self.query_one("#count-result", Static).update(text)
        self.notify(head + " " + "; ".join(self.service_errors), severity="error", timeout=8)

    def _show_result(self, result: CountRequestResult) -> None:
        echo = result.filter.model_dump(mode="json") if result.filter else {}
        text = Text()
        text.append(_("Total lawsuits: "), style=theme_style(self.app, "text-muted"))
        text.append(
            format_int(result.total_lawsuits),
            style=theme_style(self.app, "text-success", bold=True),
        )
        text.append("\n")
        text.append(_("Request: "), style=theme_style(self.app, "text-muted"))
        text.append(f"{result.request_id if result.request_id is not None else ''}")
        if result.status:
            text.append(f" · {result.status}")
        text.append("\n")
        text.append(_("Filter applied: "), style=theme_style(self.app, "text-muted"))
        text.append(filter_summary(echo) or _("(none)"))
        self.query_one("#count-result", Static).update(text)

    @work(exclusive=True, group="count.history", exit_on_error=False)
    async def load_history(self) -> None:
        context = await self.services()
        self.history = list(context.count.history())
        muted = theme_style(self.app, "text-muted")
        options: list[Option | None] = []
        for index, entry in enumerate(self.history):
            flt = entry.get("filter") or entry.get("asked") or {}
            total = _as_int(entry.get("total_lawsuits"))
            prompt = Text(format_datetime(entry.get("counted_at")), style=muted)
            prompt.append("  ")
            prompt.append(
                ngettext("{n} lawsuit", "{n} lawsuits", total or 0).format(n=format_int(total)),
                style=theme_style(self.app, "text-success", bold=True),
            )
            prompt.append(f"  #{entry.get('request_id', '')}\n", style=muted)
            prompt.append(filter_summary(flt))
            if options:
                options.append(None)  # a rule between counts
            options.append(Option(prompt, id=f"count-{index}"))
        history = self.query_one("#count-history", OptionList)
        history.clear_options()
        history.add_options(options)
        if options:
            history.highlighted = 0
        self.query_one("#count-history-title", Static).update(
            ngettext(
                "History: {n} count", "History: {n} counts, newest first", len(self.history)
            ).format(n=format_int(len(self.history)))
            if self.history
            else _("History: no counts yet")
        )

    @on(OptionList.OptionSelected, "#count-history")
    def _history_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = int((event.option.id or "count--1").rsplit("-", 1)[1])
        if 0 <= index < len(self.history):
            entry = self.history[index]
            self.fill(entry.get("asked") or entry.get("filter") or {})
            self.query_one("#cn-kind", Select).focus()

    def fill(self, flt: Mapping[str, Any]) -> None:
        """Put a filter (from the history) back in the form."""
        self.action_clear()
        kind = flt.get("kind")
        if kind in {k.value for k in CountKind}:
            self.query_one("#cn-kind", Select).value = str(kind)
        self.query_one("#cn-tribunals", Input).value = ", ".join(
            str(n) for n in flt.get("tribunals") or []
        )
        low, high = flt.get("amount_min"), flt.get("amount_max")
        if low is not None or high is not None:
            self.query_one("#cn-amount-mode", Select).value = AMOUNT_RANGE
            self.query_one("#cn-min", Input).value = _money_text(low)
            self.query_one("#cn-max", Input).value = _money_text(high)
        elif flt.get("amount_tier"):
            self.query_one("#cn-amount-mode", Select).value = AMOUNT_TIER
            self.query_one("#cn-tier", Select).value = str(flt["amount_tier"])
        self.query_one("#cn-budget-years", Input).value = ", ".join(
            str(y) for y in flt.get("budget_years") or []
        )
        for nature in flt.get("natures") or []:
            for box in self.query(f"#cn-nature-{nature}").results(Checkbox):
                box.value = True
        for tag in flt.get("tags") or []:
            for box in self.query(f"#cn-tag-{tag}").results(Checkbox):
                box.value = True


def _construct(data: dict[str, Any]) -> CountBody:
    """A CountBody without its cross-field checks (values already of the right types)."""
    values: dict[str, Any] = dict(data)
    values["kind"] = CountKind(values["kind"])
    if "amount_tier" in values:
        values["amount_tier"] = AmountTier(values["amount_tier"])
    if "natures" in values:
        values["natures"] = [Nature(n) for n in values["natures"]]
    if "tags" in values:
        values["tags"] = [CountTag(t) for t in values["tags"]]
    return CountBody.model_construct(**values)


def _as_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _money_text(value: object) -> str:
    if value is None:
        return ""
    from lawsuit_tui.domain.formatting import format_money

    return format_money(value if isinstance(value, int | float) else str(value)).removeprefix("R$ ")
