"""The printable cards and sheets: a card in the rule text's layout, saying experience as the unit
page does and a unit out of action as such; a force's or a battle's cards on one sheet, their hit
boxes read in words, a fought battle's as each unit went in and a table battle's as its Orders gave
them; BUCS at the table and the Skill a result is judged by as the unit stands; and the rules card
in a player's plain words."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaign.models import Unit
from campaign.rules.bridge import went_in_text
from campaign.services import unit_edit
from tests.web.campaign_world import login
from tests.web.test_campaign_pages_roster import _url, _words
from units.bucs import Quality, Specialty

pytestmark = pytest.mark.django_db


def test_it_prints_the_card_in_the_rule_texts_layout(client, world):
    unit = Unit.objects.get(pk=world.enemy_unit.pk)
    unit_edit(unit=unit, changes={"status": "ready"}, reason="rallied", actor=world.users["gm"])
    page = login(client, world, "rival").get(_url("unit-card", world, unit.pk)).text
    assert "Mech\nSkill" in _words(page) and "Autocannon — Power 4, Range 12" in _words(page)
    assert "campaign/card.css" in page and "@media print" not in page, "print CSS is a file"


def test_the_card_says_experience_as_the_unit_page_does(client, world):
    unit_edit(unit=world.unit, changes={"quality": "average", "experience": 2}, reason="records",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "player")
    battles = Unit.objects.get(pk=world.unit.pk).battles_fought
    said = f"2 of 4 for the next step ({battles} battle{'s' if battles != 1 else ''})"
    card = client.get(_url("unit-card", world, world.unit.pk)).text
    assert f'<th scope="row">Experience</th><td>{said}</td>' in card
    assert (
        f"<dt>Experience</dt><dd>{said}</dd>" in client.get(_url("unit", world, world.unit.pk)).text
    )


def test_it_shows_a_card_out_of_action_as_such(client, world):
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="gone",
              actor=world.users["gm"])  # fmt: skip
    page = login(client, world, "player").get(_url("unit-card", world, world.unit.pk)).text
    assert "Out of action: destroyed" in page


def test_a_card_out_of_action_tells_no_bucs_at_the_table_nor_a_destroyed_ones_hits(client, world):
    """A unit out of action rolls in no fight at the table: its printable card said how it
    "Fights as Raw … now", and a destroyed one's the hits it died with, where its page says
    "—". The card and the force's sheet now give those blocks to ready units only."""
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "destroyed", "quality": "green",
              "morale_hits": 1, "casualty_hits": 1}, reason="gone", actor=gm)  # fmt: skip
    login(client, world, "player")
    card = client.get(_url("unit-card", world, world.unit.pk)).text
    assert "Out of action: destroyed" in card
    assert "BUCS at the table" not in card and "Fights as" not in card
    assert '<th scope="row">Morale hits</th><td>—</td>' in card
    assert '<th scope="row">Casualty hits</th><td>—</td>' in card
    assert "(fights as" not in card
    retreated, ready = world.force.units.exclude(pk=world.unit.pk)[:2]
    unit_edit(unit=retreated, changes={"status": "retreated", "morale_hits": 1}, reason="routed",
              actor=gm)  # fmt: skip
    unit_edit(unit=ready, changes={"status": "ready"}, reason="rested", actor=gm)
    card = client.get(_url("unit-card", world, retreated.pk)).text
    assert "Out of action: retreated in poor order" in card
    assert "BUCS at the table" not in card
    assert '<th scope="row">Morale hits</th><td>1</td>' in card  # the medics' and R&R's work
    assert "BUCS at the table" in client.get(_url("unit-card", world, ready.pk)).text
    sheet = client.get(_url("force-cards", world, world.force.pk)).text
    cards = {
        name: body
        for body in sheet.split('<article class="unit-card">')[1:]
        for name in re.findall(r"<h2>([^<]+)</h2>", body)[:1]
    }
    assert "BUCS at the table" not in cards[retreated.name]
    assert "BUCS at the table" in cards[ready.name]


