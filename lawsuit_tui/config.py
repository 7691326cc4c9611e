"""Settings: environment variables over a TOML file over defaults.

Priority, highest first: keyword arguments to ``load_settings`` (the CLI's own flags), then
``LAWSUIT_TUI_*`` environment variables (``__`` separates nested keys), then the TOML file
(``config_path()``), then the defaults below. Secrets are ``SecretStr``: they print as
``**********`` and ``save_preferences`` refuses to write them.
"""

from __future__ import annotations

import contextlib
import difflib
import ipaddress
import json
import os
import re
import stat
import tempfile
import tomllib
import types
import typing
from collections.abc import Mapping
from datetime import tzinfo
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from lawsuit_tui.i18n import N_, _, normalize_language
from lawsuit_tui.preferences import (
    APP_NAME,
    CONFIG_ENV_VAR,
    DEFAULT_SANDBOX_SEED,
    ENV_PREFIX,
    config_file,
)

ENV_NESTED_DELIMITER = "__"

# Keys save_preferences may write. The webhook path token is the one secret kept in the file
# by design (issue 8: generated when absent, shown once, stored in the config).
PREFERENCE_KEYS = frozenset({"theme", "language", "keymap", "webhooks.path_token"})
# Secrets that live only in the environment or a file the user wrote by hand.
NEVER_WRITTEN = frozenset({"api_key", "bearer_token"})
SECRET_KEYS = frozenset({"api_key", "bearer_token", "webhooks.path_token"})


class ConfigError(Exception):
    """A configuration problem, already phrased for the user (file, key, problem)."""


# The TOML file: ``$LAWSUIT_TUI_CONFIG`` if set, else the platform's config dir. One rule,
# kept in preferences.py, which reads the file for the first frame without pydantic.
config_path = config_file


def _default_cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def _default_download_dir() -> Path:
    downloads = Path.home() / "Downloads"
    return downloads if downloads.is_dir() else Path.cwd()


def _scalar_kinds(annotation: object) -> set[type]:
    """The scalar types a field accepts: {float} for ``float``, {int} for ``int | None``."""
    if annotation in (int, float, bool):
        return {annotation}
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return {arg for arg in typing.get_args(annotation) if arg in (int, float, bool)}
    if origin is Annotated:
        return _scalar_kinds(typing.get_args(annotation)[0])
    return set()


def _strict_scalar(model: type[BaseModel], value: object, info: ValidationInfo) -> object:
    """Refuse a boolean where a number belongs and a number where a boolean belongs.

    Pydantic's lax mode reads ``read = true`` as 1.0 and ``shared = 0`` as false; TOML has
    real types, so either is a mistake. Text (an environment variable) is still parsed.
    """
    field = model.model_fields.get(info.field_name or "")
    if field is None:
        return value
    kinds = _scalar_kinds(field.annotation)
    if isinstance(value, bool):
        if float in kinds:
            raise PydanticCustomError("float_type", "Input should be a valid number")
        if int in kinds:
            raise PydanticCustomError("int_type", "Input should be a valid integer")
    elif isinstance(value, int | float) and kinds == {bool}:
        raise PydanticCustomError("bool_type", "Input should be a valid boolean")
    return value


class _Section(BaseModel):
    # A typo in a config section is reported, not silently ignored; infinity and NaN are
    # refused (``speed = inf`` used to overflow the sandbox's clock).
    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _strict_scalars(cls, value: object, info: ValidationInfo) -> object:
        return _strict_scalar(cls, value, info)


class Urls(_Section):
    """Base addresses of the live service (used only when an API key is set)."""

    # D60: each OAS file's own ``servers`` entry (the pages also use *.prod.judit.io).
    requests_url: str = "https://requests.production.judit.io"
    lawsuits_url: str = "https://lawsuits.production.judit.io"
    tracking_url: str = "https://tracking.production.judit.io"
    vault_url: str = "https://crawler.prod.judit.io"
    miner_url: str = "https://miner.production.judit.io"

    @field_validator("*", mode="after")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError(_("expected an http:// or https:// URL"))
        return value.rstrip("/")


