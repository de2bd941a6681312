"""Writes for Orders and the campaign clock: give an Order, call one off, move the clock on.

An Order is done when the clock reaches its time; nothing has to happen then, so a clock moved
by days (`calendar_advance`) finishes Orders as surely as one moved by hours. It lasts until
done, replaced (another Order to its unit) or senseless: the GM judges that, and calls it off,
except for a unit taken out of action (retreated in poor order, or destroyed), whose Order
under way ends with it (`orders_follow.orders_follow_unit`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.text import capfirst

from campaign.models import Campaign, Character, HistoryEntry, Membership, Order, Unit
from campaign.rules.bridge import CharacterOrder
from campaign.rules.characters import Feat, feat_sum, feats_from, ordered_feats
from campaign.rules.orders import (
    HOURS_PER_DAY,
    OrderKind,
    clock_text,
    order_called_off_text,
    order_given_text,
    order_hours,
    order_hours_working,
    order_named,
    order_quality,
)
from campaign.rules.state import Status
from campaign.selectors.access import (
    MANAGING_ROLES,
    campaign_role,
    command_refused,
    may_call_off,
    may_give_orders,
)
from campaign.selectors.reviews import orders_done
from campaign.selectors.roster import campaign_now
from campaign.services._record import require_manager, text_given
from campaign.services.orders_follow import order_told
from campaign.services.recovery import MAX_DAYS, clock_reviewed, time_pass, time_told
from units.bucs import Quality
from units.models import new_version
from units.words import given, or_words, plural, value_shown

LISTED_HOURS_MAX = 240
DONE, UNDER_WAY, REPLACED, CALLED_OFF = "done", "under way", "replaced", "called off"
ENDED = "ended with its unit"


def called_off_by(order: Order, hour: int) -> bool:
    """Whether the GM had called the Order off by clock hour ``hour``."""
    return order.called_off_at is not None and order.called_off_at <= hour


def ended_by(order: Order, hour: int) -> bool:
    """Whether the Order had ended with its unit, taken out of action, by clock hour ``hour``."""
    return order.ended_at is not None and order.ended_at <= hour


def order_status(order: Order, now: int) -> str:
    if order.replaced:
        return REPLACED
    if called_off_by(order, now):
        return CALLED_OFF
    if ended_by(order, now):
        return ENDED
    return DONE if now >= order.finishes_at else UNDER_WAY


def replaced_when(orders: Iterable[Order]) -> dict[int, int]:
    """Order pk → the clock hour it was replaced, for the replaced Orders among ``orders``:
    when the next Order to its unit was given (`order_give`). An Order marked replaced with no
    later Order to its unit among them (an import's) has none."""
    when: dict[int, int] = {}
    later: dict[int, Order] = {}
    for order in sorted(orders, key=lambda o: (o.given_at, o.pk), reverse=True):
        after = later.get(order.unit_id)
        if order.replaced and after is not None:
            when[order.pk] = after.given_at
        later[order.unit_id] = order
    return when


def order_state_text(order: Order, now: int, replaced_at: int | None = None) -> str:
    """An Order's state at clock hour ``now``, and when: "Done at day 2, 03:00", "Under way,
    done at day 4, 09:00", or, for one never done, "Replaced at day 2, 00:00" (``replaced_at``,
    `replaced_when`), "Called off at day 2, 05:00" or "Ended at day 2, 07:00: 2nd Squad
    retreated in poor order" (`ended_text`)."""
    status = order_status(order, now)
    if status == REPLACED:
        return "Replaced" if replaced_at is None else f"Replaced at {clock_text(replaced_at)}"
    if status == CALLED_OFF:
        return f"Called off at {clock_text(order.called_off_at)}"
    if status == ENDED:
        return capfirst(ended_text(order))
    if status == DONE:
        return f"Done at {clock_text(order.finishes_at)}"
    return f"Under way, done at {clock_text(order.finishes_at)}"


def ended_text(order: Order) -> str:
    """An Order ended with its unit, and why, within a sentence: "ended at day 2, 01:00: 1st
    Squad retreated in poor order" or "…: 1st Squad was destroyed"."""
    why = "was destroyed" if order.ended_as == Status.DESTROYED else "retreated in poor order"
    return f"ended at {clock_text(order.ended_at)}: {order.unit.name} {why}"


def current_orders(campaign: Campaign, units: list[Unit]) -> dict[int, Order]:
    """unit pk → its latest Order that was not replaced (done, under way, called off or ended
    with its unit: ask `order_status`)."""
    latest: dict[int, Order] = {}
    given = Order.objects.filter(unit__in=units, replaced=False).select_related("unit", "giver")
    for order in given.order_by("given_at", "pk"):
        latest[order.unit_id] = order
    return latest


def orders_under_way(
    campaign: Campaign, units: list[Unit], at: int | None = None
) -> dict[int, Order]:
    """unit pk → its Order under way at clock hour ``at`` (by default now), with its giver:
    given by then, not yet done, and neither replaced (`replaced_when`: when the next Order to
    its unit was given), called off nor ended with its unit by then. So a battle entered for an
    earlier hour finds the Orders of that hour; one replaced at no known hour (an import's) is
    under way at none."""
    at = campaign_now(campaign) if at is None else at
    orders = list(Order.objects.filter(unit__in=units).select_related("giver"))
    replaced_at = replaced_when(orders)
    latest: dict[int, Order] = {}
    for order in sorted(orders, key=lambda o: (o.given_at, o.pk)):
        if order.replaced and replaced_at.get(order.pk, order.given_at) <= at:
            continue
        if called_off_by(order, at) or ended_by(order, at):
            continue
        if order.given_at <= at < order.finishes_at:
            latest[order.unit_id] = order
    return latest


def character_order(order: Order | None) -> CharacterOrder | None:
    """An Order as the bridge reads it."""
    if order is None:
        return None
    return CharacterOrder(OrderKind(order.kind), order.giver.name, order.finishes_at)


@transaction.atomic
def order_give(
    *,
    giver: Character,
    unit: Unit,
    kind: str,
    listed_hours: int | None = None,
    note: str = "",
    actor: Any = None,
) -> Order:
    """A character gives a unit an Order; it replaces the unit's Order under way, if any.

    Its time is the listed time less half the unit's (effective) quality step, at least 1 hour;
    outside its specialties the unit performs as Raw, so it takes the full listed time.

    The GM and co-GMs give any Order, but never with a player's character to another player's
    unit (`access.command_refused`). A player gives Orders with a character of their own, to
    the units of their own forces (`player_gives`), and replaces only an Order one of their
    characters gave: one from the GM's characters stands until the GM replaces it.
    """
    unit = (
        Unit.objects.select_for_update(of=("self",))
        .select_related("force__campaign")
        .get(pk=unit.pk)
    )
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=unit.force.campaign_id)
    player = player_gives(campaign, actor, unit)
    now = campaign_now(campaign)
    errors: dict[str, list[str]] = {}
    note = text_given(errors, "note", note)
    # The giver as stored, locked: one killed at a unit's head since gives no Order.
    giver = (
        Character.objects.select_for_update().filter(pk=giver.pk).first()
        if giver is not None
        else None
    )
    if giver is None:
        errors["giver"] = ["only a character gives an Order"]
    elif giver.campaign_id != campaign.pk:
        errors["giver"] = [f"{giver} is not of {campaign}"]
    elif not giver.alive:
        errors["giver"] = [f"{giver} is dead"]
    elif player and giver.player_id != actor.pk:
        errors["giver"] = [f"{giver} is not your character: you give Orders with your own"]
    elif refused := command_refused(character=giver, unit=unit, does="order"):
        errors["giver"] = [refused]
    standing = _under_way(unit, now).first() if player else None
    if standing is not None and standing.giver.player_id != actor.pk:
        errors["unit"] = [
            f"{unit} is under an Order to {OrderKind(standing.kind).label} from "
            f"{standing.giver}: only the GM may replace it"
        ]
    if not Status(unit.status).fights:
        # Out of action (retreated in poor order, or destroyed), as for a battle or a check.
        label = unit.state.status.label.lower()
        errors["unit"] = [f"{unit} cannot be given an Order: it is {label}"]
    try:
        order_kind = OrderKind(kind)
    except ValueError:
        errors["kind"] = [
            f"no Order {given(kind)}; one of {or_words([k.label for k in OrderKind])}"
        ]
        order_kind = None
    if listed_hours is not None:
        # Whether the Order takes hours at all comes first: hours out of range given to an
        # Attack are refused for being given, not as "a skill's time", which it has none of.
        if order_kind is not None and order_kind != OrderKind.USE_SKILL:
            errors["listed_hours"] = [
                f"{order_kind.label} takes the Orders table's time: leave the hours empty, or "
                "choose Use Skill for a skill's own time."
            ]
        elif isinstance(listed_hours, bool) or not isinstance(listed_hours, int):
            errors["listed_hours"] = [
                f"A skill's time is a whole number of hours, not {value_shown(listed_hours)}."
            ]
        elif not 1 <= listed_hours <= LISTED_HOURS_MAX:
            errors["listed_hours"] = [
                f"A skill's time is 1 to {LISTED_HOURS_MAX} hours, not {listed_hours}."
            ]
    if errors:
        raise ValidationError(errors)
    assert order_kind is not None and giver is not None
    listed = order_kind.row.listed_hours if listed_hours is None else listed_hours
    quality, saved, _ = _order_reckoning(order_kind, unit, giver)
    hours = order_hours(listed, quality, hours_saved=saved)
    replacing = standing if player else _under_way(unit, now).first()
    _under_way(unit, now).update(replaced=True, version=new_version())
    order = Order.objects.create(
        campaign=campaign,
        giver=giver,
        unit=unit,
        kind=order_kind.value,
        listed_hours=listed,
        hours=hours,
        given_at=now,
        finishes_at=now + hours,
        note=note,
        actor=actor,
    )
    replaces = "" if replacing is None else order_named(replacing.kind, replacing.giver.name)
    said = order_given_text(
        order.kind, giver.name, now, order.finishes_at, replaces=replaces, note=note
    )
    order_told(order, said, campaign.day, actor).save(force_insert=True)
    return order


