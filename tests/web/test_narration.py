"""The battle told in the campaign's words: every piece by one readable name, places in words,
no coordinates, no engine ids, a unit's side only where its name leaves it unclear."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from battles.engine import events as ev
from battles.engine import load_scenario, parse_scenario, run_battle
from battles.frames import replay_frames
from battles.map_labels import HALO, MARGIN, text_box
from battles.names import building_name, readable, scenario_names
from battles.narration import describe, describe_roll
from battles.report import log_turns
from battles.report_context import _objectives
from battles.selectors import reference_scenarios
from battles.table import table_view
from tests.web.conftest import SCENARIOS
from tests.web.crafted import crafted_scenario


def test_it_reads_an_id_as_words():
    assert readable("north-wood-b") == "North wood B"
    assert readable("woods-3") == "Woods 3"
    assert readable("east_crossing") == "East crossing"
    assert building_name("House", "south-house") == "South house"
    assert building_name("Farmhouse", "farmhouse") == "Farmhouse"


def test_every_piece_of_the_big_battle_has_a_name_and_a_raze_objective_its_building():
    names = scenario_names(load_scenario(SCENARIOS / "big-battle.json"))
    assert names.terrain["north-wood-b"] == "North wood B"
    assert names.buildings["mill"] == "Mill" and names.buildings["north-bunker"] == "North bunker"
    assert names.objectives["east-crossing"] == "East crossing"
    assert names.objectives["raze-red-bunker"] == "North bunker"
    assert names["blue-squad-2"] == "Rifle Squad 2"


def test_a_units_side_is_named_only_where_two_units_share_a_name():
    scenario = load_scenario(SCENARIOS / "crossroads.json")
    own = {u.id: "Lancer" for u in scenario.units()[:2]}  # both of blue's first two units
    own |= {scenario.sides[1].units[0].id: "Lancer"}
    names = scenario_names(scenario, own)
    blue, red = scenario.sides[0].units[0].id, scenario.sides[1].units[0].id
    assert names[blue] == f"Lancer ({scenario.sides[0].name})"
    assert names[red] == f"Lancer ({scenario.sides[1].name})"
    lone = scenario.sides[1].units[1].id
    assert names[lone] == scenario_names(scenario)[lone]  # its card's name, no side


def test_a_move_says_where_it_ends_in_words_never_in_coordinates():
    names = scenario_names(parse_scenario(crafted_scenario()))
    into = ev.Move("r1", ((10.0, 16.0), (10.0, 14.5)), 1.5, 270.0, False)
    assert describe(into, names) == "Trooper 2 moves 1.5″ into Wood."
    beside = ev.Move("b1", ((4.0, 4.0), (13.3, 5.0)), 9.354, 0.0, False)
    assert describe(beside, names) == "Trooper 1 moves 9.4″ by Farm."
    open_ground = ev.Move("b1", ((4.0, 4.0), (4.0, 10.0)), 6.0, 90.0, False)
    assert describe(open_ground, names) == "Trooper 1 moves 6″."


@pytest.mark.parametrize("slug", ["big-battle", "landing", "factory-hold"])
def test_the_log_and_the_replay_read_as_a_story(slug):
    """No coordinates to three decimals, no activation counts, no hyphenated engine ids, and no
    side repeated after a unit in a block that already says the side."""
    scenario = load_scenario(SCENARIOS / f"{slug}.json")
    events = run_battle(scenario, 5).events
    turns = log_turns(events, scenario)
    texts = [x.text for t in turns for x in t.opening + t.closing]
    texts += [g.title for t in turns for g in t.activations]
    texts += [x.text for t in turns for g in t.activations for x in g.entries]
    frames = replay_frames(scenario, events)["frames"]
    texts += [f["title"] for f in frames] + [n for f in frames for n in f["notes"]]
    story = "\n".join(texts)
    # No distance or angle in raw decimals.
    assert not re.search(r"\d\.\d{2,}", story)
    assert "(its activation" not in story
    pieces = (*scenario.units(), *scenario.terrain, *scenario.buildings, *scenario.objectives)
    ids = [p.id for p in pieces]
    assert [i for i in ids if "-" in i and re.search(rf"(?<![\w-]){i}(?![\w-])", story)] == []
    sides = [s.name for s in scenario.sides]
    assert not any(f"({side})" in story for side in sides)


def test_the_map_writes_names_not_ids():
    table = table_view(load_scenario(SCENARIOS / "big-battle.json"))
    written = {p.name for p in (*table.terrain, *table.buildings)} | {n for _, n in table.key}
    assert written >= {"North wood B", "South rubble A", "North wall B", "North bunker", "Mill"}
    assert {o.name for o in table.objectives} >= {"Ford", "West crossing", "North bunker"}
    assert {u.tag for u in table.units} >= {"Rifle Squad 1", "Rifle Squad 8"}


def test_the_map_draws_the_biggest_units_first_and_the_smallest_over_them():
    """Two units may stand on the same ground at the end of an assault: a Size 3 tank drawn
    before the Size 4 mech on it was hidden whole under it, on the map and from a tap. The map
    draws the biggest first, the scenario's order kept among units of one Size."""
    scenario = load_scenario(SCENARIOS / "crossroads.json")
    sizes = [u.card.size for u in scenario.units()]
    assert sizes != sorted(sizes, reverse=True)  # the scenario lists a small unit first
    table = table_view(scenario)
    assert [u.size for u in table.units] == sorted(sizes, reverse=True)
    for size in set(sizes):
        listed = [u.id for u in scenario.units() if u.card.size == size]
        assert [u.id for u in table.units if u.size == size] == listed


