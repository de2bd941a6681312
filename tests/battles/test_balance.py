"""The sample library reproduces the rule text's BALANCE claims, exactly and by dice."""

from __future__ import annotations

import random
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from battles.balance import (
    CLAIMS,
    Metric,
    balance_table,
    duel_option,
    expected_value,
    play_duel,
    render_table,
)
from battles.engine.cards import CHARGES, BuildingCard, Keyword, UnitCard
from battles.engine.events import AttackKind
from battles.engine.loader import parse_scenario
from battles.engine.rulesets import COMBINED_ARMS, ONE_YEAR_WAR
from battles.engine.terrain import TerrainProps, kind_defaults
from battles.library import LIBRARY_DIR, load_library
from units.cardfile import split_specialty_line
from units.cardtext import parse_card, render_card, validate_card

SAMPLES = 600
"""Duels per claim in these tests: enough to sit well inside every tolerance, quick to roll."""


@pytest.fixture(scope="module")
def library():
    return load_library()


@pytest.fixture(scope="module")
def rows(library):
    return {r.claim.key: r for r in balance_table(samples=SAMPLES, seed=7, library=library)}


# --- the library -------------------------------------------------------------------------------


def test_it_parses_every_card_file_and_each_is_written_canonically():
    paths = sorted(LIBRARY_DIR.rglob("*.card"))
    assert len(paths) >= 20
    for path in paths:
        text, _ = split_specialty_line(path.read_text(encoding="utf-8"))
        assert render_card(parse_card(text)) == text.strip(), path.name


def test_it_holds_the_units_the_issue_asks_for(library):
    combined = library.units["combined_arms"]
    for key in ("rifle_squad", "heavy_weapons_team", "medium_tank", "mech", "expendable_mech",
                "attack_chopper", "recon_vehicle"):  # fmt: skip
        assert isinstance(combined[key], UnitCard), key
    for key in ("house", "factory", "bunker"):
        assert isinstance(library.buildings[key], BuildingCard), key
        assert library.buildings[key].rubble.kind == "rubble"
    one_year_war = library.units["one_year_war"].values()
    assert any(c.has(Keyword.SENSOR) for c in one_year_war)
    assert any(c.has(Keyword.AMPHIBIOUS) for c in one_year_war)
    assert sum(c.has(Keyword.AERIAL) for c in one_year_war) >= 3  # two fighters and the carrier


def test_card_dicts_load_into_the_engines_cards(library):
    engineers = library.unit("combined_arms", "assault_engineers")
    assert engineers.has(Keyword.DEMOLITION)
    assert engineers.weapon("Charges") == CHARGES
    missile = library.unit("combined_arms", "heavy_weapons_team").weapon("Missile Launcher")
    assert (missile.power, missile.min_size, missile.max_size, missile.uses) == (6, 2, 5, 2)
    assert library.unit("combined_arms", "recon_vehicle").weapon("Heavy Machine Gun").aa
    assert library.buildings["bunker"].admits_size(1)
    assert not library.buildings["bunker"].admits_size(2)


def test_engine_cards_render_back_to_their_card_text(library):
    # Keywords in the rule text's order, Demolition with its Charges line: the same card.
    for ruleset, cards in library.units.items():
        for key, unit_card in cards.items():
            data = unit_card.to_dict()
            validate_card(data)
            assert render_card(data) == render_card(library.cards[ruleset][key]), key
            assert UnitCard.from_dict(data, ruleset) == unit_card, key


def test_nothing_is_faster_than_move_8(library):
    moves = [c.move for cards in library.units.values() for c in cards.values()]
    assert max(moves) == 8


def test_printed_skill_sits_at_an_average_units_three_or_four(library):
    skills = [c.skill for cards in library.units.values() for c in cards.values()]
    assert sum(s in (3, 4) for s in skills) >= len(skills) - 1  # the expendable mech is the 2


def test_the_terrain_pieces_load_as_scenario_terrain(library):
    assert set(library.terrain) == {"woods", "rubble field", "wall", "river", "lake"}
    pieces = []
    for i, (name, piece) in enumerate(library.terrain.items()):
        assert piece["why"], name
        props = {k: v for k, v in piece.items() if k != "why"}
        x = 1.0 + 4.0 * i
        pieces.append({"id": f"t{i}", **props, "polygon": [[x, 1], [x + 3, 1], [x + 3, 4], [x, 4]]})
    scenario = parse_scenario(
        {
            "ruleset": "one_year_war",
            "turn_limit": 1,
            "terrain": pieces,
            "sides": [
                {"id": "a", "units": [{"id": "u", "card": _dict(library, "federation_tank"),
                                       "position": [12, 12]}]},
                {"id": "b", "units": [{"id": "v", "card": _dict(library, "federation_tank"),
                                       "position": [12, 20]}]},
            ],
            "objectives": [{"id": "o", "sides": ["a"], "point": [12, 12], "points_at_end": 1}],
        }
    )  # fmt: skip
    kinds = {t.kind: t.props for t in scenario.terrain}
    assert kinds["wall"].wall and kinds["wall"].hazard
    assert kinds["water"].water and kinds["water"].blocks_movement
    assert kinds["river"].water and not kinds["river"].blocks_movement


