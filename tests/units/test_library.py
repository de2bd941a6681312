"""Loading the card library: every file checked first, problems named by file and line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from units.cardfile import split_specialty_line
from units.cardtext import parse_card
from units.models import UnitType
from units.services import (
    LIBRARY_DIR,
    LibraryError,
    library_load,
    library_read,
)

pytestmark = pytest.mark.django_db

RIFLES = (
    "Rifle Squad\nSkill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1\nRifles — Power 2, Range 12\n"
    "Specialty: Infantry"
)
TERRAIN = {
    "woods": {
        "kind": "woods",
        "blocks_movement": True,
        "blocks_sight": True,
        "hazard": False,
        "wall": False,
        "water": False,
        "why": "trees",
    }
}


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A small library: one card per ruleset, one terrain type."""
    (tmp_path / "combined_arms").mkdir()
    (tmp_path / "one_year_war").mkdir()
    (tmp_path / "combined_arms" / "rifle_squad.card").write_text(RIFLES + "\n")
    (tmp_path / "one_year_war" / "suit.card").write_text(
        "Line Suit\nSkill 3 · Move 5 · Resistance 4 · Hits 2 · Size 3\nKeywords: Sensor\n"
        "Specialty: Mechanized\n"
    )
    (tmp_path / "terrain.json").write_text(json.dumps(TERRAIN, indent=2))
    return tmp_path


def test_the_sample_library_loads_whole():
    report = library_load()
    cards = sorted(LIBRARY_DIR.rglob("*.card"))
    terrain = json.loads((LIBRARY_DIR / "terrain.json").read_text())
    assert len(report.created) == len(cards) + len(terrain) == UnitType.objects.count()
    for path in cards:
        text, _ = split_specialty_line(path.read_text())
        card = parse_card(text)
        stored = UnitType.objects.get(ruleset=path.parent.name, name=card["name"])
        assert stored.card == card and stored.source == f"{path.parent.name}/{path.name}"


NEEDS = {
    "Rifle Squad": "infantry", "Heavy Weapons Team": "infantry", "Assault Engineers": "infantry",
    "Mech": "mechanized", "Expendable Mech": "mechanized", "Recon Vehicle": "mechanized",
    "Medium Tank": "armor", "Attack Chopper": "aviation",
    "Federation Line Suit": "mechanized", "Principality Line Suit": "mechanized",
    "Principality Commander Suit": "mechanized", "Amphibious Assault Suit": "mechanized",
    "Federation Tank": "armor", "Principality Tank": "armor",
    "Federation Fighter": "aviation", "Principality Fighter": "aviation",
    "Federation Carrier": "aviation",
}  # fmt: skip


def test_every_library_unit_card_names_the_specialty_its_unit_needs():
    library_load()
    units = UnitType.objects.filter(kind=UnitType.Kind.UNIT)
    assert {u.name: u.specialty for u in units} == NEEDS
    assert set(
        UnitType.objects.filter(kind=UnitType.Kind.BUILDING).values_list("specialty", flat=True)
    ) == {""}


def test_a_unit_card_without_its_specialty_or_with_an_unknown_one_is_a_problem(library):
    (library / "combined_arms" / "rifle_squad.card").write_text(
        RIFLES.replace("Specialty: Infantry", "")
    )
    (library / "one_year_war" / "suit.card").write_text(
        "Line Suit\nSkill 3 · Move 5 · Resistance 4 · Hits 2 · Size 3\nSpecialty: Cavalry\n"
    )
    (library / "combined_arms" / "house.card").write_text(
        "House (building)\nResistance 3 · Hits 4\nAdmits: Size 1–2\nBecomes: rubble field\n"
        "Specialty: Infantry\n"
    )
    with pytest.raises(LibraryError) as refused:
        library_read(root=library)
    found = {(p.path, p.line, p.field) for p in refused.value.problems}
    assert found == {
        ("combined_arms/rifle_squad.card", None, "specialty"),
        ("one_year_war/suit.card", 3, "specialty"),
        ("combined_arms/house.card", 5, "specialty"),
    }


def test_loading_twice_changes_nothing(library):
    first = library_load(root=library)
    rows = list(UnitType.objects.values())
    second = library_load(root=library)
    assert (len(first.created), second.created, second.updated) == (3, [], [])
    assert len(second.unchanged) == 3
    assert list(UnitType.objects.values()) == rows


def test_loading_again_updates_a_changed_card_and_keeps_a_removed_one(library):
    library_load(root=library)
    (library / "combined_arms" / "rifle_squad.card").write_text(
        RIFLES.replace("Skill 3", "Skill 4")
    )
    (library / "one_year_war" / "suit.card").unlink()
    report = library_load(root=library)
    assert report.updated == ["Rifle Squad"] and report.not_in_library == ["Line Suit"]
    assert UnitType.objects.get(name="Rifle Squad").card["skill"] == 4