@pytest.mark.parametrize("reference", reference_scenarios(), ids=lambda s: s.slug)
def test_the_maps_labels_do_not_overlap_and_a_number_stands_in_the_key(reference):
    """At a phone's size no two labels of terrain, buildings and objectives overlap; a name
    too wide for its piece is a number, and the key under the map says whose."""
    table = table_view(parse_scenario(reference.data))
    pieces = (*table.terrain, *table.buildings)
    boxes = [text_box(p.name, float(p.cx), float(p.cy)) for p in pieces]
    boxes += [
        text_box(o.name, float(o.cx), float(o.label_y)) for o in table.objectives if o.r != "0"
    ]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
    numbers = [p.name for p in pieces if p.name.isdigit()]
    assert sorted(numbers, key=int) == [number for number, _ in table.key]


@pytest.mark.parametrize("reference", reference_scenarios(), ids=lambda s: s.slug)
def test_a_buildings_name_is_written_wholly_on_it_or_wholly_beside_it(reference):
    """A building's name, white on its roof, is written wholly on the building, clear of its
    outline, or else wholly off it in the map's dark ink, and on the table either way: at 320 px
    "Farmhouse" sat on the building's top edge, its first letter and its tops lost to the ground
    round it."""
    scenario = parse_scenario(reference.data)
    table = table_view(scenario)
    footprints = {b.id: b.polygon.bbox for b in scenario.buildings}
    for building in table.buildings:
        x0, y0, x1, y1 = footprints[building.id]
        left, top, right, bottom = x0, scenario.height - y1, x1, scenario.height - y0
        box = text_box(building.name, float(building.cx), float(building.cy))
        assert box[0] >= 0 and box[1] >= 0, building
        assert box[2] <= scenario.width and box[3] <= scenario.height, building
        on = (
            left + MARGIN <= box[0] and box[2] <= right - MARGIN
            and top + MARGIN <= box[1] and box[3] <= bottom - MARGIN
        )  # fmt: skip
        off = box[2] <= left or right <= box[0] or box[3] <= top or bottom <= box[1]
        assert getattr(building, "name_beside", False) == off and (on or off), building
        html = render_to_string("battles/table.html#map", {"table": table})
        ink = "terrain-label" if off else "terrain-label building-label"
        assert f'<text class="{ink}" x="{building.cx}" y="{building.cy}">' in html, building
    if reference.slug == "crossroads":
        (farmhouse,) = table.buildings
        assert farmhouse.name == "Farmhouse" and farmhouse.name_beside, farmhouse


@pytest.mark.parametrize("reference", reference_scenarios(), ids=lambda s: s.slug)
def test_a_walls_name_is_written_beside_it_not_over_it(reference):
    """A piece less tall than a name (a wall) keeps its name off it, just above or below and
    clear of its halo: written on it, "lane wall" hid the Crossroads' wall whole on a phone."""
    scenario = parse_scenario(reference.data)
    table = table_view(scenario)
    polygons = {t.id: t.polygon for t in scenario.terrain}
    walls = 0
    for piece in table.terrain:
        x0, y0, x1, y1 = polygons[piece.id].bbox
        top, bottom = scenario.height - y1, scenario.height - y0
        box = text_box(piece.name, float(piece.cx), float(piece.cy))
        if bottom - top >= box[3] - box[1] + 2 * HALO:
            continue  # the name fits on it and leaves it seen round the name
        walls += 1
        assert box[3] + HALO <= top or bottom <= box[1] - HALO, (piece.id, box, top, bottom)
        assert x0 < box[2] and box[0] < x1, piece.id  # beside it, not off along the table
    if reference.slug == "crossroads":
        assert walls == 1  # the lane wall


@pytest.mark.parametrize("reference", reference_scenarios(), ids=lambda s: s.slug)
def test_the_maps_names_keep_clear_of_the_units_markers_and_names(reference):
    """A unit standing in a building does not hide the building's name: terrain, building and
    objective names are written clear of every unit's marker, and of the names under the markers
    where those are written (not on a crowded table)."""
    table = table_view(parse_scenario(reference.data))
    marks = []
    for u in table.units:
        x, y, r = float(u.x), float(u.y), float(u.r)
        marks.append((u.id, (x - r, y - r, x + r, y + r)))
        if not table.crowded:
            marks.append((u.id, text_box(u.tag or u.id, x, y + float(u.label_y), 0.42)))
    names = [(p.name, text_box(p.name, float(p.cx), float(p.cy))) for p in table.terrain]
    names += [(p.name, text_box(p.name, float(p.cx), float(p.cy))) for p in table.buildings]
    names += [
        (o.name, text_box(o.name, float(o.cx), float(o.label_y)))
        for o in table.objectives
        if o.kind == "hold"
    ]
    for name, a in names:
        for unit, b in marks:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (name, unit)


def test_the_maps_description_counts_the_units_drawn():
    """The map's one sentence for screen readers counts the units drawn: under fog an enemy
    side may have none in sight; a campaign's set-up draws the table before its units stand
    there, and the sentence speaks of the table alone."""
    scenario = load_scenario(SCENARIOS / "factory-hold.json")
    pieces = "A 24″ × 24″ table with 5 terrain pieces, 2 buildings"
    assert table_view(scenario).description == (
        f"{pieces}, 2 objectives and 4 units of Rifle Company against 2 units of Tank Platoon."
    )
    tanks = frozenset(u.id for u in scenario.units() if u.side == scenario.sides[1].id)
    assert table_view(scenario, unseen=tanks).description == (
        f"{pieces}, 2 objectives and 4 units of Rifle Company against no unit of Tank Platoon "
        "in sight."
    )
    everyone = frozenset(u.id for u in scenario.units())
    assert table_view(scenario, unseen=everyone).description == f"{pieces} and 2 objectives."


def test_an_objective_to_raze_says_whether_it_was_razed():
    scenario = load_scenario(SCENARIOS / "landing.json")
    names = scenario_names(scenario)
    for seed in range(1, 40):
        result = run_battle(scenario, seed).result
        lines = _objectives(scenario, result, names)
        razed = any(b.collapsed for b in result.buildings if b.building == "radar")
        raze = next(line for line in lines if "raze" in line)
        assert raze.endswith(": razed." if razed else ": still standing at the end.")
        assert "held by" not in raze and "raze-radar" not in raze
        if razed:
            return
    pytest.fail("no seed razed the radar station")


