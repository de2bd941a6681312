"""Checks of an import's campaign settings, each of its own type and within the table's
constraints.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from campaign.models import Campaign
from campaign.rules.values import value_shown
from campaign.transfer.checker import Checker
from campaign.transfer.format import NEWER_SETTINGS, SETTINGS

SETTING_TYPES = {
    "apply_mode": str,
    "other_forces_visible": str,
    "quick_resolve_rounds": int,
    "fog_of_war": bool,
}


def check_settings(c: Checker, path: str, data: dict[str, Any]) -> dict[str, Any]:
    """The campaign's settings, each of its own type and within the table's constraints; a
    setting newer than the export takes its default."""
    fields = {field.name: field for field in Campaign._meta.get_fields() if field.name in SETTINGS}
    settings: dict[str, Any] = {}
    for name in SETTINGS:
        field = fields[name]
        value = data.get(name, field.default) if name in NEWER_SETTINGS else data[name]
        kind = SETTING_TYPES[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            c.error(f"{path}.{name}", f"must be {kind.__name__}, got {value_shown(value)}")
            continue
        try:
            settings[name] = field.clean(value, None)
        except ValidationError as error:
            c.error(f"{path}.{name}", "; ".join(error.messages))
    if "quick_resolve_rounds" in settings:
        # The table's own check (campaign_quick_resolve_rounds_1_50), said before any write.
        try:
            Campaign(**settings).validate_constraints()
        except ValidationError:
            c.error(f"{path}.quick_resolve_rounds", "must be 1..50")
    return settings