def test_a_bad_card_stops_the_whole_load_naming_file_line_and_field(library):
    (library / "combined_arms" / "tank.card").write_text(
        "Tank\nSkill 4 · Move 6 · Resistance 3 · Hits 1 · Size 3\nMain Gun — Power 4, Range x\n"
    )
    with pytest.raises(LibraryError) as refused:
        library_load(root=library)
    (problem,) = refused.value.problems
    assert (problem.path, problem.line, problem.field) == ("combined_arms/tank.card", 3, "range")
    assert str(problem).startswith('combined_arms/tank.card, line 3, field "range": ')
    assert not UnitType.objects.exists()


def test_it_reports_every_problem_at_once(library):
    (library / "stray.card").write_text(RIFLES)
    (library / "combined_arms" / "copy.card").write_text(RIFLES)
    (library / "combined_arms" / "suit.card").write_text(
        "Sea Suit\nSkill 3 · Move 5 · Resistance 4 · Hits 2 · Size 3\nKeywords: Amphibious\n"
        "Specialty: Mechanized\n"
    )
    broken = {**TERRAIN, "wall": {**TERRAIN["woods"], "kind": "wall", "wall": True}}
    (library / "terrain.json").write_text(json.dumps(broken, indent=2))
    with pytest.raises(LibraryError) as refused:
        library_read(root=library)
    found = {(p.path, p.line, p.field) for p in refused.value.problems}
    assert found == {
        ("stray.card", None, "ruleset"),
        ("combined_arms/suit.card", 3, "keywords[0]"),
        ("terrain.json", 11, "wall.wall"),
        ("combined_arms/rifle_squad.card", 1, "name"),
    }


def test_nothing_a_building_falls_into_blocks_movement(library):
    # The engine's own rule (E38 in docs/rules.md): rubble never blocks movement, and a building
    # becomes nothing that does, for its occupants stand in it after the fall.
    (library / "combined_arms" / "house.card").write_text(
        "House (building)\nResistance 3 · Hits 4\nAdmits: Size 1–2\nBecomes: woods\n"
    )
    heaps = {**TERRAIN["woods"], "kind": "rubble", "why": "heaps"}
    (library / "terrain.json").write_text(json.dumps({**TERRAIN, "rubble field": heaps}, indent=2))
    with pytest.raises(LibraryError) as refused:
        library_read(root=library)
    found = {(p.path, p.field): p.message for p in refused.value.problems}
    assert set(found) == {
        ("combined_arms/house.card", "rubble"),
        ("terrain.json", "rubble field.blocks_movement"),
    }
    assert found["combined_arms/house.card", "rubble"].startswith(
        "what a building becomes may not block movement, and 'woods' does"
    )
    assert found["terrain.json", "rubble field.blocks_movement"].startswith(
        "rubble does not block movement"
    )


def test_a_broken_terrain_file_is_named_with_its_line(library):
    (library / "terrain.json").write_text('{\n  "woods": {\n    "kind": "woods",\n  }\n}\n')
    with pytest.raises(LibraryError) as refused:
        library_read(root=library)
    (problem,) = refused.value.problems
    assert (problem.path, problem.line, problem.field) == ("terrain.json", 4, "json")


def test_a_name_too_long_to_store_stops_the_load_naming_its_field(library):
    (library / "combined_arms" / "rifle_squad.card").write_text(
        RIFLES.replace("Rifle Squad", "S" * 101)
    )
    (library / "combined_arms" / "tank.card").write_text(
        RIFLES.replace("Rifle Squad", "Tank").replace("Rifles", "R" * 201)
    )
    (library / "combined_arms" / "house.card").write_text(
        f"House (building)\nResistance 3 · Hits 4\nBecomes: {'r' * 101}\n"
    )
    (library / "terrain.json").write_text(json.dumps({"w" * 101: TERRAIN["woods"]}, indent=2))
    with pytest.raises(LibraryError) as refused:
        library_load(root=library)
    assert [str(p) for p in refused.value.problems] == [
        'combined_arms/house.card, line 3, field "rubble": must be at most 100 characters, got 101',
        'combined_arms/rifle_squad.card, line 1, field "name": '
        "must be at most 100 characters, got 101",
        'combined_arms/tank.card, line 3, field "weapon": must be at most 100 characters, got 201',
        'terrain.json, line 2, field "name": must be at most 100 characters, got 101',
    ]
    assert not UnitType.objects.exists()


