"""Card text both ways: the WRITING A CARD format rendered, parsed, and refused with reasons."""

from __future__ import annotations

import copy
import pickle

import pytest

from units.cardtext import (
    CHARGES,
    KEYWORD_LABELS,
    KEYWORDS,
    CardError,
    CardTextError,
    is_building,
    is_charges,
    parse_card,
    render_card,
    stat_items,
    validate_card,
    weapon_head,
    weapon_items,
)

RIFLE_SQUAD_TEXT = """\
Rifle Squad
Skill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1
Rifles — Power 2, Range 12
Rocket Launcher — Power 5, Range 8, Size 2–5 only, two uses
Melee 2
Keywords: Move and Fire, Sure-Footed
Enters: woods, buildings"""


def weapon(name: str, power: int, range_: float, **restrictions) -> dict:
    line = {
        "name": name,
        "power": power,
        "range": range_,
        "aa": False,
        "buildings_only": False,
        "min_size": None,
        "max_size": None,
        "uses": None,
    }
    line.update(restrictions)
    return line


RIFLE_SQUAD = {
    "name": "Rifle Squad",
    "skill": 4,
    "move": 5,
    "resistance": 1,
    "hits": 3,
    "size": 1,
    "melee": 2,
    "weapons": [
        weapon("Rifles", 2, 12),
        weapon("Rocket Launcher", 5, 8, min_size=2, max_size=5, uses=2),
    ],
    "keywords": ["move_and_fire", "sure_footed"],
    "enters": ["woods", "buildings"],
}

HOUSE_TEXT = "House (building)\nResistance 3 · Hits 4\nAdmits: Size 1–2\nBecomes: rubble field"
HOUSE = {
    "name": "House",
    "resistance": 3,
    "hits": 4,
    "admits": {"min_size": 1, "max_size": 2},
    "rubble": "rubble field",
}

MINIMAL_TEXT = "Tank\nSkill 3 · Move 6 · Resistance 5 · Hits 4 · Size 3"


def unit(**changes) -> dict:
    card = copy.deepcopy(RIFLE_SQUAD)
    card.update(changes)
    return card


def with_weapon(**changes) -> dict:
    return unit(weapons=[weapon("Gun", 3, 10, **changes)])


# ---------------------------------------------------------------------------------------------
# The two examples, both ways
# ---------------------------------------------------------------------------------------------


def test_it_parses_the_rifle_squad():
    assert parse_card(RIFLE_SQUAD_TEXT) == RIFLE_SQUAD


def test_it_renders_the_rifle_squad():
    assert render_card(RIFLE_SQUAD) == RIFLE_SQUAD_TEXT


def test_a_page_prints_a_cards_stat_line_and_weapon_lines_in_the_cards_own_pieces():
    """A page that lays a card out in pieces (the roster keeps each one whole) prints them
    from these, so its words and punctuation are the printed card's."""
    lines = RIFLE_SQUAD_TEXT.splitlines()
    assert stat_items(RIFLE_SQUAD) == ["Skill 4", "Move 5", "Resistance 1", "Hits 3", "Size 1"]
    assert " · ".join(stat_items(RIFLE_SQUAD)) == lines[1]
    for weapon, line in zip(RIFLE_SQUAD["weapons"], lines[2:], strict=False):
        assert f"{weapon_head(weapon)} {', '.join(weapon_items(weapon))}" == line
    assert weapon_head(RIFLE_SQUAD["weapons"][0]) == "Rifles —"


def test_it_parses_the_house():
    assert parse_card(HOUSE_TEXT) == HOUSE


def test_it_renders_the_house():
    assert render_card(HOUSE) == HOUSE_TEXT


def test_it_tells_buildings_from_units():
    assert is_building(HOUSE)
    assert not is_building(RIFLE_SQUAD)


def test_it_keeps_the_canonical_key_order():
    assert list(parse_card(RIFLE_SQUAD_TEXT)) == list(RIFLE_SQUAD)
    assert list(parse_card(HOUSE_TEXT)) == list(HOUSE)
    assert list(parse_card(RIFLE_SQUAD_TEXT)["weapons"][0]) == list(CHARGES)


def test_it_reads_a_card_with_no_weapons_melee_keywords_or_enters():
    card = parse_card(MINIMAL_TEXT)
    assert card["melee"] is None
    assert card["weapons"] == card["keywords"] == card["enters"] == []
    assert render_card(card) == MINIMAL_TEXT


def test_it_leaves_out_admits_when_a_building_admits_nothing():
    wall = {"name": "Wall", "resistance": 4, "hits": 2, "admits": None, "rubble": "rubble"}
    assert render_card(wall) == "Wall (building)\nResistance 4 · Hits 2\nBecomes: rubble"
    assert parse_card(render_card(wall)) == wall


@pytest.mark.parametrize("nothing", ["nothing", "None", "no one", "—", "-", ""])
def test_it_reads_admits_nothing(nothing):
    text = f"Wall (building)\nResistance 4 · Hits 2\nAdmits: {nothing}\nBecomes: rubble"
    assert parse_card(text)["admits"] is None


