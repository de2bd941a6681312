"""Every write to the campaign: each a `<noun>_<verb>(*, keyword, only)` in one transaction.

Inputs are validated first and refused with a `ValidationError` naming the field; every change
to a persistent unit is saved together with its history entry.
"""

from __future__ import annotations

from campaign.services.campaigns import campaign_create, campaign_hand_over, campaign_update
from campaign.services.leaders import leader_attach, leader_detach, unit_train
from campaign.services.members import (
    account_join,
    invitation_accept,
    invitation_decline,
    invitation_join,
    invitation_send,
    invitation_withdraw,
    membership_remove,
    membership_set,
)
from campaign.services.outcomes import best_equipment, opposing_equipment_by_side, outcome_apply
from campaign.services.quick import quick_resolve_run
from campaign.services.recovery import calendar_advance, medical_apply
from campaign.services.reverts import entry_undo, outcome_revert
from campaign.services.roster import (
    force_create,
    force_edit,
    unit_combat_zone_set,
    unit_create,
    unit_edit,
    unit_move,
    unit_remove,
    units_raise,
)
from campaign.services.transfer import campaign_import, force_import

__all__ = [
    "account_join",
    "best_equipment",
    "calendar_advance",
    "campaign_create",
    "campaign_hand_over",
    "campaign_import",
    "campaign_update",
    "entry_undo",
    "force_create",
    "force_edit",
    "force_import",
    "invitation_accept",
    "invitation_decline",
    "invitation_join",
    "invitation_send",
    "invitation_withdraw",
    "leader_attach",
    "leader_detach",
    "medical_apply",
    "membership_remove",
    "membership_set",
    "opposing_equipment_by_side",
    "outcome_apply",
    "outcome_revert",
    "quick_resolve_run",
    "unit_combat_zone_set",
    "unit_create",
    "unit_edit",
    "unit_move",
    "unit_remove",
    "unit_train",
    "units_raise",
]