# Sane maxima: beyond them a value is a typo (a missing decimal point), not a wish.
DAY = 86_400.0
HOUR = 3_600.0


class RateLimit(_Section):
    """Client-side sliding window shared by the limited routes; ``shared``: one window for
    every process of this user on this machine using the same key (api/ledger.py)."""

    calls: int = Field(default=180, ge=1, le=100_000)
    seconds: float = Field(default=60.0, gt=0, le=DAY)
    shared: bool = True


class Timeouts(_Section):
    """Seconds. ``lookup_read`` covers the synchronous lookup, slow when a court is slow."""

    connect: float = Field(default=10.0, gt=0, le=HOUR)
    read: float = Field(default=30.0, gt=0, le=HOUR)
    lookup_read: float = Field(default=120.0, gt=0, le=HOUR)
    write: float = Field(default=30.0, gt=0, le=HOUR)
    pool: float = Field(default=10.0, gt=0, le=HOUR)


class Retries(_Section):
    """``max_total_seconds`` bounds the retries after failures; a 429 is waited out on its
    own budget, ``max_rate_wait_seconds`` (the service said how long; nothing was done)."""

    max_attempts: int = Field(default=5, ge=1, le=100)
    max_total_seconds: float = Field(default=60.0, gt=0, le=DAY)
    max_rate_wait_seconds: float = Field(default=300.0, ge=0, le=DAY)


class Webhooks(_Section):
    """The callback receiver (``webhooks serve`` and the one inside the TUI)."""

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    path_token: SecretStr | None = None
    # Senders allowed, as CIDRs; empty means any sender (the path token still applies).
    allow_from: Annotated[list[str], NoDecode] = Field(default_factory=list)
    public_url: str | None = None

    @field_validator("allow_from", mode="before")
    @classmethod
    def _split_cidrs(cls, value: object) -> object:
        # From the environment: a JSON list or a comma-separated string.
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                try:
                    return json.loads(text)
                except ValueError as exc:
                    raise ValueError(_("expected a list")) from exc
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @field_validator("allow_from", mode="after")
    @classmethod
    def _valid_cidrs(cls, value: list[str]) -> list[str]:
        for cidr in value:
            try:
                ipaddress.ip_network(cidr, strict=False)
            except ValueError as exc:
                raise ValueError(
                    _("{value!r} is not an IP network such as 10.0.0.0/8").format(value=cidr)
                ) from exc
        return value


class Sandbox(_Section):
    """The embedded sandbox, used when no API key is configured."""

    seed: int = Field(default=DEFAULT_SANDBOX_SEED, ge=-(2**63), le=2**63 - 1)
    speed: float = Field(default=1.0, gt=0, le=10_000)
    # Not a secret: the well-known key the local sandbox accepts.
    api_key: str = "sandbox"


