"""Between battles on the unit and force pages: the combat zone, leaders, the medics unit by
unit. Each works for the GM (who is not staff) through the services, and is refused with the
service's reason or a 403 where it must be."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaign.models import HistoryEntry, Unit
from campaign.pages.attention import Attention, rallying_text
from campaign.pages.deadlines import medics_deadline, rally_when
from campaign.rules.orders import clock_hour, clock_text
from campaign.rules.recovery import days_to_rally, medical_window_closes
from campaign.selectors.roster import campaign_now
from campaign.services import calendar_advance, outcome_revert, unit_create, unit_edit, unit_move
from campaign.table_forms.characters import TRAINING_HELP
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _fresh(unit):
    return Unit.objects.select_related("leader").get(pk=unit.pk)


def _set(world, unit, **changes):
    unit_edit(unit=unit, changes=changes, reason="set up", actor=world.users["gm"])
    return _fresh(unit)


def test_the_gm_withdraws_a_unit_and_sends_it_back(client, world):
    unit = _set(world, world.unit, status="ready", in_combat_zone=True)
    assert not world.users["gm"].is_staff
    login(client, world, "gm")
    url = _url("unit-zone", world, unit.pk)
    page = client.get(_url("unit", world, unit.pk)).text
    assert "Withdraw to the rear" in page and "withdraw it first" in page
    # A day in the zone heals Morale hits (rulings: R&R), never the last: said so, not as "no R&R".
    assert (
        f"{unit.name} is in the combat zone, under stress: each day there heals a Morale hit but "
        "never its last, and it cannot train. Withdrawn to the rear, its days of R&amp;R heal the "
        "last one too, and it can train." in page
    )
    response = client.post(url, {"in_combat_zone": "no", "reason": "to the rear for a refit"})
    assert response.status_code == 302
    assert _fresh(unit).in_combat_zone is False
    entry = unit.history.last()
    assert entry.kind == HistoryEntry.Kind.DEPLOYMENT and "refit" in entry.text
    # Out of the zone the unit may train: the button is no longer disabled.
    page = client.get(_url("unit", world, unit.pk)).text
    assert "Send into the combat zone" in page and "withdraw it first" not in page
    # Training moves no clock: the form says so, as the GM rules its time.
    # In the words the campaign's page shows: nothing on the site is headed "dashboard".
    assert (
        "the campaign's clock does not move for it (advance the calendar on the campaign's page)"
        in TRAINING_HELP
    )
    assert "dashboard" not in page.lower()
    assert escape(TRAINING_HELP) in page
    # The Characters page's training form says the same, before a unit is chosen.
    characters = client.get(_url("characters", world)).text
    form = characters.split('id="train-form"')[1].split("</form>")[0]
    assert escape(TRAINING_HELP) in form
    assert client.post(url, {"in_combat_zone": "yes"}, **HTMX)["HX-Redirect"]
    assert _fresh(unit).in_combat_zone is True


def test_the_owner_moves_their_own_unit_but_not_anothers(client, world):
    _set(world, world.unit, status="ready", in_combat_zone=True)
    login(client, world, "player")
    assert (
        client.post(_url("unit-zone", world, world.unit.pk), {"in_combat_zone": "no"}).status_code
        == 302
    )
    assert (
        client.post(
            _url("unit-zone", world, world.enemy_unit.pk), {"in_combat_zone": "no"}
        ).status_code
        == 403
    )
    login(client, world, "spectator")
    assert (
        client.post(_url("unit-zone", world, world.unit.pk), {"in_combat_zone": "yes"}).status_code
        == 403
    )


def test_the_combat_zone_form_is_offered_only_to_whoever_moves_the_unit(client, world):
    """The unit's page offers its move to the combat zone or the rear to its force's player
    and the GMs, who may make it; a rival player or a spectator, who sees the unit in full, is
    offered nothing their press would be refused."""
    url = _url("unit", world, world.unit.pk)
    for role, offered in (("player", True), ("gm", True), ("rival", False), ("spectator", False)):
        page = login(client, world, role).get(url)
        assert page.status_code == 200, role
        assert ('id="zone-form"' in page.text) == offered, role


def test_a_destroyed_unit_is_not_moved_and_the_page_offers_no_move(client, world):
    unit = _set(world, world.unit, status="destroyed")
    login(client, world, "gm")
    assert 'id="zone-form"' not in client.get(_url("unit", world, unit.pk)).text
    refused = client.post(_url("unit-zone", world, unit.pk), {"in_combat_zone": "yes"})
    assert refused.status_code == 400 and "is destroyed" in refused.text
    assert _fresh(unit).in_combat_zone is False
    bad = client.post(_url("unit-zone", world, world.enemy_unit.pk), {"in_combat_zone": "maybe"})
    assert bad.status_code == 400


def test_a_destroyed_units_page_offers_the_gm_no_move_to_another_force_nor_a_leader(client, world):
    """Nobody is left to move or to lead: the GM's page of a destroyed unit offers neither
    form (the services refuse both), where a ready unit's page offers both."""
    unit = world.unit  # raised with no leader
    login(client, world, "gm")
    page = client.get(_url("unit", world, unit.pk)).text
    assert 'id="move-form"' in page and 'id="leader-form"' in page
    _set(world, unit, status="destroyed")
    page = client.get(_url("unit", world, unit.pk)).text
    assert 'id="move-form"' not in page and 'id="leader-form"' not in page


def test_a_units_page_offers_its_corrections_training_move_and_leader_to_the_gms_alone(
    client, world
):
    """The GM's tools on a unit's page — correct it, train it, move it to another force, give
    it a leader — are the GMs' alone: its own player, a rival and a spectator are offered none
    of them."""
    gms = ("edit-form", "train-form", "move-form", "leader-form")
    url = _url("unit", world, world.unit.pk)
    for role in ("gm", "co_gm", "player", "rival", "spectator"):
        page = login(client, world, role).get(url).text
        offered = [form for form in gms if f'id="{form}"' in page]
        assert offered == (list(gms) if role in ("gm", "co_gm") else []), role


def test_a_tampered_move_is_refused_once_above_the_form(client, world):
    unit = _set(world, world.unit, status="ready", in_combat_zone=True)
    login(client, world, "gm")
    url = _url("unit-zone", world, unit.pk)
    sentence = escape(
        "“maybe” is neither into the combat zone nor out of it: send the unit in or withdraw it "
        "with the button."
    )
    for headers in ({}, HTMX):
        refused = client.post(url, {"in_combat_zone": "maybe"}, **headers)
        form = re.search(r'<form id="zone-form".*?</form>', refused.text, re.S)[0]
        assert re.findall(r'<div class="form-errors" role="alert"[^>]*>(.*?)</div>', form) == [
            f"<p>{sentence}</p>"
        ]
    assert _fresh(unit).in_combat_zone is True


