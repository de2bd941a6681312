"""What changed, told to everyone: the campaign's timeline day by day, "since your last visit"
on each member's dashboard (their own units only), and the GM's cockpit of what needs doing."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from campaign.models import Unit
from campaign.pages.timeline import TIMELINE_LINES
from campaign.services import (
    campaign_create,
    force_create,
    membership_set,
    unit_create,
    unit_edit,
)
from tests.web.campaign_world import login, raise_units
from tests.web.paging import add_notes, link
from units.bucs import Quality

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_the_timeline_tells_each_day_with_links(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"experience": 2}, reason="records", actor=gm)
    unit_edit(unit=world.enemy_unit, changes={"status": "destroyed"}, reason="mine field",
              actor=gm)  # fmt: skip
    page = login(client, world, "player").get(_url("timeline", world)).text
    assert "Day 1" in page
    battle = _url("battle", world, world.engine_battle.pk)
    assert f'<a href="{battle}">Crossroads: Blue Battalion won (applied)</a>' in page
    assert "Skirmish at the mill: Red Company won (awaiting review)" in page
    # Taken out at Crossroads is not dead: the unit fell a step (the bridge, second edition),
    # and the line says where, then what else the battle left it with (not its working).
    assert (
        f'<a href="{battle}">Squad 1 (Red Company) fell from Average to Inexperienced at '
        "Crossroads; retreated in poor order; now carries 3 Morale hits and 2 Casualty hits; "
        "lost 1 point of Skill to suppression for good</a>" in page
    )
    # Destroyed by the GM's hand: no fight to name; the GM's own reason, as for a step.
    assert "Iron Wolf (Blue Battalion) was destroyed (GM correction: mine field)</a>" in page
    assert 'class="event event-destroyed"' in page and ">Destroyed</span>" in page
    # A history entry's kind by its label, never its stored name.
    assert 'class="event event-gm_edit"' in page and ">GM correction</span>" in page
    assert ">gm_edit<" not in page and ">GM_EDIT<" not in page


def test_a_revert_reads_as_a_sentence_naming_what_it_undid(client, world):
    """A revert is labelled a revert, never a promotion or a rally, names the battle or the
    engagement it undid, and says what it gave back in words, not as field changes."""
    from campaign.services.battles import campaign_battle_revert
    from campaign.services.engagements import engagement_revert, engagement_run

    gm = world.users["gm"]
    campaign_battle_revert(campaign_battle=world.engine_battle, reason="wrong deployment", actor=gm)
    page = login(client, world, "gm").get(_url("timeline", world)).text
    battle = _url("battle", world, world.engine_battle.pk)
    assert (
        f'<a href="{battle}">Squad 1 (Red Company) — Wrong deployment: the battle of day 1, '
        "Crossroads, is undone: back to Average, ready, no hits, 0 battles fought, no Skill "
        "lost</a>" in page
    )
    assert (
        "Squad 1 (Red Company) — Wrong deployment: the experience from the battle of day 1, "
        "Crossroads, is undone: back to 0 experience points</a>" in page
    )
    assert 'class="event event-revert"' in page and ">Revert</span>" in page
    # Not a promotion, not a rally; no field diffs, no bookkeeping.
    assert "rose from" not in page and "rallied" not in page
    for diff in ("undoes day", "battles fought 1 → 0", "last battle on day", "24 hours from"):
        assert diff not in page, diff
    # What the revert undid keeps its line, struck through and said to be undone, as on the
    # unit's page; the revert's own line stands.
    assert (
        '<li class="event event-reduced reverted"><span class="event-kind">Reduced</span> '
        f'<del><a href="{battle}">Squad 1 (Red Company) fell from Average to Inexperienced at '
        "Crossroads; retreated in poor order; now carries 3 Morale hits and 2 Casualty hits; "
        "lost 1 point of Skill to suppression for good</a>"
        '</del> <span class="small">(undone since)</span></li>' in page
    )
    assert 'class="event event-revert reverted"' not in page
    fresh = {"status": "ready", "morale_hits": 0, "casualty_hits": 0}
    for unit in (world.unit, world.enemy_unit):
        unit_edit(unit=Unit.objects.get(pk=unit.pk), changes=fresh, reason="fresh", actor=gm)
    sides = {"attackers": [Unit.objects.get(pk=world.unit.pk)],
             "defenders": [Unit.objects.get(pk=world.enemy_unit.pk)]}  # fmt: skip
    engagement = engagement_run(campaign=world.campaign, sides=sides, seed=3, actor=gm)
    engagement_revert(engagement=engagement, reason="a rehearsal", actor=gm)
    page = client.get(_url("timeline", world)).text
    assert (
        "Squad 1 (Red Company) — A rehearsal: the engagement of day 1, Squad 1 against Iron "
        "Wolf, is undone: back to " in page
    )


def test_since_your_last_visit_strikes_through_what_was_undone_since(client, world):
    from campaign.models import HistoryEntry
    from campaign.services.reverts import outcome_revert

    gm = world.users["gm"]
    login(client, world, "player").get(_url("dashboard", world))  # the last visit
    ours = Unit.objects.get(pk=world.unit.pk)
    unit_edit(unit=ours, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    shelled = HistoryEntry.objects.filter(unit=ours).latest("id")
    outcome_revert(entries=[shelled], reason="a mistake", actor=gm)
    since = client.get(_url("dashboard", world)).text.split("Since your last visit")[1]
    assert (
        '<del><a href="' + _url("unit", world, ours.pk) + '">Squad 1 (Red Company) was '
        'destroyed (GM correction: shelled)</a></del> <span class="small">(undone since)</span>'
        in since
    )
    assert since.count("(undone since)") == 1  # the revert's own line stands


def test_a_step_won_or_lost_says_why(client, world):
    """A unit that rose or fell a step says why on the timeline and the dashboard: the fight
    that did it, the medical window closing on its Casualty hits, or the entry's own reason."""
    from campaign.services import calendar_advance
    from campaign.services.orders import clock_advance

    gm = world.users["gm"]
    unit_edit(unit=world.enemy_unit, changes={"quality": "elite"}, reason="a citation",
              actor=gm)  # fmt: skip
    ours = Unit.objects.get(pk=world.unit.pk)
    unit_edit(unit=ours, changes={"status": "ready", "quality": "average", "casualty_hits": 1,
                                  "morale_hits": 0, "last_battle_day": world.campaign.day},
              reason="wounded", actor=gm)  # fmt: skip
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    clock_advance(campaign=world.campaign, hours=1, actor=gm)  # the window closes: the hit dies
    page = login(client, world, "gm").get(_url("timeline", world)).text
    assert "(Blue Battalion) rose from Average to Elite (GM correction: a citation)</a>" in page
    assert (
        "Squad 1 (Red Company) fell from Average to Inexperienced: 1 Casualty hit not saved "
        "within 24 hours died (taken out at Crossroads; 3 Morale hits and 2 Casualty hits; "
        "medics saved 0)"
    ) in page
    assert "; carries no hits now</a>" in page
    assert "window closed" not in page  # the medics' time as the campaign page says it


