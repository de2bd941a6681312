"""Moving the clock on from the Orders page: the calendar's review first, then a summary that
names every unit the hours changed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Campaign, Unit
from campaign.rules.damage import UnitOutcome
from campaign.selectors.roster import campaign_now
from campaign.services import outcome_apply, unit_create, unit_edit
from campaign.services.characters import character_create
from campaign.services.notices import notice_lines
from campaign.services.orders import order_give
from tests.web.campaign_world import login
from units.bucs import Quality
from units.models import UnitType

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _lines_of(response, unit):
    """The lines of a review or summary that tell ``unit``."""
    return [line for line in response.context["lines"] if f"{unit.name} (" in line]


def _wounded(world):
    """The player's unit with Casualty hits whose medical window closes in the next hours."""
    unit_edit(
        unit=world.unit,
        changes={"status": "ready", "morale_hits": 0, "casualty_hits": 1, "window_from": 0,
                 "last_battle_day": 1},
        reason="set up", actor=world.users["gm"],
    )  # fmt: skip
    world.campaign.day, world.campaign.hour = 1, 23
    world.campaign.save()
    return Unit.objects.get(pk=world.unit.pk)


def test_moving_the_clock_is_reviewed_first_and_names_the_units_it_changes(client, world):
    unit = _wounded(world)
    login(client, world, "gm")
    orders = client.get(_url("orders", world)).text
    assert "Review the hours" in orders
    # The form says the medics' time as the campaign page's calendar does: no "window".
    assert "die once the clock is past the 24 hours after their fight." in orders
    assert "window" not in orders
    posted = client.post(_url("clock-advance", world), {"hours": "3"})
    assert posted.status_code == 302 and "hours=3" in posted["Location"]
    review = client.get(posted["Location"])
    assert review.status_code == 200
    assert Campaign.objects.get(pk=world.campaign.pk).hour == 23  # a review writes nothing
    assert "Move on to day 2, 02:00" in review.text
    # The medics' 24 hours told in the words of the unit's page: no "window" to explain.
    assert (
        "die when the medics&#x27; 24 hours are over: for each unit, 24 hours from the battle "
        "that dealt the oldest of its hits still awaiting them"
    ) in review.text
    assert "window" not in review.text
    assert f"{unit.name} ({unit.force.name}): 1 Casualty hit not saved within 24 hours dies" in (
        review.text
    )
    done = client.post(
        _url("clock-advance", world), {"hours": "3", "confirm": "yes", "reviewed_at": 23}
    )
    assert done.status_code == 302
    assert done["Location"].startswith(_url("advance-summary", world) + "?hours=3&start=23&")
    summary = client.get(done["Location"]).text
    assert "It is now day 2, 02:00" in summary
    assert "The clock moved on 3 hours, to day 2, 02:00." in summary
    assert f"{unit.name} ({unit.force.name}):" in summary and "not saved within 24 hours died" in (
        summary
    )
    assert Unit.objects.get(pk=unit.pk).casualty_hits == 0


def test_the_dashboard_says_when_each_units_medical_window_closes(client, world):
    unit = _wounded(world)
    login(client, world, "gm")
    page = client.get(_url("dashboard", world)).text
    assert "they die 24 hours after their battle" not in page
    said = f"{unit.name}</a>: 1 Casualty hit awaits the medics. Unsaved, it dies after day 2"
    assert said in page


def test_a_review_confirmed_twice_moves_the_clock_once(client, world):
    """Two tabs on one review, or a double click: the review's confirmation carries the time it
    was reviewed from, and the second is refused with the time it is now, moving nothing."""
    unit = _wounded(world)
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "3"}).text
    assert '<input type="hidden" name="reviewed_at" value="23">' in review
    confirm = {"hours": "3", "confirm": "yes", "reviewed_at": "23"}
    first = client.post(_url("clock-advance", world), confirm)
    assert first.status_code == 302 and first["Location"].startswith(_url("advance-summary", world))
    entries = unit.history.count()
    second = client.post(_url("clock-advance", world), confirm)
    assert second.status_code == 400
    assert (
        "The clock has moved since you reviewed this (it is now day 2, 02:00): review again."
        in second.text
    )
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.day, campaign.hour) == (2, 2)  # moved once: 3 hours, not 6
    assert unit.history.count() == entries
    # A confirmation that names no review goes to the review, moving nothing.
    bare = client.post(_url("clock-advance", world), {"hours": "3", "confirm": "yes"})
    assert bare.status_code == 302 and "hours=3" in bare["Location"]
    assert Campaign.objects.get(pk=world.campaign.pk).hour == 2


