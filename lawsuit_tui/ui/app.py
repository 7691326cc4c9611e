"""The lawsuit-tui application shell: ``LawsuitApp``.

Contract for screens (part 1 and part 2: trackings, vault, count)
=================================================================

Destinations
    A destination is a top-level place listed in ``lawsuit_tui/ui/navigation.py``
    (``Destination(id, key, title, "module:Class")``). Each is an App *mode*: its screen is
    built (with no arguments) the first time it is visited and kept, with whatever was pushed on
    top of it, while the user goes elsewhere. Reachable by ``app.goto.<id>`` (F2..F6 by default)
    and from the command palette; its key pressed again goes back to the destination's own
    screen. A module that is missing shows a "coming soon" screen.

Screens
    Subclass ``lawsuit_tui.ui.screens.base.LawsuitScreen`` and implement ``compose_body()``
    instead of ``compose()``: the base composes the top bar (title, sandbox badge), your body, the
    status line and the Footer. It also gives:

    * ``await self.services()`` -> the ready ``ServiceContext`` (waits while the app opens it
      in its worker after the first frame; raises ``ServicesUnavailable`` if opening failed,
      the app has already said why).
    * the single failure path: every worker that ends in ERROR on a ``LawsuitScreen`` (or on
      the app) becomes a notification through
      ``app.report_error(error)`` with the service's own message, never a traceback. So write
      I/O as ``@work(exclusive=True, group="<screen>.<what>", exit_on_error=False)`` and let
      ``ApiError`` propagate.
    * ``TITLE_TEXT`` (N_-marked title shown in the top bar) and ``HELP_TEXT`` (a paragraph
      shown by the help screen, N_-marked).
    * ``palette_commands()`` -> iterable of ``PaletteCommand(title, help, callback,
      binding_id=None)`` offered by the command palette while the screen is active; give each
      one a key binding too and name it in ``binding_id`` (the palette shows its key).
    * ``on_request_follow_event(message: RequestFollowEvent)``: every screen receives the
      events (StatusChanged, ResponseArrived, Completed) of the requests the app follows.
    * ``on_services_ready(context)``: called once the context is open (immediately when it
      already is, after mount); use it to start the first load of the screen.

    Bindings: every ``Binding`` has ``id="<screen id>.<action>"`` (e.g. ``"trackings.new"``)
    and its description wrapped in ``_()`` in the class body (the CLI sets the language before
    any ui module is imported). List the ids in ``docs/keys.md``. Avoid ctrl+a, ctrl+b, ctrl+s,
    ctrl+enter, and the app's keys: ctrl+q, ctrl+p, ctrl+o, F1..F6, ``?``.

    Styles: a ``.tcss`` file next to the others in ``lawsuit_tui/ui/styles/`` named by the
    screen's ``CSS_PATH`` (``CSS_PATH = STYLES / "vault.tcss"``, ``STYLES`` from
    ``lawsuit_tui.ui.styles``); colours only through theme variables ($primary, $error, ...).

App API (``self.app``, a ``LawsuitApp``)
    * ``await app.context()`` -> ServiceContext (same as ``screen.services()``);
      ``app.services`` -> ServiceContext | None without waiting.
    * ``app.report_error(error, *, title=None)``: a notification for any exception
      (ApiError: its summary; application-error codes: the plain-words explanation).
    * ``app.notify(message, severity=...)``: Textual's, for plain notices.
    * ``app.announce(message, destination, **params)``: a notice the user can follow with
      one key (``app.follow_notice``, default ctrl+o): it calls ``app.goto(destination,
      **params)``.
    * ``app.goto(destination_id, **params)``: switch to a destination; when params are given
      and the destination's base screen defines ``show_params(**params)``, it is called with
      them (unknown params must be ignored).
    * ``app.open_vault(system_name, customer_key)`` = ``goto("vault", system_name=...,
      customer_key=...)``; ``app.open_vault_for(code, instance, customer_key)`` first finds
      the exact system name of the lawsuit's court in the vault listing. Used by the lookup
      and the responses view when the service answers SECRECY_RESTRICTED or
      INVALID_CREDENTIAL. ``VaultScreen.show_params(system_name: str | None = None,
      customer_key: str | None = None, **_)`` selects that row.
    * ``app.follow_request(request_id)``: follow a request until it ends (the app keeps
      following while the user goes elsewhere; the status line counts them; the end is an
      ``announce`` unless the current screen's ``followed_request`` is that request).
    * ``app.open_lawsuit(code, instance=None, *, lawsuit=None)``: push the lawsuit tree on the
      current mode (new steps since the previous stored version are marked from the cache's
      LawsuitView). Pass ``lawsuit`` when a validated ``Lawsuit`` is at hand (a lookup
      result): the screen shows it instead of reading and validating it again.
    * ``app.open_request(request_id)``: push the responses of a request.
    * ``app.copy_text(text, what)``: copy with OSC 52 and say so.
    * ``app.settings``: the Settings (download_dir, default_customer_key, ...);
      ``app.read_only``.
    * ``app.movement_watch``: the session's ``MovementWatch`` (set before ``ServicesReady``),
      polled by the app every ``MOVEMENT_POLL_SECONDS``; the trackings screen listens to it.
      A tracking's response delivered by webhook is announced only when
      ``movement_watch.claim`` finds it new, so each movement is announced once.
    * ``app.toggle_receiver()`` (``app.receiver``, default F8, and the palette): start or stop
      the embedded webhook receiver (``app.receiver`` is it, or None). Each stored delivery
      and, when another process writes the cache, each change it stores, reaches every screen
      as ``CacheChanged`` (``on_cache_changed(message)``; ``message.request_id`` is None when
      anything may have changed): re-read the cache there.

Tests build the app with ``LawsuitApp(settings, context_factory=...)``; ``tests/ui/harness.py``
gives a ready factory on the in-process sandbox with a frozen clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.worker import Worker, WorkerState

from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.preferences import Preferences
from lawsuit_tui.ui.errors import describe_error
from lawsuit_tui.ui.navigation import DESTINATIONS, HOME, destination
from lawsuit_tui.ui.styles import STYLES

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.screen import Screen

    from lawsuit_tui.config import Settings
    from lawsuit_tui.domain.lawsuit import Lawsuit
    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.results import FollowEvent
    from lawsuit_tui.services.webhooks import DeliverySummary
    from lawsuit_tui.ui.widgets.part2.movement_watch import MovementWatch
    from lawsuit_tui.webhooks.server import EmbeddedReceiver

ContextFactory = Callable[[], Awaitable["ServiceContext"]]


class ServicesUnavailable(Exception):
    """The service context could not be opened; the app has shown why."""


@dataclass(frozen=True, slots=True)
class StatusSnapshot:
    """What the status line shows; immutable so that a reactive compares it by value."""

    phase: str = "starting"
    """"starting", "ready" or "failed"."""
    mode: str = ""
    rate_remaining: int | None = None
    rate_limit: int | None = None
    following: int = 0
    cache_writable: bool = True
    cache_message: str = ""
    problem: str = ""
    receiver: str = ""
    """Where the embedded webhook receiver listens (``host:port``), "" when it does not."""
    deliveries: int = 0
    """Deliveries the embedded receiver stored this session."""


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


class ServicesReady(Message):
    """Posted by the app when the service context is open."""

    def __init__(self, context: ServiceContext) -> None:
        super().__init__()
        self.context = context


class CacheChanged(Message):
    """New data is in the cache: a webhook delivery, or what another process stored.

    ``summary`` is the delivery (None when the writer process stored something unknown);
    ``request_id`` the request it belongs to, if any.
    """

    def __init__(self, summary: DeliverySummary | None = None) -> None:
        super().__init__()
        self.summary = summary
        self.request_id = summary.request_id if summary is not None else None


class RequestFollowEvent(Message):
    """An event of a request the app follows, sent to every screen (any may care)."""

    def __init__(self, request_id: str, event: FollowEvent) -> None:
        super().__init__()
        self.request_id = request_id
        self.event = event


def _preload_services(sandbox: bool) -> None:
    import importlib

    importlib.import_module("lawsuit_tui.services.context")
    if sandbox:
        importlib.import_module("lawsuit_tui.sandbox.app")
        importlib.import_module("lawsuit_tui.sandbox.world")


def _destinations_provider() -> type[Provider]:
    from lawsuit_tui.ui.commands import DestinationsProvider

    return DestinationsProvider


def _screen_commands_provider() -> type[Provider]:
    from lawsuit_tui.ui.commands import ScreenCommandsProvider

    return ScreenCommandsProvider


def _language_provider() -> type[Provider]:
    # Issue 10's switch: "Language: ..." (also found by "idioma").
    from lawsuit_tui.ui.language import LanguageProvider

    return LanguageProvider


class LawsuitApp(App[int]):
    """The keyboard-first workstation. See the module docstring for the screen contract."""

    COMMANDS = App.COMMANDS | {
        _destinations_provider,
        _screen_commands_provider,
        _language_provider,
    }

    TITLE = "lawsuit-tui"
    CSS_PATH = STYLES / "app.tcss"
    ENABLE_COMMAND_PALETTE = True
    NOTIFICATION_TIMEOUT = 6

    BINDINGS: ClassVar[list[BindingType]] = [
        *_goto_bindings(),
        Binding("f1,question_mark", "help", _("Help"), id="app.help", show=True),
        Binding("ctrl+o", "follow_notice", _("Go to notice"), id="app.follow_notice", show=False),
        Binding("f8", "toggle_receiver", _("Webhooks"), id="app.receiver", show=False),
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
        # From the CLI the app gets only the Preferences (no pydantic before the first frame);
        # the validated Settings load in the services worker, or on first use of ``settings``.
        self._settings: Settings | None = None if isinstance(settings, Preferences) else settings
        self.preferences = settings if isinstance(settings, Preferences) else None
        self.read_only = read_only
        self.force_sandbox = sandbox
        self.sandbox_mode = sandbox or settings.mode == "sandbox"
        self._context_factory = context_factory
        self._remember = remember_preferences
        self._services_context: ServiceContext | None = None
        self._services_future: asyncio.Future[ServiceContext] | None = None
        self._notice_target: tuple[str, dict[str, Any]] | None = None
        self._following: set[str] = set()
        self._theme_loaded = False
        self._theme_before_picker: str | None = None
        self._start_receiver = start_receiver
        self.movement_watch: MovementWatch | None = None
        self.receiver: EmbeddedReceiver | None = None
        self._receiver_busy = False
        self._deliveries = 0
        for item in DESTINATIONS:
            self.add_mode(item.id, self._mode_factory(item.id))
        if settings.theme in self.available_themes:
            self.theme = settings.theme

    @property
    def settings(self) -> Settings:
        """The validated settings (loaded on first use when the app started from Preferences)."""
        if self._settings is None:
            from lawsuit_tui.config import load_settings

            self._settings = load_settings()
        return self._settings

    # --- startup ------------------------------------------------------------------------

    def on_mount(self) -> None:
        source = self.preferences if self._settings is None else self._settings
        if source is not None and source.keymap:
            self.set_keymap(dict(source.keymap))
        self.switch_mode(HOME)
        self._theme_loaded = True
        # The first frame never waits for the sandbox, the cache or their imports.
        self.call_after_refresh(self._open_services)

    async def _load_settings(self) -> bool:
        """Validate the configuration; a broken one ends the app as the other commands do
        (exit code 2 and one line), and there is then nothing more for the worker to do."""
        from lawsuit_tui.config import ConfigError, load_settings

        try:
            self._settings = await asyncio.to_thread(load_settings)
        except ConfigError as error:
            self.exit(return_code=2, message=f"lawsuit-tui: {error}")
            return False
        return True

    def _mode_factory(self, destination_id: str) -> Callable[[], Screen[Any]]:
        def build() -> Screen[Any]:
            item = destination(destination_id)
            screen_class = item.load()
            if screen_class is None:
                from lawsuit_tui.ui.screens.coming_soon import ComingSoonScreen

                return ComingSoonScreen(item)
            return screen_class()

        return build

    def _ready_future(self) -> asyncio.Future[ServiceContext]:
        if self._services_future is None:
            self._services_future = asyncio.get_running_loop().create_future()
        return self._services_future

    @work(exclusive=True, group="app.context", exit_on_error=False)
    async def _open_services(self) -> None:
        future = self._ready_future()
        try:
            if self._context_factory is not None:
                context = await self._context_factory()
            else:
                # The service layer, httpx and the sandbox (FastAPI) take most of a second to
                # import: do it in a thread, so that keys typed meanwhile are not held up.
                await asyncio.to_thread(_preload_services, self.sandbox_mode)
                if self._settings is None and not await self._load_settings():
                    if not future.done():
                        invalid = ServicesUnavailable(_("The configuration is invalid."))
                        future.set_exception(invalid)
                        future.exception()  # mark retrieved: screens may never ask
                    return
                from lawsuit_tui.services.context import ServiceContext

                settings = self.settings
                if self.force_sandbox and settings.mode != "sandbox":
                    settings = settings.model_copy(update={"api_key": None})
                context = await ServiceContext.open(settings, read_only=self.read_only)
        except Exception as error:
            self.status_snapshot = StatusSnapshot(phase="failed", problem=describe_error(error))
            if not future.done():
                future.set_exception(ServicesUnavailable(describe_error(error)))
                future.exception()  # mark retrieved: screens may never ask
            raise
        self._start_movement_watch(context)
        self._services_context = context
        self.sandbox_mode = context.mode == "sandbox"
        self._refresh_status()
        context.status.subscribe(self._status_changed)
        if not future.done():
            future.set_result(context)
        self.post_message(ServicesReady(context))
        if context.store.read_only:
            # A standalone receiver (or another window) holds the cache: show what it stores.
            self._follow_writer(context)
        elif self._start_receiver:
            self.toggle_receiver()

    def _start_movement_watch(self, context: ServiceContext) -> None:
        """One watch for the session, so notices come before the trackings screen is seen."""
        from lawsuit_tui.ui.widgets.part2.movement_watch import MovementWatch

        watch = MovementWatch()
        try:
            # What the cache already shows is not news; a first start has an empty cache.
            watch.remember(context.trackings.cached_list())
        except Exception:
            self.log.warning("the cached trackings could not be read")
        self.movement_watch = watch
        watch.start(self, self.MOVEMENT_POLL_SECONDS)

    @work(exclusive=True, group="app.writer", exit_on_error=False)
    async def _follow_writer(self, context: ServiceContext) -> None:
        from lawsuit_tui.services.webhooks import follow_writer

        await follow_writer(context.store, self._writer_changed)

    def _writer_changed(self) -> None:
        self._cache_changed(None)

    def _cache_changed(self, summary: DeliverySummary | None) -> None:
        for screen in list(self._all_screens()):
            screen.post_message(CacheChanged(summary))

    # --- the embedded webhook receiver ---------------------------------------------------

    def action_toggle_receiver(self) -> None:
        self.toggle_receiver()

    def toggle_receiver(self) -> None:
        """Start the embedded webhook receiver, or stop it when it runs."""
        if self._receiver_busy:
            return
        self._receiver_busy = True
        self.run_worker(
            self._toggle_receiver(), group="app.receiver", exclusive=False, exit_on_error=False
        )

    async def _toggle_receiver(self) -> None:
        try:
            context = await self.context()
            if self.receiver is not None and self.receiver.running:
                await self.receiver.stop()
                self._refresh_status()
                self.notify(_("Webhook receiver stopped."), title=_("Webhooks"), timeout=4)
                return
            # uvicorn takes a while to import: not on the loop, not before it is wanted.
            await asyncio.to_thread(_import_module, "lawsuit_tui.webhooks.server")
            from lawsuit_tui.webhooks.server import EmbeddedReceiver, ReceiverUnavailable

            if self.receiver is None:
                self.receiver = EmbeddedReceiver(context.store, self.settings, self._delivered)
            try:
                url = await self.receiver.start()
            except ReceiverUnavailable as error:
                self.notify(str(error), title=_("Webhooks"), severity="warning", timeout=15)
                return
            self._refresh_status()
            self.notify(
                self._receiver_started_text(self.receiver, url),
                title=_("Webhooks"),
                timeout=30 if self.receiver.token_source == "generated" else 8,
            )
        finally:
            self._receiver_busy = False

    def _receiver_started_text(self, receiver: EmbeddedReceiver, url: str) -> str:
        key = self.binding_key("app.receiver")
        if receiver.token_source in ("generated", "given"):
            # The path token is the secret: shown in full only now (it was just made or typed).
            shown = receiver.public_url or url
            self.copy_to_clipboard(shown)  # OSC 52: to the user's clipboard, never to a file
            text = _("Receiving webhooks at {url} (copied)").format(url=shown)
            if receiver.token_source == "generated":
                text += "\n" + _(
                    "The path token was generated and saved in the config; it is not shown again."
                )
        else:
            text = _("Receiving webhooks at {url}").format(url=receiver.masked_url or "")
            text += "\n" + _("The full URL uses the path token from the config.")
        return text + "\n" + _("{key} stops the receiver.").format(key=key)

    def _delivered(self, summary: DeliverySummary) -> None:
        """A delivery is durable in the cache: refresh what shows it, and say so."""
        self._deliveries += 1
        self._refresh_status()
        self._cache_changed(summary)
        if not summary.new:
            return  # a redelivery changes nothing
        if not self._first_to_bring(summary):
            return  # the movement watch's poll has announced this movement already
        message, destination_id, params = delivery_notice(summary)
        if destination_id is None:
            self.notify(message, title=_("Webhooks"), timeout=6)
            return
        if (
            destination_id == "requests"
            and getattr(self.screen, "followed_request", None) == summary.request_id
        ):
            return  # the user is looking at that request: the screen updates itself
        self.announce(message, destination_id, **params)

    def _first_to_bring(self, summary: DeliverySummary) -> bool:
        """False when ``summary`` is a tracking's movement already announced; else True, and
        the movement is taken so that the poll does not announce it again."""
        if self.movement_watch is None:
            return True
        return self.movement_watch.ledger.claim_delivery(summary)

    def _status_changed(self, *_args: object) -> None:
        # May be called from the service's tasks; the reactive update is loop-safe.
        self.call_later(self._refresh_status)

    def _refresh_status(self) -> None:
        context = self._services_context
        if context is None:
            return
        status = context.status
        receiver = self.receiver
        listening = ""
        if receiver is not None and receiver.running:
            listening = f"{receiver.host}:{_port_of(receiver.url)}"
        self.status_snapshot = StatusSnapshot(
            phase="ready",
            mode=context.mode,
            rate_remaining=status.rate_remaining,
            rate_limit=status.rate_limit,
            following=status.following,
            cache_writable=status.cache_writable,
            cache_message=status.cache_message or "",
            receiver=listening,
            deliveries=self._deliveries,
        )

    def on_services_ready(self, message: ServicesReady) -> None:
        for screen in self._all_screens():
            hook = getattr(screen, "_services_ready", None)
            if hook is not None:
                hook(message.context)

    def _all_screens(self) -> Iterable[Screen[Any]]:
        for stack in self._screen_stacks.values():
            yield from stack

    async def on_unmount(self) -> None:
        if self.receiver is not None and self.receiver.running:
            try:
                await self.receiver.stop()  # finishes the deliveries in hand
            except Exception:
                self.log.error("stopping the webhook receiver failed")
        if self._services_context is not None:
            try:
                await self._services_context.aclose()
            except Exception:  # closing must never turn the exit into a traceback
                self.log.error("closing the service context failed")

    # --- the contract -------------------------------------------------------------------

    @property
    def services(self) -> ServiceContext | None:
        """The open context, or None while it is still opening (or failed)."""
        return self._services_context

    async def context(self) -> ServiceContext:
        """Wait for the service context; ServicesUnavailable if it could not be opened."""
        if self._services_context is not None:
            return self._services_context
        return await asyncio.shield(self._ready_future())

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
        """Follow a request until it ends; every screen gets its ``RequestFollowEvent``s.

        Following lives in the app, so leaving a screen does not stop it; the status line
        counts the requests being followed. The end raises a notice (ctrl+o goes there).
        """
        if request_id in self._following:
            return
        self._following.add(request_id)
        self.run_worker(
            self._follow(request_id), group=f"app.follow.{request_id}", exit_on_error=False
        )

    def is_following(self, request_id: str) -> bool:
        return request_id in self._following

    async def _follow(self, request_id: str) -> None:
        from lawsuit_tui.services.results import Completed

        try:
            context = await self.context()
            async for event in context.requests.follow(request_id):
                for screen in list(self._all_screens()):
                    screen.post_message(RequestFollowEvent(request_id, event))
                if isinstance(event, Completed):
                    self._announce_completion(request_id, event)
        finally:
            self._following.discard(request_id)

    def _announce_completion(self, request_id: str, event: Any) -> None:
        record = event.record
        count = record.responses_count or 0
        status = str(record.status or "")
        search = record.search.search_key if record.search and record.search.search_key else ""
        message = ngettext(
            "Request {search} {status}: {n} response.",
            "Request {search} {status}: {n} responses.",
            count,
        ).format(search=search, status=status, n=count)
        if getattr(self.screen, "followed_request", None) == request_id:
            return  # the user is watching it end
        self.announce(message, "requests", request_id=request_id)

    def open_vault(self, system_name: str | None, customer_key: str | None) -> None:
        """Go to the vault with this court system and customer key selected."""
        self.goto("vault", system_name=system_name, customer_key=customer_key)

    def open_vault_for(self, code: str, instance: int | None, customer_key: str | None) -> None:
        """Go to the vault with the court system of lawsuit ``code`` selected.

        The service's error does not name the system, so its exact name is found in the
        vault's own listing (the court of the CNJ number, and the instance).
        """
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
        self, code: str, instance: int | None = None, *, lawsuit: Lawsuit | None = None
    ) -> None:
        from lawsuit_tui.ui.screens.lawsuit import LawsuitTreeScreen

        self.push_screen(LawsuitTreeScreen(code, instance, lawsuit=lawsuit))

    def open_request(self, request_id: str) -> None:
        from lawsuit_tui.ui.screens.responses import ResponsesScreen

        self.push_screen(ResponsesScreen(request_id))

    def copy_text(self, text: str, what: str) -> None:
        """Copy through the terminal (OSC 52: works over SSH and in tmux)."""
        self.copy_to_clipboard(text)
        self.notify(_("Copied {what}: {text}").format(what=what, text=text), timeout=4)

    def binding_key(self, binding_id: str) -> str:
        """The key the user actually has for a binding id (after the keymap), for display."""
        keys = self._keymap.get(binding_id)
        if keys:
            key = keys.split(",")[0].strip()
            return self.get_key_display(Binding(key, ""))
        nodes: list[Any] = [self, self.screen, *self._all_screens()]
        for node in nodes:
            for _key, binding in node._bindings:
                if binding.id == binding_id:
                    return self.get_key_display(binding)
        return binding_id

    # --- help, palette, themes ----------------------------------------------------------

    def action_help(self) -> None:
        from lawsuit_tui.ui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
            return
        self.push_screen(HelpScreen(self.screen))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand(_("Theme"), _("Change the colour theme"), self.action_change_theme)
        running = self.receiver is not None and self.receiver.running
        key = self.binding_key("app.receiver")
        yield SystemCommand(
            _("Stop the webhook receiver") if running else _("Start the webhook receiver"),
            _("Deliveries of the service, stored as they arrive") + f"  ({key})",
            self.toggle_receiver,
        )
        yield SystemCommand(_("Help"), _("Keys of this screen"), self.action_help)
        yield SystemCommand(_("Quit"), _("Quit lawsuit-tui"), self.action_quit)

    def action_change_theme(self) -> None:
        """The theme picker: a highlighted theme is previewed, only the chosen one is saved."""
        from textual.command import CommandPalette

        from lawsuit_tui.ui.commands import ThemePickerProvider

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


def _import_module(name: str) -> None:
    import importlib

    importlib.import_module(name)


def _port_of(url: str | None) -> str:
    if not url:
        return ""
    rest = url.split("://", 1)[-1]
    host_port = rest.split("/", 1)[0]
    return host_port.rsplit(":", 1)[-1]


def delivery_notice(summary: DeliverySummary) -> tuple[str, str | None, dict[str, Any]]:
    """What a new webhook delivery says, and where ``app.follow_notice`` takes the user."""
    short = (summary.request_id or summary.reference_id or "")[:8]
    tracking = summary.reference_type == "tracking" or summary.event_type == "tracking_response"
    if tracking and summary.reference_id:
        return (
            _("Webhook: a tracking found a new movement."),
            "trackings",
            {"tracking_id": summary.reference_id},
        )
    if summary.kind == "response" and summary.request_id:
        if summary.provisional:
            text = _("Webhook: a cached response for request {id}.")
        else:
            text = _("Webhook: the court's response for request {id}.")
        return text.format(id=short), "requests", {"request_id": summary.request_id}
    if summary.kind == "request" and summary.request_id:
        status = summary.status or _("updated")
        return (
            _("Webhook: request {id} {status}.").format(id=short, status=status),
            "requests",
            {"request_id": summary.request_id},
        )
    return (
        _("Webhook: a {event} delivery was stored as it came.").format(event=summary.event_type),
        None,
        {},
    )