def test_a_retreated_unit_is_not_offered_the_combat_zone_and_is_refused_it_by_name(client, world):
    unit = _set(world, world.unit, status="retreated", in_combat_zone=False, morale_hits=0)
    login(client, world, "player")
    # Its battle's 2 Casualty hits await the medics: unsaved, they leave it Raw.
    why = (
        f"{unit.name} retreated in poor order: it has left the combat zone, and goes back in "
        "once it has rallied; Casualty hits the medics do not save within their 24 hours die, "
        "each a step lost for good: none saved, it is reduced to Raw"
    )
    page = client.get(_url("unit", world, unit.pk)).text
    assert f"Not now: {why}." in page and 'disabled aria-describedby="zone-why"' in page
    assert 'name="in_combat_zone"' not in page
    entries = HistoryEntry.objects.count()
    refused = client.post(_url("unit-zone", world, unit.pk), {"in_combat_zone": "yes"})
    assert refused.status_code == 400 and why in refused.text
    assert re.findall(r'<div class="form-errors" role="alert"[^>]*>(.*?)</div>', refused.text) == [
        f"<p>{why}.</p>"
    ], "said once"
    assert _fresh(unit).in_combat_zone is False and HistoryEntry.objects.count() == entries
    calendar_advance(campaign=world.campaign, actor=world.users["gm"])  # R&R: it rallies
    page = client.get(_url("unit", world, unit.pk)).text
    assert 'name="in_combat_zone"' in page and 'id="zone-why"' not in page


def test_a_retreated_unit_awaiting_the_medics_is_told_what_their_24_hours_decide(client, world):
    """A retreated unit whose Casualty hits await the medics does not simply go back in once it
    has rallied: unsaved, they die when the medics' 24 hours are over, destroying it or
    reducing it for good."""
    unit = _set(world, world.unit, quality="average", status="retreated", in_combat_zone=False,
                morale_hits=0, casualty_hits=5)  # fmt: skip
    login(client, world, "gm")
    page = client.get(_url("unit", world, unit.pk)).text
    said = (
        f"Not now: {unit.name} retreated in poor order: it has left the combat zone, and goes "
        "back in once it has rallied, if the medics save at least 2 of its 5 Casualty hits "
        "within their 24 hours; if not, it is destroyed."
    )
    assert said in page
    # Its card says the same number, not "its Casualty hits" as though all must be saved.
    said = (
        f"{unit.name} cannot go into battle while retreated in poor order: unless the medics "
        "save at least 2 of its 5 Casualty hits, it is destroyed when their 24 hours are over."
    )
    assert said in page
    unit = _set(world, unit, casualty_hits=1)
    page = client.get(_url("unit", world, unit.pk)).text
    said = (
        f"Not now: {unit.name} retreated in poor order: it has left the combat zone, and goes "
        "back in once it has rallied; Casualty hits the medics do not save within their 24 "
        "hours die, each a step lost for good: none saved, it is reduced to Inexperienced."
    )
    assert said in page


def test_the_gm_attaches_and_detaches_a_leader(client, world):
    login(client, world, "gm")
    url = _url("leader-attach", world, world.unit.pk)
    assert client.post(url, {"name": "Sgt. Kane", "hit_points": "0"}).status_code == 400
    assert client.post(url, {"name": "Sgt. Kane", "hit_points": "14"}).status_code == 302
    unit = _fresh(world.unit)
    assert unit.leader.name == "Sgt. Kane" and unit.leader.hit_points == 14
    # One living leader at a time: the form is gone and a second attach is refused.
    page = client.get(_url("unit", world, unit.pk)).text
    assert 'id="leader-form"' not in page and "Detach Sgt. Kane" in page
    twice = client.post(url, {"name": "Lt. Ash", "hit_points": "9"})
    assert twice.status_code == 400 and "is led by Sgt. Kane already" in twice.text
    detach = _url("leader-detach", world, unit.pk)
    assert client.post(detach, {"reason": "promoted away"}).status_code == 302
    assert not hasattr(_fresh(unit), "leader")
    assert "promoted away" in unit.history.last().text
    nobody = client.post(detach, {})
    assert nobody.status_code == 400 and "has no leader" in nobody.text


def test_a_leader_named_on_a_units_page_is_no_character_the_campaign_has_already(client, world):
    from campaign.models import Character, Leader
    from campaign.services import leader_attach
    from campaign.services.characters import character_create

    gm = world.users["gm"]
    kane = character_create(
        campaign=world.campaign, name="Sgt. Kane", hit_points=14, player=world.users["player"]
    )
    leader_attach(unit=world.unit, character=kane, actor=gm)
    second = world.force.units.exclude(pk=world.unit.pk).first()
    leader_attach(unit=second, name="Sgt. Vance", hit_points=9, actor=gm)
    recruits = unit_create(
        force=world.force, unit_type=world.unit.unit_type, name="Recruits", specialties=["infantry"]
    )
    entries = HistoryEntry.objects.count()
    login(client, world, "gm")
    url = _url("leader-attach", world, recruits.pk)
    for name, said in (
        (
            "Sgt. Kane",
            "Op. Pages has a character called “Sgt. Kane” already: to put them at the "
            "head of Recruits, have them join it on the Characters page.",
        ),
        (
            "Sgt. Vance",
            f"“Sgt. Vance” is the name of {second.name}&#x27;s leader already: give this leader "
            "another.",
        ),
    ):
        refused = client.post(url, {"name": name, "hit_points": "18"})
        assert refused.status_code == 400
        beside = re.search(r'id="id_[a-z_]+_name_error">([^<]*)<', refused.text)[1]
        assert beside == said
    assert HistoryEntry.objects.count() == entries
    assert not Leader.objects.filter(unit=recruits).exists()
    assert Character.objects.filter(name="Sgt. Kane").count() == 1
    assert Leader.objects.filter(name="Sgt. Kane").count() == 1


def test_only_the_gm_appoints_leaders(client, world):
    for role in ("player", "spectator"):
        login(client, world, role)
        attach = client.post(
            _url("leader-attach", world, world.unit.pk), {"name": "X", "hit_points": "5"}
        )
        assert attach.status_code == 403, role
        assert client.post(_url("leader-detach", world, world.unit.pk), {}).status_code == 403
    assert not Unit.objects.filter(pk=world.unit.pk, leader__isnull=False).exists()


