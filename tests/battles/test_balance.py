"""The sample library reproduces the rule text's BALANCE claims, exactly and by dice."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from battles.balance import (
    CLAIMS,
    Duel,
    Metric,
    Row,
    Trace,
    around,
    at_least,
    balance_table,
    duel_option,
    duel_scenario,
    exactly,
    expected_value,
    play_duel,
    play_engine_duel,
    render_table,
    traced_value,
)
from battles.engine.cards import CHARGES, BuildingCard, Keyword, UnitCard
from battles.engine.dice import Dice
from battles.engine.events import AttackKind, Removal
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


def test_a_duel_is_fought_out_to_its_weapons_range_and_refused_beyond_it(library):
    at_range = Duel("combined_arms", "medium_tank", "mech", "Main Gun", distance=18.0)
    assert duel_option(at_range, library).weapon == "Main Gun"
    with pytest.raises(ValueError) as refused:
        duel_option(replace(at_range, distance=18.5), library)
    assert str(refused.value) == "Main Gun does not reach 18.5 inches"
    with pytest.raises(ValueError) as refused:
        duel_option(Duel("combined_arms", "rifle_squad", "mech", None, distance=100), library)
    assert str(refused.value) == "Rifle Squad has nothing that reaches Mech"


def test_an_engine_duel_stops_at_its_most_attacks(library):
    rifles, mech = (
        library.unit("combined_arms", "rifle_squad"),
        library.unit("combined_arms", "mech"),
    )
    scenario = duel_scenario(COMBINED_ARMS, rifles, mech, 6.0)
    rng = random.Random(1).random
    dice = Dice(lambda: int(rng() * 6) + 1)
    traces = [play_engine_duel(scenario, dice, "Rifles", max_attacks=n) for n in (1, 3)]
    assert [(t.attacks, t.removed) for t in traces] == [(1, None), (3, None)]


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


class _Faces:
    """Dice that show the faces given, in order, to code that rolls ``int(random() * 6) + 1``."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def random(self) -> float:
        return (self.faces.pop(0) - 1) / 6 + 0.01


def test_a_duel_misses_above_the_skill_and_damages_only_when_power_beats_resistance():
    # Skill 4 hits on a 4, and 6 + 4 against 1 + 4 damages; a 5 misses; 3 + 4 against 3 + 4
    # suppresses, and so does 2 + 4 against 2 + 4: Skill 3 less 2 is demoralised at 1.
    faces = _Faces(4, 6, 1, 5, 2, 3, 3, 1, 2, 2)
    assert play_duel(faces, power=4, resistance=4, attacker_skill=4, hits=2, skill=3,
                     demoralise_at=1) == Trace(4, 1, 2, Removal.DEMORALISED)  # fmt: skip
    assert not faces.faces
    # No Skill roll (a ram): a tie suppresses, the second damage of 2 Hits destroys.
    faces = _Faces(1, 2, 3, 1, 2, 2)
    assert play_duel(faces, power=5, resistance=4, attacker_skill=None, hits=2, skill=4,
                     demoralise_at=1) == Trace(3, 2, 1, Removal.DESTROYED)  # fmt: skip
    # Power below resistance: a tie neither damages nor suppresses, to the last attack.
    faces = _Faces(6, 3, 1, 1)
    assert play_duel(faces, power=2, resistance=5, attacker_skill=None, hits=1, skill=4,
                     demoralise_at=1, max_attacks=2) == Trace(2, 0, 0, None)  # fmt: skip


def test_rolled_measures_count_only_the_duels_that_show_them():
    destroyed = Trace(attacks=1, damage=1, suppressions=0, removed=Removal.DESTROYED)
    broke = Trace(attacks=4, damage=0, suppressions=2, removed=Removal.DEMORALISED)
    standing = Trace(attacks=3, damage=0, suppressions=0, removed=None)
    traces = [destroyed, broke]
    assert traced_value(Metric.ATTACKS_TO_REMOVE, traces) == 2.5
    assert traced_value(Metric.ATTACKS_TO_REMOVE, [*traces, standing]) is None
    assert traced_value(Metric.ATTACKS_PER_DAMAGE, traces) == 5
    assert traced_value(Metric.ATTACKS_PER_DAMAGE, [broke, standing]) is None
    assert traced_value(Metric.SUPPRESSION_CHANCE, traces) == 2 / 5
    assert traced_value(Metric.REMOVED_BY_ONE_ATTACK, [*traces, standing]) == 1 / 3
    assert traced_value(Metric.SUPPRESSIONS_TO_DEMORALISE, [*traces, standing]) == 2
    assert traced_value(Metric.DAMAGE_TO_DESTROY, [*traces, standing]) == 1
    assert traced_value(Metric.DAMAGE_TO_DESTROY, [broke]) is None
    with pytest.raises(ValueError, match="printed, not rolled"):
        traced_value(Metric.PRINTED_MOVE, traces)


def test_a_tolerance_holds_at_its_edges_and_reads_as_the_table_states_it():
    assert around(10, 2).text == "10 ± 2" and around(2, 0.5).text == "2 ± 0.5"
    assert [around(10, 2).holds(v) for v in (Fraction(799, 100), 8, 12, 12.01)] == [
        False, True, True, False,
    ]  # fmt: skip
    assert exactly(1).text == "exactly 1" and exactly(1).holds(1) and not exactly(1).holds(1.001)
    assert at_least(0.6).text == "≥ 0.6" and at_least(0.6).holds(Fraction(3, 5))
    assert not at_least(0.6).holds(0.59) and not at_least(0.6).holds(None)


def test_the_table_says_each_value_as_exact_printed_never_or_not_run_and_its_verdict():
    claims = {c.key: c for c in CLAIMS}
    rows = [
        Row(claims["tank_vs_mech"], Fraction(54, 5), 10.9, None, engine_ran=False),
        Row(claims["chopper_fast"], Fraction(8), None, None),
        Row(claims["mech_vs_squad"], None, None, 0.7),
        Row(claims["tank_vs_mech"], Fraction(54, 5), 12.5, 10.0),
    ]
    head, rule, *body = render_table(rows).split("\n")
    assert head.split() == ["claim", "measure", "expected", "simulated", "engine", "tolerance",
                            "verdict"]  # fmt: skip
    assert set(rule.replace(" ", "")) == {"-"}
    assert [line.split("  ")[0] for line in body] == [r.claim.text for r in rows]
    cells = [[cell.strip() for cell in line.split("  ") if cell.strip()][2:] for line in body]
    assert cells == [
        ["10.800 (54/5)", "10.900", "not run", "10 ± 2", "holds"],
        ["8", "printed", "printed", "exactly 8", "holds"],
        ["never", "—", "0.700", "≥ 0.6", "FAILS"],
        ["10.800 (54/5)", "12.500", "10.000", "10 ± 2", "FAILS"],
    ]
    assert len({line.index("holds" if "holds" in line else "FAILS") for line in body}) == 1


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
