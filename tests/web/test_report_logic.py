"""The report's pure parts: log structure and filters, fog of war, luck, replay frames, charts."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction as F

import pytest

from battles.charts import score_histogram
from battles.engine import load_scenario, parse_scenario, run_battle
from battles.fog import hidden_events
from battles.frames import replay_frames
from battles.luck import SideLuck, at_least, attack_odds, luck_table
from battles.names import scenario_names
from battles.odds_report import odds_report
from battles.report import (
    entry_count,
    filter_turns,
    log_entries,
    log_turns,
    unit_sides,
)
from battles.report_context import luck_verdict
from battles.selectors import reference_scenarios
from battles.table import table_view
from battles.tally import OddsSummary
from tests.web.conftest import SCENARIOS
from tests.web.crafted import crafted_events, crafted_scenario


@pytest.fixture(scope="module")
def crafted():
    return parse_scenario(crafted_scenario()), crafted_events()


def _indexes(turns) -> list[int]:
    """Every event index the structure shows, dice included."""
    found = []
    for t in turns:
        for entry in (*t.opening, *(x for a in t.activations for x in a.entries), *t.closing):
            found.append(entry.index)
            found.extend(d.index for d in entry.dice)
    return sorted(found)


@pytest.mark.parametrize("reference", reference_scenarios(), ids=lambda s: s.slug)
def test_every_reference_scenario_is_drawn_reported_and_replayed(reference):
    scenario = parse_scenario(reference.data)
    assert len(table_view(scenario).units) == len(scenario.units())
    for seed in (1, 7):
        events = run_battle(scenario, seed).events
        turns = log_turns(events, scenario)
        assert _indexes(turns) == list(range(len(events)))  # every event shown exactly once
        assert entry_count(turns) == len(events)
        activations = sum(1 for e in events if e.KIND == "activation")
        assert len(replay_frames(scenario, events)["frames"]) == activations + 2
        assert len(luck_table(scenario, events)) == 2


def test_it_attaches_the_dice_to_the_attack_they_decided(crafted):
    scenario, events = crafted
    entries = {e.index: e for e in log_entries(events, scenario_names(scenario))}
    assert [d.index for d in entries[10].dice] == [7, 8, 9]
    assert [d.index for d in entries[24].dice] == [21, 22, 23]
    assert [d.index for d in entries[5].dice] == [3, 4]  # initiative
    assert [d.index for d in entries[14].dice] == [13]  # the terrain roll before the move
    assert entries[24].outcome == "no_damage"


def test_it_groups_the_log_into_turns_and_activations(crafted):
    scenario, events = crafted
    turns = log_turns(events, scenario)
    assert [t.title for t in turns] == ["Deployment", "Turn 1", "Turn 2"]
    assert [a.unit for a in turns[1].activations] == ["b1", "r1"]
    assert [a.unit for a in turns[2].activations] == ["r1", "b1"]
    # Objective points and the end come after the last activation, not inside it.
    assert [x.kind for x in turns[2].closing] == ["score", "end"]
    assert "Blue wins" in turns[2].closing[-1].text


def test_the_unit_filter_keeps_what_concerns_the_unit(crafted):
    scenario, events = crafted
    shown = _indexes(filter_turns(log_turns(events, scenario), unit="farm"))
    assert shown == [7, 8, 9, 10, 11]  # the attack on it with its dice, and its damage


def test_the_kind_filter_keeps_one_kind_and_roll_keeps_everything_with_dice(crafted):
    scenario, events = crafted
    turns = log_turns(events, scenario)
    attacks = filter_turns(turns, kind="attack")
    assert [x.index for t in attacks for a in t.activations for x in a.entries] == [10, 24, 30]
    with_dice = filter_turns(turns, kind="roll")
    rolls = [i for i, e in enumerate(events) if e.KIND == "roll"]
    assert [i for i in _indexes(with_dice) if events[i].KIND == "roll"] == rolls
    both = filter_turns(turns, unit="r1", kind="suppress")
    assert [x.index for t in both for a in t.activations for x in a.entries] == [25, 31]


def test_fog_of_war_hides_a_concealed_enemy_and_its_dice(crafted):
    scenario, events = crafted
    sides = unit_sides(scenario)
    assert hidden_events(events, sides, "blue") == {12, 13, 14}
    assert hidden_events(events, sides, "red") == set()
    assert hidden_events(events, sides, None) == set()
    turns = log_turns(events, scenario, hidden_events(events, sides, "blue"))
    shown = _indexes(turns)
    assert 13 not in shown and 14 not in shown  # the hidden terrain roll and move
    assert {1, 15, 21, 24} <= set(shown)  # going out of sight, being spotted, then firing
    veiled = turns[1].activations[1]
    assert veiled.unit == "" and veiled.entries[0].veiled
    assert "out of sight" in veiled.title and "r1" not in veiled.entries[0].text


def test_fog_of_war_hides_the_concealed_enemy_on_the_map(crafted):
    scenario, events = crafted
    hidden = hidden_events(events, unit_sides(scenario), "blue")
    frames = replay_frames(scenario, events, viewer="blue", hidden=hidden)["frames"]
    assert frames[0]["units"]["r1"][:2] == [None, None]  # deployed in the wood, unseen
    assert frames[2]["title"] == "Turn 1 · Red: a unit out of sight"
    assert frames[2]["paths"] == []  # its hidden move draws nothing
    assert frames[2]["units"]["r1"][:2] == [10.0, 24 - 14.5]  # spotted where it stopped
    full = replay_frames(scenario, events)["frames"]
    assert full[0]["units"]["r1"][:2] == [10.0, 8.0] and full[2]["paths"]


def test_a_unit_that_neither_moves_nor_fires_is_said_to_stay_where_it_is(crafted):
    """An activation with no move and no shot read "Trooper 1 acts." and nothing more, and its
    replay frame named the unit with nothing under it: both now say it stayed and held fire."""
    scenario, events = crafted
    # Blue's second activation (26) without its shot: it does nothing.
    idle = [*events[:27], *events[32:]]
    stays = "Trooper 1 acts: it stays where it is and does not fire."
    turns = log_turns(idle, scenario)
    texts = [[x.text for x in a.entries] for a in turns[2].activations]
    assert texts[1] == [stays]
    assert [a.entries[0].text for a in turns[1].activations] == [
        "Trooper 1 acts.",
        "Trooper 2 acts.",
    ]
    frames = replay_frames(scenario, idle)["frames"]
    assert frames[-2]["title"] == "Turn 2 · Blue: Trooper 1" and frames[-2]["notes"][0] == stays
    assert not any(stays in n for f in frames[:-2] for n in f["notes"])
    # Under fog of war red's move out of sight (14) is hidden; red did move, so it is no halt.
    hidden = hidden_events(idle, unit_sides(scenario), "blue")
    story = [n for f in replay_frames(scenario, idle, viewer="blue", hidden=hidden)["frames"]
             for n in f["notes"]]  # fmt: skip
    assert "Trooper 2 acts: it stays where it is and does not fire." not in story


def test_luck_is_exact_against_the_hand_worked_figures(crafted):
    scenario, events = crafted
    blue, red = luck_table(scenario, events)
    # Blue: the farmhouse (no Skill roll, never suppressed): P(d6+3 > d6+3) = 15/36.
    # Then r1 at Skill 3 (suppressed at event 25): damage 3/6·21/36, suppression 3/6·15/36.
    assert (blue.attacks, blue.damage, blue.suppressions) == (2, 1, 1)
    assert blue.expected_damage == F(15, 36) + F(3, 6) * F(21, 36) == F(17, 24)
    assert blue.expected_suppressions == F(3, 6) * F(15, 36) == F(5, 24)
    assert blue.damage_at_least == 1 - F(7, 12) * F(17, 24) == F(169, 288)
    assert blue.damage_at_most == 1 - F(5, 12) * F(7, 24)
    assert blue.suppressions_at_least == F(5, 24)
    # Red: one Rifle shot, Power 2 against Resistance 2 at Skill 4.
    assert (red.attacks, red.damage, red.suppressions) == (1, 0, 1)
    assert red.expected_damage == F(4, 6) * F(15, 36) == F(5, 18)
    assert red.expected_suppressions == F(4, 6) * F(21, 36) == F(7, 18)
    assert red.damage_at_least == 1 and red.damage_at_most == F(13, 18)
    assert red.suppressions_at_least == F(7, 18)


def _dice(name, damage_chances, dealt, suppress_chances, caused):
    """A side's luck from fixed dice: each attack's chances, and what the dice gave."""
    return SideLuck(
        side=name.lower(),
        name=name,
        attacks=len(damage_chances),
        damage=dealt,
        expected_damage=sum(damage_chances, F(0)),
        suppressions=caused,
        expected_suppressions=sum(suppress_chances, F(0)),
        damage_at_least=at_least(damage_chances, dealt),
        damage_at_most=1 - at_least(damage_chances, dealt + 1),
        suppressions_at_least=at_least(suppress_chances, caused),
        suppressions_at_most=1 - at_least(suppress_chances, caused + 1),
    )


def test_the_luck_summary_judges_damage_and_suppressions_apart():
    """A side whose damage came out high but whose suppressions came out low was said to have
    "had lucky dice", beside a table showing its suppressions below what was expected. Each
    kind of roll is now judged against its own odds, and within chance it says so."""
    # Ten attacks, each 1/2 to damage and 1/4 to suppress: 5 and 2.5 expected.
    hits, holds = [F(1, 2)] * 10, [F(1, 4)] * 10
    # 9 damage has a 1.1% chance; no suppression at all 5.6%.
    mixed = _dice("Blue Battalion", hits, 9, holds, 0)
    assert luck_verdict(mixed) == (
        "Blue Battalion had lucky damage rolls (more damage than expected) but unlucky "
        "suppression rolls (fewer suppressions than expected)."
    )
    # 9 damage and 2 suppressions (a little under 2.5, well within chance).
    assert luck_verdict(_dice("Blue Battalion", hits, 9, holds, 2)) == (
        "Blue Battalion had lucky damage rolls (more damage than expected); its suppressions "
        "came out about as expected."
    )
    assert luck_verdict(_dice("Red Company", hits, 5, holds, 3)) == (
        "Red Company's dice came out about as expected."
    )
    assert luck_verdict(_dice("Red Company", hits, 5, holds, 6)) == (
        "Red Company had lucky suppression rolls (more suppressions than expected); its damage "
        "came out about as expected."
    )
    assert luck_verdict(_dice("Red Company", hits, 1, holds, 0)) == (
        "Red Company had unlucky dice: less damage and fewer suppressions than expected."
    )
    assert luck_verdict(_dice("Red Company", hits, 9, holds, 6)) == (
        "Red Company had lucky dice: more damage and more suppressions than expected."
    )
    # Attacks that could never suppress (a building's walls) say nothing of suppression.
    assert luck_verdict(_dice("Red Company", hits, 9, [F(0)] * 10, 0)) == (
        "Red Company had lucky dice: more damage than expected."
    )
    assert luck_verdict(_dice("Red Company", [], 0, [], 0)) == "Red Company made no attacks."


def test_the_luck_summary_matches_the_crafted_battles_table(crafted):
    scenario, events = crafted
    blue, red = luck_table(scenario, events)
    # Blue: 1 damage of 0.71 expected, 1 suppression of 0.21 (a 21% chance of as many): within
    # chance. Red: no damage of 0.28, 1 suppression of 0.39: within chance too.
    assert blue.suppressions_at_most == 1 and red.suppressions_at_most == 1
    assert [luck_verdict(s) for s in (blue, red)] == [
        f"{blue.name}'s dice came out about as expected.",
        f"{red.name}'s dice came out about as expected.",
    ]


def test_luck_follows_the_attackers_skill_through_the_battle(crafted):
    scenario, events = crafted
    odds = {i: o for i, _, o in attack_odds(scenario, events)}
    assert odds[10].damage == F(5, 12) and odds[10].suppress == 0
    assert odds[30].damage == F(7, 24)  # Skill 3 after the suppression at event 25


def test_luck_agrees_with_the_dice_over_a_real_battle():
    scenario = load_scenario(SCENARIOS / "crossroads.json")
    events = run_battle(scenario, 7).events
    rows = luck_table(scenario, events)
    attacks = [e for e in events if e.KIND == "attack"]
    assert sum(r.attacks for r in rows) == len(attacks)
    assert sum(r.damage for r in rows) == sum(1 for e in attacks if e.outcome == "damage")
    for r in rows:
        assert 0 <= r.damage_at_least <= 1 and 0 <= r.expected_damage <= r.attacks


def test_at_least_is_the_exact_poisson_binomial_tail():
    chances = [F(1, 2), F(7, 18), F(5, 216), F(0), F(1), F(3, 4)]
    for k in range(len(chances) + 2):
        brute = F(0)
        for hits in itertools.product((0, 1), repeat=len(chances)):
            p = F(1)
            for hit, c in zip(hits, chances, strict=True):
                p *= c if hit else 1 - c
            if sum(hits) >= k:
                brute += p
        assert at_least(chances, k) == brute


def test_replay_frames_follow_the_activations_of_a_real_battle():
    scenario = load_scenario(SCENARIOS / "crossroads.json")
    record = run_battle(scenario, 1)
    data = replay_frames(scenario, record.events)
    activations = sum(1 for e in record.events if e.KIND == "activation")
    assert len(data["frames"]) == activations + 2  # deployment, each activation, the end
    assert data["frames"][0]["title"] == "Deployment"
    assert data["frames"][-1]["title"] == "The end"
    assert data["frames"][-1]["scores"] == [s.score for s in record.result.sides]
    attacks = sum(1 for e in record.events if e.KIND == "attack")
    assert sum(len(f["fire"]) for f in data["frames"]) == attacks
    # Rebuilding the deltas reaches the final state of the battle.
    state: dict = {}
    for frame in data["frames"]:
        state.update(frame["units"])
    for unit in record.result.units:
        card = next(u.card for u in scenario.units() if u.id == unit.unit)
        assert state[unit.unit][2] == card.hits - unit.hits_lost
        assert state[unit.unit][4] == {"none": 0, "destroyed": 1, "demoralised": 2}[unit.removed]
    json.dumps(data)  # plain data, ready for json_script


def _captions(data: dict) -> str:
    units = " ".join(u["name"] for u in data["units"].values())
    return units + " ".join(f["title"] + " " + " ".join(f["notes"]) for f in data["frames"])


def test_replay_captions_name_units_by_card_never_by_engine_id():
    """A one-off battle's captions and markers say "Medium Tank 2", not "tank-2"; a card on
    the table once keeps its plain name."""
    scenario = load_scenario(SCENARIOS / "factory-hold.json")
    data = replay_frames(scenario, run_battle(scenario, 3).events)
    text = _captions(data)
    ids = [u.id for u in scenario.units()] + [b.id for b in scenario.buildings]
    # (A one-word id such as "factory" is also a word of the names: only ids with a hyphen.)
    said = [i for i in ids if "-" in i and re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    assert ids and not said
    assert data["units"]["tank-2"]["name"] == "Medium Tank 2"
    assert "Turn 1 · Tank Platoon: Medium Tank 1" in text
    assert data["units"]["tank-2"]["tag"] == "Medium Tank 2"
    names = scenario_names(scenario)
    assert len({names[u.id] for u in scenario.units()}) == len(list(scenario.units()))


def test_replay_captions_name_a_campaign_battles_units_as_the_rosters_do():
    scenario = load_scenario(SCENARIOS / "factory-hold.json")
    given = {u.id: f"Unit {i}" for i, u in enumerate(scenario.units())}
    data = replay_frames(
        scenario, run_battle(scenario, 3).events, names=scenario_names(scenario, given)
    )
    text = _captions(data)
    assert not re.search(r"\b(tank|squad)-\d\b", text)
    assert "Unit 0" in text and "(Tank Platoon)" not in text  # the side is in the title
    assert {u["tag"] for u in data["units"].values()} == set(given.values())


def test_the_table_is_drawn_with_y_flipped_and_units_sized():
    scenario = load_scenario(SCENARIOS / "crossroads.json")
    table = table_view(scenario)
    tank = next(u for u in table.units if u.id == "b-tank")
    assert (tank.x, tank.y, tank.position) == ("14", "22", "14, 2")
    mech = next(u for u in table.units if u.id == "r-mech")
    assert float(mech.r) > float(tank.r)  # Size 4 against Size 3
    assert {p.id for p in table.terrain} == {"wood", "ridge", "brook", "lane-wall"}
    assert table.objectives[0].r == "3" and table.objectives[0].cy == "12"


def test_the_histogram_has_a_bar_per_score_and_side():
    rate = {"rate": 0.5, "low": 0.4, "high": 0.6}
    odds = {"win": rate, "loss": rate, "mean_score": 0.0}
    summary = OddsSummary.from_dict(
        {
            "battles": 10,
            "draw": rate,
            "sides": {
                "blue": {**odds, "scores": {"0": 2, "3": 8}},
                "red": {**odds, "scores": {"1": 10}},
            },
            "units": {},
        }
    )
    chart = score_histogram(summary, [("blue", "Blue", "#00f"), ("red", "Red", "#f00")])
    assert len(chart.bars) == 4 * 2  # scores 0..3, two sides
    tallest = max(chart.bars, key=lambda b: b.height)
    assert tallest.colour == "#f00" and tallest.y == 12  # red's 100% reaches the top
    assert any(b.label == "Blue scored 3 in 8 battles (80.0%)" for b in chart.bars)


def test_objective_ids_sit_clear_of_their_circle_and_of_each_other():
    """Factory Hold's two objectives share one circle over the factory: their ids stack above
    it, clear of the factory's own label; a circle at the table's far edge has its id below."""
    table = table_view(load_scenario(SCENARIOS / "factory-hold.json"))
    floor, take = table.objectives
    assert (floor.cy, floor.r) == (take.cy, take.r) == ("8.5", "3")  # 24 - 15.5
    assert float(floor.label_y) < 8.5 - 3 and float(take.label_y) < float(floor.label_y) - 0.5
    edge = json.loads((SCENARIOS / "crossroads.json").read_text())
    blue = edge["sides"][0]["id"]
    ridge = {"id": "ridge", "kind": "hold", "point": [12, 23], "radius": 2, "sides": [blue]}
    edge["objectives"].append(ridge | {"points_per_turn": 1})
    mark = next(o for o in table_view(parse_scenario(edge)).objectives if o.id == "ridge")
    assert float(mark.label_y) > float(mark.cy) + 2


def _odds_summary(order: list[str]) -> OddsSummary:
    rate = {"rate": 0.5, "low": 0.4, "high": 0.6}
    sides = {
        "blue": {"win": rate, "loss": rate, "mean_score": 1.0, "scores": {"1": 6, "2": 4}},
        "red": {"win": rate, "loss": rate, "mean_score": 2.0, "scores": {"2": 10}},
    }
    return OddsSummary.from_dict(
        {
            "battles": 10,
            "favoured": None,
            "draw": rate,
            "sides": {side: sides[side] for side in order},
            "units": {},
        }
    )


def test_an_odds_side_keeps_its_colour_whatever_order_the_summary_keys_come_in():
    """Red is the scenario's second side: it wears --side-1 (red) on the odds page, its table,
    legend and bars, however a JSON column hands back the summary's keys."""
    scenario = {"sides": [{"id": "red", "name": "Reds"}, {"id": "blue", "name": "Blues"}]}
    for order in (["blue", "red"], ["red", "blue"]):
        odds = odds_report(_odds_summary(order), scenario)
        assert [(s.id, s.colour) for s in odds.sides] == [
            ("red", "var(--side-0)"),
            ("blue", "var(--side-1)"),
        ]
        red_bars = {b.colour for b in odds.histogram.bars if b.label.startswith("Reds")}
        assert red_bars == {"var(--side-0)"}
    given = odds_report(_odds_summary(["blue", "red"]), scenario, {"blue": "#2e7d32"})
    assert {s.id: s.colour for s in given.sides} == {"blue": "#2e7d32", "red": "var(--side-0)"}