_CLOCK_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class TierSettings(_Section):
    """One tier of the portfolio (D160): how often its trackings run (days), the step terms
    that make a movement worth a notice, and an optional fixed time of day (``"HH:MM"``, the
    user's own time, as every time on screen). What a default tier (hot, warm, cold) is not
    given here keeps its default; a new tier needs its recurrence."""

    recurrence: int | None = Field(default=None, ge=1, le=90)
    step_terms: list[str] | None = None
    fixed_time: str | None = None

    @field_validator("fixed_time", mode="after")
    @classmethod
    def _clock_time(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not _CLOCK_TIME.match(value.strip()):
            raise ValueError(_("expected a time of day such as 07:30"))
        return value.strip()

    @field_validator("step_terms", mode="after")
    @classmethod
    def _terms(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else [term.strip() for term in value if term.strip()]


class Portfolio(_Section):
    """The portfolio: its tiers (hot, warm and cold unless changed, D160), the tier of a row
    that names none, and how many trackings one bulk call carries (1..1000, D73)."""

    default_tier: str = "warm"
    tiers: dict[str, TierSettings] = Field(default_factory=dict)
    chunk_size: int = Field(default=1000, ge=1, le=1000)

    @field_validator("default_tier", mode="after")
    @classmethod
    def _tier_named(cls, value: str) -> str:
        if not value.strip():
            raise ValueError(_("expected the name of a tier"))
        return value.strip()


# D191: the steps a dossier profile may name (domain/dossier.py's STEPS, in run order; config
# imports nothing of the layers above it, and a test keeps the two lists equal).
DOSSIER_STEPS = ("gate", "count", "aggregations", "entity", "lawsuits", "warrants", "executions")
# D191: the labour courts, for the default "labour" counts (the guide's own example filter).
LABOUR_COURTS = tuple(f"TRT{n}" for n in range(1, 25))


class DossierCount(_Section):
    """One count of a dossier (``POST /lawsuits/count`` with this filter): the side of the
    document, courts (acronyms as the court list writes them) to keep or leave out, CNJ class
    and subject codes, a range of amounts. No filter: every lawsuit."""

    label: str | None = None
    side: Literal["active", "passive", "interested", "unknown"] | None = None
    tribunals: list[str] = Field(default_factory=list)
    exclude_tribunals: list[str] = Field(default_factory=list)
    class_codes: list[str] = Field(default_factory=list)
    subject_codes: list[str] = Field(default_factory=list)
    amount_min: float | None = Field(default=None, ge=0)
    amount_max: float | None = Field(default=None, ge=0)


def default_dossier_counts() -> dict[str, DossierCount]:
    """D191: every lawsuit, as defendant, in the labour courts, and both (the guide's)."""
    labour = list(LABOUR_COURTS)
    return {
        "total": DossierCount(),
        "defendant": DossierCount(side="passive"),
        "labour": DossierCount(tribunals=labour),
        "labour_defendant": DossierCount(side="passive", tribunals=labour),
    }


class DossierProfile(_Section):
    """A way of running dossiers (D191): which steps, which counts, how old an answer may be
    to be used again, and whether the paid steps are asked about (``confirm``) or were agreed
    once for all in this file."""

    steps: list[str] | None = None
    counts: dict[str, DossierCount] | None = None
    max_age_hours: int | None = Field(default=None, ge=0, le=24 * 366)
    confirm: bool = True

    @field_validator("steps", mode="after")
    @classmethod
    def _known_steps(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        unknown = [step for step in value if step not in DOSSIER_STEPS]
        if unknown:
            raise ValueError(
                _("unknown step {steps}; the steps are: {known}").format(
                    steps=", ".join(unknown), known=", ".join(DOSSIER_STEPS)
                )
            )
        return [step for step in DOSSIER_STEPS if step in value]


class Dossier(_Section):
    """Dossiers (due diligence): the profile used when none is named, how old a kept answer
    may be before "refresh" asks again, and the analyst's name on decisions."""

    profile: str = "standard"
    max_age_hours: int = Field(default=24, ge=0, le=24 * 366)
    analyst: str | None = None
    profiles: dict[str, DossierProfile] = Field(default_factory=dict)


class Settings(BaseSettings):
    """The effective configuration. Build it with ``load_settings()``."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter=ENV_NESTED_DELIMITER,
        case_sensitive=False,
        extra="forbid",
        validate_default=True,
        allow_inf_nan=False,
    )

    api_key: SecretStr | None = None
    bearer_token: SecretStr | None = None
    urls: Urls = Field(default_factory=Urls)
    cache_dir: Path = Field(default_factory=_default_cache_dir)
    download_dir: Path = Field(default_factory=_default_download_dir)
    rate_limit: RateLimit = Field(default_factory=RateLimit)
    timeouts: Timeouts = Field(default_factory=Timeouts)
    retries: Retries = Field(default_factory=Retries)
    default_customer_key: str = "*"
    keymap: dict[str, str] = Field(default_factory=dict)
    theme: str = "textual-dark"
    language: str | None = None
    timezone: str | None = None
    """IANA zone of the times shown (``America/Sao_Paulo``); None: Brasília in pt-BR, else the
    system's zone (D146)."""
    webhooks: Webhooks = Field(default_factory=Webhooks)
    sandbox: Sandbox = Field(default_factory=Sandbox)
    portfolio: Portfolio = Field(default_factory=Portfolio)
    dossier: Dossier = Field(default_factory=Dossier)

    _config_file: Path = PrivateAttr(default_factory=config_path)
    _overrides: frozenset[str] = PrivateAttr(default_factory=frozenset)

    @field_validator("*", mode="before")
    @classmethod
    def _strict_scalars(cls, value: object, info: ValidationInfo) -> object:
        return _strict_scalar(cls, value, info)

    @field_validator("cache_dir", "download_dir", mode="before")
    @classmethod
    def _non_empty_path(cls, value: object) -> object:
        # Path("") is the current directory: an empty value is a mistake, never a wish.
        if isinstance(value, str) and not value.strip():
            raise PydanticCustomError("path_empty", "The path is empty")
        return value

    @field_validator("language", mode="before")
    @classmethod
    def _language(cls, value: object) -> object:
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto")):
            return None
        if isinstance(value, str):
            found = normalize_language(value)
            if found is None:
                raise ValueError(_("expected 'en', 'pt-BR' or 'auto'"))
            return found
        return value

    @field_validator("timezone", mode="before")
    @classmethod
    def _timezone(cls, value: object) -> object:
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto")):
            return None
        if isinstance(value, str):
            name = value.strip()
            if zone_named(name) is None:
                raise ValueError(
                    _(
                        "expected a time zone name such as America/Sao_Paulo or UTC, not {value!r}"
                    ).format(value=name)
                )
            return name
        return value

    @field_validator("cache_dir", "download_dir", mode="after")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser()

    @property
    def mode(self) -> Literal["live", "sandbox"]:
        return "live" if self.api_key is not None and self.api_key.get_secret_value() else "sandbox"

    @property
    def config_file(self) -> Path:
        """The TOML file these settings were read from (it may not exist)."""
        return self._config_file

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        path = config_path()
        return (
            init_settings,
            env_settings,
            InitSettingsSource(settings_cls, read_config_file(path)),
        )


def read_config_file(path: Path) -> dict[str, Any]:
    """The file's table, ``{}`` if it does not exist; ``ConfigError`` if it cannot be used.

    Every failure is one sentence naming the path, the problem and what to do about it.
    """
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError
        if stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode):
            # Reading a pipe would wait for a writer for ever.
            raise ConfigError(
                _("{path}: is not a regular file; point {variable} at a config file").format(
                    path=path, variable=CONFIG_ENV_VAR
                )
            )
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise ConfigError(
            _(
                "{path}: is a directory, not a config file; move it away or point {variable} "
                "at another file"
            ).format(path=path, variable=CONFIG_ENV_VAR)
        ) from None
    except PermissionError:
        raise ConfigError(
            _(
                "{path}: permission denied reading the config file; make it readable by you "
                "(chmod 600) or point {variable} at another file"
            ).format(path=path, variable=CONFIG_ENV_VAR)
        ) from None
    except OSError as exc:
        raise ConfigError(
            _(
                "{path}: cannot read the config file ({problem}); fix the path or point "
                "{variable} at another file"
            ).format(path=path, problem=exc.strerror or exc, variable=CONFIG_ENV_VAR)
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(
            _("{path}: the config file is not UTF-8 text (line {line}); save it as UTF-8").format(
                path=path, line=line
            )
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message ends with "(at line L, column C)".
        raise ConfigError(
            _("{path}: invalid TOML: {problem}").format(path=path, problem=exc)
        ) from None
    except RecursionError:
        raise ConfigError(
            _("{path}: invalid TOML: arrays or tables nested too deeply to read").format(path=path)
        ) from None


def _env_lookup(environ: Mapping[str, str]) -> dict[str, str]:
    """Lower-cased names of our variables -> the name as the user wrote it."""
    return {name.lower(): name for name in environ if name.upper().startswith(ENV_PREFIX)}


def _env_var_for(dotted: str, env: Mapping[str, str]) -> str | None:
    """The environment variable that set ``dotted`` (or its parent, as JSON), if any."""
    parts = dotted.split(".")
    for depth in range(len(parts), 0, -1):
        candidate = (ENV_PREFIX + ENV_NESTED_DELIMITER.join(parts[:depth])).lower()
        if candidate in env:
            return env[candidate]
    return None


def _file_has(dotted: str, data: Mapping[str, Any]) -> bool:
    node: Any = data
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


_PROBLEMS = {
    "int_parsing": N_("expected an integer"),
    "int_type": N_("expected an integer"),
    "int_from_float": N_("expected an integer"),
    "float_parsing": N_("expected a number"),
    "float_type": N_("expected a number"),
    "bool_parsing": N_("expected true or false"),
    "bool_type": N_("expected true or false"),
    "string_type": N_("expected a string"),
    "dict_type": N_("expected a table"),
    "model_type": N_("expected a table"),
    "model_attributes_type": N_("expected a table"),
    "list_type": N_("expected a list"),
    "path_type": N_("expected a path"),
    "path_empty": N_("expected a path, not an empty string"),
    "extra_forbidden": N_("unknown key"),
    "finite_number": N_("expected a finite number"),
}
# Bounds, with the limit from the error's context.
_BOUNDS = {
    "greater_than": ("gt", N_("must be greater than {limit}")),
    "greater_than_equal": ("ge", N_("must be at least {limit}")),
    "less_than": ("lt", N_("must be less than {limit}")),
    "less_than_equal": ("le", N_("must be at most {limit}")),
}


def _describe(error: Mapping[str, Any]) -> str:
    kind = str(error.get("type"))
    problem = _PROBLEMS.get(kind)
    if problem is not None:
        return _(problem)
    if kind in _BOUNDS:
        name, template = _BOUNDS[kind]
        limit = (error.get("ctx") or {}).get(name)
        if isinstance(limit, int | float):
            return _(template).format(limit=_shown(limit))
    message = str(error.get("msg", ""))
    return message.removeprefix("Value error, ")


def _shown(value: object) -> str:
    """A value as the user wrote it in TOML: true, 1.5, 300, 'text'."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, int | float):
        return str(value)
    return repr(value)


def _format_validation_error(
    exc: ValidationError, path: Path, overrides: frozenset[str], environ: Mapping[str, str]
) -> str:
    env = _env_lookup(environ)
    lines = []
    for error in exc.errors():
        loc = [str(part) for part in error.get("loc", ())]
        dotted = ".".join(loc)
        if _overridden(dotted, overrides):
            where = _("command line")
        elif (var := _env_var_for(dotted, env)) is not None:
            where = _("environment variable {name}").format(name=var)
        else:
            where = str(path)
        problem = _describe(error)
        secret = any(dotted == key or dotted.startswith(key + ".") for key in SECRET_KEYS)
        quiet = error.get("type") in ("extra_forbidden", "path_empty")
        if not quiet and not secret and "input" in error:
            shown = error["input"]
            if isinstance(shown, str | int | float | bool):
                problem = _("{problem}, got {value}").format(problem=problem, value=_shown(shown))
        lines.append(f"{where}: {dotted}: {problem}")
    return "\n".join(lines)


def _dotted_keys(values: Mapping[str, Any], prefix: str = "") -> list[str]:
    keys: list[str] = []
    for key, value in values.items():
        if isinstance(value, Mapping) and value and key != "keymap":
            keys.extend(_dotted_keys(value, f"{prefix}{key}."))
        else:
            keys.append(f"{prefix}{key}")
    return keys


def _overridden(dotted: str, overrides: frozenset[str]) -> bool:
    return any(dotted == key or dotted.startswith(key + ".") for key in overrides)


def _env_names() -> dict[str, str]:
    """Every variable that sets something, upper-case -> its dotted key (the sections, each
    leaf; ``keymap`` takes ``__<binding id>`` after it)."""
    names = {CONFIG_ENV_VAR: ""}
    for name, field in Settings.model_fields.items():
        names[(ENV_PREFIX + name).upper()] = name
        section = field.annotation
        if isinstance(section, type) and issubclass(section, BaseModel):
            for inner in section.model_fields:
                dotted = f"{name}.{inner}"
                names[(ENV_PREFIX + name + ENV_NESTED_DELIMITER + inner).upper()] = dotted
    return names


def unknown_environment_variables(environ: Mapping[str, str]) -> list[str]:
    """One message for each ``LAWSUIT_TUI_*`` variable that sets nothing (a typo), with the
    closest known name. An error, like an unknown key in the file: a misspelt
    ``LAWSUIT_TUI_API_KEY`` would otherwise run against the sandbox without a word."""
    known = _env_names()
    keymap_prefix = (ENV_PREFIX + "keymap" + ENV_NESTED_DELIMITER).upper()
    problems = []
    for name in sorted(environ):
        upper = name.upper()
        if not upper.startswith(ENV_PREFIX) or upper in known:
            continue
        if upper.startswith(keymap_prefix) and len(upper) > len(keymap_prefix):
            continue  # LAWSUIT_TUI_KEYMAP__<binding id>
        # Compared without the common prefix, which would make every name look close.
        tails = {known_name[len(ENV_PREFIX) :]: known_name for known_name in known}
        close = difflib.get_close_matches(upper[len(ENV_PREFIX) :], list(tails), n=1, cutoff=0.6)
        if close:
            problem = _("not a setting; did you mean {name}?").format(name=tails[close[0]])
        else:
            problem = _("not a setting (lawsuit-tui config show lists every key)")
        where = _("environment variable {name}").format(name=name)
        problems.append(f"{where}: {problem}")
    return problems


def load_settings(**overrides: Any) -> Settings:
    """Read the effective settings; every problem becomes one ``ConfigError`` message.

    ``overrides`` are field values that beat every other source (the CLI's own flags); nested
    sections are given as dicts and merged, e.g. ``load_settings(sandbox={"seed": 3})``.
    """
    path = config_path()
    names = frozenset(_dotted_keys(overrides))
    unknown = unknown_environment_variables(os.environ)
    if unknown:
        raise ConfigError("\n".join(unknown))
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        raise ConfigError(_format_validation_error(exc, path, names, os.environ)) from None
    except SettingsError as exc:
        # Raised by the environment source, e.g. a JSON value that does not parse.
        cause = exc.__cause__
        detail = f"{exc}" + (f": {cause}" if cause else "")
        raise ConfigError(_("environment: {problem}").format(problem=detail)) from None
    except RecursionError:
        # A JSON value in the environment nested thousands deep (the file is caught earlier).
        raise ConfigError(_("environment: a JSON value is nested too deeply to read")) from None
    settings._overrides = names
    return settings


def _leaf_keys(model: BaseModel, prefix: str = "") -> list[str]:
    keys: list[str] = []
    for name in type(model).model_fields:
        value = getattr(model, name)
        dotted = f"{prefix}{name}"
        if isinstance(value, BaseModel):
            keys.extend(_leaf_keys(value, dotted + "."))
        else:
            keys.append(dotted)
    return keys


def config_sources(settings: Settings, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Where each effective value came from: "default", the file path, an env var's name,
    or "command line" (a keyword given to ``load_settings``). Keys are dotted paths."""
    env = _env_lookup(os.environ if environ is None else environ)
    try:
        file_data = read_config_file(settings.config_file)
    except ConfigError:
        file_data = {}
    sources: dict[str, str] = {}
    for dotted in _leaf_keys(settings):
        var = _env_var_for(dotted, env)
        # A table such as keymap can be filled from the file and from LAWSUIT_TUI_KEYMAP__<id>.
        inner = (
            ENV_PREFIX + dotted.replace(".", ENV_NESTED_DELIMITER) + ENV_NESTED_DELIMITER
        ).lower()
        parts = sorted(name for low, name in env.items() if low.startswith(inner))
        if _overridden(dotted, settings._overrides):
            sources[dotted] = "command line"
        elif var is not None:
            sources[dotted] = var
        elif parts:
            if _file_has(dotted, file_data):
                parts.insert(0, str(settings.config_file))
            sources[dotted] = ", ".join(parts)
        elif _file_has(dotted, file_data):
            sources[dotted] = str(settings.config_file)
        else:
            sources[dotted] = "default"
    return sources


def effective_values(settings: Settings) -> dict[str, object]:
    """Dotted key -> value for display, secrets masked."""
    values: dict[str, object] = {}
    for dotted in _leaf_keys(settings):
        node: Any = settings
        for part in dotted.split("."):
            node = getattr(node, part)
        if isinstance(node, SecretStr) or dotted in SECRET_KEYS:
            values[dotted] = masked(node)
        elif isinstance(node, Path):
            values[dotted] = str(node)
        else:
            values[dotted] = node
    return values


def masked(secret: SecretStr | str | None) -> str:
    """A secret for display: at most its last 4 characters, fewer for short secrets."""
    if secret is None:
        return _("(not set)")
    text = secret.get_secret_value() if isinstance(secret, SecretStr) else secret
    if not text:
        return _("(not set)")
    if len(text) >= 16:
        tail = text[-4:]
    elif len(text) >= 8:
        tail = text[-2:]
    else:
        tail = ""
    return "…" + tail if tail else _("(set, hidden)")


def _validated_preference(key: str, value: object) -> object:
    """Check one preference against the Settings model; the value to store (None: remove)."""
    if key == "webhooks.path_token":
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if value is not None and (not isinstance(value, str) or not value):
            raise ConfigError(_("webhooks.path_token: expected a non-empty string"))
        return value
    field = key
    try:
        checked = Settings.__pydantic_validator__.validate_assignment(
            Settings.model_construct(), field, value
        )
    except ValidationError as exc:
        raise ConfigError(
            f"{key}: {_describe(exc.errors()[0])}"  # one field, one problem
        ) from None
    result: object = getattr(checked, field)
    return result


def save_preferences(updates: Mapping[str, object], path: Path | None = None) -> Path:
    """Write the given preferences into the TOML file, keeping every other key.

    Only ``PREFERENCE_KEYS`` are accepted; the API key and bearer token are refused. A value of
    None removes the key. The file is replaced atomically and left with mode 0600. Comments in
    the file are not kept (the TOML writer does not preserve them).
    """
    target = config_path() if path is None else path
    for key in updates:
        if key in NEVER_WRITTEN or key.split(".", 1)[0] in NEVER_WRITTEN:
            raise ConfigError(
                _("{key} is a secret and is never written to the config file").format(key=key)
            )
        if key not in PREFERENCE_KEYS:
            raise ConfigError(_("{key} is not a preference that can be saved").format(key=key))
    cleaned = {key: _validated_preference(key, value) for key, value in updates.items()}

    import tomli_w

    data = read_config_file(target)
    for key, value in cleaned.items():
        parts = key.split(".")
        node = data
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = {}
                node[part] = child
            node = child
        if value is None:
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = value
    payload = tomli_w.dumps(data).encode("utf-8")

    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp_name = tempfile.mkstemp(prefix=".config-", suffix=".tmp", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.chmod(0o600)
        tmp.replace(target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    target.chmod(0o600)
    return target


def zone_named(name: str) -> tzinfo | None:
    """The IANA zone ``name`` (``America/Sao_Paulo``, ``UTC``), or None if there is none."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not name or name.startswith(("/", ".")) or ".." in name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def system_zone(environ: Mapping[str, str] | None = None) -> tzinfo:
    """The machine's zone: ``$TZ``, else /etc/timezone, else where /etc/localtime points, else
    the current UTC offset (no daylight-saving rules then)."""
    from datetime import datetime

    env = os.environ if environ is None else environ
    candidates = [env.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    try:
        target = str(Path("/etc/localtime").resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    for name in candidates:
        zone = zone_named(name) if name else None
        if zone is not None:
            return zone
    local = datetime.now().astimezone().tzinfo
    assert local is not None
    return local


def display_zone(timezone: str | None, language: str) -> tzinfo:
    """The zone times are shown in (D146): the ``timezone`` setting, else Brasília for a
    Portuguese interface (Brazilian users read court times in Brasília's), else the system's."""
    if timezone:
        zone = zone_named(timezone)
        if zone is not None:
            return zone
    if language == "pt-BR":
        from datetime import timedelta
        from datetime import timezone as fixed_offset

        # Without the tz database, Brasília's offset since 2019 (no daylight saving).
        return zone_named("America/Sao_Paulo") or fixed_offset(timedelta(hours=-3), "-03")
    return system_zone()
