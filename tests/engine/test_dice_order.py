"""The order dice are rolled in, as docs/scenario.md's "Writing a rule test" tabulates it.

A rule test fixes the dice (``Dice.fixed``) and the decisions (``ScriptedCommander``); the faces
are handed out in the order the engine asks for them, so each row of the table is pinned here,
through the public API alone.
"""

from __future__ import annotations

import re
from pathlib import Path

from battles.engine import (
    CLOSE_COMBAT,
    Activate,
    AttackStep,
    Dice,
    MoveStep,
    RevealStep,
    ScriptedCommander,
    run_battle,
)

from .helpers import building, piece, scenario, square, unit


def fight(sc, faces, blue=(), red=()):
    return run_battle(
        sc,
        dice=Dice.fixed(faces),
        commanders={"blue": ScriptedCommander(blue), "red": ScriptedCommander(red)},
    )


def rolls(record, skip_initiative=True):
    """(who, purpose, value) of every die, the turns' initiative dice left out by default."""
    return [
        (e.who, e.purpose, e.value)
        for e in record.events
        if e.KIND == "roll" and not (skip_initiative and e.purpose == "initiative")
    ]


def test_initiative_the_scenarios_first_side_rolls_first_and_a_tie_rolls_both_again():
    sc = scenario([unit("a", (2, 2))], [unit("b", (20, 20))], turn_limit=2)
    rec = fight(sc, [3, 3, 2, 5, 6, 1])
    assert rolls(rec, skip_initiative=False) == [
        ("blue", "initiative", 3),
        ("red", "initiative", 3),  # a tie: both roll again
        ("blue", "initiative", 2),
        ("red", "initiative", 5),  # red goes first in turn 1
        ("blue", "initiative", 6),
        ("red", "initiative", 1),  # every turn, before anyone activates
    ]
    kinds = [e.KIND for e in rec.events]
    start = kinds.index("turn_start")
    assert kinds[start : start + 7] == [
        "turn_start",
        "roll",
        "roll",
        "roll",
        "roll",
        "initiative",
        "activation",
    ]
    assert [e.first for e in rec.events if e.KIND == "initiative"] == ["red", "blue"]
    # The side listed first in the scenario rolls first, whatever it is called.
    sc["sides"].reverse()
    rec = fight(sc, [2, 5, 6, 1])
    assert rolls(rec, skip_initiative=False)[:2] == [
        ("red", "initiative", 2),
        ("blue", "initiative", 5),
    ]


def test_a_shot_or_melee_rolls_to_hit_then_the_attackers_die_then_the_defenders():
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), hits=3)], turn_limit=1)
    shoot = [Activate("a", (AttackStep("b", "Gun"),))]
    assert rolls(fight(sc, [6, 1, 2, 5, 3], shoot)) == [
        ("a", "to_hit", 2),
        ("a", "penetration", 5),
        ("b", "armour", 3),
    ]
    assert rolls(fight(sc, [6, 1, 6], shoot)) == [("a", "to_hit", 6)]  # a miss rolls no more
    sc = scenario([unit("a", (2, 2), melee=4)], [unit("b", (3, 2), hits=3)], turn_limit=1)
    melee = [Activate("a", (AttackStep("b", CLOSE_COMBAT),))]
    assert rolls(fight(sc, [6, 1, 2, 5, 3], melee)) == [
        ("a", "to_hit", 2),
        ("a", "penetration", 5),
        ("b", "armour", 3),
    ]


def test_a_ram_rolls_the_rammers_pair_then_the_blow_backs_pair():
    # No Skill roll; all four dice are rolled even when the first pair removes the target.
    sc = scenario([unit("a", (2, 2), size=3)], [unit("b", (3, 2), hits=1)], turn_limit=1)
    ram = [Activate("a", (AttackStep("b", CLOSE_COMBAT),))]
    rec = fight(sc, [6, 1, 6, 1, 2, 5], ram)
    assert rolls(rec) == [
        ("a", "penetration", 6),
        ("b", "armour", 1),
        ("b", "penetration", 2),
        ("a", "armour", 5),
    ]
    assert rec.final_unit("b").removed == "destroyed"


def test_an_attack_on_a_building_rolls_two_dice_then_its_occupants_roll_in_scenario_order():
    # Buildings do not dodge and never strike back: a shot, Charges or a ram rolls the
    # attacker's die and the building's. At its fall each occupant rolls Skill, in the order
    # the scenario lists the units (the first side's, then the second's), fliers over it none.
    house = building("h", square(10, 0, 14, 4), hits=1)
    sc = scenario(
        [unit("a", (4, 2)), unit("x", (11, 1)), unit("f", (13, 3), keywords=["aerial"])],
        [unit("r2", (12, 2)), unit("r1", (13, 1)), unit("far", (22, 22))],
        buildings=[house],
        turn_limit=1,
    )
    shoot = [Activate("a", (AttackStep("h", "Gun"),))]
    rec = fight(sc, [6, 1, 6, 1, 1, 6, 2], shoot)
    assert rolls(rec) == [
        ("a", "penetration", 6),
        ("h", "armour", 1),
        ("x", "collapse", 1),
        ("r2", "collapse", 6),  # fails: takes 1 Hit, and no die for it
        ("r1", "collapse", 2),
    ]
    assert rec.final_unit("r2").hits == 1
    sc = scenario(
        [unit("a", (9, 2), size=3)], [unit("far", (22, 22))], buildings=[house], turn_limit=1
    )
    ram = [Activate("a", (AttackStep("h", CLOSE_COMBAT),))]
    assert rolls(fight(sc, [6, 1, 1, 6], ram)) == [("a", "penetration", 1), ("h", "armour", 6)]