def test_a_calendar_review_confirmed_twice_advances_once(client, world):
    login(client, world, "gm")
    review = client.get(_url("advance", world), {"days": "1"}).text
    assert '<input type="hidden" name="reviewed_at" value="0">' in review
    confirm = {"days": "1", "confirm": "yes", "reviewed_at": "0"}
    assert client.post(_url("advance", world), confirm).status_code == 302
    second = client.post(_url("advance", world), confirm)
    assert second.status_code == 400
    assert (
        "The clock has moved since you reviewed this (it is now day 2, 00:00): review again."
        in second.text
    )
    assert Campaign.objects.get(pk=world.campaign.pk).day == 2  # one day, not two


def test_the_review_and_the_summary_tell_each_unit_once(client, world):
    """A unit that rallies at midnight as its medical window closes: one sentence, in the
    review and in the summary alike, never a line for the R&R and another for the dead."""
    unit = _wounded(world)
    unit_edit(unit=unit, changes={"status": "retreated"}, reason="fell back",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "3"})
    told = _lines_of(review, unit)
    assert told == [
        f"Day 2, 00:00: {unit.name} ({unit.force.name}): a day of R&R; rallies, then after day 2, "
        "00:00, 1 Casualty hit not saved within 24 hours dies; falls from Inexperienced to Green; "
        "carries no hits now."
    ]
    done = client.post(
        _url("clock-advance", world), {"hours": "3", "confirm": "yes", "reviewed_at": "23"}
    )
    summary = client.get(done["Location"])
    told = _lines_of(summary, unit)
    assert len(told) == 1
    assert told[0].startswith(
        f"Day 2, 00:00: {unit.name} ({unit.force.name}): a day of R&R; rallied, then after day 2, "
        "00:00, 1 Casualty hit not saved within 24 hours died (taken out at Crossroads; "
    )
    assert told[0].endswith("); fell from Inexperienced to Green; carries no hits now.")


def test_a_step_lost_to_the_dead_is_said_with_them_not_after_a_rally_that_came_later(client, world):
    """The dead first, then a day of R&R that rallies the unit: each says what it did, so the
    fall is never read as the rally's."""
    unit = _wounded(world)
    unit_edit(unit=unit, changes={"status": "retreated", "in_combat_zone": False,
                                  "quality": "average", "casualty_hits": 3, "morale_hits": 1,
                                  "window_fights": [], "window_quality_lost": 0, "experience": 0,
                                  "window_experience": None},
              reason="fell back", actor=world.users["gm"])  # fmt: skip
    world.campaign.day, world.campaign.hour = 2, 0
    world.campaign.save()
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "24"})
    told = _lines_of(review, unit)
    assert told == [
        f"After day 2, 00:00: {unit.name} ({unit.force.name}): 3 Casualty hits not saved within "
        "24 hours die; falls from Average to Raw, then on day 3, 00:00, a day of R&R; rallies; "
        "carries no hits now."
    ]
    done = client.post(
        _url("clock-advance", world), {"hours": "24", "confirm": "yes", "reviewed_at": "24"}
    )
    summary = client.get(done["Location"])
    (told,) = _lines_of(summary, unit)
    assert told.endswith(
        "; fell from Average to Raw, then on day 3, 00:00, a day of R&R; rallied; carries no hits "
        "now."
    )


