"""Before Apply, Advance and Revert the GM sees each unit's before → after, and confirms; after,
the same table is the summary. A review writes nothing, and it shows what the click then does."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Campaign, CampaignBattle, HistoryEntry, Unit
from campaign.services import unit_create, unit_edit
from campaign.services.battles import campaign_battle_record
from tests.web.campaign_world import login
from tests.web.test_dark_mode import STATIC, _rules
from units.models import Ruleset, UnitType
from units.services import library_load

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _states(pks):
    return {u.pk: u.state for u in Unit.objects.filter(pk__in=pks).select_related("leader")}


def _rows(response):
    return {c.unit.pk: c for c in response.context["changes"]}


def _doomed_battle(world):
    """A table battle in which a fresh squad of each force is destroyed or merely fights."""
    gm = world.users["gm"]
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    ours = unit_create(force=world.force, unit_type=card, name="Doomed", specialties=["infantry"])
    theirs = unit_create(force=world.enemy, unit_type=card, name="Lucky", specialties=["infantry"])
    return (
        campaign_battle_record(
            campaign=world.campaign,
            name="Last stand",
            sides={"attackers": [ours], "defenders": [theirs]},
            winner="defenders",
            outcomes={
                ours.pk: {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"},
                theirs.pk: {"hits_lost": 0, "skill_lost": 0},
            },
            actor=gm,
        ),
        ours,
        theirs,
    )


def test_the_apply_review_shows_what_apply_then_does_and_writes_nothing(client, world):
    battle, ours, theirs = _doomed_battle(world)
    login(client, world, "gm")
    written = HistoryEntry.objects.count()
    review = client.get(_url("battle-apply", world, battle.pk))
    assert review.status_code == 200 and HistoryEntry.objects.count() == written
    assert "applying writes exactly what is shown here" in review.text
    # What applying does, in plain words: to the units, to their leaders; and no new dice.
    assert "gives each unit below the hits, quality, status and experience shown" in review.text
    assert "Nothing is rolled when you apply" in review.text
    assert "among them:" not in review.text
    rows = _rows(review)
    # Taken out is not dead: the unit retreats, its fate left to the medics' 24 hours.
    assert rows[ours.pk].after.status == "retreated" and not rows[ours.pk].destroyed
    assert rows[ours.pk].after.casualty_hits + rows[ours.pk].after.morale_hits > 0
    assert rows[theirs.pk].after.experience == 2  # survived and won
    preview = {pk: row.after for pk, row in rows.items()}
    response = client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    assert response.status_code == 302
    assert _states(preview) == preview  # what the review said is what Apply did
    # The battle page keeps the summary: the same table, from the history written.
    page = client.get(response["Location"])
    summary = {c.unit.pk: c.after for c in page.context["changes"]}
    assert summary == preview and "Doomed" in page.text
    assert "Outcome applied to 2 units: see below." in page.text


def test_an_outcome_apply_would_refuse_says_why_and_offers_nothing_to_confirm(client, world):
    # A unit changed after it fought (an auto-mode campaign leaves such an outcome awaiting):
    # the review names it and why, instead of an empty table and a button that then fails.
    battle, ours, _ = _doomed_battle(world)
    Unit.objects.filter(pk=ours.pk).update(status="retreated")
    login(client, world, "gm")
    written = HistoryEntry.objects.count()
    review = client.get(_url("battle-apply", world, battle.pk))
    assert review.status_code == 200 and HistoryEntry.objects.count() == written
    assert review.context["refusal"] == [
        "Doomed is Retreated in poor order: it could not have fought"
    ]
    assert "Doomed is Retreated in poor order: it could not have fought" in review.text
    assert 'id="confirm-form"' not in review.text
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.AWAITING


def test_the_apply_review_names_a_unit_destroyed_since_and_apply_then_gives_it_nothing(
    client, world
):
    battle, ours, _ = _doomed_battle(world)
    Unit.objects.filter(pk=ours.pk).update(status="destroyed")
    login(client, world, "gm")
    review = client.get(_url("battle-apply", world, battle.pk))
    said = "Doomed has been destroyed since Last stand was fought: it takes nothing from it."
    assert review.context["lines"] == [said] and said in review.text
    assert 'id="confirm-form"' in review.text
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED
    assert HistoryEntry.objects.get(unit=ours, kind="battle").after == {}


def test_an_apply_confirmed_from_a_review_drawn_before_a_unit_changed_writes_nothing(client, world):
    # The review promises "applying writes exactly what is shown here": a unit corrected in
    # another tab since the review was drawn would take something else, so the stale page's
    # Apply is refused by the unit's name and the review is drawn again with the units now.
    battle, _, theirs = _doomed_battle(world)
    login(client, world, "gm")
    review = client.get(_url("battle-apply", world, battle.pk))
    reviewed = re.search(r'name="reviewed" value="([^"]*)"', review.text)[1]
    unit_edit(unit=theirs, changes={"morale_hits": 1}, reason="shelled", actor=world.users["gm"])
    written = HistoryEntry.objects.count()
    url = _url("battle-apply", world, battle.pk)
    response = client.post(url, {"confirm": "yes", "reviewed": reviewed})
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.AWAITING
    assert HistoryEntry.objects.count() == written
    assert response.status_code == 302 and response["Location"] == url
    again = client.get(url)
    said = "Lucky has changed since you reviewed this outcome: review it again."
    assert said in again.text
    assert _rows(again)[theirs.pk].after.morale_hits == 1  # drawn as the unit stands now
    # Confirmed from the review drawn now, it applies what that one showed.
    fresh = re.search(r'name="reviewed" value="([^"]*)"', again.text)[1]
    client.post(url, {"confirm": "yes", "reviewed": fresh})
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED


def test_the_advance_review_names_who_dies_and_advancing_does_just_that(client, world):
    gm = world.users["gm"]
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    hurt = unit_create(force=world.force, unit_type=card, name="Hurt", quality="green")
    unit_edit(unit=hurt, changes={"casualty_hits": 1, "morale_hits": 1, "last_battle_day": 1},
              reason="wounded", actor=gm)  # fmt: skip
    login(client, world, "gm")
    # Day 1's window is open up to and including day 2, 00:00: the hit dies in the second day.
    assert _rows(client.get(_url("advance", world), {"days": "1"}))[hurt.pk].after.casualty_hits
    review = client.get(_url("advance", world), {"days": "2"})
    rows = _rows(review)
    assert rows[hurt.pk].before.casualty_hits == 1 and rows[hurt.pk].after.casualty_hits == 0
    assert rows[hurt.pk].kind == "reduced"  # the dead hit costs Green its step: Raw
    assert Campaign.objects.get(pk=world.campaign.pk).day == 1
    preview = {pk: row.after for pk, row in rows.items()}
    done = client.post(_url("advance", world), {"days": "2", "confirm": "yes", "reviewed_at": 0})
    assert done.status_code == 302
    assert _states(preview) == preview
    # The summary, after the redirect: the same table, from the history the days wrote.
    done = client.get(done["Location"])
    assert done.status_code == 200 and "It is now day 3" in done.text
    assert {c.unit.pk: c.after for c in done.context["changes"]} == preview


def test_the_revert_review_gives_back_what_the_outcome_changed(client, world):
    battle = world.engine_battle
    assert battle.state == CampaignBattle.State.APPLIED
    login(client, world, "gm")
    review = client.get(_url("battle-revert", world, battle.pk))
    assert review.status_code == 200 and "Revert these changes" in review.text
    preview = {pk: row.after for pk, row in _rows(review).items()}
    assert preview and all(state.battles_fought == 0 for state in preview.values())
    done = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    assert done.status_code == 302
    assert _states(preview) == preview
    # The battle's page keeps the summary: what the revert gave back, from the history.
    page = client.get(done["Location"])
    assert {c.unit.pk: c.after for c in page.context["changes"]} == preview


def test_an_outcome_reverted_is_offered_for_apply_again(client, world):
    battle = world.engine_battle
    login(client, world, "gm")
    done = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    assert done.status_code == 302
    assert CampaignBattle.objects.get(pk=battle.pk).state == CampaignBattle.State.REVERTED
    review = client.get(_url("battle-apply", world, battle.pk))
    assert review.status_code == 200
    assert "Apply the outcome?" in review.text and "Apply these changes" in review.text


def test_players_see_no_review(client, world):
    battle, _, _ = _doomed_battle(world)
    login(client, world, "player")
    assert client.get(_url("battle-apply", world, battle.pk)).status_code == 403
    assert client.get(_url("advance", world), {"days": "1"}).status_code == 403


def _suppressed_battle(world):
    """A table battle in which an Average squad 3 points toward the next step loses a point of
    Skill to suppression: under Combined Arms a step lost for good, to Inexperienced, which
    holds its experience just short of Inexperienced's next step (3 points)."""
    gm = world.users["gm"]
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    ours = unit_create(force=world.force, unit_type=card, name="Shaken", quality="average",
                       specialties=["infantry"])  # fmt: skip
    unit_edit(unit=ours, changes={"experience": 3}, reason="records", actor=gm)
    theirs = unit_create(force=world.enemy, unit_type=card, name="Steady", specialties=["infantry"])
    battle = campaign_battle_record(
        campaign=world.campaign,
        name="Pinned down",
        sides={"attackers": [ours], "defenders": [theirs]},
        winner="defenders",
        outcomes={
            ours.pk: {"hits_lost": 0, "skill_lost": 1, "removed": "demoralised"},
            theirs.pk: {"hits_lost": 0, "skill_lost": 0},
        },
        actor=gm,
    )
    return battle, ours


