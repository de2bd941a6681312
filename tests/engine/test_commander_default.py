"""DefaultCommander: crafted situations, one decision each, the choice the rule text expects.

Every situation is built on fixed dice and asks the commander for one activation; where the
decision leads to a roll, the dice are fixed too. No luck is involved in any assertion.
"""

from __future__ import annotations

import math

from battles.engine import (
    CLOSE_COMBAT,
    Activate,
    AttackStep,
    DefaultCommander,
    MoveStep,
    RevealStep,
    SimpleCommander,
    parse_scenario,
)
from battles.engine.commander import BattleView
from battles.engine.commanders.odds import harm
from battles.engine.events import TurnStart
from battles.engine.rulesets import COMBINED_ARMS
from battles.engine.tables import card_shots

from .helpers import act, battle, building, piece, scenario, square, unit

RIFLES = [{"name": "Rifles", "power": 2, "range": 12}]
CANNON = [{"name": "Cannon", "power": 5, "range": 18}]


def squad(uid, pos, **kw):
    kw = {"skill": 3, "move": 5, "resistance": 1, "hits": 1, "size": 1, "weapons": RIFLES} | kw
    return unit(uid, pos, **kw)


def mech(uid, pos, **kw):
    kw = {"skill": 4, "move": 4, "resistance": 5, "hits": 2, "size": 4, "weapons": CANNON} | kw
    return unit(uid, pos, **kw)


def tank(uid, pos, **kw):
    gun = [{"name": "Main Gun", "power": 4, "range": 18}]
    kw = {"skill": 4, "move": 6, "resistance": 3, "hits": 1, "size": 3, "weapons": gun} | kw
    return unit(uid, pos, **kw)


def decide(sc, side="blue", b=None):
    """One decision of a fresh DefaultCommander for ``side``."""
    b = b or battle(sc)
    return DefaultCommander().choose(BattleView(b, side))


# --- focus fire ---------------------------------------------------------------------------------


def test_default_shoots_the_target_it_can_hurt_rather_than_the_armour_it_cannot():
    sc = scenario([squad("rifles", (2, 2))], [mech("mech", (6, 2)), squad("squad", (10, 2))])
    assert SimpleCommander().choose(BattleView(battle(sc), "blue")).steps == (
        AttackStep("mech", "Rifles"),
    )
    assert decide(sc).steps == (AttackStep("squad", "Rifles"),)


def test_default_finishes_off_a_damaged_target():
    sc = scenario([mech("a", (2, 2))], [mech("fresh", (8, 2)), mech("hurt", (12, 2))])
    b = battle(sc)
    b.state.units["hurt"].hits = 1
    assert decide(sc, b=b).steps == (AttackStep("hurt", "Cannon"),)


def test_default_prefers_the_bigger_target_at_equal_odds():
    small = {"size": 1}
    big = {"size": 4}
    sc = scenario(
        [mech("a", (2, 2))], [tank("small", (8, 2), **small), tank("big", (12, 2), **big)]
    )
    assert decide(sc).steps == (AttackStep("big", "Cannon"),)


def test_rifles_do_not_give_themselves_away_on_armour_they_cannot_suppress():
    """A squad hidden in a wood does not fire on a mech it damages once in two dozen attacks
    and cannot suppress, which would shoot it dead the moment it is revealed; it would fire on
    a squad, and on a one-Hit tank it damages (and so removes) once in seven."""
    wood = piece("wood", "woods", square(0, 0, 4, 4))
    hidden = squad("rifles", (2, 2), enters=["woods"])
    b = battle(scenario([hidden], [mech("mech", (12, 2))], terrain=[wood]))
    assert b.state.units["rifles"].concealed
    assert decide(None, b=b).steps == ()
    b = battle(scenario([hidden], [squad("squad", (12, 2))], terrain=[wood]))
    assert decide(None, b=b).steps == (AttackStep("squad", "Rifles"),)
    b = battle(scenario([hidden], [tank("tank", (12, 2))], terrain=[wood]))
    assert decide(None, b=b).steps == (AttackStep("tank", "Rifles"),)


