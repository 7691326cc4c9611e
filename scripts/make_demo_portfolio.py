"""Write ``assets/portfolio/carteira-demo.csv``: a demo portfolio over the sandbox's world.

A few thousand rows of keys the world holds (lawsuits by CNJ, people by CPF, companies by CNPJ,
the alphanumeric one included, lawyers by OAB), written as an analyst's spreadsheet would have
them: mixed formatting, a tier column in Portuguese (some blank), labels, names, a few rows
with wrong check digits and a few keys repeated, saved as a Brazilian Excel saves a CSV
(semicolons, Windows-1252, CRLF). The same seed always writes the same file::

    uv run python scripts/make_demo_portfolio.py [--seed 7] [--out FILE]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from lawsuit_tui.domain.identifiers import format_cnj, format_cnpj, format_cpf
from lawsuit_tui.sandbox.world import World

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "assets" / "portfolio" / "carteira-demo.csv"
HEADER = ["CPF/CNPJ/Processo", "Nível", "Etiquetas", "Nome"]
TIERS = ["quente"] * 10 + ["morno"] * 50 + ["frio"] * 30 + [""] * 10
LABELS = ["", "", "", "cobrança", "trabalhista", "vip", "contencioso|SP", "bancário", "recuperação"]
LAWSUITS, PEOPLE, COMPANIES, LAWYERS = 1200, 1100, 500, 60
WRONG_DIGITS, REPEATED = 60, 40


def cnj_text(code: str, r: random.Random) -> str:
    digits = "".join(ch for ch in code if ch.isdigit())
    roll = r.random()
    if roll < 0.6:
        return format_cnj(digits)
    if roll < 0.9:
        return digits
    return f" {format_cnj(digits)} "


def cpf_text(cpf: str, r: random.Random) -> str:
    roll = r.random()
    if roll < 0.5:
        return format_cpf(cpf)
    if roll < 0.9:
        return cpf
    return f"{cpf[:3]} {cpf[3:6]} {cpf[6:9]} {cpf[9:]}"


def cnpj_text(cnpj: str, r: random.Random) -> str:
    return format_cnpj(cnpj) if r.random() < 0.6 else cnpj


def oab_text(oab: str, r: random.Random) -> str:
    number, state = oab[:-2], oab[-2:]
    roll = r.random()
    if roll < 0.4:
        return f"OAB/{state} {int(number):,}".replace(",", ".")
    if roll < 0.8:
        return oab
    return f"{state}{number}"


def wrong_digit(text: str) -> str:
    """The key with its last digit changed: its check digits no longer hold."""
    last = max(i for i, ch in enumerate(text) if ch.isdigit())
    return text[:last] + str((int(text[last]) + 1) % 10) + text[last + 1 :]


def rows(seed: int) -> list[list[str]]:
    world = World.build(seed)
    r = random.Random(f"demo-portfolio-{seed}")
    entities = world.pop.entities
    people = sorted(doc for doc, e in entities.items() if e.kind == "person" and len(doc) == 11)
    companies = sorted(doc for doc, e in entities.items() if e.kind == "company")
    lawyers = sorted(world.pop.by_oab)
    codes = sorted(record.code for record in world.records())
    made: list[list[str]] = []
    for code in r.sample(codes, min(LAWSUITS, len(codes))):
        made.append([cnj_text(code, r), r.choice(TIERS), r.choice(LABELS), ""])
    for doc in r.sample(people, min(PEOPLE, len(people))):
        made.append([cpf_text(doc, r), r.choice(TIERS), r.choice(LABELS), entities[doc].name])
    for doc in r.sample(companies, min(COMPANIES, len(companies))):
        made.append([cnpj_text(doc, r), r.choice(TIERS), r.choice(LABELS), entities[doc].name])
    for oab in r.sample(lawyers, min(LAWYERS, len(lawyers))):
        made.append([oab_text(oab, r), "frio", "advogados", world.pop.by_oab[oab].name])
    r.shuffle(made)
    for row in r.sample(made, WRONG_DIGITS):
        if row[2] != "advogados":  # an OAB number has no check digits
            row[0] = wrong_digit(row[0])
    for row in r.sample(made, REPEATED):
        made.append([row[0].strip().replace(".", "").replace("-", ""), r.choice(TIERS), "", row[3]])
    r.shuffle(made)
    return made


def write(path: Path, table: list[list[str]]) -> None:
    lines = [";".join(HEADER)]
    for row in table:
        lines.append(";".join(cell.replace(";", ",") for cell in row))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252", errors="replace"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    table = rows(args.seed)
    write(args.out, table)
    print(f"{args.out}: {len(table)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
