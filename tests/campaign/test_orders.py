"""Orders and the campaign clock in hours: who gives them, how long they take, when they are
done, and a clock that keeps the calendar's days (R&R) working."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaign.models import Character, Order
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import (
    ORDER_TABLE,
    OrderKind,
    clock_hour,
    clock_text,
    order_hours,
    order_quality,
    outside_specialties_text,
)
from campaign.selectors.reviews import advance_passings, orders_ahead, undo_offered
from campaign.services import (
    calendar_advance,
    entry_undo,
    outcome_apply,
    outcome_revert,
    unit_edit,
)
from campaign.services.characters import character_create
from campaign.services.orders import (
    CALLED_OFF,
    DONE,
    ENDED,
    LISTED_HOURS_MAX,
    REPLACED,
    UNDER_WAY,
    campaign_now,
    clock_advance,
    clock_move,
    order_call_off,
    order_give,
    order_state_text,
    order_status,
    order_working,
    orders_under_way,
    replaced_when,
)
from campaign.services.recovery import time_reviewed
from units.bucs import Equipment, Quality, Specialty

Q = Quality


def test_it_lists_the_orders_and_their_times():
    table = {k.value: (r.listed_hours, r.specialty, r.chosen) for k, r in ORDER_TABLE.items()}
    assert table == {
        "attack": (2, None, True),
        "use_skill": (2, None, True),
        "establish_beachhead": (1, Specialty.AMPHIBIOUS, False),
    }


def test_an_order_takes_its_listed_time_less_half_the_quality_step_at_least_an_hour():
    assert [order_hours(6, q) for q in Q] == [6, 6, 5, 5, 4, 4, 3]
    assert order_hours(2, Q.LEGENDARY) == 1 and order_hours(1, Q.RAW) == 1
    assert order_hours(6, Q.AVERAGE, hours_saved=1) == 4  # a Strategist's Order
    with pytest.raises(ValueError):
        order_hours(0, Q.AVERAGE)


def test_an_order_outside_the_units_specialties_is_performed_as_raw():
    beach = OrderKind.ESTABLISH_BEACHHEAD
    assert order_quality(beach, Q.ELITE, (Specialty.INFANTRY,)) == Q.RAW
    assert order_quality(beach, Q.ELITE, (Specialty.AMPHIBIOUS,)) == Q.ELITE
    assert order_quality(OrderKind.ATTACK, Q.ELITE, ()) == Q.ELITE


def test_an_order_outside_its_specialties_names_poor_kit_only_where_the_kit_changes():
    """A unit pressed into a task outside its specialties "counts as Poor" (bucs.md,
    "Equipment"): the sentence names the Poor kit for a unit whose own kit is better, and not
    for one whose kit is Poor already; an Order within its specialties says nothing."""
    beach, infantry = OrderKind.ESTABLISH_BEACHHEAD, (Specialty.INFANTRY,)
    assert outside_specialties_text(beach, Equipment.GOOD, infantry) == (
        "Establish Beachhead is outside its specialties: it performs as Raw, with Poor kit."
    )
    assert outside_specialties_text(beach, Equipment.POOR, infantry) == (
        "Establish Beachhead is outside its specialties: it performs as Raw."
    )
    assert outside_specialties_text(beach, Equipment.GOOD, (Specialty.AMPHIBIOUS,)) == ""


def test_the_clock_counts_hours_within_days():
    assert clock_hour(1, 0) == 0 and clock_hour(3, 5) == 53
    assert clock_text(53) == "day 3, 05:00"


@pytest.mark.django_db
def test_only_a_character_gives_an_order_and_it_finishes_on_the_clock(campaign, make_unit):
    squad = make_unit(quality="elite")
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    with pytest.raises(ValidationError) as error:
        order_give(giver=None, unit=squad, kind="attack")
    assert "only a character gives an Order" in str(error.value)
    order = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8)
    assert (order.hours, order.given_at, order.finishes_at) == (6, 0, 6)
    assert order_status(order, campaign_now(campaign)) == UNDER_WAY
    assert clock_advance(campaign=campaign, hours=5) == []
    campaign.refresh_from_db()
    assert (campaign.day, campaign.hour) == (1, 5)
    (done,) = clock_advance(campaign=campaign, hours=1)
    assert done == order and order_status(order, 6) == DONE


@pytest.mark.django_db
def test_a_new_order_replaces_the_one_under_way(campaign, make_unit):
    squad = make_unit()
    sage = character_create(campaign=campaign, name="Sage", hit_points=10, feats=["strategist"])
    first = order_give(giver=sage, unit=squad, kind="attack")
    assert first.hours == 1  # 2 − 3 // 2 − 1 (a Strategist's Order), at least 1
    second = order_give(giver=sage, unit=squad, kind="use_skill")
    first.refresh_from_db()
    assert order_status(first, 0) == REPLACED and order_status(second, 0) == UNDER_WAY


@pytest.mark.django_db
def test_an_orders_state_says_when_it_was_done_or_replaced_never_done_when_replaced(
    campaign, make_unit
):
    squad, scouts = make_unit(), make_unit("Scouts")
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    first = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=4)  # until 03:00
    clock_advance(campaign=campaign, hours=2)
    second = order_give(giver=holt, unit=squad, kind="attack")  # replaces it at 02:00
    scouting = order_give(giver=holt, unit=scouts, kind="attack")
    clock_advance(campaign=campaign, hours=3)
    third = order_give(giver=holt, unit=squad, kind="attack")  # the second was done: kept
    assert replaced_when(Order.objects.all()) == {first.pk: 2}
    first.refresh_from_db()
    campaign.refresh_from_db()
    now = campaign_now(campaign)
    assert now == 5
    assert order_state_text(first, now, 2) == "Replaced at day 1, 02:00"
    assert order_state_text(first, now) == "Replaced"  # replaced by none it knows of
    assert order_state_text(second, now) == "Done at day 1, 03:00"
    assert order_state_text(scouting, now) == "Done at day 1, 03:00"
    assert order_state_text(third, now) == "Under way, done at day 1, 06:00"


@pytest.mark.django_db
def test_bad_orders_are_refused_and_nothing_is_written(campaign, make_unit, cast):
    from campaign.services import campaign_create

    squad = make_unit()
    other = campaign_create(name="Elsewhere", gm=cast.gm, ruleset="combined_arms")
    stranger = character_create(campaign=other, name="Stranger", hit_points=10)
    with pytest.raises(ValidationError) as error:
        order_give(giver=stranger, unit=squad, kind="dance", listed_hours=3)
    assert set(error.value.message_dict) == {"giver", "kind"}
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    with pytest.raises(ValidationError, match="leave the hours empty, or choose Use Skill"):
        order_give(giver=holt, unit=squad, kind="attack", listed_hours=3)
    # A unit out of action takes no Order, as it goes into no battle nor check.
    unit_edit(unit=squad, changes={"status": "retreated"}, reason="broken", actor=cast.gm)
    with pytest.raises(ValidationError) as error:
        order_give(giver=holt, unit=squad, kind="attack", actor=cast.gm)
    assert error.value.message_dict == {
        "unit": [f"{squad.name} cannot be given an Order: it is retreated in poor order"]
    }
    assert not Order.objects.exists()


@pytest.mark.django_db
def test_passing_midnight_is_a_day_of_the_calendar_and_r_and_r_still_works(campaign, make_unit):
    squad = make_unit()
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shaken")
    clock_advance(campaign=campaign, hours=20)
    squad.refresh_from_db()
    assert squad.morale_hits == 2  # no midnight yet
    clock_advance(campaign=campaign, hours=30)
    campaign.refresh_from_db()
    squad.refresh_from_db()
    assert (campaign.day, campaign.hour) == (3, 2)
    assert squad.morale_hits == 0  # two days of R&R
    calendar_advance(campaign=campaign, days=1)
    campaign.refresh_from_db()
    assert (campaign.day, campaign.hour) == (4, 2)  # the calendar keeps the hour
    with pytest.raises(ValidationError):
        clock_advance(campaign=campaign, hours=0)


@pytest.mark.django_db
def test_a_review_confirmed_twice_moves_the_clock_once(campaign, make_unit):
    """Two tabs, or a double click, confirming one review: the second finds the clock moved on
    from where the review saw it, and is refused with the time it is now, writing nothing."""
    squad = make_unit()
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shaken")
    campaign.hour = 23
    campaign.save()
    reviewed = campaign_now(campaign)
    clock_move(campaign=campaign, hours=4, reviewed_at=reviewed)
    campaign.refresh_from_db()
    squad.refresh_from_db()
    assert (campaign.day, campaign.hour, squad.morale_hits) == (2, 3, 1)
    entries = squad.history.count()
    said = "The clock has moved since you reviewed this (it is now day 2, 03:00): review again."
    with pytest.raises(ValidationError) as refused:
        clock_move(campaign=campaign, hours=4, reviewed_at=reviewed)
    assert refused.value.message_dict == {"reviewed_at": [said]}
    with pytest.raises(ValidationError) as refused:
        calendar_advance(campaign=campaign, days=1, reviewed_at=reviewed)
    assert refused.value.message_dict == {"reviewed_at": [said]}
    campaign.refresh_from_db()
    squad.refresh_from_db()
    assert (campaign.day, campaign.hour, squad.morale_hits) == (2, 3, 1)  # nothing written
    assert squad.history.count() == entries
    # Reviewed again, from where the clock is now: it moves.
    calendar_advance(campaign=campaign, days=1, reviewed_at=campaign_now(campaign))
    campaign.refresh_from_db()
    assert (campaign.day, campaign.hour) == (3, 3)


def _time_review(campaign, hours):
    """What the review of the next ``hours`` sends back, the clock's or the calendar's alike
    (`views.clock.time_review`)."""
    campaign.refresh_from_db()
    passings = advance_passings(campaign=campaign, hours=hours)
    start = campaign_now(campaign)
    return time_reviewed(passings, orders_ahead(campaign, passings, start, start + hours))


def _move_clock(campaign, reviewed_at, reviewed):
    return clock_move(campaign=campaign, hours=4, reviewed_at=reviewed_at, reviewed=reviewed)


def _move_calendar(campaign, reviewed_at, reviewed):
    return calendar_advance(campaign=campaign, days=1, reviewed_at=reviewed_at, reviewed=reviewed)


@pytest.mark.django_db
@pytest.mark.parametrize(("move", "hours"), [(_move_clock, 4), (_move_calendar, 24)])
def test_an_order_given_or_called_off_since_the_review_of_time_is_refused_by_name(
    campaign, make_unit, move, hours
):
    """The review of the clock, or of a day on the calendar, says which Orders the time will
    see done. An Order given since that would be done by then, or one the review showed that
    is called off since, changes no unit, yet the confirmation would see other Orders done than
    the GM saw: refused, naming the Order, writing nothing; drawn again, the review moves the
    time and sees the Order done."""
    squad = make_unit()
    start = campaign_now(campaign)
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    reviewed = _time_review(campaign, hours)
    order = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=5)  # 4 h
    with pytest.raises(ValidationError) as refused:
        move(campaign, start, reviewed)
    assert refused.value.message_dict == {
        "reviewed": [
            "An Order your review of this passing of time did not show would be done by then: "
            "1st Squad (Use Skill, given by Holt). Review it again."
        ]
    }
    campaign.refresh_from_db()
    assert (
        campaign_now(campaign) == start and order_status(order, start) == UNDER_WAY
    )  # nothing moved

    reviewed = _time_review(campaign, hours)
    order_call_off(order=order)
    with pytest.raises(ValidationError) as refused:
        move(campaign, start, reviewed)
    assert refused.value.message_dict == {
        "reviewed": [
            "The Order your review of this passing of time showed 1st Squad finishing is no "
            "longer under way: review it again."
        ]
    }
    campaign.refresh_from_db()
    assert campaign_now(campaign) == start

    order = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=5)
    move(campaign, start, _time_review(campaign, hours))
    campaign.refresh_from_db()
    assert campaign_now(campaign) == start + hours
    assert order_status(order, campaign_now(campaign)) == DONE


@pytest.mark.django_db
def test_the_order_under_way_at_an_earlier_hour_is_found_though_replaced_or_done_since(
    campaign, make_unit
):
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    first = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=4)  # until 03:00
    clock_advance(campaign=campaign, hours=2)
    second = order_give(giver=holt, unit=squad, kind="attack")  # replaces it at 02:00
    clock_advance(campaign=campaign, hours=5)  # 07:00: the second was done at 03:00
    campaign.refresh_from_db()
    at = {hour: orders_under_way(campaign, [squad], at=hour).get(squad.pk) for hour in range(5)}
    assert at == {0: first, 1: first, 2: second, 3: None, 4: None}
    assert orders_under_way(campaign, [squad]) == {}  # now


@pytest.mark.django_db
def test_an_order_that_makes_no_sense_any_more_is_called_off_by_the_gm(campaign, make_unit, cast):
    """ "An Order lasts until done, replaced, or senseless": the GM judges it senseless and calls
    it off. From then it is no Order of its unit's; before then it was under way."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    order = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8)  # until 06:00
    clock_advance(campaign=campaign, hours=2)
    with pytest.raises(PermissionDenied):
        order_call_off(order=order, actor=cast.player)
    order.refresh_from_db()
    assert order.called_off_at is None
    order_call_off(order=order, actor=cast.gm)
    order.refresh_from_db()
    campaign.refresh_from_db()
    assert order.called_off_at == 2 and not order.replaced
    assert order_status(order, 2) == CALLED_OFF and order_status(order, 1) == UNDER_WAY
    assert order_state_text(order, 2) == "Called off at day 1, 02:00"
    at = {hour: orders_under_way(campaign, [squad], at=hour).get(squad.pk) for hour in range(4)}
    assert at == {0: order, 1: order, 2: None, 3: None}
    # Never done, and no later Order replaces it.
    assert clock_advance(campaign=campaign, hours=6) == []
    later = order_give(giver=holt, unit=squad, kind="attack")
    order.refresh_from_db()
    assert not order.replaced and order_status(order, campaign_now(campaign)) == CALLED_OFF
    assert order_status(later, campaign_now(campaign)) == UNDER_WAY