def test_the_rules_link_opens_a_players_rules_card_in_plain_words(client, world):
    page = login(client, world, "spectator").get(reverse("home")).text
    assert f'href="{reverse("campaign:rules-card")}">Rules</a>' in page
    card = client.get(reverse("campaign:rules-card")).text
    for words in ("Fights as", "Morale hits", "Casualty hits", "Orders", "Seeds", "Legendary"):
        assert words in card, words
    # Suppression, by ruleset, as the bridge takes it (docs/campaign.md, the bridge's "Shock").
    assert "Each point of Skill a unit lost in a battle is a Morale hit" in card
    assert (
        "Under One Year War the Skill itself is restored after the battle and no step is lost: "
        "only the Morale hits remain, which lower the card until rest heals them" in card
    )
    # Who gives Orders (docs/campaign.md, §6.6).
    assert "a player gives their own units Orders with their own characters" in card
    # The ladder comes from the rules' own table: Legendary sustains seven hits, Raw one.
    assert (
        '<th scope="row">Legendary</th><td class="num">+2 / +2</td><td class="num">7</td>' in card
    )
    assert (
        '<th scope="row">Raw</th><td class="num">\u22122 / \u22122</td>'
        '<td class="num">1</td>' in card
    )
    assert reverse("library:document", args=["rules"]) in card  # for developers, a link


def test_a_force_and_a_battle_print_every_card_on_one_sheet(client, world):
    login(client, world, "player")
    sheet = client.get(_url("force-cards", world, world.force.pk))
    assert sheet.status_code == 200 and "campaign/card.css" in sheet.text
    ready = Unit.objects.filter(force=world.force).exclude(status="destroyed")
    assert sheet.text.count('<article class="unit-card">') == ready.count()
    assert 'class="box box-free"' in sheet.text  # the hits it can still take, to tick off
    assert '<p class="hit-key">Hit boxes:' in sheet.text  # what a hatched or black box means
    # Each card names its unit's specialties (the world's squads are Infantry).
    assert "· Infantry" in sheet.text and "no specialties" not in sheet.text
    battle = client.get(_url("battle-cards", world, world.engine_battle.pk)).text
    assert "Iron Wolf" in battle and "Squad 1" in battle
    roster = client.get(_url("force", world, world.force.pk)).text
    assert _url("force-cards", world, world.force.pk) in roster


def test_a_print_sheets_hit_boxes_are_read_in_words(client, world):
    """A screen reader says nothing of an empty box: each card's boxes are a picture named by
    the hits they show, as the roster's are, and the battle card's own by how many there are
    to tick off (a label on the paragraph around them was never read)."""
    unit = Unit.objects.get(pk=world.unit.pk)
    assert unit.morale_hits == 3 and unit.casualty_hits == 2  # the world's hurt squad
    login(client, world, "player")
    sheet = client.get(_url("force-cards", world, world.force.pk)).text
    cards = sheet.split("<article")[1:]
    squad = next(a for a in cards if f"<h2>{unit.name}</h2>" in a)
    boxes = max(Quality(unit.quality).hits_survived, 5)
    hits = f"3 Morale and 2 Casualty hits of the {boxes} it sustains"
    assert f'Hits: <span role="img" aria-label="{hits}"><span class="box box-morale">' in squad
    fit = next(a for a in cards if "card Hits:" in a)
    card_hits = re.search(r'card Hits: <span role="img" aria-label="(\d+) to tick off">', fit)
    assert card_hits and fit.count('<span class="box"></span>') == int(card_hits[1]) > 0
    assert 'aria-label="Hit boxes"' not in sheet
    roster = client.get(_url("force", world, world.force.pk)).text
    assert f'aria-label="{hits}"' in roster


