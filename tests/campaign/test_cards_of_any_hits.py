"""A unit on a card whose Hits do not divide 6 (a 4-Hit or 5-Hit card written for a campaign's
library: no shipped card prints one), taken out: its blows are held to 6 BUCS hits, one fewer
than a Legendary unit survives, whether the outcome is applied, reverted or read on its page."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from campaign.models import HistoryEntry
from campaign.rules.damage import CARD_MOST_BUCS_HITS, UnitOutcome
from campaign.rules.state import Status
from campaign.services import outcome_apply, outcome_revert, unit_create
from campaign.services.orders import clock_advance
from units.bucs import Quality
from units.cardtext import parse_card
from units.models import Ruleset, UnitType

Kind = HistoryEntry.Kind

WALKER = "Walker\nSkill 4 · Move 4 · Resistance 5 · Hits 5 · Size 4\nAutocannon — Power 4, Range 12"
"""A 5-Hit card, as a GM might add it to the library."""


@pytest.fixture
def walker_card(cards):
    card = parse_card(WALKER)
    return UnitType.objects.create(
        name=card["name"], ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.UNIT, card=card
    )


def _legendary(force, unit_type, name):
    return unit_create(force=force, unit_type=unit_type, name=name, quality="legendary",
                       specialties=["mechanized"])  # fmt: skip


# Seed 916: the 4-Hit Mech card's four blows roll 5, 6, 6 and 5, 2 BUCS hits each, 8 in all;
# held to 6, split by 6, 4, 4, 4, 4 and 4: 6 Casualty hits. Seed 153: the 5-Hit Walker's roll
# 6, 1, 2, 6 and 6, 8 in all; held to 6, split by 4, 4, 6, 6, 6 and 5: 6 Casualty hits.
CASES = [
    ("Mech", 4, 916, "5, 6, 6 and 5", "6, 4, 4, 4, 4 and 4"),
    ("Walker", 5, 153, "6, 1, 2, 6 and 6", "4, 4, 6, 6, 6 and 5"),
]


@pytest.mark.parametrize(("card", "hits", "seed", "blows", "splits"), CASES,
                         ids=["four_hits", "five_hits"])  # fmt: skip
def test_a_unit_taken_out_on_a_card_whose_hits_do_not_divide_six_takes_at_most_six_bucs_hits(
    client, campaign, force, cards, walker_card, card, hits, seed, blows, splits
):
    unit_type = walker_card if card == "Walker" else cards[card]
    unit = _legendary(force, unit_type, "Atlas")
    created = unit.state.to_json()
    taken_out = {unit.pk: UnitOutcome(hits, 0, "destroyed")}
    entries = outcome_apply(campaign=campaign, outcomes=taken_out, reason="Weir", seed=seed)
    (battle,) = [e for e in entries if e.kind == Kind.BATTLE]
    said = (
        f"Taken out at Weir: took 6 Casualty hits — {hits} of {hits} Hits lost; a d6 "
        f"for each Hit lost rolled {blows}, divided by the card's {hits} Hits, rounded up, 8 in "
        f"all, held to 6, the most a card's blows deal: 6 BUCS hits, a d6 each rolled {splits} "
        "(Casualty on 4 or more)"
    )
    assert battle.text.startswith(said)
    assert battle.details["damage"]["split"] == [0, CARD_MOST_BUCS_HITS]
    unit.refresh_from_db()
    assert unit.status == Status.RETREATED
    assert (unit.quality, unit.casualty_hits) == (Quality.LEGENDARY, 6)

    client.force_login(campaign.gm)
    url = reverse("campaign:unit", args=[campaign.pk, unit.pk])
    page = client.get(url)
    # The page says what the hits left the unit before the working.
    told = said.replace("hits — ", "hits; retreated in poor order — ", 1)
    assert page.status_code == 200 and f"{told}.</li>" in html.unescape(page.text)

    # Reverted, it is the unit it was, and its page says so.
    outcome_revert(entries=entries, reason="wrong report")
    unit.refresh_from_db()
    assert unit.state.to_json() == created
    page = client.get(url)
    assert page.status_code == 200
    assert "Wrong report: the battle of day 1, Weir, is undone" in html.unescape(page.text)

    # Applied again and left to the 24 hours: the 6 dead take six of its seven steps.
    outcome_apply(campaign=campaign, outcomes=taken_out, reason="Weir", seed=seed)
    clock_advance(campaign=campaign, hours=25)
    unit.refresh_from_db()
    assert unit.status != Status.DESTROYED
    assert (unit.quality, unit.casualty_hits) == (Quality.RAW, 0)
    page = client.get(url)
    assert page.status_code == 200
    assert "6 Casualty hits not saved within 24 hours died" in html.unescape(page.text)