@pytest.mark.django_db
def test_only_an_order_under_way_is_called_off(campaign, make_unit):
    squad, scouts = make_unit(), make_unit("Scouts")
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    first = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8)
    order_give(giver=holt, unit=squad, kind="attack")  # replaces the first
    scouting = order_give(giver=holt, unit=scouts, kind="attack")  # done at 01:00
    clock_advance(campaign=campaign, hours=1)
    refusals = {}
    for order in (first, scouting):
        with pytest.raises(ValidationError) as refused:
            order_call_off(order=order)
        refusals[order.pk] = refused.value.message_dict
    tail = "already: only an Order under way is called off."
    assert refusals == {
        first.pk: {"order": [f"The Order to Use Skill given to 1st Squad is replaced {tail}"]},
        scouting.pk: {"order": [f"The Order to Attack given to Scouts is done {tail}"]},
    }
    assert not Order.objects.filter(called_off_at__isnull=False).exists()


@pytest.mark.django_db
def test_an_order_ends_with_its_unit_destroyed_and_goes_on_if_that_is_undone(
    campaign, make_unit, cast
):
    """A destroyed unit's Order is senseless by itself: nobody is left to carry it out. It
    ends at the hour the unit is destroyed, is never done after, and goes on if the
    destruction is undone; an Order done before the unit was destroyed stays done."""
    squad, scouts = make_unit(), make_unit("Scouts")
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    order = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8)  # until 06:00
    scouting = order_give(giver=holt, unit=scouts, kind="attack")  # done at 01:00
    clock_advance(campaign=campaign, hours=2)
    shelled = unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled",
                        actor=cast.gm)  # fmt: skip
    unit_edit(unit=scouts, changes={"status": "destroyed"}, reason="ambushed", actor=cast.gm)
    order.refresh_from_db()
    scouting.refresh_from_db()
    assert (order.ended_at, scouting.ended_at) == (2, None)
    assert order_status(order, 2) == ENDED and order_status(order, 1) == UNDER_WAY
    assert order_state_text(order, 2) == "Ended at day 1, 02:00: 1st Squad was destroyed"
    assert order_status(scouting, 2) == DONE
    at = {hour: orders_under_way(campaign, [squad], at=hour).get(squad.pk) for hour in range(4)}
    assert at == {0: order, 1: order, 2: None, 3: None}
    with pytest.raises(ValidationError, match="is ended with its unit already"):
        order_call_off(order=order)
    # The GM undoes the destruction: the Order goes on, and is done when its time comes.
    outcome_revert(entries=[shelled], reason="the wrong squad", actor=cast.gm)
    order.refresh_from_db()
    assert order.ended_at is None and order_status(order, 2) == UNDER_WAY
    assert orders_under_way(campaign, [squad]) == {squad.pk: order}
    # Destroyed again, its time passes and it is not told as done.
    unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled", actor=cast.gm)
    assert clock_advance(campaign=campaign, hours=6) == []
    order.refresh_from_db()
    campaign.refresh_from_db()
    assert order_status(order, campaign_now(campaign)) == ENDED


