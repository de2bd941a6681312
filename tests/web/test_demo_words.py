"""The demo campaign's pages in the campaign's words: each history entry told one way, on the
dashboard as on the unit's page, and its battles, engine or table, linked where they are named."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst

from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign, Unit
from campaign.pages.events import FIRST_VISIT_LINES, since_last_visit
from campaign.pages.stories import unit_story_lines
from campaign.selectors.entries import unit_story
from campaign.services.battles import campaign_battle_apply, campaign_battle_record

pytestmark = pytest.mark.django_db

NO_LOSS = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}


@pytest.fixture
def demo():
    demo_load()
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    units = {unit.name: unit for unit in Unit.objects.filter(force__campaign=campaign)}
    return campaign, units


def _ford_skirmish(campaign, units):
    """A table battle in which Iron Wolf, already blooded, loses nothing (against Atlas: 1st
    Squad is still in the Battle of the Crossroads, awaiting the GM's review)."""
    wolf, atlas = units["Iron Wolf"], units["Atlas"]
    battle = campaign_battle_record(
        campaign=campaign,
        name="Ford skirmish",
        sides={"Blue": [wolf], "Red": [atlas]},
        winner=None,
        outcomes={wolf.pk: NO_LOSS, atlas.pk: NO_LOSS},
    )
    campaign_battle_apply(campaign_battle=battle)
    return battle


def test_since_your_last_visit_tells_an_entry_as_the_units_history_does(demo):
    campaign, units = demo
    _ford_skirmish(campaign, units)
    wolf = units["Iron Wolf"]
    events = since_last_visit(campaign, {wolf.force_id}, timezone.now() - timedelta(hours=1))
    fought = [e for e in events if e.kind == "battle" and "Ford skirmish" in e.text]
    assert [e.text for e in fought] == [
        "Iron Wolf (Blue Battalion) — Ford skirmish: came through unhurt"
    ]
    # No bookkeeping: neither the battles counted, the day of the last one nor the medics'
    # 24 hours of a unit with no Casualty hits to save.
    assert "→" not in fought[0].text and "medics" not in fought[0].text
    line = next(
        line
        for line in unit_story_lines(unit_story(unit=wolf))
        if line.entry.pk == wolf.history.filter(kind="battle").last().pk
    )
    told = f"{line.lead}: {line.why}" + (f": {line.what}" if line.what else "")
    assert fought[0].text == f"Iron Wolf (Blue Battalion) — {told}"


def test_a_table_battle_is_linked_from_the_units_history_as_an_engine_battle_is(client, demo):
    campaign, units = demo
    ford = _ford_skirmish(campaign, units)
    wolf = units["Iron Wolf"]
    client.force_login(get_user_model().objects.get(username="bob"))
    page = client.get(reverse("campaign:unit", args=[campaign.pk, wolf.pk])).content.decode()
    for battle in (campaign.battles.get(name="Battle of the Millrace"), ford):
        link = reverse("campaign:battle", args=[campaign.pk, battle.pk])
        assert f'<a href="{link}">{battle.name}</a>' in page, battle.name
    events = since_last_visit(campaign, {wolf.force_id}, timezone.now() - timedelta(hours=1))
    ford_link = reverse("campaign:battle", args=[campaign.pk, ford.pk])
    assert any(e.url == ford_link for e in events if "Ford skirmish" in e.text)


def test_the_demos_first_battle_is_on_its_dashboard_and_timeline(client, demo):
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username="bob"))
    dashboard = client.get(reverse("campaign:dashboard", args=[campaign.pk])).content.decode()
    assert "No campaign battles yet." not in dashboard and "Battle of the Millrace" in dashboard
    timeline = client.get(reverse("campaign:timeline", args=[campaign.pk])).content.decode()
    assert "Battle of the Millrace: Red Company won" in timeline