def test_a_piece_is_named_by_its_kind_where_a_unit_shares_its_id():
    """A unit's id may be a side's or a terrain piece's (ids are unique among units and buildings,
    and among terrain and buildings): the story names the side, or the wood, not the unit."""
    data = crafted_scenario()
    data["sides"][0]["units"][0]["id"] = "red"  # blue's unit, called as red's side
    data["sides"][1]["units"][0]["id"] = "wood"  # red's unit, called as the wood
    data["terrain"][0]["hazard"] = True
    data["sides"][0]["name"], data["sides"][1]["name"] = "Lancers", "Raiders"
    names = scenario_names(parse_scenario(data))
    assert names["red"] == "Trooper 1" and names["wood"] == "Trooper 2"
    assert describe(ev.Initiative(1, "red"), names) == "Raiders wins the initiative and acts first."
    assert describe(ev.Score("red", 1, "removed:red", 1), names) == (
        "Raiders scores 1 for removing Trooper 1: 1 in all."
    )
    assert describe(ev.End("turn_limit", 2, "red"), names) == (
        "The battle ends in turn 2 at the turn limit: Raiders wins."
    )
    stopped = ev.Move("wood", ((10.0, 19.0), (10.0, 18.2)), 0.8, 270.0, True)
    assert describe(stopped, names) == (
        "Trooper 2 moves 0.8″ and is stopped at the edge of Wood by a failed terrain roll."
    )
    beside = ev.Move("red", ((4.0, 4.0), (7.5, 16.0)), 12.5, 0.0, False)
    assert describe(beside, names) == "Trooper 1 moves 12.5″ by Wood."
    initiative = ev.Roll("red", "initiative", 5, 0, 2, "win")
    assert describe_roll(initiative, names) == "Raiders, initiative: 5 against 2 — wins"
    turns = log_turns([ev.TurnStart(1), ev.Activation("wood", "red", 1)], parse_scenario(data))
    assert turns[-1].activations[0].title == "Raiders: Trooper 2"


def test_a_unit_leaving_the_battle_is_told_in_the_rule_texts_words_or_a_campaigns():
    """The rule texts' "destroyed" and "demoralised" in a battle of its own; in a campaign's, its
    "taken out" and "broken" (not yet what the battle costs the unit), in the story, the units
    table's words and the replay's alike."""
    from campaign.pages.report import LEFT_WORDS

    scenario = parse_scenario(crafted_scenario())
    gone = ev.Remove("b1", ev.Removal.DESTROYED)
    broken = ev.Remove("r1", ev.Removal.DEMORALISED)
    names = scenario_names(scenario)
    assert describe(gone, names) == "Trooper 1 is destroyed."
    assert describe(broken, names) == "Trooper 2 is demoralised and withdraws."
    ours = scenario_names(scenario, {"b1": "Iron Wolf"}, LEFT_WORDS)
    assert describe(gone, ours) == "Iron Wolf is taken out."
    assert describe(broken, ours) == "Trooper 2 is broken and withdraws."
    events = run_battle(scenario, 3).events
    assert replay_frames(scenario, events)["left"] == ["in the field", "destroyed", "demoralised"]
    assert replay_frames(scenario, events, names=ours)["left"] == [
        "still in the field", "taken out", "broken"
    ]  # fmt: skip


def test_the_points_an_objective_gives_at_the_end_are_told_apart_from_the_last_turns():
    """The ford scores 1 each turn and 3 at the end: the last turn's two awards read "scores 1
    for holding ford" and "scores 3 for holding ford", as if the ford were held twice in one
    turn. The end's now says so, in the log and on the replay alike; a crossing scores only per
    turn."""
    scenario = load_scenario(SCENARIOS / "big-battle.json")
    events = run_battle(scenario, 1).events
    scores = [e for e in events[-4:-1] if isinstance(e, ev.Score)]
    assert [(e.reason, e.points) for e in scores] == [
        ("objective:ford", 1),
        ("objective:west-crossing", 1),
        ("objective:ford", 3),
    ]
    ford, crossing = (scenario_names(scenario).side(e.side) for e in scores[:2])
    told = [
        f"{ford} scores 1 for holding Ford: {scores[0].total} in all.",
        f"{crossing} scores 1 for holding West crossing: {scores[1].total} in all.",
        f"{ford} scores 3 at the end for holding Ford: {scores[2].total} in all.",
    ]
    log = [x.text for t in log_turns(events, scenario) for x in t.closing]
    assert log[-4:-1] == told
    assert sum("at the end" in text for text in log) == 1
    frames = replay_frames(scenario, events)["frames"]
    assert frames[-2]["notes"][-3:] == told
    assert sum("at the end" in n for f in frames for n in f["notes"]) == 1


def test_a_halted_move_is_told_as_the_failed_terrain_roll_that_stopped_it():
    """Only a failed terrain roll stops a move (a failed Breaching roll costs a Hit and the unit
    goes on): a unit stopped at south wall B, where the wall meets the chapel, was said to be
    stopped "at the edge of chapel by a failed Breaching roll" over a die that read "terrain
    roll". A building beside a stop is never named as what stopped it."""
    scenario = load_scenario(SCENARIOS / "big-battle.json")
    names = scenario_names(scenario)
    unit = scenario.sides[0].units[0].id
    at_wall = (16.746, 9.491)  # 0.009″ short of south wall B, against the chapel
    stopped = ev.Move(unit, ((14.0, 4.0), at_wall), 6.139, 0.0, True)
    assert describe(stopped, names) == (
        f"{names[unit]} moves 6.1″ and is stopped at the edge of South wall B by a failed"
        " terrain roll."
    )
    stuck = ev.Move(unit, (at_wall, at_wall), 0.0, 0.0, True)
    assert describe(stuck, names) == (
        f"{names[unit]} fails its terrain roll and stays where it is, at the edge of South wall B."
    )
    farm = scenario_names(parse_scenario(crafted_scenario()))  # a building and no hazard
    beside = ev.Move("b1", ((13.7, 5.0), (13.7, 5.0)), 0.0, 0.0, True)
    assert (
        describe(beside, farm)
        == "Trooper 1 fails its terrain roll and stays where it is, at the edge."
    )