def test_a_terrain_kind_or_a_path_too_long_to_store_stops_the_load(library):
    # A kind over the names' limit, in a card's Enters line and in terrain.json, and a file
    # whose path is wider than the column that keeps it as the card's source.
    woods = {**TERRAIN["woods"], "kind": "w" * 101}
    (library / "terrain.json").write_text(json.dumps({"woods": woods}, indent=2))
    (library / "combined_arms" / "rifle_squad.card").write_text(
        RIFLES.replace("Rifles —", f"Enters: {'w' * 101}\nRifles —")
    )
    deep = library / "combined_arms" / ("d" * 100) / ("e" * 100)
    deep.mkdir(parents=True)
    (deep / "tank.card").write_text(RIFLES)
    with pytest.raises(LibraryError) as refused:
        library_load(root=library)
    path = f"combined_arms/{'d' * 100}/{'e' * 100}/tank.card"
    assert [str(p) for p in refused.value.problems] == [
        f'{path}, field "file": its path is longer than 200 characters',
        'combined_arms/rifle_squad.card, line 3, field "enters": '
        "a terrain kind is at most 100 characters, got 101",
        'terrain.json, line 2, field "woods.kind": a terrain kind is at most 100 characters, '
        "got 101",
    ]
    assert not UnitType.objects.exists()


def test_a_broken_library_folder_is_named_file_by_file_and_loads_nothing(library):
    library_load(root=library)
    rows = list(UnitType.objects.values())
    (library / "combined_arms" / "rifle_squad.card").write_text(
        RIFLES.replace("Skill 3", "Skill 4")
    )
    (library / "combined_arms" / "folder.card").mkdir()
    (library / "combined_arms" / "gone.card").symlink_to(library / "nowhere")
    (library / "combined_arms" / os.fsdecode(b"m\xfcller.card")).write_text(RIFLES)
    (library / "one_year_war" / "suit.card").write_bytes(b"Line Suit \xb7 Mk II\n")
    (library / "terrain.json").write_bytes(b'{"w\xf6ods": {}}')
    with pytest.raises(LibraryError) as refused:
        library_load(root=library)
    assert [str(p) for p in refused.value.problems] == [
        'combined_arms/folder.card, field "card": cannot read it: Is a directory',
        'combined_arms/gone.card, field "card": cannot read it: No such file or directory',
        'combined_arms/m\\xfcller.card, field "file": its name is not UTF-8',
        'one_year_war/suit.card, field "card": not UTF-8 text',
        'terrain.json, field "terrain": not UTF-8 text',
    ]
    assert list(UnitType.objects.values()) == rows


@pytest.mark.parametrize(
    ("terrain", "problem"),
    [
        (None, 'terrain.json, field "terrain": cannot read it: Is a directory'),
        ("link", 'terrain.json, field "terrain": cannot read it: No such file or directory'),
        ("[" * 100_000, 'terrain.json, field "json": nested too deep to read'),
        ('{"woods": 1' + "0" * 5000 + "}", 'terrain.json, field "json": a number too long to read'),
        ("[]", 'terrain.json, line 1, field "terrain": must map names to terrain'),
        (
            '{"woods": []}',
            'terrain.json, line 1, field "woods.terrain": must be a mapping, got list',
        ),
    ],
)
def test_a_broken_terrain_file_is_a_problem_not_a_crash(library, terrain, problem):
    (library / "terrain.json").unlink()
    if terrain is None:
        (library / "terrain.json").mkdir()
    elif terrain == "link":
        (library / "terrain.json").symlink_to(library / "nowhere.json")
    else:
        (library / "terrain.json").write_text(terrain)
    with pytest.raises(LibraryError) as refused:
        library_load(root=library)
    assert [str(p) for p in refused.value.problems] == [problem]
    assert not UnitType.objects.exists()


def test_a_missing_library_folder_is_a_problem_not_an_empty_library(library):
    library_load(root=library)
    rows = list(UnitType.objects.values())
    for root in (library / "nowhere", library / "terrain.json"):
        with pytest.raises(LibraryError) as refused:
            library_load(root=root)
        assert [str(p) for p in refused.value.problems] == [
            f'{root}, field "folder": no such folder'
        ]
    assert list(UnitType.objects.values()) == rows


def test_the_command_loads_and_reports(library, capsys):
    call_command("library_load", root=library)
    assert "3 created, 0 updated, 0 unchanged" in capsys.readouterr().out
    shutil.copy(library / "combined_arms" / "rifle_squad.card", library / "rifles.card")
    with pytest.raises(CommandError, match=r"(?s)nothing loaded.*rifles\.card"):
        call_command("library_load", root=library)
