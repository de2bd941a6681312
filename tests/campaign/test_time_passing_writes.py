"""The clock passing over a whole campaign writes every unit's change together, in a few
queries however many units it changes, and writes exactly what one row at a time would."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, Character, HistoryEntry, Order, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import clock_time
from campaign.rules.recovery import CASUALTIES, time_passes
from campaign.rules.state import Status
from campaign.selectors.roster import campaign_now
from campaign.services import (
    campaign_create,
    force_create,
    leader_attach,
    outcome_apply,
    unit_create,
    unit_edit,
)
from campaign.services._record import unit_change
from campaign.services.characters import character_create
from campaign.services.orders import clock_advance, clock_move, order_give
from campaign.services.recovery import casualties_died_text, closing_details
from units.models import Ruleset

pytestmark = pytest.mark.django_db
Kind = HistoryEntry.Kind


def scene(cast, cards, name: str, shaken: int = 0) -> Campaign:
    """Day 1, 23:00, just after a fight: a mech led by a campaign character, with Casualty
    hits whose window closes tomorrow at 23:00; a squad their dead will destroy, its Order
    still under way; a unit shaken, one retreated in poor order; and ``shaken`` more units
    with a Morale hit each."""
    campaign = campaign_create(name=name, gm=cast.gm, ruleset=Ruleset.COMBINED_ARMS)
    force = force_create(campaign=campaign, owner=cast.gm, name="Red Company")

    def make(unit_name: str, card: str = "Rifle Squad", **options) -> Unit:
        options.setdefault("specialties", ("infantry",))
        return unit_create(force=force, unit_type=cards[card], name=unit_name, **options)

    atlas = make("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    vance = character_create(campaign=campaign, name="Sgt Vance", hit_points=12)
    leader_attach(unit=atlas, character=vance)
    doomed = make("Doomed", quality="inexperienced")
    order_give(giver=vance, unit=doomed, kind="use_skill", listed_hours=40)
    nerves = make("Nerves", quality="elite")
    routed = make("Routed", quality="experienced")
    for number in range(shaken):
        make(f"Reserve {number + 1}")
    clock_advance(campaign=campaign, hours=23)
    campaign.refresh_from_db()
    outcome_apply(
        campaign=campaign,
        outcomes={atlas.pk: UnitOutcome(0, 0), doomed.pk: UnitOutcome(0, 0),
                  routed.pk: UnitOutcome(0, 2, "demoralised")},
        reason="Hill 12",
    )  # fmt: skip
    unit_edit(unit=atlas, changes={"morale_hits": 2, "casualty_hits": 2}, reason="Hill 12 count")
    unit_edit(unit=doomed, changes={"casualty_hits": 3}, reason="Hill 12 count")
    unit_edit(unit=nerves, changes={"morale_hits": 3}, reason="shelled in reserve")
    Unit.objects.filter(force=force, name__startswith="Reserve").update(morale_hits=1)
    return campaign


def one_row_at_a_time(campaign: Campaign, hours: int, reason: str) -> None:
    """The clock's passing written as `unit_change` writes a single unit's change: what the
    campaign's units must come out as."""
    units = Unit.objects.filter(force__campaign=campaign).exclude(status=Status.DESTROYED)
    start = campaign_now(campaign)
    passed = [
        (unit, passing)
        for unit in units.select_related("leader").order_by("pk")
        for passing in time_passes(unit.state, start, start + hours)
    ]
    passed.sort(key=lambda item: item[1].at)
    for unit, passing in passed:
        if passing.kind == CASUALTIES:
            suffix = f" (the clock moved on: {reason})"
            why, kind = casualties_died_text(unit, passing.dead, suffix), Kind.CASUALTIES
            details = closing_details(unit)
        else:
            why, kind, details = f"a day of R&R ({reason})", Kind.RECOVERY, {}
        day = clock_time(passing.at)[0]
        unit_change(unit=unit, state=passing.state, kind=kind, why=why, day=day, hour=passing.at,
                    details=details)  # fmt: skip


def written(campaign: Campaign) -> dict[str, object]:
    """Everything of the campaign's a passing of the clock writes, by name, in order."""
    units = Unit.objects.filter(force__campaign=campaign).select_related("leader").order_by("pk")
    entries = HistoryEntry.objects.filter(unit__force__campaign=campaign).order_by("pk")
    return {
        "units": [(u.name, u.state.to_json()) for u in units],
        "characters": list(
            Character.objects.filter(campaign=campaign).values_list("name", "hit_points", "alive")
        ),
        "entries": [
            # A leader's entry names its character by id, which differs between campaigns.
            (
                e.unit.name,
                e.day,
                e.kind,
                e.text,
                e.before,
                e.after,
                e.details.keys() - {"character"},
            )
            for e in entries.select_related("unit")
        ],
        "orders": list(
            Order.objects.filter(campaign=campaign)
            .order_by("pk")
            .values_list("unit__name", "ended_at", "ended_as")
        ),
    }


def test_the_clock_writes_what_each_units_change_one_at_a_time_would(cast, cards):
    moved = scene(cast, cards, "Op. Moved", shaken=3)
    by_hand = scene(cast, cards, "Op. By Hand", shaken=3)
    versions = dict(Unit.objects.filter(force__campaign=moved).values_list("name", "version"))
    # From day 1, 23:00 to day 3, 01:00: two days of R&R, the windows closing between them
    # (after the first day's R&R of the same units), the squad destroyed by its dead.
    _, entries = clock_move(campaign=moved, hours=26, reason="regrouping")
    one_row_at_a_time(by_hand, 26, "regrouping")
    done = written(moved)
    assert done == written(by_hand)
    kinds = [(name, kind) for name, _, kind, *_ in done["entries"][-len(entries) :]]
    assert ("Atlas", Kind.RECOVERY) in kinds and ("Atlas", Kind.CASUALTIES) in kinds
    assert ("Doomed", Kind.CASUALTIES) in kinds
    assert dict(done["units"])["Doomed"]["status"] == Status.DESTROYED
    # The entries returned are the ones stored, in order; every unit changed has a new version.
    assert [e.pk for e in entries] == sorted(e.pk for e in entries)
    stored = HistoryEntry.objects.filter(pk__in=[e.pk for e in entries]).order_by("pk")
    assert [e.text for e in entries] == [e.text for e in stored]
    now = dict(Unit.objects.filter(force__campaign=moved).values_list("name", "version"))
    assert all(now[name] != versions[name] for name in {e.unit.name for e in entries})


def test_a_day_of_rr_costs_the_same_queries_for_a_small_and_a_big_campaign(cast, cards):
    """The R&R of 6 units and of 80 take the same handful of queries (13; one row at a time
    took 22 and 170). Past 80 or so the tests' SQLite splits the bulk writes into statements
    of at most 999 values each; Postgres writes them in one."""
    counts = []
    for name, shaken in (("Op. Small", 2), ("Op. Big", 76)):
        campaign = scene(cast, cards, name, shaken=shaken)
        with CaptureQueriesContext(connection) as queries:
            _, entries = clock_move(campaign=campaign, hours=2, reason="")
        assert len(entries) >= shaken + 2  # a day of R&R for each shaken unit at least
        counts.append(len(queries))
    assert counts[0] == counts[1]