def test_dead_the_medics_partly_saved_are_told_everywhere_as_the_units_page_tells_them(
    client, world
):
    """Squad 1 carries 2 Casualty hits from Crossroads; an Elite Medical crew saves 1 and the
    other dies when the 24 hours are over, a step lost. The timeline, a player's "Lately" and
    the notice mail say the step first, then the dead as the unit's page tells them
    (`pages.history_words.entry_why`): how many died, of what, and that the medics saved 1; not a
    bare "fell" line."""
    from campaign.models import HistoryEntry
    from campaign.services import medical_apply, unit_create
    from campaign.services.notices import notice_lines
    from campaign.services.orders import clock_advance

    gm = world.users["gm"]
    ours = Unit.objects.get(pk=world.unit.pk)
    unit_create(force=world.force, unit_type=ours.unit_type, name="Aid Post", quality="elite",
                specialties=["infantry", "medical"])  # fmt: skip
    unit_edit(unit=ours, changes={"status": "ready", "quality": "average", "casualty_hits": 2,
                                  "morale_hits": 0, "last_battle_day": world.campaign.day},
              reason="shelled at the ford", actor=gm)  # fmt: skip
    medical_apply(force=world.force, allocation={ours.pk: 1})
    world.campaign.refresh_from_db()
    clock_advance(campaign=world.campaign, hours=25, actor=gm)  # the window closes: 1 dies
    ours.refresh_from_db()
    assert (ours.quality, ours.casualty_hits) == (Quality.INEXPERIENCED, 0)
    dead = (
        "1 Casualty hit not saved within 24 hours died (taken out at Crossroads; 3 Morale hits "
        "and 2 Casualty hits; medics saved 1)"
    )
    told = f"Squad 1 (Red Company) fell from Average to Inexperienced: {dead}; carries no hits now"
    login(client, world, "player")
    page = client.get(_url("unit", world, ours.pk)).text.replace("&#x27;", "'")
    assert f"{dead}: fell from Average to Inexperienced; carries no hits now" in page
    assert f"{told}</a>" in client.get(_url("dashboard", world)).text  # a first visit: "Lately"
    assert f"{told}</a>" in client.get(_url("timeline", world)).text
    entry = ours.history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert f"Day {entry.day}: {told}." in notice_lines(world.campaign, [entry])