def _words(page: str, between: str = "") -> str:
    """The page's text as read: its tags dropped (or ``between`` put for each), its spaces one."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", between, page)))


@pytest.mark.parametrize("username", ["gm", "alice", "carol"])
def test_the_demos_engine_battle_is_told_and_replayed_in_the_campaigns_names(
    client, demo, username
):
    campaign, _ = demo
    crossroads = campaign.battles.get(name="Battle of the Crossroads")
    client.force_login(get_user_model().objects.get(username=username))
    page = client.get(reverse("campaign:battle", args=[campaign.pk, crossroads.pk])).text
    words = _words(page)
    assert "Battle of the Crossroads Day 2 · fought by the engine (turn limit 6)" in words
    # How the record was made stays on the page, out of the story's lines, under a disclosure.
    about = r"About this record Written by engine \d+\.\d+\.\d+ · seed 1: the same"
    assert re.search(about, words)
    assert "by engine" not in words.split("About this record")[0]
    assert "outcome awaiting review" in words
    assert "Red Company (alice) won: 1st Squad, Tiger One" in words
    assert "Blue Battalion (bob): Old Faithful, Sappers" in words
    assert "1st Squad (Red Company) went in to attack, under Lt. Ada Reyes' Order" in words
    assert "Red Company won after 6 turns" in words
    # Its replay and its log, each unit named as the campaign names it.
    assert 'id="replay-frames"' in page and "1st Squad (Red Company): Rifle Squad" in page
    assert "Red Company: 1st Squad 1st Squad acts." in words
    assert "Battle of the Crossroads begins on Crossroads (Combined Arms rules, seed 1)." in words
    log = reverse("campaign:battle-log", args=[campaign.pk, crossroads.pk])
    assert f'href="{log}"' in page
    review = reverse("campaign:battle-apply", args=[campaign.pk, crossroads.pk])
    if username == "gm":
        assert f'href="{review}">Review and apply the outcome</a>' in page
    else:
        assert "The GM reviews the outcome before it reaches the units" in words
        assert review not in page


def test_the_demos_battle_story_names_each_place_as_its_map_and_score_table_do(client, demo):
    """A place has only an id in the scenario ("crossroads", "lane-wall"): the story, the
    replay, the map and the objectives' lines all name it alike, as a name, with a capital."""
    campaign, _ = demo
    crossroads = campaign.battles.get(name="Battle of the Crossroads")
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("campaign:battle", args=[campaign.pk, crossroads.pk])).text
    words = _words(page)
    assert "Crossroads (Red Company to hold): held by nobody at the end." in words
    assert "Sappers moves 5″ onto Crossroads." in words
    assert "Red Company scores 1 for holding Crossroads: 2 in all." in words
    assert "Old Faithful moves 4″ by Farmhouse." in words
    labels = re.findall(r'class="terrain-label[^"]*"[^>]*>([^<]+)<', page)
    assert {"Wood", "Ridge", "Brook", "Lane wall"} <= set(labels)
    assert ">Crossroads</text>" in page
    frames = page.split('id="replay-frames"')[1].split("</script>")[0]
    assert "onto Crossroads" in frames
    for lower in ("onto crossroads", "holding crossroads", ">crossroads<", ">lane wall<"):
        assert lower not in page


def test_a_destroyed_and_a_retreated_units_history_says_each_kind_of_hit_with_its_own_word(
    client, demo
):
    """ "took 1 Morale, 1 Casualty hit" read as one hit of both kinds, and a battle's split "0
    Morale, 5 Casualty" named a kind it dealt none of: each kind it took has its own word."""
    campaign, units = demo
    client.force_login(get_user_model().objects.get(username="gm"))
    said = {}
    for name in ("2nd Squad", "Blue Rifles"):
        url = reverse("campaign:unit", args=[campaign.pk, units[name].pk])
        said[name] = _words(client.get(url).text)
    assert (
        "Patrol clash at the ford: took 1 Morale hit and 1 Casualty hit; was destroyed"
        in (said["2nd Squad"])
    )
    assert "took 5 Casualty hits; retreated in poor order — 1 of 1 Hit lost" in said["Blue Rifles"]
    # The hits it took, said once: it carried none before.
    assert "now carries 5 Casualty hits" not in said["Blue Rifles"]
    for words in said.values():
        assert "1 Morale, 1 Casualty" not in words and "0 Morale" not in words