def test_damage_says_how_many_hits_are_left_even_when_none_are():
    """The last Hit taken read "Tiger One takes 1 damage from Old Faithful: nothing left.", as
    if the shot had left nothing of the unit or of something else; it counts Hits as the others
    do."""
    names = scenario_names(parse_scenario(crafted_scenario()))
    told = [describe(ev.Damage("r1", "b1", hits), names) for hits in (2, 1, 0)]
    assert told == [
        "Trooper 2 takes 1 damage from Trooper 1: 2 Hits left.",
        "Trooper 2 takes 1 damage from Trooper 1: 1 Hit left.",
        "Trooper 2 takes 1 damage from Trooper 1: no Hits left.",
    ]


def test_the_story_opens_with_the_battle_not_the_engines_version():
    """A reader meets the battle first: its scenario, rules and dice; the version of the engine
    that fought it is for whoever checks the log, beside its download."""
    scenario = load_scenario(SCENARIOS / "landing.json")
    events = run_battle(scenario, 11).events
    opening = log_turns(events, scenario)[0].opening[0].text
    assert opening == "Beach Landing begins (One Year War rules, seed 11).", opening


def test_a_battle_with_its_own_name_opens_with_it_and_the_ground_it_is_fought_on():
    """A campaign's "Battle of the Beach" is told as itself: the scenario is only the ground."""
    scenario = load_scenario(SCENARIOS / "landing.json")
    events = run_battle(scenario, 11).events
    named = scenario_names(scenario, title="Battle of the Beach")
    opening = log_turns(events, scenario, names=named)[0].opening[0].text
    assert opening == "Battle of the Beach begins on Beach Landing (One Year War rules, seed 11)."
    same = scenario_names(scenario, title="Beach Landing")  # a one-off named after its ground
    opening = log_turns(events, scenario, names=same)[0].opening[0].text
    assert opening == "Beach Landing begins (One Year War rules, seed 11).", opening


def test_a_unit_already_in_sight_is_not_said_to_give_itself_away_again():
    """Firing reveals a unit through the end of its own next activation: the engine logs a reveal
    each time a shot sets that, and one when it runs out with the unit still in the open. A mech
    trading shots in plain view read "gives itself away by firing" before every shot and "is
    spotted" where nobody had lost sight of it. Only a unit out of the enemy's sight gives
    itself away; the replay, whose map shows a unit still in sight as it was, says nothing."""
    names = scenario_names(parse_scenario(crafted_scenario()))
    fired = ev.Reveal("r1", "fired", 3)
    assert describe(fired, names) == (
        "Trooper 2 gives itself away by firing: the enemy sees it through its next activation."
    )
    assert describe(fired, names, in_sight=True) == (
        "Firing keeps Trooper 2 in the enemy's sight through its next activation."
    )
    spotted = ev.Reveal("r1", "spotted", None)
    assert describe(spotted, names) == "Trooper 2 is spotted."
    assert describe(spotted, names, in_sight=True) == "Trooper 2 is still in the enemy's sight."

    scenario = load_scenario(SCENARIOS / "mech-duel.json")
    events = run_battle(scenario, 1).events
    concealed: set[str] = set()
    again, fresh = [], []
    for i, e in enumerate(events):
        if isinstance(e, ev.Reveal):
            (fresh if e.unit in concealed else again).append(i)
        concealed = (concealed | {e.unit}) if isinstance(e, ev.Conceal) else concealed
        concealed = (concealed - {e.unit}) if isinstance(e, ev.Reveal) else concealed
    assert again and fresh
    told = {
        x.index: x.text
        for t in log_turns(events, scenario)
        for g in t.activations
        for x in g.entries
    }
    assert all("gives itself away" not in told[i] and "spotted" not in told[i] for i in again)
    assert all(
        told[i].startswith(("Firing keeps", "A sensor keeps"))
        or told[i].endswith("is still in the enemy's sight.")
        for i in again
    )
    assert all("gives itself away" in told[i] or "spotted" in told[i] for i in fresh)
    notes = [n for f in replay_frames(scenario, events)["frames"] for n in f["notes"]]
    assert not [n for n in notes if "keeps" in n or "still in the enemy's sight" in n]
    assert sum("gives itself away" in n or "spotted" in n for n in notes) == len(fresh)


def test_a_turn_in_place_is_told_as_a_turn_not_a_move_of_no_inches():
    """A turn in place (a move with no waypoints and a new facing: how a Fixed Mount brings its
    weapons round) read "Mortar Team moves 0″ into Factory."."""
    names = scenario_names(parse_scenario(crafted_scenario()))
    in_wood = ev.Move("r1", ((10.0, 16.0),), 0.0, 90.0, False)
    assert describe(in_wood, names) == "Trooper 2 turns where it stands, in Wood."
    beside = ev.Move("b1", ((13.7, 5.0),), 0.0, 180.0, False)
    assert describe(beside, names) == "Trooper 1 turns where it stands, by Farm."
    in_the_open = ev.Move("b1", ((4.0, 4.0),), 0.0, 45.0, False)
    assert describe(in_the_open, names) == "Trooper 1 turns where it stands."