def test_a_step_lost_in_a_battle_tells_what_else_it_did_and_a_leaders_death(client, world):
    """A line whose headline is a step lost still says what else befell the unit, its leader's
    death above all, on the timeline and in "since your last visit": a player reading either
    learns that the captain died, not only from the unit's page."""
    from campaign.models import HistoryEntry

    login(client, world, "player").get(_url("dashboard", world))  # the last visit
    captain = {"name": "Capt. Mara Holt", "hit_points": 3, "alive": True}
    HistoryEntry.objects.create(
        unit=world.unit, day=world.campaign.day, kind=HistoryEntry.Kind.BATTLE,
        text="Taken out at the ford: took 4 Morale, 4 Casualty hits",
        before={"quality": "average", "morale_hits": 0, "casualty_hits": 0, "status": "ready",
                "in_combat_zone": True, "leader": captain},
        after={"quality": "inexperienced", "morale_hits": 4, "casualty_hits": 4,
               "status": "retreated", "in_combat_zone": False,
               "leader": {**captain, "hit_points": -34, "alive": False}},
    )  # fmt: skip
    line = (
        "Squad 1 (Red Company) fell from Average to Inexperienced; "
        "retreated in poor order; now carries 4 Morale hits and 4 Casualty hits; is out of the "
        "combat zone; Capt. Mara Holt was killed</a>"
    )
    since = client.get(_url("dashboard", world)).text.split("Since your last visit")[1]
    assert line in since
    assert line in client.get(_url("timeline", world)).text


def test_a_step_earned_in_an_engagement_is_said_at_it_as_a_battles_is(client, world):
    """A step up earned in an engagement read "rose from Average to Experienced (Raid: earned 2
    experience points, enough for a step up): …" where a battle's reads "… at Battle of the
    Millrace: …": the engagement is named the same way, by the name its entry keeps."""
    from campaign.models import HistoryEntry

    HistoryEntry.objects.create(
        unit=world.unit, day=world.campaign.day, kind=HistoryEntry.Kind.EXPERIENCE,
        text="Raid: earned 2 experience points, enough for a step up",
        before={"quality": "average", "experience": 2},
        after={"quality": "experienced", "experience": 0},
        details={"points": 2, "name": "Raid"},
    )  # fmt: skip
    page = login(client, world, "player").get(_url("timeline", world)).text
    assert "Squad 1 (Red Company) rose from Average to Experienced at Raid; " in page
    assert "(Raid: earned" not in page