@pytest.mark.parametrize(
    ("spec", "admits"),
    [
        ("Size 1–2", (1, 2)),
        ("size 1-2", (1, 2)),
        ("Size 1 to 2", (1, 2)),
        ("Size 3", (3, 3)),
        ("Size 3+", (3, 5)),
        ("Size up to 2", (1, 2)),
        ("Size 2–3 only", (2, 3)),
        ("1–4", (1, 4)),
    ],
)
def test_it_reads_what_a_building_admits(spec, admits):
    text = f"Hangar (building)\nResistance 2 · Hits 6\nAdmits: {spec}\nBecomes: rubble field"
    card = parse_card(text)
    assert (card["admits"]["min_size"], card["admits"]["max_size"]) == admits


def test_it_renders_a_single_admitted_size_alone():
    card = dict(HOUSE, admits={"min_size": 3, "max_size": 3})
    assert "Admits: Size 3\n" in render_card(card)


# ---------------------------------------------------------------------------------------------
# What the hand may write
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stats",
    [
        "Skill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1",
        "Skill 4 | Move 5 | Resistance 1 | Hits 3 | Size 1",
        "Skill 4, Move 5, Resistance 1, Hits 3, Size 1",
        "Skill 4; Move 5; Resistance 1; Hits 3; Size 1",
        'skill: 4 · MOVE: 5" · resistance 1 · hits 3 · size 1',
        "Size 1 · Hits 3 · Resistance 1 · Move 5 in · Skill 4",
        "Skill 4 · Move 5.0 · Resistance 1 · Hits 3 · Size 1 ·",
        "  Skill 4 ·· Move 5 · Resistance 1 · Hits 3 · Size 1  ",
    ],
)
def test_it_reads_stat_lines_in_any_hand(stats):
    card = parse_card(f"Scouts\n{stats}")
    assert [card[k] for k in ("skill", "move", "resistance", "hits", "size")] == [4, 5, 1, 3, 1]
    assert render_card(card).splitlines()[1] == (
        "Skill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1"
    )


def test_it_reads_melee_on_the_stat_line_and_writes_it_on_its_own():
    card = parse_card("Mech\nSkill 4 · Move 4 · Resistance 6 · Hits 5 · Size 4 · Melee 6")
    assert card["melee"] == 6
    assert render_card(card).splitlines()[-1] == "Melee 6"


@pytest.mark.parametrize("line", ["Melee 3", "melee: 3", "MELEE — 3", "Melee - 3", "Melee3"])
def test_it_reads_the_melee_line(line):
    assert parse_card(f"{MINIMAL_TEXT}\n{line}")["melee"] == 3


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Rifles — Power 2, Range 12", {}),
        ("Rifles – Power 2, Range 12", {}),
        ("Rifles - Power 2, Range 12", {}),
        ("Rifles —Power 2 · Range 12", {}),
        ('Rifles — Power 2 | Range 12"', {}),
        ("Rifles — Range 12, Power 2", {}),
        ("Rifles — power: 2, range: 12,", {}),
        ("Rifles — Power 2, Range 12, AA", {"aa": True}),
        ("Rifles — Power 2, Range 12, aa", {"aa": True}),
        ("Rifles — Power 3, Range 12, buildings only", {"power": 3, "buildings_only": True}),
        ("Rifles — Power 3, Range 12, Buildings Only", {"power": 3, "buildings_only": True}),
        ("Rifles — Power 2, Range 12, Size 1–2 only", {"min_size": 1, "max_size": 2}),
        ("Rifles — Power 2, Range 12, Size 1-2 only", {"min_size": 1, "max_size": 2}),
        ("Rifles — Power 2, Range 12, size 1 to 2", {"min_size": 1, "max_size": 2}),
        ("Rifles — Power 2, Range 12, Size 3 only", {"min_size": 3, "max_size": 3}),
        ("Rifles — Power 2, Range 12, Size 3+ only", {"min_size": 3}),
        ("Rifles — Power 2, Range 12, Size 3 or more only", {"min_size": 3}),
        ("Rifles — Power 2, Range 12, Size up to 2 only", {"max_size": 2}),
        ("Rifles — Power 2, Range 12, Size 2 or less only", {"max_size": 2}),
        ("Rifles — Power 2, Range 12, two uses", {"uses": 2}),
        ("Rifles — Power 2, Range 12, 2 uses", {"uses": 2}),
        ("Rifles — Power 2, Range 12, one use", {"uses": 1}),
        ("Rifles — Power 2, Range 12, 1 use", {"uses": 1}),
        ("Rifles — Power 2, Range 12, uses 3", {"uses": 3}),
        ("Rifles — Power 2, Range 12, Ten Uses", {"uses": 10}),
        ("Rifles — Power 2, Range 12.5", {"range": 12.5}),
        ("Rifles — Power 2, Range 12.50", {"range": 12.5}),
        ("Rifles — Power 2, Range 12.0", {"range": 12}),
        ("Rifles — Power 2, Range 12 inches", {}),
    ],
)
def test_it_reads_weapon_lines_in_any_hand(line, expected):
    card = parse_card(f"{MINIMAL_TEXT}\n{line}")
    assert card["weapons"] == [weapon("Rifles", 2, 12) | expected]