def test_a_hit_too_weak_to_suppress_says_so_beside_its_resistance():
    """A hit that fails to damage costs the target 1 Skill only if the attack's Power is at
    least its Resistance ("Rifles rattle infantry. They do not rattle tanks."): rifles hitting
    a tank turn after turn read "a hit, no damage" with no word of why it lost no Skill."""
    names = scenario_names(parse_scenario(crafted_scenario()))  # both troopers Resistance 2
    weak = ev.Attack("r1", "b1", "Rifle", "shoot", 1, 6.0, "no_damage")
    assert describe(weak, names) == (
        "Trooper 2 fires Rifle at Trooper 1 from 6″ (Power 1): a hit, no damage, too weak to"
        " suppress it (Resistance 2)."
    )
    enough = ev.Attack("r1", "b1", "Rifle", "shoot", 2, 6.0, "no_damage")
    assert describe(enough, names).endswith("(Power 2): a hit, no damage.")
    wall = ev.Attack("r1", "farm", "Rifle", "shoot", 2, 6.0, "no_damage")  # never suppressed
    assert describe(wall, names).endswith("(Power 2): a hit, no damage.")
    # The target's card is one the reader may not see: its Resistance is not told.
    unseen = scenario_names(parse_scenario(crafted_scenario()), cards_unseen={"b1"})
    assert describe(weak, unseen).endswith("(Power 1): a hit, no damage.")

    scenario = load_scenario(SCENARIOS / "big-battle.json")
    events = run_battle(scenario, 1).events
    told = {x.index: x.text for t in log_turns(events, scenario) for x in _all_entries(t)}
    unhurt = [
        i
        for i, e in enumerate(events)
        if isinstance(e, ev.Attack)
        and e.outcome == "no_damage"
        and e.target not in {b.id for b in scenario.buildings}
    ]
    suppressed = [i for i in unhurt if _suppressed_by(events, i)]
    assert suppressed and len(suppressed) < len(unhurt)
    for i in unhurt:
        assert ("too weak to suppress" in told[i]) == (i not in suppressed), told[i]


def test_a_shot_from_where_its_target_stands_is_told_as_point_blank_not_from_0_inches():
    """The log keeps a shot's distance to a thousandth of an inch, the story to a tenth: a
    shooter standing where its target does (or against the wall it fires at) read "fires …
    from 0″"."""
    names = scenario_names(parse_scenario(crafted_scenario()))
    beside = ev.Attack("r1", "b1", "Rifle", "shoot", 2, 0.04, "miss")
    assert describe(beside, names) == (
        "Trooper 2 fires Rifle at Trooper 1 at point-blank range (Power 2): a miss."
    )
    wall = ev.Attack("r1", "farm", "Rifle", "shoot", 2, 0.0, "damage")
    assert describe(wall, names).startswith("Trooper 2 fires Rifle at Farm at point-blank range")
    near = ev.Attack("r1", "b1", "Rifle", "shoot", 2, 0.05, "miss")
    assert "from 0.1″ (Power 2)" in describe(near, names)
    # Close combat says no distance: it is fought within 1″ whatever the gap.
    melee = ev.Attack("r1", "b1", "Melee", "melee", 3, 0.0, "miss")
    assert (
        describe(melee, names) == "Trooper 2 attacks Trooper 1 in close combat (Power 3): a miss."
    )
    # Seed 4: the Attack Chopper, an Aerial unit, fires its Rockets from right over the tank.
    scenario = load_scenario(SCENARIOS / "crossroads.json")
    told = [x.text for t in log_turns(run_battle(scenario, 4).events, scenario)
            for x in _all_entries(t)]  # fmt: skip
    assert [text for text in told if "Rockets at Medium Tank at point-blank range" in text]
    assert not [text for text in told if "from 0″" in text]


def test_a_unit_that_cannot_hurt_the_fliers_left_says_why_it_holds_its_fire_once():
    """Under Combined Arms only weapons marked AA can attack an Aerial unit: guards with Rifles
    facing Attack Choppers alone read "acts: it stays where it is and does not fire." turn
    after turn, with no reason. The log and the cards hold it; it is said once for each unit,
    in the log and under the replay, and not where the reader may not see a card it rests on."""
    from battles.narration import NOTHING_TO_FIRE_AT, idle_activations, idle_reasons

    scenario = load_scenario(SCENARIOS / "chopper-raid.json")
    events = run_battle(scenario, 1).events
    stays = "acts: it stays where it is and does not fire."
    told = [x.text for t in log_turns(events, scenario) for x in _all_entries(t)]
    idle = [text for text in told if stays in text]
    why = [text for text in idle if text.endswith(NOTHING_TO_FIRE_AT)]
    assert why == [f"Rifle Squad {n} {stays}{NOTHING_TO_FIRE_AT}" for n in (1, 2)]
    assert len(idle) > len(why)  # the turns after say it no more
    assert "only weapons marked AA can attack an Aerial unit: it has none." in NOTHING_TO_FIRE_AT
    notes = [n for f in replay_frames(scenario, events)["frames"] for n in f["notes"]]
    assert [n for n in notes if n.endswith(NOTHING_TO_FIRE_AT)] == why
    # Its first idle activation hidden from the reader: said at the first one they see.
    names = scenario_names(scenario)
    first, *later = [i for i in sorted(idle_reasons(events, names)) if events[i].unit == "guard-1"]
    assert later == []
    acts = [i for i, e in enumerate(events) if isinstance(e, ev.Activation)]
    again = [i for i in acts if i > first and events[i].unit == "guard-1"]
    later = [i for i in idle_reasons(events, names, hidden={first}) if i in again]
    assert later == [min(set(again) & idle_activations(events))]
    # Read from a card the reader may not see (the choppers', or the guard's own): unsaid.
    for unseen in ({"chopper-1", "chopper-2", "chopper-3"}, {"guard-1"}):
        hidden_cards = scenario_names(scenario, cards_unseen=unseen)
        told = [x.text for t in log_turns(events, scenario, names=hidden_cards)
                for x in _all_entries(t)]  # fmt: skip
        said = [text for text in told if text.endswith(NOTHING_TO_FIRE_AT)]
        assert said == ([] if "chopper-1" in unseen else why[1:]), said
    # Under One Year War anything may attack an Aerial unit: no such reason is given.
    landing = load_scenario(SCENARIOS / "landing.json")
    assert idle_reasons(run_battle(landing, 1).events, scenario_names(landing)) == {}


