"""The court table behind the J.TR part of a CNJ number (CNJ Resolution 65/2008).

A CNJ number NNNNNNN-DD.AAAA.J.TR.OOOO names the justice segment in J and the court in TR.
Segments 1-3 (STF, CNJ, STJ) and the superior courts of the other segments use TR 00; the
councils of the federal and labour justice use TR 90. State courts number the 27 states in the
order of the annex of the resolution (alphabetical by state name: AC 01 ... SP 26, TO 27),
which is the order of :data:`BR_STATES`.

Names are the courts' own Portuguese names and are never translated (they are data).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

# The 27 federative units in CNJ code order (index + 1 is the TR of the TJ / TRE of the state).
BR_STATES: dict[str, str] = {
    "AC": "Acre",
    "AL": "Alagoas",
    "AP": "Amapá",
    "AM": "Amazonas",
    "BA": "Bahia",
    "CE": "Ceará",
    "DF": "Distrito Federal",
    "ES": "Espírito Santo",
    "GO": "Goiás",
    "MA": "Maranhão",
    "MT": "Mato Grosso",
    "MS": "Mato Grosso do Sul",
    "MG": "Minas Gerais",
    "PA": "Pará",
    "PB": "Paraíba",
    "PR": "Paraná",
    "PE": "Pernambuco",
    "PI": "Piauí",
    "RJ": "Rio de Janeiro",
    "RN": "Rio Grande do Norte",
    "RS": "Rio Grande do Sul",
    "RO": "Rondônia",
    "RR": "Roraima",
    "SC": "Santa Catarina",
    "SE": "Sergipe",
    "SP": "São Paulo",
    "TO": "Tocantins",
}

# TR code of each state in the state justice (8), the electoral justice (6) and segment 9.
STATE_CODES: dict[str, int] = {uf: i + 1 for i, uf in enumerate(BR_STATES)}

# Portuguese contraction used before each state's name ("do Acre", "de São Paulo", "da Bahia").
_STATE_PREPOSITION: dict[str, str] = {
    "AC": "do",
    "AL": "de",
    "AP": "do",
    "AM": "do",
    "BA": "da",
    "CE": "do",
    "DF": "do",
    "ES": "do",
    "GO": "de",
    "MA": "do",
    "MT": "de",
    "MS": "de",
    "MG": "de",
    "PA": "do",
    "PB": "da",
    "PR": "do",
    "PE": "de",
    "PI": "do",
    "RJ": "do",
    "RN": "do",
    "RS": "do",
    "RO": "de",
    "RR": "de",
    "SC": "de",
    "SE": "de",
    "SP": "de",
    "TO": "do",
}

SEGMENTS: dict[int, str] = {
    1: "Supremo Tribunal Federal",
    2: "Conselho Nacional de Justiça",
    3: "Superior Tribunal de Justiça",
    4: "Justiça Federal",
    5: "Justiça do Trabalho",
    6: "Justiça Eleitoral",
    7: "Justiça Militar da União",
    8: "Justiça Estadual",
    9: "Justiça Militar Estadual",
}


@dataclass(frozen=True)
class Court:
    """One court: ``segment`` is J, ``code`` is TR of a CNJ number.

    ``state`` is the one state the court serves, or None when it serves several or the whole
    country; ``states`` lists every state of its jurisdiction (empty for national courts).
    """

    segment: int
    code: int
    acronym: str
    name: str
    state: str | None
    justice: str
    states: tuple[str, ...] = field(default=())

    @property
    def jtr(self) -> str:
        """The J.TR part of a CNJ number, e.g. ``8.26``."""
        return f"{self.segment}.{self.code:02d}"


def _with_prep(uf: str) -> str:
    return f"{_STATE_PREPOSITION[uf]} {BR_STATES[uf]}"


_TRF_STATES: dict[int, tuple[str, ...]] = {
    1: ("AC", "AP", "AM", "BA", "DF", "GO", "MA", "MT", "PA", "PI", "RO", "RR", "TO"),
    2: ("ES", "RJ"),
    3: ("MS", "SP"),
    4: ("PR", "RS", "SC"),
    5: ("AL", "CE", "PB", "PE", "RN", "SE"),
    6: ("MG",),
}

_TRT_STATES: dict[int, tuple[str, ...]] = {
    1: ("RJ",),
    2: ("SP",),
    3: ("MG",),
    4: ("RS",),
    5: ("BA",),
    6: ("PE",),
    7: ("CE",),
    8: ("AP", "PA"),
    9: ("PR",),
    10: ("DF", "TO"),
    11: ("AM", "RR"),
    12: ("SC",),
    13: ("PB",),
    14: ("AC", "RO"),
    15: ("SP",),
    16: ("MA",),
    17: ("ES",),
    18: ("GO",),
    19: ("AL",),
    20: ("SE",),
    21: ("RN",),
    22: ("PI",),
    23: ("MT",),
    24: ("MS",),
}

_CJM_STATES: dict[int, tuple[str, ...]] = {
    1: ("ES", "RJ"),
    2: ("SP",),
    3: ("RS",),
    4: ("MG",),
    5: ("PR", "SC"),
    6: ("BA", "SE"),
    7: ("AL", "PB", "PE", "RN"),
    8: ("AP", "MA", "PA"),
    9: ("MS", "MT"),
    10: ("CE", "PI"),
    11: ("DF", "GO", "TO"),
    12: ("AC", "AM", "RO", "RR"),
}


def _court(segment: int, code: int, acronym: str, name: str, states: tuple[str, ...] = ()) -> Court:
    return Court(
        segment=segment,
        code=code,
        acronym=acronym,
        name=name,
        state=states[0] if len(states) == 1 else None,
        justice=SEGMENTS[segment],
        states=states,
    )


def _build() -> dict[tuple[int, int], Court]:
    courts: list[Court] = [
        _court(1, 0, "STF", "Supremo Tribunal Federal"),
        _court(2, 0, "CNJ", "Conselho Nacional de Justiça"),
        _court(3, 0, "STJ", "Superior Tribunal de Justiça"),
        _court(4, 90, "CJF", "Conselho da Justiça Federal"),
        _court(5, 0, "TST", "Tribunal Superior do Trabalho"),
        _court(5, 90, "CSJT", "Conselho Superior da Justiça do Trabalho"),
        _court(6, 0, "TSE", "Tribunal Superior Eleitoral"),
        _court(7, 0, "STM", "Superior Tribunal Militar"),
    ]
    for n, states in _TRF_STATES.items():
        courts.append(_court(4, n, f"TRF{n}", f"Tribunal Regional Federal da {n}ª Região", states))
    for n, states in _TRT_STATES.items():
        name = f"Tribunal Regional do Trabalho da {n}ª Região"
        courts.append(_court(5, n, f"TRT{n}", name, states))
    for n, states in _CJM_STATES.items():
        name = f"{n}ª Circunscrição Judiciária Militar"
        courts.append(_court(7, n, f"CJM{n}", name, states))
    for uf, n in STATE_CODES.items():
        courts.append(
            _court(6, n, f"TRE-{uf}", f"Tribunal Regional Eleitoral {_with_prep(uf)}", (uf,))
        )
        if uf == "DF":
            name = "Tribunal de Justiça do Distrito Federal e dos Territórios"
            courts.append(_court(8, n, "TJDFT", name, ("DF",)))
        else:
            name = f"Tribunal de Justiça do Estado {_with_prep(uf)}"
            courts.append(_court(8, n, f"TJ{uf}", name, (uf,)))
    for uf in ("MG", "RS", "SP"):
        name = f"Tribunal de Justiça Militar do Estado {_with_prep(uf)}"
        courts.append(_court(9, STATE_CODES[uf], f"TJM-{uf}", name, (uf,)))
    courts.sort(key=lambda c: (c.segment, c.code))
    return {(c.segment, c.code): c for c in courts}


@cache
def _table() -> dict[tuple[int, int], Court]:
    return _build()


def court_for(segment: int, code: int) -> Court | None:
    """The court with J=``segment`` and TR=``code``, or None if the pair names no court."""
    return _table().get((segment, code))


def all_courts() -> list[Court]:
    """Every known court, ordered by segment then code."""
    return list(_table().values())


def court_by_acronym(acronym: str) -> Court | None:
    """Look a court up by its acronym, ignoring case and hyphens ("tjsp", "TRE-SP", "tresp")."""
    wanted = acronym.replace("-", "").replace(" ", "").upper()
    for court in _table().values():
        if court.acronym.replace("-", "") == wanted:
            return court
    return None