@pytest.mark.parametrize(
    ("restrictions", "rendered"),
    [
        ({"aa": True}, "Power 3, Range 10, AA"),
        ({"buildings_only": True}, "Power 3, Range 10, buildings only"),
        ({"min_size": 1, "max_size": 2}, "Power 3, Range 10, Size 1–2 only"),
        ({"min_size": 3, "max_size": 3}, "Power 3, Range 10, Size 3 only"),
        ({"min_size": 3}, "Power 3, Range 10, Size 3+ only"),
        ({"max_size": 2}, "Power 3, Range 10, Size up to 2 only"),
        ({"uses": 1}, "Power 3, Range 10, one use"),
        ({"uses": 2}, "Power 3, Range 10, two uses"),
        ({"uses": 10}, "Power 3, Range 10, ten uses"),
        ({"uses": 11}, "Power 3, Range 10, 11 uses"),
        # Buildings have no Size: buildings only and a Size restriction never share a line.
        (
            {"aa": True, "buildings_only": True, "uses": 3},
            "Power 3, Range 10, AA, buildings only, three uses",
        ),
        (
            {"aa": True, "min_size": 2, "max_size": 4, "uses": 3},
            "Power 3, Range 10, AA, Size 2–4 only, three uses",
        ),
    ],
)
def test_it_renders_restrictions_in_one_order(restrictions, rendered):
    card = with_weapon(**restrictions)
    assert f"Gun — {rendered}" in render_card(card).splitlines()
    assert parse_card(render_card(card)) == card


@pytest.mark.parametrize(
    ("written", "keyword"),
    [
        ("Aerial", "aerial"),
        ("Split Movement", "split_movement"),
        ("split movement", "split_movement"),
        ("Fixed Mount", "fixed_mount"),
        ("FIXED-MOUNT", "fixed_mount"),
        ("Breaching", "breaching"),
        ("Move and Fire", "move_and_fire"),
        ("move_and_fire", "move_and_fire"),
        ("Sure-Footed", "sure_footed"),
        ("sure footed", "sure_footed"),
        ("Surefooted", "sure_footed"),
        ("Sensor", "sensor"),
        ("amphibious", "amphibious"),
    ],
)
def test_it_reads_keywords_in_any_case(written, keyword):
    assert parse_card(f"{MINIMAL_TEXT}\nKeywords: {written}")["keywords"] == [keyword]


def test_it_lists_keywords_in_the_canonical_order():
    text = f"{MINIMAL_TEXT}\nKeywords: Amphibious | Aerial · Sensor, Breaching"
    card = parse_card(text)
    assert card["keywords"] == ["aerial", "breaching", "sensor", "amphibious"]
    assert render_card(card).splitlines()[-1] == "Keywords: Aerial, Breaching, Sensor, Amphibious"


def test_it_labels_every_keyword():
    assert tuple(KEYWORD_LABELS) == KEYWORDS
    everything = parse_card(f"{MINIMAL_TEXT}\nKeywords: {', '.join(KEYWORD_LABELS.values())}")
    assert everything["keywords"] == list(KEYWORDS)


def test_it_reads_enters_lower_cased_in_the_order_written():
    card = parse_card(f"{MINIMAL_TEXT}\nEnters: Buildings, Deep  Water | rubble-field")
    assert card["enters"] == ["buildings", "deep water", "rubble-field"]


def test_it_reads_empty_keywords_and_enters_lines_as_none():
    card = parse_card(f"{MINIMAL_TEXT}\nKeywords:\nEnters:")
    assert card["keywords"] == card["enters"] == []


def test_it_skips_blank_lines_and_any_line_ending():
    text = "\r\n  Rifle Squad  \r\n\r\n" + RIFLE_SQUAD_TEXT.split("\n", 1)[1].replace("\n", "\r\n")
    assert parse_card(text) == RIFLE_SQUAD


def test_it_accepts_sections_in_any_order():
    lines = RIFLE_SQUAD_TEXT.splitlines()
    shuffled = [lines[0], lines[1], lines[6], lines[5], lines[3], lines[4], lines[2]]
    card = parse_card("\n".join(shuffled))
    assert card["weapons"] == list(reversed(RIFLE_SQUAD["weapons"]))
    assert {k: v for k, v in card.items() if k != "weapons"} == {
        k: v for k, v in RIFLE_SQUAD.items() if k != "weapons"
    }


def test_it_writes_the_canonical_form_of_a_messy_card():
    messy = """
        rifle squad
        size 1 | hits 3 | resistance 1 | move 5.0" | skill 4
        Enters: Woods, BUILDINGS
        keywords: sure-footed, move and fire
        melee: 2
        Rifles - range 12 | power 2
        Rocket Launcher – Power 5; Range 8; 2 uses; Size 2-5
    """
    assert render_card(parse_card(messy)) == RIFLE_SQUAD_TEXT.replace("Rifle Squad", "rifle squad")


def test_it_keeps_dashes_and_separators_inside_names():
    text = (
        "Anti-Tank Team · 2nd | Platoon\n"
        "Skill 3 · Move 4 · Resistance 1 · Hits 2 · Size 1\n"
        "AT-4 — Power 6, Range 10\n"
        "Gun — Mk II - Power Pack — Power 3, Range 6\n"
        "Melee Knife — Power 1, Range 1"
    )
    card = parse_card(text)
    assert card["name"] == "Anti-Tank Team · 2nd | Platoon"
    assert [w["name"] for w in card["weapons"]] == [
        "AT-4",
        "Gun — Mk II - Power Pack",
        "Melee Knife",
    ]
    assert card["melee"] is None
    assert parse_card(render_card(card)) == card


