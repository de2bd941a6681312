"""The engine's caches answer exactly as the rules would, and a collapse clears what it changes.

Sight, passages and path checks are kept per position (or path) until the terrain changes, and
the only event that changes terrain is a building's collapse. Attack searches work each target
out once rather than once per weapon; they must agree with ``attack_problem`` pair by pair.
"""

from __future__ import annotations

import random

from battles.engine import BattleView, Dice, SimpleCommander, parse_scenario, run_battle, tables
from battles.engine.battle import Battle
from battles.engine.events import Collapse
from battles.engine.movement import _entries, path_problem, plan_path
from battles.engine.scenarios import load_reference
from battles.engine.sight import Sight
from battles.engine.state import BattleState
from battles.engine.targeting import CLOSE_COMBAT, attack_problem, building_aim, legal_attacks

from .helpers import battle, building, piece, scenario, square, unit
from .randomized import random_scenario

# A house between two units, falling into rubble that blocks nothing.
HOUSE = building("h", square(10, 8, 14, 12), admits=(1, 1), rubble={"kind": "open"})


def _fall(b, building_id: str) -> None:
    b.emit(Collapse(building_id, ()))


def test_a_collapse_clears_what_sight_remembered():
    b = battle(scenario([unit("a", (12, 2))], [unit("b", (12, 20))], buildings=[HOUSE]))
    inside = (12.0, 10.0)
    assert not b.sight.line_clear((12, 2), (12, 20))
    assert b.sight.pieces_at(inside) == {"h"} and b.sight.building_at(inside) == "h"
    _fall(b, "h")
    assert b.sight.line_clear((12, 2), (12, 20))
    assert b.sight.pieces_at(inside) == frozenset() and b.sight.building_at(inside) is None


def test_a_collapse_opens_the_way_the_building_barred():
    b = battle(scenario([unit("a", (12, 2), size=3)], [unit("b", (2, 22))], buildings=[HOUSE]))
    a = b.state.units["a"]
    straight = [(12.0, 2.0), (12.0, 14.0)]
    assert "crosses terrain" in path_problem(b, a, straight, 20)[0]
    around = plan_path(b, a, (12, 14), 20)
    assert around is not None and len(around) > 2  # round a corner of the house
    _fall(b, "h")
    assert path_problem(b, a, straight, 20) == (None, 12.0)
    assert plan_path(b, a, (12, 14), 20) == straight


def test_a_line_of_sight_is_the_same_whichever_end_is_asked_first():
    sc = parse_scenario(
        scenario(
            [unit("a", (2, 2))],
            [unit("b", (20, 20))],
            buildings=[building("h", [[5, 5], [9, 6], [8, 10], [4, 9]])],
        )
    )
    rng = random.Random(5)
    for _ in range(300):
        p = (round(rng.uniform(0, 14), 3), round(rng.uniform(0, 14), 3))
        q = (round(rng.uniform(0, 14), 3), round(rng.uniform(0, 14), 3))
        forward, backward = Sight(BattleState.initial(sc)), Sight(BattleState.initial(sc))
        assert forward.line_clear(p, q) == backward.line_clear(q, p) == forward.line_clear(q, p)


class _Checking:
    """Plays like SimpleCommander, first checking every ready unit's attack search."""

    checked = 0

    def __init__(self):
        self.plays = SimpleCommander()

    def choose(self, view):
        b = view._b
        ids = [*b.state.units, *b.state.buildings]
        for info in view.ready_units():
            u = b.state.units[info.id]
            names = [w.name for w in u.card.weapons] + [CLOSE_COMBAT]
            for origin, facing in ((None, None), ((12.0, 12.0), 90.0), ((0.5, 23.0), 300.0)):
                one_by_one = [
                    (t, w)
                    for t in ids
                    for w in names
                    if attack_problem(b, u, t, w, origin, facing) is None
                ]
                assert legal_attacks(b, u, ids, origin, facing) == one_by_one
                _Checking.checked += 1
        return self.plays.choose(view)


def test_the_attack_search_agrees_with_attack_problem_for_every_target_and_weapon():
    for seed in range(60):
        sc = parse_scenario(random_scenario(random.Random(seed)))
        run_battle(sc, seed, commanders={s.id: _Checking() for s in sc.sides})
    assert _Checking.checked > 1000


def test_a_view_hands_out_copies_of_what_it_remembers():
    b = battle(scenario([unit("a", (2, 2)), unit("c", (4, 2))], [unit("b", (2, 10))]))
    view = BattleView(b, "blue")
    first = view.own_units()
    first.clear()
    assert [u.id for u in view.own_units()] == ["a", "c"]
    enemies = view.enemies()
    enemies.append(enemies[0])
    assert [u.id for u in view.enemies()] == ["b"]


