"""A destroyed unit on its force's roster and its own page: it carries no hits to heal, however
many it carried as it fell. The demo's 2nd Squad, destroyed in the Patrol clash at the ford with
1 Morale and 1 Casualty hit, showed those hits on both, and its hit boxes on the roster; its
status said "Destroyed" and no more. Both now say where and when it fell, its hits "—", and
Find a unit says where it fell, naming no hits; its stored state and its exports keep the hits
it fell with, and the medics never count them."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign, Unit
from campaign.pages.attention import units_needing_attention
from campaign.pages.destroyed import destroyed_where
from campaign.pages.forces import units_count_text
from campaign.pages.medics import medics_today
from campaign.selectors.roster import campaign_now
from campaign.services import calendar_advance, unit_edit
from tests.web.test_campaign_pages_roster import _words

pytestmark = pytest.mark.django_db

FELL = "at Patrol clash at the ford, day 2"


@pytest.fixture
def demo():
    demo_load()
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    squad = Unit.objects.get(force__campaign=campaign, name="2nd Squad")
    assert (squad.status, squad.morale_hits, squad.casualty_hits) == ("destroyed", 1, 1)
    return campaign, squad


def _row(page: str, name: str) -> str:
    return page.split(f">{name}</a>", 1)[1].split("</tr>", 1)[0]


@pytest.mark.parametrize("username", ["alice", "gm"])
def test_the_roster_says_where_a_destroyed_unit_fell_not_its_hits(client, demo, username):
    campaign, squad = demo
    client.force_login(get_user_model().objects.get(username=username))
    page = client.get(reverse("campaign:force", args=[campaign.pk, squad.force_id])).text
    row = _row(page, "2nd Squad")
    cells = dict(re.findall(r'<td [^>]*data-label="([^"]*)">(.*?)</td>', row, re.S))
    assert _words(cells["Morale hits"]).strip() == "—"
    assert _words(cells["Casualty hits"]).strip() == "—"
    assert " ".join(_words(cells["Status"]).split()) == f"Destroyed {FELL}"
    assert "pip" not in row and "Casualty hits of the" not in row
    # A unit standing still shows its hits and its hit boxes.
    standing = _row(page, "1st Squad")
    assert 'class="pips"' in standing and "0 Morale and 0 Casualty hits of the" in standing
    assert "5 units (1 destroyed)" in page
    # Nothing for the medics to do for it.
    assert "No unit has Casualty or Morale hits the medics may heal." in page
    assert f'name="save_{squad.pk}"' not in page and f'name="heal_{squad.pk}"' not in page


def test_a_destroyed_units_page_says_where_it_fell_not_its_hits(client, demo):
    campaign, squad = demo
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("campaign:unit", args=[campaign.pk, squad.pk])).text
    meta = _words(page.split('<p class="meta">', 1)[1].split("</p>", 1)[0])
    assert " ".join(meta.split()).startswith(
        f"Green Rifle Squad of Red Company · Destroyed {FELL} ·"
    )
    now = page.split('<dl class="facts">', 1)[1].split("</dl>", 1)[0]
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>(.*?)</dd>", now, re.S))
    assert (_words(facts["Morale hits"]), _words(facts["Casualty hits"])) == ("—", "—")
    # Its stored state, and so its exports, keep the hits it fell with.
    exported = json.loads(
        client.get(reverse("campaign:unit-json", args=[campaign.pk, squad.pk])).content
    )
    assert re.search(r'"morale_hits": 1\b', json.dumps(exported))
    assert re.search(r'"casualty_hits": 1\b', json.dumps(exported))


def test_a_destroyed_units_correction_form_says_where_it_fell_and_what_its_hits_are(client, demo):
    """The GM's correction form of a destroyed unit offered the hits it fell with (1 and 1) as
    if it carried them, where its page says "—". A correction may still bring it back (its
    status set back), so the form stays, and says where it fell and that the numbers are those
    it fell with; a unit standing has its hits offered as they are."""
    campaign, squad = demo
    client.force_login(get_user_model().objects.get(username="gm"))
    page = client.get(reverse("campaign:unit", args=[campaign.pk, squad.pk])).text
    form = page.split('id="edit-form"', 1)[1].split("</form>", 1)[0]
    said = " ".join(_words(form).split())
    assert f"2nd Squad was destroyed {FELL}: it carries no hits now." in said
    assert said.count("Those it fell with: they count again only if its status is set back.") == 2
    standing = Unit.objects.get(force=squad.force, name="1st Squad")
    page = client.get(reverse("campaign:unit", args=[campaign.pk, standing.pk])).text
    form = page.split('id="edit-form"', 1)[1].split("</form>", 1)[0]
    assert "was destroyed" not in form and "fell with" not in form


@pytest.mark.parametrize("username", ["alice", "gm"])
def test_a_destroyed_unit_is_offered_no_next_step_and_no_orders(client, demo, username):
    """A destroyed unit takes no step more and no Order: its page and its roster line gave
    "0 of 2 for the next step" and led to the Orders page, which offers it none."""
    campaign, squad = demo
    client.force_login(get_user_model().objects.get(username=username))
    page = client.get(reverse("campaign:unit", args=[campaign.pk, squad.pk])).text
    now = page.split('<dl class="facts">', 1)[1].split("</dl>", 1)[0]
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd[^>]*>(.*?)</dd>", now, re.S))
    # The points it held are named as points, not left a bare number.
    assert _words(facts["Experience"]) == "0 points (1 battle)"
    assert _words(facts["Order"]) == "none under way"
    roster = client.get(reverse("campaign:force", args=[campaign.pk, squad.force_id])).text
    assert "for the next step" not in _row(roster, "2nd Squad")
    assert '"Experience">0<span class="small"> points</span>' in _row(roster, "2nd Squad")
    # A standing unit still reads its next step and is led to its Orders.
    standing = Unit.objects.get(force=squad.force, name="1st Squad")
    page = client.get(reverse("campaign:unit", args=[campaign.pk, standing.pk])).text
    assert "for the next step" in page
    assert reverse("campaign:orders", args=[campaign.pk]) in page.split('id="unit-order"')[1]


@pytest.mark.parametrize("username", ["alice", "carol"])
def test_find_a_unit_says_where_a_destroyed_unit_fell_not_its_hits(client, demo, username):
    """Found by name, 2nd Squad read "Destroyed" and "1 Morale, 1 Casualty hit", the hits its
    roster line and its page no longer give it: it says where and when it fell instead."""
    campaign, _ = demo
    client.force_login(get_user_model().objects.get(username=username))
    page = client.get(reverse("campaign:units", args=[campaign.pk]) + "?q=squad").text
    line = page.split(">2nd Squad</a>", 1)[1].split("</li>", 1)[0].replace("<br>", " ")
    line = " ".join(_words(line).split())
    assert line == f"Destroyed {FELL} Rifle Squad · Green"
    # A standing unit found with hits still says them.
    page = client.get(reverse("campaign:units", args=[campaign.pk]) + "?q=rifles").text
    line = page.split(">Blue Rifles</a>", 1)[1].split("</li>", 1)[0].replace("<br>", " ")
    line = " ".join(_words(line).split())
    assert "· 5 Casualty hits" in line and "at " not in line
    assert "0 Morale" not in line  # only the kinds of hit it carries


@pytest.mark.parametrize("username", ["alice", "gm"])
def test_where_a_destroyed_unit_fell_links_the_fight_to_its_page(client, demo, username):
    """ "Destroyed at Patrol clash at the ford, day 2" named the engagement in plain words on
    the unit's page, its roster line and the search, while its history linked it: the name is
    the link to the engagement's page on each, the words around it unchanged."""
    from campaign.models import Engagement

    campaign, squad = demo
    fight = Engagement.objects.get(campaign=campaign, name="Patrol clash at the ford")
    link = (
        f'at <a href="{reverse("campaign:engagement", args=[campaign.pk, fight.pk])}">'
        "Patrol clash at the ford</a>, day 2"
    )
    client.force_login(get_user_model().objects.get(username=username))
    for path in (
        reverse("campaign:unit", args=[campaign.pk, squad.pk]),
        reverse("campaign:force", args=[campaign.pk, squad.force_id]),
        reverse("campaign:units", args=[campaign.pk]) + "?q=squad",
    ):
        assert link in client.get(path).text, path
    # Said in words, the same as before; a fight whose page is not known stays words.
    said = destroyed_where([squad], campaign.pk)[squad.pk]
    assert said == FELL and said.url and said.name == "Patrol clash at the ford"
    assert not getattr(destroyed_where([squad])[squad.pk], "url", "")