def test_a_fought_battles_sheet_says_how_each_unit_went_in_not_how_it_stands_now(client, world):
    """Once its outcome is applied, a battle's sheet prints each card as its unit fought with
    it, with the quality and kit it fought at and its Orders going in, and no longer the hits
    the unit carries now; while the outcome awaits review, they are the hits it went in with."""
    from campaign.models import CampaignBattle

    login(client, world, "gm")
    applied = world.engine_battle
    assert applied.state == CampaignBattle.State.APPLIED
    sheet = client.get(_url("battle-cards", world, applied.pk)).text
    squad = next(a for a in sheet.split("<article")[1:] if "<h2>Squad 1</h2>" in a)
    went = applied.orders[str(world.unit.pk)]
    assert f"Red Company · fought as {Quality.of_word(went['quality']).label}, " in squad
    said = went_in_text(went["text"])
    assert f'<p class="went-in">{escape(said[:1].upper() + said[1:])}</p>' in squad
    assert "box-free" not in sheet and "box-casualty" not in sheet  # the hits now: not here
    # The battle card's own, to tick off: the line's first words, so a capital.
    assert '<p class="hit-boxes">Card Hits: <span role="img" aria-label="' in squad
    assert f"day {applied.day}</span>" in sheet
    awaiting = world.table_battle
    assert awaiting.state == CampaignBattle.State.AWAITING
    sheet = client.get(_url("battle-cards", world, awaiting.pk)).text
    assert '<p class="hit-key">Hit boxes:' in sheet and "box-free" in sheet
    assert "· card Hits: <span" in sheet  # after the hits it carries


def test_a_table_battles_sheet_prints_the_cards_its_units_orders_gave_them(client, world):
    # An Average rifle squad with no Order fights with the without-Orders column, −2: its
    # card's Skill 3 is printed at 2 for the battle, as its roster prints it now; a battle
    # fought by the engine (under the set-up's standing Order) would give it 3.
    from campaign.services import unit_create
    from campaign.services.battles import campaign_battle_record

    rifles = world.unit.unit_type
    assert rifles.card["skill"] == 3
    lookouts, pickets = (
        unit_create(force=into, unit_type=rifles, name=name, quality="average")
        for into, name in ((world.force, "Lookouts"), (world.enemy, "Pickets"))
    )
    untouched = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    battle = campaign_battle_record(
        campaign=world.campaign, name="Hedgerow", sides={"a": [lookouts], "b": [pickets]},
        winner=None, outcomes={lookouts.pk: untouched, pickets.pk: untouched},
        actor=world.users["gm"],
    )  # fmt: skip
    login(client, world, "gm")

    def skill_on(sheet, name):
        article = next(a for a in sheet.split("<article")[1:] if f"<h2>{name}</h2>" in a)
        return int(re.search(r"Skill (\d)", article).group(1))

    sheet = client.get(_url("battle-cards", world, battle.pk)).text
    assert (skill_on(sheet, "Lookouts"), skill_on(sheet, "Pickets")) == (2, 2)
    roster = client.get(_url("force", world, world.force.pk))
    lines = {line.unit.name: line for line in roster.context["lines"]}
    assert (lines["Lookouts"].card["skill"], lines["Lookouts"].engine_card["skill"]) == (2, 3)