@pytest.fixture
def wounded(world):
    """Two units of the player's force with Casualty hits awaiting the medics today, and a
    Medical crew that saves 2 a day (Average, Adequate)."""
    card = _fresh(world.unit).unit_type
    medics = unit_create(
        force=world.force, unit_type=card, name="Doc Crew", specialties=["medical"]
    )
    day = world.campaign.day
    # The world's battle may have cost the unit quality and left Casualty hits on others (its
    # dice are seeded with row ids, which depend on the tests run before it): an Average unit
    # and a Green one are the only ones waiting for the medics here.
    for other in world.force.units.exclude(pk=world.unit.pk).filter(casualty_hits__gt=0):
        _set(world, other, casualty_hits=0)
    first = _set(
        world, world.unit, status="ready", quality="average", morale_hits=0, casualty_hits=2,
        last_battle_day=day,
    )  # fmt: skip
    second = unit_create(force=world.force, unit_type=card, name="Hurt", quality="green")
    second = _set(world, second, casualty_hits=1, last_battle_day=day)
    return medics, first, second


def test_the_medics_save_the_hits_chosen_unit_by_unit(client, world, wounded):
    _, first, second = wounded
    login(client, world, "gm")
    page = client.get(_url("force", world, world.force.pk)).text
    assert "can save <strong>2</strong> more hits today" in page
    assert f'name="save_{first.pk}"' in page and f'name="save_{second.pk}"' in page
    url = _url("medical", world, world.force.pk)
    data = {"how": "allocate", f"save_{first.pk}": "1", f"save_{second.pk}": "1"}
    response = client.post(url, data)
    assert response.status_code == 302
    # The default triage would have saved both of the Average unit's hits; this choice did not.
    assert _fresh(first).casualty_hits == 1 and _fresh(second).casualty_hits == 0
    page = client.get(response["Location"]).text
    assert "saved 1 Casualty hit of Squad 1 and 1 Casualty hit of Hurt." in page
    assert "The Medical crews have saved all they can today." in page


def test_the_medics_heal_morale_hits_chosen_unit_by_unit(client, world, wounded):
    # The Green unit, out of the combat zone, carries 2 Morale hits and no Casualty hit; the
    # Average one, in the combat zone, 1 Morale hit (its last: only R&R heals it).
    _, first, second = wounded
    for other in world.force.units.exclude(pk__in=[first.pk, second.pk]).filter(morale_hits__gt=0):
        _set(world, other, morale_hits=0)
    first = _set(world, first, morale_hits=1, in_combat_zone=True)
    second = _set(world, second, casualty_hits=0, morale_hits=2, in_combat_zone=False)
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    assert f'name="heal_{second.pk}"' in page and f'name="heal_{first.pk}"' not in page
    assert "Hurt: Morale hits to heal (of 2)" in page
    url = _url("medical", world, world.force.pk)
    response = client.post(url, {"how": "allocate", f"save_{first.pk}": "1",
                                 f"heal_{second.pk}": "1"})  # fmt: skip
    assert response.status_code == 302
    assert (_fresh(first).casualty_hits, _fresh(first).morale_hits) == (1, 1)
    assert _fresh(second).morale_hits == 1
    page = client.get(response["Location"]).text
    assert "saved 1 Casualty hit of Squad 1 and 1 Morale hit of Hurt." in page


def test_the_medics_form_says_why_it_heals_fewer_morale_hits_than_a_unit_carries(
    client, world, wounded
):
    # "Atlas: Morale hits to heal (of 1)" beside Atlas carrying 2 read as a miscount: in the
    # combat zone the crews never heal a unit's last. The box says so where it offers fewer.
    _, first, second = wounded
    first = _set(world, first, casualty_hits=0, morale_hits=2, in_combat_zone=True)
    second = _set(world, second, casualty_hits=0, morale_hits=2, in_combat_zone=False)
    login(client, world, "gm")
    page = client.get(_url("force", world, world.force.pk)).text
    assert "Squad 1: Morale hits to heal (1 of its 2: in the combat zone it keeps its last)" in page
    assert f'name="heal_{first.pk}" value="0" min="0" max="1"' in page
    assert "Hurt: Morale hits to heal (of 2)" in page


def test_the_medics_answer_says_and_once_in_a_list_of_units(client, world, wounded):
    """A unit healed of both kinds of hit says "and" in its own part: the units are then set
    apart with a semicolon, so the answer never reads "… and … of Squad 1 and … of Hurt"."""
    medics, first, second = wounded
    _set(world, medics, quality="elite")  # saves more than the 3 hits asked
    first = _set(world, first, morale_hits=2, in_combat_zone=False)
    login(client, world, "player")
    url = _url("medical", world, world.force.pk)
    response = client.post(url, {"how": "allocate", f"save_{first.pk}": "1",
                                 f"heal_{first.pk}": "1", f"save_{second.pk}": "1"})  # fmt: skip
    assert response.status_code == 302
    page = client.get(response["Location"]).text
    said = re.search(r"The medics saved [^.]*\.", page)[0]
    assert said == (
        "The medics saved 1 Casualty hit and 1 Morale hit of Squad 1; 1 Casualty hit of Hurt."
    )


def test_the_default_triage_stays_one_click(client, world, wounded):
    _, first, second = wounded
    login(client, world, "player")
    assert client.post(_url("medical", world, world.force.pk), {"how": "triage"}).status_code == 302
    assert _fresh(first).casualty_hits == 0 and _fresh(second).casualty_hits == 1


def test_the_medics_say_which_casualty_hits_they_left_unsaved_and_when_those_die(
    client, world, wounded
):
    """The triage saves the Average unit's 2 hits and leaves the Green one's: the answer names
    the hit left, and when it dies, not only what was saved."""
    _, _, second = wounded
    login(client, world, "player")
    response = client.post(_url("medical", world, world.force.pk), {"how": "triage"})
    closes = medical_window_closes(_fresh(second).state)
    ahead = closes - campaign_now(world.campaign)
    page = client.get(response["Location"]).text
    assert (
        "The medics saved 2 Casualty hits of Squad 1. Left unsaved: 1 Casualty hit of Hurt, "
        f"which dies after {clock_text(closes)} ({ahead} hours from now)." in page
    )