def test_the_luck_tables_figures_print_as_the_page_shows_them():
    """A unit's losses "1 of 3"; a difference signed with a real minus and "0.00" when it rounds
    to nothing; a chance to a tenth of a percent, never a misleading 0% or 100%; each of a
    side's columns its own figure."""
    from battles.report_context import _percent, difference_text, lost_of, luck_rows

    assert lost_of(1, 3) == "1 of 3"
    assert difference_text(F(-13, 25)) == "\u22120.52"
    assert difference_text(F(12, 25)) == "+0.48"
    assert difference_text(F(-1, 1000)) == "0.00"
    assert [_percent(p) for p in (F(0), F(1, 2000), F(1, 3), F(1999, 2000), F(1))] == [
        "0.0%",
        "< 0.1%",
        "33.3%",
        "> 99.9%",
        "100.0%",
    ]
    # Ten attacks, each 1/2 to damage and 1/4 to suppress: 9 damage, 1 suppression.
    side = _dice("Blue Battalion", [F(1, 2)] * 10, 9, [F(1, 4)] * 10, 1)
    (row,) = luck_rows([side])
    assert (row.expected_damage, row.damage_difference, row.damage_at_least) == (
        "5.00",
        "+4.00",
        "1.1%",
    )
    assert (
        row.expected_suppressions,
        row.suppression_difference,
        row.suppressions_at_least,
    ) == ("2.50", "\u22121.50", "94.4%")


