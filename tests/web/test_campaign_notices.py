"""Email notices: a member who opted in is mailed, in the campaign's words, what befell their
own units — never anyone else's — once the change is committed; and "since your last visit"
is kept on the membership, so it holds across browsers."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from campaign import tasks
from campaign.models import Campaign, Membership, Unit
from campaign.pages.events import since_last_visit
from campaign.pages.stories import unit_story_lines
from campaign.selectors.entries import unit_story
from campaign.services import calendar_advance, campaign_update, unit_create, unit_edit
from campaign.services.battles import campaign_battle_apply, campaign_battle_record
from campaign.services.notices import campaign_notices_send, notices_set
from campaign.services.orders import clock_advance
from tests.web.campaign_world import login, raise_units
from units.cardtext import parse_card
from units.models import Ruleset, UnitType

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("locmem"),
]


def _opt_in(world, *roles: str) -> None:
    for role in roles:
        user = world.users[role]
        user.email = f"{role}@example.org"
        user.save()
        notices_set(campaign=world.campaign, user=user, on=True)


def _mails_to(role: str) -> list[str]:
    return [m.body for m in mail.outbox if m.to == [f"{role}@example.org"]]


def test_an_opted_in_player_is_told_of_her_own_units_only(world):
    _opt_in(world, "player")
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    unit_edit(unit=world.enemy_unit, changes={"status": "destroyed"}, reason="mined", actor=gm)
    assert campaign_notices_send(campaign_id=world.campaign.pk) == 1
    (body,) = _mails_to("player")
    assert mail.outbox[0].subject == "Op. Pages: news of your units"
    assert "Day 1: Squad 1 (Red Company) was destroyed (GM correction: shelled)." in body
    assert "Iron Wolf" not in body and "Blue Battalion" not in body
    # The rival did not opt in: nothing for her.
    assert _mails_to("rival") == []
    # Sent once: a second run (a retried task) finds nothing new.
    assert campaign_notices_send(campaign_id=world.campaign.pk) == 0
    assert len(mail.outbox) == 1


def test_a_campaign_whose_name_holds_a_line_break_is_still_mailed_on_one_line(world):
    # A name posted with a line break was kept, and every notice of the campaign then failed:
    # a mail's subject may not hold one.
    _opt_in(world, "player")
    gm = world.users["gm"]
    campaign_update(campaign=world.campaign, name="Op.\r\nPages", actor=gm)
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    assert campaign_notices_send(campaign_id=world.campaign.pk) == 1
    assert [m.subject for m in mail.outbox] == ["Op. Pages: news of your units"]
    assert "was destroyed (GM correction: shelled)" in _mails_to("player")[0]


def test_opting_in_counts_from_now_and_opting_out_stops_the_mail(world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    _opt_in(world, "player")  # after the loss: no mail about the past
    assert campaign_notices_send(campaign_id=world.campaign.pk) == 0
    notices_set(campaign=world.campaign, user=world.users["player"], on=False)
    second = Unit.objects.filter(force=world.force).exclude(pk=world.unit.pk).first()
    unit_edit(unit=second, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    assert campaign_notices_send(campaign_id=world.campaign.pk) == 0
    assert mail.outbox == []


def test_a_battle_applied_names_the_battle_its_winner_and_only_the_members_units(client, world):
    """Under fog each side saw only part of the other; a notice names its reader's units only,
    and who won as the battle's page tells every member."""
    Campaign.objects.filter(pk=world.campaign.pk).update(fog_of_war=True)
    _opt_in(world, "player", "rival")
    campaign_battle_apply(campaign_battle=world.table_battle, actor=world.users["gm"])
    assert campaign_notices_send(campaign_id=world.campaign.pk) == 2
    sides = world.table_battle.sides
    mine = Unit.objects.get(pk=sides["attackers"][0])
    theirs = Unit.objects.get(pk=sides["defenders"][0])
    (player,) = _mails_to("player")
    (rival,) = _mails_to("rival")
    won = "Skirmish at the mill: Red Company won."
    assert f"{won} Its outcome was applied to {mine.name} (Red Company)." in player
    assert f"{won} Its outcome was applied to {theirs.name} (Blue Battalion)." in rival
    assert "Blue Battalion" not in player
    assert f"{mine.name} (Red Company)" not in rival
    # The rival's page of the battle tells her the same: her side fought Red Company, who won.
    login(client, world, "rival")
    page = client.get(reverse("campaign:battle", args=[world.campaign.pk, world.table_battle.pk]))
    assert "Red Company</strong>" in page.text and '<span class="badge">won</span>' in page.text