def test_the_medics_who_save_every_hit_say_nothing_is_left(client, world, wounded):
    _, _, second = wounded
    _set(world, second, casualty_hits=0)
    login(client, world, "player")
    response = client.post(_url("medical", world, world.force.pk), {"how": "triage"})
    page = client.get(response["Location"]).text
    assert "The medics saved 2 Casualty hits of Squad 1." in page
    assert "Left unsaved" not in page


def test_an_allocation_beyond_the_crews_or_of_nothing_is_refused_and_nothing_is_saved(
    client, world, wounded
):
    _, first, second = wounded
    login(client, world, "gm")
    url = _url("medical", world, world.force.pk)
    over = client.post(url, {"how": "allocate", f"save_{first.pk}": "2", f"save_{second.pk}": "1"})
    assert over.status_code == 400
    # How far over the choice is, and what to do about it.
    assert "The crews can heal 2 more hits today, and 3 are chosen: choose 1 fewer" in over.text
    too_many = client.post(url, {"how": "allocate", f"save_{second.pk}": "2"})
    assert too_many.status_code == 400
    assert too_many.context["medical_form"].errors[f"save_{second.pk}"] == [
        "At most 1 Casualty hit."
    ]
    nothing = client.post(url, {"how": "allocate"}, **HTMX)
    assert nothing.status_code == 200 and "Choose at least one hit to heal" in nothing.text
    assert (_fresh(first).casualty_hits, _fresh(second).casualty_hits) == (2, 1)
    assert not HistoryEntry.objects.filter(kind=HistoryEntry.Kind.MEDICAL).exists()


def test_a_crew_moved_to_another_force_shows_there_what_it_has_left_today(client, world, wounded):
    medics, first, _ = wounded
    gm = world.users["gm"]
    login(client, world, "gm")
    answer = client.post(_url("medical", world, world.force.pk), {"how": "triage"})
    client.get(answer["Location"])  # its message read: the pages after it are kept as drawn
    assert _fresh(first).casualty_hits == 0  # the crew's 2 of the day
    unit_move(unit=medics, force=world.enemy, reason="attached to Blue", actor=gm)
    enemy_page = _url("force", world, world.enemy.pk)
    said = "The Medical crews can save <strong>0</strong> more hits today (of 2)."
    assert said in client.get(enemy_page).text
    # The work undone, the crew has its day back, wherever the unit it treated is.
    outcome_revert(entries=[first.history.last()], reason="no crew went", actor=gm)
    said = "The Medical crews can save <strong>2</strong> more hits today (of 2)."
    assert said in client.get(enemy_page).text


def test_without_a_medical_crew_the_button_is_disabled_with_the_reason(client, world):
    _set(world, world.unit, status="ready", morale_hits=0, casualty_hits=1,
         last_battle_day=world.campaign.day)  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    assert "This force has no ready Medical crew." in page
    assert 'disabled aria-describedby="medics-why"' in page


def test_a_force_without_a_medical_crew_is_told_how_to_get_one_before_any_hits(client, world):
    """Before a battle, not in the 24 hours after it: the medics' box of a force with no ready
    Medical crew says what one is and how the GM gets one; once it has one, it says no more."""
    for unit in world.force.units.all():
        _set(world, unit, status="ready", morale_hits=0, casualty_hits=0)
    login(client, world, "gm")
    url = _url("force", world, world.force.pk)
    box = client.get(url).text.split('id="medical-form"')[1].split("</form>")[0]
    assert "No unit has Casualty or Morale hits the medics may heal." in box
    crew = "A Medical crew is a unit holding the Medical specialty; ready, it saves hits each day"
    assert crew in box and "The GM raises one with Medical ticked" in box
    unit_create(force=world.force, unit_type=world.unit.unit_type, name="Doc Crew",
                specialties=["medical"])  # fmt: skip
    box = client.get(url).text.split('id="medical-form"')[1].split("</form>")[0]
    assert crew not in box and "The Medical crews can save" in box


def test_a_retreated_unit_with_casualty_hits_to_save_calls_for_the_medics(client, world):
    """Retreated, with Casualty hits the medics may still save: the rally can wait, the hits
    cannot (unsaved, they die 24 hours after the battle, here fought on day 1 at 00:00). The
    GM's list names it once, under its force's medics with its retreat in its line, not again
    under the units rallying; and the medics' line speaks of no "window"."""
    for other in world.force.units.exclude(pk=world.unit.pk).filter(casualty_hits__gt=0):
        _set(world, other, casualty_hits=0)
    unit = _set(
        world, world.unit, status="retreated", morale_hits=0, casualty_hits=2,
        last_battle_day=world.campaign.day,
    )  # fmt: skip
    login(client, world, "gm")
    cockpit = client.get(_url("dashboard", world)).context
    # (The GM sees every force; the world's battle may have left the enemy's hits too.)
    own = [a.unit.pk for a in cockpit["medics_due"] if a.unit.force_id == world.force.pk]
    assert own == [unit.pk]
    assert unit.pk not in [a.unit.pk for a in cockpit["rallying"]]
    page = client.get(_url("dashboard", world)).text
    todo = page.split(f"<strong>{world.force.name}</strong>: ")[1].split("</li>")[0]
    assert todo.startswith("1 unit with Casualty hits awaiting the medics. <")
    assert "Retreated in poor order: " in todo
    needs_doing = page.split('id="todo-h"')[1].split("</section>")[0]
    assert needs_doing.count(f">{unit.name}</a>") == 1
    assert "window" not in needs_doing and "retreated in poor order;" not in needs_doing
    # The force has no Medical crew: no button that cannot work, but the reason.
    assert "no ready Medical crew" in todo and "Send in the medics" not in todo
    unit_create(force=world.force, unit_type=unit.unit_type, name="Doc Crew",
                specialties=["medical"])  # fmt: skip
    page = client.get(_url("dashboard", world)).text
    todo = page.split(f"<strong>{world.force.name}</strong>: ")[1].split("</li>")[0]
    assert "Send in the medics</a>" in todo and "no ready Medical crew" not in todo
    login(client, world, "player")
    page = client.get(_url("dashboard", world)).text
    # When it rallies is the rule's (its quality here is what the world's battle left).
    now = campaign_now(world.campaign)
    rally = escape(rally_when(unit.state, now, days_to_rally(unit.state, now)))
    assert (
        f"{unit.name}</a>: 2 Casualty hits await the medics. Unsaved, they die after "
        f"day 2, 00:00 ({clock_hour(2, 0) - now} hours from now). Retreated in poor order: "
        f"{rally}."
    ) in page


