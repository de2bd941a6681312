"""What a GM's click will change, read only: the rules' pure functions run on what is stored,
nothing written. The clock's advance, a revert, the chain of reverts a blocked one needs, and an
undo. An outcome's review and a revert's sentences are the services' own computations run
without writing (`services.battles.outcome_review`, `services.reverts.revert_review`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q

from campaign.models import Campaign, CampaignBattle, Engagement, HistoryEntry, Order, Unit
from campaign.rules.history import undone_name
from campaign.rules.recovery import Passing, time_passes
from campaign.rules.state import SNAPSHOT_FIELDS, CampaignUnitState
from campaign.selectors.entries import StoryPage, history_standing
from campaign.selectors.roster import campaign_now, campaign_units
from units.words import and_words, possessive


def advance_passings(
    *, campaign: Campaign, hours: int
) -> list[tuple[Unit, CampaignUnitState, Passing]]:
    """(unit, before, passing) for everything the next ``hours`` on the clock do to the units,
    in the order it happens (`time_passes`, as the calendar's Advance and the Orders page's
    clock run it): ``before`` is the unit just before that passing."""
    found = []
    start = campaign_now(campaign)
    for unit in campaign_units(campaign=campaign).exclude(status="destroyed"):
        state = unit.state
        for passing in time_passes(state, start, start + hours):
            found.append((unit, state, passing))
            state = passing.state
    return sorted(found, key=lambda item: item[2].at)


STANDING = Q(replaced=False, called_off_at__isnull=True, ended_at__isnull=True)
"""Orders neither replaced, called off nor ended with their unit, at any hour."""


def orders_done(*, campaign: Campaign, start: int, end: int) -> list[Order]:
    """The Orders of the campaign done after clock hour ``start``, up to ``end``."""
    done = Order.objects.filter(
        STANDING, campaign=campaign, finishes_at__gt=start, finishes_at__lte=end
    )
    return list(done.select_related("unit", "giver"))


def orders_ahead(
    campaign: Campaign,
    passings: Iterable[tuple[Unit, CampaignUnitState, Passing]],
    start: int,
    end: int,
) -> list[Order]:
    """The Orders the clock's moving on from ``start`` to ``end`` will see done: those under
    way that finish by then, but for a unit the hours take out of action first (its Order
    ends with it, `ended_by`), as ``passings`` (`advance_passings`) foretell."""
    out: dict[int, int] = {}
    for unit, _, passing in sorted(passings, key=lambda row: row[2].at):
        if not passing.state.status.fights:
            out.setdefault(unit.pk, passing.at)
    done = orders_done(campaign=campaign, start=start, end=end)
    return [o for o in done if out.get(o.unit_id, o.finishes_at + 1) > o.finishes_at]


def advance_preview(
    passings: list[tuple[Unit, CampaignUnitState, Passing]],
) -> list[tuple[Unit, CampaignUnitState, CampaignUnitState]]:
    """(unit, now, after) for each unit the ``passings`` (`advance_passings`) change: the
    Casualty hits that die when a medical window closes, and R&R."""
    last: dict[int, tuple[Unit, CampaignUnitState]] = {}
    now: dict[int, CampaignUnitState] = {}
    for unit, before, passing in passings:
        now.setdefault(unit.pk, before)  # a unit's first passing starts from the unit as it is
        last[unit.pk] = (unit, passing.state)
    rows = [(unit, now[unit.pk], state) for unit, state in last.values() if state != now[unit.pk]]
    return sorted(rows, key=lambda row: (row[0].force.name, row[0].pk))


def revert_preview(
    *, applied_entries: Sequence[int]
) -> list[tuple[Unit, CampaignUnitState, CampaignUnitState]]:
    """(unit, now, after) for each unit an applied outcome (a battle's or an engagement's, its
    ``applied_entries``) changed, as Revert will leave it: every field its entries wrote goes
    back to what it was before them."""
    entries = list(
        HistoryEntry.objects.filter(pk__in=applied_entries)
        .select_related("unit__force", "unit__leader__character")
        .order_by("-pk")
    )
    states: dict[int, tuple[Unit, dict[str, Any]]] = {}
    for entry in entries:
        if entry.unit_id not in states:
            states[entry.unit_id] = (entry.unit, entry.unit.state.to_json())
        states[entry.unit_id][1].update(entry.before)
    return [
        (unit, unit.state, CampaignUnitState.from_json(snapshot))
        for unit, snapshot in sorted(states.values(), key=lambda s: (s[0].force.name, s[0].name))
    ]


def revert_blockers(*, applied_entries: Sequence[int]) -> list[tuple[Unit, list[HistoryEntry]]]:
    """The units a Revert of an applied outcome (a battle's or an engagement's, its
    ``applied_entries``) would refuse (`outcome_revert`: a field its entries wrote has changed
    since), each with the entries that still stand and changed it after the fight, oldest
    first: what the GM must undo first."""
    return [(unit, shown) for unit, shown, _ in _blockers_of([applied_entries])[0]]


def _blockers_of(
    groups: Sequence[Sequence[int]],
) -> list[list[tuple[Unit, list[HistoryEntry], list[HistoryEntry]]]]:
    """`revert_blockers` of several applied outcomes at once (``groups``, each one's
    ``applied_entries``), in two queries whatever their number and their units': for each, its
    blocked units, each with what it shows and with every entry of the unit that still stands
    after the outcome's last entry of it (`entries_after_fight`), oldest first."""
    wanted = {pk for group in groups for pk in group}
    read = HistoryEntry.objects.filter(pk__in=wanted).select_related(
        "unit__force", "unit__leader__character"
    )
    by_pk = {entry.pk: entry for entry in read}
    judged: list[dict[int, tuple[Unit, set[str], int, int]]] = []
    for group in groups:
        entries = sorted((by_pk[pk] for pk in group if pk in by_pk), key=lambda e: -e.pk)
        current = {entry.unit_id: entry.unit.state.to_json() for entry in entries}
        last = {}
        for entry in entries:
            last.setdefault(entry.unit_id, entry.pk)
        blocked: dict[int, tuple[Unit, set[str], int, int]] = {}
        for entry in entries:
            snapshot = current[entry.unit_id]
            changed = {
                name
                for name, value in entry.after.items()
                if name in SNAPSHOT_FIELDS and snapshot.get(name) != value
            }
            if changed:
                unit, fields, _, _ = blocked.get(entry.unit_id, (entry.unit, set(), 0, 0))
                blocked[entry.unit_id] = (unit, fields | changed, entry.pk, last[entry.unit_id])
            snapshot.update(entry.before)
        judged.append(blocked)
    units = {pk for blocked in judged for pk in blocked}
    since: dict[int, list[HistoryEntry]] = {pk: [] for pk in units}
    if units:
        first = min(f for blocked in judged for _, _, f, _ in blocked.values())
        for entry in history_standing().filter(unit_id__in=units, pk__gt=first).order_by("pk"):
            since[entry.unit_id].append(entry)
    found = []
    for group, blocked in zip(groups, judged, strict=True):
        mine = set(group)
        told = []
        for unit, fields, first, last in blocked.values():
            later = [e for e in since[unit.pk] if e.pk > first and e.pk not in mine]
            touching = [e for e in later if fields & set(e.after)]
            after = [e for e in since[unit.pk] if e.pk > last]
            told.append((unit, touching or later, after))
        found.append(sorted(told, key=lambda item: (item[0].force.name, item[0].name)))
    return found


