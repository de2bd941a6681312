"""The one way a persistent unit changes: save its new state and write the history entry."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model

from battles import queue
from battles.refusals import BattleInputError
from campaign.models import Campaign, Character, HistoryEntry, Leader, StoryEntry, Unit
from campaign.rules.history import sentence
from campaign.rules.orders import order_done_text
from campaign.rules.state import CampaignUnitState, snapshot_diff
from campaign.rules.values import (
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_FORCES_PER_CAMPAIGN,
    MAX_MEMBERS_PER_CAMPAIGN,
)
from campaign.selectors.access import campaign_can_manage
from campaign.services.orders_follow import orders_follow_unit
from units.models import new_version
from units.words import plural, quoted, value_shown


def require_manager(campaign: Campaign, actor: Any) -> None:
    """Refuse a GM action from anyone but the GM or a co-GM (no actor: a trusted caller)."""
    if actor is not None and not campaign_can_manage(campaign=campaign, user=actor):
        raise PermissionDenied(f"only the GM or a co-GM of {campaign} may do this")


def model_checked(instance: Model, **kwargs: Any) -> None:
    """The row's own checks (`full_clean`), refused as a `ValidationError` by field name."""
    try:
        instance.full_clean(**kwargs)
    except ValidationError as error:
        raise ValidationError(error.message_dict) from None


def story_told(campaign: Campaign, kind: str, text: str, actor: Any = None) -> StoryEntry:
    """Write a line of the campaign's own story (`StoryEntry`: a change to its people or
    forces, a GM's note), on the campaign's day as stored now (the caller's copy may be from
    before the calendar moved), in the words of the moment."""
    day = Campaign.objects.filter(pk=campaign.pk).values_list("day", flat=True).get()
    return StoryEntry.objects.create(campaign=campaign, day=day, kind=kind, text=text, actor=actor)


def text_given(errors: dict[str, list[str]], field: str, value: Any, *, needed: str = "") -> str:
    """A service's text input (a name, a reason, a note), stripped. Anything but text is refused
    under ``field`` in ``errors`` and read as empty; so is empty text when ``needed`` (the words
    saying what to give) is."""
    if not isinstance(value, str):
        errors.setdefault(field, []).append(f"must be text, got {value_shown(value)}")
        return ""
    if needed and not value.strip():
        errors.setdefault(field, []).append(needed)
    return value.strip()


ANOTHER_NAME = "choose another name"
"""The next step after a name refused because something of its kind has it already."""


def name_taken(holder: str, kind: str, name: str, *, has: str = "has") -> str:
    """A name refused because ``holder`` has something of its kind by that name already, and
    what to do: "Red Company already has a unit called “Rifles 1”; choose another name". One
    wording for every such clash: a unit's, a force's, a character's, a map's, a campaign's."""
    return f"{holder} already {has} {kind} called {quoted(name)}; {ANOTHER_NAME}"


CAMPAIGN_HOLDS = {
    "force": ("forces", MAX_FORCES_PER_CAMPAIGN),
    "member": ("memberships", MAX_MEMBERS_PER_CAMPAIGN),
    "character": ("characters", MAX_CHARACTERS_PER_CAMPAIGN),
}
"""What a campaign holds a bounded number of: the campaign's rows of it, and the most."""


def campaign_full(campaign: Campaign, what: str, adding: int = 1) -> str:
    """Why ``campaign`` takes no more ``what`` (a key of `CAMPAIGN_HOLDS`), in a sentence, or
    "" while it has room for ``adding`` more: "Spam Campaign already has 50 forces, the most a
    campaign may have". A service that writes one holds the campaign's row (`locked`) while
    it counts, so two requests at once cannot both take the last place."""
    rows, most = CAMPAIGN_HOLDS[what]
    held = getattr(campaign, rows).count() if campaign.pk else 0  # a campaign not yet saved
    if held + adding <= most:
        return ""
    if held < most:  # room for some, not for all (the admin adds several at once)
        room = plural(most - held, f"more {what}")
        return f"{campaign} has room for {room}, as a campaign has at most {most}"
    return f"{campaign} already has {plural(most, what)}, the most a campaign may have"


Row = TypeVar("Row", bound=Model)


