"""A unit's Undo on its page: the GM's link beside the latest change (a correction, a move to
another force, a change of leader...), a page to confirm it with a reason, and why not when
something came after it."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from campaign.models import HistoryEntry
from campaign.rules.history import undone_name
from campaign.services import (
    leader_attach,
    leader_detach,
    unit_combat_zone_set,
    unit_edit,
    unit_move,
)
from campaign.services.battles import campaign_battle_record
from campaign.services.characters import character_create
from campaign.services.reverts import REVERT_REASON_NEEDED
from campaign.services.roster import unit_create
from campaign.templatetags.sentences import as_sentence
from campaign.views import forces
from tests.web.campaign_world import login, raise_units
from units.words import possessive

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _correct(world, reason="shelled", **changes):
    unit_edit(unit=world.unit, changes=changes, reason=reason, actor=world.users["gm"])
    return world.unit.history.order_by("pk").last()


def test_the_gm_undoes_the_latest_correction_from_the_units_page(client, world):
    world.unit.refresh_from_db()
    was = world.unit.state.to_json()
    edit = _correct(world, morale_hits=2)
    undo_url = _url("unit-undo", world, world.unit.pk, edit.pk)
    login(client, world, "gm")
    page = client.get(_url("unit", world, world.unit.pk)).text
    assert f'href="{undo_url}"' in page
    assert html.unescape(page).count(f'aria-label="Undo the GM\'s correction of day {edit.day}"')
    review = html.unescape(client.get(undo_url).text)
    assert f"Undo the GM's correction of day {edit.day}?" in review
    assert f"Undoing it gives {world.unit.name} back every field it changed" in review
    assert f"{world.unit.name} goes back to {was['morale_hits']} Morale hits" in review
    assert 'name="reason"' in review and "Goes into the unit's history." in review
    blank = client.post(undo_url, {"reason": " ", "confirm": "yes"})
    assert blank.status_code == 400
    assert as_sentence(REVERT_REASON_NEEDED) in html.unescape(blank.text)
    done = client.post(undo_url, {"reason": "the wrong unit", "confirm": "yes"}, follow=True)
    text = html.unescape(done.text)
    assert f"The GM's correction of day {edit.day} is undone." in text
    world.unit.refresh_from_db()
    assert world.unit.state.to_json() == was
    assert f"The wrong unit: the GM's correction of day {edit.day} is undone" in text
    assert text.count('class="reverted"') == 1 and f'href="{undo_url}"' not in text


def test_a_player_gets_no_undo_and_a_post_is_refused(client, world):
    edit = _correct(world, morale_hits=2)
    undo_url = _url("unit-undo", world, world.unit.pk, edit.pk)
    login(client, world, "player")
    assert "Undo" not in client.get(_url("unit", world, world.unit.pk)).text
    refused = client.post(undo_url, {"reason": "mine now", "confirm": "yes"})
    assert refused.status_code == 403
    assert "Only the campaign's GM may do that." in html.unescape(refused.text)
    assert client.get(undo_url).status_code == 403
    world.unit.refresh_from_db()
    assert world.unit.morale_hits == 2


def test_an_undo_sent_twice_undoes_once_and_says_so(client, world):
    edit = _correct(world, morale_hits=2)
    undo_url = _url("unit-undo", world, world.unit.pk, edit.pk)
    login(client, world, "gm")
    assert client.post(undo_url, {"reason": "wrong", "confirm": "yes"}).status_code == 302
    entries = HistoryEntry.objects.count()
    again = client.post(undo_url, {"reason": "wrong", "confirm": "yes"}, follow=True)
    said = f"The GM's correction of day {edit.day} is undone already; nothing changed."
    assert said in html.unescape(again.text)
    assert HistoryEntry.objects.count() == entries


def test_an_undo_of_an_earlier_change_says_what_came_after_it(client, world):
    first = _correct(world, morale_hits=2)
    _correct(world, reason="drill", morale_hits=1)
    undo_url = _url("unit-undo", world, world.unit.pk, first.pk)
    login(client, world, "gm")
    page = client.get(undo_url)
    text = html.unescape(page.text)
    assert page.status_code == 200
    assert f"The GM's correction of day {first.day} cannot be undone" in text
    unit = world.unit
    assert (
        f"{unit.name} ({unit.force.name}) has changed since: GM correction on day {first.day} — "
        f"GM correction: drill. Undo the GM's correction of day {first.day}, then undo this one."
    ) in text
    assert 'name="confirm"' not in text
    refused = client.post(undo_url, {"reason": "wrong", "confirm": "yes"})
    assert refused.status_code == 400
    world.unit.refresh_from_db()
    assert world.unit.morale_hits == 1


def test_the_gm_undoes_a_move_to_another_force_from_the_units_page(client, world):
    unit = world.unit
    moved = unit_move(unit=unit, force=world.enemy, reason="detached", actor=world.users["gm"])
    undo_url = _url("unit-undo", world, unit.pk, moved.pk)
    login(client, world, "gm")
    page = html.unescape(client.get(_url("unit", world, unit.pk)).text)
    assert f'aria-label="Undo the move between forces of day {moved.day}"' in page
    review = html.unescape(client.get(undo_url).text)
    assert f"Undo the move between forces of day {moved.day}?" in review
    assert f"{unit.name} goes back to {world.force.name}." in review
    done = client.post(undo_url, {"reason": "the wrong squad", "confirm": "yes"}, follow=True)
    text = html.unescape(done.text)
    assert f"The move between forces of day {moved.day} is undone." in text
    assert f"The wrong squad: the move between forces of day {moved.day} is undone" in text
    unit.refresh_from_db()
    assert unit.force == world.force


def test_a_leader_change_undone_from_the_units_page_and_a_refusal_said_before_the_press(
    client, world
):
    unit = world.unit
    leader_attach(unit=unit, name="Sgt. Kay", hit_points=9, actor=world.users["gm"])
    attached = unit.history.order_by("pk").last()
    login(client, world, "gm")
    undo_url = _url("unit-undo", world, unit.pk, attached.pk)
    review = html.unescape(client.get(undo_url).text)
    assert f"Undo the change of leader of day {attached.day}?" in review
    client.post(undo_url, {"reason": "no such sergeant", "confirm": "yes"})
    unit.refresh_from_db()
    assert not hasattr(unit, "leader")
    # A unit of its name raised in the force it left since: the Undo is refused, in words.
    moved = unit_move(unit=unit, force=world.enemy, reason="detached", actor=world.users["gm"])
    unit_create(force=world.force, unit_type=unit.unit_type, name=unit.name)
    undo_url = _url("unit-undo", world, unit.pk, moved.pk)
    said = f"{world.force.name} already has a unit called “{unit.name}”: rename one of them first."
    assert said in html.unescape(client.get(undo_url).text)
    refused = client.post(undo_url, {"reason": "wrong", "confirm": "yes"})
    assert refused.status_code == 400
    assert said in html.unescape(refused.text) and 'name="confirm"' not in refused.text
    unit.refresh_from_db()
    assert unit.force == world.enemy


def _refused_before_the_press(client, world, unit, entry, said):
    """The unit's page and the Undo's own page say ``said`` where the Undo would be, and offer
    no button that could only be refused; a press sent anyway writes nothing."""
    undo_url = _url("unit-undo", world, unit.pk, entry.pk)
    name = undone_name(entry.undo_kind, entry.day)
    page = html.unescape(client.get(_url("unit", world, unit.pk)).text)
    assert f"No Undo now: {said}" in page and f'href="{undo_url}"' not in page
    review = client.get(undo_url)
    text = html.unescape(review.text)
    assert review.status_code == 200
    assert f"{name[:1].upper()}{name[1:]} cannot be undone" in text
    assert (
        f"It is {possessive(unit.name)} latest change, but as the campaign stands now its Undo "
        "would be refused. Put right what is said below, and it can be undone."
    ) in text
    assert f"<li>{said}</li>" in text
    assert 'name="confirm"' not in text and 'name="reason"' not in text
    entries = HistoryEntry.objects.count()
    refused = client.post(undo_url, {"reason": "wrong", "confirm": "yes"})
    assert refused.status_code == 400 and said in html.unescape(refused.text)
    assert HistoryEntry.objects.count() == entries


def test_a_move_back_to_a_force_that_raised_a_unit_of_its_name_is_refused_before_the_press(
    client, world
):
    (unit,) = raise_units(world.force, world.unit.unit_type, 1, "Sappers")
    moved = unit_move(unit=unit, force=world.enemy, reason="detached", actor=world.users["gm"])
    unit_create(force=world.force, unit_type=unit.unit_type, name=unit.name)
    login(client, world, "gm")
    said = f"{world.force.name} already has a unit called “{unit.name}”: rename one of them first."
    _refused_before_the_press(client, world, unit, moved, said)
    unit.refresh_from_db()
    assert unit.force == world.enemy


def test_a_move_or_a_change_of_combat_zone_awaiting_a_battles_outcome_is_refused_before_the_press(
    client, world
):
    gm = world.users["gm"]
    (unit,) = raise_units(world.force, world.unit.unit_type, 1, "Sappers")
    (lent,) = raise_units(world.enemy, world.unit.unit_type, 1, "Lent")
    (foe,) = raise_units(world.enemy, world.unit.unit_type, 1, "Foe")
    sent = unit_combat_zone_set(unit=unit, in_combat_zone=True, actor=gm)
    moved = unit_move(unit=lent, force=world.force, reason="lent", actor=gm)
    untouched = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    campaign_battle_record(
        campaign=world.campaign, name="Pending ford", sides={"x": [unit, lent], "y": [foe]},
        winner="y", outcomes={u.pk: untouched for u in (unit, lent, foe)}, actor=gm,
    )  # fmt: skip
    login(client, world, "gm")
    said = f"{unit.name} is still in Pending ford, whose outcome is not applied yet."
    _refused_before_the_press(client, world, unit, sent, said)
    said = f"{lent.name} is still in Pending ford, whose outcome is not applied yet."
    _refused_before_the_press(client, world, lent, moved, said)
    unit.refresh_from_db()
    lent.refresh_from_db()
    assert unit.in_combat_zone and lent.force == world.force


def test_a_leaving_undone_is_refused_before_the_press_while_the_character_leads_another_unit(
    client, world
):
    gm = world.users["gm"]
    squad, other = raise_units(world.force, world.unit.unit_type, 2, "Sappers")
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=14)
    leader_attach(unit=squad, character=holt, actor=gm)
    left = leader_detach(unit=squad, reason="called to HQ", actor=gm)
    leader_attach(unit=other, character=holt, actor=gm)
    login(client, world, "gm")
    said = "Capt. Holt leads Sappers 2 (Red Company) now: detach them on Sappers 2's page first."
    _refused_before_the_press(client, world, squad, left, said)
    squad.refresh_from_db()
    assert not hasattr(squad, "leader")


def test_an_undo_pressed_as_the_unit_changes_is_still_refused_with_nothing_written(
    client, world, monkeypatch
):
    """The page offered the Undo; another GM raises a unit of its name in the force it left
    between the check and the press: the Undo judges again, locked, and writes nothing."""
    (unit,) = raise_units(world.force, world.unit.unit_type, 1, "Sappers")
    moved = unit_move(unit=unit, force=world.enemy, reason="detached", actor=world.users["gm"])
    undo_url = _url("unit-undo", world, unit.pk, moved.pk)
    login(client, world, "gm")
    assert 'name="confirm"' in client.get(undo_url).text
    entry_undo = forces.entry_undo

    def raced(**kwargs):
        unit_create(force=world.force, unit_type=unit.unit_type, name=unit.name)
        return entry_undo(**kwargs)

    monkeypatch.setattr(forces, "entry_undo", raced)
    entries = HistoryEntry.objects.count()
    refused = client.post(undo_url, {"reason": "the wrong squad", "confirm": "yes"})
    text = html.unescape(refused.text)
    assert refused.status_code == 400
    said = f"{world.force.name} already has a unit called “{unit.name}”: rename one of them first."
    assert f"<li>{said}</li>" in text and 'name="confirm"' not in text
    assert HistoryEntry.objects.count() == entries + 1  # the raising alone: no revert
    unit.refresh_from_db()
    assert unit.force == world.enemy and not HistoryEntry.objects.filter(reverts=moved)


def test_an_undo_refused_by_two_later_corrections_of_one_day_says_both_must_go(world):
    """Two corrections of the same day after the one to undo read "Undo the GM's correction
    of day 1, then undo this one", as if one Undo freed it: each takes an Undo of its own."""
    from campaign.pages.reverts import undo_blocked

    first = _correct(world, morale_hits=2)
    _correct(world, reason="drill", morale_hits=1)
    _correct(world, reason="shelled again", morale_hits=0)
    unit, day = world.unit, first.day
    assert undo_blocked(world.campaign, first) == [
        f"{unit.name} ({unit.force.name}) has changed since: GM correction on day {day} — GM "
        f"correction: drill; GM correction on day {day} — GM correction: shelled again. Undo "
        f"the GM's correction of day {day} (2 of them), then undo this one."
    ]


def test_an_undo_refused_by_a_later_entry_with_no_undo_says_to_correct_the_unit(world):
    """A day of R&R came with the clock, which does not go back: the change before it cannot
    be undone by undoing it first, and the unit is corrected instead."""
    from campaign.pages.reverts import undo_blocked

    first = _correct(world, morale_hits=2)
    HistoryEntry.objects.create(
        unit=world.unit, day=first.day, kind=HistoryEntry.Kind.RECOVERY,
        text="A day of R&R", before={"morale_hits": 2}, after={"morale_hits": 1},
    )  # fmt: skip
    unit, day = world.unit, first.day
    [said] = undo_blocked(world.campaign, first)
    assert said.startswith(f"{unit.name} ({unit.force.name}) has changed since: ")
    assert said.endswith(". The R&R entry cannot be undone: correct the unit instead.")
    assert f"on day {day}" in said