def test_the_odds_are_the_exact_probabilities():
    """Rifles (Power 2, Skill 3) on a mech (Resistance 5): 1/2 to hit, 3/36 to penetrate."""
    rifle = parse_scenario(scenario([squad("r", (1, 1))], [mech("m", (2, 2))])).units()
    (shot,) = [
        s
        for s in card_shots(rifle[0].card, 3, rifle[1].card, COMBINED_ARMS)
        if s.weapon == "Rifles"
    ]
    assert math.isclose(shot.damage, 1 / 24) and shot.suppress == 0.0
    assert math.isclose(harm(shot.damage, 0.0, 2, 4, 1), 0.5 * (1 / 24) / 2)


# --- armour and threat --------------------------------------------------------------------------


def test_armour_backs_out_of_range_of_a_weapon_that_kills_it_when_it_cannot_hurt_back():
    car = unit("car", (10, 8), order="advance", move=8, resistance=2, hits=1, size=2,
               weapons=[{"name": "Gun", "power": 3, "range": 6}])  # fmt: skip
    car["order"]["objective"] = "yard"
    objs = [{"id": "yard", "point": [10, 5], "radius": 6, "sides": ["blue"], "points_at_end": 1}]
    gun = [{"name": "Long Gun", "power": 6, "range": 18}]
    sc = scenario([car], [unit("gun", (10, 20), weapons=gun)], objectives=objs)
    (step,) = decide(sc).steps
    assert isinstance(step, MoveStep)
    assert math.dist(step.to[-1], (10, 20)) > 18


def test_a_unit_prefers_to_end_its_move_out_of_sight_of_what_can_hurt_it():
    """Two ways forward: into the open under a gun, or into a wood. It takes the wood."""
    wood = piece("wood", "woods", square(6, 4, 9, 7))
    walker = squad("walker", (6.5, 2), order="advance", enters=["woods"], move=5)
    walker["order"]["objective"] = "hill"
    objs = [{"id": "hill", "point": [7.5, 12], "radius": 2, "sides": ["blue"], "points_at_end": 1}]
    sc = scenario([walker], [mech("mech", (20, 6))], terrain=[wood], objectives=objs, turn_limit=8)
    (step,) = decide(sc).steps
    assert isinstance(step, MoveStep)
    x, y = step.to[-1]
    assert 6 < x < 9 and 4 < y < 7  # inside the wood


# --- orders and quality -------------------------------------------------------------------------

CORNER = [{"id": "corner", "point": [20, 20], "radius": 2, "sides": ["blue"], "points_at_end": 3}]


def _no_order(quality):
    u = squad("a", (2, 2))
    del u["order"]
    if quality is not None:
        u["quality"] = quality
    return scenario([u], [squad("b", (23, 2))], objectives=CORNER)


def test_raw_and_green_units_without_an_order_hold_in_place():
    assert decide(_no_order("raw")).steps == ()
    assert decide(_no_order("green")).steps == ()


def test_better_units_without_an_order_use_their_judgement_and_make_for_the_objective():
    for quality in (None, "inexperienced", "average", "elite"):
        (step,) = decide(_no_order(quality)).steps
        assert isinstance(step, MoveStep)
        assert math.dist(step.to[-1], (20, 20)) < math.dist((2, 2), (20, 20))


def test_an_advance_unit_moves_toward_its_objective():
    u = squad("a", (2, 2), order="advance")
    u["order"]["objective"] = "corner"
    (step,) = decide(scenario([u], [squad("b", (23, 2))], objectives=CORNER)).steps
    assert isinstance(step, MoveStep)
    assert math.dist(step.to[-1], (20, 20)) < math.dist((2, 2), (20, 20)) - 4.5


def test_a_hold_unit_stays_put_and_fires():
    sc = scenario([squad("a", (2, 2), order="hold")], [squad("b", (10, 2))], objectives=CORNER)
    assert decide(sc).steps == (AttackStep("b", "Rifles"),)
    far = scenario([squad("a", (2, 2), order="hold")], [squad("b", (23, 2))], objectives=CORNER)
    assert decide(far).steps == ()


def test_an_attack_unit_closes_on_what_it_can_hurt():
    sc = scenario([mech("a", (2, 2), order="attack")], [mech("b", (23, 23))], objectives=CORNER)
    (step,) = decide(sc).steps
    assert isinstance(step, MoveStep)
    assert math.dist(step.to[-1], (23, 23)) < math.dist((2, 2), (23, 23))


