"""The lawsuit-tui application shell: ``LawsuitApp``.

The app holds the destinations (``navigation.py``: one App mode each), opens the service
context after the first frame (``shell/opening.py``), follows requests for every screen
(``shell/following.py``), switches the embedded webhook receiver (``webhooks/receiver.py``),
polls tracking movements (``trackings/movement_watch.py``), and offers its screens what
``host.py`` lists (``ScreenHost``). How to add a screen: CONTRIBUTING.md.

Tests build it with ``LawsuitApp(settings, context_factory=...)``;
``tests/support/ui_harness.py`` gives a ready factory on the in-process sandbox with a frozen
clock.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.notifications import Notify
from textual.reactive import reactive
from textual.worker import Worker, WorkerState

from lawsuit_tui.i18n import _, current_language, ngettext
from lawsuit_tui.preferences import Preferences
from lawsuit_tui.ui.errors import describe_error, explain_application_error
from lawsuit_tui.ui.keys import class_binding, key_word, words_of_key
from lawsuit_tui.ui.messages import (
    CacheChanged,
    InboxChanged,
    ServicesReady,
    every_screen,
    post_to_every_screen,
)
from lawsuit_tui.ui.navigation import DESTINATIONS, HOME, destination
from lawsuit_tui.ui.shell.following import RequestFollowing
from lawsuit_tui.ui.shell.opening import (
    ContextFactory,
    ContextOpening,
    ServicesUnavailable,
    open_context,
    preload_services,
)
from lawsuit_tui.ui.webhooks.receiver import ReceiverSwitch
from lawsuit_tui.ui.widgets.chrome import StatusSnapshot
from lawsuit_tui.ui.widgets.typed_order import keep_typed_order

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.screen import Screen

    from lawsuit_tui.config import Settings
    from lawsuit_tui.domain.identifiers import SearchKey
    from lawsuit_tui.domain.inbox import Movement
    from lawsuit_tui.domain.lawsuit import Lawsuit
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.webhooks import DeliverySummary
    from lawsuit_tui.ui.host import ScreenHost
    from lawsuit_tui.ui.trackings.movement_watch import MovementWatch
    from lawsuit_tui.webhooks.server import EmbeddedReceiver

__all__ = ["LawsuitApp", "ServicesUnavailable", "StatusSnapshot"]


def _goto_bindings() -> list[BindingType]:
    return [
        Binding(
            item.key,
            f"goto('{item.id}')",
            item.label,
            id=item.binding_id,
            show=False,
        )
        for item in DESTINATIONS
    ]


def _destinations_provider() -> type[Provider]:
    from lawsuit_tui.ui.palette import DestinationsProvider

    return DestinationsProvider


def _screen_commands_provider() -> type[Provider]:
    from lawsuit_tui.ui.palette import ScreenCommandsProvider

    return ScreenCommandsProvider


def _language_provider() -> type[Provider]:
    # "Language: ..." (also found by "idioma").
    from lawsuit_tui.ui.language import LanguageProvider

    return LanguageProvider


class LawsuitApp(App[int]):
    """The keyboard-first workstation."""

    COMMANDS = App.COMMANDS | {
        _destinations_provider,
        _screen_commands_provider,
        _language_provider,
    }

    TITLE = "lawsuit-tui"
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = True
    NOTIFICATION_TIMEOUT = 6

    BINDINGS: ClassVar[list[BindingType]] = [
        *_goto_bindings(),
        Binding("f1,question_mark", "help", _("Help"), id="app.help", show=True),
        Binding("ctrl+o", "follow_notice", _("Go to notice"), id="app.follow_notice", show=False),
        Binding(
            "ctrl+y", "show_copied", _("Show the copied text"), id="app.show_copied", show=False
        ),
        Binding("ctrl+q", "quit", _("Quit"), id="app.quit", show=False, priority=True),
        Binding(
            "ctrl+p",
            "command_palette",
            _("Commands"),
            id="app.command_palette",
            show=False,
            priority=True,
        ),
    ]

    TOASTS_SHOWN: ClassVar[tuple[int, int]] = (2, 4)
    """Most notices shown at once below 30 lines and from 30 lines: more piled up over the
    content at 80x24 (issue 19); the oldest leave first, errors last."""

    MOVEMENT_POLL_SECONDS: ClassVar[float] = 60.0
    """How often the app looks for new tracking movements."""

    status_snapshot: reactive[StatusSnapshot] = reactive(StatusSnapshot, init=False)

    def __init__(
        self,
        settings: Settings | Preferences,
        *,
        sandbox: bool = False,
        read_only: bool = False,
        context_factory: ContextFactory | None = None,
        remember_preferences: bool = True,
        start_receiver: bool = False,
    ) -> None:
        super().__init__()
        keep_typed_order()
        # From the CLI the app gets only the Preferences (no pydantic before the first frame);
        # the validated Settings load in the services worker, or on first use of ``settings``.
        self._settings: Settings | None = None if isinstance(settings, Preferences) else settings
        self.preferences = settings if isinstance(settings, Preferences) else None
        self.read_only = read_only
        self.force_sandbox = sandbox
        self.sandbox_mode = sandbox or settings.mode == "sandbox"
        self._context_factory = context_factory
        self._remember = remember_preferences
        self._opening = ContextOpening()
        self._notice_target: tuple[str, dict[str, Any]] | None = None
        self._following = RequestFollowing(self)
        self._theme_before_picker: str | None = None
        self._copied: tuple[str, str] | None = None
        self._start_receiver = start_receiver
        self.movement_watch: MovementWatch | None = None
        self._unfollow_inbox: Callable[[], None] | None = None
        self.receiver_switch = ReceiverSwitch(
            self, on_change=self._refresh_status, is_news=self._is_news
        )
        for item in DESTINATIONS:
            self.add_mode(item.id, self._mode_factory(item.id))
        if self._settings is not None:
            self.apply_display_zone()
        if settings.theme in self.available_themes:
            self.theme = settings.theme

    @property
    def settings(self) -> Settings:
        """The validated settings (loaded on first use when the app started from Preferences)."""
        if self._settings is None:
            from lawsuit_tui.config import load_settings

            self._settings = load_settings()
        return self._settings

    @property
    def receiver(self) -> EmbeddedReceiver | None:
        """The embedded webhook receiver, once started (``app.receiver``, F8)."""
        return self.receiver_switch.receiver

    # --- startup ------------------------------------------------------------------------

    def on_mount(self) -> None:
        source = self.preferences if self._settings is None else self._settings
        if source is not None and source.keymap:
            self.set_keymap(dict(source.keymap))
        self.switch_mode(HOME)
        # The first frame never waits for the sandbox, the cache or their imports.
        self.call_after_refresh(self._open_services)

    def _mode_factory(self, destination_id: str) -> Callable[[], Screen[Any]]:
        def build() -> Screen[Any]:
            return destination(destination_id).load()()

        return build

    async def _load_settings(self) -> bool:
        """Validate the configuration; a broken one ends the app as the other commands do
        (exit code 2 and one line), and there is then nothing more for the worker to do."""
        from lawsuit_tui.config import ConfigError, load_settings

        try:
            self._settings = await asyncio.to_thread(load_settings)
        except ConfigError as error:
            self.exit(return_code=2, message=f"lawsuit-tui: {error}")
            return False
        self.apply_display_zone()
        return True

    def apply_display_zone(self) -> None:
        """Show times in the user's zone (D146): the setting, else by the language in force
        (Brasília for pt-BR), so a language switch may move them too."""
        from lawsuit_tui.config import display_zone
        from lawsuit_tui.domain.formatting import set_display_zone

        set_display_zone(display_zone(self.settings.timezone, current_language()))

    @work(exclusive=True, group="app.context", exit_on_error=False)
    async def _open_services(self) -> None:
        try:
            if self._context_factory is not None:
                context = await self._context_factory()
            else:
                await asyncio.to_thread(preload_services, self.sandbox_mode)
                if self._settings is None and not await self._load_settings():
                    self._opening.failed(_("The configuration is invalid."))
                    return
                context = await open_context(
                    self.settings, force_sandbox=self.force_sandbox, read_only=self.read_only
                )
        except Exception as error:
            self.status_snapshot = StatusSnapshot(phase="failed", problem=describe_error(error))
            self._opening.failed(describe_error(error))
            raise
        self._start_movement_watch(context)
        self._follow_inbox(context)
        self._opening.opened(context)
        self.sandbox_mode = context.mode == "sandbox"
        self._refresh_status()  # the unread count first: counted before the warm-up holds it
        self._warm_inbox(context)
        context.status.subscribe(self._status_changed)
        self.post_message(ServicesReady(context))
        # Writes other processes hand to this one (a cron sync...) show on every screen.
        context.on_writes_taken(self._writes_taken)
        self._recover_paid_calls(context)
        self._warm_search_index(context)
        if context.cache.held_elsewhere or not context.cache.writable:
            # A standalone receiver (or another window) holds the cache: show what it stores.
            self._follow_writer(context)
        elif self._start_receiver:
            self.toggle_receiver()

    def on_services_ready(self, message: ServicesReady) -> None:
        for screen in every_screen(self):
            ready = getattr(screen, "services_ready", None)
            if ready is not None:
                ready(message.context)

    async def on_unmount(self) -> None:
        if self._unfollow_inbox is not None:
            self._unfollow_inbox()
        try:
            await self.receiver_switch.stop()
        except Exception:
            self.log.error("stopping the webhook receiver failed")
        context = self._opening.context
        if context is not None:
            try:
                await context.aclose()
            except Exception:  # closing must never turn the exit into a traceback
                self.log.error("closing the service context failed")

    # --- what screens may ask (ScreenHost) ----------------------------------------------

    @property
    def services(self) -> ServiceContext | None:
        """The open context, or None while it is still opening (or failed)."""
        return self._opening.context

    async def context(self) -> ServiceContext:
        """Wait for the service context; ServicesUnavailable if it could not be opened."""
        return await self._opening.wait()

    def report_error(self, error: BaseException, *, title: str | None = None) -> None:
        """The one way failures reach the user: a notice with the service's own words."""
        if isinstance(error, ServicesUnavailable):
            return  # already shown when opening failed
        self.notify(
            describe_error(error),
            title=title or _("Something went wrong"),
            severity="error",
            timeout=10,
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            if event.worker.group == "app.context":
                self.notify(
                    describe_error(event.worker.error),
                    title=_("Could not open the service"),
                    severity="error",
                    timeout=30,
                )
                return
            self.report_error(event.worker.error)

    def announce(self, message: str, destination_id: str, **params: Any) -> None:
        """A notice that ``app.follow_notice`` (ctrl+o) follows to ``destination_id``."""
        self._notice_target = (destination_id, params)
        key = self.binding_key("app.follow_notice")
        self.notify(
            f"{message}\n" + _("Press {key} to go there.").format(key=key),
            title=_("New"),
        )

    def _on_notify(self, event: Notify) -> None:
        # Textual's own handler adds every notice; this one collapses a repeated notice and
        # keeps only a few on screen (the Toast rack has no cap of its own).
        new = event.notification
        for old in list(self._notifications):
            if (old.title, old.message) == (new.title, new.message):
                self._unnotify(old, refresh=False)
        self._notifications.add(new)
        small, large = self.TOASTS_SHOWN
        room = small if self.size.height < 30 else large
        while len(self._notifications) > room:
            shown = list(self._notifications)
            victim = next((n for n in shown if n.severity != "error"), shown[0])
            self._unnotify(victim, refresh=False)
        self._refresh_notifications()

    def action_follow_notice(self) -> None:
        if self._notice_target is None:
            self.notify(_("No notice to follow."), timeout=3)
            return
        destination_id, params = self._notice_target
        self._notice_target = None
        self.goto(destination_id, **params)

    def goto(self, destination_id: str, **params: Any) -> None:
        """Switch to a destination; params go to its screen's ``show_params``."""
        destination(destination_id)  # KeyError for an unknown id: a programming error
        if self.current_mode == destination_id and not params:
            # Its key again: back to the destination's own screen (a lawsuit, a request,
            # pushed on top of it, are left).
            while len(self.screen_stack) > 1:
                self.pop_screen()
            return
        self.switch_mode(destination_id)
        if params:
            base = self._screen_stacks[destination_id][0]
            show = getattr(base, "show_params", None)
            if show is not None:
                self.call_after_refresh(show, **params)

    def action_goto(self, destination_id: str) -> None:
        self.goto(destination_id)

    def follow_request(self, request_id: str) -> None:
        """Follow a request until it ends; every screen gets its ``RequestFollowEvent``s."""
        self._following.follow(request_id)

    def is_following(self, request_id: str) -> bool:
        return request_id in self._following

    def open_vault(self, system_name: str | None, customer_key: str | None) -> None:
        """Go to the vault with this court system and customer key selected."""
        self.goto("vault", system_name=system_name, customer_key=customer_key)

    def open_vault_for(self, code: str, instance: int | None, customer_key: str | None) -> None:
        """Go to the vault with the court system of lawsuit ``code`` selected (the service
        finds its exact name in the vault's listing: its errors do not name it)."""
        self.run_worker(
            self._open_vault_for(code, instance, customer_key),
            group="app.vault",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_vault_for(
        self, code: str, instance: int | None, customer_key: str | None
    ) -> None:
        context = await self.context()
        system = await context.vault.court_system(code, instance)
        self.open_vault(system, customer_key or self.settings.default_customer_key)

    def open_lawsuit(
        self,
        code: str,
        instance: int | None = None,
        *,
        lawsuit: Lawsuit | None = None,
        new_steps: Sequence[str] | None = None,
    ) -> None:
        from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen

        self.push_screen(LawsuitTreeScreen(code, instance, lawsuit=lawsuit, new_steps=new_steps))

    def open_movement(self, movement: Movement) -> None:
        """The lawsuit tree at the movement's new steps; the movement marked read (D174).
        A run that could not read the court is explained instead."""
        if movement.error_code:
            explanation = explain_application_error(movement.error_code)
            self.notify(
                " ".join(p for p in (explanation.meaning, explanation.action) if p),
                title=explanation.code or _("Application error"),
                timeout=8,
            )
            if movement.unread:
                self._mark_read(movement.movement_id)
            return
        if not movement.code:
            self.notify(_("This movement holds no lawsuit to open."), timeout=4)
            return
        self.open_lawsuit(movement.code, movement.instance, new_steps=movement.step_ids)
        if movement.unread:
            self._mark_read(movement.movement_id)

    @work(group="app.inbox.mark", exit_on_error=False)
    async def _mark_read(self, movement_id: str) -> None:
        context = await self.context()
        await context.inbox.mark([movement_id])

    def open_request(self, request_id: str, response_id: str | None = None) -> None:
        from lawsuit_tui.ui.requests.responses import ResponsesScreen

        self.push_screen(ResponsesScreen(request_id, response_id=response_id))

    def open_request_form(self, key: SearchKey | None = None) -> None:
        from lawsuit_tui.ui.requests.request_form import RequestFormScreen

        self.push_screen(RequestFormScreen(key))

    def open_dossier(self, document: str) -> None:
        from lawsuit_tui.ui.dossier.screen import DossierScreen

        self.push_screen(DossierScreen(document))

    def open_transfer_files(self) -> None:
        from lawsuit_tui.ui.transfer_files.screen import TransferFilesScreen

        self.push_screen(TransferFilesScreen())

    def copy_text(self, text: str, what: str) -> None:
        """Copy through the terminal (OSC 52: works over SSH, and in tmux once it passes it
        on); the notice names the key that shows the text for the terminal's own copy, the
        fallback when the clipboard never gets it (tmux's default ``set-clipboard external``)."""
        self.copy_to_clipboard(text)
        self._copied = (what, text)
        key = self.binding_key("app.show_copied")
        message = _("Sent {what} to the clipboard: {text}").format(what=what, text=text)
        message += "\n" + _("Nothing arrived? {key} shows it to copy by hand.").format(key=key)
        self.notify(message, timeout=6)

    def action_show_copied(self) -> None:
        """The last text copied, selected, for the terminal's own copy (mouse or tmux)."""
        if self._copied is None:
            self.notify(_("Nothing copied yet."), timeout=3)
            return
        from lawsuit_tui.ui.dialogs.text_view import TextViewScreen

        what, text = self._copied
        self.push_screen(TextViewScreen(what, text, selected=True))

    def binding_key(self, binding_id: str) -> str:
        """The key the user actually has for a binding id (after the keymap), for display.

        A binding of a screen not shown yet (a form being composed) is found in its class."""
        keys = self._keymap.get(binding_id)
        if keys:
            return words_of_key(self, keys)
        # The screen on show first; none while a mode is switched or the app closes (a
        # screen's timer may still ask then: ScreenStackError was raised from here).
        nodes: list[Any] = [self, *self.screen_stack[-1:], *every_screen(self)]
        for node in nodes:
            for _key, binding in node._bindings:
                if binding.id == binding_id:
                    return self.get_key_display(binding)
        binding = class_binding(binding_id)
        return binding_id if binding is None else self.get_key_display(binding)

    def kept_sandbox_samples(self) -> dict[str, Any] | None:
        """See :meth:`ScreenHost.kept_sandbox_samples` (D185). Where the sandbox keeps its
        state comes from the settings once loaded, else from the preferences the first frame
        was drawn with."""
        if not self.sandbox_mode:
            return None
        from lawsuit_tui.services.sandbox_samples import kept_samples

        if self._settings is not None:
            return kept_samples(self._settings.cache_dir, self._settings.sandbox.seed)
        if self.preferences is not None:
            return kept_samples(self.preferences.cache_root(), self.preferences.sandbox_seed)
        return None

    async def paid_call_allowed(self, what: str) -> bool:
        """Read-only means nothing kept and nothing paid unless asked (D147): each paid or
        lasting call of a read-only session is confirmed first."""
        if not self.read_only:
            return True
        from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen

        question = _(
            "{what}?\n\nThis session is read-only: nothing is kept in the cache, and calls "
            "that cost or last (requests, trackings) are made only when you confirm each one."
        ).format(what=what)
        answer = await self.push_screen_wait(
            ConfirmScreen(_("A paid call in read-only mode"), question, yes=_("Make the call"))
        )
        return bool(answer)

    def get_key_display(self, binding: Binding) -> str:
        """Named keys in words, in the reader's language (Enter, Esc, Espaço); the rest as
        Textual shows them (``r``, ``f10``, ``^p``). The Footer and the help ask this too."""
        if not binding.key_display:
            word = key_word(binding.key.split(",")[0])
            if word is not None:
                return word
        return super().get_key_display(binding)

    # --- status, movements, webhooks ----------------------------------------------------

    def _status_changed(self, *_args: object) -> None:
        # May be called from the service's tasks; the reactive update is loop-safe.
        self.call_later(self._refresh_status)

    def _refresh_status(self) -> None:
        context = self._opening.context
        if context is None:
            return
        status = context.status.current
        self.status_snapshot = StatusSnapshot(
            phase="ready",
            mode=context.mode,
            rate_remaining=status.rate_remaining,
            rate_limit=status.rate_limit,
            following=status.following,
            cache_writable=status.cache_writable,
            cache_message=status.cache_message or "",
            read_only=self.read_only,
            receiver=self.receiver_switch.address,
            deliveries=self.receiver_switch.deliveries,
            cache_held_by=status.cache_held_by,
            damage=status.damage,
            rate_wait_until=status.rate_wait_until,
            rate_wait_reason=status.rate_wait_reason,
            unread=context.inbox.unread_count(),
        )

    def _start_movement_watch(self, context: ServiceContext) -> None:
        """One watch for the session, so notices come before the trackings screen is seen."""
        from lawsuit_tui.ui.trackings.movement_watch import MovementWatch

        watch = MovementWatch()
        self.movement_watch = watch
        watch.start(self, self.MOVEMENT_POLL_SECONDS)

    def _follow_inbox(self, context: ServiceContext) -> None:
        """The status line's unread count and the screens follow every change of the inbox,
        whoever wrote it (the poll, a webhook, a mark): told by the inbox after each write, on
        the writer's thread, and coalesced so that a burst of writes is one refresh. (Another
        process's writes arrive as ``CacheChanged``, through the writer's follower.)"""
        loop = asyncio.get_running_loop()
        pending = False

        def changed() -> None:
            nonlocal pending
            if pending:
                return
            pending = True

            def refresh() -> None:
                nonlocal pending
                pending = False
                self.inbox_changed()

            loop.call_soon_threadsafe(refresh)

        self._unfollow_inbox = context.inbox.subscribe(changed)

    @work(thread=True, group="app.inbox", exit_on_error=False)
    def _warm_inbox(self, context: ServiceContext) -> None:
        """The inbox's columns read, and its screen's modules imported, in a thread after
        the services open: F7 opens at once, without an import on the event loop."""
        context.inbox.warm()
        importlib.import_module(destination("inbox").screen.partition(":")[0])

    def inbox_changed(self) -> None:
        """The inbox changed: the unread count follows, and every screen is told."""
        self._refresh_status()
        post_to_every_screen(self, InboxChanged)

    def _is_news(self, summary: DeliverySummary) -> bool:
        """A tracking's delivery is news when it stored a movement in the inbox (a movement
        the poll stored first is not stored again, so it is announced once)."""
        tracking = summary.reference_type == "tracking" or summary.event_type == "tracking_response"
        return bool(summary.movements) if tracking else True

    @work(exclusive=True, group="app.paid_calls", exit_on_error=False)
    async def _recover_paid_calls(self, context: ServiceContext) -> None:
        """What an earlier run paid for and could not keep comes into the cache (D136)."""
        if not context.cache.writable:
            return
        # After damage found now, the whole record again (only what is missing costs a call).
        report = await context.paid_calls.recover(from_start=bool(context.damage.found_now))
        if report.recovered:
            self._writer_changed()
            self.notify(
                ngettext(
                    "{n} paid call of an earlier run was brought into the cache.",
                    "{n} paid calls of an earlier run were brought into the cache.",
                    len(report.recovered),
                ).format(n=len(report.recovered)),
                title=_("Record of paid calls"),
                timeout=10,
            )
        for problem in report.problems:
            self.notify(problem, title=_("Record of paid calls"), severity="warning", timeout=15)

    @work(exclusive=True, group="app.search_index", exit_on_error=False)
    async def _warm_search_index(self, context: ServiceContext) -> None:
        """Bring the full-text index up to date with the cache now, after the first frame and
        the services, so the first search typed in the lookup answers at once (D197)."""
        try:
            await asyncio.to_thread(context.search.status_now)
        except Exception:  # a search rebuilds a damaged index itself: never a notice here
            self.log.warning("warming the search index failed")

    @work(exclusive=True, group="app.writer", exit_on_error=False)
    async def _follow_writer(self, context: ServiceContext) -> None:
        from lawsuit_tui.services.webhooks import follow_writer

        await follow_writer(context.store, self._writer_changed)

    def _writes_taken(self, _op: str) -> None:
        self.call_later(self._writer_changed)

    def _writer_changed(self) -> None:
        self._refresh_status()  # the writer's movements and marks: the unread count
        post_to_every_screen(self, CacheChanged)

    def action_toggle_receiver(self) -> None:
        self.toggle_receiver()

    def toggle_receiver(self) -> None:
        """Start the embedded webhook receiver, or stop it when it runs."""
        self.receiver_switch.toggle()

    # --- help, palette, themes ----------------------------------------------------------

    def action_help(self) -> None:
        from lawsuit_tui.ui.dialogs.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
            return
        self.push_screen(HelpScreen(self.screen))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand(_("Theme"), _("Change the colour theme"), self.action_change_theme)
        key = self.binding_key("app.goto.webhooks")
        yield SystemCommand(
            _("Stop the webhook receiver")
            if self.receiver_switch.running
            else _("Start the webhook receiver"),
            _("Deliveries of the service, stored as they arrive")
            + f"  ({key}, {self.binding_key('webhooks.toggle')})",
            self.toggle_receiver,
        )
        yield SystemCommand(_("Help"), _("Keys of this screen"), self.action_help)
        yield SystemCommand(_("Quit"), _("Quit lawsuit-tui"), self.action_quit)

    def action_change_theme(self) -> None:
        """The theme picker: a highlighted theme is previewed, only the chosen one is saved."""
        from textual.command import CommandPalette

        from lawsuit_tui.ui.palette import ThemePickerProvider

        self._theme_before_picker = self.theme
        self.push_screen(
            CommandPalette(providers=[ThemePickerProvider], placeholder=_("Search for themes…"))
        )

    def on_command_palette_option_highlighted(self, event: Any) -> None:
        if self._theme_before_picker is None:
            return
        option = event.highlighted_event.option
        name = getattr(getattr(option, "hit", None), "text", None)
        if isinstance(name, str) and name in self.available_themes:
            self.theme = name  # a preview: not saved

    def on_command_palette_closed(self, event: Any) -> None:
        before, self._theme_before_picker = self._theme_before_picker, None
        if before is not None and not event.option_selected:
            self.theme = before  # escaped: back to the theme in force

    def choose_theme(self, name: str) -> None:
        """The user picked a theme: use it and remember it."""
        self._theme_before_picker = None
        self.theme = name
        if self._remember and name != self.settings.theme:
            self._save_theme(name)

    @work(thread=True, exclusive=True, group="app.preferences", exit_on_error=False)
    def _save_theme(self, theme: str) -> None:
        from lawsuit_tui.config import save_preferences

        save_preferences({"theme": theme})
        self.settings.theme = theme


if TYPE_CHECKING:

    def _the_app_is_a_screen_host(app: LawsuitApp) -> ScreenHost:
        return app  # mypy checks that the app offers everything screens may ask