def locked(row: Row, *related: str) -> Row:
    """``row`` (a unit, a force, a character) as stored now, locked until the service's
    transaction ends: what a service judges and writes by, never the caller's copy, which may
    be from before a fight, a correction, a death or the calendar changed it. ``related``: what
    to read with it (`select_related`)."""
    rows = type(row)._default_manager.select_for_update(of=("self",))
    return rows.select_related(*related).get(pk=row.pk)


def units_stored(pks: Iterable[Any], *, lock: bool) -> dict[int, Unit]:
    """The units with these pks as stored now (with their force, card and leader), by pk: never
    the caller's copies (`locked`). ``lock``, inside a service's transaction, holds them until
    it ends, taken in pk order as every service takes them; without it (a preview, which
    writes nothing) they are only read."""
    units = Unit.objects.filter(pk__in=[pk for pk in pks if pk is not None])
    if lock:
        units = units.select_for_update(of=("self",))
    return {u.pk: u for u in units.select_related("force", "unit_type", "leader").order_by("pk")}


Side = TypeVar("Side")


ANOTHER_FORCE = "choose a unit of another force"
"""The next step after a refusal of one side against itself, unit or force: the other side is
a unit of another force."""


def unit_on_both_sides(unit: Unit, does: str = "fight") -> str:
    """A unit put on both sides of a fight, refused by name, and what to do: "Scouts is on both
    sides: a unit cannot fight itself; choose a unit of another force" (``does`` as for
    `forces_on_both_sides`). Said before its force's rule: the unit is what fights itself."""
    return f"{unit.name} is on both sides: a unit cannot {does} itself; {ANOTHER_FORCE}"


def forces_on_both_sides(
    sides: Mapping[Side, Iterable[Unit]], does: str = "fight"
) -> list[tuple[Side, Unit, str]]:
    """A force with units on both sides of a fight, refused: a force cannot fight itself, and
    what to do (`ANOTHER_FORCE`). One rule for an engagement, a quick resolve, a battle fought
    by the engine, a table's result and a contest (``does``: what the sentence says a force
    cannot do to itself).

    For each such force, (the later side it is on, in the mapping's order; its first unit
    there; the sentence naming the force), for the caller to put at that side's field. Empty
    when every force keeps to one side.
    """
    first: dict[int, Side] = {}
    found: list[tuple[Side, Unit, str]] = []
    for side, units in sides.items():
        for unit in units:
            on = first.setdefault(unit.force_id, side)
            if on != side and unit.force_id not in {u.force_id for _, u, _ in found}:
                why = (
                    f"{unit.force.name} is on both sides: a force cannot {does} itself; "
                    f"{ANOTHER_FORCE}"
                )
                found.append((side, unit, why))
    return found


class SameCharacter:
    """The leader row keeps the character it is linked to (`unit_state_save`)."""

    def __repr__(self) -> str:
        return "SAME_CHARACTER"


SAME_CHARACTER = SameCharacter()


def unit_state_save(
    unit: Unit, state: CampaignUnitState, *, character: int | SameCharacter | None = SAME_CHARACTER
) -> None:
    """Write a `CampaignUnitState` onto the unit and its leader row.

    ``character`` (a pk, or None for a leader who is no campaign character) links the row
    before it takes the leader's state, when the change puts another person at the unit's
    head: the row carries its hit points to the character linked (`Leader.save`), so a link
    left over would hand the new leader's state to the one who led before.
    """
    for name, value in state.row_values().items():
        setattr(unit, name, value)
    unit.save()
    leader = getattr(unit, "leader", None)
    if state.leader is None:
        if leader is not None:
            leader.delete()
            # Forget the cached row, so `unit.state` sees no leader.
            Unit.leader.related.delete_cached_value(unit)
        return
    if leader is None:
        leader = Leader(unit=unit)
    if not isinstance(character, SameCharacter):
        leader.character_id = character
    leader.name = state.leader.name
    leader.hit_points = state.leader.hit_points
    leader.alive = state.leader.alive
    leader.save()
    unit.leader = leader