def _all_entries(turn):
    return [*turn.opening, *(x for g in turn.activations for x in g.entries), *turn.closing]


def _suppressed_by(events, i):
    """Whether the attack at ``i`` suppressed its target (a ram's Suppress follows both blows
    and what the first did)."""
    for x in events[i + 1 :]:
        if isinstance(x, ev.Activation | ev.TurnStart | ev.End):
            return False
        if isinstance(x, ev.Suppress) and (x.unit, x.by) == (events[i].target, events[i].attacker):
            return True
    return False


def test_each_turn_closes_with_the_score_after_it_and_the_units_it_took_out():
    """A long battle read a turn at a time (the log is paged by turns) gave the score only in
    each point's own line: a reader had to add up where the battle stood. Each turn now closes
    with the score after it and who left the battle in it, in the campaign's words where it has
    some."""
    from campaign.pages.report import LEFT_WORDS

    scenario = parse_scenario(crafted_scenario())
    blue, red = (s.name for s in scenario.sides)
    events = [
        ev.TurnStart(1),
        ev.Initiative(1, "blue"),
        ev.Activation("b1", "blue", 1),
        ev.TurnStart(2),
        ev.Initiative(2, "red"),
        ev.Activation("r1", "red", 2),
        ev.Remove("b1", ev.Removal.DESTROYED),
        ev.Score("red", 2, "removed:b1", 2),
        ev.End(ev.EndReason.SIDE_ELIMINATED, 2, "red"),
    ]
    turns = log_turns(events, scenario, names=scenario_names(scenario, left=LEFT_WORDS))
    assert [t.summary for t in turns] == [
        f"After turn 1: {blue} 0, {red} 0.",
        f"After turn 2: {blue} 0, {red} 2. Left the battle: Trooper 1 (taken out).",
    ]
    big = load_scenario(SCENARIOS / "big-battle.json")
    events = run_battle(big, 1).events
    turns = log_turns(events, big)
    assert len(turns) == 1 + big.turn_limit and turns[0].summary == ""
    final = [e.total for e in events if isinstance(e, ev.Score)]
    assert all(t.summary.startswith(f"After turn {t.number}: ") for t in turns[1:])
    assert f" {final[-1]}" in turns[-1].summary.split(".")[0]


def test_a_collapse_does_not_name_an_occupant_the_readers_side_could_not_see():
    """A building's collapse is public, but a unit that went into it unseen was named in it
    ("depot collapses into rubble on Grey Rifles"), on the log and under the replay, telling an
    enemy where it stood while the map still hid it; the unit filter found it there too."""
    from battles.fog import hidden_events
    from battles.report import filter_turns, unit_sides

    scenario = parse_scenario(crafted_scenario())
    pen, armour = ("b1", "penetration", 6, 3, 4, "win"), ("farm", "armour", 1, 3, 9, "lose")
    events = [
        ev.BattleStart("1.0.0", "combined_arms", "Test", "0" * 64, 5),
        ev.Conceal("r1"),
        ev.TurnStart(1),
        ev.Initiative(1, "blue"),
        ev.Activation("b1", "blue", 1),
        ev.Roll(*pen),
        ev.Roll(*armour),
        ev.Attack("b1", "farm", "Gun", "shoot", 3, 8.0, "damage"),
        ev.Damage("farm", "b1", 1),
        ev.Activation("r1", "red", 1),
        ev.Move("r1", ((10.0, 16.0), (15.0, 5.0)), 11.0, 270.0, False),  # into the farm, unseen
        ev.TurnStart(2),
        ev.Initiative(2, "blue"),
        ev.Activation("b1", "blue", 2),
        ev.Roll(*pen),
        ev.Roll(*armour),
        ev.Attack("b1", "farm", "Gun", "shoot", 3, 8.0, "damage"),
        ev.Damage("farm", "b1", 0),
        ev.Collapse("farm", ("r1",)),
        ev.Roll("r1", "collapse", 2, 0, 4, "success"),
        ev.End(ev.EndReason.TURN_LIMIT, 2, "blue"),
    ]
    names = scenario_names(scenario)
    farm = names["farm"].capitalize()
    blue = hidden_events(events, unit_sides(scenario), "blue")
    assert 10 in blue and 19 in blue  # the move in and the collapse roll
    turns = log_turns(events, scenario, blue)
    seen_by_blue = [x.text for t in turns[1:] for x in _all_entries(t)]  # after deployment's
    assert f"{farm} collapses into rubble on a unit out of sight." in seen_by_blue
    assert not any("Trooper 2" in text for text in seen_by_blue)  # "Trooper 2 is out of sight."
    by_unit = filter_turns(log_turns(events, scenario, blue), unit="r1")
    assert not [x for t in by_unit for x in _all_entries(t) if x.kind == "collapse"]
    notes = replay_frames(scenario, events, viewer="blue", hidden=blue)["frames"]
    assert f"{farm} collapses into rubble on a unit out of sight." in [
        n for f in notes for n in f["notes"]
    ]
    red = hidden_events(events, unit_sides(scenario), "red")
    for hidden in (red, ()):
        whole = [x.text for t in log_turns(events, scenario, hidden) for x in _all_entries(t)]
        assert f"{farm} collapses into rubble on Trooper 2." in whole