@pytest.mark.django_db
def test_a_unit_broken_by_its_hits_ends_its_order_then_not_when_they_die(campaign, make_unit):
    """Casualty hits that break a unit take it out of action at once (retreated in poor
    order): its Order under way ends then, is never done, and stays ended when the hits the
    medics did not save die with the unit as the clock moves on."""
    early, late = make_unit("Early"), make_unit("Late")
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    clock_advance(campaign=campaign, hours=20)
    early_order = order_give(giver=holt, unit=early, kind="use_skill", listed_hours=3)  # 22:00
    late_order = order_give(giver=holt, unit=late, kind="use_skill", listed_hours=30)
    for unit in (early, late):  # broken by four Casualty hits, which die at day 2, 20:00
        unit_edit(unit=unit, changes={"casualty_hits": 4}, reason="shelled")
    assert clock_advance(campaign=campaign, hours=30) == []
    for order in (early_order, late_order):
        order.refresh_from_db()
        assert order.unit.status == "destroyed" and order.ended_at == 20
    assert (
        order_state_text(early_order, 50) == "Ended at day 1, 20:00: Early retreated in poor order"
    )


@pytest.mark.django_db
def test_a_battle_entered_late_ends_the_orders_of_the_unit_it_destroyed_at_that_hour(
    campaign, make_unit
):
    """Fought on day 1 at 12:00 and entered on day 3: the battle broke the unit at 12:00 on
    day 1 (it retreated in poor order, and its Casualty hits, found too late, destroyed it), so
    each Order given it since, when it was out of action already, ended as it was given, though
    the clock had told the first done since."""
    doomed = make_unit("Doomed", quality="green")
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    clock_advance(campaign=campaign, hours=30)
    then = order_give(giver=holt, unit=doomed, kind="use_skill", listed_hours=11)  # until 41
    clock_advance(campaign=campaign, hours=20)
    later = order_give(giver=holt, unit=doomed, kind="use_skill", listed_hours=11)  # 50 to 61
    clock_advance(campaign=campaign, hours=8)  # day 3, 10:00
    outcome_apply(campaign=campaign, outcomes={doomed.pk: UnitOutcome(1, 0, "destroyed")},
                  day=1, hour=12, reason="Old Ford", seed=2)  # fmt: skip
    doomed.refresh_from_db()
    assert doomed.status == "destroyed"  # seed 2: two Casualty hits, a Green unit's end
    then.refresh_from_db()
    later.refresh_from_db()
    # Out of action since the battle, before either was given: each ended as it was given.
    assert (then.ended_at, later.ended_at) == (30, 50)
    assert order_state_text(then, 58) == "Ended at day 2, 06:00: Doomed retreated in poor order"
    assert order_state_text(later, 58) == "Ended at day 3, 02:00: Doomed retreated in poor order"