def test_a_fixed_mount_on_attack_in_range_without_a_line_goes_where_it_has_one():
    """In range of the tank it can hurt, with a house in the way and nothing else to shoot, a
    Fixed Mount team on Attack walks round the house and fires, rather than stand all battle.
    Nothing can reach the team, so no die decides whether it fires."""
    from battles.engine import run_battle

    hmg = [{"name": "Heavy Machine Gun", "power": 3, "range": 18}]
    team = squad("team", (20, 20), order="attack", move=3, weapons=hmg, keywords=["fixed_mount"])
    target = tank("tank", (10, 10), weapons=[{"name": "Main Gun", "power": 4, "range": 4}])
    house = building("house", square(15, 15, 18, 18), admits=None)
    lookout = squad("lookout", (0.5, 0.5))  # sees the tank, out of its own rifles' range
    sc = scenario([team, lookout], [target], buildings=[house], turn_limit=4)
    b = battle(sc)
    view = BattleView(b, "blue")
    assert math.dist((20, 20), (10, 10)) < 18 and not view.line_clear((20, 20), (10, 10))
    events = run_battle(sc, seed=1).events
    assert any(e.KIND == "attack" and e.attacker == "team" for e in events)


def test_infantry_on_attack_in_range_without_a_line_goes_where_it_has_one():
    """The same for a unit that may move: infantry on Attack, in range of the tank it can hurt
    with a house in the way and nothing else to shoot, walks round the house and fires, rather
    than stand all battle where it cannot see its target."""
    from battles.engine import run_battle

    hmg = [{"name": "Heavy Machine Gun", "power": 3, "range": 18}]
    team = squad("team", (20, 20), order="attack", move=3, weapons=hmg)
    target = tank("tank", (10, 10), weapons=[{"name": "Main Gun", "power": 4, "range": 4}])
    house = building("house", square(15, 15, 18, 18), admits=None)
    lookout = squad("lookout", (0.5, 0.5))  # sees the tank, out of its own rifles' range
    sc = scenario([team, lookout], [target], buildings=[house], turn_limit=4)
    view = BattleView(battle(sc), "blue")
    assert math.dist((20, 20), (10, 10)) < 18 and not view.line_clear((20, 20), (10, 10))
    (step,) = decide(sc).steps
    assert isinstance(step, MoveStep) and step.to
    events = run_battle(sc, seed=1).events
    assert any(e.KIND == "attack" and e.attacker == "team" for e in events)


def test_a_screen_unit_stands_in_front_of_its_objective():
    u = squad("a", (12, 22), order="screen", move=5)
    u["order"]["objective"] = "post"
    objs = [{"id": "post", "point": [12, 14], "radius": 3, "sides": ["blue"], "points_at_end": 2}]
    sc = scenario([u], [squad("b", (12, 1))], objectives=objs, turn_limit=6)
    (step,) = decide(sc).steps
    end = step.to[-1]
    assert end[1] < 22 and math.dist(end, (12, 14)) < math.dist((12, 22), (12, 14))


def test_the_turn_limit_presses_an_advance_for_end_points():
    """Far from ground scored only at the end, with just the turns needed left: it goes."""
    u = squad("a", (2, 2), order="advance", move=5)
    u["order"]["objective"] = "corner"
    wood = piece("wood", "woods", square(0, 0, 3, 3))
    u["card"]["enters"] = ["woods"]
    sc = scenario([u], [mech("m", (2, 14))], objectives=CORNER, terrain=[wood], turn_limit=5)
    (step,) = decide(sc).steps
    assert isinstance(step, MoveStep)


# --- keywords -----------------------------------------------------------------------------------


def test_a_fixed_mount_turns_to_face_instead_of_firing_out_of_arc():
    gunner = tank("gun", (10, 10), facing=0, keywords=["fixed_mount"], order="hold")
    sc = scenario([gunner], [squad("b", (10, 2))], objectives=CORNER)
    (step,) = decide(sc).steps
    assert isinstance(step, MoveStep) and step.to == ()
    assert math.isclose(step.facing, 270.0, abs_tol=0.01)