def test_the_apply_review_and_the_battle_page_tell_each_unit_as_its_history_does(client, world):
    """Sentences, not field diffs: why the experience fell and that the Skill is lost for good,
    in the words the unit's history then uses."""
    battle, ours = _suppressed_battle(world)
    login(client, world, "gm")
    told = (
        "Broken at Pinned down: took 1 Morale hit; retreated in poor order; fell from Average to "
        "Inexperienced; has 2 (3 before) of the 3 experience points it needs to rise to Average; "
        "lost 1 point of Skill to suppression for good — 0 of 1 Hit lost; 1 Skill lost to "
        "suppression: 1 Morale hit; Skill lost to suppression costs 1 step."
    )
    review = client.get(_url("battle-apply", world, battle.pk)).text
    table = review[review.index('<table class="changes told">') :]
    assert f"<p>{told}</p>" in table
    # The columns show the unit after it; the sentence, not a field diff, says what changed.
    assert '<td data-label="Experience" class="changed"><strong>2</strong></td>' in table
    assert "3 → <strong>2</strong>" not in table and "0 → <strong>1</strong>" not in table
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    for role in ("gm", "player"):
        page = login(client, world, role).get(_url("battle", world, battle.pk)).text
        assert f"<p>{told}</p>" in page, role
    # The same words as the unit's own history, where the battle's name is the link.
    history = client.get(_url("unit", world, ours.pk)).text
    assert told.removeprefix("Broken at Pinned down: ").removesuffix(".") in history


