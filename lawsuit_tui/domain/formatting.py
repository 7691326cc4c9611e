"""Brazilian forms of dates, money, numbers and documents (used by the TUI in both languages).

This module is the one place where a time becomes text: screens and commands call it, never
``strftime``.

Decisions:

- Instants are shown in the reader's zone (D146): :func:`set_display_zone` sets it once the
  settings are known (``config.display_zone``: the ``timezone`` setting, else Brasília for
  pt-BR and the system's zone otherwise). Until then, and where nothing sets it, São Paulo
  (``America/Sao_Paulo`` via zoneinfo; if tzdata is missing, a fixed UTC-3, São Paulo's offset
  since Brazil dropped daylight saving in 2019). The date of an instant is taken *after* that
  conversion, so 2026-11-22T01:30Z is shown as 21/11/2026 in Brasília. Naive datetimes and
  offset-less timestamp strings are taken as UTC (the service's timestamps are UTC). Plain
  dates are shown as they are. :func:`zone_label` names the zone where a time alone would be
  ambiguous (a tracking's fixed time of day).
- Strings that are not ISO 8601 are returned untouched: the service's data is shown, not lost.
- Money rounds half up to cents: ``R$ 1.234,56``, ``-R$ 1.234,56``.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lawsuit_tui.domain import identifiers as ids
from lawsuit_tui.i18n import _, current_language

__all__ = [
    "SAO_PAULO",
    "display_zone",
    "format_date",
    "format_datetime",
    "format_decimal_cell",
    "format_document",
    "format_int",
    "format_money",
    "format_size",
    "format_time_of_day",
    "local_clock_to_utc",
    "parse_date_br",
    "parse_money_br",
    "sao_paulo_tz",
    "set_display_zone",
    "utc_clock_to_local",
    "zone_label",
]

SAO_PAULO = "America/Sao_Paulo"
_UTC_MINUS_3 = timezone(timedelta(hours=-3), "-03")

DateLike = date | datetime | str | None
Number = int | float | Decimal | str | None


@cache
def sao_paulo_tz() -> tzinfo:
    """São Paulo's time zone, or a fixed UTC-3 when the tz database is not installed."""
    try:
        return ZoneInfo(SAO_PAULO)
    except (ZoneInfoNotFoundError, ValueError):
        return _UTC_MINUS_3


_display_zone: tzinfo | None = None


def set_display_zone(zone: tzinfo | None) -> None:
    """Show every instant in ``zone`` from now on (None: back to São Paulo)."""
    global _display_zone
    _display_zone = zone


def display_zone() -> tzinfo:
    """The zone instants are shown in."""
    return _display_zone if _display_zone is not None else sao_paulo_tz()


def zone_label(zone: tzinfo | None = None) -> str:
    """How the zone is named beside a time: "Brasília time" for São Paulo's (the name
    Brazilians use: "horário de Brasília"), "UTC", else its IANA name (``Europe/Lisbon``) or
    its abbreviation."""
    zone = zone or display_zone()
    name = str(getattr(zone, "key", "") or "")
    if name == SAO_PAULO or zone is _UTC_MINUS_3:
        return _("Brasília time")
    if zone is UTC or name in ("UTC", "Etc/UTC", "Etc/Universal", "Zulu"):
        return "UTC"
    return name or (datetime.now(zone).tzname() or "")


def _clock_shift(hour: int, minute: int, source: tzinfo, target: tzinfo) -> tuple[int, int]:
    # A time of day moves by the offset of today (no real zone changes it within a day).
    today = datetime.now(UTC).date()
    moment = datetime(today.year, today.month, today.day, hour, minute, tzinfo=source)
    shifted = moment.astimezone(target)
    return shifted.hour, shifted.minute


def utc_clock_to_local(hour: int, minute: int = 0) -> tuple[int, int]:
    """A time of day in UTC (the service's fixed times) as the reader's zone has it."""
    return _clock_shift(hour, minute, UTC, display_zone())


def local_clock_to_utc(hour: int, minute: int = 0) -> tuple[int, int]:
    """A time of day typed in the reader's zone, in UTC for the service."""
    return _clock_shift(hour, minute, display_zone(), UTC)


def _to_local(value: date | datetime | str) -> date | datetime | None:
    """A date (kept as is) or an aware datetime in the display zone; None for an unparsable
    string."""
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        try:
            if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
                return date.fromisoformat(text)
            value = datetime.fromisoformat(text)
        except ValueError:
            return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(display_zone())
    return value


