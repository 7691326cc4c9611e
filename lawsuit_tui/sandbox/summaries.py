"""The AI summary of a lawsuit (D80), as the sandbox writes it: markdown in Portuguese with
the sections of the provider's example (Resumo, Partes, Classe, Assuntos, Movimentações),
made from the lawsuit's own data so that it never says what the lawsuit does not.

Deterministic and pure: the same lawsuit gives the same text.
"""

from __future__ import annotations

from typing import Any

__all__ = ["summary_of"]

_SIDES = {"active": "polo ativo", "passive": "polo passivo"}
_MONTHS = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)
_MAX_PARTIES = 8


def _date(value: object) -> str | None:
    """``2024-01-28T...`` as "28 de janeiro de 2024" (the provider's wording)."""
    text = str(value or "")
    if len(text) < 10 or text[4] != "-" or text[7] != "-":
        return None
    year, month, day = text[:4], int(text[5:7]), int(text[8:10])
    if not 1 <= month <= 12:
        return None
    return f"{day} de {_MONTHS[month - 1]} de {year}"


def _money(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    whole, cents = divmod(round(value * 100), 100)
    return f"R$ {whole:,}".replace(",", ".") + f",{cents:02d}"


def _names(items: object) -> list[str]:
    if not isinstance(items, list):
        return []
    return [str(i["name"]) for i in items if isinstance(i, dict) and i.get("name")]


def summary_of(lawsuit: dict[str, Any]) -> str:
    """The markdown summary of ``lawsuit`` (a lawsuit response's data)."""
    code = str(lawsuit.get("code") or "")
    classes = _names(lawsuit.get("classifications"))
    subjects = _names(lawsuit.get("subjects"))
    court = str(lawsuit.get("tribunal_acronym") or lawsuit.get("tribunal") or "")
    county = str(lawsuit.get("county") or "")
    where = f"no {court}" + (f", {county}" if county else "") if court else ""
    opening = f"O processo de número **{code}**"
    if classes:
        opening += f" ({classes[0]})"  # no article: a class may be masculine or feminine
    opening += f" tramita {where}".rstrip() if where else ""
    distributed = _date(lawsuit.get("distribution_date"))
    if distributed:
        opening += f" e foi distribuído em {distributed}"
    opening += "."
    lines = ["## Resumo", "", opening]
    amount = _money(lawsuit.get("amount"))
    if amount:
        lines.append(f"O valor da causa é de {amount}.")
    if lawsuit.get("status"):
        lines.append(f"Situação: {lawsuit['status']}.")
    if lawsuit.get("phase"):
        lines.append(f"Fase: {lawsuit['phase']}.")
    parties = [p for p in lawsuit.get("parties") or [] if isinstance(p, dict) and p.get("name")]
    if parties:
        lines += ["", "## Partes", ""]
        for party in parties[:_MAX_PARTIES]:
            role = str(party.get("person_type") or "").capitalize()
            side = _SIDES.get(str(party.get("side") or "").casefold(), "")
            what = ", ".join(part for part in (role, side) if part)
            lines.append(f"- **{party['name']}**" + (f" ({what})" if what else ""))
        if len(parties) > _MAX_PARTIES:
            lines.append(f"- e mais {len(parties) - _MAX_PARTIES} partes")
    if classes:
        lines += ["", "## Classe", "", classes[0]]
    if subjects:
        lines += ["", "## Assuntos", ""] + [f"- {name}" for name in subjects]
    steps = lawsuit.get("steps") or []
    last = lawsuit.get("last_step") if isinstance(lawsuit.get("last_step"), dict) else None
    if steps or last:
        lines += ["", "## Movimentações", ""]
        count = len(steps) if isinstance(steps, list) else 0
        said = f"O processo tem {count} movimentações registradas." if count else ""
        if last and last.get("content"):
            when = _date(last.get("step_date"))
            latest = f"A mais recente{f', em {when}' if when else ''}: {last['content']}."
            said = f"{said} {latest}".strip()
        lines.append(said)
    return "\n".join(lines).strip() + "\n"