def test_a_retreated_unit_is_told_when_it_really_rallies(client, world):
    # A Green unit with 3 Morale hits is below Raw until two days of R&R have healed two: one
    # day does not rally it, whatever a page says; the calendar decides, and the pages with it.
    for other in world.force.units.exclude(pk=world.unit.pk).exclude(status="destroyed"):
        _set(world, other, status="ready", morale_hits=0, casualty_hits=0)
    unit = _set(world, world.unit, status="retreated", quality="green", morale_hits=2,
                casualty_hits=0, in_combat_zone=False)  # fmt: skip
    # A battle's blows may leave more hits than the quality carries, as here; a correction may
    # not enter them (`roster._hits_problem`), so the third is the battle's.
    Unit.objects.filter(pk=unit.pk).update(morale_hits=3)
    later = (
        "Retreated in poor order: its hits keep it below Raw; it rallies after 2 days of R&amp;R."
    )
    assert later in login(client, world, "player").get(_url("dashboard", world)).text
    cockpit = login(client, world, "gm").get(_url("dashboard", world))
    assert "a day of R&amp;R rallies" not in cockpit.text
    assert unit.pk in [a.unit.pk for a in cockpit.context["rallying_later"]]
    assert "its hits keep it below Raw; it rallies after 2 days of R&amp;R" in cockpit.text
    gm = world.users["gm"]
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    assert _fresh(unit).status == "retreated"
    cockpit = client.get(_url("dashboard", world))
    assert unit.pk not in [a.unit.pk for a in cockpit.context["rallying_later"]]
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    assert _fresh(unit).status == "ready"


def test_a_players_unit_page_and_roster_say_when_a_retreated_unit_fights_again(client, world):
    # "Cannot fight" alone left a player to find, on the dashboard, when it would fight again.
    unit = _set(world, world.unit, status="retreated", quality="green", morale_hits=2,
                casualty_hits=0, in_combat_zone=False)  # fmt: skip
    Unit.objects.filter(pk=unit.pk).update(morale_hits=3)  # as a battle may leave it
    login(client, world, "player")
    when = "its hits keep it below Raw; it rallies after 2 days of R&amp;R"
    page = client.get(_url("unit", world, unit.pk)).text
    assert f"{unit.name} cannot go into battle while retreated in poor order: {when}." in page
    roster = client.get(_url("force", world, world.force.pk)).text
    assert f"cannot fight: {when}</span>" in roster
    calendar_advance(campaign=world.campaign, days=1, actor=world.users["gm"])
    page = client.get(_url("unit", world, unit.pk)).text
    assert "retreated in poor order: rallies after the next day of R&amp;R." in page


def test_the_gm_is_told_which_units_the_next_day_rallies():
    """The line read "1 unit retreated in poor order: the next day of R&R rallies it" and named
    none: the units the next day rallies are named, as the ones it does not are under it."""
    force = SimpleNamespace(name="Red Company")
    names = iter(["Tiger One", "Atlas", "Aid Post", "1st Squad", *[f"Unit {n}" for n in range(8)]])

    def retreated(days):
        unit = SimpleNamespace(name=next(names), force=force)
        return Attention(unit=unit, reason="", rally_days=days)

    assert rallying_text([retreated(1)]) == (
        "Tiger One (Red Company) retreated in poor order: the next day of R&R rallies it."
    )
    assert rallying_text([retreated(1), retreated(1)]) == (
        "Atlas (Red Company) and Aid Post (Red Company) retreated in poor order: the next day of "
        "R&R rallies them."
    )
    assert rallying_text([retreated(1), retreated(3), retreated(None)]) == (
        "3 units retreated in poor order; the next day of R&R rallies 1st Squad (Red Company), "
        "not the 2 below:"
    )
    assert rallying_text([retreated(1), retreated(1), retreated(4)]) == (
        "3 units retreated in poor order; the next day of R&R rallies Unit 2 (Red Company) and "
        "Unit 3 (Red Company), not the one below:"
    )
    assert rallying_text([retreated(2)]) == (
        "1 unit retreated in poor order; the next day of R&R does not rally it:"
    )
    assert rallying_text([retreated(2), retreated(None)]) == (
        "2 units retreated in poor order; the next day of R&R rallies none of them:"
    )


def test_the_medics_deadline_an_hour_off_says_one_hour_and_their_last_the_hit_it_dies():
    assert medics_deadline(clock_hour(2, 0), clock_hour(1, 23), 1) == (
        "the medics have until day 2, 00:00 (1 hour from now)"
    )
    assert medics_deadline(clock_hour(2, 0), clock_hour(2, 0), 1) == (
        "the medics' last hour: unsaved, it dies when the clock moves on"
    )


def test_the_medics_last_hour_is_said_as_such_not_as_a_deadline_past(client, world):
    # Wounded on day 1 with no hour kept: the window runs from 00:00 and is open through day 2,
    # 00:00. Before that hour the roster says until when; at it, that it is the last hour.
    _set(world, world.unit, status="ready", morale_hits=0, casualty_hits=1, last_battle_day=1)
    unit = _set(world, world.unit, window_from=None)
    assert medical_window_closes(unit.state) == clock_hour(2, 0)
    assert medics_deadline(clock_hour(2, 0), clock_hour(1, 5), 1) == (
        "the medics have until day 2, 00:00 (19 hours from now)"
    )
    # At the last hour, the verb agrees with the hits: "it dies" of one, "they die" of more.
    assert medics_deadline(clock_hour(2, 0), clock_hour(2, 0), 2).endswith(
        "unsaved, they die when the clock moves on"
    )
    world.campaign.day, world.campaign.hour = 2, 0
    world.campaign.save()
    login(client, world, "player")
    roster = client.get(_url("force", world, world.force.pk)).text
    assert "the medics&#x27; last hour: unsaved, it dies when the clock moves on" in roster
    assert "until day 2, 00:00" not in roster
    page = client.get(_url("unit", world, unit.pk)).text
    assert "— the medics&#x27; last hour" in page
    dashboard = client.get(_url("dashboard", world)).text
    assert "await the medics in their last hour. Unsaved, they die when the clock" in dashboard