def test_the_dead_are_told_by_when_they_die_not_by_how_that_time_is_worded(
    client, world, monkeypatch
):
    """Whether a step happens as the clock passes its time is kept with the step: the time of
    the dead may be worded another way and still reads "then <time>, …", never "then on …"."""
    monkeypatch.setattr("campaign.pages.time_lines.dead_when", lambda at: "As day 2, 00:00 passes")
    unit = _wounded(world)
    unit_edit(unit=unit, changes={"status": "retreated"}, reason="fell back",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "3"})
    (told,) = _lines_of(review, unit)
    assert "a day of R&R; rallies, then as day 2, 00:00 passes, 1 Casualty hit not saved" in told


def test_the_dead_are_dated_as_the_clock_passes_their_window_not_at_the_hour_it_starts(
    client, world
):
    """The clock stands at the medics' last hour (the dashboard: "Unsaved, it dies when the
    clock moves on"): the review and the summary date the dead after that hour, as the clock
    passes it, not at it."""
    unit = _wounded(world)
    world.campaign.day, world.campaign.hour = 2, 0
    world.campaign.save()
    login(client, world, "gm")
    dashboard = client.get(_url("dashboard", world)).text
    assert "Unsaved, it dies when the clock moves on" in dashboard
    review = client.get(_url("clock-advance", world), {"hours": "3"})
    told = _lines_of(review, unit)
    assert told == [
        f"After day 2, 00:00: {unit.name} ({unit.force.name}): 1 Casualty hit not saved within "
        "24 hours dies; falls from Inexperienced to Green; carries no hits now."
    ]
    hidden = dict(review.context["hidden"])
    done = client.post(_url("clock-advance", world), {"hours": "3", "confirm": "yes", **hidden})
    summary = client.get(done["Location"])
    told = _lines_of(summary, unit)
    assert len(told) == 1
    assert told[0].startswith(
        f"After day 2, 00:00: {unit.name} ({unit.force.name}): 1 Casualty hit not saved within "
        "24 hours died ("
    )


def test_a_units_line_ends_where_the_table_of_changes_does(client, world):
    """A unit that rallies on day 3 and heals on for two more days: the line says what it
    carries as it rallies, then the days of R&R after and what it carries at the end, as the
    table does; never "now carries 3 Morale hits" beside a table that ends at 1."""
    unit_edit(
        unit=world.unit,
        changes={"status": "retreated", "quality": "average", "morale_hits": 5,
                 "casualty_hits": 0, "in_combat_zone": False},
        reason="set up", actor=world.users["gm"],
    )  # fmt: skip
    login(client, world, "gm")
    review = client.get(_url("advance", world), {"days": "4"})
    [change] = [c for c in review.context["changes"] if c.unit.pk == world.unit.pk]
    assert (change.before.morale_hits, change.after.morale_hits) == (5, 1)
    told = [line for line in review.context["lines"] if f"{world.unit.name} (" in line]
    assert told == [
        f"Day 3, 00:00: {world.unit.name} ({world.unit.force.name}): a day of R&R; rallies; now "
        "carries 3 Morale hits; then on each of day 4, 00:00 and day 5, "
        "00:00, a day of R&R: now carries 1 Morale hit."
    ]
    hidden = dict(review.context["hidden"])
    done = client.post(_url("advance", world), {"days": "4", "confirm": "yes", **hidden})
    summary = client.get(done["Location"])
    told = [line for line in summary.context["lines"] if f"{world.unit.name} (" in line]
    assert told == [
        f"Day 3, 00:00: {world.unit.name} ({world.unit.force.name}): a day of R&R; rallied; now "
        "carries 3 Morale hits; then on each of day 4, 00:00 and day 5, "
        "00:00, a day of R&R: now carries 1 Morale hit."
    ]


