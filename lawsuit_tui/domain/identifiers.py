"""What the user types: CPF, CNPJ (numeric and alphanumeric), CNJ numbers and OAB registrations.

Parsing, validation, check digits, generation and Brazilian formatting, stdlib only.

Normalized keys (``SearchKey.key``, the ``search_key`` sent to the service):

- ``cpf``: 11 digits, no punctuation (``12345678909``).
- ``cnpj``: 14 characters, uppercase, no punctuation (``11222333000181``, ``12ABC34501DE35``).
- ``lawsuit_cnj``: the formatted form ``NNNNNNN-DD.AAAA.J.TR.OOOO``, because that is how the
  service's own examples and responses write lawsuit codes (``SearchKey.digits`` gives the
  20 bare digits).
- ``oab``: number without leading zeros followed by the state, ``123456SP`` (``.number`` and
  ``.state`` give the parts).

How ``parse_search_key`` decides (after removing spaces and punctuation, uppercasing):

1. A leading label picks the type: ``CPF``, ``CNPJ``, ``CNJ``/``PROCESSO``, ``OAB``.
2. Digits only: 11 = CPF, 14 = CNPJ, 20 = CNJ; a punctuated CNJ may drop the leading zeros of
   its sequence (``123-45.2023.8.26.0100``). Up to 6 digits is taken for an OAB number without
   its state; other lengths are reported against the nearest type.
3. With letters: 14 characters of 0-9A-Z ending in two digits = alphanumeric CNPJ (checked
   first: an OAB number never has 12 digits); two letters that are a state before or after
   digits = OAB (``SP123456``, ``123456/SP``, ``OAB/SP 123.456``, ``OAB 123456 SP``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from lawsuit_tui.domain.courts import BR_STATES, Court, court_for
from lawsuit_tui.i18n import N_, Nn_, _, ngettext

__all__ = [
    "BR_STATES",
    "SEARCH_TYPES",
    "CnjParts",
    "InvalidSearchKey",
    "PartialInfo",
    "SearchKey",
    "cnj_check_digits",
    "cnpj_check_digits",
    "cpf_check_digits",
    "detect_partial",
    "format_cnj",
    "format_cnpj",
    "format_cpf",
    "format_oab",
    "is_valid_cnj",
    "is_valid_cnpj",
    "is_valid_cpf",
    "make_cnj",
    "make_cnpj",
    "make_cpf",
    "parse_cnj",
    "parse_search_key",
]

SEARCH_TYPES: tuple[str, ...] = ("cpf", "cnpj", "oab", "lawsuit_cnj")

CPF_LENGTH = 11
CNPJ_LENGTH = 14
CNJ_LENGTH = 20
OAB_MAX_DIGITS = 7

_NOT_ALNUM = re.compile(r"[^0-9A-Za-z]")
_DIGITS = re.compile(r"[0-9]+")
_CNPJ_SHAPE = re.compile(r"[0-9A-Z]{12}[0-9]{2}")
_OAB_STATE_FIRST = re.compile(r"([A-Z]{2})([0-9]+)")
_OAB_STATE_LAST = re.compile(r"([0-9]+)([A-Z]{2})")
_CNJ_PUNCTUATED = re.compile(
    r"([0-9]{1,7})\s*-\s*([0-9]{2})\s*\.\s*([0-9]{4})"
    r"\s*\.\s*([0-9])\s*\.\s*([0-9]{2})\s*\.\s*([0-9]{4})"
)
_LABEL = re.compile(r"(CPF|CNPJ|CNJ|PROCESSO|OAB)(?![0-9A-Z])[\s:./\-Nº°#]*", re.IGNORECASE)
_LABEL_TYPES = {
    "CPF": "cpf",
    "CNPJ": "cnpj",
    "CNJ": "lawsuit_cnj",
    "PROCESSO": "lawsuit_cnj",
    "OAB": "oab",
}

_CNPJ_WEIGHTS_1 = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
_CNPJ_WEIGHTS_2 = (6, *_CNPJ_WEIGHTS_1)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SearchKey:
    """A parsed identifier: ``search_type`` and ``key`` go to the service, ``display`` to people."""

    search_type: str
    key: str
    display: str

    @property
    def number(self) -> str | None:
        """The OAB registration number (digits), None for other types."""
        if self.search_type != "oab":
            return None
        return self.key[:-2]

    @property
    def state(self) -> str | None:
        """The OAB state (UF), None for other types."""
        if self.search_type != "oab":
            return None
        return self.key[-2:]

    @property
    def digits(self) -> str:
        """The key without punctuation (the 20 digits of a CNJ number)."""
        return _NOT_ALNUM.sub("", self.key)


class InvalidSearchKey(ValueError):
    """Text that is not a usable identifier; ``str(exc)`` says exactly what is wrong.

    ``str(exc)`` (and ``message``) is in the UI language; ``english`` is the same message
    untranslated, for answers that go on the wire (the sandbox speaks English whatever the UI).

    ``kind``: the search type it looks like (None if nothing); ``reason``: a short code
    (``empty``, ``format``, ``length``, ``state``, ``number``, ``repeated``, ``segment``,
    ``check_digits``); ``expected``/``found``: the right and the typed check digits when those
    are the problem; ``candidate``: the SearchKey that could still be sent as typed (only when
    the check digits alone are wrong; callers decide whether to allow it).
    """

    def __init__(
        self,
        message: str,
        english: str | None = None,
        *,
        kind: str | None,
        reason: str,
        expected: str | None = None,
        found: str | None = None,
        candidate: SearchKey | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.english = message if english is None else english
        self.kind = kind
        self.reason = reason
        self.expected = expected
        self.found = found
        self.candidate = candidate


def _text(message_id: str, **fields: object) -> tuple[str, str]:
    """A message in the UI language and in English (``InvalidSearchKey(*_text(...), ...)``)."""
    return _(message_id).format(**fields), message_id.format(**fields)


def _plural_text(forms: tuple[str, str], n: int) -> tuple[str, str]:
    """``_text`` of a message with a singular and a plural form, counting ``n``."""
    english = forms[0] if n == 1 else forms[1]
    return ngettext(*forms, n).format(n=n), english.format(n=n)


@dataclass(frozen=True)
class CnjParts:
    """The fields of a CNJ number NNNNNNN-DD.AAAA.J.TR.OOOO.

    ``court_code`` is TR as a number; ``court`` is the court it names (None if unknown).
    ``parse_cnj`` does not reject wrong check digits: see ``check_ok`` and ``expected_check``.
    """

    sequence: str
    check: str
    year: int
    segment: int
    court_code: int
    origin: str
    court: Court | None

    @property
    def expected_check(self) -> str:
        return cnj_check_digits(
            self.sequence, self.year, self.segment, self.court_code, self.origin
        )

    @property
    def check_ok(self) -> bool:
        return self.check == self.expected_check

    @property
    def formatted(self) -> str:
        return (
            f"{self.sequence}-{self.check}.{self.year:04d}.{self.segment}."
            f"{self.court_code:02d}.{self.origin}"
        )

    @property
    def digits(self) -> str:
        return _NOT_ALNUM.sub("", self.formatted)


@dataclass(frozen=True)
class PartialInfo:
    """What text still being typed looks like so far (for a hint under the input).

    ``kind``: best guess (None when nothing yet); ``possible``: every type it may still become;
    ``have``/``need``: characters typed and needed for ``kind``; ``complete``: a whole identifier
    was typed (``key`` is set when it is valid, ``error`` when it is wrong); ``error`` is also
    set when the text can no longer become anything; ``message``: one line for the user.
    """

    kind: str | None
    possible: tuple[str, ...]
    have: int
    need: int | None
    complete: bool
    message: str
    key: SearchKey | None = None
    error: InvalidSearchKey | None = None


# --------------------------------------------------------------------------- check digits


def _require(pattern: str, value: str, what: str) -> str:
    if not re.fullmatch(pattern, value):
        raise ValueError(f"{what}: {value!r}")
    return value


def _mod11_digit(values: list[int], weights: tuple[int, ...]) -> int:
    rest = sum(v * w for v, w in zip(values, weights, strict=True)) % 11
    return 0 if rest < 2 else 11 - rest


def cpf_check_digits(base9: str) -> str:
    """The two check digits of a CPF from its first 9 digits."""
    _require(r"[0-9]{9}", base9, "CPF base must be 9 digits")
    values = [int(c) for c in base9]
    first = _mod11_digit(values, tuple(range(10, 1, -1)))
    second = _mod11_digit([*values, first], tuple(range(11, 1, -1)))
    return f"{first}{second}"


def make_cpf(base9: str) -> str:
    """A valid CPF (11 digits, unformatted) from its first 9 digits."""
    return base9 + cpf_check_digits(base9)


def cnpj_check_digits(base12: str) -> str:
    """The two check digits of a CNPJ from its first 12 characters (0-9, A-Z).

    Each character counts as its ASCII code minus 48 (digits keep their value, A = 17), per
    the Receita Federal's alphanumeric CNPJ; numeric CNPJs are the special case of all digits.
    """
    base = base12.upper()
    _require(r"[0-9A-Z]{12}", base, "CNPJ base must be 12 characters 0-9A-Z")
    values = [ord(c) - 48 for c in base]
    first = _mod11_digit(values, _CNPJ_WEIGHTS_1)
    second = _mod11_digit([*values, first], _CNPJ_WEIGHTS_2)
    return f"{first}{second}"


def make_cnpj(base12: str) -> str:
    """A valid CNPJ (14 characters, uppercase, unformatted) from its first 12 characters."""
    base = base12.upper()
    return base + cnpj_check_digits(base)


def _cnj_field(value: str | int, width: int, name: str) -> str:
    text = f"{value:0{width}d}" if isinstance(value, int) else value.strip().zfill(width)
    if not re.fullmatch(rf"[0-9]{{{width}}}", text):
        raise ValueError(f"CNJ {name} must be at most {width} digits: {value!r}")
    return text


# The parts of a CNJ number after its check digits, and their widths (NNNNNNN AAAA J TR OOOO).
_CNJ_PARTS = (("sequence", 7), ("year", 4), ("segment", 1), ("court", 2), ("origin", 4))


def _cnj_fields(*values: str | int) -> list[str]:
    """The parts of a CNJ number (sequence, year, segment, court, origin), zero-padded."""
    return [
        _cnj_field(value, width, name)
        for value, (name, width) in zip(values, _CNJ_PARTS, strict=True)
    ]


def cnj_check_digits(
    sequence: str | int,
    year: str | int,
    segment: str | int,
    court: str | int,
    origin: str | int,
) -> str:
    """The check digits DD of a CNJ number (ISO 7064 mod 97-10, CNJ Resolution 65/2008)."""
    seq, yr, j, tr, oo = _cnj_fields(sequence, year, segment, court, origin)
    rest = int(f"{seq}{yr}{j}{tr}{oo}00") % 97
    return f"{98 - rest:02d}"


def make_cnj(
    sequence: str | int,
    year: str | int,
    segment: str | int,
    court: str | int,
    origin: str | int,
) -> str:
    """A valid CNJ number, formatted ``NNNNNNN-DD.AAAA.J.TR.OOOO``."""
    seq, yr, j, tr, oo = _cnj_fields(sequence, year, segment, court, origin)
    dd = cnj_check_digits(seq, yr, j, tr, oo)
    return f"{seq}-{dd}.{yr}.{j}.{tr}.{oo}"


# --------------------------------------------------------------------------- formatting


def _compact(text: str) -> str:
    return _NOT_ALNUM.sub("", text).upper()


def format_cpf(value: str) -> str:
    """``12345678909`` (punctuation allowed) -> ``123.456.789-09``; ValueError if not 11 digits."""
    d = _require(r"[0-9]{11}", _compact(value), "CPF needs 11 digits")
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}"


def format_cnpj(value: str) -> str:
    """``11222333000181`` -> ``11.222.333/0001-81`` (alphanumeric too); ValueError otherwise."""
    c = _require(r"[0-9A-Z]{14}", _compact(value), "CNPJ needs 14 characters")
    return f"{c[:2]}.{c[2:5]}.{c[5:8]}/{c[8:12]}-{c[12:]}"


def _cnj_digits(value: str) -> str | None:
    m = _CNJ_PUNCTUATED.fullmatch(value.strip())
    if m:
        return m.group(1).zfill(7) + "".join(m.groups()[1:])
    d = _compact(value)
    return d if re.fullmatch(r"[0-9]{20}", d) else None


def format_cnj(value: str) -> str:
    """20 digits (or a punctuated CNJ number) -> ``NNNNNNN-DD.AAAA.J.TR.OOOO``."""
    d = _cnj_digits(value)
    if d is None:
        raise ValueError(f"CNJ number needs 20 digits: {value!r}")
    return f"{d[:7]}-{d[7:9]}.{d[9:13]}.{d[13]}.{d[14:16]}.{d[16:]}"


def _group_thousands(digits: str) -> str:
    parts = []
    while len(digits) > 3:
        parts.append(digits[-3:])
        digits = digits[:-3]
    parts.append(digits)
    return ".".join(reversed(parts))


def format_oab(number: str | int, state: str) -> str:
    """``(123456, "sp")`` -> ``OAB/SP 123.456``; ValueError for a bad number or state."""
    uf = state.strip().upper()
    if uf not in BR_STATES:
        raise ValueError(f"unknown state {state!r}")
    digits = _compact(str(number)).lstrip("0")
    if not re.fullmatch(r"[0-9]+", digits):
        raise ValueError(f"OAB number must be digits: {number!r}")
    return f"OAB/{uf} {_group_thousands(digits)}"


# --------------------------------------------------------------------------- validity


def is_valid_cpf(value: str) -> bool:
    """True for a CPF (formatted or not) with right check digits and not all digits equal."""
    d = _compact(value)
    if not re.fullmatch(r"[0-9]{11}", d) or len(set(d)) == 1:
        return False
    return d[9:] == cpf_check_digits(d[:9])


def is_valid_cnpj(value: str) -> bool:
    """True for a CNPJ (numeric or alphanumeric, formatted or not) with right check digits."""
    c = _compact(value)
    if not _CNPJ_SHAPE.fullmatch(c) or len(set(c)) == 1:
        return False
    return c[12:] == cnpj_check_digits(c[:12])


def is_valid_cnj(value: str) -> bool:
    """True for a CNJ number (formatted or 20 digits) with J in 1-9 and right check digits."""
    d = _cnj_digits(value)
    if d is None or d[13] == "0":
        return False
    return d[7:9] == cnj_check_digits(d[:7], d[9:13], d[13], d[14:16], d[16:])


# --------------------------------------------------------------------------- parsing


def parse_cnj(text: str) -> CnjParts:
    """Split a CNJ number into its parts and resolve the court (check digits not enforced)."""
    d = _cnj_digits(text)
    if d is None:
        n = len(_compact(text))
        raise InvalidSearchKey(
            *_plural_text(
                Nn_("CNJ number has {n} digit, needs 20", "CNJ number has {n} digits, needs 20"), n
            ),
            kind="lawsuit_cnj",
            reason="length" if _compact(text).isdigit() else "format",
        )
    segment, code = int(d[13]), int(d[14:16])
    return CnjParts(
        sequence=d[:7],
        check=d[7:9],
        year=int(d[9:13]),
        segment=segment,
        court_code=code,
        origin=d[16:],
        court=court_for(segment, code),
    )


def _check_digit_error(
    kind: str, label: str, expected: str, found: str, key: SearchKey
) -> NoReturn:
    raise InvalidSearchKey(
        *_text(
            N_("{label} check digits should be {expected}, not {found}"),
            label=label,
            expected=expected,
            found=found,
        ),
        kind=kind,
        reason="check_digits",
        expected=expected,
        found=found,
        candidate=key,
    )


def _checked_document(
    key: SearchKey, check_digits: Callable[[str], str], repeated: str, allow_wrong: bool
) -> SearchKey:
    """``key``, a CPF or CNPJ of the right length, once its digits are not all one (the
    message id ``repeated`` says so) and its last two are the check digits of the rest
    (unless ``allow_wrong``)."""
    compact, kind = key.key, key.search_type
    if len(set(compact)) == 1:
        raise InvalidSearchKey(*_text(repeated), kind=kind, reason="repeated")
    expected = check_digits(compact[:-2])
    if compact[-2:] != expected and not allow_wrong:
        _check_digit_error(kind, kind.upper(), expected, compact[-2:], key)
    return key


def _parse_cpf(compact: str, allow_wrong: bool) -> SearchKey:
    if not compact.isdigit() or not compact.isascii():
        raise InvalidSearchKey(*_text(N_("CPF takes digits only")), kind="cpf", reason="format")
    n = len(compact)
    if n != CPF_LENGTH:
        raise InvalidSearchKey(
            *_plural_text(Nn_("CPF has {n} digit, needs 11", "CPF has {n} digits, needs 11"), n),
            kind="cpf",
            reason="length",
        )
    key = SearchKey("cpf", compact, format_cpf(compact))
    repeated = N_("CPF with all digits equal is not valid")
    return _checked_document(key, cpf_check_digits, repeated, allow_wrong)


def _parse_cnpj(compact: str, allow_wrong: bool) -> SearchKey:
    n = len(compact)
    if n != CNPJ_LENGTH:
        raise InvalidSearchKey(
            *_plural_text(
                Nn_("CNPJ has {n} character, needs 14", "CNPJ has {n} characters, needs 14"), n
            ),
            kind="cnpj",
            reason="length",
        )
    if not compact[12:].isdigit():
        raise InvalidSearchKey(
            *_text(N_("CNPJ check digits (the last two) must be digits")),
            kind="cnpj",
            reason="format",
        )
    key = SearchKey("cnpj", compact, format_cnpj(compact))
    repeated = N_("CNPJ with all digits equal is not valid")
    return _checked_document(key, cnpj_check_digits, repeated, allow_wrong)


def _parse_cnj_key(text: str, allow_wrong: bool) -> SearchKey:
    parts = parse_cnj(text)
    if parts.segment == 0:
        raise InvalidSearchKey(
            *_text(N_("CNJ segment (J) must be 1 to 9, not 0")),
            kind="lawsuit_cnj",
            reason="segment",
        )
    key = SearchKey("lawsuit_cnj", parts.formatted, parts.formatted)
    expected = parts.expected_check
    if parts.check != expected and not allow_wrong:
        _check_digit_error("lawsuit_cnj", "CNJ", expected, parts.check, key)
    return key


def _oab_needs_state() -> InvalidSearchKey:
    return InvalidSearchKey(*_text(N_("OAB needs a state: 123456/SP")), kind="oab", reason="state")


def _parse_oab(compact: str) -> SearchKey:
    m = _OAB_STATE_FIRST.fullmatch(compact) or _OAB_STATE_LAST.fullmatch(compact)
    if m is None:
        if compact.isdigit():
            raise _oab_needs_state()
        if re.fullmatch(r"[A-Z]{2}", compact):
            if compact not in BR_STATES:
                raise InvalidSearchKey(
                    *_text(N_("unknown state {uf}"), uf=compact), kind="oab", reason="state"
                )
            raise InvalidSearchKey(
                *_text(N_("OAB needs a number: OAB/SP 123456")), kind="oab", reason="number"
            )
        raise InvalidSearchKey(
            *_text(N_("OAB looks like 123456/SP or OAB/SP 123.456")), kind="oab", reason="format"
        )
    uf, number = (m.group(1), m.group(2)) if m.re is _OAB_STATE_FIRST else m.group(2, 1)
    if uf not in BR_STATES:
        raise InvalidSearchKey(*_text(N_("unknown state {uf}"), uf=uf), kind="oab", reason="state")
    number = number.lstrip("0")
    if not number:
        raise InvalidSearchKey(*_text(N_("OAB number cannot be zero")), kind="oab", reason="number")
    if len(number) > OAB_MAX_DIGITS:
        raise InvalidSearchKey(
            *_text(
                N_("OAB number has {n} digits, at most {max}"), n=len(number), max=OAB_MAX_DIGITS
            ),
            kind="oab",
            reason="length",
        )
    return SearchKey("oab", f"{number}{uf}", format_oab(number, uf))


def _split_label(text: str) -> tuple[str | None, str]:
    m = _LABEL.match(text)
    if m:
        return _LABEL_TYPES[m.group(1).upper()], text[m.end() :]
    compact = _compact(text)
    if compact.startswith("OAB"):
        # "OABSP123456": no separator after the label, still unmistakably an OAB
        return "oab", compact[3:]
    return None, text


def parse_search_key(text: str, *, allow_wrong_check_digits: bool = False) -> SearchKey:
    """Parse what a person typed or pasted into a SearchKey (rules in the module docstring).

    Raises InvalidSearchKey with a message that says what is wrong. With
    ``allow_wrong_check_digits`` a key whose only fault is its check digits is returned as
    typed (the same key as ``InvalidSearchKey.candidate``).
    """
    raw = text.strip()
    if not _compact(raw):
        raise InvalidSearchKey(
            *_text(N_("Type a CPF, CNPJ, CNJ number or OAB registration")),
            kind=None,
            reason="empty",
        )
    whole = _compact(raw)
    if not whole.isdigit() and is_valid_cnpj(whole):
        # an alphanumeric CNPJ may begin with "CPF", "OAB", ...: right check digits settle it
        return SearchKey("cnpj", whole, format_cnpj(whole))
    label, rest = _split_label(raw)
    compact = _compact(rest)
    allow = allow_wrong_check_digits
    if label == "oab":
        return _parse_oab(compact)
    if label == "cpf":
        return _parse_cpf(compact, allow)
    if label == "cnpj":
        return _parse_cnpj(compact, allow)
    if label == "lawsuit_cnj":
        return _parse_cnj_key(rest, allow)
    if compact.isdigit() and compact.isascii():
        return _parse_digits(rest, compact, allow)
    if _CNPJ_SHAPE.fullmatch(compact):
        return _parse_cnpj(compact, allow)
    if _OAB_STATE_FIRST.fullmatch(compact) or _OAB_STATE_LAST.fullmatch(compact):
        return _parse_oab(compact)
    if compact in BR_STATES:
        return _parse_oab(compact)
    if re.fullmatch(r"[0-9A-Z]{12,15}", compact) and re.search(r"[0-9]", compact):
        return _parse_cnpj(compact, allow)
    raise InvalidSearchKey(
        *_text(N_("Not a CPF, CNPJ, CNJ number or OAB registration")), kind=None, reason="format"
    )


def _parse_digits(rest: str, digits: str, allow: bool) -> SearchKey:
    n = len(digits)
    if n == CPF_LENGTH:
        return _parse_cpf(digits, allow)
    if n == CNPJ_LENGTH:
        return _parse_cnpj(digits, allow)
    if n == CNJ_LENGTH or _CNJ_PUNCTUATED.fullmatch(rest.strip()):
        return _parse_cnj_key(rest, allow)
    if n <= 6:
        raise _oab_needs_state()
    if n < CPF_LENGTH:
        return _parse_cpf(digits, allow)
    if n < CNPJ_LENGTH:
        return _parse_cnpj(digits, allow)
    if n < CNJ_LENGTH:
        return _parse_cnj_key(digits, allow)
    raise InvalidSearchKey(
        *_text(N_("Too many digits ({n}): a CNJ number has 20"), n=n),
        kind="lawsuit_cnj",
        reason="length",
    )


# --------------------------------------------------------------------------- while typing

_ALL_KINDS: tuple[str, ...] = ("cpf", "cnpj", "lawsuit_cnj", "oab")


def _progress(kind: str, have: int, possible: tuple[str, ...]) -> PartialInfo:
    if kind == "cpf":
        message = _("CPF: {have} of {need} digits").format(have=have, need=CPF_LENGTH)
        need: int | None = CPF_LENGTH
    elif kind == "cnpj":
        message = _("CNPJ: {have} of {need} characters").format(have=have, need=CNPJ_LENGTH)
        need = CNPJ_LENGTH
    else:
        message = _("CNJ: {have} of {need} digits").format(have=have, need=CNJ_LENGTH)
        need = CNJ_LENGTH
    return PartialInfo(kind, possible, have, need, False, message)


def _complete_message(key: SearchKey) -> str:
    if key.search_type == "lawsuit_cnj":
        court = parse_cnj(key.key).court
        return f"CNJ {key.display}" + (f" · {court.acronym}" if court else "")
    if key.search_type == "oab":
        return key.display
    return f"{key.search_type.upper()} {key.display}"


def detect_partial(text: str) -> PartialInfo:
    """Say what ``text`` (still being typed) looks like and what is missing.

    Examples: ``"123.456.789"`` -> CPF, 9 of 11 digits; ``"12.345.678/00"`` -> CNPJ;
    ``"OAB/SP"`` -> OAB, needs a number; a whole valid identifier -> ``complete`` with ``key``.
    """
    raw = text.strip()
    compact = _compact(raw)
    if not compact:
        return PartialInfo(
            None, _ALL_KINDS, 0, None, False, _("Type a CPF, CNPJ, CNJ number or OAB (123456/SP)")
        )
    try:
        key = parse_search_key(raw)
    except InvalidSearchKey as exc:
        error = exc
    else:
        n = len(key.digits)
        return PartialInfo(
            key.search_type, (key.search_type,), n, n, True, _complete_message(key), key=key
        )
    if error.reason in ("check_digits", "repeated", "segment"):
        have = len(_compact(error.candidate.key)) if error.candidate else len(compact)
        possible = (error.kind,) if error.kind else ()
        return PartialInfo(error.kind, possible, have, have, True, str(error), None, error)

    label, rest = _split_label(raw)
    body = _compact(rest)
    if label == "oab" or _looks_like_oab(body):
        return _partial_oab(body, error)
    if label in ("cpf", "cnpj", "lawsuit_cnj"):
        return _partial_typed(label, len(body), error)
    if body.isdigit() and body.isascii():
        return _partial_digits(rest, len(body), error)
    if re.fullmatch(r"[0-9A-Z]{1,13}", body):
        return _progress("cnpj", len(body), ("cnpj",))
    return PartialInfo(error.kind, (), len(body), None, False, str(error), None, error)


def _partial_typed(kind: str, have: int, error: InvalidSearchKey) -> PartialInfo:
    need = {"cpf": CPF_LENGTH, "cnpj": CNPJ_LENGTH, "lawsuit_cnj": CNJ_LENGTH}[kind]
    if have > need or error.reason == "format":
        return PartialInfo(kind, (), have, need, False, str(error), None, error)
    return _progress(kind, have, (kind,))


def _looks_like_oab(body: str) -> bool:
    m = re.fullmatch(r"([A-Z]{1,2})([0-9]*)|([0-9]*)([A-Z]{1,2})", body)
    if not m:
        return False
    letters = m.group(1) or m.group(4) or ""
    digits = m.group(2) if m.group(1) else m.group(3)
    if len(letters) == 1:
        return any(uf.startswith(letters) for uf in BR_STATES) and len(digits or "") <= 7
    return letters in BR_STATES and len(digits or "") <= OAB_MAX_DIGITS


def _partial_oab(body: str, error: InvalidSearchKey) -> PartialInfo:
    digits = "".join(_DIGITS.findall(body))
    letters = _NOT_ALNUM.sub("", re.sub(r"[0-9]", "", body))
    if error.reason == "state" and len(letters) == 2:
        return PartialInfo("oab", ("oab",), len(body), None, False, str(error), None, error)
    if len(letters) < 2:
        message = _("OAB: needs a state (123456/SP)")
    elif not digits:
        message = _("OAB: needs a number")
    else:
        message = str(error)
    return PartialInfo("oab", ("oab",), len(body), None, False, message, None, error)


def _partial_digits(rest: str, n: int, error: InvalidSearchKey) -> PartialInfo:
    if "/" in rest:
        return _partial_typed("cnpj", n, error)
    first_dash = rest.find("-")
    if first_dash >= 0:
        before = len(_compact(rest[:first_dash]))
        if before <= 7 and ("." not in rest[:first_dash]):
            return _partial_typed("lawsuit_cnj", n, error)
        if before == 9:
            return _partial_typed("cpf", n, error)
    if n > CNJ_LENGTH:
        return PartialInfo(None, (), n, None, False, str(error), None, error)
    if n <= CPF_LENGTH:
        possible: tuple[str, ...] = ("cpf", "cnpj", "lawsuit_cnj")
        if n <= 6:
            possible = (*possible, "oab")
        return _progress("cpf", n, possible)
    if n <= CNPJ_LENGTH:
        return _progress("cnpj", n, ("cnpj", "lawsuit_cnj"))
    return _progress("lawsuit_cnj", n, ("lawsuit_cnj",))