def test_a_sensor_reveals_a_concealed_enemy_that_a_friend_then_shoots():
    wood = piece("w", "woods", square(7, 0, 9, 4))
    sc = scenario(
        [
            unit("eyes", (2, 2), keywords=["sensor"], order="hold"),
            unit("gun", (2, 3), order="hold"),
        ],
        [unit("hidden", (8, 2), enters=["woods"])],
        terrain=[wood],
        ruleset="one_year_war",
        objectives=CORNER,
    )
    b = battle(sc, [6] * 4)
    assert b.state.units["hidden"].concealed
    commander = DefaultCommander()
    first = commander.choose(BattleView(b, "blue"))
    assert first == first.__class__("eyes", (RevealStep("hidden"),))
    b.perform("blue", first)
    second = commander.choose(BattleView(b, "blue"))
    assert second.unit == "gun" and second.steps == (AttackStep("hidden", "Gun"),)


def test_charges_go_on_the_building_the_side_must_raze():
    charges = {"name": "Charges", "power": 4, "range": 1, "buildings_only": True, "uses": 2}
    sappers = squad("sappers", (4.5, 2), order="advance", keywords=["demolition"],
                    weapons=[*RIFLES, charges])  # fmt: skip
    sappers["order"]["objective"] = "raze"
    objs = [{"id": "raze", "kind": "raze", "building": "depot", "sides": ["blue"],
             "points_at_end": 6}]  # fmt: skip
    sc = scenario(
        [sappers],
        [squad("b", (23, 23))],
        buildings=[building("depot", square(5, 0, 8, 4), admits=None)],
        objectives=objs,
    )
    assert decide(sc).steps == (AttackStep("depot", "Charges"),)


def test_a_building_is_worth_the_enemy_on_the_wall_it_shares_with_another():
    # On the wall two houses share, the enemy is inside both (E34) and rolls when either falls:
    # bringing down either house is worth the same, and neither is worth anything once it stands
    # outside them.
    from battles.engine.commanders.board import Board
    from battles.engine.commanders.values import building_worth

    houses = [
        building("h1", square(8, 0, 12, 4), hits=1),
        building("h2", square(12, 0, 16, 4), hits=1),
    ]
    worths = []
    for at in [(12, 2), (12, 6)]:
        b = battle(scenario([unit("a", (20, 2))], [unit("wall", at)], buildings=houses))
        b.state.units["wall"].concealed = False
        board = Board(BattleView(b, "blue"))
        board.sync(BattleView(b, "blue"))
        worths.append([building_worth(board, h) for h in board.buildings])
    on_wall, outside = worths
    assert on_wall[0] == on_wall[1] > 0
    assert outside == [0.0, 0.0]


def test_breaching_takes_a_mech_into_a_building_when_what_is_inside_pays_for_the_risk():
    bld = building("house", square(10, 0, 14, 4), admits=(1, 2))
    big = mech("mech", (7, 2), order="attack", keywords=["breaching"], melee=6, skill=5)
    inside = [squad(f"squad-{i}", (11 + i, 2)) for i in range(3)]
    sc = scenario([big], inside, buildings=[bld], objectives=CORNER)
    b = battle(sc)
    for s in inside:
        b.state.units[s["id"]].concealed = False  # they fired: seen inside
    (step,) = decide(None, b=b).steps
    assert isinstance(step, MoveStep)
    assert 10 < step.to[-1][0] < 14  # inside the house, with the squad


def test_move_and_fire_moves_into_range_then_fires():
    jeep = unit("jeep", (2, 2), keywords=["move_and_fire"], order="attack", move=8,
                weapons=[{"name": "HMG", "power": 3, "range": 6}])  # fmt: skip
    sc = scenario([jeep], [squad("b", (14, 2))], objectives=CORNER)
    steps = decide(sc).steps
    assert [type(s) for s in steps] == [MoveStep, AttackStep]
    assert steps[1] == AttackStep("b", "HMG")


def test_close_combat_is_weighed_like_any_weapon():
    """At 1", Melee 6 beats a Power 5 gun against a mech."""
    sc = scenario([mech("a", (2, 2), melee=6)], [mech("b", (2.8, 2))])
    assert decide(sc).steps == (AttackStep("b", CLOSE_COMBAT),)


# --- activation order ---------------------------------------------------------------------------