def _order_reckoning(kind: OrderKind, unit: Unit, giver: Character) -> tuple[Quality, int, str]:
    """What an Order's hours are reckoned from: the quality the unit performs it at, the hours
    its giver's feats save, and the feats that save them, in words ("a Strategist")."""
    state = unit.state
    quality = order_quality(kind, state.effective_quality, state.specialties)
    feats = feats_from(giver.feats)
    saving = [Feat(f).row.label for f in ordered_feats(feats) if Feat(f).row.order_hours_saved]
    return quality, feat_sum(feats, "order_hours_saved"), " and ".join(f"a {n}" for n in saving)


def order_working(order: Order) -> str:
    """How a newly given Order's hours were reckoned (`rules.orders.order_hours_working`), by
    the unit and giver as `order_give` read them: read at once, before either changes."""
    quality, saved, saved_by = _order_reckoning(OrderKind(order.kind), order.unit, order.giver)
    return order_hours_working(order.listed_hours, quality, hours_saved=saved, saved_by=saved_by)


def player_gives(campaign: Campaign, actor: Any, unit: Unit) -> bool:
    """Whether ``actor`` gives an Order to ``unit`` as a player (True) or runs the campaign
    (False: the GM, a co-GM, or no actor, a trusted caller). Anyone else is refused
    (`access.may_give_orders`): a spectator, or a player for a unit of a force not theirs."""
    if actor is None:
        return False
    role = campaign_role(campaign=campaign, user=actor)
    if not may_give_orders(role=role, owns=unit.force.owner_id == actor.pk):
        if role == Membership.Role.PLAYER:
            raise PermissionDenied("a player gives Orders to the units of their own forces only")
        raise PermissionDenied(f"only the GM, a co-GM or a player gives Orders in {campaign}")
    return role not in MANAGING_ROLES


