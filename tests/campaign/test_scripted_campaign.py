"""A campaign of three battles with recovery between them, end to end through the services.

The battles are entered by hand as `UnitOutcome`s (as a GM would after a game at a real table).
Every number below is worked out from the rules in docs/campaign.md, from the dice each history
entry records; at the end, each unit's history, replayed line by line, arrives exactly at the
unit as stored.
"""

from __future__ import annotations

import pytest

from campaign.models import HistoryEntry, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.history import taken_text
from campaign.rules.state import Status
from campaign.selectors.entries import unit_history, unit_snapshot
from campaign.services import (
    calendar_advance,
    medical_apply,
    outcome_apply,
    unit_combat_zone_set,
)
from campaign.services.characters import character_create
from campaign.services.orders import clock_advance, order_give
from units.bucs import Quality

Kind = HistoryEntry.Kind
Q = Quality


@pytest.fixture
def war(campaign, force, enemy, make_unit, cards):
    """Day 1 rosters: Red (the player's) against Blue (the rival's)."""
    red = {
        "Atlas": make_unit("Atlas", "Mech", quality="elite", equipment="good",
                           specialties=("mechanized", "armor"),
                           leader={"name": "Capt. Holt", "hit_points": 12}),
        "1st Squad": make_unit("1st Squad"),
        "Aid Post": make_unit("Aid Post", quality="experienced", equipment="excellent",
                              specialties=("infantry", "medical")),
        "Walker": make_unit("Walker", "Mech", specialties=("mechanized",)),
    }  # fmt: skip
    blue = {
        "Brute": make_unit("Brute", "Mech", specialties=("mechanized",), into=enemy,
                           leader={"name": "Maj. Brandt", "hit_points": 5}),
        "Blue Rifles": make_unit("Blue Rifles", quality="green", equipment="poor", into=enemy),
    }  # fmt: skip
    return {**red, **blue}


def battle(campaign, units, reason, outcomes, winners, red_faces, blue_faces, seed=0):
    campaign.refresh_from_db()
    red = {"Atlas", "1st Squad", "Aid Post", "Walker"}
    return outcome_apply(
        campaign=campaign,
        outcomes={units[name].pk: UnitOutcome(*outcome) for name, outcome in outcomes.items()},
        winners=[units[name].pk for name in outcomes if name in winners],
        opposing_equipment={
            units[name].pk: red_faces if name in red else blue_faces for name in outcomes
        },
        reason=reason,
        seed=seed,
    )


def fields(unit: Unit) -> dict:
    unit.refresh_from_db()
    state = unit.state
    return {
        "quality": state.quality,
        "morale": state.morale_hits,
        "casualty": state.casualty_hits,
        "skill_lost": state.skill_lost,
        "status": state.status,
        "experience": state.experience,
        "battles": state.battles_fought,
        "zone": state.in_combat_zone,
        "last": state.last_battle_day,
        "leader": None if state.leader is None else (state.leader.hit_points, state.leader.alive),
    }


def battle_damage(entries, unit):
    """The recorded working of the unit's battle entry among these entries."""
    entry = next(e for e in entries if e.unit_id == unit.pk and e.kind == Kind.BATTLE)
    return entry.details["damage"]


