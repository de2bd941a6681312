"""The campaign's reading pages: dashboard, roster (sorted, htmx), unit story, printable card."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaign.models import Campaign, CampaignBattle, Unit
from campaign.pages.attention import HeldInBattle
from campaign.rules.bridge import went_in_text
from campaign.services import unit_create, unit_edit
from campaign.services.battles import campaign_battle_apply, campaign_battle_record
from tests.web.campaign_world import login
from tests.web.paging import add_notes, link
from units.bucs import Quality

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _words(html: str) -> str:
    """A page's words without its tags (the roster keeps each item of a card in a span)."""
    return re.sub(r"<[^>]+>", "", html)


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_it_shows_the_dashboard_with_day_forces_battles_and_what_needs_attention(client, world):
    unit = Unit.objects.filter(force=world.force, status="ready").first() or world.unit
    unit_edit(unit=unit, changes={"status": "retreated"}, reason="routed", actor=world.users["gm"])
    page = login(client, world, "player").get(_url("dashboard", world)).text
    assert f"Day <strong>{world.campaign.day}</strong>" in page
    assert "Red Company" in page and "Blue Battalion" in page
    assert "Skirmish at the mill" in page and "Red Company won" in page
    assert "Crossroads" in page
    # An outcome awaiting review is the GM's to do, never a player's or a spectator's.
    assert "Skirmish at the mill" in page and "awaiting the GM's review" not in page
    watching = login(client, world, "spectator").get(_url("dashboard", world)).text
    assert "awaiting the GM's review" not in watching and "no outcome awaits review" not in (
        watching
    )
    assert f"{unit.name}</a> (Red Company): Retreated in poor order" in page
    assert "Advance the calendar" not in page, "a player has no GM panel"
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    assert "Advance the calendar" in page
    # When the dead die, as `recovery.time_passes` has it: past the 24 hours, not at midnight.
    assert (
        "Each midnight is a day of R&amp;R. Casualty hits the medics have not saved die once the "
        "clock is past the 24 hours after their fight." in page
    )


def test_it_prints_each_units_next_battle_card_on_the_roster(client, world, django_user_model):
    unit_edit(
        unit=world.unit,
        changes={"status": "ready", "quality": "experienced", "morale_hits": 0, "casualty_hits": 0},
        reason="test",
        actor=world.users["gm"],
    )
    response = login(client, world, "player").get(_url("force", world, world.force.pk))
    lines = {line.unit.pk: line for line in response.context["lines"]}
    # The card a real table prints, without Orders: Experienced, the card's Skill 3 + 0; a
    # battle fought by the engine gives it the standing Order's column, + 1, and says so.
    assert lines[world.unit.pk].card["skill"] == 3
    assert lines[world.unit.pk].engine_card["skill"] == 4
    assert "Skill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1" in _words(response.text)
    assert "In a battle fought by the engine: Skill 4, not 3" in response.text
    assert "Infantry" in response.text


def test_it_sorts_the_roster_by_a_query_parameter_and_swaps_only_the_table_under_htmx(
    client, world, settings
):
    settings.PAGE_CACHE_SECONDS = 0  # every fetch drawn afresh, so each has its context
    login(client, world, "gm")
    url = _url("force", world, world.force.pk)
    for sort in ("quality", "-quality", "experience", "-name", "skill", "casualty"):
        names = [line.unit.name for line in client.get(url, {"sort": sort}).context["lines"]]
        assert len(names) == world.force.units.count()
    by_name = [line.unit.name for line in client.get(url, {"sort": "name"}).context["lines"]]
    backwards = [line.unit.name for line in client.get(url, {"sort": "-name"}).context["lines"]]
    assert by_name == sorted(by_name) and backwards == sorted(by_name, reverse=True)
    assert client.get(url, {"sort": "bogus"}).context["sort"] == "name"
    partial = client.get(url, {"sort": "-quality"}, **HTMX)
    assert partial.status_code == 200
    assert "<table" in partial.text and "<html" not in partial.text
    assert "HX-Request" in partial["Vary"]
    assert 'aria-sort="descending"' in partial.text


def test_a_roster_of_numbered_squads_reads_in_their_numbers_order(client, world, settings):
    # Thirty squads numbered in order: Squad 2 comes after Squad 1, not after Squad 19.
    settings.PAGE_CACHE_SECONDS = 0
    for n in range(3, 13):  # Squads 1 and 2 are there already
        unit_create(force=world.force, unit_type=world.unit.unit_type, name=f"Squad {n}")
    login(client, world, "player")
    url = _url("force", world, world.force.pk)
    numbers = [f"Squad {n}" for n in range(1, 13)]
    for sort, expected in (("name", numbers), ("-name", numbers[::-1])):
        lines = client.get(url, {"sort": sort}).context["lines"]
        assert [ln.unit.name for ln in lines if ln.unit.name.startswith("Squad ")] == expected, sort
    page = client.get(url).text
    assert page.index(">Squad 9<") < page.index(">Squad 10<")


def test_a_name_with_digits_of_any_script_sorts_without_failing():
    from campaign.pages.names import name_order

    # "²" is a digit to str.isdigit but no number to int(); Arabic-Indic digits are numbers.
    names = ["Squad ²", "Squad 10", "Squad ٣", "Squad 2"]
    assert sorted(names, key=name_order) == ["Squad 2", "Squad ٣", "Squad 10", "Squad ²"]


def test_the_destroyed_come_after_every_unit_still_on_the_books_whatever_the_sort(
    client, world, settings
):
    # On a phone the roster is read top down: the units a player can still field come first.
    settings.PAGE_CACHE_SECONDS = 0
    first = min(world.force.units.all(), key=lambda u: u.name.lower())
    unit_edit(unit=first, changes={"status": "destroyed"}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "player")
    url = _url("force", world, world.force.pk)
    for sort in ("name", "-name", "status", "-status", "quality", "-experience"):
        lines = client.get(url, {"sort": sort}).context["lines"]
        gone = [line.unit.status == "destroyed" for line in lines]
        assert gone == sorted(gone) and gone[-1], sort  # the living, then the destroyed
    names = [line.unit.name for line in client.get(url).context["lines"]]
    living = sorted((u.name for u in world.force.units.exclude(pk=first.pk)), key=str.lower)
    assert names == [*living, first.name]


