"""The export format's names (docs/campaign.md, "Export and import"): what an export is of, its
version, and the fields each of its records holds.
"""

from __future__ import annotations

from campaign.models import CAMPAIGN_SETTINGS
from campaign.rules.state import SNAPSHOT_FIELDS

CAMPAIGN_FORMAT = "bridgehead.campaign"


FORCE_FORMAT = "bridgehead.force"


VERSION = 1


SETTINGS = CAMPAIGN_SETTINGS


NEWER_SETTINGS = ("fog_of_war",)
"""Settings an export written before they existed leaves out: the import gives their default."""


MAP_KEYS = ("name", "scenario")


LARGEST_DAY = 2**31 - 1
"""The largest number the database's day columns hold."""


UNIT_KEYS = ("unit_type", *SNAPSHOT_FIELDS, "history")


ENTRY_KEYS = ("day", "kind", "text", "before", "after", "details", "reverts", "created_at")


CHARACTER_KEYS = ("name", "player", "hit_points", "max_hit_points", "alive", "feats", "leads",
                  "entries")  # fmt: skip


CHARACTER_ENTRY_KEYS = ("day", "hour", "text", "before", "after", "created_at")


ORDER_VALUES = ("kind", "listed_hours", "hours", "given_at", "finishes_at", "replaced",
                "called_off_at", "ended_at", "ended_as", "note")  # fmt: skip


NEWER_ORDER_VALUES = ("called_off_at", "ended_at", "ended_as")
"""Order fields an export written before they existed leaves out: the import reads None."""


ORDER_KEYS = ("giver", "force", "unit", *ORDER_VALUES)


INVITATION_KEYS = ("invitee", "role", "forces", "characters")
"""An invitation waiting in an export: to whom (as the GM typed it), in which role, and what
accepting it hands over, by name. Its link's secret (``link_key``) is not among them."""


ENGAGEMENT_VALUES = ("name", "day", "hour", "seed", "round_limit", "rounds", "winner", "state")


ENGAGEMENT_KEYS = (*ENGAGEMENT_VALUES, "setup", "events", "applied_entries", "created_at")


TABLE_ROLL_VALUES = ("kind", "day", "hour", "seed", "summary")


TABLE_ROLL_KEYS = (*TABLE_ROLL_VALUES, "setup", "result", "created_at")


CHARACTER_DETAILS = ("character", "rallied_by", "replaced")
"""A history entry's working that names a character (by pk in the database, by name in an
export)."""


RECORD_DETAILS = {"engagement": "engagements", "table_roll": "table_rolls"}
"""A history entry's working that points at a record of the table: in an export, the index of
that record in the export's own list (a force export carries none: the link stays behind)."""


UNIT_REFERENCES = ("unit", "commanded_by", "driven_back")
"""Where an engagement's log or a check's result names a unit by its key; ``helpers`` holds a
list of keys and ``pinned`` is keyed by them."""


LARGEST_SEED = 2**63 - 1
"""The largest seed the database's seed columns hold."""


BATTLE_VALUES = ("name", "day", "hour", "state", "applications")


BATTLE_KEYS = (*BATTLE_VALUES, "sides", "engine_units", "orders", "table_result",
               "applied_entries", "entries", "applied_at", "created_at", "engine")  # fmt: skip


ENGINE_VALUES = ("ruleset", "scenario", "seed", "engine_version", "status", "turn_limit", "result",
                 "error")  # fmt: skip


ENGINE_TIMES = ("created_at", "started_at", "finished_at")


ENGINE_KEYS = (*ENGINE_VALUES, *ENGINE_TIMES, "log", "log_sha256")


FORMAT_KINDS = {CAMPAIGN_FORMAT: "campaign", FORCE_FORMAT: "force"}
"""What each of our exports is of, by its ``format``."""