@dataclass(frozen=True)
class RevertStep:
    """One thing the GM undoes, in turn, before a fight in the way of a revert can be reverted
    (`revert_chain`)."""

    text: str
    """In the campaign's words, what, which unit, which day: "undo the GM's correction of day 5
    on MG Nest's page", "revert Night at the Ford, of day 4", "correct MG Nest (Red Company)
    over its R&R of day 5"."""
    newest: int
    """The newest entry it takes back: the steps are taken newest first."""
    fight: str = ""
    """The name of the fight it reverts; "" for an Undo or a correction."""


def revert_chain(
    *,
    campaign: Campaign,
    entries: Iterable[HistoryEntry],
    fights: list[CampaignBattle | Engagement] | None = None,
) -> dict[int, list[RevertStep]]:
    """What reverting the fights ``entries`` belong to (those of a battle's applied outcome or of
    an applied engagement: the entries in the way of another revert, or of an Undo) takes, by
    entry: the whole chain the GM goes through, newest first, ending with that fight's own
    Revert — each unit it changed that changed again since undone in turn, as a revert
    refusal says it (`pages.reverts.revert_blocked_lines`): a fight by its Revert (and what
    holds that up, in turn), the unit's own Undo of each other entry after the fight when every
    one of them has one, else a correction. Only its own Revert for a fight nothing holds up. Two
    queries for the campaign's fights, and two a step down the chain, whatever the number of
    fights and units (``fights``: the campaign's applied fights, when read already)."""
    fights = fights_applied(campaign) if fights is None else fights
    owner = {pk: fight for fight in fights for pk in fight.applied_entries}
    key = {fight: index for index, fight in enumerate(fights)}
    direct: dict[int, list[RevertStep | int]] = {}  # by fight: its steps, a fight by its key
    pending = list(dict.fromkeys(owner[e.pk] for e in entries if e.pk in owner))
    while pending:
        for fight in pending:
            direct[key[fight]] = []
        blockers = _blockers_of([fight.applied_entries for fight in pending])
        for fight, units in zip(pending, blockers, strict=True):
            steps = direct[key[fight]]
            for unit, shown, since in units:
                undone = [e for e in shown if e.pk not in owner]
                if undone and not any(undo_refused(e) for e in since if e.pk not in owner):
                    # Each in turn, newest first: a fight's by its Revert, the rest by Undo.
                    steps += [
                        key[owner[e.pk]] if e.pk in owner else undo_step(e, unit) for e in since
                    ]
                    continue
                steps += list(dict.fromkeys(key[owner[e.pk]] for e in shown if e.pk in owner))
                if undone or not shown:
                    # Corrected since with no entry standing: before this fight's Revert.
                    floor = max(fight.applied_entries, default=0) + 1
                    steps.append(_correct_step(unit, undone, floor))
        pending = [
            fights[k]
            for k in dict.fromkeys(
                step for steps in direct.values() for step in steps if isinstance(step, int)
            )
            if k not in direct
        ]

    def before(k: int, seen: frozenset[int]) -> dict[str, RevertStep]:
        told: dict[str, RevertStep] = {}
        for step in direct.get(k, []):
            if isinstance(step, RevertStep):
                told.setdefault(step.text, step)
            elif step not in seen:
                told.update(before(step, seen | {step}))
                told.setdefault(*_revert_step(fights[step]))
        return told

    chains = {}
    for entry in entries:
        if entry.pk in owner:
            k = key[owner[entry.pk]]
            told = before(k, frozenset({k}))
            told.setdefault(*_revert_step(fights[k]))
            chains[entry.pk] = sorted(told.values(), key=lambda step: -step.newest)
    return chains