def unit_change(
    *,
    unit: Unit,
    state: CampaignUnitState,
    kind: str,
    why: str,
    day: int,
    details: dict[str, Any] | None = None,
    battle: Any = None,
    quick_resolve: Any = None,
    actor: Any = None,
    reverts: HistoryEntry | None = None,
    always: bool = False,
    snapshot: bool = False,
    text: str | None = None,
    character: int | SameCharacter | None = SAME_CHARACTER,
    hour: int | None = None,
) -> HistoryEntry | None:
    """Save the unit at `state` and record the change; None when nothing changed.

    `always` records an entry even without a change (a battle a unit came through untouched
    still belongs in its history). `snapshot` records the whole state, not the difference: a
    unit's first entry, from which a replay of its history starts. `text` replaces the sentence.
    `character`: the campaign character its leader row is linked to (`unit_state_save`).
    `hour`: the clock hour it happens, when not now (the clock passing: a medical window
    closing within the hours it moves on).
    """
    before, after = snapshot_diff(unit.state.to_json(), state.to_json())
    if snapshot:
        before, after = {}, state.to_json()
    if not after and not always:
        return None
    was = unit.status
    unit_state_save(unit, state, character=character)
    told: list[HistoryEntry] = []
    if state.status != was:
        told = orders_follow_unit(unit, was, state.status, hour, undone=reverts is not None)
    entry = HistoryEntry(
        unit=unit,
        day=day,
        kind=kind,
        text=text or sentence(why, before, after),
        before=before,
        after=after,
        details=details or {},
        battle=battle,
        quick_resolve=quick_resolve,
        actor=actor,
        reverts=reverts,
    )
    entry.save(force_insert=True)
    for line in told:  # its Orders' ends, told after what ended them
        line.save(force_insert=True)
    return entry


