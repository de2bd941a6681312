"""Property tests: validation never crashes; random battles keep every invariant."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.engine import (
    ScenarioError,
    parse_scenario,
    parse_scenario_json,
    replay_states,
    run_battle,
)
from battles.engine.cards import Keyword
from battles.engine.geometry import PRECISION

from .randomized import random_scenario

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


def _parse_or_refuse(data):
    try:
        return parse_scenario(data)
    except ScenarioError as exc:
        assert exc.problems and all(isinstance(p, str) and r for p, r in exc.problems)
        return None


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_arbitrary_json_is_refused_with_a_scenario_error_never_a_crash(data):
    _parse_or_refuse(data)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60) | st.binary(max_size=60))
def test_arbitrary_text_is_refused_not_crashed(text):
    with contextlib.suppress(ScenarioError):
        parse_scenario_json(text)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.data())
def test_mutated_scenarios_are_refused_or_fought_without_crashing(seed, data):
    scn = random_scenario(random.Random(seed))
    paths = list(_paths(scn))[1:]
    where = data.draw(st.sampled_from(paths))
    value = data.draw(JSON)
    mutated = copy.deepcopy(scn)
    node = mutated
    for k in where[:-1]:
        node = node[k]
    if data.draw(st.booleans()) and isinstance(node, dict):
        del node[where[-1]]
    else:
        node[where[-1]] = value
    sc = _parse_or_refuse(mutated)
    if sc is not None:
        run_battle(sc, seed=seed)  # the default commander never breaks a rule either


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9))
def test_random_battles_keep_every_invariant(seed):
    rec = run_battle(random_scenario(random.Random(seed)), seed=seed % 1000)
    check_invariants(rec)


def check_invariants(rec) -> None:
    removed: set[str] = set()
    tol = 10.0**-PRECISION
    for e, state in replay_states(rec.scenario, rec.events):
        k = e.KIND
        if k == "activation":
            assert e.unit not in removed, "a removed unit never acts"
        elif k == "move":
            assert e.unit not in removed
            u = state.units[e.unit]
            assert u.moved <= u.card.move + tol, "movement never exceeds Move"
        elif k == "attack" and e.attack != "ram_back":
            assert e.attacker not in removed
            _assert_clear_line(state, e.attacker, e.target, e.distance)
        elif k == "remove":
            removed.add(e.unit)
        for u in state.units.values():
            assert u.hits >= 0 and u.skill >= 0
        if state.turn:
            # A side's ready count is its units in the battle that have not activated.
            for side in (s.id for s in rec.scenario.sides):
                waiting = [u for u in state.units_in_battle(side) if not u.activated]
                assert state.ready.get(side, 0) == len(waiting), (side, e)
        for b in state.buildings.values():
            assert b.hits >= 0
    assert rec.events[-1].KIND == "end"
    json.loads(rec.log_json())


def _assert_clear_line(state, attacker_id: str, target_id: str, distance: float) -> None:
    """No attack through blocking terrain (checked independently of the engine's sight code).

    A building is attacked at some point of its walls about as far as the logged distance: a
    string to its nearest wall, or to a point every fortieth of a wall, must be clear."""
    from battles.engine.geometry import nearest_point

    a = state.units[attacker_id]
    if target_id in state.buildings:
        ring = state.buildings[target_id].polygon.points
        ends = [
            (ax + (bx - ax) * k / 40, ay + (by - ay) * k / 40)
            for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1], strict=True)
            for k in range(40)
        ]
        ends = [nearest_point(state.buildings[target_id].polygon, a.position)] + [
            p for p in ends if math.dist(a.position, p) <= distance + 0.2
        ]
        aerial_t = False
    else:
        t = state.units[target_id]
        ends, aerial_t = [t.position], t.card.has(Keyword.AERIAL)
    if target_id in state.units:
        assert not state.units[target_id].concealed or _one_piece(state, a.position, ends[0]), (
            "a concealed unit is never attacked"
        )
    if a.card.has(Keyword.AERIAL) or aerial_t:
        return
    assert any(_clear(state, a.position, tp) for tp in ends), (attacker_id, target_id)


def _blockers(state) -> list:
    return [t.polygon for t in state.terrain if t.props.blocks_sight] + [
        b.polygon for b in state.buildings.values() if not b.collapsed
    ]


def _one_piece(state, p, q) -> bool:
    return any(poly.contains_strictly(p) and poly.contains_strictly(q) for poly in _blockers(state))


def _clear(state, p, tp) -> bool:
    blockers = _blockers(state)
    holding_a = {i for i, poly in enumerate(blockers) if poly.contains_strictly(p)}
    holding_t = {i for i, poly in enumerate(blockers) if poly.contains_strictly(tp)}
    if holding_a & holding_t:
        return True  # same rubble field or building
    return not any(
        poly.crossed_by(p, tp)
        for i, poly in enumerate(blockers)
        if i not in holding_a and i not in holding_t
    )


def test_invariants_hold_for_the_example_battles():
    from pathlib import Path

    from battles.engine import load_scenario

    root = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"
    for path in sorted(root.glob("*.json")):
        for seed in range(10):
            check_invariants(run_battle(load_scenario(path), seed=seed))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.data())
def test_a_misbehaving_commander_gets_illegal_action_errors_never_a_crash(seed, data):
    from battles.engine import (
        CLOSE_COMBAT,
        Activate,
        AttackStep,
        IllegalActionError,
        MoveStep,
        RevealStep,
    )

    scn = random_scenario(random.Random(seed))
    ids = [u["id"] for s in scn["sides"] for u in s["units"]] + ["ghost", 3, None]
    ids += [b["id"] for b in scn["buildings"]]
    coords = st.floats(-5, 30) | st.just(float("nan")) | st.integers(0, 24)
    point = st.tuples(coords, coords) | st.lists(coords, max_size=3) | st.just("x")
    step = st.one_of(
        st.builds(
            MoveStep,
            st.lists(point, max_size=3).map(tuple) | st.just(5),
            st.none() | st.floats(-720, 720) | st.just(float("inf")),
        ),
        st.builds(
            AttackStep,
            st.sampled_from(ids),
            st.sampled_from(["W0", "W1", "Charges", CLOSE_COMBAT, "nope", None]),
        ),
        st.builds(RevealStep, st.sampled_from(ids)),
        st.just("pass"),
    )

    class Chaos:
        def choose(self, view):
            ready = [u.id for u in view.ready_units()]
            unit = data.draw(st.sampled_from(ready + ids))
            steps = data.draw(st.lists(step, max_size=3).map(tuple))
            return Activate(unit, steps)

    try:
        rec = run_battle(scn, seed=seed, commanders={"blue": Chaos()})
    except IllegalActionError:
        return
    check_invariants(rec)