def test_the_medics_time_is_said_in_hours_from_now_beside_the_clock_hour(client, world):
    """The roster read "the medics have until day 2, 00:00" under a heading that gives the day
    alone: a player could not tell how long was left. The roster, the unit's page and the
    dashboard say it in hours from now too; an hour before the last, "1 hour"."""
    _set(world, world.unit, status="ready", morale_hits=0, casualty_hits=1, last_battle_day=1)
    unit = _set(world, world.unit, window_from=None)
    world.campaign.day, world.campaign.hour = 1, 6
    world.campaign.save()
    login(client, world, "player")
    said = "the medics have until day 2, 00:00 (18 hours from now)"
    assert said in client.get(_url("force", world, world.force.pk)).text
    assert f"<dd>1 — {said}" in client.get(_url("unit", world, unit.pk)).text
    dashboard = client.get(_url("dashboard", world)).text
    assert "Unsaved, it dies after day 2, 00:00 (18 hours from now)." in dashboard
    world.campaign.hour = 23
    world.campaign.save()
    page = client.get(_url("unit", world, unit.pk)).text
    assert "<dd>1 — the medics have until day 2, 00:00 (1 hour from now)" in page


def test_a_units_page_says_the_medics_time_once_in_the_dashboards_words(client, world):
    """A unit's page read "1 — awaiting the medics: the medics' last hour: the window closes
    when the clock moves on": clause on clause, the medics named twice, and a "window" no
    other page speaks of. It says the medics' time once, as the dashboard words the last hour;
    the roster's line says the same."""
    _set(world, world.unit, status="ready", morale_hits=0, casualty_hits=1, last_battle_day=1)
    unit = _set(world, world.unit, window_from=None)
    login(client, world, "player")
    page = client.get(_url("unit", world, unit.pk)).text
    assert "<dd>1 — the medics have until day 2, 00:00" in page
    world.campaign.day, world.campaign.hour = 2, 0
    world.campaign.save()
    page = client.get(_url("unit", world, unit.pk)).text
    assert "<dd>1 — the medics&#x27; last hour: unsaved, it dies when the clock moves on" in page
    assert "awaiting the medics:" not in page and "window" not in page
    roster = client.get(_url("force", world, world.force.pk)).text
    assert "the medics&#x27; last hour: unsaved, it dies when the clock moves on" in roster


def test_the_medics_sent_twice_save_what_was_chosen_once(client, world, wounded):
    """The force page's medics form sent again (a double click, a phone retrying) saves no more
    than was chosen: the second sending goes back where the first went."""
    _, first, second = wounded
    login(client, world, "gm")
    page = client.get(_url("force", world, world.force.pk)).text
    key = re.search(r'name="request_key" value="([^"]+)"', page)[1]
    url = _url("medical", world, world.force.pk)
    data = {"how": "allocate", f"save_{first.pk}": "1", "request_key": key}
    response = client.post(url, data)
    again = client.post(url, data)
    assert response.status_code == again.status_code == 302
    assert again["Location"] == response["Location"]
    assert _fresh(first).casualty_hits == 1 and _fresh(second).casualty_hits == 1


def test_a_player_is_told_when_their_force_has_no_medics_for_hits_awaiting_them(client, world):
    """The GM's list says a force has no Medical crew to send in; a player whose unit's
    Casualty hits await the medics is told so too, on the force's line above the unit's, until
    the force has one (a spectator too, without being sent to the GM)."""
    for other in world.force.units.exclude(pk=world.unit.pk).filter(casualty_hits__gt=0):
        _set(world, other, casualty_hits=0)
    for crew in world.force.units.filter(status="ready"):
        if "medical" in crew.specialties:
            _set(world, crew, status="retreated")  # no ready Medical crew
    _set(world, world.unit, status="ready", quality="average", morale_hits=0, casualty_hits=2,
         last_battle_day=world.campaign.day)  # fmt: skip

    def attention():
        page = login(client, world, "player").get(_url("dashboard", world)).text
        return page.split("Needs attention")[1].split("</ul>")[0]

    said = "Red Company has no ready Medical crew to send in: ask your GM."
    force, line = attention().split("<strong>Red Company</strong>: ")[1].split("<ul>")
    assert force.endswith(said) and f"{world.unit.name}</a>: " in line
    assert "await the medics" in line and said not in line
    # A spectator is told the same of the force, but has no GM's help to ask for.
    page = login(client, world, "spectator").get(_url("dashboard", world)).text
    seen = page.split('<h2 id="attention-h">Units waiting</h2>')[1].split("</ul>")[0]
    force = seen.split("<strong>Red Company</strong>: ")[1].split("<ul>")[0]
    assert force.endswith("Red Company has no ready Medical crew to send in.")
    assert "ask your GM" not in page
    unit_create(force=world.force, unit_type=_fresh(world.unit).unit_type, name="Doc Crew",
                specialties=["medical"])  # fmt: skip
    assert said not in attention()


def test_hits_awaiting_the_medics_lead_whoever_directs_them_to_the_medics_form(
    client, world, wounded
):
    """The player's "Needs attention" line of the force and the unit's page lead to the force
    page's medics form; a spectator, who directs no medics, is told the same words with no
    link."""
    _, first, _ = wounded
    form = f'<a href="{_url("force", world, world.force.pk)}#medical-form">Send in the medics</a>'

    def attention(role):
        page = login(client, world, role).get(_url("dashboard", world)).text
        heading = (
            '<h2 id="attention-h">Units waiting</h2>'
            if role == "spectator"
            else '<h2 id="attention-h">Needs attention</h2>'
        )
        return page.split(heading)[1].split("<strong>Red Company</strong>: ")[1]

    line = attention("player")
    assert f"{first.name}</a>: " in line and "await the medics" in line
    assert line.split("<ul>")[0].endswith(form)
    unit_page = client.get(_url("unit", world, first.pk)).text
    assert "— the medics have until " in unit_page and form in unit_page
    assert 'id="medical-form"' in client.get(_url("force", world, world.force.pk)).text
    assert "await the medics" in attention("spectator") and form not in attention("spectator")
    assert form not in client.get(_url("unit", world, first.pk)).text
    assert form in login(client, world, "gm").get(_url("unit", world, first.pk)).text


def test_once_the_crews_have_saved_all_they_can_today_no_link_sends_them_in(client, world, wounded):
    """The crews' 2 hits for today are spent while a Casualty hit still awaits them: the
    player's line, the GM's list and the unit's page say so instead of leading to a form that
    can send nobody."""
    _, first, second = wounded
    login(client, world, "gm")
    saved = {"how": "allocate", f"save_{first.pk}": "1", f"save_{second.pk}": "1"}
    assert client.post(_url("medical", world, world.force.pk), saved).status_code == 302
    form = f'<a href="{_url("force", world, world.force.pk)}#medical-form">Send in the medics</a>'
    spent = "The Medical crews have saved all they can today."
    todo = client.get(_url("dashboard", world)).text.split('id="todo-h"')[1]
    todo = todo.split(f"<strong>{world.force.name}</strong>: ")[1].split("</li>")[0]
    assert spent in todo and "Send in the medics" not in todo and "no ready Medical" not in todo
    page = login(client, world, "player").get(_url("dashboard", world)).text
    force, line = (
        page.split("Needs attention")[1].split("<strong>Red Company</strong>: ")[1].split("<ul>", 1)
    )
    line = line.split(f"{first.name}</a>: ")[1].split("</li>")[0]
    assert "awaits the medics" in line and force.endswith(spent) and form not in force + line
    assert form not in client.get(_url("unit", world, first.pk)).text