def undo_step(entry: HistoryEntry, unit: Unit) -> RevertStep:
    what = undone_name(entry.undo_kind, entry.day)
    return RevertStep(f"undo {what} on {possessive(unit.name)} page", entry.pk)


def _correct_step(unit: Unit, kept: list[HistoryEntry], floor: int) -> RevertStep:
    over = and_words(
        list(dict.fromkeys(f"{HistoryEntry.Kind(e.kind).label} of day {e.day}" for e in kept))
    )
    text = f"correct {unit.name} ({unit.force.name})" + (f" over its {over}" if over else "")
    return RevertStep(text, max((e.pk for e in kept), default=floor))


def _revert_step(fight: CampaignBattle | Engagement) -> tuple[str, RevertStep]:
    text = f"revert {fight.name}, of day {fight.day}"
    return text, RevertStep(text, max(fight.applied_entries, default=0), fight.name)


def fights_applied(campaign: Campaign) -> list[CampaignBattle | Engagement]:
    """The campaign's applied fights, battles and engagements, with what they wrote."""
    return [
        *CampaignBattle.objects.filter(campaign=campaign, state=CampaignBattle.State.APPLIED)
        .only("name", "day", "applied_entries"),
        *Engagement.objects.filter(campaign=campaign, state=Engagement.State.APPLIED)
        .only("name", "day", "applied_entries"),
    ]  # fmt: skip