def _under_way(unit: Unit, now: int):
    """The unit's Order under way now, as `order_status` finds it: not replaced, not yet done,
    called off nor ended (a query: at most one row)."""
    return (
        Order.objects.filter(unit=unit, replaced=False, finishes_at__gt=now)
        .filter(Q(called_off_at__isnull=True) | Q(called_off_at__gt=now))
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=now))
        .select_related("giver")
    )


@transaction.atomic
def order_call_off(*, order: Order, actor: Any = None) -> Order:
    """The GM calls off an Order under way that makes no sense any more ("An Order lasts until
    done, replaced, or senseless"): from now it is no Order of its unit's, in a battle, a check
    or an engagement. Refused for one done, replaced or called off already. A player calls off
    an Order their own character gave their own unit (`access.may_call_off`)."""
    # The campaign first, then the Order, as `order_give` takes them: the two never wait on
    # each other the other way round.
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=order.campaign_id)
    order = (
        Order.objects.select_for_update(of=("self",))
        .select_related("unit__force", "giver")
        .filter(pk=order.pk)
        .first()
    )
    if order is None:
        raise ValidationError({"order": ["That Order is gone."]})
    if actor is not None and not may_call_off(
        role=campaign_role(campaign=campaign, user=actor),
        owns=order.unit.force.owner_id == actor.pk,
        gave=order.giver.player_id == actor.pk,
    ):
        raise PermissionDenied(
            f"only the GM, or the player whose character gave it, calls off an Order in {campaign}"
        )
    now = campaign_now(campaign)
    status = order_status(order, now)
    if status != UNDER_WAY:
        what = f"The Order to {OrderKind(order.kind).label} given to {order.unit.name}"
        refused = f"{what} is {status} already: only an Order under way is called off."
        raise ValidationError({"order": [refused]})
    order.called_off_at = now
    order.save(update_fields=["called_off_at"])
    named = order_named(order.kind, order.giver.name)
    order_told(order, order_called_off_text(named, now), campaign.day, actor).save(
        force_insert=True
    )
    return order