# -- a player's Orders -------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_player_gives_their_own_units_orders_with_their_own_character(campaign, make_unit, cast):
    squad = make_unit()  # Red Company, the player's
    holt = character_create(campaign=campaign, name="Lt. Holt", hit_points=10, player=cast.player)
    order = order_give(giver=holt, unit=squad, kind="attack", actor=cast.player)
    assert (order.giver, order.unit, order.actor) == (holt, squad, cast.player)
    assert order_status(order, campaign_now(campaign)) == UNDER_WAY
    # Their own character's Order they replace, as the GM would.
    again = order_give(giver=holt, unit=squad, kind="use_skill", actor=cast.player)
    order.refresh_from_db()
    assert order_status(order, 0) == REPLACED and order_status(again, 0) == UNDER_WAY


@pytest.mark.django_db
def test_a_player_gives_no_order_to_another_players_unit_nor_as_the_spectator(
    campaign, make_unit, enemy, cast
):
    from campaign.services import membership_set

    theirs = make_unit("Blue 1", into=enemy)  # the rival's
    holt = character_create(campaign=campaign, name="Lt. Holt", hit_points=10, player=cast.player)
    with pytest.raises(PermissionDenied, match="units of their own forces only"):
        order_give(giver=holt, unit=theirs, kind="attack", actor=cast.player)
    membership_set(campaign=campaign, user=cast.outsider, role="spectator")
    with pytest.raises(PermissionDenied, match="only the GM, a co-GM or a player"):
        order_give(giver=holt, unit=theirs, kind="attack", actor=cast.outsider)
    assert not Order.objects.exists()