UNDO_KINDS = (
    HistoryEntry.Kind.GM_EDIT,
    HistoryEntry.Kind.MEDICAL,
    HistoryEntry.Kind.TRAINING,
    HistoryEntry.Kind.RECOVERY,
    HistoryEntry.Kind.DEPLOYMENT,
    HistoryEntry.Kind.LEADER,
)
"""The kinds of entry a unit's own Undo takes back (`services.reverts.entry_undo`): each keeps
every field it changed as it was before (its ``before``; a move to another force, the force it
left, `HistoryEntry.moved`; a change of leader, the character who led it), and what else it
weighs on (the medics' day, a Strategist's rally of the day) counts only the work that still
stands (`history_standing`)."""


def undo_refused(entry: HistoryEntry) -> str:
    """Why ``entry`` has no Undo of its own, whatever came after it; "" when it has one
    (`UNDO_KINDS`)."""
    kind = HistoryEntry.Kind
    if entry.kind in (*HistoryEntry.FIGHTS, kind.EXPERIENCE):
        return "a fight is undone by reverting it, on its own page"
    if entry.kind == kind.RECOVERY and "rallied_by" not in entry.details:
        return "a day of R&R came with the clock, which does not go back: correct the unit instead"
    if entry.kind == kind.CREATED:
        return (
            "a unit raised by mistake is struck off its force's roster instead, while it has "
            "done nothing in the story"
        )
    if entry.kind == kind.ORDER:
        return "an Order is called off or replaced on the Orders page, which tells it here too"
    if entry.leader_named:
        return (
            "a heal of its leader is the character's own, in their history too: correct the "
            "unit instead"
        )
    if entry.kind not in UNDO_KINDS:
        label = kind(entry.kind).label if entry.kind in kind.values else entry.kind
        return f"a {label} entry has no Undo: correct the unit instead"
    if not entry.after and entry.moved is None:
        # Saved before a move kept the forces it left and joined: nothing says where back is.
        return "a move to another force is undone by moving the unit back"
    return ""


def undo_blockers(*, entry: HistoryEntry) -> list[HistoryEntry]:
    """The unit's entries after ``entry`` that still stand (`history_standing`), oldest first:
    what an Undo of it would be undoing too, so it is refused until they are undone."""
    later = history_standing().filter(unit_id=entry.unit_id, pk__gt=entry.pk)
    return list(later.order_by("pk"))


def entries_after_fight(*, unit: Unit, applied_entries: Sequence[int]) -> list[HistoryEntry]:
    """The unit's entries that still stand after its last of ``applied_entries`` (a fight's
    applied outcome), oldest first (`history_standing`)."""
    mine = HistoryEntry.objects.filter(pk__in=applied_entries, unit=unit)
    last = mine.aggregate(last=Max("pk"))["last"] or 0
    return list(history_standing().filter(unit=unit, pk__gt=last).order_by("pk"))


def undo_offered(*, unit: Unit, page: StoryPage | None = None) -> HistoryEntry | None:
    """The entry the unit's Undo would take back: its latest entry that still stands, when that
    has an Undo (`undo_refused`); else None. Read from ``page`` (`unit_story`) when it is the
    latest page and holds one, with no query."""
    latest = None
    if page is not None and page.later is None:
        kept = (e for e in page.entries if e.kind not in HistoryEntry.ASIDE)
        latest = next((e for e in reversed(list(kept)) if e.pk not in page.reverted), None)
    if latest is None:
        latest = history_standing().filter(unit=unit).order_by("-pk").first()
    return latest if latest is not None and not undo_refused(latest) else None


