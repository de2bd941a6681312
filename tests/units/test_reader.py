"""The documents as a player or GM reads them on the site: the rules without the developer's
columns, asides and sentences about code and tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from units.reader import is_developer_code, reader_view

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_it_tells_code_from_the_rules_words():
    for code in ("shared/design/bucs.md", "CampaignUnitState", "casualty_hits", "bridge.going_in",
                 "test_quick.py::test_it", "Dice.fixed([...])"):  # fmt: skip
        assert is_developer_code(code), code
    for word in ("hold", "attack", "rubble", "Specialty:", "2d6"):
        assert not is_developer_code(word), word


def test_it_drops_the_test_and_code_columns_and_the_asides_that_point_at_code():
    source = (
        "# Title\n\nUnits keep their state (`campaign/rules/state.py`). Rules are pure functions"
        " over a `CampaignUnitState`. Each rule has its test.\n\n"
        "| Rule | In the code | Test |\n|---|---|---|\n"
        "| Raw units hold (see [§4](#4-rulings)). | `units.bucs.fielded` | `test_a.py::test_b` |\n"
    )
    shown = reader_view(source)
    assert "Units keep their state." in shown
    assert "CampaignUnitState" not in shown and "pure functions" not in shown
    assert "test" not in shown.lower()
    assert "| Rule |" in shown and "In the code" not in shown
    assert "| Raw units hold (see [§4](#4-rulings)). |" in shown  # a link in an aside stays


def test_the_served_campaign_document_speaks_to_players_and_gms():
    shown = reader_view((DOCS / "campaign.md").read_text(encoding="utf-8"))
    for developer in ("shared/design/bucs.md", "CampaignUnitState", "campaign/rules/state.py",
                      "casualty_hits", "::", "## 3. Services"):  # fmt: skip
        assert developer not in shown, developer
    assert "### 1.1 The bridge, going in (second edition)" in shown
    assert "Effective quality = quality step − outstanding Morale and Casualty hits" in shown


def test_the_served_rules_keep_every_section_a_player_needs():
    shown = reader_view((DOCS / "rules.md").read_text(encoding="utf-8"))
    for heading in ("### Shooting", "### Buildings", "## 4. Rulings added by the engine"):
        assert heading in shown
    assert "| Sentence | In the engine |" in shown and "tests/engine" not in shown


@pytest.mark.parametrize("name", ["campaign.md", "rules.md"])
def test_every_section_a_served_document_points_to_is_one_it_shows(name):
    """The campaign rules sent a reader to "§3" for "Specialties are kept when quality falls",
    a rule of §1.6; and §3 is the code's section, which the served page leaves out."""
    shown = reader_view((DOCS / name).read_text(encoding="utf-8"))
    sections = set(re.findall(r"^#+\s+(\d+(?:\.\d+)*)\.?\s", shown, re.M))
    assert set(re.findall(r"§\s?(\d+(?:\.\d+)*)", shown)) <= sections


def test_the_served_sections_are_numbered_in_order_and_pointed_to_by_their_new_numbers():
    """With the code's sections left out, the campaign rules' contents read "1.", then "5." and
    "6.": the sections a reader is shown are numbered again from 1, and each "§" that points to
    one says its new number."""
    source = (
        "# Title\n\n## 1. Rules\n\nSee §3.2 and §3.\n\n### 1.1 One\n\nWords.\n\n"
        "## 2. History\n\nThe code's.\n\n## 3. BUCS\n\nWords (§1.1).\n\n"
        "### 3.2 Two\n\nWords.\n"
    )
    shown = reader_view(source)
    assert [h for h in shown.splitlines() if h.startswith("#")] == [
        "# Title", "## 1. Rules", "### 1.1 One", "## 2. BUCS", "### 2.2 Two",
    ]  # fmt: skip
    assert "See §2.2 and §2." in shown and "Words (§1.1)." in shown
    campaign = reader_view((DOCS / "campaign.md").read_text(encoding="utf-8"))
    tops = re.findall(r"^## (\d+)\. ", campaign, re.M)
    assert tops == [str(n) for n in range(1, len(tops) + 1)], tops


def test_the_served_rules_title_promises_no_test_the_page_leaves_out():
    shown = reader_view((DOCS / "rules.md").read_text(encoding="utf-8"))
    assert shown.startswith("# Team Bravo in the engine — every rule\n")
    headings = [line for line in shown.splitlines() if line.startswith("#")]
    assert not [h for h in headings if re.search(r"\btests?\b", h)]
