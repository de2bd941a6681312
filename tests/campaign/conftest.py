"""The campaign tests' cast and fixtures: a GM, two players, an outsider, a small library, a
wounded mech beside a medic crew, and a campaign two days in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign.models import Campaign, Force, Unit
from campaign.rules.damage import UnitOutcome
from campaign.services import (
    calendar_advance,
    campaign_create,
    force_create,
    membership_set,
    outcome_apply,
    outcome_revert,
    unit_create,
    unit_edit,
)
from units.cardtext import parse_card
from units.models import Ruleset, UnitType

CARDS = {
    Ruleset.COMBINED_ARMS: [
        (
            "Rifle Squad",
            "Skill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1",
            "Rifles — Power 2, Range 12",
        ),
        (
            "Medium Tank",
            "Skill 4 · Move 6 · Resistance 3 · Hits 1 · Size 3",
            "Main Gun — Power 4, Range 18",
        ),
        (
            "Mech",
            "Skill 4 · Move 4 · Resistance 5 · Hits 4 · Size 4",
            "Autocannon — Power 4, Range 12",
        ),
        (
            "Ace Squad",
            "Skill 5 · Move 5 · Resistance 1 · Hits 1 · Size 1",
            "Rifles — Power 2, Range 12",
        ),
    ],
    Ruleset.ONE_YEAR_WAR: [
        (
            "Line Suit",
            "Skill 3 · Move 5 · Resistance 4 · Hits 2 · Size 3",
            "Beam Gun — Power 5, Range 12",
        ),
    ],
}
HOUSE = "House (building)\nResistance 3 · Hits 4\nAdmits: Size 1–2\nBecomes: rubble field"


@dataclass(frozen=True)
class Cast:
    gm: Any
    player: Any
    rival: Any
    """A second player, who owns the enemy force."""
    outsider: Any


@pytest.fixture
def cast(db) -> Cast:
    User = get_user_model()
    # No passwords: hashing one costs more than the rest of a test.
    return Cast(*(User.objects.create_user(name) for name in Cast.__annotations__))


@pytest.fixture
def cards(db) -> dict[str, UnitType]:
    """A small library: name → unit type (both rulesets, and one building)."""
    library = {}
    for ruleset, texts in CARDS.items():
        for lines in texts:
            card = parse_card("\n".join(lines))
            library[card["name"]] = UnitType.objects.create(
                name=card["name"], ruleset=ruleset, kind=UnitType.Kind.UNIT, card=card
            )
    house = parse_card(HOUSE)
    library["House"] = UnitType.objects.create(
        name="House", kind=UnitType.Kind.BUILDING, card=house
    )
    return library


@pytest.fixture
def campaign(cast, cards) -> Campaign:
    campaign = campaign_create(name="Op. Test", gm=cast.gm, ruleset=Ruleset.COMBINED_ARMS)
    membership_set(campaign=campaign, user=cast.player, role="player")
    membership_set(campaign=campaign, user=cast.rival, role="player")
    return campaign


@pytest.fixture
def force(campaign, cast) -> Force:
    return force_create(campaign=campaign, owner=cast.player, name="Red Company")


@pytest.fixture
def enemy(campaign, cast) -> Force:
    return force_create(campaign=campaign, owner=cast.rival, name="Blue Battalion")


MakeUnit = Callable[..., Unit]


@pytest.fixture
def make_unit(force, cards) -> MakeUnit:
    """Raise a unit through the service (so it has its created entry)."""

    def make(
        name: str = "1st Squad",
        card: str = "Rifle Squad",
        *,
        quality: str = "average",
        equipment: str = "adequate",
        specialties: tuple[str, ...] = ("infantry",),
        leader: dict[str, Any] | None = None,
        into: Force | None = None,
    ) -> Unit:
        return unit_create(
            force=into or force,
            unit_type=cards[card],
            name=name,
            quality=quality,
            equipment=equipment,
            specialties=specialties,
            leader=leader,
        )

    return make


@pytest.fixture
def wounded(campaign, make_unit):
    """Day 1: a Mech that fought and carries 2 Morale and 2 Casualty hits, and an Average medic
    crew."""
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    medic = make_unit("Aid Post", specialties=("infantry", "medical"))
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, reason="Hill 12")
    unit_edit(unit=mech, changes={"morale_hits": 2, "casualty_hits": 2}, reason="Hill 12 count")
    mech.refresh_from_db()
    return mech, medic


@pytest.fixture
def played(campaign, force, enemy, make_unit, cast):
    """A campaign two days in: a battle, a revert, recovery, a leader, a spectator."""
    red = make_unit(
        "Atlas",
        "Mech",
        quality="elite",
        specialties=("mechanized", "armor"),
        leader={"name": "Capt. Holt", "hit_points": 12},
    )
    blue = make_unit("Blue Rifles", into=enemy)
    entries = outcome_apply(
        campaign=campaign,
        outcomes={red.pk: UnitOutcome(3, 1), blue.pk: UnitOutcome(0, 0)},
        winners=[red.pk],
        reason="Ford",
    )
    outcome_revert(entries=[e for e in entries if e.unit_id == blue.pk][-1:], reason="oops")
    calendar_advance(campaign=campaign, days=1)
    membership_set(campaign=campaign, user=cast.outsider, role="spectator")
    campaign.refresh_from_db()
    return campaign