def _calendar_date(value: date | datetime | str) -> date | datetime | str:
    """The date of an instant at exactly midnight UTC; anything else unchanged."""
    moment: date | datetime | str | None = value
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            return value
    if (
        isinstance(moment, datetime)
        and moment.utcoffset() in (None, timedelta(0))
        and moment.time() == datetime.min.time()
    ):
        return moment.date()
    return value


def format_date(value: DateLike) -> str:
    """``21/11/2026``; "" for None; instants converted to the display zone first, except a
    calendar date the service writes as midnight UTC (a birth date, a company's opening date,
    a distribution date: ``1980-05-17T00:00:00.000Z``), which is shown as written: converted, it
    would read a day early in Brasília."""
    if value is None:
        return ""
    local = _to_local(_calendar_date(value))
    if local is None:
        return value if isinstance(value, str) else ""
    return f"{local.day:02d}/{local.month:02d}/{local.year:04d}"


def format_datetime(value: DateLike, *, seconds: bool = False) -> str:
    """``21/11/2026 14:05`` in the display zone; a plain date gives just ``21/11/2026``."""
    if value is None:
        return ""
    local = _to_local(value)
    if local is None:
        return value if isinstance(value, str) else ""
    day = f"{local.day:02d}/{local.month:02d}/{local.year:04d}"
    if not isinstance(local, datetime):
        return day
    clock = f"{local.hour:02d}:{local.minute:02d}"
    if seconds:
        clock += f":{local.second:02d}"
    return f"{day} {clock}"


def format_time_of_day(hour: int, minute: int) -> str:
    """``08:30``: a time of day the service keeps in UTC (a tracking's fixed time), in the
    reader's zone."""
    local_hour, local_minute = utc_clock_to_local(hour, minute)
    return f"{local_hour:02d}:{local_minute:02d}"


def _group(digits: str, separator: str = ".") -> str:
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return separator.join(parts)


def _as_decimal(value: int | float | Decimal | str) -> Decimal | None:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))  # the shortest repr, so 0.1 stays 0.1
    if isinstance(value, int):
        return Decimal(value)
    try:
        return parse_money_br(value)
    except ValueError:
        return None


_MONEY_DIGITS = 40


def format_money(value: Number) -> str:
    """``R$ 1.234,56`` (negative: ``-R$ 1.234,56``); "" for None; bad strings are kept."""
    if value is None:
        return ""
    amount = _as_decimal(value)
    if amount is None or not amount.is_finite():
        return str(value)
    if amount.adjusted() >= _MONEY_DIGITS:
        # No real amount has this many digits: shown short rather than as a wall of digits.
        sign = "-" if amount < 0 else ""
        return f"{sign}R$ " + f"{abs(amount):.2E}".replace(".", ",")
    # quantize fails past the context's precision (28 digits by default): give it enough.
    with localcontext(prec=_MONEY_DIGITS + 3):
        cents = amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "-" if cents < 0 else ""
    units, _sep, fraction = f"{abs(cents):f}".partition(".")
    return f"{sign}R$ {_group(units)},{fraction or '00'}"


def format_int(value: int | None) -> str:
    """A count as its reader writes it: ``1.234`` in Portuguese, ``1,234`` in English
    (negative: ``-1.234``); "" for None. Money keeps the Brazilian form in both languages
    (:func:`format_money`): it is the court's figure, as its documents write it."""
    if value is None:
        return ""
    sign = "-" if value < 0 else ""
    return sign + _group(str(abs(value)), "," if current_language() == "en" else ".")


_DOC_TYPES = {"cpf": "cpf", "cnpj": "cnpj", "oab": "oab", "lawsuit_cnj": "lawsuit_cnj"}
_DOC_TYPES["cnj"] = "lawsuit_cnj"


def format_document(document: str | None, document_type: str | None = None) -> str:
    """Format a CPF, CNPJ, OAB or CNJ number when it can; otherwise return it untouched.

    With ``document_type`` (cpf, cnpj, oab, cnj/lawsuit_cnj; any case) only that form is
    tried; without it the shape decides. Wrong check digits do not stop formatting.
    """
    if document is None:
        return ""
    wanted = _DOC_TYPES.get((document_type or "").strip().lower())
    if document_type and wanted is None:
        return document
    try:
        key = ids.parse_search_key(document, allow_wrong_check_digits=True)
    except ids.InvalidSearchKey:
        return document
    if wanted is not None and key.search_type != wanted:
        return document
    return key.display


