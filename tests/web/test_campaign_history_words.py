"""A unit's history says what the unit really carries after each entry, on its page and on the
dashboard's "Since your last visit": an entry keeps only the fields it changed, so the hits it
leaves alone are the unit's, never 0."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.pages.events import since_last_visit
from campaign.pages.stories import unit_story_lines
from campaign.rules.damage import UnitOutcome
from campaign.rules.history import story_text
from campaign.selectors.entries import unit_story
from campaign.services import calendar_advance, outcome_apply, unit_create, unit_edit
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db

CARRIES = re.compile(
    r"now carries (?:(\d+) Morale hits?)?(?: and )?(?:(\d+) Casualty hits?)?|(carries no hits now)"
)


def _said(text: str) -> tuple[int, int] | None:
    """The (Morale, Casualty) hits a sentence says the unit carries, if it says."""
    found = CARRIES.search(text)
    if found is None:
        return None
    return (0, 0) if found[3] else (int(found[1] or 0), int(found[2] or 0))


@pytest.fixture
def wounded(world):
    """A Legendary squad back from a battle with Morale and Casualty hits, then a day of R&R
    (Morale hits only) and a second day, when the medics' 24 hours run out."""
    gm = world.users["gm"]
    for seed in range(50):
        # The dice decide the split: the story wants Morale hits for R&R to heal and a
        # Casualty hit for the window to take.
        unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Holdouts",
                           quality="legendary", specialties=["infantry"])  # fmt: skip
        outcome_apply(campaign=world.campaign, outcomes={unit.pk: UnitOutcome(1, 2, "destroyed")},
                      reason="Hill 12", seed=seed, actor=gm)  # fmt: skip
        unit.refresh_from_db()
        if unit.casualty_hits and unit.morale_hits >= 2 and unit.status != "destroyed":
            break
        unit.delete()
    else:
        pytest.fail("no seed gave both kinds of hits")
    calendar_advance(campaign=world.campaign, days=2, actor=gm)
    unit.refresh_from_db()
    return unit


def test_each_history_line_says_the_hits_the_unit_carries_after_it(client, world, wounded):
    lines = unit_story_lines(unit_story(unit=wounded))[::-1]  # oldest first, as they happened
    kinds = [line.entry.kind for line in lines]
    assert kinds[:2] == ["created", "battle"] and "recovery" in kinds and "casualties" in kinds
    now: dict = {}
    checked = 0
    for line in lines:
        now.update(line.entry.after)
        said = _said(line.what)
        if said is not None:
            assert said == (now["morale_hits"], now["casualty_hits"]), line
            checked += 1
    # The battle, the day of R&R that heals only Morale hits, the window that takes the rest.
    assert checked >= 3
    # The dice of the battle in words: the d6 rolled for the Hit lost, no bare "blows".
    battle = next(line for line in lines if line.entry.kind == "battle")
    assert "a d6 for the Hit lost rolled" in battle.why and "blows" not in battle.why
    rest = next(line for line in lines if line.entry.kind == "recovery")
    assert set(rest.entry.after) >= {"morale_hits"} and "casualty_hits" not in rest.entry.after
    assert _said(rest.what)[1] > 0, "a day of R&R leaves the Casualty hits where they were"
    assert (wounded.morale_hits, wounded.casualty_hits) == (now["morale_hits"], 0)
    page = login(client, world, "player").get(
        reverse("campaign:unit", args=[world.campaign.pk, wounded.pk])
    )
    assert rest.what in page.text


def test_since_your_last_visit_says_the_hits_carried_then(world, wounded):
    lines = since_last_visit(world.campaign, {world.force.pk},
                             timezone.now() - timedelta(hours=1))  # fmt: skip
    ours = [e for e in lines if "Holdouts" in e.text and _said(e.text)]
    assert ours
    replayed: dict = {}
    carried = {}
    for entry in wounded.history.order_by("id"):
        replayed.update(entry.after)
        carried[entry.day, entry.kind] = (replayed["morale_hits"], replayed["casualty_hits"])
    assert all(_said(e.text) in carried.values() for e in ours)
    # The day of R&R says the Casualty hits it leaves alone, and why it came.
    assert any(_said(e.text)[1] > 0 and " — A day of R&R: " in e.text for e in ours)


def test_the_words_read_the_hits_an_entry_leaves_alone_from_the_unit():
    before, after = {"morale_hits": 3}, {"morale_hits": 2}
    assert story_text(before, after, {"morale_hits": 2, "casualty_hits": 1}) == (
        "now carries 2 Morale hits and 1 Casualty hit"
    )
    healed = story_text({"morale_hits": 1}, {"morale_hits": 0}, {"casualty_hits": 1})
    assert healed == "now carries 1 Casualty hit"
    # A destroyed unit carries nothing worth a word.
    assert story_text({"status": "ready", "casualty_hits": 5},
                      {"status": "destroyed", "casualty_hits": 0},
                      {"morale_hits": 0, "casualty_hits": 0}) == "was destroyed"  # fmt: skip