def test_the_demos_engine_battle_awaits_the_gms_review_on_the_campaign_page(client, demo):
    campaign, _ = demo
    crossroads = campaign.battles.get(name="Battle of the Crossroads")
    dashboard = reverse("campaign:dashboard", args=[campaign.pk])
    client.force_login(get_user_model().objects.get(username="gm"))
    words = _words(client.get(dashboard).text)
    assert "Battle of the Crossroads: its outcome awaits your review. Review and apply" in words
    client.force_login(get_user_model().objects.get(username="carol"))
    words = _words(client.get(dashboard).text)
    assert "its outcome awaits your review" not in words
    cells = _words(client.get(dashboard).text, between=" ")
    assert "Battle of the Crossroads (battle) 2 Red Company won Awaiting review" in cells
    review = client.get(reverse("campaign:battle-apply", args=[campaign.pk, crossroads.pk]))
    assert review.status_code in (403, 404)
    client.force_login(get_user_model().objects.get(username="gm"))
    words = _words(
        client.get(reverse("campaign:battle-apply", args=[campaign.pk, crossroads.pk])).text
    )
    assert (
        "Applying Battle of the Crossroads' outcome gives each unit below the hits, quality, "
        "status and experience shown in its row, and its leader the wounds shown there" in words
    )
    for name in ("1st Squad", "Tiger One", "Old Faithful", "Sappers"):
        assert name in words


def test_an_outcomes_state_reads_in_lower_case_within_its_sentence(client, demo):
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username="bob"))
    mill = campaign.battles.get(name="Battle of the Millrace")
    page = client.get(reverse("campaign:battle", args=[campaign.pk, mill.pk])).text
    assert 'outcome <span id="cb-state"><span class="status status-applied">applied</span>' in page
    clash = campaign.engagements.get()
    page = client.get(reverse("campaign:engagement", args=[campaign.pk, clash.pk])).text
    assert '· <span class="status status-applied">applied</span></p>' in page
    # The line itself opens with a capital, as a battle's "Day 1 · fought at the table" does.
    assert '<p class="meta">Day 2, 00:00 · Open terrain · 4 rounds · ' in page


def test_a_check_on_the_dashboard_names_the_unit_that_made_it_once(demo):
    from campaign.services.checks import skill_check_run

    campaign, units = demo
    wolf, squad = units["Iron Wolf"], units["Sappers"]
    skill_check_run(campaign=campaign, units=[wolf, squad], dc=10, seed=1, reason="the ford")
    events = since_last_visit(
        campaign, {wolf.force_id, squad.force_id}, timezone.now() - timedelta(hours=1)
    )
    checks = {e.text.split(" — ")[0]: e.text for e in events if "check" in e.text}
    made = checks["Iron Wolf (Blue Battalion)"]
    assert made.startswith("Iron Wolf (Blue Battalion) — A general skill check, ")
    assert made.count("Iron Wolf") == 1
    # A unit lending its Strength in numbers reads whose check it was.
    assert checks["Sappers (Blue Battalion)"].startswith(
        "Sappers (Blue Battalion) — Iron Wolf: a general skill check, "
    )


def test_a_check_leaves_out_its_makers_name_as_its_entry_keeps_it_not_as_the_unit_is_called(
    demo,
):
    """The name a check's summary opens with is kept with the maker's entry (``maker``): a
    unit renamed since still reads its check once named, and a unit that lent its Strength in
    numbers keeps the maker's name whole though its own begins it (`pages.events.without_maker`)."""
    from campaign.models import HistoryEntry
    from campaign.services import unit_edit
    from campaign.services.checks import skill_check_run

    campaign, units = demo
    wolf, squad = units["Iron Wolf"], units["Sappers"]
    unit_edit(unit=wolf, changes={"name": "Sappers: Lead"}, reason="renamed")
    skill_check_run(campaign=campaign, units=[Unit.objects.get(pk=wolf.pk), squad], dc=10,
                    seed=1, reason="the ford")  # fmt: skip
    unit_edit(unit=wolf, changes={"name": "Grey Wolf"}, reason="renamed again")

    def lines():
        events = since_last_visit(
            campaign, {wolf.force_id, squad.force_id}, timezone.now() - timedelta(hours=1)
        )
        return [e.text for e in events if "skill check" in e.text]

    checks = {line.split(" — ")[0]: line for line in lines()}
    assert checks["Grey Wolf (Blue Battalion)"].startswith(
        "Grey Wolf (Blue Battalion) — A general skill check, "
    )
    assert checks["Sappers (Blue Battalion)"].startswith(
        "Sappers (Blue Battalion) — Sappers: Lead: a general skill check, "
    )
    # A check saved before it kept the name loses the unit's name now.
    skill_check_run(campaign=campaign, units=[squad], dc=10, seed=1, reason="the bridge")
    HistoryEntry.objects.filter(kind="skill_check", text__contains="bridge").update(details={})
    alone = [line for line in lines() if "bridge" in line]
    assert alone == [alone[0]] and alone[0].startswith(
        "Sappers (Blue Battalion) — A general skill check, "
    )


