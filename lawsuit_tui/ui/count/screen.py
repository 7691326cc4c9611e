"""Count lawsuits matching a filter, for prospecting, then buy them (the Miner, D72).

The form changes with the type of credit: budget years and natures only for precatórios
(judgement-bond), tags only for enforcements of judgment (sentence-execution); the amount is a
range in R$ or a tier, never both. Courts are picked from the Miner's own list
(:class:`~lawsuit_tui.ui.count.court_picker.CourtPicker`). Every rule is checked before
sending (:meth:`CountBody.problems`); the service's own ``{errors: [...]}`` is shown in full.
A filter the client refuses can still be sent on purpose (``count.send_anyway``), to see what
the service says about it.

A count's result can be bought as a *find* request (``count.find``): one question (the cap
and what it costs), then the request is followed to completed on the screen and its lawsuits
open in :class:`~lawsuit_tui.ui.count.find_lawsuits.FindLawsuitsScreen`. The history (from
the cache) lists every count and find, newest first: Enter on a count puts its filter back in
the form, on a find opens its lawsuits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from enum import StrEnum
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
from lawsuit_tui.domain.enums import AmountTier, CountKind, CountTag, MinerRequestType, Nature
from lawsuit_tui.domain.formatting import format_datetime, format_int, format_money, parse_money_br
from lawsuit_tui.domain.miner import MinerRequest
from lawsuit_tui.domain.vocabulary import (
    AMOUNT_TIER_WORDS,
    COUNT_KIND_WORDS,
    COUNT_TAG_WORDS,
    MINER_ERROR_WORDS,
    MINER_STATUS_WORDS,
    NATURE_WORDS,
    word,
)
from lawsuit_tui.i18n import N_, _, ngettext
from lawsuit_tui.ui.count.count_text import filter_summary, money_value
from lawsuit_tui.ui.count.court_picker import CourtPicker
from lawsuit_tui.ui.errors import http_status, service_messages
from lawsuit_tui.ui.framed_screen import FramedScreen, PaletteCommand
from lawsuit_tui.ui.keys import named_keys
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


class CountScreen(FramedScreen):
    """The count form, its result and the history of counts."""

    TITLE_TEXT = N_("Count")
    HELP_TEXT = N_(
        "Count the lawsuits that match a filter, to size a prospecting effort; counting is "
        "free and leaves out what you already bought. Choose the type of credit first: "
        "budget years and natures apply to precatórios, tags to enforcements of judgment. "
        "Pick the courts from the Miner's list: type an acronym or a name to narrow it, {pick} "
        "or {open} picks ({open} in the box picks what you typed: TJSP, TRF3); none picked "
        "means every court. The amount is a range in R$ or a tier, never both. A count can "
        "then be bought as a find request (paid, {find}): the Miner returns its lawsuits, "
        "which open here and can be exported. The history ({history}) keeps every count and "
        "find: {open} on a count puts its filter back in the form, on a find opens its lawsuits."
    )
    HELP_KEYS: ClassVar[Mapping[str, str]] = {
        "open": "enter",
        "pick": "space",
        "find": "count.find",
        "history": "count.history",
    }
    CSS_PATH = "count.tcss"

    # Keys that work while typing in the form's fields (F7 and F9 are the app's, issue 19).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f10", "submit", _("Count"), id="count.submit"),
        Binding("ctrl+f", "find", _("Buy"), id="count.find"),
        Binding("ctrl+g", "send_anyway", _("Send as is"), id="count.send_anyway", show=False),
        Binding("ctrl+l", "clear", _("Clear"), id="count.clear"),
        Binding("ctrl+t", "focus_history", _("History"), id="count.history"),
        Binding("escape", "focus_form", _("Form"), id="count.focus_form", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.result: CountRequestResult | None = None
        self.service_errors: list[str] = []
        self.problems: list[str] = []
        self.history: list[dict[str, Any]] = []
        self.sent: dict[str, Any] | None = None
        # the find request under way or last followed, as GET /requests/{id} answered
        self.find_state: MinerRequest | None = None
        self.find_cost: float | None = None

    # --- layout -------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="count-columns"):
            with VerticalScroll(id="count-form"):
                yield FieldBox(
                    _("Type of credit"),
                    Select[str](
                        [(word(COUNT_KIND_WORDS, kind), kind.value) for kind in CountKind],
                        value=CountKind.JUDGEMENT_BOND.value,
                        allow_blank=False,
                        compact=True,
                        id="cn-kind",
                    ),
                    field="kind",
                )
                yield FieldBox(
                    _("Courts (type to narrow, {pick} picks)").format(
                        pick=named_keys(self.app, {"pick": "space"})["pick"]
                    ),
                    CourtPicker(id="cn-court-picker"),
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
                    [(word(AMOUNT_TIER_WORDS, tier), tier.value) for tier in AmountTier],
                    prompt=_("Choose a tier"),
                    compact=True,
                    id="cn-tier",
                )
                yield FieldBox(
                    _("Budget years"),
                    Input(placeholder="2024, 2025", compact=True, id="cn-budget-years"),
                    field="budget-years",
                )
                with Vertical(id="box-natures-row", classes="checks"):
                    for nature in Nature:
                        yield Checkbox(
                            word(NATURE_WORDS, nature), id=f"cn-nature-{nature.value}", compact=True
                        )
                with Vertical(id="box-tags-row", classes="checks"):
                    for tag in CountTag:
                        yield Checkbox(
                            word(COUNT_TAG_WORDS, tag), id=f"cn-tag-{tag.value}", compact=True
                        )
                yield Static("", id="cn-problems", markup=False)
                with Horizontal(id="cn-buttons"):
                    yield Button(
                        _("Count ({key})").format(key=self.host.binding_key("count.submit")),
                        id="cn-submit",
                        variant="primary",
                        compact=True,
                    )
            with Vertical(id="count-side"):
                yield Static(_("No count yet."), id="count-result")
                yield Static("", id="count-find")
                yield Static(_("History"), id="count-history-title")
                yield OptionList(id="count-history")

    def on_mount(self) -> None:
        super().on_mount()
        self._kind_changed()
        self._amount_mode_changed()
        self.query_one("#cn-kind", Select).focus()

    def on_services_ready(self, context: ServiceContext) -> None:
        self.load_history()
        self.load_courts()

    @work(exclusive=True, group="count.courts", exit_on_error=False)
    async def load_courts(self) -> None:
        """The Miner's courts: the cached list at once, then the service's."""
        context = await self.services()
        picker = self.query_one(CourtPicker)
        cached = context.count.cached_tribunals()
        if cached:
            picker.set_courts(cached)
        picker.set_courts(await context.count.tribunals())

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand(
            _("Count lawsuits"),
            _("Send the count filter"),
            self.action_submit,
            binding_id="count.submit",
        )
        yield PaletteCommand(
            _("Buy the counted lawsuits"),
            _("Create a find request (paid) for the last count"),
            self.action_find,
            binding_id="count.find",
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
        picker = self.query_one(CourtPicker)
        # what is still typed in the box counts too
        problem = picker.pick_typed(show=False)
        if problem is not None:
            errors["tribunals"] = problem
        elif picker.chosen:
            data["tribunals"] = list(picker.chosen)
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
            if natures := self._ticked("cn-nature-", Nature):
                data["natures"] = natures
        elif tags := self._ticked("cn-tag-", CountTag):
            data["tags"] = tags
        return data

    def _ticked(self, prefix: str, choices: Iterable[StrEnum]) -> list[str]:
        """The choices whose checkbox (``#<prefix><value>``) is ticked, in their order."""
        return [
            choice.value
            for choice in choices
            if self.query_one(f"#{prefix}{choice.value}", Checkbox).value
        ]

    def _show_problems(self, errors: dict[str, str], problems: list[str]) -> None:
        """Each problem beside its field; the panel says the count was not sent, lists the
        problems no field owns, and offers to send as is."""
        typing_ok = not errors
        unplaced: list[str] = []
        for problem in problems:
            target = next(
                (field for name, field in _PROBLEM_FIELDS if problem.startswith(name)), None
            )
            if problem.startswith(_AMOUNT_ORDER_MARK):
                target, problem = "amount", problem.removeprefix(_AMOUNT_ORDER_MARK)
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
        problems = (
            [] if errors else [_in_words(problem, data) for problem in CountBody.problems(data)]
        )
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
        for selector in ("#cn-min", "#cn-max", "#cn-budget-years"):
            self.query_one(selector, Input).value = ""
        self.query_one(CourtPicker).set_chosen([])
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

    def _court_names(self) -> dict[int, str]:
        return {court.tribunal_id: court.name for court in self.query_one(CourtPicker).courts}

    def _show_result(self, result: CountRequestResult) -> None:
        echo = result.filter.model_dump(mode="json") if result.filter else {}
        muted = theme_style(self.app, "text-muted")
        text = Text()
        text.append(_("Total lawsuits: "), style=muted)
        text.append(
            format_int(result.total_lawsuits),
            style=theme_style(self.app, "text-success", bold=True),
        )
        text.append("\n")
        text.append(_("Count #{id}").format(id=result.request_id or ""), style=muted)
        text.append("\n")
        text.append(_("Filter applied: "), style=muted)
        text.append(filter_summary(echo, self._court_names()) or _("(none)"))
        if result.total_lawsuits:
            key = self.host.binding_key("count.find")
            text.append("\n")
            text.append(
                _("{key} buys these lawsuits (a paid find request).").format(key=key), style=muted
            )
        self.query_one("#count-result", Static).update(text)

    # --- find requests (paid) -----------------------------------------------------------

    def action_find(self) -> None:
        """Buy the lawsuits of the last count: one question (the cap, the cost), then go."""
        from lawsuit_tui.ui.count.find_dialog import FindDialog

        result, data = self.result, self.sent
        if result is None or data is None or not result.total_lawsuits:
            key = self.host.binding_key("count.submit")
            self.notify(
                _("Count first ({key}): a find request buys what a count found.").format(key=key),
                timeout=6,
            )
            return
        total = result.total_lawsuits
        summary = filter_summary(data, self._court_names())

        def answered(cap: int | None) -> None:
            if cap is not None:
                self.create_find({**data, "responses_limit": cap})

        self.app.push_screen(FindDialog(total, summary), answered)

    @work(exclusive=True, group="count.find", exit_on_error=False)
    async def create_find(self, data: dict[str, Any]) -> None:
        context = await self.services()
        try:
            created = await context.count.create_find(CountBody.model_validate(data))
        except Exception as exc:
            self._show_find_text(self._miner_refusal(exc), error=True)
            return
        self.find_cost = float(created.cost) if created.cost is not None else None
        self.load_history()
        self.follow_find(created.request_id)

    @work(exclusive=True, group="count.find_follow", exit_on_error=False)
    async def follow_find(self, request_id: int) -> None:
        context = await self.services()
        final = await context.count.follow_find(request_id, self._find_progress)
        self.load_history()
        if final.status == "completed":
            self.open_find(request_id)

    def _find_progress(self, state: MinerRequest) -> None:
        self.find_state = state
        done = state.processed_lawsuits or 0
        total = state.total_lawsuits or 0
        text = _("Find request #{id}: {status}, {done} of {total} lawsuits").format(
            id=state.request_id,
            status=word(MINER_STATUS_WORDS, state.status),
            done=format_int(done if state.status != "completed" else total),
            total=format_int(total),
        )
        if self.find_cost is not None:
            text += " · " + _("{cost} credits debited").format(cost=_credits(self.find_cost))
        if state.status == "failed" and state.error_message:
            text += "\n" + state.error_message
        self._show_find_text(text, error=state.status == "failed")

    def _show_find_text(self, text: str, *, error: bool = False) -> None:
        panel = self.query_one("#count-find", Static)
        style = theme_style(self.app, "text-error" if error else "text-primary")
        panel.update(Text(text, style=style))
        panel.set_class(True, "-shown")

    def _miner_refusal(self, exc: BaseException) -> str:
        """The Miner's codes (INSUFFICIENT_CREDITS...) in words; else the service's lines."""
        lines = service_messages(exc)
        said = [word(MINER_ERROR_WORDS, line) for line in lines]
        return _("The find request was not created:") + " " + " ".join(said)

    def open_find(self, request_id: int) -> None:
        from lawsuit_tui.ui.count.find_lawsuits import FindLawsuitsScreen

        self.app.push_screen(FindLawsuitsScreen(request_id, self._court_names()))

    @work(exclusive=True, group="count.history", exit_on_error=False)
    async def load_history(self) -> None:
        context = await self.services()
        self.history = list(context.count.history())
        muted = theme_style(self.app, "text-muted")
        options: list[Option | None] = []
        names = self._court_names()
        for index, entry in enumerate(self.history):
            flt = entry.get("filter") or entry.get("asked") or {}
            total = _as_int(entry.get("total_lawsuits"))
            prompt = Text(format_datetime(entry.get("counted_at")), style=muted)
            prompt.append("  ")
            if entry.get("type") == MinerRequestType.FIND.value:
                prompt.append(
                    _("find #{id}, {cost} credits").format(
                        id=entry.get("request_id", ""), cost=_credits(entry.get("cost"))
                    ),
                    style=theme_style(self.app, "text-warning", bold=True),
                )
                prompt.append("\n")
            else:
                prompt.append(
                    ngettext("{n} lawsuit", "{n} lawsuits", total or 0).format(n=format_int(total)),
                    style=theme_style(self.app, "text-success", bold=True),
                )
                prompt.append(f" · #{entry.get('request_id', '')}\n", style=muted)
            prompt.append(filter_summary(flt, names))
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
                "History: {n} request", "History: {n} requests, newest first", len(self.history)
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
            request_id = _as_int(entry.get("request_id"))
            if entry.get("type") == MinerRequestType.FIND.value and request_id is not None:
                self.open_find(request_id)
                return
            self.fill(entry.get("asked") or entry.get("filter") or {})
            self.query_one("#cn-kind", Select).focus()

    def fill(self, flt: Mapping[str, Any]) -> None:
        """Put a filter (from the history) back in the form."""
        self.action_clear()
        kind = flt.get("kind")
        if kind in {k.value for k in CountKind}:
            self.query_one("#cn-kind", Select).value = str(kind)
        self.query_one(CourtPicker).set_chosen(
            n for n in flt.get("tribunals") or [] if isinstance(n, int)
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


# Marks the amount-order problem said in R$ (placed under the amount, not shown raw).
_AMOUNT_ORDER_MARK = "\x00amount-order\x00"


def _in_words(problem: str, data: dict[str, Any]) -> str:
    """The body's rule "amount_min (…) must not be greater than amount_max (…)" as the
    person typed it, in R$ (issue 19); any other problem as it is."""
    low, high = data.get("amount_min"), data.get("amount_max")
    if problem.startswith("amount_min (") and low is not None and high is not None:
        text = _("The minimum, {low}, is above the maximum, {high}").format(
            low=format_money(low), high=format_money(high)
        )
        return _AMOUNT_ORDER_MARK + text
    return problem


def _credits(value: object) -> str:
    """Credits as a count (``8.950``), with decimals only when there are some."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "?"
    if float(value).is_integer():
        return format_int(int(value))
    return format_money(value).removeprefix("R$ ")


def _as_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _money_text(value: object) -> str:
    if value is None:
        return ""
    return format_money(value if isinstance(value, int | float) else str(value)).removeprefix("R$ ")