def test_a_collapse_on_nobody_and_a_sensors_reveal_are_told_in_words():
    """A building falling empty names no one; a sensor's reveal says it was a sensor, whether
    the unit was hidden or already in sight; a unit's own name opens its sentence capitalised;
    a header without its seed says so."""
    from battles.fog import seed_withheld

    names = scenario_names(parse_scenario(crafted_scenario()))
    assert describe(ev.Collapse("farm", ()), names) == "Farm collapses into rubble."
    sensed = ev.Reveal("r1", "sensor", 3)
    assert describe(sensed, names) == (
        "Trooper 2 is picked up by a sensor: the enemy sees it through its next activation."
    )
    assert describe(sensed, names, in_sight=True) == (
        "A sensor keeps Trooper 2 in the enemy's sight through its next activation."
    )
    own = scenario_names(parse_scenario(crafted_scenario()), {"r1": "old faithful"})
    spotted = ev.Reveal("r1", "spotted", None)
    assert describe(spotted, own, in_sight=True) == "Old faithful is still in the enemy's sight."
    start = ev.BattleStart("1.0.0", "combined_arms", "Test", "0" * 64, 5)
    assert describe(start, names) == "Test begins (Combined Arms rules, seed 5)."
    withheld = seed_withheld([start])[0]
    assert describe(withheld, names) == "Test begins (Combined Arms rules, its seed not shown)."


def test_an_unfinished_log_gives_no_points_at_the_end():
    """The points an objective gives at the end come only in a log that has ended: the last
    turn's scores of a battle still being fought are its turn's."""
    from battles.narration import end_scores

    scenario = load_scenario(SCENARIOS / "big-battle.json")
    events = run_battle(scenario, 1).events
    names = scenario_names(scenario)
    assert len(end_scores(events, names)) == 1
    assert end_scores(events[:-1], names) == frozenset()


def test_an_activation_is_idle_whatever_other_units_did_in_it_and_at_the_logs_end():
    """A unit that acts while only another unit moves or strikes (a rammed unit striking back)
    stays where it is and does not fire; so does the last unit to act in a log cut short."""
    from battles.narration import idle_activations

    events = [
        ev.TurnStart(1),
        ev.Activation("b1", "blue", 1),  # 1: only r1 strikes and moves in it
        ev.Attack("r1", "b1", "", "ram_back", 2, 0.0, "miss"),
        ev.Move("r1", ((10.0, 16.0), (10.0, 14.5)), 1.5, 270.0, False),
        ev.Activation("r1", "red", 1),  # 4: moves
        ev.Move("r1", ((10.0, 14.5), (10.0, 13.0)), 1.5, 270.0, False),
        ev.TurnStart(2),
        ev.Activation("b1", "blue", 2),  # 7: the log ends in it
    ]
    assert idle_activations(events) == {1, 7}


def test_each_turns_closing_line_names_only_the_units_that_left_in_it():
    """The score stands from turn to turn; a unit taken out is named in its own turn's line
    only."""
    scenario = parse_scenario(crafted_scenario())
    blue, red = (s.name for s in scenario.sides)
    events = [
        ev.TurnStart(1),
        ev.Activation("r1", "red", 1),
        ev.Remove("b1", ev.Removal.DESTROYED),
        ev.Score("red", 2, "removed:b1", 2),
        ev.TurnStart(2),
        ev.Activation("r1", "red", 2),
        ev.End(ev.EndReason.SIDE_ELIMINATED, 2, "red"),
    ]
    assert [t.summary for t in log_turns(events, scenario) if t.number] == [
        f"After turn 1: {blue} 0, {red} 2. Left the battle: Trooper 1 (destroyed).",
        f"After turn 2: {blue} 0, {red} 2.",
    ]


def test_a_unit_is_told_it_has_nothing_to_fire_at_only_once_the_last_ground_enemy_is_gone():
    """Blue's rifles face a chopper and a ground unit: while the ground unit stands they have
    something to shoot; once it is gone, every enemy left is Aerial; once every enemy is gone,
    there is nothing to say."""
    from battles.narration import NOTHING_TO_FIRE_AT, idle_reasons
    from tests.engine.helpers import scenario as make_scenario
    from tests.engine.helpers import unit

    scenario = parse_scenario(
        make_scenario(
            [unit("b1", (4, 4))],
            [unit("r1", (10, 16), keywords=["aerial"]), unit("r2", (16, 16))],
        )
    )
    names = scenario_names(scenario)
    assert scenario.ruleset.aerial_only_aa
    events = [
        ev.TurnStart(1),
        ev.Activation("b1", "blue", 1),  # 1: r2 still stands
        ev.Remove("r2", ev.Removal.DESTROYED),
        ev.TurnStart(2),
        ev.Activation("b1", "blue", 2),  # 4: only the chopper left
        ev.End(ev.EndReason.TURN_LIMIT, 2, "red"),
    ]
    assert idle_reasons(events, names) == {4: NOTHING_TO_FIRE_AT}
    all_gone = [
        ev.TurnStart(1),
        ev.Remove("r1", ev.Removal.DESTROYED),
        ev.Remove("r2", ev.Removal.DESTROYED),
        ev.Activation("b1", "blue", 1),
        ev.End(ev.EndReason.SIDE_ELIMINATED, 1, "blue"),
    ]
    assert idle_reasons(all_gone, names) == {}


def test_the_end_a_ram_a_razing_and_a_turn_on_an_objective_are_told_in_words():
    names = scenario_names(parse_scenario(crafted_scenario()))
    assert describe(ev.End(ev.EndReason.SIDE_ELIMINATED, 2, "red"), names) == (
        "The battle ends in turn 2 — a side is gone: Red wins."
    )
    assert describe(ev.End(ev.EndReason.TURN_LIMIT, 3, None), names) == (
        "The battle ends in turn 3 at the turn limit: a draw."
    )
    ram = ev.Attack("b1", "r1", "", "ram", 2, 0.0, "damage")
    assert (
        describe(ram, names) == "Trooper 1 rams Trooper 2 (Power = Size 2): a hit that does damage."
    )
    back = ev.Attack("r1", "b1", "", "ram_back", 2, 0.0, "miss")
    assert describe(back, names) == "Trooper 2 strikes back at Trooper 1 (Power = Size 2): a miss."
    razed = ev.Score("blue", 3, "razed:farm", 4)
    assert describe(razed, names) == "Blue scores 3 for razing Farm: 4 in all."
    gone = ev.Score("blue", 1, "objective:bridge", 5)  # an objective the scenario does not list
    assert describe(gone, names) == "Blue scores 1 for objective Bridge: 5 in all."
    on_corner = ev.Move("b1", ((24.0, 24.0),), 0.0, 90.0, False)
    assert describe(on_corner, names) == "Trooper 1 turns where it stands, on Corner."