def test_dice_exactly_as_likely_as_the_line_are_not_called_lucky_or_unlucky():
    """Below a one in five chance of doing as well (or as badly), the dice decided; at one in
    five exactly, they came out about as expected."""
    at_line = F(1, 5)
    for as_well, as_badly in ((at_line, F(1, 2)), (F(1, 2), at_line)):
        side = SideLuck("blue", "Blue", 4, 2, F(2), 0, F(0), as_well, as_badly, F(1), F(1))
        assert luck_verdict(side) == "Blue's dice came out about as expected."


def test_the_log_is_paged_by_whole_turns_and_says_which_it_shows(monkeypatch):
    """With pages of 4 events: the deployment (1) and turn 1 (2) fill the first page, turn 2
    (2) cannot join them; turn 3 (5) is too big for any page and stands alone; a page going back
    from it takes turns 1 and 2 (4 events) but not the deployment besides. A turn that is none
    of the battle's shows the first page."""
    from battles.report import Entry, Turn
    from battles.report_context import _turns_shown, log_page

    monkeypatch.setattr("battles.report_context.LOG_PAGE_EVENTS", 4)
    sizes = {0: 1, 1: 2, 2: 2, 3: 5, 4: 1, 5: 1}
    turns = [
        Turn(n, f"Turn {n}" if n else "Deployment", opening=[Entry(n, "turn", "")] * size)
        for n, size in sizes.items()
    ]

    def paged(first):
        page, earlier, later = log_page(turns, first)
        return [t.number for t in page], earlier, later

    assert paged("") == paged("9") == paged("two") == ([0, 1], None, 2)
    assert paged("2") == ([2], 0, 3)
    assert paged("3") == ([3], 1, 4)
    assert paged("4") == ([4, 5], 3, None)
    assert [_turns_shown(log_page(turns, first)[0], 5) for first in ("", "2", "4")] == [
        "The deployment and turns 1 to 1 of 5",
        "Turn 2 of 5",
        "Turns 4 to 5 of 5",
    ]
    assert _turns_shown(turns[:1], 5) == "The deployment"