def test_a_leaders_death_in_a_battle_is_a_line_of_the_timeline(client, world):
    """A leader killed in a battle that took no step off the unit still makes the story, on
    the timeline and in "since your last visit", where the battle's other hits do not."""
    from campaign.models import HistoryEntry

    login(client, world, "player").get(_url("dashboard", world))  # the last visit
    captain = {"name": "Capt. Mara Holt", "hit_points": 3, "alive": True}
    HistoryEntry.objects.create(
        unit=world.unit, day=world.campaign.day, kind=HistoryEntry.Kind.BATTLE,
        battle=world.engine_battle.battle,
        text=f"Taken out at {world.engine_battle.name}: took 2 Morale, 1 Casualty hit",
        before={"morale_hits": 0, "casualty_hits": 0, "status": "ready", "leader": captain},
        after={"morale_hits": 2, "casualty_hits": 1, "status": "retreated",
               "leader": {**captain, "hit_points": -8, "alive": False}},
    )  # fmt: skip
    battle = world.engine_battle.name
    line = f"Capt. Mara Holt, leading Squad 1 (Red Company), was killed at {battle}</a>"
    assert line in client.get(_url("timeline", world)).text
    assert line in client.get(_url("dashboard", world)).text.split("Since your last visit")[1]


def test_a_table_battle_applied_again_keeps_its_earlier_step_as_its_own(client, world):
    """A table battle's entries name no battle: its record keeps those of every application, so
    the step its earlier application wrote, reverted, still links to the battle and says where,
    struck through. A record from before it kept them all knows only its latest application's:
    the earlier line then says the step and no more (not the entry's whole working)."""
    from campaign.models import CampaignBattle
    from campaign.services.battles import (
        campaign_battle_apply,
        campaign_battle_record,
        campaign_battle_revert,
    )
    from tests.web.campaign_world import raise_units

    gm = world.users["gm"]
    ours = raise_units(world.force, world.unit.unit_type, 1, "Pickets")[0]
    theirs = raise_units(world.enemy, world.unit.unit_type, 1, "Watch")[0]
    battle = campaign_battle_record(
        campaign=world.campaign, name="Ambush at the well",
        sides={"attackers": [ours], "defenders": [theirs]}, winner="attackers",
        outcomes={ours.pk: {"hits_lost": 0, "skill_lost": 1, "removed": "demoralised"},
                  theirs.pk: {"hits_lost": 0, "skill_lost": 0}},
        actor=gm,
    )  # fmt: skip
    battle = CampaignBattle.objects.get(pk=battle.pk)
    if battle.state != CampaignBattle.State.APPLIED:
        campaign_battle_apply(campaign_battle=battle, actor=gm)
    campaign_battle_revert(campaign_battle=CampaignBattle.objects.get(pk=battle.pk),
                           reason="wrong table", actor=gm)  # fmt: skip
    campaign_battle_apply(campaign_battle=CampaignBattle.objects.get(pk=battle.pk), actor=gm)
    fell = "Pickets 1 (Red Company) fell from Average to Inexperienced"
    rest = (
        "; retreated in poor order; now carries 1 Morale hit; lost 1 point "
        "of Skill to suppression for good"
    )
    there = _url("battle", world, battle.pk)
    page = login(client, world, "gm").get(_url("timeline", world)).text
    assert page.count(fell) == 2
    assert f'<a href="{there}">{fell} at Ambush at the well{rest}</a>' in page  # the latest
    assert f'<del><a href="{there}">{fell} at Ambush at the well{rest}</a></del>' in page

    CampaignBattle.objects.filter(pk=battle.pk).update(earlier_entries=[])
    page = client.get(_url("timeline", world)).text
    assert f'<a href="{there}">{fell} at Ambush at the well{rest}</a>' in page
    assert f'<del><a href="{_url("unit", world, ours.pk)}">{fell}{rest}</a></del>' in page