@pytest.mark.django_db
def test_a_player_gives_orders_only_with_a_character_of_their_own(campaign, make_unit, cast):
    squad = make_unit()
    for name, player in (("Sgt. Ferris", None), ("Maj. Greaves", cast.rival)):
        someone = character_create(campaign=campaign, name=name, hit_points=10, player=player)
        with pytest.raises(ValidationError) as error:
            order_give(giver=someone, unit=squad, kind="attack", actor=cast.player)
        assert error.value.message_dict == {
            "giver": [f"{name} is not your character: you give Orders with your own"]
        }
    assert not Order.objects.exists()


@pytest.mark.django_db
def test_a_players_character_orders_no_other_players_unit_not_even_for_the_gm(
    campaign, make_unit, enemy, cast
):
    from campaign.services import leader_attach

    tiger = make_unit("Tiger One")  # the player's
    sappers = make_unit("Sappers", into=enemy)  # the rival's
    kane = character_create(campaign=campaign, name="Sgt. Kane", hit_points=10, player=cast.player)
    leader_attach(unit=tiger, character=kane, actor=cast.gm)
    with pytest.raises(ValidationError) as error:
        order_give(giver=kane, unit=sappers, kind="use_skill", actor=cast.gm)
    assert error.value.message_dict == {
        "giver": ["Sgt. Kane is player's character: they order the units of player's forces "
                  "and the unit they lead, not Sappers of Blue Battalion"]
    }  # fmt: skip
    assert not Order.objects.exists()
    # Their own side's units, an NPC's Order to anyone's, and the unit the GM put them at the
    # head of are given as before.
    assert order_give(giver=kane, unit=tiger, kind="attack", actor=cast.gm).unit == tiger
    ferris = character_create(campaign=campaign, name="Sgt. Ferris", hit_points=10)
    assert order_give(giver=ferris, unit=sappers, kind="attack", actor=cast.gm).unit == sappers
    rook = character_create(campaign=campaign, name="Cpl. Rook", hit_points=10, player=cast.player)
    leader_attach(unit=sappers, character=rook, actor=cast.gm)
    assert order_give(giver=rook, unit=sappers, kind="use_skill", actor=cast.gm).giver == rook