TABLET_UPRIGHT = 820  # px: a tablet held upright at the table


def cards_up_to_px(table: str) -> float | None:
    """The widest screen, in px, at which campaign.css turns ``table``'s rows into cards (its
    head hidden), or None if it never does."""
    sheet = (STATIC / "campaign" / "campaign.css").read_text()
    cards = [
        media
        for media, selector, declared in _rules(sheet)
        if selector == f"{table} thead" and declared.get("display") == "none"
    ]
    width = re.search(r"max-width:\s*([\d.]+)rem", cards[0]) if cards else None
    return float(width[1]) * 16 if width else None


def test_the_changes_table_is_one_card_a_unit_on_a_tablet_held_upright():
    # Its eight columns, the history's sentences among them, are some 960 px wide: at 820 px
    # the page scrolled sideways and a unit's Experience and Leader fell off the screen.
    widest = cards_up_to_px(".changes")
    assert widest is not None, "the review table turns into cards on a narrow screen"
    assert widest >= TABLET_UPRIGHT


def test_skill_lost_again_is_said_with_the_count_the_column_shows(client, world):
    """A unit that had lost a point of Skill loses another: the review's sentence read "lost 1
    point of Skill to suppression for good" beside a Skill lost column of 2. The sentence says
    the count in all too, in the review and the unit's history alike."""
    battle, ours = _suppressed_battle(world)
    Unit.objects.filter(pk=ours.pk).update(skill_lost=1)
    login(client, world, "gm")
    review = client.get(_url("battle-apply", world, battle.pk)).text
    table = review[review.index('<table class="changes told">') :]
    assert "lost 1 point of Skill to suppression for good, 2 in all — " in table
    assert '<td data-label="Skill lost for good" class="changed"><strong>2</strong></td>' in table
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    history = client.get(_url("unit", world, ours.pk)).text
    assert "lost 1 point of Skill to suppression for good, 2 in all — " in history