@transaction.atomic
def clock_advance(
    *, campaign: Campaign, hours: int, reason: str = "", actor: Any = None
) -> list[Order]:
    """Move the clock on by hours (`clock_move`): the Orders done meanwhile."""
    return clock_move(campaign=campaign, hours=hours, reason=reason, actor=actor)[0]


@transaction.atomic
def clock_move(
    *,
    campaign: Campaign,
    hours: int,
    reason: str = "",
    actor: Any = None,
    reviewed_at: int | None = None,
    reviewed: str | None = None,
) -> tuple[list[Order], list[HistoryEntry]]:
    """Move the clock on by hours, with what the time does to every unit as `time_pass` runs
    it (a medical window closing 24 hours after the battle that opened it, a day of R&R at
    each midnight), and, when the GM says why, a line in the campaign's story (`time_told`).
    The Orders done meanwhile, and the history entries the time wrote.
    Confirmed from a review, ``reviewed_at`` is the clock hour the review was drawn at: refused
    when the clock has moved since (`clock_reviewed`); ``reviewed`` is what it showed
    (`recovery.time_reviewed`, with the Orders done by then, as its review tells them):
    refused, by name, when a unit changed since, or an Order given or called off since
    changes which are done."""
    require_manager(campaign, actor)
    limit = MAX_DAYS * HOURS_PER_DAY
    errors: dict[str, list[str]] = {}
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= limit:
        errors["hours"] = [
            f"The clock moves on 1 to {limit} hours at a time, not {value_shown(hours)}."
        ]
    text_given(errors, "reason", reason)
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    clock_reviewed(errors, campaign, reviewed_at)
    if errors:
        raise ValidationError(errors)
    before = campaign_now(campaign)
    entries = time_pass(
        campaign=campaign, hours=hours, reason=reason, actor=actor, reviewed=reviewed
    )
    if reason.strip():
        # An hour or two for the Orders to finish is the table's bookkeeping; the story tells
        # a move of the clock only when the GM says why, as it tells every calendar day.
        moved = f"The clock moved on {plural(hours, 'hour')} to {clock_text(before + hours)}"
        time_told(campaign, moved, reason, actor)
    return orders_done(campaign=campaign, start=before, end=before + hours), entries