def test_sight_over_the_opening_table_is_the_scenario_s_and_a_collapse_gives_a_battle_its_own():
    sc = parse_scenario(scenario([unit("a", (12, 2))], [unit("b", (12, 20))], buildings=[HOUSE]))
    first, second = Sight(BattleState.initial(sc)), Sight(BattleState.initial(sc))
    line = ((12.0, 2.0), (12.0, 20.0))
    assert not first.line_clear(*line)
    assert sc.tables.opening_sight_lines == {line: False}
    assert second.pieces_at((12.0, 10.0)) == {"h"}
    assert sc.tables.opening_pieces_at[(12.0, 10.0)] == {"h"}
    state = BattleState.initial(sc)
    fallen = Sight(state)
    state.apply(Collapse("h", ()))
    assert fallen.line_clear(*line)
    assert not second.line_clear(*line)
    assert sc.tables.opening_sight_lines == {line: False}


def test_sight_keeps_at_most_so_many_answers_and_answers_alike_past_them(monkeypatch):
    monkeypatch.setattr(tables, "OPENING_KEPT", 3)
    data = scenario([unit("a", (12, 2))], [unit("b", (12, 20))], buildings=[HOUSE])
    sc = parse_scenario(data)
    kept = Sight(BattleState.initial(sc))
    rng = random.Random(3)
    for _ in range(40):
        p = (round(rng.uniform(0, 24), 3), round(rng.uniform(0, 24), 3))
        q = (round(rng.uniform(0, 24), 3), round(rng.uniform(0, 24), 3))
        fresh = Sight(BattleState.initial(parse_scenario(data)))
        assert kept.line_clear(p, q) == fresh.line_clear(p, q)
        assert kept.pieces_at(p) == fresh.pieces_at(p)
        assert kept.building_at(q) == fresh.building_at(q)
        assert len(sc.tables.opening_sight_lines) <= 3
        assert len(sc.tables.opening_pieces_at) <= 3
        assert len(sc.tables.opening_building_at) <= 3


def test_a_move_s_rolls_over_the_opening_table_are_the_scenario_s_and_a_collapse_ends_that():
    ground = piece("g", "hazard", square(10, 0, 14, 4))
    sc = parse_scenario(
        scenario([unit("a", (8, 2))], [unit("b", (12, 20))], terrain=[ground], buildings=[HOUSE])
    )
    first, second = Battle(sc, Dice.fixed(()), {}), Battle(sc, Dice.fixed(()), {})
    path = [(8.0, 2.0), (16.0, 2.0)]
    rolls = _entries(first, first.state.units["a"], path)
    assert [(at, kind) for at, kind, _ in rolls] == [(2.0, "hazard")]
    assert sc.tables.opening_entries == {(sc.tables.card_no["a"], tuple(path)): rolls}
    assert _entries(second, second.state.units["a"], path) is rolls  # every battle's alike
    _fall(first, "h")
    back = _entries(first, first.state.units["a"], path[::-1])
    assert [(at, kind) for at, kind, _ in back] == [(2.0, "hazard")]
    assert len(sc.tables.opening_entries) == 1  # the battle's own table since the fall


def test_aims_at_a_building_over_the_opening_table_are_the_scenario_s_and_a_collapse_ends_that():
    sc = parse_scenario(scenario([unit("a", (12, 2))], [unit("b", (12, 20))], buildings=[HOUSE]))
    first, second = Battle(sc, Dice.fixed(()), {}), Battle(sc, Dice.fixed(()), {})
    a, house = first.state.units["a"], first.state.buildings["h"]
    assert building_aim(first, a, house, (12.0, 2.0), 24.0) == (12.0, 8.0)  # the nearest wall
    kept = {("h", (12.0, 2.0), 24.0, None, False): (12.0, 8.0)}
    assert sc.tables.opening_aims == kept
    assert second.aims is sc.tables.opening_aims  # every battle of the scenario shares them
    _fall(first, "h")
    assert building_aim(first, a, house, (12.0, 3.0), 24.0) == (12.0, 8.0)
    assert first.aims == {("h", (12.0, 3.0), 24.0, None, False): (12.0, 8.0)}
    assert sc.tables.opening_aims == kept  # the battle's own table since the fall


def test_the_units_each_side_has_left_and_its_ready_units_follow_every_event():
    """The turn loop reads how many units each side has left, kept as units are removed, and a
    turn's start makes that many ready: both always agree with the units themselves."""
    rec = run_battle(load_reference("big-battle"), 0)
    state = BattleState.initial(rec.scenario)
    for e in rec.events:
        state.apply(e)
        units = {s: state.units_in_battle(s) for s in state.left}
        assert state.left == {s: len(found) for s, found in units.items()}
        if e.KIND == "turn_start":
            assert state.ready == state.left
    assert any(e.KIND == "remove" for e in rec.events)