def test_it_reads_a_weapon_named_melee_as_a_weapon():
    card = unit(weapons=[weapon("Melee", 3, 1)], melee=None)
    assert "Melee — Power 3, Range 1" in render_card(card)
    assert parse_card(render_card(card)) == card


@pytest.mark.parametrize(
    ("move", "written"), [(5, "5"), (5.0, "5"), (2.5, "2.5"), (0.125, "0.125")]
)
def test_it_writes_numbers_without_a_trailing_point_zero(move, written):
    card = unit(move=move, weapons=[weapon("Gun", 3, move or 1)])
    rendered = render_card(card)
    assert f"Move {written} ·" in rendered
    assert f"Range {written}" in rendered
    assert parse_card(rendered) == card


def test_it_reads_a_whole_decimal_as_a_whole_number():
    card = parse_card(MINIMAL_TEXT.replace("Move 6", "Move 6.0").replace("Skill 3", "Skill 3.0"))
    assert card["move"] == 6 and isinstance(card["move"], int)
    assert card["skill"] == 3 and isinstance(card["skill"], int)


# ---------------------------------------------------------------------------------------------
# Demolition: a keyword and a weapon line
# ---------------------------------------------------------------------------------------------

SAPPERS_TEXT = """\
Sappers
Skill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1
Rifles — Power 2, Range 12
Charges — Power 4, Range 1, buildings only, two uses
Keywords: Demolition"""


def test_it_renders_demolition_as_its_charges_line_and_the_keyword():
    card = unit(
        name="Sappers",
        melee=None,
        weapons=[weapon("Rifles", 2, 12), dict(CHARGES)],
        keywords=["demolition"],
        enters=[],
    )
    assert render_card(card) == SAPPERS_TEXT
    assert parse_card(SAPPERS_TEXT) == card


def test_it_adds_the_charges_line_for_the_demolition_keyword():
    card = parse_card(f"{MINIMAL_TEXT}\nKeywords: Demolition, Breaching")
    assert card["weapons"] == [CHARGES]
    assert card["keywords"] == ["breaching", "demolition"]
    assert "Charges — Power 4, Range 1, buildings only, two uses" in render_card(card)


def test_it_adds_the_demolition_keyword_for_the_charges_line():
    card = parse_card(f"{MINIMAL_TEXT}\ncharges — Power 4, Range 1, buildings only, 2 uses")
    assert card["keywords"] == ["demolition"]
    assert card["weapons"] == [dict(CHARGES, name="charges")]


def test_it_keeps_a_different_charges_line_as_an_ordinary_weapon():
    card = parse_card(f"{MINIMAL_TEXT}\nCharges — Power 5, Range 1, buildings only")
    assert card["keywords"] == []
    assert is_charges(CHARGES)
    assert not is_charges(card["weapons"][0])


@pytest.mark.parametrize(
    "line",
    [
        "Charges — Power 4, Range 1, buildings only, three uses",
        "Charges — Power 4, Range 1, buildings only",
        "Charges — Power 3, Range 1, buildings only, two uses",
        "Charges — Power 4, Range 2, buildings only, two uses",
        "Charges — Power 4, Range 1, two uses",
        "Charges — Power 4, Range 1, AA, buildings only, two uses",
    ],
)
def test_a_charges_line_off_demolitions_in_any_one_item_is_an_ordinary_weapon(line):
    # Demolition's line is Power 4, Range 1, buildings only, two uses, and nothing else.
    card = parse_card(f"{MINIMAL_TEXT}\n{line}")
    assert card["keywords"] == []
    assert [w["name"] for w in card["weapons"]] == ["Charges"]
    assert not is_charges(card["weapons"][0])


def test_the_keyword_a_charges_line_brings_takes_its_canonical_place():
    text = f"{MINIMAL_TEXT}\nCharges — Power 4, Range 1, buildings only, two uses\nKeywords: Sensor"
    assert parse_card(text)["keywords"] == ["demolition", "sensor"]


def test_it_refuses_demolition_beside_a_different_charges_weapon():
    text = f"{MINIMAL_TEXT}\nCharges — Power 5, Range 1\nKeywords: Demolition"
    with pytest.raises(CardTextError) as caught:
        parse_card(text)
    assert (caught.value.line, caught.value.field) == (4, "keywords")


def test_it_refuses_a_card_dict_with_only_half_of_demolition():
    with pytest.raises(CardError) as caught:
        validate_card(unit(keywords=["demolition"]))
    assert caught.value.field == "keywords"
    with pytest.raises(CardError) as caught:
        validate_card(unit(weapons=[dict(CHARGES)], keywords=[]))
    assert caught.value.field == "keywords"


# ---------------------------------------------------------------------------------------------
# Refusals: text
# ---------------------------------------------------------------------------------------------

STATS = "Skill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1"