def test_the_dashboard_lists_engagements_with_battles_newest_first(client, demo):
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("campaign:dashboard", args=[campaign.pk])).text
    table = page[page.index('<table class="fights stack"') :]
    table = table[: table.index("</table>")]
    clash, mill = campaign.engagements.get(), campaign.battles.get(name="Battle of the Millrace")
    clash_at = table.index(reverse("campaign:engagement", args=[campaign.pk, clash.pk]))
    mill_at = table.index(reverse("campaign:battle", args=[campaign.pk, mill.pk]))
    assert clash_at < mill_at  # the engagement of day 2 before the battle of day 1
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table))
    # Its name begins the row: with a capital, as the engagements page has it.
    assert f"{capfirst(clash.name)} (engagement) 2 Blue Battalion won after 4 rounds " in words
    assert "Battle of the Millrace (battle at the table) 1 Red Company won Applied" in words


def test_the_dashboards_recent_fights_stack_on_a_phone_each_cell_named(client, demo):
    """At a phone's width each row of "Recent battles and engagements" is a block of its own,
    each cell named (table.stack), as the Battles page lists them: not four squeezed columns
    whose Outcome wraps a word a line."""
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("campaign:dashboard", args=[campaign.pk])).text
    table = page[page.index('<table class="fights stack"') :]
    table = table[: table.index("</table>")]
    cells = re.findall(r"<td[^>]*>", table)
    assert len(cells) == 3 * campaign.battles.count() + 3 * campaign.engagements.count()
    assert [re.search(r'data-label="([^"]+)"', cell)[1] for cell in cells[:3]] == [
        "Day",
        "Outcome",
        "State",
    ]
    assert all("data-label=" in cell for cell in cells)


def test_a_members_first_visit_tells_the_latest_that_befell_their_units(client, demo):
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username="bob"))
    url = reverse("campaign:dashboard", args=[campaign.pk])
    first = client.get(url).text
    since = first[first.index('<section class="since"') :]
    since = since[: since.index("</section>")]
    assert '<h2 id="since-h">Lately</h2>' in since and "Your first visit" in since
    # What needs doing about his units heads the page, as the GM's list heads the GM's: above
    # the forces, and so above the news.
    attention = first.index('<h2 id="attention-h">Needs attention</h2>')
    assert attention < first.index('<h2 id="forces-h">') < first.index('<section class="since"')
    needs = first[attention : first.index("</section>", attention)]
    assert "Blue Rifles</a>: 5 Casualty hits await the medics" in needs
    lines = re.findall(r'<li class="event[^"]*">.*?</li>', since)
    assert 0 < len(lines) <= FIRST_VISIT_LINES
    # His units only, newest first: the engagement of day 2 leads.
    assert all("(Blue Battalion)" in line for line in lines)
    assert "Red Company)" not in since
    newest = re.sub(r"<[^>]+>", "", lines[0])
    assert "Day 2: Scout Car (Blue Battalion) — Patrol clash at the ford" in newest
    # From then on, what changed since he last looked: nothing yet.
    again = client.get(url).text
    assert '<h2 id="since-h">Since your last visit</h2>' in again
    assert "Nothing has changed for your units since you last looked." in again
    assert "Your first visit" not in again


def test_a_form_drawn_again_on_the_dashboard_tells_nothing_as_new(client, demo):
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username="gm"))
    page = client.post(reverse("campaign:settings", args=[campaign.pk]), {}).text
    assert 'id="settings-form"' in page and "has-errors" in page
    # Neither "Lately" nor "Since your last visit": this is no visit.
    assert 'id="since-h"' not in page


