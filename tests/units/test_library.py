"""Loading the card library: every file checked first, problems named by file and line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from units.cardtext import parse_card
from units.models import UnitType
from units.services import LIBRARY_DIR, LibraryError, library_load, library_read

pytestmark = pytest.mark.django_db

RIFLES = (
    "Rifle Squad\nSkill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1\nRifles — Power 2, Range 12"
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
    )
    (tmp_path / "terrain.json").write_text(json.dumps(TERRAIN, indent=2))
    return tmp_path


def test_the_sample_library_loads_whole():
    report = library_load()
    cards = sorted(LIBRARY_DIR.rglob("*.card"))
    terrain = json.loads((LIBRARY_DIR / "terrain.json").read_text())
    assert len(report.created) == len(cards) + len(terrain) == UnitType.objects.count()
    for path in cards:
        card = parse_card(path.read_text())
        stored = UnitType.objects.get(ruleset=path.parent.name, name=card["name"])
        assert stored.card == card and stored.source == f"{path.parent.name}/{path.name}"


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
    )
    broken = {**TERRAIN, "wall": {**TERRAIN["woods"], "kind": "wall", "wall": True}}
    (library / "terrain.json").write_text(json.dumps(broken, indent=2))
    with pytest.raises(LibraryError) as refused:
        library_read(root=library)
    found = {(p.path, p.line, p.field) for p in refused.value.problems}
    assert found == {
        ("stray.card", None, "ruleset"),
        ("combined_arms/suit.card", 3, "keywords"),
        ("terrain.json", 11, "wall.wall"),
        ("combined_arms/rifle_squad.card", 1, "name"),
    }


def test_a_broken_terrain_file_is_named_with_its_line(library):
    (library / "terrain.json").write_text('{\n  "woods": {\n    "kind": "woods",\n  }\n}\n')
    with pytest.raises(LibraryError) as refused:
        library_read(root=library)
    (problem,) = refused.value.problems
    assert (problem.path, problem.line, problem.field) == ("terrain.json", 4, "json")


def test_the_command_loads_and_reports(library, capsys):
    call_command("library_load", root=library)
    assert "3 created, 0 updated, 0 unchanged" in capsys.readouterr().out
    shutil.copy(library / "combined_arms" / "rifle_squad.card", library / "rifles.card")
    with pytest.raises(CommandError, match=r"(?s)nothing loaded.*rifles\.card"):
        call_command("library_load", root=library)
