"""The sandbox's world: a deterministic, realistic and moving set of lawsuits.

``World.build(seed)`` builds the index eagerly (lawsuit identities, parties, who appears
where); steps, attachments and long texts are generated lazily per lawsuit instance and
cached. Steps after ``epoch`` keep appearing for a share of active lawsuits, so a view of
the court at a later moment differs from the service's stored copy.
"""

from __future__ import annotations

from lawsuit_tui.sandbox.world.systems import SystemInfo
from lawsuit_tui.sandbox.world.world import DEFAULT_EPOCH, World

__all__ = ["DEFAULT_EPOCH", "SystemInfo", "World"]