def test_under_one_year_war_the_review_heads_its_skill_column_for_good_not_the_battles_loss(
    client, world
):
    """Under One Year War the Skill a table result entered comes back: the battle page showed
    "Skill lost 1" in the losses as entered and, just below, a changes column headed "Skill
    lost" reading 0. The column is the Skill lost for good, and is headed so."""
    Campaign.objects.filter(pk=world.campaign.pk).update(ruleset=Ruleset.ONE_YEAR_WAR)
    world.campaign.refresh_from_db()
    library_load()
    card = UnitType.objects.get(ruleset=Ruleset.ONE_YEAR_WAR, name="Federation Line Suit")
    ours = unit_create(force=world.force, unit_type=card, name="Shaken", quality="average")
    theirs = unit_create(force=world.enemy, unit_type=card, name="Steady")
    battle = campaign_battle_record(
        campaign=world.campaign,
        name="Pinned down",
        sides={"attackers": [ours], "defenders": [theirs]},
        winner="defenders",
        outcomes={
            ours.pk: {"hits_lost": 0, "skill_lost": 1, "removed": "none"},
            theirs.pk: {"hits_lost": 0, "skill_lost": 0},
        },
        actor=world.users["gm"],
    )
    login(client, world, "gm")
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    page = client.get(_url("battle", world, battle.pk)).text
    # The losses as entered, in points of Skill: not a bare number.
    assert '<td class="num" data-label="Skill lost">1 point</td>' in page
    table = page[page.index('<table class="changes told">') :]
    assert "1 Skill lost to suppression: 1 Morale hit, no step lost (One Year War)" in table
    assert '<th scope="col">Skill lost for good</th>' in table
    kept = '<td data-label="Skill lost for good" class="unchanged"><span class="small">0</span>'
    assert kept in table


def test_the_table_result_form_says_what_skill_lost_does_under_the_campaigns_ruleset(client, world):
    """The GM enters each unit's Skill lost before the review tells what it cost: the form
    says it first, as the ruleset has it (a step for good, or the Skill back)."""
    login(client, world, "gm")
    page = client.get(_url("battle-record", world)).text
    assert (
        "Each point of Skill lost is a Morale hit; under Combined Arms it also costs a quality "
        "step for good."
    ) in page
    Campaign.objects.filter(pk=world.campaign.pk).update(ruleset=Ruleset.ONE_YEAR_WAR)
    page = client.get(_url("battle-record", world)).text
    assert (
        "Each point of Skill lost is a Morale hit; under One Year War the Skill itself comes back "
        "after the battle, and no quality step is lost."
    ) in page


def test_a_battles_entry_finds_the_battles_page_to_link(client, world):
    """Where a unit fell links the fight's name to its page (`pages.destroyed.fight_pages`): a table
    battle's entry finds its battle's campaign page."""
    from campaign.pages.destroyed import fight_pages

    battle, ours, _ = _doomed_battle(world)
    login(client, world, "gm")
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    entry = HistoryEntry.objects.get(unit=ours, kind="battle")
    assert fight_pages([entry], world.campaign.pk) == {entry.pk: _url("battle", world, battle.pk)}
    assert fight_pages([], world.campaign.pk) == {}


def test_the_revert_review_tells_each_unit_in_the_words_the_revert_then_writes(client, world):
    """Sentences, not field diffs, before the GM confirms a revert as after: each unit's line
    is the one its history then keeps, but for the reason still to be given."""
    battle = world.engine_battle
    login(client, world, "gm")
    review = client.get(_url("battle-revert", world, battle.pk))
    assert "What the revert gives back" in review.text
    told = {c.unit.pk: c.lines for c in review.context["changes"]}
    assert told and all(told.values())
    assert all(" is undone" in line for lines in told.values() for line in lines)
    done = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    page = client.get(done["Location"])
    assert "What the revert gave back" in page.text
    written = {c.unit.pk: c.lines for c in page.context["changes"]}
    assert written == {
        pk: tuple(f"Wrong map: {line[0].lower()}{line[1:]}" for line in lines)
        for pk, lines in told.items()
    }