def test_a_card_and_a_force_sheet_print_bucs_at_the_table_as_the_unit_stands(client, world):
    """For unit-against-unit rolls: the quality table's columns for the quality it fights at
    now (the one it rolls with in bold), its kit's modifier, its Order and giver, and the
    specials of its specialties and kit, signed with a real minus."""
    from campaign.services import unit_create
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    rifles, mech = world.unit.unit_type, world.enemy_unit.unit_type
    raised = {
        name: unit_create(force=world.force, unit_type=card, name=name, **kit)
        for name, card, kit in (
            ("Pathfinders", rifles, {"quality": "experienced", "equipment": "good",
                                     "specialties": ["infantry"]}),
            ("Recruits", rifles, {"quality": "green", "specialties": ["infantry"]}),
            ("Panzers", mech, {"quality": "average", "specialties": ["mechanized", "armor"]}),
            ("Guards", rifles, {"quality": "average", "equipment": "excellent",
                                "specialties": ["infantry"]}),
        )
    }  # fmt: skip
    # One Morale hit: the Experienced Pathfinders fight as Average.
    unit_edit(unit=raised["Pathfinders"], changes={"morale_hits": 1}, reason="shelled", actor=gm)
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    order_give(giver=holt, unit=raised["Pathfinders"], kind="attack", note="Take the ridge",
               actor=gm)  # fmt: skip
    minus = "\u2212"
    expected = {
        "Pathfinders": [
            "Fights as Average, with Good kit (+2).",
            "Quality: <strong>under Orders 0, now</strong> · without Orders "
            f"{minus}2 · assisting a character +3",
            "Order to Attack, under way until",
            ", given by Capt. Holt: Take the ridge",
        ],
        "Recruits": [
            "Fights as Green, with Adequate kit (0).",
            f"Quality: under Orders {minus}4 · <strong>without Orders {minus}6 (cannot act "
            "alone), now</strong> · assisting a character +1",
            "No Order under way.",
        ],
        "Panzers": [
            "<li>Armor: ignores the first two Casualty hits of each battle</li>",
            "<li>Armor: mobility step 2, Mobile +2 a step over its enemy</li>",
        ],
        "Guards": [
            "Fights as Average, with Excellent kit (+4).",
            "<li>Excellent equipment: ignores the first Morale hit against a less well "
            "equipped unit</li>",
        ],
    }
    login(client, world, "gm")
    sheet = client.get(_url("force-cards", world, world.force.pk)).text
    for name, words in expected.items():
        card = client.get(_url("unit-card", world, raised[name].pk)).text
        on_sheet = next(a for a in sheet.split("<article")[1:] if f"<h2>{name}</h2>" in a)
        for page, at in ((card, "<h2>BUCS at the table</h2>"), (on_sheet, "<h3>")):
            block = page[page.index(at) : page.index("</section>")]
            for said in words:
                assert said in block, (name, said)
            assert ("No Order under way." in block) == (name != "Pathfinders"), name


