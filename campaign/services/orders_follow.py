"""An Order follows its unit: it ends when the unit is taken out of action (retreated in poor
order, or destroyed), and goes on again when that is undone; each as a line of the unit's
history. Called by `_record.unit_change`, the one way a unit changes, so it imports no service.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, Value
from django.db.models.functions import Greatest

from campaign.models import HistoryEntry, Order, Unit
from campaign.rules.orders import clock_time, order_ended_text, order_goes_on_text, order_named
from campaign.rules.state import Status
from campaign.selectors.reviews import STANDING
from campaign.selectors.roster import campaign_now
from units.models import new_version


def order_told(order: Order, text: str, day: int, actor: Any = None) -> HistoryEntry:
    """An Order given, called off, ended with its unit or going on again, as a line of its
    unit's history (unsaved, for the caller to write in its own transaction): it changes
    nothing of the unit's (`HistoryEntry.ASIDE`), and names the Order in words alone, as a
    campaign exported and imported again keeps them."""
    return HistoryEntry(
        unit_id=order.unit_id, day=day, kind=HistoryEntry.Kind.ORDER, text=text, actor=actor
    )


def orders_follow_unit(
    unit: Unit, was: str, now: str, hour: int | None = None, *, undone: bool = False
) -> list[HistoryEntry]:
    """A unit's status changed from ``was`` to ``now`` (`_record.unit_change`) at clock hour
    ``hour`` (by default now). Taken out of action — retreated in poor order, or destroyed —
    its Order under way then ends with it ("An Order lasts until done, replaced, or
    senseless": a broken unit, out of action until it rallies, carries out no Order, and a
    destroyed one leaves nobody to), and so does one given it since (a battle entered late:
    the unit was out of action already), as it was given. Rallied, its Order stays ended: the
    GM gives it a new one. The destruction undone or corrected, or the retreat undone (a
    revert, ``undone``), the Orders that ended with it go on, unless it is still out of action
    (destroyed corrected to retreated: they ended as it retreated). An Order replaced or called
    off since stays so: the GM's word stands.

    The lines its history tells of it (`order_told`), unsaved, for the caller to write after
    the entry that says how the unit's status changed: each Order that ended with it, and each
    that goes on again."""
    told: list[HistoryEntry] = []
    if not Status(now).fights:
        hour = campaign_now(unit.force.campaign) if hour is None else hour
        ending = Order.objects.filter(STANDING, unit=unit, finishes_at__gt=hour)
        for order in ending.select_related("giver").order_by("given_at", "pk"):
            at = max(hour, order.given_at)
            named = order_named(order.kind, order.giver.name)
            told.append(order_told(order, order_ended_text(named, at), clock_time(at)[0]))
        ending.update(
            ended_at=Greatest(Value(hour), F("given_at")), ended_as=now, version=new_version()
        )
        if was == Status.DESTROYED:
            Order.objects.filter(unit=unit, ended_as=Status.DESTROYED).update(
                ended_as=now, version=new_version()
            )
    elif was == Status.DESTROYED or (was == Status.RETREATED and undone):
        ended = Order.objects.filter(unit=unit, ended_at__isnull=False)
        day = unit.force.campaign.day
        for order in ended.select_related("giver").order_by("given_at", "pk"):
            if not order.replaced and order.called_off_at is None:
                named = order_named(order.kind, order.giver.name)
                told.append(order_told(order, order_goes_on_text(named, order.finishes_at), day))
        ended.update(ended_at=None, ended_as="", version=new_version())
    return told