def _two_objectives():
    from tests.engine.helpers import building, scenario, square, unit

    return parse_scenario(
        scenario(
            [unit("b1", (4, 4)), unit("b2", (6, 4))],
            [unit("r1", (10, 16))],
            buildings=[building("farm", square(14, 4, 16, 6))],
            objectives=[
                {
                    "id": "crossroads",
                    "point": [12, 12],
                    "radius": 1,
                    "sides": ["blue", "red"],
                    "points_at_end": 2,
                },
                {
                    "id": "raze-farm",
                    "kind": "raze",
                    "building": "farm",
                    "sides": ["red"],
                    "points_at_end": 3,
                },
            ],
        )
    )


def _result(reason, winner, held, gone=(), collapsed=False):
    from battles.engine.events import Removal
    from battles.engine.result import BattleResult, BuildingResult, SideResult, UnitResult

    def row(uid, side, shots, dealt):
        how = Removal.DESTROYED if uid in gone else Removal.NONE
        return UnitResult(uid, side, "Trooper", 2 if uid in gone else 0, 1, how, shots, dealt)

    return BattleResult(
        winner,
        reason,
        3,
        (SideResult("blue", "Blue", 0, ()), SideResult("red", "Red", 5, tuple(held))),
        (row("b1", "blue", 3, 1), row("b2", "blue", 2, 0), row("r1", "red", 4, 2)),
        (BuildingResult("farm", 1, collapsed),),
    )