def test_the_medics_and_the_needs_doing_never_count_a_destroyed_units_hits(demo):
    from campaign.pages.roster import roster_line

    campaign, squad = demo
    now = campaign_now(campaign)
    # Its Casualty hits still within their 24 hours: a standing unit's would await the medics.
    Unit.objects.filter(pk=squad.pk).update(window_from=now - 1, in_combat_zone=False)
    squad.refresh_from_db()
    line = roster_line(squad, now)
    assert not line.needs_medics
    medics = medics_today(squad.force, [line])
    assert (medics.wounded, medics.shaken) == ([], [])
    assert squad not in [a.unit for a in units_needing_attention(campaign, {squad.force_id})]


def test_a_unit_destroyed_by_a_correction_says_when_and_why(demo):
    campaign, squad = demo
    other = Unit.objects.get(force__campaign=campaign, name="1st Squad")
    unit_edit(unit=other, changes={"status": "destroyed"}, reason="lost in the flood")
    said = destroyed_where([squad, Unit.objects.get(pk=other.pk)])
    assert said[squad.pk] == FELL
    assert said[other.pk] == f"on day {campaign.day} (GM correction: lost in the flood)"


def test_a_unit_its_dead_destroyed_is_said_on_the_roster_and_its_page_as_its_history_tells_them(
    client, demo
):
    """Atlas (in no battle awaiting review), set Raw with a Casualty hit by the GM's correction,
    loses it when the medics' 24 hours are over and is destroyed. Its roster line and its page
    say the dead as its history does, how many and of what, not only that the 24 hours were
    over."""
    from campaign.services.orders import clock_advance

    campaign, _ = demo
    gm = get_user_model().objects.get(username="gm")
    squad = Unit.objects.get(force__campaign=campaign, name="Atlas")
    unit_edit(unit=squad, changes={"quality": "raw", "casualty_hits": 1},
              reason="shelled at the ford", actor=gm)  # fmt: skip
    clock_advance(campaign=campaign, hours=25, actor=gm)
    squad.refresh_from_db()
    assert squad.status == "destroyed"
    dead = (
        "1 Casualty hit not saved within 24 hours died (GM correction: shelled at the ford; "
        "1 Casualty hit; medics saved 0)"
    )
    fell = f"on day {campaign.day + 1}: {dead}"
    client.force_login(gm)
    roster = client.get(reverse("campaign:force", args=[campaign.pk, squad.force_id])).text
    cells = dict(
        re.findall(r'<td [^>]*data-label="([^"]*)">(.*?)</td>', _row(roster, "Atlas"), re.S)
    )
    assert " ".join(_words(cells["Status"]).split()) == f"Destroyed {fell}"
    page = client.get(reverse("campaign:unit", args=[campaign.pk, squad.pk])).text
    meta = " ".join(_words(page.split('<p class="meta">', 1)[1].split("</p>", 1)[0]).split())
    assert f"Destroyed {fell} ·" in meta
    assert f"{dead}: was destroyed." in " ".join(_words(page).split())
    assert "24 hours were over" not in roster + page