def test_a_unit_destroyed_in_an_engagement_is_said_to_be_destroyed_there(client, demo):
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username="alice"))
    timeline = client.get(reverse("campaign:timeline", args=[campaign.pk])).text
    assert "2nd Squad (Red Company) was destroyed at Patrol clash at the ford" in timeline


def test_lately_tells_each_unit_then_its_sentence_and_a_fight_without_its_working(client, demo):
    """Lately read "Sappers (Blue Battalion): A day of R&R" and "1st Squad: Takes the squad…",
    a capital after a colon, and a battle's line carried its whole working ("a d6 for the Hit
    lost rolled 1, divided by the card's 2 Hits, …"). Each line is the unit, a dash, then its
    history's sentence as it stands on its own; a fight's says what it did, its working left
    to the unit's page."""
    campaign, units = demo
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("campaign:dashboard", args=[campaign.pk])).text
    since = page[page.index('<section class="since"') :]
    since = re.sub(r"<[^>]+>", "", since[: since.index("</section>")])
    assert "Atlas (Red Company) — Battle of the Millrace: took 1 Casualty hit; " in since
    assert "1st Squad (Red Company) — Takes the squad to the ford: " in since
    assert not re.search(r"\): [A-Z]", since)
    assert "a d6 for the Hit lost" not in since and "rounded up" not in since
    atlas = client.get(reverse("campaign:unit", args=[campaign.pk, units["Atlas"].pk])).text
    assert "a d6 for the Hit lost rolled 1" in atlas


def test_a_fights_line_says_what_it_left_the_unit_before_its_working(client, demo):
    """A fight's line read "…a d6 each rolled 6, 4, 6, 6 and 5 (Casualty on 4 or more):
    retreated in poor order", what the fight left the unit after a colon behind the working's
    own, and "Patrol clash at the ford: took 1 Morale hit: is in the combat zone". What it left
    the unit comes right after the hits it took; the working, on the unit's page, last."""
    campaign, units = demo
    client.force_login(get_user_model().objects.get(username="alice"))
    faithful = units["Old Faithful"]
    page = _words(client.get(reverse("campaign:unit", args=[campaign.pk, faithful.pk])).text)
    assert (
        "Battle of the Millrace: took 1 Morale hit; is in the combat zone — 1 of 2 Hits lost; a "
        "d6 for the Hit lost rolled 1, divided by the card's 2 Hits, rounded up: 1 BUCS hit, its "
        "d6 rolled 3 (Casualty on 4 or more)."
    ) in page
    rifles = units["Blue Rifles"]
    page = _words(client.get(reverse("campaign:unit", args=[campaign.pk, rifles.pk])).text)
    assert (
        "Taken out at Battle of the Millrace: took 5 Casualty hits; retreated in poor order — "
        in page
    )
    assert "(Casualty on 4 or more): retreated" not in page
    scout = units["Scout Car"]
    page = _words(client.get(reverse("campaign:unit", args=[campaign.pk, scout.pk])).text)
    assert "Patrol clash at the ford: took 1 Morale hit; is in the combat zone." in page
    # The same sentence in the unit's data, and on its player's dashboard without its working.
    data = client.get(reverse("campaign:unit-json", args=[campaign.pk, faithful.pk])).json()
    (fought,) = [entry["text"] for entry in data["history"] if entry["kind"] == "battle"]
    assert fought.startswith("Battle of the Millrace: took 1 Morale hit; is in the combat zone — ")
    client.force_login(get_user_model().objects.get(username="bob"))
    page = client.get(reverse("campaign:dashboard", args=[campaign.pk])).text
    since = page[page.index('<section class="since"') :]
    since = _words(since[: since.index("</section>")])
    assert (
        "Old Faithful (Blue Battalion) — Battle of the Millrace: took 1 Morale hit; is in the "
        "combat zone"
    ) in since
    assert "Scout Car (Blue Battalion) — Patrol clash at the ford: took 1 Morale hit; is in" in (
        since
    )
    assert not re.search(r"(hits?|unhurt|\)): (is|was|retreated|fell|rose)\b", since)
