"""A campaign of three battles with recovery between them, end to end through the services.

The battles are entered by hand as `UnitOutcome`s (as a GM would after a game at a real table).
Every number below is worked out from the rules in docs/campaign.md; at the end, each unit's
history, replayed line by line, arrives exactly at the unit as stored.
"""

from __future__ import annotations

import pytest

from campaign.bridge import UnitOutcome
from campaign.models import HistoryEntry, Unit
from campaign.selectors import unit_history, unit_snapshot
from campaign.services import (
    calendar_advance,
    medical_apply,
    outcome_apply,
    unit_combat_zone_set,
)
from campaign.state import Status
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


def test_three_battles_and_recovery_between_them(campaign, force, enemy, war):
    u = war
    # Battle 1, day 1. Atlas: 3 hits split 2 Morale 1 Casualty, Armor ignores the Casualty.
    # 1st Squad: 1 Skill lost for good (Combined Arms): Average → Inexperienced.
    # Brute: 1 Morale, 1 Casualty, and its leader takes 3d6 = 4+4+1: 5 → −4, dying but alive.
    # Blue Rifles: destroyed.
    battle(campaign, u, "the Crossroads",
           {"Atlas": (3, 0), "1st Squad": (0, 1), "Brute": (2, 0),
            "Blue Rifles": (1, 0, "destroyed")},
           winners={"Atlas", "1st Squad"}, red_faces="adequate", blue_faces="good")  # fmt: skip
    assert fields(u["Atlas"])["morale"] == 2 and fields(u["Atlas"])["casualty"] == 0
    assert fields(u["1st Squad"])["quality"] == Q.INEXPERIENCED
    assert fields(u["Blue Rifles"])["status"] == Status.DESTROYED
    assert fields(u["Brute"])["leader"] == (-4, True)

    # Blue has no medics: advancing the calendar kills Brute's Casualty hit (Average → Inexp.),
    # and a day of R&R heals one Morale hit, except the last of a unit in the combat zone.
    calendar_advance(campaign=campaign, days=1)
    assert fields(u["Brute"])["quality"] == Q.INEXPERIENCED
    assert (fields(u["Atlas"])["morale"], fields(u["Brute"])["morale"]) == (1, 1)
    unit_combat_zone_set(unit=u["1st Squad"], in_combat_zone=False)

    # Battle 2, day 2, lost. Atlas: 2 more Morale (Armor again ignores the Casualty) and 1 Skill
    # lost for good: Elite → Experienced. Brute: 1 Morale, 1 Casualty; its leader takes 6+4+5
    # and dies (−4 → −19), so 2 Morale hits at once: 5 hits on an Inexperienced unit, it
    # retreats in poor order.
    entries = battle(campaign, u, "Hill 203", {"Atlas": (3, 1), "Brute": (2, 0)},
                     winners={"Brute"}, red_faces="adequate", blue_faces="good",
                     seed=24)  # fmt: skip
    brute_battle = next(e for e in entries if e.unit == u["Brute"] and e.kind == Kind.BATTLE)
    assert brute_battle.details["damage"]["leader_rolls"] == [6, 4, 5]
    assert "the leader died: 2 Morale hits at once" in brute_battle.text
    assert fields(u["Brute"]) | {"experience": None} == {
        "quality": Q.INEXPERIENCED, "morale": 4, "casualty": 1, "skill_lost": 0,
        "status": Status.RETREATED, "experience": None, "battles": 2, "zone": False, "last": 2,
        "leader": (-19, False),
    }  # fmt: skip
    assert fields(u["Atlas"])["quality"] == Q.EXPERIENCED

    # Two days: Brute's Casualty hit dies (Inexperienced → Green) and R&R heals two Morale
    # hits, but 2 Morale hits still take a Green unit below Raw: it stays retreated.
    calendar_advance(campaign=campaign, days=2)
    assert fields(u["Brute"])["status"] == Status.RETREATED
    assert (fields(u["Brute"])["quality"], fields(u["Brute"])["morale"]) == (Q.GREEN, 2)

    # Battle 3, day 4, won. Atlas earned nothing from Hill 203, where it lost a step for good,
    # so it is still Experienced; 1st Squad earned nothing from the Crossroads for the same
    # reason. Walker takes 2 Morale and 1 Casualty.
    battle(campaign, u, "the Bridge",
           {"Atlas": (0, 0), "1st Squad": (0, 0), "Walker": (3, 0)},
           winners={"Atlas", "1st Squad", "Walker"}, red_faces="adequate",
           blue_faces="good")  # fmt: skip
    # Red's Aid Post (Experienced, Excellent: capacity 2 + 2) saves Walker's Casualty hit.
    (saved,) = medical_apply(force=force)
    assert saved.unit == u["Walker"] and saved.details == {"saved": 1, "capacity": 4}
    calendar_advance(campaign=campaign, days=1)

    assert fields(u["Atlas"]) == {
        "quality": Q.EXPERIENCED, "morale": 1, "casualty": 0, "skill_lost": 1,
        "status": Status.READY, "experience": 4, "battles": 3, "zone": True, "last": 4,
        "leader": (12, True),
    }  # fmt: skip
    assert fields(u["1st Squad"]) == {
        "quality": Q.INEXPERIENCED, "morale": 0, "casualty": 0, "skill_lost": 1,
        "status": Status.READY, "experience": 2, "battles": 2, "zone": True, "last": 4,
        "leader": None,
    }  # fmt: skip
    assert fields(u["Walker"]) == {
        "quality": Q.AVERAGE, "morale": 1, "casualty": 0, "skill_lost": 0,
        "status": Status.READY, "experience": 2, "battles": 1, "zone": True, "last": 4,
        "leader": None,
    }  # fmt: skip
    assert fields(u["Aid Post"])["battles"] == 0
    # Brute: a third day of R&R leaves 1 Morale hit on a Green unit, back on the ladder: it
    # rallies. It kept the 1 point of the Crossroads (none for Hill 203, where it retreated).
    assert fields(u["Brute"]) == {
        "quality": Q.GREEN, "morale": 1, "casualty": 0, "skill_lost": 0,
        "status": Status.READY, "experience": 1, "battles": 2, "zone": False, "last": 2,
        "leader": (-19, False),
    }  # fmt: skip
    assert fields(u["Blue Rifles"])["status"] == Status.DESTROYED

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
        assert entry.after, (unit.name, entry.text)
        assert entry.text
        replayed.update(entry.after)
    assert replayed == unit_snapshot(unit=unit)
