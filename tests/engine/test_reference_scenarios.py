"""The reference scenarios: loadable by name, valid, with terrain that matters and an objective,
and fought to the end by the default commander on both sides."""

from __future__ import annotations

import pytest

from battles.engine import ScenarioError, run_battle
from battles.engine.cli import main, simulate
from battles.engine.scenario import OrderKind, Quality
from battles.engine.scenarios import (
    REFERENCE_NAMES,
    bundled_names,
    load_reference,
    reference_names,
    reference_path,
    resolve,
)

NAMES = reference_names()


def test_the_five_reference_scenarios_are_named_and_bundled():
    assert NAMES == ("factory-hold", "mech-duel", "river-crossing", "chopper-raid", "big-battle")
    assert set(NAMES) <= set(bundled_names())
    assert {"crossroads", "landing"} <= set(bundled_names())


@pytest.mark.parametrize("name", REFERENCE_NAMES)
def test_each_reference_scenario_loads_validates_and_runs(name):
    scenario = load_reference(name)
    record = run_battle(scenario, seed=1)
    assert record.result.turns >= 1 and record.events[-1].KIND == "end"


@pytest.mark.parametrize("name", REFERENCE_NAMES)
def test_each_reference_scenario_has_an_objective_and_terrain_that_matters(name):
    scenario = load_reference(name)
    assert scenario.objectives
    pieces = [t.props for t in scenario.terrain] + [b.card.rubble for b in scenario.buildings]
    assert any(p.blocks_sight for p in pieces) or scenario.buildings
    assert any(p.blocks_movement or p.hazard for p in pieces)


def test_the_scenarios_say_what_the_issue_asks_of_them():
    factory = load_reference("factory-hold")
    cards = [u.card.name for u in factory.units()]
    assert cards.count("Rifle Squad") == 4 and cards.count("Medium Tank") == 2
    assert factory.turn_limit == 10 and any(b.card.name == "Factory" for b in factory.buildings)
    take = [o for o in factory.objectives if o.sides == ("armour",)]
    assert take and take[0].points_at_end > 0  # the tanks need to take it

    duel = load_reference("mech-duel")
    assert any(t.kind == "rubble" for t in duel.terrain)
    assert {u.card.name for u in duel.units()} <= {"Mech", "Expendable Mech"}

    river = load_reference("river-crossing")
    assert river.ruleset.name == "one_year_war"
    assert any(t.props.water and t.props.blocks_movement for t in river.terrain)
    assert any("amphibious" in {k.value for k in u.card.keywords} for u in river.units())

    raid = load_reference("chopper-raid")
    assert any(o.kind.value == "raze" for o in raid.objectives)
    fliers = [u for u in raid.units() if "aerial" in {k.value for k in u.card.keywords}]
    assert fliers and any(w.aa for u in raid.units() for w in u.card.weapons)

    big = load_reference("big-battle")
    assert [len(s.units) for s in big.sides] == [20, 20]
    kinds = {t.kind for t in big.terrain}
    assert {"woods", "rubble", "wall", "river"} <= kinds and len(big.buildings) >= 4


def test_the_reference_scenarios_use_every_order_and_quality_rule():
    units = [u for name in NAMES for u in load_reference(name).units()]
    assert {u.order.kind for u in units if u.order.given} == set(OrderKind)
    unordered = [u for u in units if not u.order.given]
    assert {u.quality for u in unordered} >= {Quality.RAW, Quality.GREEN}


def test_an_unknown_name_is_a_scenario_error_naming_the_choices():
    with pytest.raises(ScenarioError, match="factory-hold"):
        load_reference("nowhere")
    with pytest.raises(ScenarioError):
        reference_path("../loader")


def test_simulate_accepts_a_name_or_a_file():
    by_name = simulate("factory-hold", 3)
    by_file = simulate(str(reference_path("factory-hold")), 3)
    assert by_name == by_file and by_name.startswith("Factory Hold")
    assert resolve("mech-duel").name == "Mech Duel"


def test_the_command_line_takes_a_name(capsys):
    assert main(["chopper-raid", "--seed", "2"]) == 0
    assert capsys.readouterr().out.startswith("Chopper Raid")
    assert main(["no-such-battle", "--seed", "2"]) == 2
    assert "no bundled scenario" in capsys.readouterr().err
