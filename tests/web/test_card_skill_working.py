"""A printed card's Skill with its working: the GM at the table can trace it to the BUCS tables."""

from __future__ import annotations

import html
import re

from django.urls import reverse

from campaign.models import Unit
from campaign.services import unit_create
from tests.web.campaign_world import login


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_the_printed_cards_say_how_their_skill_comes_from_the_library_card(client, world):
    """The printable card, the force's print sheet and the unit's page printed a Rifle Squad
    at Skill 2 beside a library card of Skill 3, and nothing said why: the quality's column
    without Orders (Average −2) ÷ 4, rounded away from zero, is −1. Each says it now."""
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                       quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    working = (
        "Skill 2: the card's 3, shifted by Average without Orders (−2) and Adequate kit (0): "
        "−2 ÷ 4 = −0.5, rounded half away from zero to −1."
    )
    for where, url in {
        "card": _url("unit-card", world, unit.pk),
        "unit page": _url("unit", world, unit.pk),
        "print sheet": _url("force-cards", world, world.force.pk),
    }.items():
        text = re.sub(r"\s+", " ", html.unescape(client.get(url).text))
        assert working in text, where


def test_a_printed_cards_text_keeps_each_item_whole_and_reads_as_the_card():
    """The printed card's ``<pre>`` keeps each stat and weapon item in a span that does not
    break; without its tags it is the card's text to the letter."""
    from campaign.pages.cards import card_html, card_text
    from units.cardtext import parse_card

    card = parse_card(
        "Assault Engineers\nSkill 2 · Move 5 · Resistance 1 · Hits 1 · Size 1\n"
        "Carbines — Power 2, Range 8\nCharges — Power 4, Range 1, buildings only, two uses\n"
        "Keywords: Sure-Footed, Demolition"
    )
    printed = str(card_html(card))
    assert re.sub(r"<[^>]+>", "", html.unescape(printed)) == card_text(card)
    assert '<span class="nowrap">Hits 1 ·</span> <span class="nowrap">Size 1</span>' in printed
    assert 'Charges — <span class="nowrap">Power 4,</span>' in printed
    assert '<span class="nowrap">two uses</span>' in printed


def test_a_printed_card_says_what_its_leader_gives_and_risks(client, world):
    """A led unit's card said "led by Lt. Reyes" and no more: nothing of the assisting column
    the character's checks take, the 3d6 each Casualty hit costs the character, or the 2 Morale
    hits its death costs the unit. The card and the force's print sheet say it; a unit nobody
    leads says nothing of a leader."""
    unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                quality="average", specialties=["infantry"],
                leader={"name": "Lt. Reyes", "hit_points": 14})  # fmt: skip
    lone = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Pickets",
                       quality="average", specialties=["infantry"])  # fmt: skip
    led = Unit.objects.get(name="Sentries")
    login(client, world, "player")
    said = (
        "Led by Lt. Reyes: it assists Lt. Reyes' checks (+3, the assisting column). Lt. Reyes "
        "takes 3d6 for each Casualty hit it suffers, none for Morale hits; should Lt. Reyes "
        "die, it takes 2 Morale hits at once."
    )
    card = html.unescape(client.get(_url("unit-card", world, led.pk)).text)
    assert said in card
    sheet = html.unescape(client.get(_url("force-cards", world, world.force.pk)).text)
    on_sheet = {a.split("</h2>", 1)[0]: a for a in sheet.split("<h2>")[1:]}
    assert said in on_sheet["Sentries"] and "Led by" not in on_sheet["Pickets"]
    assert "Led by" not in client.get(_url("unit-card", world, lone.pk)).text


def test_a_battles_print_sheet_says_how_each_cards_skill_came_and_its_bucs_at_the_table(
    client, world
):
    """A battle's own print sheet printed each card it fought with and no more: not how its
    Skill came from the library card's, nor the unit's BUCS numbers for the table, which a
    unit's printed card and a force's sheet carry. It says both, as the unit went in: an
    Average squad without Orders at Skill 2 beside the library card's 3, the without-Orders
    column the one it fought with."""
    sentries = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                           quality="average", specialties=["infantry"])  # fmt: skip
    pickets = unit_create(force=world.enemy, unit_type=world.unit.unit_type, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    text = _sentries_battle_sheet(client, world, sentries, pickets)
    assert (
        "Skill 2: the card's 3, shifted by Average without Orders (−2) and Adequate kit (0): "
        "−2 ÷ 4 = −0.5, rounded half away from zero to −1."
    ) in text, text
    assert "BUCS at the table" in text
    assert "Fought as Average, with Adequate kit (0)." in text, text
    assert "without Orders −2, in the battle" in text, text
    assert "No Order under way." not in text, text


def test_a_led_units_battle_sheet_marks_the_column_its_battle_skill_came_from(client, world):
    """A led squad's battle sheet said "Skill 2: …, shifted by Average without Orders (−2)…"
    and then marked "assisting a character +3, in the battle": the column of its leader's
    checks, not the one the battle read. The column its Skill came from is the one marked."""
    led = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                      quality="average", specialties=["infantry"],
                      leader={"name": "Lt. Reyes", "hit_points": 14})  # fmt: skip
    pickets = unit_create(force=world.enemy, unit_type=world.unit.unit_type, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    text = _sentries_battle_sheet(client, world, led, pickets)
    assert "shifted by Average without Orders (−2)" in text, text
    assert "without Orders −2, in the battle" in text, text
    assert "+3, in the battle" not in text, text
    # Its printable card, as it stands now, still marks the column its leader's checks take.
    now = html.unescape(client.get(_url("unit-card", world, led.pk)).text)
    assert "assisting a character +3, now" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", now))


def _sentries_battle_sheet(client, world, sentries, pickets):
    """The text of the Sentries' card on the sheet of a battle they fought the Pickets in."""
    from campaign.services.battles import campaign_battle_record

    battle = campaign_battle_record(
        campaign=world.campaign, name="Night at the ford", winner="attackers",
        sides={"attackers": [sentries], "defenders": [pickets]},
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (sentries, pickets)},
        actor=world.users["gm"],
    )  # fmt: skip
    login(client, world, "gm")
    sheet = html.unescape(client.get(_url("battle-cards", world, battle.pk)).text)
    card = next(a for a in sheet.split("<article")[1:] if "<h2>Sentries</h2>" in a)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", card))
