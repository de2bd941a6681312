"""A unit's page tells its history as a story: each fight it fought a link by the name its entry
keeps, an engagement's page linking each unit its reader sees and giving a shaken unit's own
quality, reverted entries struck through and a revert linking its battle, a long history newest
first and paged through once, the printed card beside the engine's where they differ, and where the
unit is said in words."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from campaign.models import Campaign, Unit
from campaign.services import unit_create, unit_edit
from tests.web.campaign_world import login
from tests.web.paging import add_notes, link
from tests.web.test_campaign_pages_roster import _url, _words

pytestmark = pytest.mark.django_db


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