def parse_date_br(text: str) -> date:
    """``21/11/2026`` (also ``21-11-2026``, ``21.11.2026``, ``21112026``, ``2026-11-21``).

    Raises ValueError with a message for the user (translated) saying what is wrong.
    """
    value = text.strip()
    if not value:
        raise ValueError(_("Type a date like 21/11/2026"))
    m = re.fullmatch(r"([0-9]{1,2})[/.\-]([0-9]{1,2})[/.\-]([0-9]+)", value)
    if m:
        day, month, year_text = m.groups()
    elif re.fullmatch(r"[0-9]{8}", value):
        day, month, year_text = value[:2], value[2:4], value[4:]
    elif iso := re.fullmatch(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", value):
        year_text, month, day = iso.groups()
    else:
        raise ValueError(_("{text!r} is not a date like 21/11/2026").format(text=value))
    if len(year_text) != 4:
        raise ValueError(_("Write the year with 4 digits: 21/11/2026"))
    year, mon, dd = int(year_text), int(month), int(day)
    if not 1 <= mon <= 12:
        raise ValueError(_("There is no month {month}").format(month=mon))
    if year < 1:
        raise ValueError(_("There is no year {year}").format(year=year))
    try:
        return date(year, mon, dd)
    except ValueError:
        raise ValueError(
            _("Day {day} does not exist in {month:02d}/{year}").format(day=dd, month=mon, year=year)
        ) from None


def parse_money_br(text: str) -> Decimal:
    """``1.234,56``, ``R$ 1.234,56``, ``1234,56``, ``1234.56``, ``-1.000`` -> Decimal.

    Comma is the decimal separator when present. With dots only, a single dot followed by
    exactly 3 digits is a thousands separator (Brazilian ``1.234`` is one thousand two hundred
    thirty-four); several dots are thousands separators; otherwise the dot is decimal.
    At most 2 decimal places. Raises ValueError with a translated message.
    """
    value = text.strip().replace("\u00a0", " ")
    negative = False
    if value.startswith("-"):
        negative, value = True, value[1:].strip()
    if value.upper().startswith("R$"):
        value = value[2:].strip()
    if value.startswith("-") and not negative:
        negative, value = True, value[1:].strip()
    value = value.replace(" ", "")
    if not value:
        raise ValueError(_("Type an amount like 1.234,56"))
    if not re.fullmatch(r"[0-9.,]+", value):
        raise ValueError(_("{text!r} is not an amount like 1.234,56").format(text=text.strip()))
    if "," in value:
        if value.count(",") > 1:
            raise ValueError(_("Use one comma, before the cents: 1.234,56"))
        units, cents = value.split(",")
        if "." in cents:
            raise ValueError(_("Use one comma, before the cents: 1.234,56"))
    elif value.count(".") == 1 and not re.fullmatch(r"[0-9]{1,3}\.[0-9]{3}", value):
        units, cents = value.split(".")
    else:
        units, cents = value, ""
    if "." in units:
        if not re.fullmatch(r"[0-9]{1,3}(\.[0-9]{3})+", units):
            raise ValueError(_("Dots separate thousands in groups of 3: 1.234.567,89"))
        units = units.replace(".", "")
    if not units and not cents:
        raise ValueError(_("Type an amount like 1.234,56"))
    if len(cents) > 2:
        raise ValueError(_("At most 2 decimal places (cents)"))
    try:
        amount = Decimal(f"{units or '0'}.{cents or '0'}")
    except InvalidOperation:
        raise ValueError(_("{text!r} is not an amount like 1.234,56").format(text=text)) from None
    return -amount if negative else amount


def format_size(size: int | None) -> str:
    """A file's size as people read it: ``312 bytes``, ``48 KB``, ``1,2 MB`` in Portuguese and
    ``1.2 MB`` in English, as counts are (decimal units, as the provider's ``file_size`` in
    MB); "" for None."""
    if size is None:
        return ""
    if size < 1000:
        return _("{n} bytes").format(n=size)
    if size < 1_000_000:
        return f"{format_int(round(size / 1000))} KB"
    megabytes = Decimal(size) / Decimal(1_000_000)
    places = Decimal("0.1") if megabytes < 100 else Decimal("1")
    text = f"{megabytes.quantize(places, rounding=ROUND_HALF_UP):f}"
    whole, _sep, tenth = text.partition(".")
    point = "." if current_language() == "en" else ","
    grouped = format_int(int(whole))
    return f"{grouped}{point}{tenth} MB" if tenth else f"{grouped} MB"


def format_decimal_cell(value: Number) -> str:
    """An amount as a Brazilian spreadsheet reads a number in a CSV cell: ``1234,56`` (decimal
    comma, no thousands separator, no currency sign); "" for None or a bad value."""
    if value is None:
        return ""
    amount = _as_decimal(value)
    if amount is None or not amount.is_finite():
        return ""
    with localcontext(prec=_MONEY_DIGITS + 3):
        cents = amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{cents:f}".replace(".", ",")