def test_the_timeline_lists_each_engagement_with_a_link_to_its_log(client, world):
    from campaign.services import quick_resolve_run

    gm = world.users["gm"]
    for unit in (world.unit, world.enemy_unit):
        unit_edit(unit=unit, changes={"status": "ready", "morale_hits": 0, "casualty_hits": 0},
                  reason="rested", actor=gm)  # fmt: skip
    record = quick_resolve_run(campaign=world.campaign, attacker=Unit.objects.get(pk=world.unit.pk),
                               defender=Unit.objects.get(pk=world.enemy_unit.pk), seed=4,
                               round_limit=2, reason="patrol at the well", actor=gm)  # fmt: skip
    page = login(client, world, "player").get(_url("timeline", world)).text
    log = _url("engagement", world, record.pk)
    assert f'<a href="{log}">Patrol at the well: ' in page  # a line begins with a capital
    assert f"after {record.rounds} rounds (applied)</a>" in page


def test_since_your_last_visit_shows_what_changed_for_your_units_only(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "ready"}, reason="fresh", actor=gm)
    login(client, world, "player")
    first = client.get(_url("dashboard", world)).text
    assert "Since your last visit" not in first  # nothing is "new" on a first visit
    ours = Unit.objects.get(pk=world.unit.pk)
    unit_edit(unit=ours, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    unit_edit(unit=world.enemy_unit, changes={"experience": 3}, reason="drill", actor=gm)
    page = client.get(_url("dashboard", world)).text
    assert "Since your last visit" in page
    assert "Squad 1 (Red Company) was destroyed" in page
    assert "Iron Wolf" not in page.split("Since your last visit")[1].split("</section>")[0]
    again = client.get(_url("dashboard", world)).text
    assert "Nothing has changed for your units since you last looked." in again


def test_a_players_needs_attention_lists_only_their_own_units(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.enemy_unit, changes={"status": "retreated"}, reason="routed", actor=gm)
    page = login(client, world, "player").get(_url("dashboard", world)).text
    attention = page.split("Needs attention")[1].split("</ul>")[0]
    assert "Iron Wolf" not in attention
    rival = login(client, world, "rival").get(_url("dashboard", world)).text
    # (Casualty hits awaiting the medics, if the world's battle left any, come first.)
    line = rival.split("Iron Wolf</a> (Blue Battalion): ")[1].split("</li>")[0]
    assert "Retreated in poor order" in line


def test_the_gm_dashboard_leads_with_what_needs_doing(client, world):
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    todo = page.split('id="todo-h"')[1].split("</section>")[0]
    apply = _url("battle-apply", world, world.table_battle.pk)
    assert "Skirmish at the mill</strong>: its outcome awaits your review" in todo
    assert f'href="{apply}">Review and apply</a>' in todo
    assert page.index('id="todo-h"') < page.index('id="forces-h"')


def test_an_empty_campaign_gets_first_steps(client, world):
    empty = campaign_create(name="Op. Blank", gm=world.users["gm"], ruleset="combined_arms")
    page = login(client, world, "gm").get(reverse("campaign:dashboard", args=[empty.pk])).text
    assert 'class="first-steps"' in page and "Raise a force" in page
    assert "Invite your players below" in page
    # Once players have joined, the first step says who, rather than asking again.
    for name in ("player", "rival"):
        membership_set(campaign=empty, user=world.users[name], role="player")
    page = client.get(reverse("campaign:dashboard", args=[empty.pk])).text
    steps = page.split('class="first-steps"')[1].split("</ol>")[0]
    names = [world.users[name].get_username() for name in ("player", "rival")]
    assert f"Your players have joined: <strong>{sorted(names)[0]}</strong>" in steps
    assert all(name in steps for name in names) and "Invite your players below" not in steps


def test_a_player_with_no_force_and_a_force_with_no_units_are_what_needs_doing(client, world):
    """Once a first force is raised, the first steps give way to the list: it names the player
    still without a force and the force still without units, not "Nothing waits on you"."""
    empty = campaign_create(name="Op. Blank", gm=world.users["gm"], ruleset="combined_arms")
    for name in ("player", "rival"):
        membership_set(campaign=empty, user=world.users[name], role="player")
    force = force_create(campaign=empty, owner=world.users["player"], name="Green Troop")
    page = login(client, world, "gm").get(reverse("campaign:dashboard", args=[empty.pk])).text
    todo = re.sub(r"\s+", " ", page.split('id="todo-h"')[1].split("</section>")[0])
    assert "Nothing waits on you" not in todo
    assert "<strong>rival</strong> plays no force yet" in todo and "player</strong>" not in todo
    add = reverse("campaign:force", args=[empty.pk, force.pk]) + "#add-form"
    assert (
        f'<strong>Green Troop</strong> has no units yet: <a href="{add}">add its units</a>' in todo
    )


def _pages(client, url: str, words: str) -> list[str]:
    """The page at ``url`` and each one its link of ``words`` leads on to, in turn."""
    pages = []
    while url and len(pages) < 50:
        response = client.get(url)
        assert response.status_code == 200
        pages.append(response.text)
        url = link(pages[-1], words) or link(pages[-1], words.replace("days", "on day 30"))
    return pages


def test_the_timeline_shows_a_window_of_days_and_pages_through_every_line_once(client, world):
    world.campaign.day = 44
    world.campaign.save(update_fields=["day"])
    # A note on each of days 2 to 44, and day 30 crowded beyond one page.
    days = [*range(2, 30), *[30] * (TIMELINE_LINES + 50), *range(31, 45)]
    add_notes(world.unit, days)
    login(client, world, "gm")
    first = client.get(_url("timeline", world)).text
    assert "Days 31 to 44 of 44." in first and "Day 30<" not in first
    assert "Note 0<" not in first and link(first, "Later days") is None
    pages = _pages(client, _url("timeline", world), "Earlier days")
    # Day 30 over two pages, its newest lines first; day 1 (the world's battles) last.
    assert "Day 30 of 44." in pages[1] and link(pages[1], "Earlier on day 30")
    assert "Days 17 to 30 of 44." in pages[2]  # the rest of day 30, and 13 days before it
    assert "Days 1 to 2 of 44." in pages[-1] and "Crossroads: Blue Battalion won" in pages[-1]
    assert link(pages[-1], "Earlier days") is None
    notes = [int(n) for page in pages for n in re.findall(r" — Note (\d+)</a>", page)]
    assert sorted(notes) == list(range(len(days)))
    # Newest first throughout.
    assert notes == sorted(notes, reverse=True)
    # Back from the last window to the later days.
    later = client.get(link(pages[-1], "Later days")).text
    assert "Days 3 to 16 of 44." in later


@pytest.mark.parametrize(
    "query", ["?before=abc", "?before=-3", "?before=0", "?before=99999999999", "?day=x&entry=3"]
)
def test_a_bad_window_of_the_timeline_shows_its_first(client, world, query):
    login(client, world, "player")
    page = client.get(_url("timeline", world) + query)
    assert page.status_code == 200 and "Day 1 of 1." in page.text
    assert "Crossroads: Blue Battalion won" in page.text


def _day_lines(page, day):
    """The lines of a day on the timeline, as read: label, then text."""
    section = re.search(rf'<h2 id="day-{day}">Day {day}</h2>(.*?)</section>', page, re.S)
    if section is None:
        return []
    return [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li .*?</li>", section[1])]


def test_the_timeline_says_how_each_day_runs(client, world):
    page = login(client, world, "player").get(_url("timeline", world)).text
    assert (
        "The latest day comes first. Each day tells its battles, its engagements, then what "
        "befell the units (deaths, promotions, GM corrections), each newest first; then the "
        "changes in the group, the calendar moving on and the GM's notes, in the order they "
        "happened." in page
    )
    assert "newest first." not in page  # not the whole day: its story runs in order
    lines = _day_lines(page, 1)
    fight = lines.index("Battle Crossroads: Blue Battalion won (applied)")
    befell = next(i for i, line in enumerate(lines) if "fell from Average" in line)
    joined = lines.index("Joined player joined as a player.")
    assert fight < befell < joined < lines.index("Joined rival joined as a player.")


def test_each_advance_of_the_calendar_is_told_on_the_day_it_arrives_at(client, world):
    login(client, world, "gm")
    night = {"days": "2", "reason": "Night falls over the Bridge 7", "confirm": "yes"}
    assert client.post(_url("advance", world), {**night, "reviewed_at": "0"}).status_code == 302
    # The same review confirmed again moves nothing and tells nothing.
    assert client.post(_url("advance", world), {**night, "reviewed_at": "0"}).status_code == 400
    quiet = {"days": "1", "confirm": "yes", "reviewed_at": "48"}
    assert client.post(_url("advance", world), quiet).status_code == 302
    # An hour or two of the clock is told only when the GM says why.
    clock = {"hours": "2", "confirm": "yes", "reviewed_at": "72"}
    assert client.post(_url("clock-advance", world), clock).status_code == 302
    dusk = {**clock, "hours": "3", "reason": "Dusk at the ford", "reviewed_at": "74"}
    assert client.post(_url("clock-advance", world), dusk).status_code == 302
    page = client.get(_url("timeline", world)).text
    assert _day_lines(page, 3) == [
        "Calendar The calendar moved on 2 days to day 3: Night falls over the Bridge 7."
    ]
    assert _day_lines(page, 4) == [
        "Calendar The calendar moved on 1 day to day 4.",
        "Calendar The clock moved on 3 hours to day 4, 05:00: Dusk at the ford.",
    ]
    assert "Today is day 4." in page and "Days 1 to 4 of 4." in page


def test_a_timeline_line_leaves_out_what_it_says_first_by_the_fields_not_their_words():
    """A line about a loss or a step says it first; the rest of what the entry did is
    `story_text` told without it (``headlines=False``), not its sentence with the parts that
    begin with the headline's words taken out."""
    from campaign.rules.history import story_text

    before = {"status": "ready", "quality": "average", "in_combat_zone": False}
    after = {"status": "destroyed", "quality": "green", "in_combat_zone": True}
    told = story_text(before, after, {}, headlines=False)
    assert "destroyed" not in told and "from Average to Green" not in told
    assert story_text(before, after, {}).startswith("was destroyed; fell from Average to Green")
    step = story_text({"quality": "average"}, {"quality": "experienced", "experience": 1}, {},
                      headlines=False)  # fmt: skip
    assert "rose" not in step
    assert step == story_text({}, {"experience": 1}, {"quality": "experienced"})


def test_a_battle_renamed_since_keeps_its_name_on_the_lines_of_what_it_did_to_units(client, world):
    """The battle's own line says its record's name now, as its page does; the line of what it
    did to a unit names it as the unit's entry kept it, as the unit's history does, and links
    to the battle all the same."""
    from campaign.models import CampaignBattle

    CampaignBattle.objects.filter(pk=world.engine_battle.pk).update(name="Elm Ford")
    login(client, world, "player")
    page = client.get(_url("timeline", world)).text
    battle = _url("battle", world, world.engine_battle.pk)
    assert f'<a href="{battle}">Elm Ford: Blue Battalion won (applied)</a>' in page
    assert (
        f'<a href="{battle}">Squad 1 (Red Company) fell from Average to Inexperienced at '
        "Crossroads; retreated in poor order;" in page
    )
    assert "Inexperienced at Elm Ford" not in page
    history = client.get(_url("unit", world, world.unit.pk)).text
    assert "Crossroads" in history and "Elm Ford" not in history


def test_a_units_raising_and_a_gms_correction_are_labelled_in_the_campaigns_words(client, world):
    """The dashboard's lines since a player's last visit label each by its kind in the words
    the lines themselves use: a unit "Raised in Red Company …" is labelled Raised, a GM's
    correction GM correction, never the stored kinds "Created" or "GM edit"."""
    gm = world.users["gm"]
    login(client, world, "player").get(_url("dashboard", world))  # the last visit
    fresh = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Fresh Squad")
    unit_edit(unit=fresh, changes={"morale_hits": 1}, reason="shelled", actor=gm)
    since = client.get(_url("dashboard", world)).text.split("Since your last visit")[1]
    labels = re.findall(r'<span class="event-kind">([^<]*)</span>', since.split("</ul>")[0])
    assert sorted(labels) == ["GM correction", "Raised"], labels


def test_a_day_crowded_with_fights_and_notes_shows_its_latest_and_counts_the_rest(
    client, world, big, monkeypatch
):
    """A day of more battles, or more of the group's notes, than a page of the timeline holds
    shows the latest of them, `TIMELINE_LINES` of each, with a line counting those left out
    and where to read them (every battle is on the list of them): the same few queries and
    the same size however many the day holds."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.models import CampaignBattle
    from campaign.pages import timeline
    from campaign.services.battles import campaign_battle_record
    from campaign.services.story import story_note_add

    monkeypatch.setattr(timeline, "TIMELINE_LINES", 5)
    gm = world.users["gm"]
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    login(client, world, "player")
    costs = []
    for total in (12, 24):
        for n in range(world.campaign.battles.count(), total):
            raider, picket = (raise_units(force, card, 1, f"Raid {n}")[0]
                              for force in (world.force, world.enemy))  # fmt: skip
            campaign_battle_record(
                campaign=world.campaign, name=f"Raid {n}", winner="attackers",
                sides={"attackers": [raider], "defenders": [picket]},
                outcomes={raider.pk: {"hits_lost": 0, "skill_lost": 0},
                          picket.pk: {"hits_lost": 0, "skill_lost": 0}},
                actor=gm,
            )  # fmt: skip
        for n in range(world.campaign.story.count(), total):
            story_note_add(campaign=world.campaign, text=f"Orders of the day {n}.", actor=gm)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(_url("timeline", world)).text
        lines = [html.unescape(line) for line in _day_lines(page, 1)]
        battles = [line for line in lines if line.startswith("Battle")]
        assert battles[:5] == [f"Battle Raid {n}: Red Company won (awaiting review)"
                               for n in range(total - 1, total - 6, -1)]  # fmt: skip
        assert battles[5] == (
            f"Battle {total - 5} earlier battles of day 1 are on the list of every battle."
        )
        assert link(page, f"{total - 5} earlier battles of day 1 are on the list of every "
                    "battle.") == _url("battles", world)  # fmt: skip
        # The group's story closes the day in the order it happened: its latest five, after the
        # line counting the rest.
        story = lines[lines.index(
            f"Story {total - 5} earlier lines of the campaign's story on day 1 are left out."
        ) + 1 :]  # fmt: skip
        assert story == [f"GM's note Orders of the day {n}." for n in range(total - 5, total)]
        assert CampaignBattle.objects.filter(campaign=world.campaign).count() == total
        costs.append((len(queries), len(page)))
    (few, small), (many, big) = costs
    assert few == many and big < small * 1.1


def test_a_unit_raised_once_the_fighting_began_and_a_leader_taking_command_are_on_the_timeline(
    client, world
):
    """The rosters a campaign starts with are the force pages' to list; a unit raised once its
    fighting has begun, and a character taking command of a unit, are its story's."""
    from campaign.models import HistoryEntry
    from campaign.rules.damage import UnitOutcome
    from campaign.services.leaders import leader_attach
    from campaign.services.outcomes import outcome_apply

    gm = world.users["gm"]
    first = HistoryEntry.objects.filter(unit__force__campaign=world.campaign)
    fought = first.filter(kind__in=HistoryEntry.FIGHTS).exists()
    early = None
    if not fought:
        early = unit_create(
            force=world.force, unit_type=world.unit.unit_type, name="Day-One Rifles"
        )
        outcome_apply(campaign=world.campaign, outcomes={world.unit.pk: UnitOutcome(0, 0)},
                      reason="First shots", actor=gm)  # fmt: skip
    late = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Late Rifles")
    leader_attach(unit=late, name="Sgt. Vance Okoro", hit_points=12, actor=gm)
    page = html.unescape(login(client, world, "gm").get(_url("timeline", world)).text)
    assert "Late Rifles (Red Company) — Raised in Red Company as" in page
    assert "Late Rifles (Red Company) — Sgt. Vance Okoro takes command" in page
    if early is not None:
        assert "Day-One Rifles" not in page
