"""A destroyed unit on its force's roster and its own page: it carries no hits to heal, however
many it carried as it fell. The demo's 2nd Squad, destroyed in the Patrol clash at the ford with
1 Morale and 1 Casualty hit, showed those hits on both, and its hit boxes on the roster; its
status said "Destroyed" and no more. Both now say where and when it fell, its hits "—"; its
stored state and its exports keep the hits it fell with, and the medics never count them."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign, Unit
from campaign.pages import destroyed_where, medics_today, units_needing_attention
from campaign.selectors import campaign_now
from campaign.services import unit_edit
from tests.web.test_campaign_pages import _words

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


def test_the_medics_and_the_needs_doing_never_count_a_destroyed_units_hits(demo):
    from campaign.pages import roster_line

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