def test_the_outcome_says_who_was_wiped_out_what_each_objective_came_to_and_who_held_it():
    from battles.report_context import _buildings, _end_reason_text, _objectives, _sides, _units
    from campaign.pages.report import LEFT_WORDS

    scenario = _two_objectives()
    names = scenario_names(scenario)
    won = _result("side_eliminated", "red", ["crossroads", "raze-farm", "old-mill"], {"b1", "b2"})
    assert _end_reason_text(scenario, won, names) == "Blue was wiped out"
    assert _objectives(scenario, won, names) == [
        "Crossroads (Blue and Red to hold): held by Red at the end.",
        "Farm (Red to raze): razed.",
    ]
    blue, red = _sides(scenario, won, names)
    assert (blue.winner, red.winner) == (False, True)
    assert red.objectives_held == ("Crossroads", "Farm (razed)", "Old mill")
    rows = _units(scenario, won, scenario_names(scenario, left=LEFT_WORDS))
    assert [(r.name, r.shots, r.damage_dealt, r.left) for r in rows] == [
        ("Trooper 1", 3, 1, "taken out"),
        ("Trooper 2", 2, 0, "taken out"),
        ("Trooper 3", 4, 2, "still in the field"),
    ]
    assert [b["hits_lost_of"] for b in _buildings(scenario, won, names)] == ["1 of 2"]
    # The farm fell without anyone holding the objective; nobody held the crossroads.
    fallen = _result("turn_limit", None, [], collapsed=True)
    assert _objectives(scenario, fallen, names) == [
        "Crossroads (Blue and Red to hold): held by nobody at the end.",
        "Farm (Red to raze): razed.",
    ]
    standing = _result("turn_limit", None, [])
    assert (
        _objectives(scenario, standing, names)[1]
        == "Farm (Red to raze): still standing at the end."
    )
    # A side gone at the turn limit did not end the battle; both gone at once, both are named;
    # a side eliminated with no side's every unit removed is said as the rules say it.
    late = _result("turn_limit", "red", [], {"b1", "b2"})
    assert _end_reason_text(scenario, late, names) == "the turn limit"
    both = _result("side_eliminated", None, [], {"b1", "b2", "r1"})
    assert _end_reason_text(scenario, both, names) == "Blue and Red were wiped out"
    assert _end_reason_text(scenario, _result("side_eliminated", "red", []), names) == (
        "a side was wiped out"
    )


def test_the_log_filter_keeps_only_this_battles_units_kinds_and_sides():
    from battles.report_context import LogFilter, _viewer_choices, clean_filter, renamed_sides

    scenario = parse_scenario(crafted_scenario())
    kept = clean_filter(scenario, unit="farm", kind="attack", viewer="red")
    assert kept == LogFilter("farm", "attack", "red")
    assert clean_filter(scenario, unit="b9", kind="bogus", viewer="green") == LogFilter()
    assert LogFilter("b1", "", "red").query(turn="3") == "unit=b1&as=red&turn=3"
    assert _viewer_choices(scenario, LogFilter(viewer="red")) == [
        ("", "Everything", "", False),
        ("blue", "As Blue saw it", "as=blue", False),
        ("red", "As Red saw it", "as=red", True),
    ]
    renamed = renamed_sides(scenario, {"blue": "Iron Wolves", "red": ""})
    assert [s.name for s in renamed.sides] == ["Iron Wolves", "Red"]