def test_it_shows_another_players_force_only_in_summary_when_the_gm_says_so(client, world):
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    page = login(client, world, "rival").get(_url("force", world, world.force.pk)).text
    assert "only a summary of this force" in page
    assert world.unit.name not in page
    own = client.get(_url("force", world, world.enemy.pk)).text
    assert world.enemy_unit.name in own


def test_it_tells_a_units_history_as_a_story(client, world):
    unit_edit(unit=world.unit, changes={"experience": 2}, reason="records found",
              actor=world.users["gm"])  # fmt: skip
    page = login(client, world, "player").get(_url("unit", world, world.unit.pk)).text
    assert "<strong>Day 1:</strong> Raised in Red Company" in page
    # What it has, toward its next step: Inexperienced needs 3 to rise to Average.
    assert (
        "GM correction: records found: has 2 of the 3 experience points it needs to rise to "
        "Average." in page
    )
    battle = _url("battle", world, world.engine_battle.pk)
    # The battle, linked to its page; taken out is not dead (the bridge, second edition).
    assert f'<a href="{battle}">Taken out at Crossroads</a>' in page
    # Plain words, not a diff of fields.
    assert "in the combat zone no → yes" not in page and "last battle on day" not in page


def _patrol(world, name=""):
    """Kane's Squad (Red Company) against Pickets (Blue Battalion), fought as an engagement:
    (engagement, red, blue)."""
    from campaign.services.engagements import engagement_run

    card = world.unit.unit_type
    red, blue = (
        unit_create(force=force, unit_type=card, name=called, specialties=["infantry"])
        for force, called in ((world.force, "Kane's Squad"), (world.enemy, "Pickets"))
    )
    engagement = engagement_run(
        campaign=world.campaign,
        sides={"attackers": [red], "defenders": [blue]},
        name=name,
        seed=1,
        actor=world.users["gm"],
    )
    return engagement, red, blue


def test_a_units_history_links_each_engagement_it_fought_to_its_page(client, world):
    engagement, red, _ = _patrol(world, "Patrol at the ford")
    page = login(client, world, "spectator").get(_url("unit", world, red.pk)).text
    fight = _url("engagement", world, engagement.pk)
    assert f'<strong>Day 1:</strong> <a href="{fight}">Patrol at the ford</a>: ' in page
    assert "Patrol at the ford: " not in page  # every mention of it is the link


