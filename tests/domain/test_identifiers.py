"""Identifiers: parsing what people paste, check digits, generation, partial input."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from lawsuit_tui.domain.courts import BR_STATES, all_courts
from lawsuit_tui.domain.identifiers import (
    InvalidSearchKey,
    SearchKey,
    cnj_check_digits,
    cnpj_check_digits,
    cpf_check_digits,
    detect_partial,
    format_cnj,
    format_cnpj,
    format_cpf,
    format_oab,
    is_valid_cnj,
    is_valid_cnpj,
    is_valid_cpf,
    make_cnj,
    make_cnpj,
    make_cpf,
    parse_cnj,
    parse_search_key,
)
from lawsuit_tui.i18n import set_language

ALNUM = string.digits + string.ascii_uppercase


# ---------------------------------------------------------------- independent reference oracles


def ref_cpf_valid(cpf: str) -> bool:
    """Textbook CPF rule, written differently from the module (sum * 10 mod 11 mod 10)."""
    if len(cpf) != 11 or not cpf.isdigit() or len(set(cpf)) == 1:
        return False
    for n in (9, 10):
        total = sum(int(cpf[i]) * (n + 1 - i) for i in range(n))
        if (total * 10) % 11 % 10 != int(cpf[n]):
            return False
    return True


def ref_cnpj_valid(cnpj: str) -> bool:
    """Weights 2..9 cycling from the right, value = ASCII - 48 (Receita Federal)."""
    if len(cnpj) != 14 or not cnpj[12:].isdigit() or len(set(cnpj)) == 1:
        return False
    if any(c not in ALNUM for c in cnpj):
        return False
    for n in (12, 13):
        values = [ord(c) - 48 for c in cnpj[:n]]
        total = sum(v * (2 + i % 8) for i, v in enumerate(reversed(values)))
        rest = total % 11
        if (0 if rest < 2 else 11 - rest) != int(cnpj[n]):
            return False
    return True


def ref_cnj_valid(digits: str) -> bool:
    """Validation form of ISO 7064 mod 97-10: NNNNNNNAAAAJTROOOODD mod 97 == 1."""
    moved = digits[:7] + digits[9:] + digits[7:9]
    return int(moved) % 97 == 1


# ---------------------------------------------------------------- strategies

cpf_st = (
    st.text(string.digits, min_size=9, max_size=9).map(make_cpf).filter(lambda c: len(set(c)) > 1)
)
numeric_cnpj_st = st.text(string.digits, min_size=12, max_size=12).map(make_cnpj)
alnum_cnpj_st = st.text(ALNUM, min_size=12, max_size=12).map(make_cnpj)
cnpj_st = (numeric_cnpj_st | alnum_cnpj_st).filter(lambda c: len(set(c)) > 1)
court_st = st.sampled_from([(c.segment, c.code) for c in all_courts()])
cnj_st = st.builds(
    lambda seq, year, jtr, origin: make_cnj(seq, year, jtr[0], jtr[1], origin),
    st.integers(0, 9_999_999),
    st.integers(1900, 2099),
    court_st,
    st.integers(0, 9999),
)
oab_st = st.tuples(st.integers(1, 9_999_999), st.sampled_from(sorted(BR_STATES)))

SEPARATORS = st.sampled_from([" ", ".", "-", "/", "  ", " . ", "\t", "_"])


@st.composite
def noisy(draw: st.DrawFn, text: str) -> str:
    """``text`` with separators sprinkled between characters and random letter case."""
    out = []
    for ch in text:
        if draw(st.booleans()):
            out.append(draw(SEPARATORS))
        out.append(ch.lower() if draw(st.booleans()) else ch)
    return " " * draw(st.integers(0, 2)) + "".join(out) + " " * draw(st.integers(0, 2))


# ---------------------------------------------------------------- known examples


@pytest.mark.parametrize(
    ("text", "search_type", "key", "display"),
    [
        ("123.456.789-09", "cpf", "12345678909", "123.456.789-09"),
        ("529.982.247-25", "cpf", "52998224725", "529.982.247-25"),
        ("  52998224725 ", "cpf", "52998224725", "529.982.247-25"),
        ("CPF: 529.982.247-25", "cpf", "52998224725", "529.982.247-25"),
        ("11.222.333/0001-81", "cnpj", "11222333000181", "11.222.333/0001-81"),
        ("11222333000181", "cnpj", "11222333000181", "11.222.333/0001-81"),
        ("12.ABC.345/01DE-35", "cnpj", "12ABC34501DE35", "12.ABC.345/01DE-35"),
        ("12.abc.345/01de-35", "cnpj", "12ABC34501DE35", "12.ABC.345/01DE-35"),
        ("OAB/SP 123.456", "oab", "123456SP", "OAB/SP 123.456"),
        ("123456/SP", "oab", "123456SP", "OAB/SP 123.456"),
        ("SP123456", "oab", "123456SP", "OAB/SP 123.456"),
        ("OAB 123456 SP", "oab", "123456SP", "OAB/SP 123.456"),
        ("oab/rj 12345", "oab", "12345RJ", "OAB/RJ 12.345"),
        ("OABMG0098765", "oab", "98765MG", "OAB/MG 98.765"),
        ("123 sp", "oab", "123SP", "OAB/SP 123"),
    ],
)
def test_known_examples(text: str, search_type: str, key: str, display: str) -> None:
    assert parse_search_key(text) == SearchKey(search_type, key, display)


def test_known_valid_numbers() -> None:
    assert is_valid_cnpj("11.222.333/0001-81")
    assert is_valid_cnpj("12.ABC.345/01DE-35")
    assert cnpj_check_digits("12ABC34501DE") == "35"
    assert cnpj_check_digits("112223330001") == "81"
    assert cpf_check_digits("123456789") == "09"
    assert is_valid_cpf("529.982.247-25")
    assert not is_valid_cpf("529.982.247-26")
    assert not is_valid_cpf("111.111.111-11")
    assert not is_valid_cnpj("11.222.333/0001-82")


def test_cnj_key_is_the_formatted_form_and_short_sequences_are_padded() -> None:
    cnj = make_cnj(123, 2023, 8, 26, 100)
    assert cnj == f"0000123-{cnj_check_digits(123, 2023, 8, 26, 100)}.2023.8.26.0100"
    short = cnj.lstrip("0")
    key = parse_search_key(short)
    assert key.search_type == "lawsuit_cnj"
    assert key.key == cnj == key.display
    assert key.digits == cnj.replace("-", "").replace(".", "")
    assert parse_search_key(f"Processo nº {cnj}") == key


def test_oab_parts() -> None:
    key = parse_search_key("OAB/SP 123.456")
    assert (key.number, key.state) == ("123456", "SP")
    cpf = parse_search_key("123.456.789-09")
    assert (cpf.number, cpf.state) == (None, None)


# ---------------------------------------------------------------- specific messages


def _error(text: str, **kwargs: bool) -> InvalidSearchKey:
    with pytest.raises(InvalidSearchKey) as info:
        parse_search_key(text, **kwargs)
    assert isinstance(info.value, ValueError)
    return info.value


def test_cnj_wrong_check_digits_message_and_candidate() -> None:
    good = make_cnj(1234567, 2023, 8, 26, 100)
    right = good[8:10]
    wrong = f"{(int(right) + 1) % 100:02d}"
    typed = good[:8] + wrong + good[10:]
    err = _error(typed)
    assert str(err) == f"CNJ check digits should be {right}, not {wrong}"
    assert (err.kind, err.reason, err.expected, err.found) == (
        "lawsuit_cnj",
        "check_digits",
        right,
        wrong,
    )
    assert err.candidate == SearchKey("lawsuit_cnj", typed, typed)
    assert parse_search_key(typed, allow_wrong_check_digits=True) == err.candidate


def test_cpf_messages() -> None:
    err = _error("123.456.789-0")
    assert str(err) == "CPF has 10 digits, needs 11"
    assert (err.kind, err.reason, err.candidate) == ("cpf", "length", None)
    err = _error("123.456.789-10")
    assert str(err) == "CPF check digits should be 09, not 10"
    assert err.expected == "09"
    assert err.candidate == SearchKey("cpf", "12345678910", "123.456.789-10")
    err = _error("111.111.111-11")
    assert (err.kind, err.reason) == ("cpf", "repeated")
    assert str(_error("CPF 12345")) == "CPF has 5 digits, needs 11"


def test_cnpj_messages() -> None:
    err = _error("11.222.333/0001-82")
    assert str(err) == "CNPJ check digits should be 81, not 82"
    assert (err.kind, err.reason, err.expected) == ("cnpj", "check_digits", "81")
    err = _error("12.ABC.345/01DE-36")
    assert str(err) == "CNPJ check digits should be 35, not 36"
    assert err.candidate == SearchKey("cnpj", "12ABC34501DE36", "12.ABC.345/01DE-36")
    assert str(_error("11.222.333/0001")) == "CNPJ has 12 characters, needs 14"
    assert _error("12.ABC.345/01DE-3X").reason == "format"


def test_oab_messages() -> None:
    for text in ("123456", "OAB 123456", "OAB 123.456"):
        err = _error(text)
        assert str(err) == "OAB needs a state: 123456/SP"
        assert (err.kind, err.reason) == ("oab", "state")
    for text in ("OAB/XY 123456", "123456/XY", "XY123456"):
        err = _error(text)
        assert str(err) == "unknown state XY"
        assert (err.kind, err.reason) == ("oab", "state")
    assert _error("OAB/SP").reason == "number"
    assert _error("OAB/SP 12345678").reason == "length"
    assert _error("OAB/SP 000").reason == "number"


def test_other_messages() -> None:
    assert _error("   ").reason == "empty"
    assert _error("hello world").reason == "format"
    err = _error("1" * 21)
    assert str(err) == "Too many digits (21): a CNJ number has 20"
    assert str(_error("1234567-89.2023.8.26")) == "CNJ number has 16 digits, needs 20"
    zero_segment = "0000001" + "00" + "2023" + "0" + "00" + "0000"
    assert _error(zero_segment).reason == "segment"


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("123.456.789-0", "CPF has 10 digits, needs 11"),
        ("123.456.789-10", "CPF check digits should be 09, not 10"),
        ("11.222.333/0001", "CNPJ has 12 characters, needs 14"),
        ("OAB/XY 123456", "unknown state XY"),
        ("1" * 21, "Too many digits (21): a CNJ number has 20"),
        ("hello world", "Not a CPF, CNPJ, CNJ number or OAB registration"),
    ],
)
def test_messages_in_english_whatever_the_ui_language(text: str, english: str) -> None:
    # The sandbox answers with exc.english: the service speaks English whatever the UI does.
    set_language("pt-BR")
    err = _error(text)
    assert err.english == english
    assert str(err) == err.message != english


# ---------------------------------------------------------------- generators and check digits


def test_generator_argument_errors() -> None:
    with pytest.raises(ValueError):
        cpf_check_digits("12345678")
    with pytest.raises(ValueError):
        cnpj_check_digits("12ABC34501D!")
    with pytest.raises(ValueError):
        make_cnj(10_000_000, 2023, 8, 26, 100)
    with pytest.raises(ValueError):
        format_cpf("123")
    with pytest.raises(ValueError):
        format_oab(123, "XY")


def test_cnpj_base_lowercase_is_uppercased() -> None:
    assert make_cnpj("12abc34501de") == "12ABC34501DE35"


@given(cnj_st)
def test_generated_cnj_satisfies_mod97(cnj: str) -> None:
    digits = cnj.replace("-", "").replace(".", "")
    assert len(digits) == 20
    assert ref_cnj_valid(digits)
    assert is_valid_cnj(cnj) and is_valid_cnj(digits)
    assert format_cnj(digits) == cnj


@given(cpf_st)
def test_generated_cpf_matches_reference(cpf: str) -> None:
    assert ref_cpf_valid(cpf)
    assert is_valid_cpf(cpf)


@given(cnpj_st)
def test_generated_cnpj_matches_reference(cnpj: str) -> None:
    assert ref_cnpj_valid(cnpj)
    assert is_valid_cnpj(cnpj)


# ---------------------------------------------------------------- round trips through formatting


@given(cpf_st, st.data())
def test_cpf_round_trip(cpf: str, data: st.DataObject) -> None:
    expected = SearchKey("cpf", cpf, format_cpf(cpf))
    for text in (cpf, format_cpf(cpf), data.draw(noisy(format_cpf(cpf))), data.draw(noisy(cpf))):
        assert parse_search_key(text) == expected


@given(cnpj_st, st.data())
def test_cnpj_round_trip(cnpj: str, data: st.DataObject) -> None:
    expected = SearchKey("cnpj", cnpj, format_cnpj(cnpj))
    variants = (cnpj, cnpj.lower(), format_cnpj(cnpj), data.draw(noisy(format_cnpj(cnpj))))
    for text in variants:
        assert parse_search_key(text) == expected


@given(cnj_st, st.data())
def test_cnj_round_trip(cnj: str, data: st.DataObject) -> None:
    expected = SearchKey("lawsuit_cnj", cnj, cnj)
    digits = cnj.replace("-", "").replace(".", "")
    for text in (cnj, digits, data.draw(noisy(cnj)), data.draw(noisy(digits))):
        assert parse_search_key(text) == expected


@given(oab_st, st.data())
def test_oab_round_trip(oab: tuple[int, str], data: st.DataObject) -> None:
    number, uf = oab
    expected = SearchKey("oab", f"{number}{uf}", format_oab(number, uf))
    variants = [
        format_oab(number, uf),
        f"{number}/{uf}",
        f"{uf}{number}",
        f"OAB {number} {uf.lower()}",
        f"oab/{uf.lower()} {number:,}".replace(",", "."),
        data.draw(noisy(f"{number}/{uf}")),
    ]
    for text in variants:
        assert parse_search_key(text) == expected


# ---------------------------------------------------------------- single-character changes


def agrees_with_reference(mutated: str, reference_valid: bool, formatted: str) -> None:
    """A change of a key's body is accepted exactly when the independent reference finds the
    changed key valid (a blind spot of the rule itself), and refused otherwise."""
    if reference_valid:
        assert parse_search_key(mutated).key == mutated
    else:
        with pytest.raises(InvalidSearchKey):
            parse_search_key(formatted)


@given(cnj_st, st.integers(0, 19), st.sampled_from(string.digits))
def test_any_single_digit_change_of_a_cnj_is_caught(cnj: str, pos: int, new: str) -> None:
    digits = cnj.replace("-", "").replace(".", "")
    assume(digits[pos] != new)
    mutated = digits[:pos] + new + digits[pos + 1 :]
    with pytest.raises(InvalidSearchKey) as info:
        parse_search_key(format_cnj(mutated))
    if pos in (7, 8):
        assert info.value.reason == "check_digits"
        assert info.value.expected == digits[7:9]
    else:
        assert info.value.reason in ("check_digits", "segment")


@given(cpf_st, st.integers(0, 10), st.sampled_from(string.digits))
def test_single_digit_change_of_a_cpf_is_caught(cpf: str, pos: int, new: str) -> None:
    assume(cpf[pos] != new)
    mutated = cpf[:pos] + new + cpf[pos + 1 :]
    if pos >= 9:
        with pytest.raises(InvalidSearchKey) as info:
            parse_search_key(format_cpf(mutated))
        assert info.value.expected == cpf[9:]
        return
    # mod 11 maps remainders 0 and 1 to the same digit: a rare change the CPF rule itself
    # cannot see; the independent reference decides which those are
    agrees_with_reference(mutated, ref_cpf_valid(mutated), format_cpf(mutated))


@given(cnpj_st, st.integers(0, 13), st.sampled_from(ALNUM))
def test_single_character_change_of_a_cnpj_is_caught(cnpj: str, pos: int, new: str) -> None:
    assume(cnpj[pos] != new)
    mutated = cnpj[:pos] + new + cnpj[pos + 1 :]
    if pos >= 12:
        with pytest.raises(InvalidSearchKey) as info:
            parse_search_key(format_cnpj(mutated))
        if new.isdigit():
            assert info.value.reason == "check_digits"
            assert info.value.expected == cnpj[12:]
        else:
            assert info.value.reason == "format"
        return
    # blind spots of the Receita's rule: remainders 0/1, and values 11 apart (6 and A)
    agrees_with_reference(mutated, ref_cnpj_valid(mutated), format_cnpj(mutated))


def test_single_digit_changes_are_almost_all_caught() -> None:
    """Exhaustive over a few CPFs and CNPJs: the undetectable changes are rare."""
    total = caught = 0
    for base in ("123456789", "529982247", "000000001", "987654321"):
        cpf = make_cpf(base)
        for pos in range(11):
            for new in string.digits:
                if new == cpf[pos]:
                    continue
                total += 1
                mutated = cpf[:pos] + new + cpf[pos + 1 :]
                caught += not is_valid_cpf(mutated)
    for base in ("112223330001", "12ABC34501DE"):
        cnpj = make_cnpj(base)
        for pos in range(14):
            for new in string.digits:
                if new == cnpj[pos]:
                    continue
                total += 1
                caught += not is_valid_cnpj(cnpj[:pos] + new + cnpj[pos + 1 :])
    assert caught / total > 0.97


# ---------------------------------------------------------------- parse_cnj


def test_parse_cnj_resolves_the_court() -> None:
    parts = parse_cnj(make_cnj(42, 2024, 8, 26, 1))
    assert parts.sequence == "0000042"
    assert (parts.year, parts.segment, parts.court_code, parts.origin) == (2024, 8, 26, "0001")
    assert parts.court is not None and parts.court.acronym == "TJSP"
    assert parts.check_ok
    assert parse_cnj(make_cnj(1, 2020, 5, 2, 0)).court.acronym == "TRT2"  # type: ignore[union-attr]
    unknown = parse_cnj(make_cnj(1, 2020, 8, 99, 0))
    assert unknown.court is None


def test_parse_cnj_keeps_wrong_check_digits() -> None:
    good = make_cnj(42, 2024, 4, 3, 6100)
    bad = good[:8] + ("00" if good[8:10] != "00" else "01") + good[10:]
    parts = parse_cnj(bad)
    assert not parts.check_ok
    assert parts.expected_check == good[8:10]
    assert parts.formatted == bad
    with pytest.raises(InvalidSearchKey):
        parse_cnj("123")


# ---------------------------------------------------------------- detect_partial


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("123.456.789", "cpf", "CPF: 9 of 11 digits"),
        ("123.456.789-0", "cpf", "CPF: 10 of 11 digits"),
        ("12.345.678/00", "cnpj", "CNPJ: 10 of 14 characters"),
        ("12.ABC.345/01", "cnpj", "CNPJ: 10 of 14 characters"),
        ("1234567-8", "lawsuit_cnj", "CNJ: 8 of 20 digits"),
        ("123456789012345", "lawsuit_cnj", "CNJ: 15 of 20 digits"),
        ("OAB/SP", "oab", "OAB: needs a number"),
        ("OAB 1234", "oab", "OAB: needs a state (123456/SP)"),
    ],
)
def test_detect_partial_progress(text: str, kind: str, message: str) -> None:
    info = detect_partial(text)
    assert (info.kind, info.message, info.complete) == (kind, message, False)
    assert kind in info.possible


def test_detect_partial_ambiguous_short_digits() -> None:
    info = detect_partial("1234")
    assert info.kind == "cpf"
    assert set(info.possible) == {"cpf", "cnpj", "lawsuit_cnj", "oab"}
    assert (info.have, info.need) == (4, 11)


def test_detect_partial_complete_and_wrong() -> None:
    info = detect_partial("123.456.789-09")
    assert info.complete and info.key == parse_search_key("12345678909")
    assert info.error is None
    cnj = make_cnj(1, 2023, 8, 26, 100)
    assert detect_partial(cnj).message == f"CNJ {cnj} · TJSP"
    wrong = detect_partial("123.456.789-00")
    assert wrong.complete and wrong.key is None
    assert wrong.error is not None and wrong.error.expected == "09"
    assert wrong.message == "CPF check digits should be 09, not 00"
    hopeless = detect_partial("1" * 22)
    assert not hopeless.complete and hopeless.possible == () and hopeless.error is not None
    assert detect_partial("").kind is None


@pytest.mark.parametrize("base", ["OAB123456789", "CPF012345678", "CNJ0ABCDEFGH", "SP1234567890"])
def test_alphanumeric_cnpj_that_starts_like_a_label(base: str) -> None:
    cnpj = make_cnpj(base)
    expected = SearchKey("cnpj", cnpj, format_cnpj(cnpj))
    assert parse_search_key(cnpj) == expected
    assert parse_search_key(f"{cnpj[:3]} {cnpj[3:]}") == expected
    assert parse_search_key(format_cnpj(cnpj)) == expected


# ---------------------------------------------------------------- arbitrary input never crashes

ANY_TEXT = st.text(
    st.sampled_from(ALNUM + "abcxyz./-: \t\u00a0ºáç٣") | st.characters(), max_size=40
)


@given(ANY_TEXT)
def test_arbitrary_text_gives_a_key_or_a_clear_error(text: str) -> None:
    try:
        key = parse_search_key(text)
    except InvalidSearchKey as err:
        assert str(err)
        assert err.reason in {
            "empty",
            "format",
            "length",
            "state",
            "number",
            "repeated",
            "segment",
            "check_digits",
        }
        if err.candidate is not None:
            assert err.reason == "check_digits"
            assert parse_search_key(text, allow_wrong_check_digits=True) == err.candidate
            again = parse_search_key(err.candidate.display, allow_wrong_check_digits=True)
            assert again == err.candidate
    else:
        assert key.search_type in ("cpf", "cnpj", "oab", "lawsuit_cnj")
        assert key.key.isascii()
        assert parse_search_key(key.key) == key
        assert parse_search_key(key.display) == key
    info = detect_partial(text)
    assert info.message
    assert info.kind is None or info.kind in ("cpf", "cnpj", "oab", "lawsuit_cnj")


def test_non_ascii_digits_are_not_digits() -> None:
    with pytest.raises(InvalidSearchKey):
        parse_search_key("١٢٣٤٥٦٧٨٩٠٩")