def test_a_destroyed_units_chart_ends_its_hits_the_day_before_it_fell(client, demo):
    """2nd Squad fell on day 2 with 1 Morale and 1 Casualty hit: its chart of points and hits
    draws its hits to day 1 and no further, and its table says "—" for them from day 2, as its
    page does; its experience goes on, two days later too."""
    campaign, squad = demo
    calendar_advance(campaign=campaign, days=2)
    campaign.refresh_from_db()
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("campaign:unit", args=[campaign.pk, squad.pk])).text
    chart = page.split('aria-labelledby="counts-chart-title"', 1)[1].split("</figure>", 1)[0]
    for name in ("Morale hits", "Casualty hits"):
        drawn = re.findall(rf"<title>{name}, day (\d+): (\d+)</title>", chart)
        assert drawn and drawn[-1][0] == "1", name
    days = [int(d) for d in re.findall(r"<title>Experience, day (\d+): \d+</title>", chart)]
    assert days[-1] == campaign.day == 4
    assert "its hits end the day before it was destroyed, when it had none left to heal" in chart
    # One hit line over the other, to the day before it fell, not every day.
    assert "(0 every day to day 1, as Morale hits: one line over the other)" in chart
    rows = re.findall(r'<th scope="row"><span class="stack-only">Day </span>(\d+)</th>(.*?)</tr>',
                      chart, re.S)  # fmt: skip
    for day, row in rows:
        cells = dict(re.findall(r'<td data-label="([^"]*)">(.*?)</td>', row))
        hits = (cells["Morale hits"], cells["Casualty hits"])
        assert (hits == ("—", "—")) == (int(day) >= 2), day


def test_a_unit_destroyed_by_a_correction_of_its_status_alone_ends_its_hits_too(client, demo):
    """A correction that sets its status alone ends its hits on the chart as a battle does:
    the chart reads the unit's status from its history with what it draws."""
    campaign, _ = demo
    other = Unit.objects.get(force__campaign=campaign, name="1st Squad")
    unit_edit(unit=other, changes={"status": "destroyed"}, reason="lost in the flood")
    calendar_advance(campaign=campaign, days=1)
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("campaign:unit", args=[campaign.pk, other.pk])).text
    chart = page.split('aria-labelledby="counts-chart-title"', 1)[1].split("</figure>", 1)[0]
    drawn = re.findall(r"<title>Casualty hits, day (\d+): \d+</title>", chart)
    assert drawn[-1] == str(campaign.day - 1)
    assert re.findall(r"<title>Experience, day (\d+): \d+</title>", chart)[-1] == "3"


def test_a_forces_count_says_its_destroyed_units_apart_and_when_all_are():
    assert units_count_text(0, 0) == "0 units"
    assert units_count_text(1, 0) == "1 unit"
    assert units_count_text(5, 1) == "5 units (1 destroyed)"
    assert units_count_text(3, 2) == "3 units (2 destroyed)"
    assert units_count_text(1, 1) == "1 unit, destroyed"
    assert units_count_text(2, 2) == "2 units, all destroyed"