def test_a_contest_is_called_a_contest_since_your_last_visit_old_entries_too(client, world):
    import importlib

    from django.apps import apps

    from campaign.models import HistoryEntry
    from campaign.services.checks import contest_run, skill_check_run

    gm = world.users["gm"]
    scouts, pickets = (
        unit_create(force=force, unit_type=world.unit.unit_type, name=name, quality="elite")
        for force, name in ((world.force, "Scouts"), (world.enemy_unit.force, "Pickets"))
    )
    skill_check_run(campaign=world.campaign, units=[scouts], dc=10, seed=1, actor=gm)
    contest_run(campaign=world.campaign, active=[scouts], resisting=[pickets],
                seed=3, reason="find the camp", actor=gm)  # fmt: skip
    page = (
        login(client, world, "player")
        .get(reverse("campaign:dashboard", args=[world.campaign.pk]))
        .text
    )
    kinds = re.findall(r'<span class="event-kind">([^<]*)</span>', page)
    assert kinds.count("Contest") == 1 and kinds.count("Skill check") == 1, kinds
    # A contest's entries written before, as skill checks, are read as contests once migrated.
    contests = HistoryEntry.objects.filter(kind="contest")
    assert contests.count() == 2
    contests.update(kind="skill_check")
    migration = importlib.import_module("campaign.migrations.0031_history_contest")
    migration.contests_so_far(apps, None)
    assert HistoryEntry.objects.filter(kind="contest").count() == 2
    assert HistoryEntry.objects.filter(kind="skill_check").count() == 1


def test_a_revert_saved_in_older_words_reads_as_one_written_now(client, world):
    """A revert from the first days named what it undid by day and kind ("undoes day 1,
    Battle"), and one of experience that had changed nothing stopped at "is undone": on the
    unit's page, the timeline and the dashboard each reads as a sentence in today's words."""
    from campaign.models import HistoryEntry
    from campaign.rules.history import changes_text
    from campaign.services.reverts import outcome_revert

    gm = world.users["gm"]
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Holdouts",
                       quality="green", specialties=["infantry"])  # fmt: skip
    unit.experience = 1  # held just short of Green's step already
    unit.save()
    # Taken out on the winning side: it retreats in poor order, its points held where they stand.
    entries = outcome_apply(campaign=world.campaign, winners=[unit.pk], reason="Hill 12",
                            outcomes={unit.pk: UnitOutcome(1, 0, "destroyed")}, seed=1,
                            actor=gm)  # fmt: skip
    reverted = outcome_revert(entries=entries, reason="wrong report", actor=gm)
    for revert in reverted:
        undone = HistoryEntry.objects.get(pk=revert.reverts_id)
        if undone.kind == HistoryEntry.Kind.EXPERIENCE and not undone.after:
            revert.text = (
                "wrong report: the experience from the battle of day 1, Hill 12, is undone; "
                "no change"
            )
        else:
            label = HistoryEntry.Kind(undone.kind).label
            revert.text = f"wrong report: undoes day 1, {label}; "
            revert.text += changes_text(revert.before, revert.after)
        revert.details = {}  # saved before a revert kept what it undid as data
        revert.save()
    kinds = {HistoryEntry.objects.get(pk=r.reverts_id).kind for r in reverted}
    assert kinds == {"battle", "experience"}, kinds  # both old forms are read
    args = [world.campaign.pk]
    pages = [
        login(client, world, "player").get(reverse("campaign:unit", args=[*args, unit.pk])).text,
        client.get(reverse("campaign:timeline", args=args)).text,
        client.get(reverse("campaign:dashboard", args=args)).text,
    ]
    for page in pages:
        text = " ".join(re.sub(r"<[^>]+>", "", page).split())
        assert "undoes day" not in text
        assert "is undone (" not in text and not re.search(r"is undone[.;]?\s*(\(|$|<)", text)
        assert "the battle of day 1 is undone: back to" in text
        assert "Hill 12, is undone: nothing to give back" in text