def test_the_library_terrain_agrees_with_the_engines_kind_defaults(library):
    # A scenario may name a kind and get its defaults: they must be what terrain.json says
    # (a river is water, ruling E25 in docs/rules.md; a rubble field is the kind rubble).
    for name, piece in library.terrain.items():
        flags = {k: v for k, v in piece.items() if k not in ("kind", "why")}
        assert kind_defaults(piece["kind"]) == TerrainProps(piece["kind"], **flags), name
    assert kind_defaults("rubble field") == kind_defaults("rubble")


def test_building_cards_load_as_their_card_text_writes_them(library):
    # "Becomes: rubble field" reaches the engine as the string, not as terrain flags.
    cards = library.cards["combined_arms"]
    houses = [
        {"id": key, "card": cards[key], "polygon": [[x, 20], [x + 2, 20], [x + 2, 22], [x, 22]]}
        for x, key in ((1, "house"), (5, "factory"), (9, "bunker"))
    ]
    assert {h["card"]["rubble"] for h in houses} == {"rubble field"}
    squad = cards["rifle_squad"]
    scenario = parse_scenario(
        {
            "ruleset": "combined_arms",
            "turn_limit": 1,
            "buildings": houses,
            "sides": [
                {"id": "a", "units": [{"id": "u", "card": squad, "position": [2, 2]}]},
                {"id": "b", "units": [{"id": "v", "card": squad, "position": [9, 9]}]},
            ],
            "objectives": [{"id": "o", "sides": ["a"], "point": [12, 12], "points_at_end": 1}],
        }
    )
    for b in scenario.buildings:
        assert b.card == library.buildings[b.id], b.id


def _dict(library, key: str) -> dict:
    return library.cards["one_year_war"][key]


def test_the_readme_answers_for_every_card():
    readme = (LIBRARY_DIR / "README.md").read_text(encoding="utf-8")
    for path in LIBRARY_DIR.rglob("*.card"):
        name = parse_card(split_specialty_line(path.read_text(encoding="utf-8"))[0])["name"]
        assert f"### {name}" in readme, name


# --- the claims, exactly -----------------------------------------------------------------------


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.key)
def test_every_claim_holds_exactly(claim, library):
    assert claim.tolerance.holds(expected_value(claim, library))


def test_the_exact_values_are_these(library):
    exact = {c.key: expected_value(c, library) for c in CLAIMS}
    assert exact == {
        "tank_vs_mech": Fraction(54, 5),
        "mech_vs_tank": Fraction(439, 216),
        "rifles_vs_mech": 24,
        "rifles_suppress_mech": 0,
        "mech_vs_squad": Fraction(35, 54),
        "mech_vs_mech": Fraction(1873, 384),
        "chopper_fast": 8,
        "chopper_hits_hard": Fraction(439, 216),
        "chopper_fragile": 1,
        "expendable_breaks": 1,
    }


def test_a_mech_kills_a_squad_best_with_its_melee_at_close_range(library):
    claim = next(c for c in CLAIMS if c.key == "mech_vs_squad")
    assert duel_option(claim.duel, library).kind is AttackKind.MELEE


def test_the_expendable_mech_breaks_at_once_only_under_combined_arms(library):
    expendable = library.unit("combined_arms", "expendable_mech")
    assert expendable.skill - 1 == COMBINED_ARMS.demoralise_at_skill
    assert expendable.skill - 1 > ONE_YEAR_WAR.demoralise_at_skill


# --- the claims, by dice -----------------------------------------------------------------------


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.key)
def test_every_claim_holds_when_rolled_and_through_the_engine(claim, rows):
    row = rows[claim.key]
    assert row.holds, render_table([row])
    if claim.metric is not Metric.PRINTED_MOVE:
        assert row.simulated is not None and row.engine is not None


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.key)
def test_rolled_values_stay_near_the_exact_ones(claim, rows):
    row = rows[claim.key]
    if claim.metric is Metric.PRINTED_MOVE:
        return
    exact = float(row.expected)
    # Far tighter than any tolerance would be luck; far looser would be a rules mismatch.
    slack = max(0.12 * exact, 0.05)
    assert abs(row.simulated - exact) <= slack
    assert abs(row.engine - exact) <= slack


def test_the_same_seed_rolls_the_same_duel():
    def roll(seed):
        rng = random.Random(seed)
        return [play_duel(rng, power=5, resistance=5, attacker_skill=4, hits=2, skill=4,
                          demoralise_at=1) for _ in range(20)]  # fmt: skip

    assert roll(3) == roll(3)
    assert roll(3) != roll(4)


# --- the command -------------------------------------------------------------------------------


def test_the_command_prints_the_table_side_by_side():
    out = StringIO()
    call_command("balance", "--samples", "100", "--seed", "2", stdout=out)
    text = out.getvalue()
    assert "expected" in text and "simulated" in text and "engine" in text
    for claim in CLAIMS:
        assert claim.text in text
    assert "All 10 claims hold" in text


def test_the_command_refuses_no_samples():
    with pytest.raises(CommandError, match="at least 1"):
        call_command("balance", "--samples", "0", stdout=StringIO())