@pytest.mark.django_db
def test_a_players_order_does_not_replace_one_the_gm_gave(campaign, make_unit, cast):
    squad = make_unit()
    ferris = character_create(campaign=campaign, name="Sgt. Ferris", hit_points=10)
    holt = character_create(campaign=campaign, name="Lt. Holt", hit_points=10, player=cast.player)
    standing = order_give(giver=ferris, unit=squad, kind="use_skill", actor=cast.gm)
    with pytest.raises(ValidationError) as error:
        order_give(giver=holt, unit=squad, kind="attack", actor=cast.player)
    assert error.value.message_dict == {
        "unit": ["1st Squad is under an Order to Use Skill from Sgt. Ferris: only the GM may "
                 "replace it"]
    }  # fmt: skip
    standing.refresh_from_db()
    assert order_status(standing, 0) == UNDER_WAY and Order.objects.count() == 1
    # Once it is done, the unit is the player's to order again.
    clock_advance(campaign=campaign, hours=standing.hours)
    order_give(giver=holt, unit=squad, kind="attack", actor=cast.player)
    assert Order.objects.count() == 2


@pytest.mark.django_db
def test_a_player_calls_off_an_order_their_own_character_gave_and_no_other(
    campaign, make_unit, enemy, cast
):
    squad, scouts = make_unit(), make_unit("Scouts")
    theirs = make_unit("Blue 1", into=enemy)
    holt = character_create(campaign=campaign, name="Lt. Holt", hit_points=10, player=cast.player)
    ferris = character_create(campaign=campaign, name="Sgt. Ferris", hit_points=10)
    greaves = character_create(campaign=campaign, name="Maj. Greaves", hit_points=10,
                               player=cast.rival)  # fmt: skip
    own = order_give(giver=holt, unit=squad, kind="use_skill", actor=cast.player)
    gms = order_give(giver=ferris, unit=scouts, kind="use_skill", actor=cast.gm)
    rivals = order_give(giver=greaves, unit=theirs, kind="use_skill", actor=cast.rival)
    for order in (gms, rivals):
        with pytest.raises(PermissionDenied, match="the player whose character gave it"):
            order_call_off(order=order, actor=cast.player)
    assert order_call_off(order=own, actor=cast.player).called_off_at == 0
    for order in (own, gms, rivals):
        order.refresh_from_db()
    assert [order_status(o, 0) for o in (own, gms, rivals)] == [CALLED_OFF, UNDER_WAY, UNDER_WAY]


@pytest.mark.django_db
def test_an_order_ends_as_its_unit_retreats_in_poor_order_stays_ended_when_it_rallies(
    campaign, make_unit, cast
):
    """A unit retreated in poor order is out of action until it rallies: its Order under way is
    senseless and ends then, said why. Rallied, the unit carries it out no more (the GM gives a
    new one); the retreat undone, the Order goes on."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    order = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=40)  # day 2, 14:00
    clock_advance(campaign=campaign, hours=1)
    campaign.refresh_from_db()
    routed = unit_edit(unit=squad, changes={"status": "retreated"}, reason="routed",
                       actor=cast.gm)  # fmt: skip
    order.refresh_from_db()
    assert (order.ended_at, order.ended_as) == (1, "retreated")
    assert order_status(order, 1) == ENDED and orders_under_way(campaign, [squad]) == {}
    said = "Ended at day 1, 01:00: 1st Squad retreated in poor order"
    assert order_state_text(order, 1) == said
    # The retreat undone: the Order goes on.
    outcome_revert(entries=[routed], reason="the wrong squad", actor=cast.gm)
    order.refresh_from_db()
    assert order.ended_at is None and orders_under_way(campaign, [squad]) == {squad.pk: order}
    # Retreated again, then rallied by a day of R&R: the Order stays ended.
    unit_edit(unit=squad, changes={"status": "retreated"}, reason="routed", actor=cast.gm)
    calendar_advance(campaign=campaign, days=1)
    squad.refresh_from_db()
    order.refresh_from_db()
    campaign.refresh_from_db()
    assert squad.status == "ready" and order.ended_at == 1
    assert order_state_text(order, campaign_now(campaign)) == said
    assert orders_under_way(campaign, [squad]) == {}
    # A new Order finds it ended, not under way: it replaces nothing.
    later = order_give(giver=holt, unit=squad, kind="attack")
    order.refresh_from_db()
    assert not order.replaced and order_state_text(order, campaign_now(campaign)) == said
    assert orders_under_way(campaign, [squad]) == {squad.pk: later}


@pytest.mark.django_db
def test_a_replaced_order_stays_replaced_when_its_replacement_is_called_off_at_once(
    campaign, make_unit
):
    """ "An Order lasts until done, replaced, or senseless": replaced at 02:00, the first Order
    is no Order of the unit's from then, so calling off the second the hour it was given leaves
    the unit with none under way, not the first back."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    first = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8)  # until 06:00
    clock_advance(campaign=campaign, hours=2)
    second = order_give(giver=holt, unit=squad, kind="attack")  # replaces the first at 02:00
    order_call_off(order=second)
    campaign.refresh_from_db()
    assert orders_under_way(campaign, [squad], at=1) == {squad.pk: first}
    assert orders_under_way(campaign, [squad]) == {}