def test_a_unit_that_can_shoot_now_activates_before_one_that_would_move():
    sc = scenario(
        [squad("walker", (2, 20), order="attack"), squad("shooter", (2, 2), order="hold")],
        [squad("b", (10, 2))],
        objectives=CORNER,
    )
    assert decide(sc).unit == "shooter"


def test_a_holding_unit_with_nothing_to_do_waits_for_the_enemy_to_come():
    sc = scenario(
        [squad("holder", (2, 2), order="hold"), squad("walker", (2, 4), order="advance")],
        [squad("b", (23, 23))],
        objectives=CORNER,
    )
    assert decide(sc).unit == "walker"


def test_a_hidden_unit_keeps_out_of_sight_until_what_could_kill_it_has_activated():
    """A squad in a wood could fire on a tank (a one-Hit tank is worth it) that has yet to
    activate and would shoot it dead once it shows itself: it goes last, behind a squad with
    nothing to do. Once the tank has acted, it fires first."""
    wood = piece("wood", "woods", square(0, 0, 4, 4))
    hidden = squad("rifles", (2, 2), order="hold", enters=["woods"])
    idle = squad("idle", (2, 22), order="hold")
    b = battle(scenario([hidden, idle], [tank("tank", (12, 2))], terrain=[wood]))
    assert b.state.units["rifles"].concealed
    assert decide(None, b=b).unit == "idle"
    act(b, "tank")  # it stands and passes
    assert decide(None, b=b) == Activate("rifles", (AttackStep("tank", "Rifles"),))


# --- what it may know ---------------------------------------------------------------------------


def test_the_default_commander_never_sees_a_concealed_enemy():
    wood = piece("wood", "woods", square(7, 0, 9, 4))
    sc = scenario([squad("a", (2, 2))], [squad("hidden", (8, 2), enters=["woods"])], terrain=[wood])
    b = battle(sc)
    assert b.state.units["hidden"].concealed
    seen: list[str] = []

    class Spy:
        def __init__(self):
            self.plays = DefaultCommander()

        def choose(self, view):
            seen.extend(e.id for e in view.enemies())
            return self.plays.choose(view)

    action = Spy().choose(BattleView(b, "blue"))
    assert seen == [] and all(getattr(s, "target", None) != "hidden" for s in action.steps)


def test_default_commander_battles_are_deterministic_and_legal():
    import random

    from battles.engine import run_battle

    from .randomized import random_scenario

    for seed in range(25):
        sc = random_scenario(random.Random(seed))
        first = run_battle(sc, seed=seed).log_json()  # default commanders on both sides
        assert first == run_battle(sc, seed=seed).log_json()


def test_the_reveal_by_firing_is_what_lets_the_enemy_answer():
    """After a hidden squad fires, the enemy sees it; the commander knows this cost."""
    wood = piece("wood", "woods", square(0, 0, 4, 4))
    b = battle(scenario([squad("r", (2, 2), enters=["woods"])], [squad("s", (12, 2))],
                        terrain=[wood]), [1, 6, 1])  # fmt: skip
    act(b, "r", AttackStep("s", "Rifles"))
    b.emit(TurnStart(2))
    assert [e.id for e in BattleView(b, "red").enemies()] == ["r"]


def test_the_default_commander_is_deterministic_across_processes_and_hash_seeds():
    """Same scenario and seed, other interpreters with other hash seeds, cards made and freed
    in between: the same log."""
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import hashlib, random\n"
        "from battles.engine import run_battle\n"
        "from battles.engine.scenarios import load_reference\n"
        "from tests.engine.randomized import random_scenario\n"
        "for i in range(HASH):\n"
        "    run_battle(random_scenario(random.Random(i)), seed=i)\n"
        "log = run_battle(load_reference('river-crossing'), seed=4).log_json()\n"
        "print(hashlib.sha256(log.encode()).hexdigest())\n"
    )
    root = Path(__file__).resolve().parents[2]
    digests = set()
    for hash_seed in ("0", "7"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", script.replace("HASH", str(3 * int(hash_seed)))],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(out.stdout.strip())
    from battles.engine import run_battle
    from battles.engine.scenarios import load_reference

    here = run_battle(load_reference("river-crossing"), seed=4).log_json()
    digests.add(hashlib.sha256(here.encode()).hexdigest())
    assert len(digests) == 1