def test_a_medics_form_drawn_before_the_hits_died_is_refused_with_why(client, world, wounded):
    """The page was drawn while the hits awaited the medics; the clock moved on in another tab
    and they died. The form sent late saves nothing, says why by the unit's name, and the page
    drawn with the refusal shows the roster as it is now."""
    _, first, second = wounded
    login(client, world, "gm")
    before = client.get(_url("force", world, world.force.pk)).text
    assert "Hurt: Casualty hits to save (of 1)" in before and "the medics have until" in before
    calendar_advance(campaign=world.campaign, days=2, actor=world.users["gm"])
    dead = [_fresh(first), _fresh(second)]
    assert [unit.casualty_hits for unit in dead] == [0, 0]
    url = _url("medical", world, world.force.pk)
    data = {"how": "allocate", f"save_{first.pk}": "1", f"save_{second.pk}": "1"}
    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    page = response.text
    assert "Choose at least one hit to heal" not in page
    for unit in dead:
        said = escape(f"Casualty hits of {unit.name} died when their 24 hours ran out")
        assert said in page
    assert "Casualty hits to save" not in page
    # The roster comes along, as the units are now: no hits await the medics there.
    roster = page.split('id="roster"')[1]
    assert 'hx-swap-oob="true"' in roster.split(">")[0] and "the medics have until" not in roster
    assert not HistoryEntry.objects.filter(kind=HistoryEntry.Kind.MEDICAL).exists()
    # Without htmx the whole page is drawn again, with the same reason.
    full = client.post(url, data)
    assert full.status_code == 400
    assert escape(f"Casualty hits of {first.name} died when their 24 hours ran out") in full.text


def test_a_force_whose_medical_crew_is_out_of_action_is_told_which_and_till_when(client, world):
    """A force with a Medical crew that cannot work is not told it has none: the medics' box
    names the crew, why it cannot work and, retreated, when it rallies (`rally_when`); the
    medics refused are told the same."""
    _set(world, world.unit, status="ready", morale_hits=0, casualty_hits=1,
         last_battle_day=world.campaign.day)  # fmt: skip
    crew = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Aid Post",
                       specialties=["medical"])  # fmt: skip
    crew = _set(world, crew, status="retreated", morale_hits=1)
    login(client, world, "gm")
    url = _url("force", world, world.force.pk)
    box = client.get(url).text.split('id="medical-form"')[1].split("</form>")[0]
    now = campaign_now(world.campaign)
    when = rally_when(crew.state, now, days_to_rally(crew.state, now))
    said = (
        "Its Medical crew cannot work today: Aid Post is retreated in poor order, and works "
        f"again once it has rallied ({when})."
    )
    assert escape(said) in box and "no ready Medical crew" not in box
    assert 'disabled aria-describedby="medics-why"' in box
    assert "The GM raises one with Medical ticked" not in box
    refused = client.post(_url("medical", world, world.force.pk), {"how": "triage"}, **HTMX)
    assert escape(said) in refused.text
    _set(world, crew, status="destroyed")
    box = client.get(url).text.split('id="medical-form"')[1].split("</form>")[0]
    assert "Its Medical crew cannot work today: Aid Post is destroyed, and works no more." in box
    # Ready, but too raw and ill-kitted to save a hit: said so, not that it is missing.
    _set(world, crew, status="ready", quality="raw", equipment="poor", morale_hits=0)
    box = client.get(url).text.split('id="medical-form"')[1].split("</form>")[0]
    said = "Aid Post saves no hits as Raw with Poor kit, and works once its quality or kit is "
    assert said + "better." in box


def test_a_players_units_awaiting_the_medics_are_listed_under_their_force_said_once(
    client, world, wounded
):
    """Several of a player's units await the medics while the force's crew is out of action:
    "Needs attention" says why the crew cannot work once, on the force's line, and lists the
    units under it; it was said again at the end of each unit's line."""
    medics, first, second = wounded
    _set(world, medics, status="retreated", morale_hits=1)
    page = login(client, world, "player").get(_url("dashboard", world)).text
    attention = page.split("Needs attention")[1].split("</section>")[0]
    assert attention.count("Medical crew cannot work today") == 1
    force, units = attention.split("<strong>Red Company</strong>: ")[1].split("<ul>", 1)
    assert force.startswith("2 units with Casualty hits awaiting the medics. ")
    assert "Red Company&#x27;s Medical crew cannot work today: Doc Crew is retreated" in force
    units = units.split("</ul>")[0]
    assert f"{first.name}</a>: 2 Casualty hits await the medics." in units
    assert f"{second.name}</a>: 1 Casualty hit awaits the medics." in units


def test_the_dashboard_names_a_forces_medical_crew_out_of_action_and_till_when(client, world):
    """Hits awaiting the medics of a force whose Medical crew has retreated: the GM's list and
    the player's say which crew, why and when it rallies, not that the force has none."""
    for other in world.force.units.exclude(pk=world.unit.pk).filter(casualty_hits__gt=0):
        _set(world, other, casualty_hits=0)
    for crew in world.force.units.filter(status="ready"):
        if "medical" in crew.specialties:
            _set(world, crew, status="destroyed")
    _set(world, world.unit, status="ready", quality="average", morale_hits=0, casualty_hits=2,
         last_battle_day=world.campaign.day)  # fmt: skip
    crew = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Aid Post",
                       specialties=["medical"])  # fmt: skip
    crew = _set(world, crew, status="retreated", morale_hits=1)
    now = campaign_now(world.campaign)
    when = rally_when(crew.state, now, days_to_rally(crew.state, now))
    idle = f"Aid Post is retreated in poor order, and works again once it has rallied ({when})"
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    todo = page.split(f"<strong>{world.force.name}</strong>: ")[1].split("</li>")[0]
    assert escape(f"Its Medical crew cannot work today: {idle}") not in todo
    assert escape(f"Red Company's Medical crew cannot work today: {idle}") in todo
    assert "no ready Medical crew" not in todo
    page = login(client, world, "player").get(_url("dashboard", world)).text
    line = page.split("Needs attention")[1].split("<strong>Red Company</strong>: ")[1]
    line = line.split("<ul>")[0]
    assert line.endswith(escape(f" Red Company's Medical crew cannot work today: {idle}."))
    assert "no ready Medical crew" not in line