def test_a_move_rolls_for_each_hazard_and_breach_in_the_order_its_path_reaches_them():
    # The river listed first lies furthest along the path: the path's order is the order.
    pieces = [
        piece("far", "river", square(10, 0, 11, 6)),
        piece("near", "river", square(3, 0, 4, 6)),
    ]
    house = building("h", square(6, 0, 8, 6))  # admits Size 1-2: a Size 3 Breaching unit
    sc = scenario(
        [unit("a", (1, 2), move=16, size=3, hits=3, keywords=["breaching"])],
        [unit("b", (22, 22))],
        terrain=pieces,
        buildings=[house],
        turn_limit=1,
    )
    go = [Activate("a", (MoveStep(((15, 2),)),))]
    rec = fight(sc, [6, 1, 1, 1, 6], go)
    assert rolls(rec) == [("a", "terrain", 1), ("a", "breaching", 1), ("a", "terrain", 6)]
    assert rec.final_unit("a").position == (9.99, 2)  # stopped at the far river's edge
    # A failed terrain roll ends the move: no die for what lies beyond.
    rec = fight(sc, [6, 1, 6], go)
    assert rolls(rec) == [("a", "terrain", 6)] and rec.final_unit("a").position == (2.99, 2)
    # A failed Breaching roll costs a Hit, and the unit goes on, rolling for what comes next.
    rec = fight(sc, [6, 1, 1, 6, 1], go)
    assert rolls(rec) == [("a", "terrain", 1), ("a", "breaching", 6), ("a", "terrain", 1)]
    assert (rec.final_unit("a").position, rec.final_unit("a").hits) == ((15, 2), 2)


def test_an_activation_rolls_its_steps_dice_in_the_order_of_its_steps():
    # Split Movement: move (through a river), fire, move (through another).
    sc = scenario(
        [unit("a", (1, 2), move=10, keywords=["split_movement"])],
        [unit("b", (8, 8), hits=3)],
        terrain=[
            piece("r1", "river", square(2, 0, 3, 4)),
            piece("r2", "river", square(5, 0, 6, 4)),
        ],
        turn_limit=1,
    )
    steps = (MoveStep(((4, 2),)), AttackStep("b", "Gun"), MoveStep(((7, 2),)))
    rec = fight(sc, [6, 1, 1, 2, 5, 3, 4], [Activate("a", steps)])
    assert rolls(rec) == [
        ("a", "terrain", 1),
        ("a", "to_hit", 2),
        ("a", "penetration", 5),
        ("b", "armour", 3),
        ("a", "terrain", 4),
    ]


def test_damage_suppression_removal_reveals_and_scores_roll_no_dice():
    # A hit that fails to damage suppresses; at Skill 1 (Combined Arms) the unit is removed and
    # scored: three dice in all. A Sensor reveal rolls none.
    sc = scenario(
        [unit("a", (2, 2))], [unit("b", (8, 2), skill=2), unit("c", (22, 22))], turn_limit=1
    )
    rec = fight(sc, [6, 1, 1, 1, 6], [Activate("a", (AttackStep("b", "Gun"),))])
    assert rolls(rec) == [("a", "to_hit", 1), ("a", "penetration", 1), ("b", "armour", 6)]
    kinds = [e.KIND for e in rec.events]
    last_die = max(i for i, kind in enumerate(kinds) if kind == "roll")
    assert kinds[last_die + 1 : last_die + 5] == ["attack", "suppress", "remove", "score"]
    sc = scenario(
        [unit("s", (2, 2), keywords=["sensor"])],
        [unit("b", (6, 2), enters=["woods"]), unit("c", (22, 22))],
        terrain=[piece("w", "woods", square(5, 1, 7, 3))],
        ruleset="one_year_war",
        turn_limit=1,
    )
    rec = fight(sc, [6, 1], [Activate("s", (RevealStep("b"),))])
    assert rolls(rec) == [] and any(e.KIND == "reveal" and e.unit == "b" for e in rec.events)


def test_the_example_in_docs_scenario_md_runs():
    doc = (Path(__file__).parents[2] / "docs" / "scenario.md").read_text()
    section = doc[doc.index("## Writing a rule test") :]
    example = re.search(r"```python\n(.*?)```", section, re.S)
    assert example is not None
    exec(compile(example.group(1), "docs/scenario.md", "exec"), {})