@pytest.mark.django_db
def test_a_dead_character_gives_no_order_and_nothing_is_written(campaign, make_unit):
    """Only a living character gives an Order: one killed since is refused by name."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    Character.objects.filter(pk=holt.pk).update(hit_points=-10, alive=False)
    with pytest.raises(ValidationError) as error:
        order_give(giver=holt, unit=squad, kind="attack")
    assert error.value.message_dict == {"giver": ["Holt is dead"]}
    assert not Order.objects.exists()


@pytest.mark.django_db
def test_a_skills_time_is_1_to_the_most_listed_hours(campaign, make_unit):
    """A Use Skill Order takes the skill's own time, 1 to 240 hours: none outside is written."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    for hours in (0, LISTED_HOURS_MAX + 1):
        with pytest.raises(ValidationError) as error:
            order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=hours)
        assert error.value.message_dict == {
            "listed_hours": [f"A skill's time is 1 to {LISTED_HOURS_MAX} hours, not {hours}."]
        }
    assert not Order.objects.exists()
    for hours in (1, LISTED_HOURS_MAX):
        assert (
            order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=hours).listed_hours
            == hours
        )


@pytest.mark.django_db
def test_hours_given_to_an_order_of_the_tables_time_are_refused_for_being_given(
    campaign, make_unit
):
    """An Attack takes the table's time: hours given it, out of a skill's range or not, are
    refused as hours it does not take, never as "a skill's time", which it has none of."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    for hours in (0, 5, True):
        with pytest.raises(ValidationError) as error:
            order_give(giver=holt, unit=squad, kind="attack", listed_hours=hours)
        assert error.value.message_dict == {
            "listed_hours": [
                "Attack takes the Orders table's time: leave the hours empty, or choose Use "
                "Skill for a skill's own time."
            ]
        }
    assert not Order.objects.exists()


@pytest.mark.django_db
def test_an_order_called_off_is_no_order_a_new_one_replaces_nor_one_that_stops_a_player(
    campaign, make_unit, cast
):
    """Called off, an Order is no Order of its unit's: one the GM's character gave no longer
    stops a player giving their unit another at the same hour, and the new one does not
    replace it (it stays called off)."""
    squad = make_unit()  # Red Company, the player's
    major = character_create(campaign=campaign, name="Maj. Vance", hit_points=10)
    holt = character_create(campaign=campaign, name="Lt. Holt", hit_points=10, player=cast.player)
    gms = order_give(giver=major, unit=squad, kind="use_skill", listed_hours=8, actor=cast.gm)
    order_call_off(order=gms, actor=cast.gm)
    own = order_give(giver=holt, unit=squad, kind="attack", actor=cast.player)
    gms.refresh_from_db()
    assert not gms.replaced and order_status(gms, 0) == CALLED_OFF
    assert order_status(own, 0) == UNDER_WAY


@pytest.mark.django_db
def test_an_order_done_at_the_hour_its_unit_is_destroyed_stays_done(campaign, make_unit, cast):
    """An Order is done when the clock reaches its time: the unit destroyed at that very hour
    does not end it (only an Order still under way ends with its unit)."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    order = order_give(giver=holt, unit=squad, kind="attack")  # Average: done at 01:00
    clock_advance(campaign=campaign, hours=1)
    unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled", actor=cast.gm)
    order.refresh_from_db()
    assert order.ended_at is None and order_status(order, 1) == DONE
    assert order_state_text(order, 1) == "Done at day 1, 01:00"