TEXT_ERRORS = [
    # (text, line, field, words in the message)
    ("", 1, "name", "empty"),
    ("\n   \n", 1, "name", "empty"),
    ("Scouts", 2, "stats", "missing the stat line"),
    ("\n\nScouts\n", 4, "stats", "missing the stat line"),
    (
        "Scouts\nSkill 7 · Move 5 · Resistance 1 · Hits 3 · Size 1",
        2,
        "skill",
        "must be 2..5, got 7",
    ),
    ("Scouts\nSkill 1 · Move 5 · Resistance 1 · Hits 3 · Size 1", 2, "skill", "got 1"),
    ("Scouts\nSkill 4.5 · Move 5 · Resistance 1 · Hits 3 · Size 1", 2, "skill", "whole number"),
    (
        "Scouts\nSkill four · Move 5 · Resistance 1 · Hits 3 · Size 1",
        2,
        "skill",
        "expected a number",
    ),
    ("Scouts\nSkill · Move 5 · Resistance 1 · Hits 3 · Size 1", 2, "skill", "missing its value"),
    ("Scouts\nSkill 4 · Move -1 · Resistance 1 · Hits 3 · Size 1", 2, "move", "0..1000 inches"),
    ("Scouts\nSkill 4 · Move 1001 · Resistance 1 · Hits 3 · Size 1", 2, "move", "got 1001"),
    ("Scouts\nSkill 4 · Move 2.1234 · Resistance 1 · Hits 3 · Size 1", 2, "move", "decimal"),
    ("Scouts\nSkill 4 · Move 5 · Resistance -1 · Hits 3 · Size 1", 2, "resistance", "0..99"),
    ("Scouts\nSkill 4 · Move 5 · Resistance 100 · Hits 3 · Size 1", 2, "resistance", "0..99"),
    ("Scouts\nSkill 4 · Move 5 · Resistance 1 · Hits 0 · Size 1", 2, "hits", "1..99, got 0"),
    ("Scouts\nSkill 4 · Move 5 · Resistance 1 · Hits 3 · Size 0", 2, "size", "1..5, got 0"),
    ("Scouts\nSkill 4 · Move 5 · Resistance 1 · Hits 3 · Size 6", 2, "size", "1..5, got 6"),
    ("Scouts\nSkill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1 xyz", 2, "size", "“xyz”"),
    ('Scouts\nSkill 4 · Move 5 · Resistance 1 · Hits 3" · Size 1', 2, "hits", "after the value"),
    ("Scouts\nSkill 4 · Move 5 · Resistance 1 · Hits 3", 2, "size", "missing"),
    ("Scouts\nMove 5 · Resistance 1 · Hits 3 · Size 1", 2, "skill", "missing"),
    (
        "Scouts\nSkill 4 · Skill 3 · Move 5 · Resistance 1 · Hits 3 · Size 1",
        2,
        "skill",
        "duplicate",
    ),
    (f"Scouts\n{STATS} · Armour 3", 2, "stats", "unknown stat “Armour 3”"),
    (f"Scouts\n{STATS} · 3", 2, "stats", "unknown stat “3”"),
    (f"Scouts\nRifles — Power 2, Range 12\n{STATS}", 2, "stats", "unknown stat"),
    (f"Scouts\n{STATS} · Skill 4", 2, "skill", "duplicate"),
    (f"Scouts\n{STATS}\nSkill 4", 3, "card", "unrecognised line"),
    (f"Scouts\n{STATS}\nhello there", 3, "card", "unrecognised line “hello there”"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 12\nEnters: woods\n???", 5, "card", "“???”"),
    (f"Scouts\n{STATS}\nRifles — Range 12", 3, "power", "missing"),
    (f"Scouts\n{STATS}\nRifles — Power 2", 3, "range", "missing"),
    (f"Scouts\n{STATS}\nRifles — Power -1, Range 12", 3, "power", "0..99, got -1"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 0", 3, "range", "more than 0"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range -3", 3, "range", "more than 0"),
    (f"Scouts\n{STATS}\nRifles — Power 2.5, Range 3", 3, "power", "whole number"),
    (f"Scouts\n{STATS}\nRifles — Power 2x, Range 3", 3, "power", "“x”"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Power 3, Range 3", 3, "power", "duplicate"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, Range 4", 3, "range", "duplicate"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, AA, aa", 3, "aa", "duplicate"),
    (
        f"Scouts\n{STATS}\nRifles — Power 2, Range 3, buildings only, building only",
        3,
        "buildings_only",
        "duplicate",
    ),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, one use, two uses", 3, "uses", "duplicate"),
    (
        f"Scouts\n{STATS}\nRifles — Power 2, Range 3, Size 1 only, Size 2",
        3,
        "min_size",
        "duplicate",
    ),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, Size 4–2 only", 3, "min_size", "exceed"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, Size 0–2 only", 3, "min_size", "1..5, got 0"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, Size 1–6 only", 3, "max_size", "1..5, got 6"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, Size big only", 3, "min_size", "expected"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, zero uses", 3, "uses", "1..99, got 0"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, many uses", 3, "uses", "“many”"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, 100 uses", 3, "uses", "got 100"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, armour piercing", 3, "restriction", "armour"),
    (f"Scouts\n{STATS}\n— Power 2, Range 3", 3, "weapon", "missing the weapon's name"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3\nrifles — Power 1, Range 2", 4, "weapon", "dup"),
    (f"Scouts\n{STATS}\nMelee 2\nMelee 3", 4, "melee", "duplicate"),
    (f"Scouts\n{STATS} · Melee 2\nMelee 3", 3, "melee", "duplicate"),
    (f"Scouts\n{STATS}\nMelee", 3, "melee", "missing its value"),
    (f"Scouts\n{STATS}\nMelee -1", 3, "melee", "0..99"),
    (
        f"Scouts\n{STATS}\nRifles — Power 2, Range 3\nMelee 5",
        4,
        "melee",
        "Size 1, so its Melee must be 1..4, got 5",
    ),
    (f"Scouts\n{STATS}\nMelee 2 fists", 3, "melee", "“fists”"),
    (f'Scouts\n{STATS}\nMelee 2"', 3, "melee", "after the value"),
    (f"Scouts\n{STATS}\nKeywords: Flying", 3, "keywords", "unknown keyword “Flying”"),
    (f"Scouts\n{STATS}\nKeywords: Aerial, Hover Tank", 3, "keywords", "“Hover Tank”"),
    (f"Scouts\n{STATS}\nKeywords: Aerial, aerial", 3, "keywords", "duplicate keyword “Aerial”"),
    (f"Scouts\n{STATS}\nKeywords: Aerial\nKeywords: Sensor", 4, "keywords", "duplicate"),
    (f"Scouts\n{STATS}\nEnters: woods\nEnters: water", 4, "enters", "duplicate"),
    (f"Scouts\n{STATS}\nEnters: woods, Woods", 3, "enters", "duplicate terrain kind “woods”"),
    (f"Scouts\n{STATS}\nEnters: woods, 3rd floor", 3, "enters", "lower-case words"),
    (f"Scouts\n{STATS}\nEnters: forêt", 3, "enters", "lower-case words"),
    (f"Scouts\n{STATS}\nEnters: dense_woods", 3, "enters", "lower-case words"),
    (f"Scouts\n{STATS}\nAdmits: Size 1–2", 3, "admits", "building"),
    (f"Scouts\n{STATS}\nBecomes: wreck", 3, "rubble", "building"),
    (f"Scouts\n{STATS}\nRifles — Power 123456789012345, Range 3", 3, "power", "too long"),
    (f"Scouts\n{STATS}\nRifles — Power ٣, Range 3", 3, "power", "expected a number"),
    (f"{'S' * 101}\n{STATS}", 1, "name", "must be at most 100 characters, got 101"),
    (f"Scouts\n{STATS}\n{'R' * 201} — Power 2, Range 3", 3, "weapon", "characters, got 201"),
    (f"Scouts\n{STATS}\nRifles — Power 2, Range 3, ٣ uses", 3, "uses", "expected a number"),
    # buildings
    ("(building)\nResistance 3 · Hits 4\nBecomes: rubble", 1, "name", "empty"),
    ("House (building)", 2, "stats", "missing the stat line"),
    ("House (building)\nResistance 3", 2, "hits", "missing"),
    ("House (building)\nResistance 3 · Hits 0\nBecomes: rubble", 2, "hits", "1..99, got 0"),
    ("House (building)\nResistance -3 · Hits 4\nBecomes: rubble", 2, "resistance", "0..99"),
    ("House (building)\nSkill 3 · Resistance 3 · Hits 4", 2, "skill", "a building has no Skill"),
    ("House (building)\nResistance 3 · Hits 4 · Size 2", 2, "size", "no Size"),
    ("House (building)\nResistance 3 · Hits 4 · Floors 2", 2, "stats", "unknown stat"),
    ("House (building)\nResistance 3 · Hits 4\nAdmits: Size 1–2", 4, "rubble", "missing"),
    ("House (building)\n\nResistance 3 · Hits 4\n\n", 4, "rubble", "Becomes"),
    ("House (building)\nResistance 3 · Hits 4\nBecomes:", 3, "rubble", "empty"),
    ("House (building)\nResistance 3 · Hits 4\nAdmits: infantry", 3, "admits", "expected"),
    ("House (building)\nResistance 3 · Hits 4\nAdmits: Size 3–1", 3, "admits", "exceed"),
    ("House (building)\nResistance 3 · Hits 4\nAdmits: Size 7", 3, "admits", "1..5"),
    ("House (building)\nResistance 3 · Hits 4\nAdmits: Size 1\nAdmits: Size 2", 4, "admits", "dup"),
    ("House (building)\nResistance 3 · Hits 4\nBecomes: a\nBecomes: b", 4, "rubble", "duplicate"),
    ("House (building)\nResistance 3 · Hits 4\nBecomes: " + "r" * 101, 3, "rubble", "at most 100"),
    ("House (building)\nResistance 3 · Hits 4\nKeywords: Aerial", 3, "keywords", 'no "Keywords:"'),
    ("House (building)\nResistance 3 · Hits 4\nEnters: woods", 3, "enters", 'no "Enters:"'),
    ("House (building)\nResistance 3 · Hits 4\nBecomes: rubble\nRoof", 4, "card", "“Roof”"),
]


@pytest.mark.parametrize(("text", "line", "field", "words"), TEXT_ERRORS)
def test_it_names_the_line_and_field_of_bad_text(text, line, field, words):
    with pytest.raises(CardTextError) as caught:
        parse_card(text)
    error = caught.value
    assert (error.line, error.field) == (line, field), str(error)
    assert words in error.message
    assert str(error) == f'line {line}, field "{field}": {error.message}'


def test_it_says_what_is_wrong_in_one_line():
    with pytest.raises(CardTextError) as caught:
        parse_card("Scouts\nSkill 7 · Move 5 · Resistance 1 · Hits 3 · Size 1")
    assert str(caught.value) == 'line 2, field "skill": must be 2..5, got 7'


def test_it_counts_blank_lines_in_line_numbers():
    with pytest.raises(CardTextError) as caught:
        parse_card(f"\nScouts\n\n{STATS}\n\n\nKeywords: Flying")
    assert caught.value.line == 7


def test_it_raises_value_errors_that_survive_pickling():
    with pytest.raises(ValueError) as caught:
        parse_card("Scouts\nSkill 7 · Move 5 · Resistance 1 · Hits 3 · Size 1")
    error = caught.value
    assert isinstance(error, CardTextError) and isinstance(error, CardError)
    copied = pickle.loads(pickle.dumps(error))
    assert (copied.line, copied.field, copied.message) == (error.line, error.field, error.message)
    field_error = pickle.loads(pickle.dumps(CardError("skill", "must be 2..5, got 7")))
    assert str(field_error) == 'field "skill": must be 2..5, got 7'


def test_it_refuses_anything_but_text():
    with pytest.raises(TypeError):
        parse_card(b"Scouts")  # type: ignore[arg-type]
    for given_ in (b"Scouts", None):
        with pytest.raises(TypeError, match=r"^card text must be str, got (bytes|NoneType)$"):
            parse_card(given_)  # type: ignore[arg-type]


def test_a_weapon_refused_only_as_a_whole_card_is_named_on_its_own_line():
    # A buildings-only weapon with a Size restriction passes its own line's checks and is
    # refused by the whole card's; the refusal still names the weapon's line, counting blanks.
    text = (
        f"{MINIMAL_TEXT}\n\nRifles — Power 2, Range 12\n"
        "Mortar — Power 4, Range 10, buildings only, Size 1–2 only"
    )
    with pytest.raises(CardTextError) as caught:
        parse_card(text)
    assert (caught.value.line, caught.value.field) == (5, "min_size")
    assert "buildings-only weapon may have no Size restriction" in caught.value.message


# ---------------------------------------------------------------------------------------------
# Refusals: card dicts
# ---------------------------------------------------------------------------------------------

DICT_ERRORS = [
    # (card, field, words in the message)
    ("not a card", "card", "must be an object"),
    ({k: v for k, v in RIFLE_SQUAD.items() if k != "size"}, "size", "required"),
    (unit(armour=3), "armour", "unknown field"),
    (unit(name=""), "name", "empty"),
    (unit(name=" Scouts"), "name", "spaces"),
    (unit(name="Scouts\nPlatoon"), "name", "one line"),
    (unit(name=3), "name", "string"),
    (unit(name="Old Mill (Building)"), "name", "(building)"),
    (unit(name="S" * 101), "name", "must be at most 100 characters, got 101"),
    (unit(skill=6), "skill", "must be 2..5, got 6"),
    (unit(skill=True), "skill", "got a boolean"),
    (unit(skill=4.0), "skill", "integer"),
    (unit(skill="4"), "skill", "integer, got a string"),
    (unit(move=-0.5), "move", "at least 0"),
    (unit(move=1001), "move", "0..1000 inches"),
    (unit(hits=100), "hits", "1..99"),
    (unit(move=float("nan")), "move", "finite"),
    (unit(move=float("inf")), "move", "finite"),
    (unit(move=0.1 + 0.2), "move", "decimal places"),
    (unit(resistance=-1), "resistance", "at least 0"),
    (unit(hits=0), "hits", "at least 1"),
    (unit(size=0), "size", "1..5"),
    (unit(melee=-1), "melee", "at least 0"),
    (unit(melee=2.5), "melee", "integer"),
    (unit(weapons=None), "weapons", "list"),
    (unit(weapons=["Rifles"]), "weapons[0]", "must be an object"),
    (unit(weapons=[{"name": "Rifles"}]), "weapons[0].power", "required"),
    (unit(weapons=[weapon("Rifles", 2, 12, calibre=5)]), "weapons[0].calibre", "unknown"),
    (unit(weapons=[weapon("", 2, 12)]), "weapons[0].name", "empty"),
    (unit(weapons=[weapon("Keywords: Gun", 2, 12)]), "weapons[0].name", "labelled"),
    (unit(weapons=[weapon("Enters : Gun", 2, 12)]), "weapons[0].name", "labelled"),
    (unit(weapons=[weapon("G" * 201, 2, 12)]), "weapons[0].name", "at most 100 characters"),
    (unit(weapons=[weapon("Gun", -1, 12)]), "weapons[0].power", "at least 0"),
    (unit(weapons=[weapon("Gun", 2, 0)]), "weapons[0].range", "greater than 0"),
    (unit(weapons=[weapon("Gun", 2, 12, aa=1)]), "weapons[0].aa", "true or false"),
    (unit(weapons=[weapon("Gun", 2, 12, buildings_only=None)]), "weapons[0].buildings_only", ""),
    (unit(weapons=[weapon("Gun", 2, 12, min_size=0)]), "weapons[0].min_size", "1..5"),
    (unit(weapons=[weapon("Gun", 2, 12, max_size=9)]), "weapons[0].max_size", "1..5"),
    (
        unit(weapons=[weapon("Gun", 2, 12, min_size=4, max_size=2)]),
        "weapons[0].max_size",
        "at least min_size 4",
    ),
    (unit(weapons=[weapon("Gun", 2, 12, uses=0)]), "weapons[0].uses", "at least 1"),
    (
        unit(weapons=[weapon("Pick", 4, 1, buildings_only=True, max_size=2)]),
        "weapons[0].max_size",
        "may have no Size restriction",
    ),
    (unit(weapons=[weapon("Gun", 2, 12), weapon("GUN", 1, 1)]), "weapons[1].name", "duplicate"),
    (unit(keywords="aerial"), "keywords", "list"),
    (unit(keywords=["flying"]), "keywords[0]", "unknown keyword 'flying'"),
    (unit(keywords=["aerial", "aerial"]), "keywords", "twice"),
    (unit(keywords=["sensor", "aerial"]), "keywords", "canonical order"),
    (unit(enters="woods"), "enters", "list"),
    (unit(enters=["Woods"]), "enters", "lower-case"),
    (unit(enters=["woods\n"]), "enters", "lower-case"),
    (unit(enters=["woods", "woods"]), "enters", "twice"),
    (dict(HOUSE, name=""), "name", "empty"),
    (dict(HOUSE, hits=0), "hits", "at least 1"),
    (dict(HOUSE, resistance=-1), "resistance", "at least 0"),
    (dict(HOUSE, admits={"min_size": 1}), "admits.max_size", "required"),
    (dict(HOUSE, admits={"min_size": 1, "max_size": None}), "admits.max_size", "integer"),
    (dict(HOUSE, admits={"min_size": 3, "max_size": 2}), "admits.max_size", "at least min_size 3"),
    (dict(HOUSE, admits=[1, 2]), "admits", "must be an object"),
    (dict(HOUSE, rubble=""), "rubble", "unknown terrain kind"),
    (dict(HOUSE, rubble="woods"), "rubble", "may not block movement"),
    (dict(HOUSE, floors=2), "floors", "unknown field"),
]


@pytest.mark.parametrize(("card", "field", "words"), DICT_ERRORS)
def test_it_names_the_field_of_a_bad_card_dict(card, field, words):
    with pytest.raises(CardError) as caught:
        validate_card(card)
    assert caught.value.field == field, str(caught.value)
    assert words in caught.value.message


@pytest.mark.parametrize(("card", "field", "words"), DICT_ERRORS[1:])
def test_it_refuses_to_render_a_bad_card(card, field, words):
    with pytest.raises(CardError):
        render_card(card)


def test_it_accepts_the_valid_examples():
    for card in (RIFLE_SQUAD, HOUSE, parse_card(SAPPERS_TEXT), parse_card(MINIMAL_TEXT)):
        validate_card(card)


def test_a_weapons_items_are_what_its_card_line_prints_restrictions_included():
    # The roster prints each weapon's figures and its absolute restrictions, as the card does.
    hmg = {"name": "Heavy Machine Gun", "power": 3, "range": 12, "aa": True}
    assert weapon_items(hmg) == ["Power 3", "Range 12", "AA"]
    rocket = {"name": "Rocket", "power": 5, "range": 8, "min_size": 2, "max_size": 5, "uses": 2}
    assert weapon_items(rocket) == ["Power 5", "Range 8", "Size 2–5 only", "two uses"]
    charges = {"name": "Charges", "power": 4, "range": 1, "buildings_only": True, "uses": 2}
    assert weapon_items(charges) == ["Power 4", "Range 1", "buildings only", "two uses"]


def test_a_refusal_repeats_what_was_given_as_a_card_file_writes_it_never_as_python_does():
    """A name in curly quotes, whichever quotes it holds; a value from a card file by what it
    is in the file ("true", "empty (null)", "a list"), not as Python writes it ("True",
    "None", "['Scouts']")."""
    from units.carddata import CardError, check_name, check_number

    def refusal(check, *args, **kwargs) -> str:
        with pytest.raises(CardError) as refused:
            check(*args, **kwargs)
        return refused.value.message

    assert refusal(check_number, "skill", True) == "must be a number, got true"
    assert refusal(check_number, "skill", None) == "must be a number, got empty (null)"
    assert refusal(check_name, "name", ["Scouts"], kind="unit") == "must be text, got a list"
    assert refusal(check_name, "name", "Holt's\nRaiders", kind="unit") == (
        "must be one line of printable text, got “Holt's\nRaiders”"
    )
    assert refusal(check_name, "name", ' "Raiders"', kind="unit") == (
        'must not start or end with spaces, got “ "Raiders"”'
    )