def test_the_gms_reason_for_moving_the_clock_never_reads_as_what_killed_the_dead(world):
    from campaign.models import HistoryEntry
    from campaign.services import calendar_advance

    unit = _wounded(world)
    calendar_advance(campaign=world.campaign, days=1, reason="patrols", actor=world.users["gm"])
    died = unit.history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert "1 Casualty hit not saved within 24 hours died (the clock moved on: patrols)" in (
        died.text
    )
    # A day of R&R takes the reason as it was.
    rested = unit.history.filter(kind=HistoryEntry.Kind.RECOVERY)
    assert all(entry.text.startswith("a day of R&R (patrols)") for entry in rested)


def _showed(review):
    """What a review of the clock showed, as its confirmation sends it back."""
    return dict(review.context["hidden"])["reviewed"]


def test_a_unit_changed_since_the_clock_was_reviewed_is_refused_by_name(client, world):
    """The review showed 1 Casualty hit dying; the GM corrected the unit to 2 meanwhile. The
    confirmation would kill 2: refused by the unit's name, writing nothing, and the review
    drawn again as the unit stands now. The same confirmation of an unchanged review moves on."""
    unit = _wounded(world)
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "3"})
    confirm = {"hours": "3", "confirm": "yes", "reviewed_at": "23", "reviewed": _showed(review)}
    unit_edit(unit=unit, changes={"casualty_hits": 2}, reason="miscounted",
              actor=world.users["gm"])  # fmt: skip
    entries = unit.history.count()
    refused = client.post(_url("clock-advance", world), confirm)
    assert refused.status_code == 302 and refused["Location"].endswith(
        _url("clock-advance", world) + "?hours=3&reason="
    )
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.day, campaign.hour) == (1, 23)  # the clock did not move
    assert unit.history.count() == entries
    assert Unit.objects.get(pk=unit.pk).casualty_hits == 2
    again = client.get(refused["Location"])
    assert (
        f"{unit.name} has changed since you reviewed this passing of time: review it again."
        in again.text
    )
    assert "2 Casualty hits not saved within 24 hours die" in again.text
    done = client.post(_url("clock-advance", world), {**confirm, "reviewed": _showed(again)})
    assert done.status_code == 302 and done["Location"].startswith(_url("advance-summary", world))
    assert Unit.objects.get(pk=unit.pk).casualty_hits == 0


def test_a_unit_changed_since_the_calendar_was_reviewed_is_refused_by_name(client, world):
    unit = _wounded(world)
    login(client, world, "gm")
    review = client.get(_url("advance", world), {"days": "1"})
    confirm = {"days": "1", "confirm": "yes", "reviewed_at": "23", "reviewed": _showed(review)}
    unit_edit(unit=unit, changes={"morale_hits": 2}, reason="shaken", actor=world.users["gm"])
    refused = client.post(_url("advance", world), confirm)
    assert refused.status_code == 302 and "days=1" in refused["Location"]
    assert Campaign.objects.get(pk=world.campaign.pk).day == 1  # the calendar did not move
    assert Unit.objects.get(pk=unit.pk).casualty_hits == 1
    again = client.get(refused["Location"])
    assert (
        f"{unit.name} has changed since you reviewed this passing of time: review it again."
        in again.text
    )
    done = client.post(_url("advance", world), {**confirm, "reviewed": _showed(again)})
    assert done.status_code == 302 and done["Location"].startswith(_url("advance-summary", world))
    assert Campaign.objects.get(pk=world.campaign.pk).day == 2