def test_three_battles_and_recovery_between_them(campaign, force, enemy, war):
    u = war
    # Battle 1, day 1, won by Red. Atlas: 1 Skill lost (Combined Arms): Elite → Experienced
    # for good, and 1 Morale hit of shock; it survived and won, so it earns 2 points (no step
    # back up in this battle, but 2 is short of Experienced's 5 anyway).
    # Brute: 2 Skill lost, Average → Green, 2 Morale hits: below Raw, it retreats; it survived,
    # so it earns 1 point (Green needs 2).
    # Blue Rifles: taken out by its one Hit: it retreats; its fate waits for the 24 hours.
    # Brute fights under an Order (its card's Skill 4, where 2 Skill lost leaves it in the
    # field); without one it would have fought at Skill 3.
    brandt = character_create(campaign=campaign, name="Maj. Brandt", hit_points=5)
    order_give(giver=brandt, unit=u["Brute"], kind="attack")
    first = battle(campaign, u, "the Crossroads",
                   {"Atlas": (0, 1), "1st Squad": (0, 0), "Brute": (0, 2),
                    "Blue Rifles": (1, 0, "destroyed")},
                   winners={"Atlas", "1st Squad"}, red_faces="adequate", blue_faces="good",
                   seed=5)  # fmt: skip
    assert fields(u["Atlas"]) | {"leader": None} == {
        "quality": Q.EXPERIENCED, "morale": 1, "casualty": 0, "skill_lost": 1,
        "status": Status.READY, "experience": 2, "battles": 1, "zone": True, "last": 1,
        "leader": None,
    }  # fmt: skip
    assert fields(u["1st Squad"])["experience"] == 2  # survived and won: 1 + 1
    assert (fields(u["Brute"])["quality"], fields(u["Brute"])["morale"]) == (Q.GREEN, 2)
    assert fields(u["Brute"])["status"] == Status.RETREATED
    assert fields(u["Brute"])["experience"] == 1
    rifles = battle_damage(first, u["Blue Rifles"])
    assert len(rifles["blow_dice"]) == 1 and len(rifles["split_dice"]) == rifles["blow_dice"][0]
    casualty = sum(1 for die in rifles["split_dice"] if die >= 4)
    assert rifles["casualty_hits"] == casualty
    assert fields(u["Blue Rifles"])["status"] == Status.RETREATED
    assert fields(u["Blue Rifles"])["casualty"] == casualty

    # Blue has no medics. A day on (day 2, 00:00) is the battle's 24th hour: the Blue Rifles'
    # Casualty hits still await the medics. An hour later the window is closed and they die;
    # more than its one step (Green) and it is destroyed utterly, else it is Raw for good.
    calendar_advance(campaign=campaign, days=1)
    assert fields(u["Blue Rifles"])["casualty"] == casualty
    clock_advance(campaign=campaign, hours=1)
    entries = list(HistoryEntry.objects.filter(day=2, kind=Kind.CASUALTIES))
    rifles_state = fields(u["Blue Rifles"])
    if casualty > 1:
        assert rifles_state["status"] == Status.DESTROYED
    else:
        assert rifles_state["quality"] == Q.GREEN.lowered(casualty)
    if casualty:
        (died,) = [e for e in entries if e.unit == u["Blue Rifles"] and e.kind == Kind.CASUALTIES]
        assert died.text.startswith(
            f"taken out at the Crossroads; {taken_text(rifles['morale_hits'], casualty)}; "
            "medics saved 0; "
        )
    # R&R: Atlas is in the combat zone and keeps its last Morale hit; Brute heals one and, 1
    # Morale hit on a Green unit, is back on the ladder: it rallies.
    assert fields(u["Atlas"])["morale"] == 1
    assert (fields(u["Brute"])["status"], fields(u["Brute"])["morale"]) == (Status.READY, 1)
    unit_combat_zone_set(unit=u["1st Squad"], in_combat_zone=False)

    # Battle 2, day 2: Walker loses 2 of its 4 Hits. Red's Aid Post (Experienced, Excellent:
    # capacity 2 + 2) saves its Casualty hits, up to 4.
    second = battle(campaign, u, "Hill 203", {"Walker": (2, 0), "Brute": (0, 0)},
                    winners={"Walker"}, red_faces="adequate", blue_faces="good",
                    seed=24)  # fmt: skip
    walker = battle_damage(second, u["Walker"])
    expected = sum(-(-die // 4) for die in walker["blow_dice"])
    assert len(walker["split_dice"]) == expected == sum(walker["split"])
    saved = medical_apply(force=force)
    assert sum(e.details["saved"] for e in saved) == min(4, walker["casualty_hits"])
    clock_advance(campaign=campaign, hours=25)  # the medics' 24 hours are over
    lost = max(0, walker["casualty_hits"] - 4)
    assert fields(u["Walker"])["quality"] == Q.AVERAGE.lowered(lost)
    assert fields(u["Aid Post"])["battles"] == 0

    for unit in war.values():
        unit.refresh_from_db()
        assert_history_explains(unit)


def assert_history_explains(unit: Unit) -> None:
    """Replay the history entry by entry: each `before` is what the unit was at that point,
    and the last `after` leaves it exactly as stored."""
    entries = list(unit_history(unit=unit))
    assert entries[0].kind == Kind.CREATED
    replayed: dict = {}
    for entry in entries:
        for field, value in entry.before.items():
            assert replayed[field] == value, (unit.name, entry.text, field)
        if entry.kind == Kind.ORDER:  # an Order given or ended tells, and changes nothing
            assert not entry.before and not entry.after and entry.text, (unit.name, entry.text)
            continue
        assert entry.after, (unit.name, entry.text)
        assert entry.text
        replayed.update(entry.after)
    assert replayed == unit_snapshot(unit=unit)