class UnitChanges:
    """Many units' changes written together (the clock passing over a whole campaign): each
    `change` is judged, worded and ordered as `unit_change` would, and `write` stores them all
    in a few queries however many units changed, inside the caller's transaction.

    Until `write`, the units (and leader rows) carry their new state in memory only, and the
    entries wait unsaved in order: nothing may read them from the database meanwhile, but
    `entries_write` first (`unit_change` is what a change to a leader's presence takes).
    Every unit written gets a fresh ``version`` as `Unit.save` gives it, and every leader row
    its campaign character's wounds as `Leader.save` hands them on.
    """

    def __init__(self) -> None:
        self.units: dict[int, Unit] = {}
        self.fields: set[str] = set()
        self.entries: list[HistoryEntry] = []

    def change(
        self,
        *,
        unit: Unit,
        state: CampaignUnitState,
        kind: str,
        why: str,
        day: int,
        actor: Any = None,
        hour: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> HistoryEntry | None:
        """`unit_change` of the unit to ``state``, kept to `write`; None when nothing changed."""
        leader = getattr(unit, "leader", None)
        if (leader is None) != (state.leader is None):
            # A leader row made or removed: the one-row way, after what came before it.
            self.entries_write()
            entry = unit_change(
                unit=unit, state=state, kind=kind, why=why, day=day, actor=actor, hour=hour,
                details=details,
            )  # fmt: skip
            if entry is not None:
                self._written(unit, entry.after)
            return entry
        before, after = snapshot_diff(unit.state.to_json(), state.to_json())
        if not after:
            return None
        was = unit.status
        for name, value in state.row_values().items():
            setattr(unit, name, value)
        if leader is not None and state.leader is not None:
            leader.name = state.leader.name
            leader.hit_points = state.leader.hit_points
            leader.alive = state.leader.alive
        self._written(unit, after)
        told: list[HistoryEntry] = []
        if state.status != was:
            told = orders_follow_unit(unit, was, state.status, hour)
        entry = HistoryEntry(
            unit=unit, day=day, kind=kind, text=sentence(why, before, after), before=before,
            after=after, details=details or {}, actor=actor,
        )  # fmt: skip
        self.entries += [entry, *told]
        return entry

    def _written(self, unit: Unit, after: Mapping[str, Any]) -> None:
        self.units[unit.pk] = unit
        self.fields.update(name for name in after if name != "leader")

    def pending(self, unit: Unit) -> bool:
        """Whether an entry of ``unit``'s waits unsaved (`entries_write` before reading its
        history)."""
        return any(entry.unit_id == unit.pk for entry in self.entries)

    def entries_write(self) -> None:
        """Save the entries waiting, in the order they were made (their ids keep it)."""
        HistoryEntry.objects.bulk_create(self.entries)
        self.entries = []

    def write(self) -> None:
        """Store every unit changed, its leader row and that leader's character, and the
        entries: what `unit_change` stores one row at a time."""
        units = list(self.units.values())
        for unit in units:
            unit.version = new_version()
        if units:
            Unit.objects.bulk_update(units, sorted({*self.fields, "version"}))
        leaders = [u.leader for u in units if getattr(u, "leader", None) is not None]
        if leaders:
            Leader.objects.bulk_update(leaders, ["name", "hit_points", "alive"])
        characters = [
            Character(pk=leader.character_id, hit_points=leader.hit_points, alive=leader.alive)
            for leader in leaders
            if leader.character_id is not None
        ]
        if characters:
            # Each built with a fresh version token (`Versioned`).
            Character.objects.bulk_update(characters, ["hit_points", "alive", "version"])
        self.entries_write()
        self.units, self.fields = {}, set()


Made = TypeVar("Made", bound=Model)


def made_once(
    model: type[Made], request_key: uuid.UUID | None, owner: Any, owner_field: str
) -> Made | None:
    """The row ``owner``'s form with this one-time key made already (a double click, a resent
    POST), as a battle's launch finds its battle (`battles.queue.launched`); None for none. A
    key another user's form made is refused on the form."""
    try:
        return queue.launched(model, request_key=request_key, owner=owner, owner_field=owner_field)
    except BattleInputError as error:
        raise ValidationError(dict(error.errors)) from None


def campaign_made(request_key: uuid.UUID | None, gm: Any) -> Campaign | None:
    """The campaign ``gm``'s form with this key made already (`made_once`)."""
    return made_once(Campaign, request_key, gm, "gm")


def campaign_save_once(campaign: Campaign) -> Campaign:
    """Save a new campaign, unless the same request made it at the same moment: the first to
    insert its key wins and the other finds that campaign (the key's column is unique)."""
    try:
        with transaction.atomic():
            campaign.save()
    except IntegrityError:
        existing = campaign_made(campaign.request_key, campaign.gm)
        if existing is None:
            raise
        return existing
    return campaign


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


ORDER_PART = "order"
"""How a review's token marks an Order it showed done, by its unit ("order12:digest")."""


def review_token(
    units: Iterable[tuple[Any, CampaignUnitState]], shown: Any, orders: Iterable[Any] = ()
) -> str:
    """What a review read and showed, in short: each unit as it stood ("pk:digest"), each
    Order it showed done, by its unit ("order<unit pk>:digest", ``orders``), then the whole of
    what it showed (``shown``, plain data). The confirmation sends it back, and the action
    writes only if the review it would draw now is the same (`review_changed`)."""
    stood = [f"{unit.pk}:{_digest(state.to_json())}" for unit, state in units]
    ending = [
        f"{ORDER_PART}{o.unit_id}:{_digest([o.pk, o.kind, o.giver_id, o.finishes_at])}"
        for o in sorted(orders, key=lambda o: (o.unit_id, o.pk))
    ]
    return " ".join([*stood, *ending, _digest(shown)])


def review_changed(
    reviewed: Any,
    now: str,
    units: Iterable[Any],
    what: str,
    otherwise: str,
    orders: Iterable[Any] = (),
) -> list[str]:
    """Why the review sent back (``reviewed``, `review_token`) is no longer what the action
    would write (``now``): each of ``units`` that changed since, by name, in sentences, and
    each whose Order done (``orders``, as the action sees them now) is not the one the review
    showed, or ``otherwise`` for a change that names neither; an empty list when nothing
    changed."""
    if reviewed == now:
        return []
    seen, standing = (
        dict(part.split(":", 1) for part in str(token).split() if ":" in part)
        for token in (reviewed, now)
    )
    units = list(units)
    named = [
        f"{unit} has changed since you reviewed this {what}: review it again."
        for unit in units
        if seen.get(str(unit.pk), standing.get(str(unit.pk))) != standing.get(str(unit.pk))
    ]
    ending = {order.unit_id: order for order in orders}
    for unit in units:
        key = f"{ORDER_PART}{unit.pk}"
        if seen.get(key) != standing.get(key):
            named.append(order_changed_text(unit, ending.get(unit.pk), what))
    return named or [otherwise]


def order_changed_text(unit: Any, order: Any, what: str) -> str:
    """The Order of ``unit`` done by then (``order``, None for none) that a review of ``what``
    did not show, in a sentence, as its list of Orders done names one."""
    if order is None:
        return (
            f"The Order your review of this {what} showed {unit} finishing is no longer under "
            "way: review it again."
        )
    return (
        f"An Order your review of this {what} did not show would be done by then: "
        f"{order_done_text(unit, order.kind, order.giver.name)}. Review it again."
    )