def undo_preview(*, entry: HistoryEntry) -> list[tuple[Unit, CampaignUnitState, CampaignUnitState]]:
    """(unit, now, after) for the unit ``entry`` changed, as its Undo will leave it: every
    field it wrote back to what it was before it."""
    unit = entry.unit
    after = CampaignUnitState.from_json({**unit.state.to_json(), **entry.before})
    return [(unit, unit.state, after)]


def undone_by_revert(
    *,
    campaign: Campaign,
    entries: list[HistoryEntry],
    fights: list[CampaignBattle | Engagement] | None = None,
) -> dict[int, str]:
    """Which of ``entries`` the site can undo, by entry id, each with what undoes it in words
    ("Revert Ford Assault"): the entries of a battle's applied outcome or of an applied
    engagement, which their own Revert undoes. Any other entry is undone by the unit's own
    Undo, if at all (`undo_refused`, `pages.reverts.revert_blocked`), or the unit is corrected
    instead. ``fights``: the campaign's applied fights (`fights_applied`), when read already."""
    wanted = {entry.pk for entry in entries}
    if not wanted:
        return {}
    fights = fights_applied(campaign) if fights is None else fights
    return {
        pk: f"revert {fight.name}"
        for fight in fights
        for pk in fight.applied_entries
        if pk in wanted
    }


def applied_changes(
    *, campaign_battle: CampaignBattle
) -> list[tuple[Unit, CampaignUnitState, CampaignUnitState]]:
    """(unit, before, after) for each unit the latest application of the outcome changed,
    from its history entries: the summary after Apply."""
    return entries_changes(outcome_entries(campaign_battle=campaign_battle))


def outcome_entries(*, campaign_battle: CampaignBattle) -> list[HistoryEntry]:
    """The history entries the latest application of the outcome wrote, in order."""
    found = HistoryEntry.objects.filter(pk__in=campaign_battle.applied_entries)
    return list(found.select_related("unit__force", "unit__leader__character").order_by("pk"))


def revert_entries(*, applied: Iterable[int]) -> list[HistoryEntry]:
    """The history entries that undid the ``applied`` ones (a battle's outcome, an
    engagement), in order, with who wrote them: the first keeps who reverted, when and why."""
    found = HistoryEntry.objects.filter(reverts__pk__in=list(applied))
    found = found.select_related("unit__force", "unit__leader__character", "actor")
    return list(found.order_by("pk"))


def entries_changes(
    entries: list[HistoryEntry],
) -> list[tuple[Unit, CampaignUnitState, CampaignUnitState]]:
    """(unit, before, after) per unit from history entries written together (in order): each
    unit as it was just before them and just after, whatever befell it since."""
    found: dict[int, tuple[Unit, dict[str, Any], dict[str, Any]]] = {}
    last: dict[int, int] = {}
    for entry in entries:
        unit = entry.unit
        if unit.pk not in found:
            found[unit.pk] = (unit, {}, {})
        _, before, after = found[unit.pk]
        for field, value in entry.before.items():
            before.setdefault(field, value)
        after.update(entry.after)
        last[unit.pk] = max(entry.pk, last.get(unit.pk, 0))
    since = _undone_since(last)
    rows = []
    for unit, before, after in found.values():
        end = {**unit.state.to_json(), **since.get(unit.pk, {})}
        rows.append(
            (
                unit,
                CampaignUnitState.from_json({**end, **after, **before}),
                CampaignUnitState.from_json({**end, **after}),
            )
        )
    return sorted(rows, key=lambda r: (r[0].force.name, r[0].name))


def _undone_since(last: dict[int, int]) -> dict[int, dict[str, Any]]:
    """Per unit, the fields the entries after its entry ``last[unit]`` changed, as they were
    before them: laid over the unit as it is now, the unit just after that entry."""
    if not last:
        return {}
    later = (
        HistoryEntry.objects.filter(unit_id__in=list(last), pk__gt=min(last.values()))
        .order_by("-pk")
        .values_list("unit_id", "pk", "before")
    )
    undone: dict[int, dict[str, Any]] = {}
    for unit_id, pk, before in later:
        if pk > last[unit_id]:
            undone.setdefault(unit_id, {}).update(before)  # newest first: the oldest wins
    return undone