def test_a_halted_move_names_the_nearest_hazard_within_half_an_inch():
    """A unit stopped a tenth of an inch from one rubble and a fifth from another stopped at the
    first; one stopped an inch from any is stopped "at the edge", of nothing named; a move of a
    few tenths before the failed roll is still a move."""
    from tests.engine.helpers import piece, square, unit
    from tests.engine.helpers import scenario as make_scenario

    scenario = parse_scenario(
        make_scenario(
            [unit("b1", (4, 4))],
            [unit("r1", (20, 20))],
            terrain=[
                piece("rubble-a", "rubble", square(10, 10, 12, 12)),
                piece("rubble-b", "rubble", square(12.3, 10, 14, 12)),
            ],
        )
    )
    names = scenario_names(scenario)
    between = ev.Move("b1", ((12.1, 4.0), (12.1, 11.0)), 7.0, 90.0, True)
    assert describe(between, names) == (
        "Trooper 1 moves 7″ and is stopped at the edge of Rubble A by a failed terrain roll."
    )
    short = ev.Move("b1", ((9.0, 10.7), (9.0, 11.0)), 0.3, 90.0, True)
    assert describe(short, names) == (
        "Trooper 1 moves 0.3″ and is stopped at the edge by a failed terrain roll."
    )


def test_each_die_says_who_rolled_it_why_and_what_it_came_to():
    names = scenario_names(parse_scenario(crafted_scenario()))
    rolls = [
        ev.Roll("blue", "initiative", 3, 0, 3, "tie"),
        ev.Roll("blue", "initiative", 5, 0, 2, "win"),
        ev.Roll("red", "initiative", 2, 0, 5, "lose"),
        ev.Roll("b1", "to_hit", 2, 0, 4, "success"),
        ev.Roll("b1", "penetration", 5, 3, 4, "win"),
        ev.Roll("r1", "armour", 3, 2, 4, "win"),
        ev.Roll("b1", "penetration", 1, 3, 5, "lose"),
        ev.Roll("r1", "armour", 6, 2, 4, "lose"),
        ev.Roll("r1", "terrain", 3, 0, 4, "success"),
        ev.Roll("b1", "breaching", 5, 0, 4, "fail"),
        ev.Roll("r1", "collapse", 2, 0, 4, "success"),
    ]
    assert [describe_roll(r, names) for r in rolls] == [
        "Blue, initiative: 3 against 3 — a tie, rolled again",
        "Blue, initiative: 5 against 2 — wins",
        "Red, initiative: 2 against 5 — loses",
        "Trooper 1, Skill roll to hit: 2 against Skill 4 — success",
        "Trooper 1, penetration: 5 + Power 3 = 8 against 4 — gets through",
        "Trooper 2, armour: 3 + Resistance 2 = 5 against 4 — holds",
        "Trooper 1, penetration: 1 + Power 3 = 4 against 5 — stopped",
        "Trooper 2, armour: 6 + Resistance 2 = 8 against 4 — pierced",
        "Trooper 2, terrain roll: 3 against Skill 4 — success",
        "Trooper 1, Breaching roll: 5 against Skill 4 — fail",
        "Trooper 2, collapse roll: 2 against Skill 4 — success",
    ]


def test_a_buildings_armour_die_opens_its_line_with_a_capital():
    """A building's name is lowercase in running text ("north bunker"); leading a die's line it
    starts the sentence."""
    names = scenario_names(load_scenario(SCENARIOS / "big-battle.json"))
    line = describe_roll(ev.Roll("north-bunker", "armour", 4, 5, 6, "win"), names)
    assert line == "North bunker, armour: 4 + Resistance 5 = 9 against 6 — holds"


def test_a_collapse_names_the_occupants_whose_dice_the_reader_saw():
    """Of two units in a collapsing building, the one whose collapse roll the reader's side
    saw is named; the other is a unit out of sight."""
    from battles.narration import unseen_occupants

    names = scenario_names(parse_scenario(crafted_scenario()))
    events = [
        ev.Collapse("farm", ("b1", "r1")),
        ev.Roll("b1", "collapse", 5, 0, 4, "fail"),
        ev.Roll("r1", "collapse", 2, 0, 4, "success"),
    ]
    unseen = unseen_occupants(events, 0, {2})
    assert unseen == {"r1"}
    assert describe(events[0], names, unseen=unseen) == (
        "Farm collapses into rubble on Trooper 1 and a unit out of sight."
    )


def test_a_unit_out_of_sight_and_damage_from_no_attacker_are_told_in_words():
    names = scenario_names(parse_scenario(crafted_scenario()))
    assert describe(ev.Conceal("r1"), names) == "Trooper 2 is out of sight."
    assert describe(ev.Damage("b1", None, 1), names) == (
        "Trooper 1 takes 1 damage (a failed Breaching or collapse roll): 1 Hit left."
    )


def test_a_unit_with_a_weapon_marked_aa_is_not_told_it_has_nothing_to_fire_at():
    from battles.narration import idle_reasons
    from tests.engine.helpers import scenario as make_scenario
    from tests.engine.helpers import unit

    gun = {"name": "Gun", "power": 3, "range": 12, "aa": True}
    scenario = parse_scenario(
        make_scenario(
            [unit("b1", (4, 4), weapons=[gun])], [unit("r1", (10, 16), keywords=["aerial"])]
        )
    )
    events = [ev.TurnStart(1), ev.Activation("b1", "blue", 1), ev.End("turn_limit", 1, None)]
    assert idle_reasons(events, scenario_names(scenario)) == {}