def test_a_revert_that_gave_nothing_back_says_so_by_what_it_undid_not_its_words(world):
    """Whether a revert's sentence stops at what it undid is read from what it undid (its
    ``undid``), however that is worded: one of an entry that changed nothing says "nothing to
    give back"; one of experience that says what the unit keeps says no more."""
    from campaign.models import HistoryEntry
    from campaign.pages.history_words import NOTHING_GIVEN_BACK, revert_words

    def revert(kept, text):
        undid = {"kind": "skill_check", "day": 2, "fight": "", "name": "", "kept": kept}
        return HistoryEntry(unit=world.unit, day=3, kind=HistoryEntry.Kind.REVERT,
                            text=f"misread: {text}; no change", before={}, after={},
                            details={"reason": "misread", "undid": undid})  # fmt: skip

    nothing = revert(None, "the skill check of day 2 is struck off")
    assert revert_words(nothing, {}) == (
        "misread: the skill check of day 2 is struck off",
        NOTHING_GIVEN_BACK,
    )
    kept = revert(3, "the skill check of day 2 is undone: still 3 experience points")
    assert revert_words(kept, {})[1] == ""


def test_an_experience_line_that_changed_nothing_says_what_the_unit_has_on_the_dashboard(world):
    """Points held just short of a step the unit stood at already change nothing: the
    dashboard's line ends with what it has, as its own history's does."""
    from campaign.models import HistoryEntry
    from campaign.pages.history_words import entry_line

    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Holdouts",
                       quality="green", specialties=["infantry"])  # fmt: skip
    # Held just short of Green's step already, as its history says.
    unit_edit(unit=unit, changes={"experience": 1}, reason="found its feet")
    outcome_apply(campaign=world.campaign, winners=[unit.pk], reason="Hill 12",
                  outcomes={unit.pk: UnitOutcome(1, 0, "destroyed")}, seed=1,
                  actor=world.users["gm"])  # fmt: skip
    gain = unit.history.get(kind=HistoryEntry.Kind.EXPERIENCE)
    assert gain.after == {}
    unit.refresh_from_db()
    held = (
        "but is held at 1 of the 2 experience points it needs to rise to Inexperienced, as "
        "there is no step up while it is broken (retreated in poor order)"
    )
    assert entry_line(gain, unit.state.to_json()).endswith(
        f"Hill 12: earned 2 experience points, {held}"
    )
    lines = since_last_visit(world.campaign, {world.force.pk}, None)
    [said] = [e.text for e in lines if e.kind == "experience" and "Holdouts" in e.text]
    assert said.endswith(held), said


def test_a_units_history_says_its_dead_casualty_hits_first_then_the_fight_that_dealt_them(
    client, world, wounded
):
    """The entry read "Day 3: Taken out at Hill 12; 1 Morale, 2 Casualty; medics saved 0; 2
    Casualty hits not saved within 24 hours died: …", as though the unit were taken out again
    the day its hits died. The page says the dead first, the fight in a parenthesis after them,
    as the clock's summary does."""
    page = login(client, world, "player").get(
        reverse("campaign:unit", args=[world.campaign.pk, wounded.pk])
    )
    dead = next(e for e in wounded.history.order_by("id") if e.kind == "casualties")
    line = re.search(rf"<strong>Day {dead.day}:</strong> (\d+ Casualty hits?[^<]*)", page.text)
    assert line is not None, "the history opens the entry with the dead"
    assert re.match(
        r"\d+ Casualty hits? not saved within 24 hours died \(taken out at Hill 12; \d+ "
        r"Morale hits? and \d+ Casualty hits?; medics saved 0\): ",
        line[1],
    ), line[1]
    assert "Taken out at Hill 12; " not in page.text


def test_the_timeline_and_the_dashboard_say_experience_toward_the_next_step(client, world):
    """The timeline's line for a GM's correction of experience and the dashboard's "Since your
    last visit" line for a fight's experience read "has 1 experience point": those lists did
    not know the unit's quality. They say the points toward its next step, as its page does,
    at the quality it stood at then (Green needs 2 to rise to Inexperienced; once it is
    Inexperienced, 3 to rise to Average)."""
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Holdouts",
                       quality="green", specialties=["infantry"])  # fmt: skip
    unit_edit(unit=unit, changes={"experience": 1}, reason="found its feet",
              actor=world.users["gm"])  # fmt: skip
    unit_edit(unit=unit, changes={"quality": "inexperienced", "experience": 0},
              reason="seasoned", actor=world.users["gm"])  # fmt: skip
    outcome_apply(campaign=world.campaign, winners=[], reason="Hill 12",
                  outcomes={unit.pk: UnitOutcome(0, 0)}, seed=1,
                  actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    page = re.sub(
        r"\s+", " ", client.get(reverse("campaign:timeline", args=[world.campaign.pk])).text
    )
    assert (
        "found its feet: has 1 of the 2 experience points it needs to rise to Inexperienced"
    ) in page, page
    lines = since_last_visit(world.campaign, {world.force.pk}, None)
    [said] = [e.text for e in lines if e.kind == "experience" and "Holdouts" in e.text]
    assert re.search(r"has \d of the 3 experience points it needs to rise to Average$", said), said
