"""The sandbox world every test shares (seed 7, the sandbox's default start) and its samples:
the keys the world guarantees (a lawsuit with 10,000 steps, a secret one, a person with many
lawsuits...). Built once per test process; read-only."""

from __future__ import annotations

from functools import cache
from typing import Any

from lawsuit_tui.sandbox.clock import DEFAULT_START
from lawsuit_tui.sandbox.world import World

__all__ = ["ENTITY_EXAMPLE", "samples", "shared_world"]

ENTITY_EXAMPLE: dict[str, Any] = {
    # Registration data of a company in the shape of requests.json's entity object (the
    # fields the app's card reads), for screens tested before the sandbox answers entity.
    "entity_type": "company",
    "name": "CONSTRUTORA EXEMPLO LTDA",
    "main_document": "11222333000181",
    "documents": [{"document": "11222333000181", "document_type": "cnpj"}],
    "revenue_service_active": True,
    "revenue_service_status": "ATIVA",
    "legal_nature": {"code": "206-2", "name": "Sociedade Empresária Limitada", "active": True},
    "share_capital": 150000.0,
    "addresses": [{"street": "Rua Augusta", "number": "100", "city": "São Paulo", "state": "SP"}],
    "contacts": [{"contact_type": "email", "description": "contato@exemplo.com.br"}],
    "partners": [{"name": "MARIA SILVA", "qualification": "Sócia-Administradora"}],
}


@cache
def shared_world() -> World:
    return World.shared(7, epoch=DEFAULT_START)


@cache
def samples() -> dict[str, Any]:
    found: dict[str, Any] = dict(shared_world().samples())
    return found