@pytest.mark.parametrize(
    ("route", "moved", "told"),
    [
        ("clock-advance", {"hours": "4"}, "The clock moved on 4 hours"),
        ("advance", {"days": "1"}, "The calendar moved on 1 day, to day 2."),
    ],
)
def test_an_order_given_since_the_time_was_reviewed_is_refused_by_name(
    client, world, route, moved, told
):
    """The review of the clock, or of a day on the calendar, said no Order is done by then; an
    Order given meanwhile would be. It changes no unit, yet the confirmation would see it done:
    refused, naming it, moving nothing; the review drawn again says it will be done, and the
    summary that it was."""
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(force=world.force, unit_type=card, name="Lookouts", quality="average",
                       specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    review = client.get(_url(route, world), moved)
    assert "No Order is done by then." in re.sub(r"\s+", " ", review.text)
    start = campaign_now(world.campaign)
    confirm = {**moved, "confirm": "yes", "reviewed_at": start, "reviewed": _showed(review)}
    order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=5, actor=gm)  # 4 h
    refused = client.post(_url(route, world), confirm)
    ((field, value),) = moved.items()
    assert refused.status_code == 302 and f"{field}={value}" in refused["Location"]
    assert campaign_now(Campaign.objects.get(pk=world.campaign.pk)) == start  # did not move
    again = re.sub(r"\s+", " ", client.get(refused["Location"]).text)
    assert (
        "An Order your review of this passing of time did not show would be done by then: "
        "Lookouts (Use Skill, given by Lt. Ash). Review it again." in again
    )
    assert "Orders done by then: Lookouts (Use Skill, given by Lt. Ash)." in again
    redrawn = client.get(refused["Location"])
    done = client.post(_url(route, world), {**confirm, "reviewed": _showed(redrawn)})
    assert done.status_code == 302 and done["Location"].startswith(_url("advance-summary", world))
    summary = re.sub(r"\s+", " ", client.get(done["Location"]).text)
    assert told in summary
    assert "Orders done: Lookouts (Use Skill, given by Lt. Ash)." in summary


def test_the_summary_says_the_dead_with_one_parenthesis_when_the_gm_gave_a_reason(client, world):
    """Casualty hits dying as the calendar moves on for a reason: the summary said "died (the
    clock moved on: patrols) (taken out at Crossroads; …)", two parentheses side by side; the
    fights whose hits they were and the GM's reason are now said in one."""
    unit = _wounded(world)
    login(client, world, "gm")
    review = client.get(_url("advance", world), {"days": "1", "reason": "patrols"})
    hidden = dict(review.context["hidden"])
    done = client.post(_url("advance", world), {"days": "1", "confirm": "yes", **hidden})
    summary = client.get(done["Location"])
    [told] = _lines_of(summary, unit)
    assert ") (" not in told
    assert "1 Casualty hit not saved within 24 hours died (taken out at Crossroads; " in told
    assert "; the clock moved on: patrols); " in told


def test_the_review_names_the_units_the_combat_zone_leaves_their_last_morale_hit(client, world):
    """Two days of R&R heal two Morale hits, but a unit still in the combat zone keeps its last:
    the review says which units keep theirs and why, so the GM is not left wondering why 2 → 1,
    and how to heal it (withdraw it first); a unit withdrawn to the rear is not named."""
    gm = world.users["gm"]
    for unit in Unit.objects.filter(force__campaign=world.campaign).exclude(status="destroyed"):
        calm = {"status": "ready", "morale_hits": 0, "casualty_hits": 0, "in_combat_zone": False}
        unit_edit(unit=unit, changes=calm, reason="set up", actor=gm)
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    shaken = unit_create(force=world.force, unit_type=card, name="Shaken", specialties=["infantry"])
    rested = unit_create(force=world.force, unit_type=card, name="Rested", specialties=["infantry"])
    unit_edit(unit=shaken, changes={"morale_hits": 2, "in_combat_zone": True}, reason="set up",
              actor=gm)  # fmt: skip
    unit_edit(unit=rested, changes={"morale_hits": 2}, reason="set up", actor=gm)
    login(client, world, "gm")
    page = client.get(_url("clock-advance", world), {"hours": "48"}).text
    assert (
        f"Still in the combat zone, Shaken ({world.force.name}) keeps its last Morale hit: under "
        "stress it heals only by R&amp;R out of the zone (withdraw it to the rear on its page "
        "first)." in page
    )
    assert "Rested (" not in page.split("Still in the combat zone", 1)[1].split("</p>", 1)[0]


