"""How much an import holds, checked before any of it is read further: a campaign's whole
(`IMPORT_MOST`) and each list a record of it keeps (`past_most`).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS

from campaign.transfer.checker import Checker

IMPORT_MOST = {
    "units": 2_000,
    "history entries": 50_000,
    "battles": 250,
    "other records": 10_000,
}
"""The most a campaign's import holds of each (history entries: the units' and the characters';
other records: engagements, checks, characters, Orders and saved maps), so that any file within
them is checked and written well inside a web request (docs/deploy.md, "Upload limits"). Each is
far past a campaign played at a table: twenty forces of a full `MAX_UNITS_PER_FORCE`, fifty
entries a unit, a battle every day for most of a year. A battle's log has its own limit,
`LOG_EVENTS_MOST` (campaign.transfer.battles)."""


def _count(data: Any, key: str) -> list[Any]:
    found = data.get(key) if isinstance(data, dict) else None
    return found if isinstance(found, list) else []


def import_counts(data: dict[str, Any]) -> dict[str, int]:
    """How much of each `IMPORT_MOST` counts an export holds, read before anything is checked
    (what is not a list counts as nothing: the checks say what is wrong with it)."""
    units = [unit for force in _count(data, "forces") for unit in _count(force, "units")]
    characters = _count(data, "characters")
    return {
        "units": len(units),
        "history entries": sum(len(_count(unit, "history")) for unit in units)
        + sum(len(_count(character, "entries")) for character in characters),
        "battles": len(_count(data, "battles")),
        "other records": sum(
            len(_count(data, key))
            for key in (
                "engagements",
                "table_rolls",
                "characters",
                "orders",
                "maps",
                "story",
            )
        ),
    }


def check_counts(c: Checker, data: dict[str, Any]) -> bool:
    """Whether the export is within `IMPORT_MOST`; if not, one sentence for each count past it,
    said before any of it is read further."""
    ok = True
    for what, count in import_counts(data).items():
        if count > IMPORT_MOST[what]:
            c.error(NON_FIELD_ERRORS, f"This export holds {count:,} {what}; an import takes at "
                    f"most {IMPORT_MOST[what]:,}.")  # fmt: skip
            ok = False
    return ok


def past_most(c: Checker, path: str, listed: list[Any], what: str, holder: str, most: int) -> bool:
    """Whether ``listed`` holds more than ``holder`` may (``most``), said by its path before any
    of it is read: "holds 101 units; a force holds at most 100"."""
    if len(listed) <= most:
        return False
    c.error(path, f"holds {len(listed):,} {what}; {holder} holds at most {most:,}")
    return True