def test_a_fights_link_on_a_units_page_is_its_name_kept_as_data_whatever_it_holds(client, world):
    """A fight's name is the link on the unit's page, read from the entry's data rather than
    cut at its sentence's first ": ": an engagement named "Raid: Dawn", one named by a unit
    called "Recon: Alpha", and a battle named "Raid: Dawn" the unit was taken out at, each with
    its experience entry. An entry saved before it kept the name is read by its sentence
    (`history.fight_lead`)."""
    from campaign.models import HistoryEntry
    from campaign.services.battles import campaign_battle_apply, campaign_battle_record
    from campaign.services.engagements import engagement_run

    engagement, red, _ = _patrol(world, "Raid: Dawn")
    fight = _url("engagement", world, engagement.pk)
    page = login(client, world, "spectator").get(_url("unit", world, red.pk)).text
    assert f'<strong>Day 1:</strong> <a href="{fight}">Raid: Dawn</a>: took ' in page
    assert f'<a href="{fight}">Raid: Dawn</a>: earned 1 experience point' in page
    assert ">Raid</a>" not in page

    card, gm = world.unit.unit_type, world.users["gm"]
    recon = unit_create(force=world.force, unit_type=card, name="Recon: Alpha",
                        specialties=["infantry"])  # fmt: skip
    scouts = unit_create(force=world.enemy, unit_type=card, name="Scouts",
                         specialties=["infantry"])  # fmt: skip
    unnamed = engagement_run(campaign=world.campaign, seed=1, actor=gm,
                             sides={"attackers": [recon], "defenders": [scouts]})  # fmt: skip
    page = client.get(_url("unit", world, recon.pk)).text
    fight = _url("engagement", world, unnamed.pk)
    assert f'<a href="{fight}">Engagement, Recon: Alpha against Scouts</a>: ' in page

    sentries, raiders = (
        unit_create(force=force, unit_type=card, name=called, specialties=["infantry"])
        for force, called in ((world.force, "Sentries"), (world.enemy, "Raiders"))
    )
    taken_out = {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"}
    battle = campaign_battle_record(
        campaign=world.campaign, name="Raid: Dawn", actor=gm, winner="Blue",
        sides={"Red": [sentries], "Blue": [raiders]},
        outcomes={sentries.pk: taken_out, raiders.pk: {"hits_lost": 0, "skill_lost": 0}},
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    link = _url("battle", world, battle.pk)
    page = client.get(_url("unit", world, sentries.pk)).text
    assert f'<a href="{link}">Taken out at Raid: Dawn</a>: took ' in page
    page = client.get(_url("unit", world, raiders.pk)).text
    assert f'<a href="{link}">Raid: Dawn</a>: came through unhurt' in page
    assert f'<a href="{link}">Raid: Dawn</a>: earned 2 experience points' in page

    # Saved before an entry kept the fight's name: its sentence is all there is to read.
    HistoryEntry.objects.filter(unit=red, kind="engagement").update(details={
        "engagement": engagement.pk})  # fmt: skip
    page = client.get(_url("unit", world, red.pk)).text
    fight = _url("engagement", world, engagement.pk)
    assert f'<strong>Day 1:</strong> <a href="{fight}">Raid: Dawn</a>: ' in page


def test_a_fight_named_like_how_a_unit_left_one_is_cut_at_the_name_its_entry_keeps(client, world):
    """A battle named "Taken out at Dawn" (and an engagement so named): a unit taken out there
    reads "Taken out at Taken out at Dawn", one that came through "Taken out at Dawn", the name
    as each entry keeps it as data, not cut at the first "Taken out at " or ": " of its
    sentence (`history.fight_lead`, `history.fight_said`)."""
    from campaign.models import HistoryEntry
    from campaign.rules.history import fight_said, told_why
    from campaign.services.battles import campaign_battle_apply, campaign_battle_record

    card, gm = world.unit.unit_type, world.users["gm"]
    sentries, raiders = (
        unit_create(force=force, unit_type=card, name=called, specialties=["infantry"])
        for force, called in ((world.force, "Sentries"), (world.enemy, "Raiders"))
    )
    taken_out = {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"}
    battle = campaign_battle_record(
        campaign=world.campaign, name="Taken out at Dawn", actor=gm, winner="Blue",
        sides={"Red": [sentries], "Blue": [raiders]},
        outcomes={sentries.pk: taken_out, raiders.pk: {"hits_lost": 0, "skill_lost": 0}},
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    link = _url("battle", world, battle.pk)
    login(client, world, "spectator")
    page = client.get(_url("unit", world, sentries.pk)).text
    assert f'<a href="{link}">Taken out at Taken out at Dawn</a>: took ' in page
    page = client.get(_url("unit", world, raiders.pk)).text
    assert f'<a href="{link}">Taken out at Dawn</a>: came through unhurt' in page
    assert f'<a href="{link}">Taken out at Dawn</a>: earned 2 experience points' in page
    said = {
        entry.unit_id: fight_said(entry.kind, entry.details,
                                  told_why(entry.text, entry.before, entry.after))
        for entry in HistoryEntry.objects.filter(kind="battle", unit__in=[sentries, raiders])
    }  # fmt: skip
    assert said[sentries.pk][0] == "Taken out at Taken out at Dawn"
    assert said[sentries.pk][1].startswith("took ")
    assert said[raiders.pk] == ("Taken out at Dawn", "came through unhurt")
    engagement, red, _ = _patrol(world, "Taken out at Dawn")
    page = client.get(_url("unit", world, red.pk)).text
    fight = _url("engagement", world, engagement.pk)
    assert f'<a href="{fight}">Taken out at Dawn</a>: took ' in page


def test_an_engagements_page_links_each_unit_its_reader_sees_in_full(client, world):
    engagement, red, blue = _patrol(world)
    url = _url("engagement", world, engagement.pk)
    page = login(client, world, "spectator").get(url).text
    for unit in (red, blue):
        assert f'<li><a href="{_url("unit", world, unit.pk)}">{escape(unit.name)}</a>' in page
    # Where the GM shows other players only a summary, the rival's unit is named, not opened.
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    page = login(client, world, "player").get(url).text
    assert f'<li><a href="{_url("unit", world, red.pk)}">' in page
    assert _url("unit", world, blue.pk) not in page and "<li>Pickets" in page


def test_an_engagements_line_up_gives_a_shaken_units_own_quality_and_what_it_fights_as(
    client, world
):
    """An Elite unit that goes in with a Morale hit fights as Experienced: the line-up says
    both, as its page does, so the GM reading "+4" in its rolls sees why it is not +4 Elite's."""
    from campaign.services.engagements import engagement_run

    card = world.unit.unit_type
    gm = world.users["gm"]
    veterans = unit_create(force=world.force, unit_type=card, name="Veterans",
                           quality="elite", specialties=["infantry"])  # fmt: skip
    unit_edit(unit=veterans, changes={"morale_hits": 1}, reason="shaken", actor=gm)
    pickets = unit_create(force=world.enemy, unit_type=card, name="Pickets",
                          specialties=["infantry"])  # fmt: skip
    sides = {"attackers": [veterans], "defenders": [pickets]}
    engagement = engagement_run(campaign=world.campaign, sides=sides, seed=1, actor=gm)
    page = login(client, world, "gm").get(_url("engagement", world, engagement.pk)).text
    assert "Veterans</a> (Elite, fights as Experienced)" in page
    assert "Pickets</a> (Average)," in page or "Pickets</a> (Average)<" in page


def test_a_reverted_entry_is_struck_through(client, world):
    from campaign.services.battles import campaign_battle_revert

    campaign_battle_revert(
        campaign_battle=world.engine_battle, reason="wrong map", actor=world.users["gm"]
    )
    page = login(client, world, "player").get(_url("unit", world, world.unit.pk)).text
    assert '<li class="reverted"><del><strong>Day 1:</strong>' in page
    assert "(undone since)" in page
    # The revert says what it undid, naming the battle (the link), then what it gave back.
    battle = _url("battle", world, world.engine_battle.pk)
    assert (
        f'Wrong map: the battle of day 1, <a href="{battle}">Crossroads</a>, is undone: back to '
        "Average, ready, no hits, 0 battles fought, no Skill lost." in page
    )
    assert "undoes day 1" not in page and '">Battle</a>: Wrong map' not in page


def test_a_reverts_battle_link_is_kept_as_data_not_found_in_its_sentence(client, world):
    """The revert keeps what it undid as data: the battle's name it said is the link wherever
    its reason says the name too, and after the battle is renamed."""
    from campaign.models import CampaignBattle
    from campaign.services.battles import campaign_battle_revert

    campaign_battle_revert(campaign_battle=world.engine_battle, actor=world.users["gm"],
                           reason="not fought at Hill 3, Crossroads, but at the ford")  # fmt: skip
    CampaignBattle.objects.filter(pk=world.engine_battle.pk).update(name="Elm Ford")
    page = login(client, world, "player").get(_url("unit", world, world.unit.pk)).text
    battle = _url("battle", world, world.engine_battle.pk)
    assert (
        "Not fought at Hill 3, Crossroads, but at the ford: the battle of day 1, "
        f'<a href="{battle}">Crossroads</a>, is undone: back to Average' in page
    )


def test_a_revert_saved_before_it_kept_data_still_links_its_battle(client, world):
    """A revert saved with its sentence alone (no ``undid``) is read as before: the battle's
    name in it is the link."""
    from campaign.models import HistoryEntry
    from campaign.services.battles import campaign_battle_revert

    campaign_battle_revert(
        campaign_battle=world.engine_battle, reason="wrong map", actor=world.users["gm"]
    )
    HistoryEntry.objects.filter(kind=HistoryEntry.Kind.REVERT).update(details={})
    page = login(client, world, "player").get(_url("unit", world, world.unit.pk)).text
    battle = _url("battle", world, world.engine_battle.pk)
    assert f'Wrong map: the battle of day 1, <a href="{battle}">Crossroads</a>, is undone' in page


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


def test_it_has_no_inline_scripts_or_handlers(client, world):
    login(client, world, "gm")
    urls = [
        _url("dashboard", world),
        _url("force", world, world.force.pk),
        _url("unit", world, world.unit.pk),
        _url("unit-card", world, world.unit.pk),
        _url("battle-setup", world),
        _url("battle-record", world),
        _url("battle", world, world.engine_battle.pk),
        _url("battle", world, world.table_battle.pk),
    ]
    for url in urls:
        page = client.get(url).text
        assert "<script>" not in page and " onclick=" not in page and " onchange=" not in page


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


def test_the_roster_and_unit_page_explain_bucs_in_place(client, world):
    login(client, world, "player")
    for url in (_url("force", world, world.force.pk), _url("unit", world, world.unit.pk)):
        page = client.get(url).text
        assert "What these words mean" in page and "Casualty hits</dt>" in page, url
    roster = client.get(_url("force", world, world.force.pk)).text
    assert 'class="pips" role="img"' in roster and "of the" in roster


def test_the_roster_keys_its_hit_boxes_in_words_once(client, world):
    """The boxes beside each status are told in words under the roster, once, not only to a
    screen reader; the rules card says the same words."""
    roster = login(client, world, "player").get(_url("force", world, world.force.pk)).text
    key = (
        '<p class="hit-key">Hit boxes beside each status: <span class="pips" aria-hidden="true">'
        '<span class="pip pip-morale"></span></span> a Morale hit, <span class="pips" '
        'aria-hidden="true"><span class="pip pip-casualty"></span></span> a Casualty hit, '
        '<span class="pips" aria-hidden="true"><span class="pip pip-free"></span></span> a hit '
        "the unit can still take.</p>"
    )
    assert roster.count(key) == 1
    assert roster.index("</table>") < roster.index(key)  # under the roster
    card = client.get(reverse("campaign:rules-card")).text
    assert (
        key.removeprefix('<p class="hit-key">Hit boxes beside each status: ').removesuffix("</p>")
        in card
    )


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


def test_a_battle_awaiting_review_stays_on_the_gms_list_behind_ten_newer_ones(client, world):
    # The mill's outcome still awaits the GM when ten more battles have been fought since: it
    # is still the GM's to do, as the campaigns list counts it, if no longer among the latest.
    from campaign.services.battles import campaign_battle_apply, campaign_battle_record

    gm = world.users["gm"]
    unit, enemy = (Unit.objects.get(pk=u.pk) for u in (world.unit, world.enemy_unit))
    fresh = {"status": "ready", "morale_hits": 0, "casualty_hits": 0}
    for one in (unit, enemy):
        unit_edit(unit=one, changes=fresh, reason="rallied", actor=gm)
    for n in range(10):
        sides = {"Red": [Unit.objects.get(pk=unit.pk)], "Blue": [Unit.objects.get(pk=enemy.pk)]}
        none = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
        later = campaign_battle_record(
            campaign=world.campaign, name=f"Patrol {n}", sides=sides, winner=None,
            outcomes={unit.pk: none, enemy.pk: none}, actor=gm,
        )  # fmt: skip
        campaign_battle_apply(campaign_battle=later, actor=gm)
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    assert "<strong>Skirmish at the mill</strong>: its outcome awaits your review." in page
    assert "Nothing waits on you" not in page
    assert "1 battle awaiting your review" in client.get(reverse("campaign:list")).text


def test_every_page_has_a_skip_link_and_says_done_in_words(client, world):
    login(client, world, "gm")
    page = client.get(_url("dashboard", world)).text
    assert '<a class="skip-link" href="#main">Skip to the content</a>' in page
    assert '<main id="main"' in page
    response = client.post(_url("unit-zone", world, world.enemy_unit.pk), {"in_combat_zone": "no"})
    done = client.get(response["Location"]).text
    assert '<strong class="notice-word">Done:</strong>' in done  # not by its colour alone


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


def test_a_long_history_shows_its_latest_entries_and_pages_through_each_once(client, world):
    from campaign.selectors.entries import UNIT_STORY_PAGE
    from campaign.services.battles import campaign_battle_revert

    gm = world.users["gm"]
    campaign_battle_revert(campaign_battle=world.engine_battle, reason="wrong map", actor=gm)
    world.campaign.day = 9
    world.campaign.save(update_fields=["day"])
    count = 2 * UNIT_STORY_PAGE + 30
    add_notes(world.unit, [1 + n * 9 // count for n in range(count)])
    # A change of hits deep in the history, its sentence read from what came before it.
    unit_edit(unit=world.unit, changes={"morale_hits": 2}, reason="shelled", actor=gm)
    total = world.unit.history.count()
    login(client, world, "player")
    url = _url("unit", world, world.unit.pk)
    first = client.get(url).text
    assert f"Entries {total - UNIT_STORY_PAGE + 1} to {total} of {total}, newest first." in first
    assert "Raised in Red Company" not in first and link(first, "Later entries") is None
    assert "GM correction: shelled: now carries 2 Morale hits" in first
    pages, at = [first], link(first, "Earlier entries")
    while at:
        pages.append(client.get(at).text)
        at = link(pages[-1], "Earlier entries")
    assert len(pages) == 3 and "Raised in Red Company" in pages[-1]
    notes = [int(n) for page in pages for n in re.findall(r"</strong> Note (\d+)\.", page)]
    assert notes == list(range(count))[::-1]  # each once, newest first
    # The struck-through marks hold on an earlier page too; the charts still span the campaign.
    assert "(undone since)" in pages[-1] and "Day 1 to day 9" in pages[-1]
    back = client.get(link(pages[-1], "Later entries")).text
    assert re.findall(r"Note \d+\.", back) == re.findall(r"Note \d+\.", pages[1])


def test_a_units_history_is_newest_first_numbered_from_its_latest_entry(client, world):
    """One order on every screen, the server's: the latest entry first, numbered as its place
    in the whole history counting down, the words above and the pager saying so."""
    from campaign.selectors.entries import UNIT_STORY_PAGE

    count = 2 * UNIT_STORY_PAGE + 10
    add_notes(world.unit, [1] * count)
    total = world.unit.history.count()
    login(client, world, "player")
    first = client.get(_url("unit", world, world.unit.pk)).text
    latest = total - UNIT_STORY_PAGE + 1
    assert f"Entries {latest} to {total} of {total}, newest first." in first
    assert f'<ol class="story" reversed start="{total}"' in first
    notes = [int(n) for n in re.findall(r"</strong> Note (\d+)\.", first)]
    assert notes == list(range(count - 1, count - 1 - UNIT_STORY_PAGE, -1))
    middle = client.get(link(first, "Earlier entries")).text
    assert f"to {latest - 1} of {total}, newest first." in middle
    assert f'<ol class="story" reversed start="{latest - 1}"' in middle
    # Its pager leads first to the later entries, as the list runs from them.
    pager = middle.split('aria-label="History pages">')[1].split("</nav>")[0]
    assert pager.index("Later entries") < pager.index("Earlier entries")
    # The raising, entry 1, closes the earliest page.
    earliest = client.get(link(middle, "Earlier entries")).text
    story = earliest.split('<ol class="story"')[1].split("</ol>")[0]
    assert "Entries 1 to " in earliest
    assert story.rindex("Raised in Red Company") > story.rindex("</strong> Note 0.")


@pytest.mark.parametrize("query", ["?before=abc", "?before=-3", "?before=1", "?before=9" * 12])
def test_a_bad_page_of_a_units_history_shows_its_latest(client, world, query):
    login(client, world, "player")
    page = client.get(_url("unit", world, world.unit.pk) + query)
    assert page.status_code == 200 and "Raised in Red Company" in page.text


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


def test_the_unit_page_shows_the_printed_card_and_the_engines_where_they_differ(client, world):
    """The unit page's card for the next battle is the one its printable card prints (no
    standing Order at a table); where a battle fought by the engine, whose set-up gives a
    standing Order, would give it another card, that one is beside it with what changes."""
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    pickets = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("unit", world, pickets.pk)).text
    shown, engine = page.split('id="card-engine"')
    assert "The card its" in shown and "prints, for a battle at a real table" in shown
    assert "Skill 2 · Move 5" in _words(shown) and "Skill 3 · Move 5" not in _words(shown)
    assert "In a battle fought by the engine: Skill 3, not 2</summary>" in engine
    assert "Skill 3 · Move 5" in engine
    # With an Order under way the two agree: one card, no second one.
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    order_give(giver=holt, unit=pickets, kind="attack", actor=gm)
    page = client.get(_url("unit", world, pickets.pk)).text
    assert "Skill 3 · Move 5" in _words(page) and 'id="card-engine"' not in page


def test_the_roster_shows_the_printed_cards_and_says_where_the_engines_differ(client, world):
    """The force page's roster gives each unit the card its printable card prints, as its
    page does (no standing Order at a table); where a battle fought by the engine would give
    it another card, its row says what changes, in the unit page's words. Sorted by Skill,
    it goes by the printed Skill."""
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    pickets = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    order_give(giver=holt, unit=pickets, kind="attack", actor=gm)
    # Raised after the Pickets: by the engine's card, Skill 3 both, it would follow them.
    sentries = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                           quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    assert (
        'Roster<span class="caption-note"> — each unit\'s card as its printable card prints it. '
        "Skill as a battle at the "
        "table takes it: under Orders with an Order under way, else without Orders"
    ) in page
    assert "as a battle fought by the engine gives them" not in page

    def row(name):
        return page.split(f">{name}</a>", 1)[1].split("</tr>", 1)[0]

    def words(name):
        return _words(row(name))

    assert '<td class="num" data-label="Skill">2</td>' in row(sentries.name)
    assert "Skill 2 · Move 5" in words(sentries.name)
    assert "Skill 3 · Move 5" not in words(sentries.name)
    assert '<br><span class="small">In a battle fought by the engine: Skill 3, not 2</span>' in row(
        sentries.name
    )
    # Under an Order the two agree: one card, nothing said beside it.
    assert '<td class="num" data-label="Skill">3</td>' in row(pickets.name)
    assert "Skill 3 · Move 5" in words(pickets.name)
    assert "In a battle fought by the engine" not in row(pickets.name)
    for sort, first, then in (("skill", sentries, pickets), ("-skill", pickets, sentries)):
        page = client.get(_url("force", world, world.force.pk) + f"?sort={sort}").text
        assert page.index(f">{first.name}</a>") < page.index(f">{then.name}</a>"), sort


def test_the_roster_says_when_the_engines_card_applies_and_says_it_after_the_printed_one(
    client, world
):
    """A player reading the roster between sessions met "In a battle fought by the engine:
    Skill 3, not 2" with nothing saying what the engine is, set between the printed card's
    numbers and its weapons, so the weapons read as the engine's. The caption says that a
    battle set up here is the one the engine fights, and the line comes after the whole
    printed card; a roster whose cards all agree says nothing of it."""
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    sentries = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                           quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    caption = page.split("<caption>", 1)[1].split("</caption>", 1)[0]
    assert (
        "A battle set up here is fought by the engine: where that changes a unit's card, its "
        "row says how, after the card." in caption
    )
    row = page.split(f">{sentries.name}</a>", 1)[1].split("</tr>", 1)[0]
    card = row.split('data-label="Card for the next battle">', 1)[1]
    assert card.index("Rifles —") < card.index("In a battle fought by the engine: Skill 3, not 2")
    # Each under an Order, every card agrees with the engine's: nothing to explain.
    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    for unit in Unit.objects.filter(force=world.force, status="ready"):
        order_give(giver=holt, unit=unit, kind="attack", actor=gm)
    page = client.get(_url("force", world, world.force.pk)).text
    assert "In a battle fought by the engine" not in page
    assert "is fought by the engine" not in page


def test_the_rosters_caption_is_a_title_in_bold_and_its_explanation_in_the_pages_weight(
    client, world
):
    """The roster's caption, a table's bold title, carried the whole of how its cards read
    Skill: on a phone six lines of bold before the first unit. "Roster" keeps the bold; what
    follows is read at the page's own weight."""
    from tests.web.test_dark_mode import STATIC, _rules

    page = login(client, world, "player").get(_url("force", world, world.force.pk)).text
    caption = page.split("<caption>", 1)[1].split("</caption>", 1)[0]
    assert caption.startswith(
        'Roster<span class="caption-note"> — each unit\'s card as its printable card prints it. '
        "Skill as a battle at the table takes it:"
    )
    assert caption.endswith("</span>")
    weights = {
        selector: declared["font-weight"]
        for _, selector, declared in _rules((STATIC / "campaign/campaign.css").read_text())
        if "font-weight" in declared
    }
    assert weights.get(".roster caption .caption-note") == "400"


def test_the_roster_prints_a_cards_melee_keywords_and_terrain_as_its_printable_card_does(
    client, world
):
    """The roster says each unit's card is the one its printable card prints, but it left out
    the card's Melee, Keywords and the terrain it enters: a Mech with Melee 6 read on the
    roster as having none. They follow its weapons, in the printable card's words."""
    from units.cardtext import parse_card
    from units.models import Ruleset, UnitType

    text = (
        "Breacher\nSkill 3 · Move 4 · Resistance 5 · Hits 2 · Size 4\n"
        "Autocannon — Power 5, Range 18\nMelee 6\nKeywords: Breaching\nEnters: woods"
    )
    breacher = UnitType.objects.create(
        name="Breacher", ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.UNIT,
        card=parse_card(text),
    )  # fmt: skip
    unit = unit_create(force=world.force, unit_type=breacher, name="Ram", quality="average",
                       specialties=["mechanized"])  # fmt: skip
    login(client, world, "player")
    card = client.get(_url("unit", world, unit.pk) + "card/").text
    assert "Melee 6" in card and "Keywords: Breaching" in card and "Enters: woods" in card
    page = client.get(_url("force", world, world.force.pk)).text
    row = page.split(">Ram</a>", 1)[1].split("</tr>", 1)[0]
    stats = row.split('data-label="Card for the next battle">', 1)[1]
    assert "Autocannon —" in stats
    assert "<br>Melee 6<br>Keywords: Breaching<br>Enters: woods" in stats
    assert stats.index("Autocannon —") < stats.index("Melee 6")


def test_the_rosters_card_reads_as_the_printable_card_and_breaks_only_between_its_items(
    client, world
):
    """At 1280 px the roster's card broke its stat line anywhere ("· Hits 2 · Size 4" began a
    line), printed "Rifles: Power 2" where the printable card prints "Rifles — Power 2", and on
    a phone its cell was labelled "Next card" under a column headed "Card for the next
    battle". Its lines are the printable card's, each stat kept whole with the dot after it,
    and its label is the column's."""
    sentries = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                           quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    printed = client.get(_url("unit-card", world, sentries.pk)).text
    card_text = _words(printed.split('<pre class="card-text">', 1)[1].split("</pre>", 1)[0])
    assert '<th scope="col">Card for the next battle</th>' in page
    assert "Next card" not in page
    row = page.split(">Sentries</a>", 1)[1].split("</tr>", 1)[0]
    cell = row.split('<td class="card-stats" data-label="Card for the next battle">', 1)[1]
    cell = cell.split("</td>", 1)[0].split('<br><span class="small">In a battle', 1)[0]
    stat_line = cell.split("<br>", 1)[0]
    stats = card_text.splitlines()[1].split(" · ")
    assert [s.split()[0] for s in stats] == ["Skill", "Move", "Resistance", "Hits", "Size"]
    kept_whole = re.findall(r'<span class="nowrap">([^<]*)</span>', stat_line)
    assert kept_whole == [f"{item} ·" for item in stats[:-1]] + stats[-1:]
    read = [_words(line) for line in cell.split("<br>")]
    assert read == card_text.splitlines()[1:], (read, card_text)
    assert "Rifles — Power 2, Range 12" in read


def test_each_roster_cell_on_a_phone_is_labelled_as_its_column_is_headed(client, world):
    """On a phone a roster row stacks its cells, each under a label; the Quality cell's said
    "Quality" under a column headed "Quality, equipment, specialties" (its equipment and
    specialties read as the quality's). Every cell's label is its column's heading."""
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    table = page.split('<table class="roster">', 1)[1].split("</table>", 1)[0]
    head, body = table.split("</thead>", 1)
    headings = [
        " ".join(_words(h).split()).rstrip(" ▲▼")
        for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', head, re.S)
    ]
    first_row = body.split("</tr>", 1)[0]
    labels = re.findall(r'<td [^>]*data-label="([^"]*)"', first_row)
    assert labels == headings[1:], (labels, headings)


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


def test_a_cards_lines_have_room_on_the_roster_the_unit_page_and_under_the_header():
    """At 1280 px the roster's card column was too narrow for its stat line and its weapons'
    "Power 5, Range 18"; at 820 px a unit's page kept two columns and broke its card's stat
    line at "· Size 1", and the header's "Log out" fell alone under the other links. The
    roster's card column has room for its stat line on two lines on any desktop, and on one
    where the page stops growing; the unit page's first column fits the stat line in the
    card's monospace (about 28rem) and the columns stack below a desktop's width, as the
    roster does; the header's links keep together, under the site's name when they must."""
    from tests.web.test_dark_mode import STATIC, _rules

    campaign = list(_rules((STATIC / "campaign/campaign.css").read_text()))
    card_column = {
        m: d["min-width"]
        for m, s, d in campaign
        if s == ".roster td.card-stats" and "min-width" in d
    }
    assert card_column["@media (min-width: 60.01rem)"] == "16rem"
    assert card_column["@media (min-width: 78rem)"] == "21rem"
    layout = {m: d["grid-template-columns"] for m, s, d in campaign if s == ".unit-layout"}
    assert layout[None] == "minmax(16rem, 29rem) minmax(0, 1fr)"
    assert layout["@media (max-width: 60rem)"] == "1fr"
    site = list(_rules((STATIC / "bridgehead/bridgehead.css").read_text()))
    header = {s: d for m, s, d in site if m is None and s.startswith(".site-header")}
    assert header[".site-header"]["flex-wrap"] == "wrap"
    assert header[".site-header nav"]["display"] == "flex"
    assert header[".site-header nav"]["flex-wrap"] == "wrap"


def test_a_stacked_tables_caption_is_as_wide_as_its_rows_on_a_phone():
    """On a phone a wide table (``table.stack``) is a block of rows: its caption is a block too,
    not a table's caption shrunk to its longest word ("Losses / as / entered")."""
    from tests.web.test_dark_mode import STATIC, _rules

    site = list(_rules((STATIC / "bridgehead/bridgehead.css").read_text()))
    phone = {s: d for m, s, d in site if m == "@media (max-width: 40rem)"}
    assert phone["main table.stack"]["display"] == "block"
    assert phone["table.stack caption"]["display"] == "block"


def test_an_engagements_page_says_what_it_did_to_each_unit_and_whose_hits_await_the_medics(
    client, world
):
    """Fought and applied at once, an engagement's page tells what it did to each of its units
    in the words of their histories, as a battle's page does, and to the GM which of them now
    carry Casualty hits awaiting the medics, until when, with the way to send them in."""
    from campaign.services.engagements import engagement_run

    card = world.unit.unit_type
    raiders = unit_create(force=world.force, unit_type=card, name="Raiders", quality="legendary",
                          equipment="excellent", specialties=["infantry"])  # fmt: skip
    pickets = unit_create(force=world.enemy, unit_type=card, name="Pickets",
                          quality="experienced", specialties=["infantry"])  # fmt: skip
    engagement = engagement_run(
        campaign=world.campaign, sides={"attackers": [raiders], "defenders": [pickets]},
        name="Raid on the pickets", round_limit=1, seed=2, actor=world.users["gm"],
    )  # fmt: skip
    pickets = Unit.objects.get(pk=pickets.pk)
    assert (pickets.morale_hits, pickets.casualty_hits, pickets.status) == (1, 1, "ready")
    page = login(client, world, "gm").get(_url("engagement", world, engagement.pk)).text
    aftermath = page.split('id="aftermath"', 1)[1].split("</section>", 1)[0]
    assert "What it did to the units" in aftermath
    assert "Raid on the pickets: took 1 Morale hit and 1 Casualty hit" in aftermath
    assert f'<a href="{_url("unit", world, pickets.pk)}">Pickets</a>' in aftermath
    due = aftermath.split('id="medics-due"', 1)[1].split("</ul></li>", 1)[0]
    assert (
        f"<strong>{world.enemy.name}</strong>: 1 unit with Casualty hits awaiting the medics" in due
    )
    assert ">Pickets</a>: 1 Casualty hit awaits the medics. Unsaved, it dies after day " in due
    assert "Raiders" not in due
    # A spectator reads what it did, not the GM's list of what to do.
    page = login(client, world, "spectator").get(_url("engagement", world, engagement.pk)).text
    aftermath = page.split('id="aftermath"', 1)[1].split("</section>", 1)[0]
    assert "Raid on the pickets: took 1 Morale hit and 1 Casualty hit" in aftermath
    assert 'id="medics-due"' not in aftermath


def test_an_applied_battles_page_tells_the_gm_whose_casualty_hits_await_the_medics(client, world):
    """Applied, a battle's page told what it changed and no more: the GM went back to the
    dashboard to learn that its Casualty hits had 24 hours to be saved. It now says, as an
    engagement's page does, which of its units' Casualty hits await the medics, until when,
    with the force's "Send in the medics"; a spectator reads no such list."""
    card = world.unit.unit_type
    doomed = unit_create(force=world.force, unit_type=card, name="Doomed", specialties=["infantry"])
    victors = unit_create(force=world.enemy, unit_type=card, name="Victors",
                          specialties=["infantry", "medical"])  # fmt: skip
    battle = campaign_battle_record(
        campaign=world.campaign, name="Last stand", winner="defenders", actor=world.users["gm"],
        sides={"attackers": [doomed], "defenders": [victors]},
        outcomes={doomed.pk: {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"},
                  victors.pk: {"hits_lost": 0, "skill_lost": 0}},
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=world.users["gm"])
    doomed = Unit.objects.get(pk=doomed.pk)
    assert doomed.casualty_hits > 0 and doomed.status != "destroyed"
    page = login(client, world, "gm").get(_url("battle", world, battle.pk)).text
    review = page.split('id="review"', 1)[1].split("</section>", 1)[0]
    due = review.split('id="medics-due"', 1)[1].split("</ul></li>", 1)[0]
    said = f"<strong>{world.force.name}</strong>: 1 unit with Casualty hits awaiting the medics"
    assert said in due
    assert f'<a href="{_url("unit", world, doomed.pk)}">Doomed</a>: ' in due
    assert "Unsaved, " in due and "Victors" not in due
    assert review.index('id="medics-due"') < review.index("What it changed:")
    page = login(client, world, "spectator").get(_url("battle", world, battle.pk)).text
    assert 'id="medics-due"' not in page


def test_a_unit_in_a_battle_awaiting_review_is_offered_no_move_of_the_combat_zone(client, world):
    """Its player may not withdraw it to the rear (nor send it in) until the GM applies the
    battle: the outcome says where it stands. The page says why, naming the battle."""
    waiting = world.table_battle
    held = [pk for pks in waiting.sides.values() for pk in pks]
    unit = Unit.objects.filter(pk__in=held, force=world.force).first()
    login(client, world, "player")
    page = client.get(reverse("campaign:unit", args=[world.campaign.pk, unit.pk])).text
    why = f"Not now: {unit.name} is still in {waiting.name}, whose outcome is not applied yet."
    assert why in page
    assert 'disabled aria-describedby="zone-why"' in page
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    page = client.get(reverse("campaign:unit", args=[world.campaign.pk, unit.pk])).text
    assert "zone-why" not in page


def test_a_players_needs_attention_names_the_battle_awaiting_review_and_their_units_in_it(
    client, world
):
    """A player whose units wait on the GM's review of a battle read "Nothing" under "Needs
    attention": it names the battle, their units in it (not their rival's, the rival's to
    read), and that the GM has to apply it; once it is applied, the line is gone."""
    waiting = world.table_battle
    held = [pk for pks in waiting.sides.values() for pk in pks]
    ours = [u.name for u in Unit.objects.filter(pk__in=held, force=world.force)]
    assert len(ours) == 1 and len(held) == 2
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    battle_link = f'<a href="{reverse("campaign:battle", args=[world.campaign.pk, waiting.pk])}">'
    said = (
        f"{battle_link}{waiting.name}</a>: the GM has yet to review and apply its outcome. "
        f"Until then {ours[0]} is shown as it went in, and goes into no other fight."
    )
    login(client, world, "player")
    attention = (
        client.get(dashboard).text.split("Needs attention")[1].split('<section class="since"')[0]
    )
    assert said in attention
    assert "Nothing: none of your units" not in attention
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    attention = (
        client.get(dashboard).text.split("Needs attention")[1].split('<section class="since"')[0]
    )
    assert battle_link not in attention
    # A battle still being fought holds its units too, and is said so.
    fought = CampaignBattle(name="Night raid", state=CampaignBattle.State.FIGHTING)
    assert HeldInBattle(fought, [Unit(name="A"), Unit(name="B")]).text == (
        "still being fought. Until its outcome is applied, A and B are shown as they went in, "
        "and go into no other fight"
    )


def test_a_spectators_dashboard_heads_the_units_waiting_as_such_not_as_needing_attention(
    client, world
):
    """A spectator can do nothing about a unit awaiting the medics or a battle's review: the
    list is headed with what it holds, not as something needing their attention."""
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    page = login(client, world, "spectator").get(dashboard).text
    assert "Needs attention" not in page
    waiting = page.split("<h2>Units waiting</h2>")[1].split('<section class="since"')[0]
    said = f"{escape(world.table_battle.name)}</a>: the GM has yet to review and apply its outcome."
    assert said in waiting
    player = login(client, world, "player").get(dashboard).text
    assert "<h2>Needs attention</h2>" in player and "Units waiting" not in player


def test_a_unit_in_a_battle_not_yet_applied_says_so_on_its_page_and_its_roster_line(client, world):
    """A player checking their squad between sessions read "Ready" on a unit whose battle
    awaits the GM's review: its status says what it awaits instead ("Awaiting review" of the
    battle, "Fighting" in one being fought), its page and its roster line name that battle and
    its state, and say no more once the outcome is applied. A battle recorded since the roster
    was drawn shows at once, though it changed no unit yet."""
    waiting = world.table_battle
    held = [pk for pks in waiting.sides.values() for pk in pks]
    unit = Unit.objects.filter(pk__in=held, force=world.force).first()
    assert unit is not None
    in_it = f'In <a href="{reverse("campaign:battle", args=[world.campaign.pk, waiting.pk])}">'
    said = f"{in_it}{waiting.name}</a>, awaiting review"
    login(client, world, "player")
    unit_url = reverse("campaign:unit", args=[world.campaign.pk, unit.pk])
    roster_url = reverse("campaign:force", args=[world.campaign.pk, world.force.pk])
    page = client.get(unit_url).text
    assert f"{said}: until its outcome is applied, {unit.name} is shown here as it went in." in page
    assert '<span class="status status-awaiting">Awaiting review</span>' in page
    status = '<span class="status status-awaiting">Awaiting review</span>'
    of_it = f'of <a href="{reverse("campaign:battle", args=[world.campaign.pk, waiting.pk])}">'

    def cell(name: str) -> str:
        roster = client.get(roster_url).text
        row = roster.split(f">{name}</a>")[1].split("</tr>")[0]
        return row.split('data-label="Status">')[1].split("</td>")[0]

    assert cell(unit.name).startswith(status) and f"{of_it}{waiting.name}</a>" in cell(unit.name)
    assert ">Ready<" not in cell(unit.name)
    fresh = unit_create(force=world.force, unit_type=unit.unit_type, name="Fresh Squad")
    foe = unit_create(force=world.enemy, unit_type=unit.unit_type, name="Fresh Foe")
    assert "Fresh Squad" in client.get(roster_url).text  # drawn, and kept
    later = campaign_battle_record(
        campaign=world.campaign,
        name="Night raid",
        sides={"attackers": [fresh], "defenders": [foe]},
        winner="attackers",
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (fresh, foe)},
        actor=world.users["gm"],
    )
    assert cell("Fresh Squad").startswith(status) and "Night raid</a>" in cell("Fresh Squad")
    CampaignBattle.objects.filter(pk=later.pk).update(state=CampaignBattle.State.FIGHTING)
    fighting = '<span class="status status-fighting">Fighting</span>'
    assert cell("Fresh Squad").startswith(fighting) and "in <a" in cell("Fresh Squad")
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    assert in_it not in client.get(unit_url).text
    assert of_it not in client.get(roster_url).text
    assert cell(unit.name).startswith('<span class="status unit-ready">Ready</span>')
    assert later.name in client.get(roster_url).text


def test_a_force_page_gives_the_campaign_clock_as_the_other_pages_do(client, world):
    """The medics' day and the Orders under way go by the hour: the force page's heading says
    it, "day 1, 05:00", as the table's pages do."""
    Campaign.objects.filter(pk=world.campaign.pk).update(hour=5)
    page = login(client, world, "player").get(_url("force", world, world.force.pk)).text
    day = Campaign.objects.get(pk=world.campaign.pk).day
    assert f"force · day {day}, 05:00" in page


def test_the_links_to_a_pages_data_say_who_it_is_for_not_only_its_format(client, world):
    """The dashboard's, a force's and a unit's line under the title linked their data as a bare
    "JSON": a player tapping it on a phone met a wall of braces. The link says it is data for
    programs, its format after."""
    login(client, world, "player")
    for page, data in (
        (_url("dashboard", world), _url("campaign-json", world)),
        (_url("force", world, world.force.pk), _url("force-json", world, world.force.pk)),
        (_url("unit", world, world.unit.pk), _url("unit-json", world, world.unit.pk)),
    ):
        html = client.get(page).text
        assert f'<a href="{data}">Data for programs (JSON)</a>' in html, page
        assert ">JSON</a>" not in html, page


def test_the_forces_table_says_how_many_ready_units_a_battle_not_yet_applied_holds(client, world):
    """The Forces table counted a unit in a battle awaiting review as ready, while the list
    under it said it goes into no other fight: the count says how many of them are still in a
    battle, and no longer once its outcome is applied."""
    from campaign.selectors.roster import engaged_battles

    held = Unit.objects.filter(
        pk__in=list(engaged_battles(campaign=world.campaign)), force=world.force, status="ready"
    ).count()
    assert held  # the table battle awaiting review holds the player's attacker
    login(client, world, "player")

    def ready_cell() -> str:
        page = client.get(_url("dashboard", world)).text
        row = page.split(f">{world.force.name}</a>")[1].split("</tr>")[0]
        return row.split('data-label="Ready">')[1].split("</td>")[0]

    assert f'<span class="small nowrap">({held} still in a battle)</span>' in ready_cell()
    campaign_battle_apply(campaign_battle=world.table_battle, actor=world.users["gm"])
    assert "still in a battle" not in ready_cell()


def test_a_units_page_says_where_it_is_in_words_not_yes_or_no(client, world):
    """The unit page's state read "In the combat zone: no", of a destroyed unit too: it says
    where the unit is, as the combat zone's section below it does, and nothing of the dead."""
    gm = world.users["gm"]
    login(client, world, "player")

    def where(**changes) -> str:
        unit_edit(unit=Unit.objects.get(pk=world.unit.pk), changes=changes, reason="moved",
                  actor=gm)  # fmt: skip
        page = client.get(_url("unit", world, world.unit.pk)).text
        return page.split("<dt>Where it is</dt><dd>")[1].split("</dd>")[0]

    assert where(status="ready", in_combat_zone=True) == "In the combat zone"
    assert where(in_combat_zone=False) == "Behind the lines"
    assert where(status="destroyed") == "—"