@pytest.mark.django_db
def test_an_order_ended_as_its_unit_was_destroyed_ends_as_it_retreated_when_corrected(
    campaign, make_unit, cast
):
    """Destroyed corrected to retreated in poor order: the Order that ended with the unit ended
    as it retreated, and says so."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    order = order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8)  # until 06:00
    clock_advance(campaign=campaign, hours=2)
    unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled", actor=cast.gm)
    unit_edit(unit=squad, changes={"status": "retreated"}, reason="they ran", actor=cast.gm)
    order.refresh_from_db()
    assert (order.ended_at, order.ended_as) == (2, "retreated")
    assert order_state_text(order, 2) == "Ended at day 1, 02:00: 1st Squad retreated in poor order"


@pytest.mark.django_db
def test_an_order_given_outside_the_units_specialties_is_reckoned_as_raw(campaign, make_unit):
    """ "A unit doing an Order outside its specialties performs as Raw": an Elite infantry squad
    told to Establish Beachhead (Amphibious) takes its hour with nothing off for Elite, and its
    working says so; an Amphibious one is reckoned at Elite."""
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    squad = make_unit(quality="elite")
    marines = make_unit("Marines", quality="elite", specialties=("infantry", "amphibious"))
    outside = order_give(giver=holt, unit=squad, kind="establish_beachhead")
    inside = order_give(giver=holt, unit=marines, kind="establish_beachhead")
    assert outside.hours == inside.hours == 1
    assert order_working(outside) == "1 listed"
    assert order_working(inside) == (
        "1 listed, less 2 for Elite, half its step 5 rounded down, at least 1"
    )


def _told(unit) -> list[tuple[int, str]]:
    """The unit's history entries about its Orders, as (day, sentence), oldest first."""
    return list(unit.history.filter(kind="order").order_by("id").values_list("day", "text"))


@pytest.mark.django_db
def test_an_order_given_replaced_and_called_off_is_told_in_its_units_history(
    campaign, make_unit, cast
):
    """Giving an Order, the Order it replaces and calling one off are each a line of the
    unit's history on the day, with the hour, the Order and who gave it by name; they change
    nothing of the unit's, so the unit's own Undo still takes back the change before them."""
    squad = make_unit()
    reyes = character_create(campaign=campaign, name="Sgt. Reyes", hit_points=10)
    ash = character_create(campaign=campaign, name="Lt. Ash", hit_points=10)
    calendar_advance(campaign=campaign, days=2)
    clock_advance(campaign=campaign, hours=14)  # day 3, 14:00
    edit = unit_edit(unit=squad, changes={"morale_hits": 1}, reason="shelled", actor=cast.gm)
    order_give(giver=reyes, unit=squad, kind="use_skill", listed_hours=4,
               note="hold the Mill", actor=cast.gm)  # fmt: skip
    clock_advance(campaign=campaign, hours=1)
    attack = order_give(giver=ash, unit=squad, kind="attack", actor=cast.gm)
    order_call_off(order=attack, actor=cast.gm)
    assert _told(squad) == [
        (3, "Ordered to Use Skill by Sgt. Reyes at 14:00, to be done at day 3, 17:00: "
            "hold the Mill"),
        (3, "Ordered to Attack by Lt. Ash at 15:00, to be done at day 3, 16:00, in place of "
            "the Order to Use Skill from Sgt. Reyes"),
        (3, "The Order to Attack from Lt. Ash was called off at 15:00"),
    ]  # fmt: skip
    told = squad.history.filter(kind="order").order_by("id")
    assert {e.actor for e in told} == {cast.gm}
    assert undo_offered(unit=squad) == edit
    entry_undo(entry=edit, reason="not shelled after all", actor=cast.gm)
    squad.refresh_from_db()
    assert squad.morale_hits == 0
    with pytest.raises(ValidationError, match="an Order entry stays"):
        outcome_revert(entries=[told[0]], reason="never given", actor=cast.gm)


@pytest.mark.django_db
def test_an_order_ended_with_its_unit_and_going_on_again_is_told_in_its_history(
    campaign, make_unit, cast
):
    """An Order that ends with its unit taken out of action is told after the entry that
    took the unit out; the destruction undone, the Order going on is told too: the line that
    said it ended stays, as what the story held then, and the next one says it goes on."""
    squad = make_unit()
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8)  # until 07:00
    clock_advance(campaign=campaign, hours=2)
    shelled = unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled",
                        actor=cast.gm)  # fmt: skip
    ended = "The Order to Use Skill from Holt ended with it at day 1, 02:00"
    assert list(squad.history.order_by("id").values_list("kind", "text"))[-2:] == [
        ("gm_edit", shelled.text),
        ("order", ended),
    ]
    outcome_revert(entries=[shelled], reason="the wrong squad", actor=cast.gm)
    assert _told(squad)[1:] == [
        (1, ended),
        (1, "The Order to Use Skill from Holt goes on, what ended it undone: done at day 1, "
            "07:00"),
    ]  # fmt: skip
    assert list(squad.history.order_by("id").values_list("kind", flat=True))[-2:] == [
        "revert",
        "order",
    ]