def test_dead_a_step_lost_to_suppression_already_counted_are_said_to_cost_no_step_on_every_page(
    client, world
):
    """A Green unit loses a point of Skill to suppression (Combined Arms: a step, to Raw) and
    takes a Casualty hit in one battle; the medics save nothing. Its dead hit is measured
    against the steps it had before that battle's suppression, which already took the step
    the dead would cost: it stays Raw, and every page that tells the dead says why, naming the
    battle as the unit's entry of it keeps it."""
    gm = world.users["gm"]
    card = UnitType.objects.get(name="Mech")
    unit = unit_create(force=world.force, unit_type=card, name="Sappers", quality="green",
                       specialties=["mechanized"])  # fmt: skip
    world.campaign.refresh_from_db()
    start = campaign_now(world.campaign)
    # Seed 1: the blow's d6 a 1 (one BUCS hit of a 3-Hit card), its split a 6: one Casualty hit.
    outcome_apply(campaign=world.campaign, outcomes={unit.pk: UnitOutcome(1, 1, "demoralised")},
                  reason="Battle of the Crossroads", seed=1, actor=gm)  # fmt: skip
    unit.refresh_from_db()
    assert (unit.quality, unit.casualty_hits) == (Quality.RAW, 1)
    why = (
        "it costs no further step: the step lost to suppression at Battle of the Crossroads "
        "already counted those men"
    )
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "25"})
    (told,) = [line for line in review.context["lines"] if "Sappers (" in line]
    assert f"1 Casualty hit not saved within 24 hours dies; {why}; " in told
    done = client.post(
        _url("clock-advance", world), {"hours": "25", "confirm": "yes", "reviewed_at": start}
    )
    unit.refresh_from_db()
    assert (unit.quality, unit.casualty_hits) == (Quality.RAW, 0)
    summary = client.get(done["Location"])
    (told,) = [line for line in summary.context["lines"] if "Sappers (" in line]
    assert "1 Casualty hit not saved within 24 hours died (broken at Battle of the " in told
    assert f"medics saved 0); {why}" in told
    entry = unit.history.get(kind="casualties")
    assert f"medics saved 0; 1 Casualty hit not saved within 24 hours died; {why}" in entry.text
    page = client.get(_url("unit", world, unit.pk)).text
    assert f"medics saved 0); {why}" in page
    assert f"medics saved 0); {why}" in client.get(_url("timeline", world)).text
    login(client, world, "player")  # a first visit: "Lately"
    assert f"medics saved 0); {why}" in client.get(_url("dashboard", world)).text
    assert any(why in line for line in notice_lines(world.campaign, [entry]))


def test_dead_a_window_kept_before_fights_kept_their_names_spared_are_said_of_the_battle(
    client, world
):
    """As above, but the unit's window was kept before its fights kept their names (a stored
    row without one): the pages say why in the words they said then, naming no battle."""
    card = UnitType.objects.get(name="Mech")
    unit = unit_create(force=world.force, unit_type=card, name="Sappers", quality="green",
                       specialties=["mechanized"])  # fmt: skip
    world.campaign.refresh_from_db()
    start = campaign_now(world.campaign)
    outcome_apply(campaign=world.campaign, outcomes={unit.pk: UnitOutcome(1, 1, "demoralised")},
                  reason="Battle of the Crossroads", seed=1, actor=world.users["gm"])  # fmt: skip
    unit.refresh_from_db()
    (fight,) = unit.window_fights
    assert fight.pop("name") == "Battle of the Crossroads"
    Unit.objects.filter(pk=unit.pk).update(window_fights=[fight])
    why = (
        "it costs no further step: the step lost to suppression in the battle that dealt it "
        "already counted those men"
    )
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "25"})
    (told,) = [line for line in review.context["lines"] if "Sappers (" in line]
    assert f"1 Casualty hit not saved within 24 hours dies; {why}; " in told
    client.post(
        _url("clock-advance", world), {"hours": "25", "confirm": "yes", "reviewed_at": start}
    )
    unit.refresh_from_db()
    assert (unit.quality, unit.casualty_hits) == (Quality.RAW, 0)
    entry = unit.history.get(kind="casualties")
    assert f"medics saved 0; 1 Casualty hit not saved within 24 hours died; {why}" in entry.text
    assert f"medics saved 0); {why}" in client.get(_url("unit", world, unit.pk)).text


