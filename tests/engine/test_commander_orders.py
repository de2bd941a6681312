"""Standing Orders and quality in the scenario format: what the commander is told per unit."""

from __future__ import annotations

import pytest

from battles.engine import ScenarioError, parse_scenario
from battles.engine.commander import BattleView
from battles.engine.scenario import OrderKind, Quality

from .helpers import battle, scenario, unit


def _one(**extra):
    u = unit("a", (2, 2))
    u.update(extra)
    return u


def test_quality_is_optional_and_defaults_to_average():
    sc = parse_scenario(scenario([_one()], [unit("b", (20, 20))]))
    assert sc.units()[0].quality is Quality.AVERAGE


@pytest.mark.parametrize("quality", [q.value for q in Quality])
def test_every_step_of_the_quality_ladder_is_accepted(quality):
    sc = parse_scenario(scenario([_one(quality=quality)], [unit("b", (20, 20))]))
    assert sc.units()[0].quality.value == quality


def test_the_quality_ladder_runs_raw_to_legendary():
    assert [q.step for q in Quality] == list(range(7))
    assert Quality.RAW.step < Quality.GREEN.step < Quality.AVERAGE.step < Quality.LEGENDARY.step


def test_an_unknown_quality_is_refused():
    with pytest.raises(ScenarioError, match=r"units\[0\]\.quality: must be one of"):
        parse_scenario(scenario([_one(quality="veteran")], [unit("b", (20, 20))]))


def test_a_unit_without_an_order_is_recorded_as_hold_not_given():
    u = unit("a", (2, 2))
    del u["order"]
    order = parse_scenario(scenario([u], [unit("b", (20, 20))])).units()[0].order
    assert order.kind is OrderKind.HOLD and not order.given


def test_a_written_order_is_given():
    order = parse_scenario(scenario([_one()], [unit("b", (20, 20))])).units()[0].order
    assert order.kind is OrderKind.HOLD and order.given


def test_the_view_tells_a_side_its_own_units_quality_and_never_the_enemys():
    elite = unit("b", (20, 20))
    elite["quality"] = "elite"
    b = battle(scenario([_one(quality="raw")], [elite]))
    view = BattleView(b, "blue")
    assert view.own_units()[0].quality is Quality.RAW
    red = BattleView(b, "red")
    assert red.own_units()[0].quality is Quality.ELITE
    assert [e.quality for e in red.enemies()] == [Quality.AVERAGE]
