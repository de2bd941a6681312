"""A small hand-written battle whose luck and fog of war can be worked out on paper.

Blue's ``b1`` (Skill 4, Gun Power 3) faces red's ``r1`` (Resistance 2, Rifle Power 2), who
starts concealed in a wood, moves while still hidden (rolling for terrain), is spotted, and
fires. A farmhouse (Resistance 3) stands between them.
"""

from __future__ import annotations

import hashlib

from battles.engine import BattleResult, canonical_json, log_to_dict, parse_scenario, replay
from battles.engine import events as ev
from battles.models import Battle, BattleLog
from tests.engine.helpers import building, piece, scenario, square, unit


def crafted_scenario() -> dict:
    return scenario(
        [unit("b1", (4, 4), skill=4, resistance=2, hits=3, size=2)],
        [
            unit(
                "r1",
                (10, 16),
                skill=4,
                resistance=2,
                hits=3,
                size=2,
                weapons=[{"name": "Rifle", "power": 2, "range": 12}],
                enters=["woods"],
            )
        ],
        terrain=[piece("wood", "woods", square(8, 14, 12, 18))],
        buildings=[building("farm", square(14, 4, 16, 6), resistance=3, hits=2)],
    )


def crafted_events() -> list[ev.Event]:
    """The log. Indexes matter to the tests: see the comments."""
    return [
        ev.BattleStart("1.0.0", "combined_arms", "Test", "0" * 64, 5),  # 0
        ev.Conceal("r1"),  # 1
        ev.TurnStart(1),  # 2
        ev.Roll("blue", "initiative", 5, 0, 2, "win"),  # 3
        ev.Roll("red", "initiative", 2, 0, 5, "lose"),  # 4
        ev.Initiative(1, "blue"),  # 5
        ev.Activation("b1", "blue", 1),  # 6
        ev.Roll("b1", "to_hit", 2, 0, 4, "success"),  # 7
        ev.Roll("b1", "penetration", 5, 3, 4, "win"),  # 8
        ev.Roll("farm", "armour", 1, 3, 8, "lose"),  # 9: blue hits the farmhouse...
        ev.Attack("b1", "farm", "Gun", "shoot", 3, 8.0, "damage"),  # 10
        ev.Damage("farm", "b1", 1),  # 11
        ev.Activation("r1", "red", 1),  # 12: red acts unseen
        ev.Roll("r1", "terrain", 3, 0, 4, "success"),  # 13: its hidden die
        ev.Move("r1", ((10.0, 16.0), (10.0, 14.5)), 1.5, 270.0, False),  # 14
        ev.Reveal("r1", "spotted", None),  # 15: now blue sees it
        ev.TurnStart(2),  # 16
        ev.Roll("blue", "initiative", 1, 0, 6, "lose"),  # 17
        ev.Roll("red", "initiative", 6, 0, 1, "win"),  # 18
        ev.Initiative(2, "red"),  # 19
        ev.Activation("r1", "red", 2),  # 20
        ev.Roll("r1", "to_hit", 4, 0, 4, "success"),  # 21
        ev.Roll("r1", "penetration", 2, 2, 6, "lose"),  # 22
        ev.Roll("b1", "armour", 4, 2, 4, "win"),  # 23
        ev.Attack("r1", "b1", "Rifle", "shoot", 2, 11.0, "no_damage"),  # 24
        ev.Suppress("b1", "r1", 3),  # 25: blue is down to Skill 3
        ev.Activation("b1", "blue", 2),  # 26
        ev.Roll("b1", "to_hit", 3, 0, 3, "success"),  # 27
        ev.Roll("b1", "penetration", 1, 3, 5, "lose"),  # 28
        ev.Roll("r1", "armour", 3, 2, 4, "win"),  # 29
        ev.Attack("b1", "r1", "Gun", "shoot", 3, 11.0, "no_damage"),  # 30
        ev.Suppress("r1", "b1", 3),  # 31
        ev.Score("blue", 1, "objective:corner", 1),  # 32
        ev.End("turn_limit", 2, "blue"),  # 33
    ]


def crafted_battle(owner) -> Battle:
    """The crafted battle stored as a finished battle of ``owner``."""
    data = crafted_scenario()
    events = crafted_events()
    result = BattleResult.from_state(replay(parse_scenario(data), events))
    log = canonical_json(log_to_dict(events))
    battle = Battle.objects.create(
        name="Crafted",
        created_by=owner,
        ruleset="combined_arms",
        scenario=data,
        seed=5,
        engine_version="1.0.0",
        status=Battle.Status.DONE,
        turn_limit=3,
        progress_turn=2,
        result=result.to_dict(),
    )
    BattleLog.objects.create(
        battle=battle,
        events=log,
        sha256=hashlib.sha256(log.encode()).hexdigest(),
        event_count=len(events),
    )
    return battle