def test_a_medical_crew_its_own_dead_would_destroy_is_not_promised_back_at_work(client, world):
    """A Green Medical crew retreated with 2 Casualty hits of its own: the dashboard said it "works
    again once it has rallied (unless the medics save its Casualty hits, it is destroyed when
    their 24 hours are over)", a return R&R never brings."""
    for other in world.force.units.exclude(pk=world.unit.pk).filter(casualty_hits__gt=0):
        _set(world, other, casualty_hits=0)
    for crew in world.force.units.filter(status="ready"):
        if "medical" in crew.specialties:
            _set(world, crew, status="destroyed")
    crew = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Aid Post",
                       quality="green", specialties=["medical"])  # fmt: skip
    crew = _set(world, crew, status="retreated", morale_hits=0, casualty_hits=2,
                last_battle_day=world.campaign.day)  # fmt: skip
    now = campaign_now(world.campaign)
    assert days_to_rally(crew.state, now) is None
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    idle = (
        "Red Company's Medical crew cannot work today: Aid Post is retreated in poor order, "
        "and R&R alone will not bring it back to work: unless the medics save at least 1 of "
        "its 2 Casualty hits, it is destroyed when their 24 hours are over."
    )
    assert escape(idle) in page
    assert "works again once it has rallied (unless" not in page


def test_a_rosters_experience_says_what_its_second_number_counts_to(client, world):
    """The roster read "1 of 3" under "Experience", and only the legend said what the 3 was: it
    reads "1 of 3 for the next step", as the unit's page and its card do; a Legendary unit, with
    no step above it, gives its points alone, named as points."""
    unit = _set(world, world.unit, quality="inexperienced", experience=1)
    login(client, world, "player")
    roster = client.get(_url("force", world, world.force.pk)).text
    row = roster.split(f">{unit.name}</a>")[1].split("</tr>")[0]
    assert '"Experience">1<span class="small"> of 3 for the next step</span>' in row
    assert "1 of 3 for the next step (" in client.get(_url("unit", world, unit.pk)).text
    unit = _set(world, world.unit, quality="legendary", experience=4)
    roster = client.get(_url("force", world, world.force.pk)).text
    row = roster.split(f">{unit.name}</a>")[1].split("</tr>")[0]
    assert '"Experience">4<span class="small"> points</span><br>' in row and "next step" not in row


def test_the_medics_box_says_why_a_last_morale_hit_in_the_combat_zone_is_not_theirs(client, world):
    """A roster showing a unit's Morale hit beside "No unit has Casualty or Morale hits the
    medics may heal" left the player to guess why: the box names the unit, says it keeps its
    last Morale hit in the combat zone, and what heals it, as the review of the time does."""
    for unit in world.force.units.all():
        _set(world, unit, status="ready", morale_hits=0, casualty_hits=0)
    unit = _set(world, world.unit, morale_hits=1, in_combat_zone=True)
    login(client, world, "player")
    url = _url("force", world, world.force.pk)
    box = client.get(url).text.split('id="medical-form"')[1].split("</form>")[0]
    assert (
        "No unit has Casualty or Morale hits the medics may heal. Still in the combat zone, "
        f"{unit.name} ({world.force.name}) keeps its last Morale hit: under stress it heals only "
        "by R&amp;R out of the zone (withdraw it to the rear on its page first)."
    ) in box
    _set(world, unit, in_combat_zone=False)  # behind the lines the medics heal it
    box = client.get(url).text.split('id="medical-form"')[1].split("</form>")[0]
    assert "keeps its last" not in box


def test_the_hits_of_two_battles_are_each_said_to_die_as_their_own_24_hours_end(client, world):
    """Battle A at day 1, 00:00 and battle B at day 1, 20:00 each left a Casualty hit: the
    roster, the unit's page, the dashboard and the medics' answer say each battle's 24 hours."""
    from campaign.pages.medics import left_unsaved_text
    from campaign.pages.roster import roster_line
    from campaign.rules.state import WindowFight
    from units.bucs import Quality

    fights = [
        WindowFight(Quality.AVERAGE, 0, casualty_hits=1, name=name, at=clock_hour(1, hour))
        for name, hour in (("A", 0), ("B", 20))
    ]
    unit = _set(world, world.unit, status="ready", morale_hits=0, casualty_hits=2,
                window_from=clock_hour(1, 0),
                window_fights=[f.to_json() for f in fights])  # fmt: skip
    for hour, until, die in (
        (
            21,
            "until day 2, 00:00 (3 hours from now)",
            "1 dies after day 2, 00:00 (3 hours from now)",
        ),
        (24, "this hour only", "1 dies when the clock moves on"),
    ):
        world.campaign.day, world.campaign.hour = divmod(hour, 24)
        world.campaign.day += 1
        world.campaign.save()
        login(client, world, "player")
        later = f"day 2, 20:00 ({44 - hour} hours from now)"
        said = f"the medics have {until} for 1 and until {later} for 1"
        assert said in client.get(_url("force", world, world.force.pk)).text
        assert f"<dd>2 — {said}" in client.get(_url("unit", world, unit.pk)).text
        dashboard = client.get(_url("dashboard", world)).text
        assert (
            f"{unit.name}</a>: 2 Casualty hits await the medics. Unsaved, {die} and 1 after "
            f"{later}."
        ) in dashboard
        line = roster_line(_fresh(unit), clock_hour(1, hour))
        assert left_unsaved_text([line]) == (
            f"Left unsaved: 2 Casualty hits of {unit.name}, of which {die} and 1 after {later}."
        )


def test_when_a_retreated_unit_rallies_is_said_by_the_days_of_r_and_r_it_needs():
    from campaign.rules.state import CampaignUnitState, Status
    from units.bucs import Quality

    broken = CampaignUnitState("Rifles", Quality.AVERAGE, morale_hits=2, status=Status.RETREATED)
    assert rally_when(broken, 0, 1) == "rallies after the next day of R&R"
    assert rally_when(broken, 0, 3) == (
        "its hits keep it below Raw; it rallies after 3 days of R&R"
    )
    assert rally_when(broken, 0, None) == "R&R alone will not rally it"
