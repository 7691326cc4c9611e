"""Reading portfolio files as spreadsheets save them (D158, D159)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from lawsuit_tui.services.portfolio_files import (
    PortfolioFileError,
    decode_text,
    read_pasted_list,
    read_portfolio_file,
    split_csv,
)

ROWS = [
    ["chave do cliente", "número do processo", "nível", "nome"],
    ["c1", "0084542-06.2024.4.04.4803", "quente", "José Conceição; Ltda"],
]


def write_csv(path: Path, rows: list[list[str]], delimiter: str, encoding: str) -> Path:
    text = "\r\n".join(
        delimiter.join(f'"{cell}"' if delimiter in cell else cell for cell in row) for row in rows
    )
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("delimiter", [";", ",", "\t"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "latin-1"])
def test_csv_in_every_delimiter_and_encoding(tmp_path: Path, delimiter: str, encoding: str) -> None:
    path = write_csv(tmp_path / "p.csv", ROWS, delimiter, encoding)
    assert read_portfolio_file(path) == ROWS


def test_a_single_column_list_and_a_pasted_one(tmp_path: Path) -> None:
    path = tmp_path / "keys.txt"
    path.write_text("240.305.010-52\n0084542-06.2024.4.04.4803\n\n", encoding="utf-8")
    assert read_portfolio_file(path) == [["240.305.010-52"], ["0084542-06.2024.4.04.4803"], []]
    assert read_pasted_list("24030501052\r\n73578838000130") == [
        ["24030501052"],
        ["73578838000130"],
    ]


def test_cp1252_is_read_as_excel_writes_it() -> None:
    raw = "São Paulo – “cobrança”".encode("cp1252")
    assert decode_text(raw) == "São Paulo – “cobrança”"


def test_xlsx_keys_stored_as_numbers_get_their_zeros_back(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["cpf", "tier"])
    sheet.append([3580030914, "hot"])  # CPF 03580030914 typed into a number cell
    sheet.append([16626126000106, None])  # a CNPJ
    sheet.append(["0084542-06.2024.4.04.4803", "cold"])
    path = tmp_path / "p.xlsx"
    book.save(path)
    assert read_portfolio_file(path) == [
        ["cpf", "tier"],
        ["03580030914", "hot"],
        ["16626126000106", ""],
        ["0084542-06.2024.4.04.4803", "cold"],
    ]


def test_unreadable_files_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(PortfolioFileError, match="no such file"):
        read_portfolio_file(tmp_path / "missing.csv")
    with pytest.raises(PortfolioFileError, match="is a folder"):
        read_portfolio_file(tmp_path)
    old = tmp_path / "old.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0")
    with pytest.raises(PortfolioFileError, match=r"\.xlsx or CSV"):
        read_portfolio_file(old)
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not really a sheet")
    with pytest.raises(PortfolioFileError, match=r"not a readable \.xlsx"):
        read_portfolio_file(broken)
    binary = tmp_path / "data.bin"
    binary.write_bytes(b"\x00\x01\x02" * 10)
    with pytest.raises(PortfolioFileError, match="not a text file"):
        read_portfolio_file(binary)


def test_quoted_cells_keep_their_delimiters() -> None:
    assert split_csv('key;tags\n24030501052;"a;b"\n') == [["key", "tags"], ["24030501052", "a;b"]]