def test_a_unit_its_dead_destroy_is_told_no_experience_it_has_left(client, world):
    # "Blue Rifles: 5 Casualty hits not saved within 24 hours die; is destroyed. It has 0 (1
    # before) of the 4 experience points it needs to rise to Experienced.": a destroyed unit
    # rises to nothing, and the GM read the number as something still to count.
    unit_edit(
        unit=world.unit,
        changes={"status": "retreated", "in_combat_zone": False, "quality": "average",
                 "experience": 1, "morale_hits": 0, "casualty_hits": 4, "window_from": 0,
                 "last_battle_day": 1},
        reason="set up", actor=world.users["gm"],
    )  # fmt: skip
    world.campaign.day, world.campaign.hour = 1, 23
    world.campaign.save()
    unit = Unit.objects.get(pk=world.unit.pk)
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "3"})
    (line,) = _lines_of(review, unit)
    assert "4 Casualty hits not saved within 24 hours die; is destroyed" in line
    assert "experience point" not in line
    # Its table row gives its experience as a dash, not "1 → 0", as the rest of its page does.
    experience = '<td data-label="Experience" class="unchanged"><span class="small">—</span></td>'
    assert experience in review.text
    client.post(_url("clock-advance", world), {"hours": "3", "confirm": "yes", "reviewed_at": 23})
    unit = Unit.objects.get(pk=unit.pk)
    assert unit.status == "destroyed"
    page = client.get(_url("unit", world, unit.pk)).text
    # The story's list alone: the correction form below it says why the unit was destroyed too.
    story = page.split('id="story-h"', 1)[1].split("</ol>", 1)[0]
    (told,) = [item for item in story.split("<li>") if "hours died (" in item]
    told = told.split("</li>", 1)[0]
    assert "was destroyed" in told and "experience point" not in told


def test_the_review_tells_what_is_ahead_in_the_present_and_the_summary_what_was_in_the_past(
    client, world
):
    """The review before the clock moves on says what will happen, the summary after it what
    did: "die; is destroyed", never "die; was destroyed", and a rally and a fall alike."""
    doomed = _wounded(world)
    unit_edit(unit=doomed, changes={"status": "retreated", "quality": "average",
                                    "casualty_hits": 4},
              reason="fell back", actor=world.users["gm"])  # fmt: skip
    rallying = Unit.objects.filter(force=doomed.force).exclude(pk=doomed.pk).first()
    unit_edit(unit=rallying, changes={"status": "retreated", "morale_hits": 0, "casualty_hits": 1,
                                      "window_from": 0, "last_battle_day": 1},
              reason="fell back", actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    review = client.get(_url("clock-advance", world), {"hours": "3"})
    (destroyed,) = _lines_of(review, doomed)
    assert "4 Casualty hits not saved within 24 hours die; is destroyed" in destroyed
    (rallied,) = _lines_of(review, rallying)
    assert "a day of R&R; rallies, then after day 2, 00:00, 1 Casualty hit" in rallied
    assert "hours dies; falls from Average to Inexperienced;" in rallied
    for past in ("was destroyed", "rallied", "fell from"):
        assert past not in destroyed + rallied
    hidden = dict(review.context["hidden"])
    done = client.post(_url("clock-advance", world), {"hours": "3", "confirm": "yes", **hidden})
    summary = client.get(done["Location"])
    (destroyed,) = _lines_of(summary, doomed)
    assert "4 Casualty hits not saved within 24 hours died (" in destroyed
    assert "; was destroyed" in destroyed
    (rallied,) = _lines_of(summary, rallying)
    assert "a day of R&R; rallied, then after day 2, 00:00, 1 Casualty hit" in rallied
    assert "); fell from Average to Inexperienced;" in rallied
    for ahead in ("is destroyed", "rallies", "falls from"):
        assert ahead not in destroyed + rallied