def test_a_printed_card_and_force_sheet_give_the_skill_a_table_result_is_judged_by(client, world):
    """A table battle has no set-up to give a standing Order, so a unit without a character's
    Order under way fights with the without-Orders column: its printable card and its force's
    print sheet print that Skill, the one the table result form checks the Skill lost against,
    and the under-Orders Skill once it has an Order."""
    from django.core.exceptions import ValidationError

    from campaign.services import unit_create
    from campaign.services.battles import campaign_battle_record
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    rifles = world.unit.unit_type  # printed Skill 3
    pickets = unit_create(force=world.force, unit_type=rifles, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    raiders = unit_create(force=world.enemy, unit_type=rifles, name="Raiders",
                          quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")

    def printed() -> tuple[str, str]:
        card = client.get(_url("unit-card", world, pickets.pk)).text
        sheet = client.get(_url("force-cards", world, world.force.pk)).text
        on_sheet = next(a for a in sheet.split("<article")[1:] if "<h2>Pickets</h2>" in a)
        assert "Skill as a battle at the table takes it: under Orders with an Order" in card
        assert "Skill as a battle at the table takes it: under Orders with an Order" in sheet
        return card, on_sheet

    # Average without Orders: −2, a shift of −1: Skill 2, as the table result judges it.
    for page in printed():
        assert "Skill 2 · Move 5" in _words(page)
    with pytest.raises(ValidationError, match="its card's Skill 2 down to 1"):
        campaign_battle_record(
            campaign=world.campaign, name="Night raid", sides={"a": [pickets], "b": [raiders]},
            winner="a", outcomes={pickets.pk: {"hits_lost": 0, "skill_lost": 2},
                                  raiders.pk: {"hits_lost": 0, "skill_lost": 0}},
            actor=gm,
        )  # fmt: skip
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    order_give(giver=holt, unit=pickets, kind="attack", actor=gm)
    for page in printed():
        assert "Skill 3 · Move 5" in _words(page)


def test_the_rules_card_gives_the_skill_with_and_without_an_order_and_how_a_retreat_can_end(
    client, world
):
    """The bridge shifts a card's Skill by the quality's modifier under Orders when the unit
    goes in with one, without Orders when not (Average 0 or −1, Green −1 or −2): the rules card
    gives both columns. A unit retreated in poor order rallies by R&R, unless the Casualty hits
    that die when the medics' 24 hours are over are more than its steps: the card says both."""
    card = login(client, world, "player").get(reverse("campaign:rules-card")).text
    minus = "\u2212"
    # Every step: Skill under an Order / without, hits it sustains, specialties it may hold,
    # experience for the next step, and whether training lifts it (docs/campaign.md §1.1, §1.5).
    rows = {
        "Raw": (f"{minus}2", f"{minus}2", "1", "0", "1", "—"),
        "Green": (f"{minus}1", f"{minus}2", "2", "1", "2", "yes"),
        "Inexperienced": (f"{minus}1", f"{minus}1", "3", "1", "3", "yes"),
        "Average": ("0", f"{minus}1", "4", "2", "4", "yes"),
        "Experienced": ("+1", "0", "5", "2", "5", "—"),
        "Elite": ("+1", "+1", "6", "3", "6", "—"),
        "Legendary": ("+2", "+2", "7", "4", "—", "—"),
    }
    for quality, (ordered, alone, hits, specialties, experience, train) in rows.items():
        assert (
            f'<th scope="row">{quality}</th><td class="num">{ordered} / {alone}</td>'
            f'<td class="num">{hits}</td><td class="num">{specialties}</td>'
            f'<td class="num">{experience}</td><td>{train}</td>' in card
        ), quality
    assert "a unit whose leader dies takes 2 Morale hits at once" in card
    assert (
        "Out of action until a day of R&amp;R rallies it, once its Morale hits no longer take it "
        "below Raw. Each Casualty hit the medics have not saved when their 24 hours are over "
        "dies and takes a step for good; more of them than it has steps destroy it." in card
    )


def test_a_unit_without_a_leader_is_never_said_to_assist_its_leader(client, world):
    """The printable card of a unit nobody leads (the demo's Aid Post) listed "assisting its
    leader +3" among its quality columns. The column is the one BUCS gives a unit assisting a
    character, and its card names it so."""
    # Ready, as a unit out of action has no "BUCS at the table" (the battle may have left it so).
    unit_edit(unit=world.unit, changes={"status": "ready", "morale_hits": 0, "casualty_hits": 0},
              reason="rested", actor=world.users["gm"])  # fmt: skip
    login(client, world, "player")
    card = client.get(_url("unit-card", world, world.unit.pk)).text
    block = card[card.index("<h2>BUCS at the table</h2>") : card.index("</section>")]
    assert "its leader" not in block
    assert " · assisting a character " in block


def test_the_rules_card_says_what_each_rating_of_kit_and_each_specialty_does(client, world):
    """A roster names each unit's equipment and specialties ("Excellent equipment · Mechanized,
    Armor"): the rules card says what each does, from the BUCS tables the rules read, and the
    roster's legend links there."""
    card = unescape(login(client, world, "player").get(reverse("campaign:rules-card")).text)
    minus = "\u2212"
    lost = "Mechanized and Armor units lose their mobility: in an engagement they count as on foot."
    rows = {
        "Poor": (f"{minus}4", lost),
        "Barely Adequate": (f"{minus}2", lost),
        "Adequate": ("0", "—"),
        "Good": ("+2", "—"),
        "Excellent": ("+4", "Ignores its first Morale hit from a less well equipped enemy."),
    }
    for kit, (modifier, does) in rows.items():
        assert (
            f'<tr><th scope="row">{kit}</th><td class="num">{modifier}</td><td>{does}</td></tr>'
            in card
        ), kit
    # Nothing the campaign does not do: no unit is "heavy", so none loses an extra hit.
    assert "heavy" not in card
    for specialty in Specialty:
        assert (
            f'<dt id="specialty-{specialty.value}">{specialty.label}</dt><dd>{specialty.rule}</dd>'
            in card
        ), specialty
    assert "in a battle set up here it deploys outside its side's deployment zone too" in card
    roster = client.get(_url("force", world, world.force.pk)).text
    for part in ("equipment", "specialties"):
        assert f'href="{reverse("campaign:rules-card")}#{part}"' in roster
    # A unit's page links its kit and each of its specialties to what they do.
    page = client.get(_url("unit", world, world.unit.pk)).text
    rules = reverse("campaign:rules-card")
    assert f'<dt>Equipment</dt><dd><a href="{rules}#equipment">Adequate</a></dd>' in page
    assert f'<dt>Specialties</dt><dd><a href="{rules}#specialty-infantry">Infantry</a>' in page