def test_a_drawn_battle_is_told_as_a_draw(world):
    _opt_in(world, "player")
    gm = world.users["gm"]
    (picket,) = raise_units(world.force, world.unit.unit_type, 1, "Picket")
    (enemy,) = raise_units(world.enemy, world.unit.unit_type, 1, "Raider")
    battle = campaign_battle_record(
        campaign=world.campaign, name="Stand-off at the weir", winner=None,
        sides={"attackers": [picket], "defenders": [enemy]},
        outcomes={picket.pk: {"hits_lost": 0, "skill_lost": 0},
                  enemy.pk: {"hits_lost": 0, "skill_lost": 0}},
        actor=gm,
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    lines = body.splitlines()
    assert (
        "Stand-off at the weir: neither side won, a draw. Its outcome was applied to Picket 1 "
        "(Red Company)." in lines
    )
    # It was not in the combat zone before: it is now, and the fight left it unhurt.
    assert "  Picket 1 (Red Company) came through unhurt and is in the combat zone." in lines
    assert not any(": is in the combat zone" in line for line in lines)


def test_a_battle_applied_tells_what_it_left_each_of_the_members_units_once(world):
    _opt_in(world, "player")
    gm = world.users["gm"]
    shaken, spared = raise_units(world.force, world.unit.unit_type, 2, "Picket")
    enemy = raise_units(world.enemy, world.unit.unit_type, 1, "Raider")
    unit_edit(unit=spared, changes={"in_combat_zone": True}, reason="on the line", actor=gm)
    battle = campaign_battle_record(
        campaign=world.campaign, name="Night at the weir", winner="defenders",
        sides={"attackers": [shaken, spared], "defenders": enemy},
        outcomes={shaken.pk: {"hits_lost": 0, "skill_lost": 1, "removed": "demoralised"},
                  spared.pk: {"hits_lost": 0, "skill_lost": 0},
                  enemy[0].pk: {"hits_lost": 0, "skill_lost": 0}},
        actor=gm,
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    lines = body.splitlines()
    applied = lines.index(
        "Night at the weir: Blue Battalion won. Its outcome was applied to Picket 1 "
        "(Red Company) and Picket 2 (Red Company)."
    )
    # Broken on the table, a point of Skill lost for good: under Combined Arms, a quality step.
    assert lines[applied + 1] == (
        "  Picket 1 (Red Company) retreated in poor order, fell from Average to Inexperienced, "
        "now carries 1 Morale hit and lost 1 point of Skill to suppression "
        "for good."
    )
    # Nothing but its bookkeeping changed (it was in the combat zone already): in its history's
    # words, it came through unhurt.
    assert lines[applied + 2] == "  Picket 2 (Red Company) came through unhurt."
    # Told under its battle, not again as a day's news.
    assert body.count("fell from Average to Inexperienced") == 1
    assert "Raider" not in body


def test_a_fight_whose_name_says_took_is_told_by_the_name_its_entries_keep(client, world):
    """The mail and the dashboard cut a fight's line after the name its entries keep as data,
    not at the first words that read like what it did; an entry of no fight is kept whole,
    however its reason reads, there and on the timeline."""
    _opt_in(world, "player")
    gm = world.users["gm"]
    (spared,) = raise_units(world.force, world.unit.unit_type, 1, "Picket")
    (enemy,) = raise_units(world.enemy, world.unit.unit_type, 1, "Raider")
    unit_edit(unit=spared, changes={"in_combat_zone": True}, reason="on the line", actor=gm)
    name = "Night raid: took the ford — at dawn"
    battle = campaign_battle_record(
        campaign=world.campaign, name=name, winner="defenders",
        sides={"attackers": [spared], "defenders": [enemy]},
        outcomes={spared.pk: {"hits_lost": 0, "skill_lost": 0},
                  enemy.pk: {"hits_lost": 0, "skill_lost": 0}},
        actor=gm,
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    fire = "Ambush: took fire — the ridge held"
    unit_edit(unit=spared, changes={"morale_hits": 1}, reason=fire, actor=gm)
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    assert "  Picket 1 (Red Company) came through unhurt." in body.splitlines()
    told = [e.text for e in since_last_visit(world.campaign, {world.force.pk}, None)]
    fought = f"Picket 1 (Red Company) — {name}: came through unhurt"
    assert fought in told, told
    assert any(fire in text for text in told), told
    # The timeline tells the battle by its own line; the correction as the dashboard does.
    login(client, world, "player")
    timeline = client.get(reverse("campaign:timeline", args=[world.campaign.pk])).text
    assert f"GM correction: {fire}: now carries 1 Morale hit" in timeline


def test_casualty_hits_that_die_with_the_medical_window_are_told(world):
    _opt_in(world, "player")
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "ready"}, reason="fresh", actor=gm)
    unit_edit(unit=world.unit,
              changes={"casualty_hits": 1, "last_battle_day": 1, "quality": "average"},
              reason="wounded", actor=gm)  # fmt: skip
    Membership.objects.filter(user=world.users["player"]).update(
        notified_upto=world.unit.history.order_by("-id").first().pk
    )
    # The window closes after its 24th hour: a day and an hour on, the hit has died.
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    clock_advance(campaign=world.campaign, hours=1, actor=gm)
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    assert (
        "Day 2: Squad 1 (Red Company) fell from Average to Inexperienced: 1 Casualty hit not "
        "saved within 24 hours died (taken out at Crossroads; 3 Morale hits and 2 Casualty "
        "hits; medics saved 0); now carries 2 Morale hits." in body
    )
    assert "window" not in body  # the campaign page's words for the medics' time


@pytest.mark.parametrize(
    ("quality", "reason", "told"),
    [
        ("elite", "citation", "rose from Average to Elite (GM correction: citation)."),
        (
            "raw",
            "lost its sergeants",
            "fell from Average to Raw (GM correction: lost its sergeants).",
        ),
    ],
    ids=["won", "lost"],
)
def test_a_step_won_or_lost_is_told_with_why(world, quality, reason, told):
    _opt_in(world, "player")
    (fresh,) = raise_units(world.force, world.unit.unit_type, 1, "Picket")
    unit_edit(unit=fresh, changes={"quality": quality}, reason=reason, actor=world.users["gm"])
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    assert f"Day 1: Picket 1 (Red Company) {told}" in body


def test_the_send_is_queued_only_after_commit(
    world, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr(tasks.campaign_notices_send, "delay", queued.append)
    gm = world.users["gm"]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        unit_edit(unit=world.unit, changes={"experience": 1}, reason="drill", actor=gm)
        assert queued == []  # not while the change may still roll back
    assert queued == [world.campaign.pk] and len(callbacks) == 1
    # A change that rolls back queues nothing.
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        unit_edit(unit=world.unit, changes={"experience": 2}, reason="drill", actor=gm)
        raise RuntimeError("rolled back")
    assert callbacks == [] and queued == [world.campaign.pk]


def test_notices_need_a_membership_and_an_email_address(world):
    with pytest.raises(ValidationError, match="no e-mail address"):
        notices_set(campaign=world.campaign, user=world.users["player"], on=True)
    with pytest.raises(ValidationError, match="Only a member"):
        notices_set(campaign=world.campaign, user=world.users["outsider"], on=True)


def test_a_member_opts_in_on_the_dashboard(client, world):
    url = reverse("campaign:dashboard", args=[world.campaign.pk])
    page = login(client, world, "player").get(url).text
    assert "Your account has no e-mail address" in page
    player = world.users["player"]
    player.email = "player@example.org"
    player.save()
    assert "Sent to player@example.org" in client.get(url).text
    response = client.post(reverse("campaign:notices", args=[world.campaign.pk]),
                           {"email_notices": "on"})  # fmt: skip
    assert response.status_code == 302
    assert Membership.objects.get(user=player, campaign=world.campaign).email_notices
    # A spectator and the GM have no units of their own: no such form.
    assert 'id="notices-form"' not in login(client, world, "spectator").get(url).text
    assert 'id="notices-form"' not in login(client, world, "gm").get(url).text


def test_since_your_last_visit_is_kept_per_member_across_browsers(client, world, django_user_model):
    from django.test import Client

    url = reverse("campaign:dashboard", args=[world.campaign.pk])
    phone = Client()
    login(client, world, "player").get(url)  # the first visit, on the desktop
    assert Membership.objects.get(user=world.users["player"]).last_visit_at is not None
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    phone.force_login(world.users["player"])
    page = phone.get(url).text  # a new browser, with a session of its own
    assert "Since your last visit" in page and "Squad 1 (Red Company) was destroyed" in page
    # Back on the desktop, the change has been seen.
    assert "Nothing has changed for your units since you last looked." in client.get(url).text
    # The GM's visits are kept on the campaign.
    login(client, world, "gm").get(url)
    assert Campaign.objects.get(pk=world.campaign.pk).gm_last_visit_at is not None


def test_a_visit_that_shows_nothing_new_writes_nothing(client, world):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("campaign:dashboard", args=[world.campaign.pk])
    player = world.users["player"]
    login(client, world, "player").get(url)  # the first visit is recorded
    first = Membership.objects.get(user=player).last_visit_at
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).text
    assert "Nothing has changed for your units since you last looked." in page
    assert not [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
    assert Membership.objects.get(user=player).last_visit_at == first
    # A change to the player's units is news: shown once, and the visit that showed it counts.
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    assert "Squad 1 (Red Company) was destroyed" in client.get(url).text
    assert Membership.objects.get(user=player).last_visit_at > first
    assert "Nothing has changed for your units since you last looked." in client.get(url).text
    # The GM's visits alike, on the campaign.
    login(client, world, "gm").get(url)
    seen = Campaign.objects.get(pk=world.campaign.pk).gm_last_visit_at
    client.get(url)
    assert Campaign.objects.get(pk=world.campaign.pk).gm_last_visit_at == seen


@override_settings(SITE_URL="https://bridgehead.example.org")
def test_with_the_sites_address_a_notice_links_the_report_the_roster_and_the_campaign(
    client, world
):
    _opt_in(world, "player")
    campaign_battle_apply(campaign_battle=world.table_battle, actor=world.users["gm"])
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    pk = world.campaign.pk
    report = reverse("campaign:battle", args=[pk, world.table_battle.pk])
    roster = reverse("campaign:force", args=[pk, world.force.pk])
    lines = body.splitlines()
    assert f"  Its report: https://bridgehead.example.org{report}" in lines
    applied = next(i for i, line in enumerate(lines) if "Its outcome was applied to" in line)
    told = lines.index(f"  Its report: https://bridgehead.example.org{report}")
    assert all(line.startswith("  ") for line in lines[applied + 1 : told])  # under its battle
    assert f"Red Company's roster: https://bridgehead.example.org{roster}" in lines
    dashboard = reverse("campaign:dashboard", args=[pk])
    assert f"The campaign: https://bridgehead.example.org{dashboard}" in lines
    # Each link is a page its reader may open; no other force's.
    login(client, world, "player")
    for path in (report, roster, dashboard):
        assert client.get(path).status_code == 200
    assert "Blue Battalion" not in body
    # Where to turn them off, by the name the site gives that page: none is headed "dashboard".
    assert "you asked for them on the campaign's page; turn them off there." in body
    assert "dashboard" not in body


def test_without_the_sites_address_a_notice_from_a_task_carries_no_link(world):
    _opt_in(world, "player")
    campaign_battle_apply(campaign_battle=world.table_battle, actor=world.users["gm"])
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    assert "Skirmish at the mill: Red Company won. Its outcome was applied to" in body
    assert "http" not in body and "roster" not in body


def test_a_step_won_in_a_battle_is_told_under_it_once(world):
    _opt_in(world, "player")
    gm = world.users["gm"]
    (veteran,) = raise_units(world.force, world.unit.unit_type, 1, "Veteran")
    (enemy,) = raise_units(world.enemy, world.unit.unit_type, 1, "Raider")
    unit_edit(unit=veteran, changes={"experience": 3}, reason="records found", actor=gm)
    battle = campaign_battle_record(
        campaign=world.campaign, name="Dawn at the weir", winner="attackers",
        sides={"attackers": [veteran], "defenders": [enemy]},
        outcomes={veteran.pk: {"hits_lost": 0, "skill_lost": 0},
                  enemy.pk: {"hits_lost": 0, "skill_lost": 0}},
        actor=gm,
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    # Average needs 4 points for its next step; a battle won brings 2: 3 + 2 is a step and 1 over.
    assert (
        "  Veteran 1 (Red Company) came through unhurt, is in the combat zone, rose from Average "
        "to Experienced and starts again with 1 of the 5 experience points it needs to rise to "
        "Elite."
    ) in body.splitlines()
    assert body.count("rose from") == 1 and "Day 1:" not in body


def test_a_unit_whose_kit_stopped_every_hit_is_told_it_took_no_hits_as_its_history_says(world):
    # Hits 6: a Hit lost is one BUCS hit, which Armor (Casualty) or Excellent kit (the first
    # Morale hit) stops, whichever it comes out as.
    card = UnitType.objects.create(
        name="Bunker", ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.UNIT,
        card=parse_card("Bunker\nSkill 3 · Move 1 · Resistance 6 · Hits 6 · Size 4\n"
                        "Cannon — Power 4, Range 12"),
    )  # fmt: skip
    gm = world.users["gm"]
    bunker = unit_create(force=world.force, unit_type=card, name="Bunker 1",
                         specialties=["mechanized", "armor"], equipment="excellent")  # fmt: skip
    unit_edit(unit=bunker, changes={"in_combat_zone": True}, reason="on the line", actor=gm)
    (raider,) = raise_units(world.enemy, world.unit.unit_type, 1, "Raider")
    _opt_in(world, "player")
    battle = campaign_battle_record(
        campaign=world.campaign, name="Shelling at the weir", winner=None,
        sides={"attackers": [bunker], "defenders": [raider]},
        outcomes={bunker.pk: {"hits_lost": 1, "skill_lost": 0},
                  raider.pk: {"hits_lost": 0, "skill_lost": 0}},
        actor=gm,
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    said = [line.why for line in unit_story_lines(unit_story(unit=bunker))]
    assert any(why.startswith("took no hits — ") for why in said), said
    campaign_notices_send(campaign_id=world.campaign.pk)
    (body,) = _mails_to("player")
    assert "  Bunker 1 (Red Company) took no hits." in body.splitlines()


def test_a_backlog_of_news_is_told_by_its_latest_changes_and_how_many_are_left_out(
    world, monkeypatch
):
    """Notices held up (the mail down for a week of battles) are told in one mail of bounded
    size: the latest `NOTICE_ENTRIES_MOST` changes, and how many older ones the timeline
    holds; the next notice counts from the latest, so nothing is told twice."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.selectors.timeline import notice_entries
    from campaign.services import notices

    monkeypatch.setattr(notices, "NOTICE_ENTRIES_MOST", 5)
    _opt_in(world, "player")
    gm = world.users["gm"]
    squads = raise_units(world.force, world.unit.unit_type, 2, "Picket")
    raiders = raise_units(world.enemy, world.unit.unit_type, 2, "Raider")
    costs = []
    for fights in (4, 8):
        for n in range(fights):
            battle = campaign_battle_record(
                campaign=world.campaign, name=f"Raid {fights}-{n}", winner="defenders",
                sides={"attackers": squads, "defenders": raiders},
                outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in squads + raiders},
                actor=gm,
            )  # fmt: skip
            campaign_battle_apply(campaign_battle=battle, actor=gm)
        upto = Membership.objects.get(campaign=world.campaign, user=world.users["player"])
        news = notice_entries(force_ids={world.force.pk}, after_id=upto.notified_upto)
        assert len(news) >= fights * 2  # each raid told of two of the player's units at least
        mail.outbox.clear()
        with CaptureQueriesContext(connection) as queries:
            assert campaign_notices_send(campaign_id=world.campaign.pk) == 1
        (body,) = _mails_to("player")
        # The latest five told, the rest counted.
        assert f"{len(news) - 5} older changes to your units are left out" in body
        assert f"Raid {fights}-{fights - 1}: Blue Battalion won. Its outcome was applied to" in body
        assert f"Raid {fights}-{fights - 4}" not in body
        costs.append((len(queries), len(body)))
    (few, small), (many, big) = costs
    assert few == many and big < small * 1.1
    mail.outbox.clear()
    assert campaign_notices_send(campaign_id=world.campaign.pk) == 0  # nothing told twice
