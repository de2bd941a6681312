"""Reads: who may do what in a campaign, rosters, a unit's history explained, and what a member
sees of a battle under fog of war."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KT

from battles.engine import ScenarioError, canonical_json, parse_scenario
from battles.fog import hidden_events, seed_withheld_json
from battles.models import BattleLog
from battles.report import unit_sides
from battles.selectors import log_events
from campaign.keys import key_named
from campaign.models import (
    Campaign,
    CampaignBattle,
    Character,
    Engagement,
    Force,
    HistoryEntry,
    Invitation,
    Leader,
    Membership,
    Order,
    StoryEntry,
    Unit,
)
from campaign.rules.history import (
    HITS_FIELDS,
    out_cold_text,
    possessive,
    sentence,
    undone_name,
    undone_text,
)
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import Passing, crews_left, medical_capacity, time_passes
from campaign.rules.state import (
    SNAPSHOT_FIELDS,
    CampaignUnitState,
    Status,
    can_act,
    snapshot_diff,
    snapshot_replay,
)
from units.bucs import Quality
from units.models import UnitType
from units.words import and_words

GM = "gm"
"""The role of the campaign's own GM (not a membership: it is `Campaign.gm`)."""
MANAGING_ROLES = frozenset({GM, Membership.Role.CO_GM})


def campaign_role(*, campaign: Campaign, user: Any) -> str | None:
    """The user's role in the campaign: gm, co_gm, player, spectator, or None.

    The one answer to "who is this user here", for views, services and templates alike. A
    membership is the role its holder chose, for the site's superusers too (a superuser who plays
    or watches sees the campaign as a player or spectator does, fog of war included); a superuser
    with no part in the campaign counts as its GM, since superusers run the site.
    """
    if user is None or not user.is_authenticated:
        return None
    if campaign.gm_id == user.pk:
        return GM
    role = (
        Membership.objects.filter(campaign=campaign, user=user).values_list("role", flat=True)
    ).first()
    if role is None and user.is_superuser and user.is_active:
        return GM
    return role


def forces_the_gm_plays(campaign: Campaign) -> QuerySet[Force]:
    """The forces the campaign's GM plays themselves (an opposing force, say): theirs and held
    for no one invited (an import's forces for an invitee wait with the GM until they join)."""
    return campaign.forces.filter(owner_id=campaign.gm_id, held_for__isnull=True)


def _still_held() -> tuple[Q, Q]:
    """What of an invitation's forces and characters still waits for its invitee: a force
    its campaign's GM still holds, a character nobody plays yet (a force the GM gave someone
    since, or a character given a player, no longer waits for them)."""
    return Q(owner_id=F("campaign__gm_id")), Q(player__isnull=True)


def invitation_holds(invitation: Invitation) -> tuple[QuerySet[Force], QuerySet[Character]]:
    """What accepting ``invitation`` in a player's or a co-GM's role hands over (`_still_held`)."""
    forces, characters = _still_held()
    return invitation.forces.filter(forces), invitation.characters.filter(characters)


def with_holdings(invitations: QuerySet[Invitation]) -> QuerySet[Invitation]:
    """``invitations``, each with what accepting it hands over (`invitation_holds`) read for
    all at once, by name: its ``held`` forces and ``unplayed`` characters. What a page says an
    invitation brings is read so, never from all it was given: the GM may have given a force,
    or a character a player, since."""
    forces, characters = _still_held()
    return invitations.prefetch_related(
        Prefetch("forces", Force.objects.filter(forces).order_by("name"), to_attr="held"),
        Prefetch(
            "characters",
            Character.objects.filter(characters).order_by("name"),
            to_attr="unplayed",
        ),
    )


def invitations_holding(campaign: Campaign) -> list[Invitation]:
    """The campaign's invitations waiting, by invitee, each with what accepting it hands over
    (`with_holdings`)."""
    return list(with_holdings(campaign.invitations.order_by("invitee")))


def may_give_orders(*, role: str | None, owns: bool) -> bool:
    """The GM and co-GMs give any unit an Order; a player the units of a force they own (with
    their own characters, `services.orders.order_give`); nobody else."""
    return role in MANAGING_ROLES or (role == Membership.Role.PLAYER and owns)


OUT_COLD_DOES = {
    "order": "gives no Orders",
    "train": "trains nobody",
    "heal": "heals no Morale hits",
}
"""What a dying character does not do, by `command_refused`'s ``does``."""


def command_refused(*, character: Character, unit: Unit, does: str) -> str | None:
    """Why ``character`` may not give ``unit`` an Order, train it or heal its Morale hits
    (``does``: "order", "train", "heal"), if it may not. A player's character acts for its player's
    side: the units of the forces its player owns, as the player's own Orders form offers them,
    and the unit it leads, wherever the GM put it at the head; so it never works for another
    player's side. An NPC is the GM's, who gives any unit an Order: an NPC officer's Order to a
    player's unit stands until the GM replaces it (`services.orders.order_give`). A dying
    character does none of it until healed (`state.can_act`)."""
    if character.alive and not can_act(character.hit_points):
        return out_cold_text(character.name, character.hit_points, OUT_COLD_DOES[does])
    player = character.player
    if player is None or unit.force.owner_id == player.pk:
        return None
    if Leader.objects.filter(unit=unit, character=character).exists():
        return None
    return (
        f"{character} is {possessive(str(player))} character: they {does} the units of "
        f"{possessive(str(player))} forces and "
        f"the unit they lead, not {unit} of {unit.force}"
    )


def may_call_off(*, role: str | None, owns: bool, gave: bool) -> bool:
    """The GM and co-GMs call off any Order under way; a player one a character of theirs
    (``gave``) gave a unit of a force they own."""
    return role in MANAGING_ROLES or (may_give_orders(role=role, owns=owns) and gave)


def campaign_can_manage(*, campaign: Campaign, user: Any) -> bool:
    """The GM and co-GMs run the campaign: calendar, battles, corrections."""
    return campaign_role(campaign=campaign, user=user) in MANAGING_ROLES


def campaigns_for_user(*, user: Any) -> QuerySet[Campaign]:
    """Every campaign the user runs or belongs to."""
    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(Q(gm=user) | Q(memberships__user=user)).distinct()


def campaigns_managed_by(*, user: Any) -> QuerySet[Campaign]:
    """Every campaign the user runs, as its GM or a co-GM (`campaign_can_manage`): those whose
    battles they set up. A superuser runs those they have no other part in."""
    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    if user.is_superuser and user.is_active:
        playing = Membership.objects.filter(user=user).exclude(role=Membership.Role.CO_GM)
        return Campaign.objects.exclude(pk__in=playing.values("campaign"))
    co_gm = Q(memberships__user=user, memberships__role=Membership.Role.CO_GM)
    return Campaign.objects.filter(Q(gm=user) | co_gm).distinct()


def force_can_edit(*, force: Force, user: Any) -> bool:
    """A force's owner looks after it; the GM and co-GMs may touch any force."""
    if user is not None and user.is_authenticated and force.owner_id == user.pk:
        return True
    return campaign_can_manage(campaign=force.campaign, user=user)


def force_roster(*, force: Force) -> QuerySet[Unit]:
    """The force's units with what a roster line shows, in roster order."""
    return force.units.select_related("unit_type", "leader").order_by("id")


def campaign_now(campaign: Campaign) -> int:
    """The campaign clock's reading: hours since day 1, 00:00 (of the campaign as given)."""
    return clock_hour(campaign.day, campaign.hour)


def campaign_units(*, campaign: Campaign) -> QuerySet[Unit]:
    return (
        Unit.objects.filter(force__campaign=campaign)
        .select_related("force", "unit_type", "leader__character")
        .order_by("force__name", "id")
    )


def unit_history(*, unit: Unit) -> QuerySet[HistoryEntry]:
    """The unit's history, oldest first."""
    return unit.history.select_related("battle", "actor").order_by("id")


UNIT_STORY_PAGE = 100
"""History entries on one page of a unit's history (`unit_story`)."""


@dataclass(frozen=True)
class StoryPage:
    """One page of a unit's history: entries oldest first, and where the others are."""

    entries: list[HistoryEntry]
    reverted: set[int]
    """The ids of its entries undone since."""
    homes: dict[int, int]
    """The campaign battle each of its entries came from, by entry id (`entry_battles`)."""
    names: dict[int, str]
    """The names of those campaign battles."""
    was: dict[str, Any]
    """The unit's status and hits before the page's first entry (what its sentences read)."""
    first: int
    """The number of its first entry in the whole history (1 for the unit's raising)."""
    total: int
    """Entries in the whole history."""
    earlier: int | None
    """The ``before`` of the page of entries before these, if any."""
    later: int | None
    """The ``before`` of the page of entries after these: 0 for the latest page, None if this
    is the latest."""
    engagements: dict[int, int]
    """The engagement each of its entries came from, by entry id (`entry_engagements`)."""

    @property
    def last(self) -> int:
        """The number of its last entry in the whole history."""
        return self.first + len(self.entries) - 1


def entry_battles(
    *, entries: list[HistoryEntry], known: Iterable[CampaignBattle] = ()
) -> tuple[dict[int, int], dict[int, str]]:
    """The campaign battle each of ``entries`` came from, by entry id, and those battles' names
    by their id. An engine battle's entries name it; a table battle has no engine battle, so
    its entries are known by its record (`CampaignBattle.table_entries`, every application's).
    ``known``: battles already read, asked for no more."""
    homes: dict[int, int] = {}
    names: dict[int, str] = {}
    by_battle: dict[int, list[int]] = {}
    for entry in entries:
        if entry.battle_id is not None:
            by_battle.setdefault(entry.battle_id, []).append(entry.pk)
    at_table = {entry.pk for entry in entries if entry.battle_id is None}

    def found(battles: Iterable[CampaignBattle]) -> None:
        for cb in battles:
            if cb.battle_id is not None:
                came = by_battle.get(cb.battle_id, [])
            else:
                came = [entry_pk for entry_pk in cb.table_entries if entry_pk in at_table]
            for entry_pk in came:
                homes[entry_pk], names[cb.pk] = cb.pk, cb.name

    found(known)
    rest = [e for e in entries if e.pk not in homes]
    battle_ids = {e.battle_id for e in rest if e.battle_id is not None}
    if battle_ids:
        engine = CampaignBattle.objects.filter(battle_id__in=battle_ids)
        found(engine.only("pk", "name", "battle_id"))
    unlinked = [e for e in rest if e.battle_id is None and e.kind in TABLE_BATTLE_KINDS]
    if unlinked:
        campaigns = Unit.objects.filter(history__in=unlinked).values("force__campaign_id")
        tables = CampaignBattle.objects.filter(
            battle__isnull=True, campaign__in=campaigns, day__in={e.day for e in unlinked}
        )
        found(tables.only("pk", "name", "battle_id", "applied_entries", "earlier_entries"))
    return homes, names


TABLE_BATTLE_KINDS = (HistoryEntry.Kind.BATTLE, HistoryEntry.Kind.EXPERIENCE)
"""The kinds of entry a battle's outcome writes (`outcome_apply`)."""


def unit_story(*, unit: Unit, before: int | None = None, size: int = UNIT_STORY_PAGE) -> StoryPage:
    """The page of the unit's history ending just before entry ``before`` (the latest page
    when None): at most ``size`` entries, oldest first, without the battles' scenarios. Its
    queries read the page's entries and a row or two besides, however long the history."""
    history = unit.history.all()
    newest = history.order_by("-id")
    if before is not None:
        newest = newest.filter(pk__lt=before)
    entries = list(newest.select_related("actor")[: size + 1])[::-1]
    earlier = None
    if len(entries) > size:
        entries = entries[1:]
        earlier = entries[0].pk
    later = None
    if before is not None:
        after = list(history.filter(pk__gte=before).order_by("id").values_list("id", flat=True)[
            size : size + 1
        ])  # fmt: skip
        later = after[0] if after else 0
    first_pk = entries[0].pk if entries else 0
    counts = history.aggregate(total=Count("id"), ahead=Count("id", filter=Q(pk__lt=first_pk)))
    reverted = entries_undone(entries=entries)
    homes, names = entry_battles(entries=entries)
    engagements = entry_engagements(unit=unit, entries=entries)
    was = {}
    if earlier is not None:
        was = units_state_before(before={unit.pk: first_pk}, fields=STORY_FIELDS)
        was = was.get(unit.pk, {})
    return StoryPage(
        entries=entries,
        reverted=reverted,
        homes=homes,
        names=names,
        was=was,
        first=counts["ahead"] + 1,
        total=counts["total"],
        earlier=earlier,
        later=later,
        engagements=engagements,
    )


def entry_engagements(*, unit: Unit, entries: list[HistoryEntry]) -> dict[int, int]:
    """The engagement of the unit's campaign each of ``entries`` came from, by entry id: its
    entries name it in their working. A force brought in from another campaign left the link
    behind, and one that names no engagement of this campaign leads nowhere."""
    named = {
        entry.pk: fight
        for entry in entries
        if entry.kind in (HistoryEntry.Kind.ENGAGEMENT, HistoryEntry.Kind.EXPERIENCE)
        and isinstance(fight := entry.details.get("engagement"), int)
    }
    if not named:
        return {}
    held = set(
        Engagement.objects.filter(
            pk__in=set(named.values()), campaign__forces__pk=unit.force_id
        ).values_list("pk", flat=True)
    )
    return {pk: fight for pk, fight in named.items() if fight in held}


def unit_chart_entries(*, unit: Unit, fields: tuple[str, ...]) -> list[tuple[int, dict]]:
    """The unit's history as its charts need it, ``(day, after)`` oldest first, reduced in the
    database to the entries that end a day for one of ``fields`` (the last of each day to set
    it), and its first entry (the day it was raised): at most a few rows a campaign day,
    however many entries a day holds. Charted at the end of each day, they draw the same."""
    history = HistoryEntry.objects.filter(unit=unit)
    last_of_day = Q()
    for field in fields:
        last_of_day |= Q(
            pk__in=history.filter(after__has_key=field)
            .order_by()
            .values("day")
            .annotate(last=Max("id"))
            .values("last")
        )
    first = history.order_by("id").values("id")[:1]
    return list(
        history.filter(last_of_day | Q(pk__in=first)).order_by("id").values_list("day", "after")
    )


STORY_FIELDS = ("status", *HITS_FIELDS)
"""What a history sentence reads of the unit beyond its entry (`story_text`, `revert_text`)."""


def units_state_before(
    *, before: dict[int, int], fields: tuple[str, ...]
) -> dict[int, dict[str, Any]]:
    """What each unit's snapshot held in ``fields`` just before an entry (``before`` maps
    units to entry ids): for each field, the value the last entry before it that set the field
    gave (an entry keeps only the fields it changed). Read in the database: one row per unit,
    however long its history."""
    if not before:
        return {}

    def last(field: str) -> Subquery:
        return Subquery(
            HistoryEntry.objects.filter(
                unit=OuterRef("pk"), pk__lt=OuterRef("before_id"), after__has_key=field
            )
            .order_by("-id")
            .annotate(value=KT(f"after__{field}"))
            .values("value")[:1]
        )

    rows = (
        Unit.objects.filter(pk__in=before)
        .annotate(before_id=Case(*(When(pk=unit, then=Value(pk)) for unit, pk in before.items())))
        .annotate(**{f"was_{field}": last(field) for field in fields})
        .values_list("pk", *(f"was_{field}" for field in fields))
    )
    state: dict[int, dict[str, Any]] = {}
    for pk, *values in rows:
        state[pk] = {
            field: int(value) if field in HITS_FIELDS else value
            for field, value in zip(fields, values, strict=True)
            if value is not None
        }
    return state


def entries_undone(*, entries: list[HistoryEntry]) -> set[int]:
    """The ids of ``entries`` that a revert has undone since (a revert entry names them)."""
    if not entries:
        return set()
    return set(
        HistoryEntry.objects.filter(reverts_id__in=[e.pk for e in entries]).values_list(
            "reverts_id", flat=True
        )
    )


def entries_carrying(*, entries: list[HistoryEntry]) -> dict[int, dict[str, Any]]:
    """What each unit carried after each of ``entries`` (by entry id): its Morale and Casualty
    hits then, since an entry keeps only the fields it changed. Only the units whose entries
    change hits are read, and only their hits: what each carried before its first of
    ``entries`` (a row a unit), then its entries from its first of ``entries`` to its last.
    An entry of experience carries the quality the unit stood at, so its points are said
    toward the next step, and one that changed nothing (points held just short of a step it
    stood at already) the experience the unit holds (`entries_experience_held`)."""
    found = _entries_hits(entries)
    for pk, held in entries_experience_held(entries=entries).items():
        found[pk] = {**found.get(pk, {}), **held}
    return found


def _last_set(field: str) -> Subquery:
    """The value of ``field`` the last entry of the outer entry's unit before it set."""
    return Subquery(
        HistoryEntry.objects.filter(
            unit=OuterRef("unit"), pk__lt=OuterRef("pk"), after__has_key=field
        )
        .order_by("-id")
        .annotate(value=KT(f"after__{field}"))
        .values("value")[:1]
    )


def with_standing(entries: QuerySet[HistoryEntry]) -> QuerySet[HistoryEntry]:
    """``entries`` each read with the quality its unit's history last set before it
    (``quality_before``, a word, None if none did) and the experience (``experience_before``),
    so a list of them says each experience line toward its next step with no query of its own
    (`entries_experience_held`)."""
    return entries.annotate(
        quality_before=_last_set("quality"), experience_before=_last_set("experience")
    )


def entries_experience_held(*, entries: list[HistoryEntry]) -> dict[int, dict[str, Any]]:
    """By entry id, for each entry among ``entries`` of experience, or that sets a unit's
    experience, and does not set its quality: the ``quality`` the unit stood at, the last its
    history set before it (the unit's own if none did); and for one that changed nothing
    (points held just short of a step it stood at already), the ``experience`` it leaves the
    unit holding, the last its history set before it; that ``experience`` alone for one that
    took it a step up and left its points as they were. Entries read `with_standing` need no
    query; one query for the others, and none when there is no such entry."""
    wanted = [
        e
        for e in entries
        if (e.kind == HistoryEntry.Kind.EXPERIENCE or "experience" in e.after)
        and ("quality" not in e.after or _rose_as_it_was(e))
    ]
    standing = {
        e.pk: (e.experience_before, e.quality_before, e.unit.quality)
        for e in wanted
        if hasattr(e, "quality_before")
    }
    unread = [e.pk for e in wanted if e.pk not in standing]
    if unread:
        rows = (
            HistoryEntry.objects.filter(pk__in=unread)
            .annotate(held=_last_set("experience"), stood=_last_set("quality"))
            .values_list("pk", "held", "stood", "unit__quality")
        )
        standing.update((pk, rest) for pk, *rest in rows)
    found: dict[int, dict[str, Any]] = {}
    for e in wanted:
        held, stood, own = standing[e.pk]
        if _rose_as_it_was(e):
            # Its quality is its own; the points it left as they were count toward the next.
            found[e.pk] = {"experience": int(held or 0)}
            continue
        found[e.pk] = {"quality": Quality.of_word(stood) if stood else Quality(own)}
        if e.kind == HistoryEntry.Kind.EXPERIENCE and not e.after:
            found[e.pk]["experience"] = int(held or 0)
    return found


def _rose_as_it_was(entry: HistoryEntry) -> bool:
    """An entry of experience that took its unit a step up and left its points as they were
    (Green at 1 of 2 earns 2: Inexperienced, 1 left over): its sentence says the points it
    holds, which its fields do not (`history.story_text`)."""
    return (
        entry.kind == HistoryEntry.Kind.EXPERIENCE
        and "quality" in entry.after
        and "experience" not in entry.after
    )


def _entries_hits(entries: list[HistoryEntry]) -> dict[int, dict[str, int]]:
    """The hits of `entries_carrying`."""
    units = {e.unit_id for e in entries if any(f in e.after for f in HITS_FIELDS)}
    if not units:
        return {}
    wanted = {e.pk for e in entries}
    spans: dict[int, tuple[int, int]] = {}
    for e in entries:
        if e.unit_id in units:
            low, high = spans.get(e.unit_id, (e.pk, e.pk))
            spans[e.unit_id] = (min(low, e.pk), max(high, e.pk))
    was = units_state_before(
        before={unit: low for unit, (low, _) in spans.items()}, fields=HITS_FIELDS
    )
    # Each unit's entries from its first of ``entries`` to its last, not the whole campaign's
    # between them: an import writes a unit's history all at once.
    within = Q()
    for unit, (low, high) in spans.items():
        within |= Q(unit_id=unit, pk__gte=low, pk__lte=high)
    rows = (
        HistoryEntry.objects.filter(within)
        .order_by("id")
        .annotate(**{f: KT(f"after__{f}") for f in HITS_FIELDS})
        .values_list("pk", "unit_id", *HITS_FIELDS)
    )
    now: dict[int, dict[str, int]] = {
        unit: {**dict.fromkeys(HITS_FIELDS, 0), **was.get(unit, {})} for unit in units
    }
    found = {}
    for pk, unit_id, *hits in rows:
        carried = now[unit_id]
        carried.update({f: int(v) for f, v in zip(HITS_FIELDS, hits, strict=True) if v is not None})
        if pk in wanted:
            found[pk] = dict(carried)
    return found


@dataclass(frozen=True)
class CharacterLine:
    """One character of the campaign as its Characters page lists it: one of its own
    (`Character`), or a leader named with its unit only (no feats, no player)."""

    name: str
    player: Any
    """The member who plays it; None for an NPC."""
    hit_points: int
    max_hit_points: int | None
    """Full hit points; None for a leader named with its unit (never recorded)."""
    alive: bool
    feats: list[str]
    unit: Unit | None
    """The unit it leads, if any."""
    named_on_unit: bool = False
    """A leader named with its unit (when raised, or on its page), not one of the campaign's
    characters."""

    @property
    def dying(self) -> bool:
        """Alive but out cold (`state.can_act`): it leads, orders, trains, rallies and
        requisitions nothing until healed."""
        return self.alive and not can_act(self.hit_points)


def leader_most_hit_points(leader: Leader) -> int | None:
    """The most hit points a leader may have: its character's full hit points; None for a
    leader named with its unit (never recorded)."""
    return None if leader.character_id is None else leader.character.max_hit_points


def campaign_characters(*, campaign: Campaign) -> list[CharacterLine]:
    """Every character of the campaign by name: its own characters, each with the unit it leads,
    and the leaders named with a unit without being one of them (a leader is a d20
    character too, whichever way it took command)."""
    leaders = Leader.objects.filter(unit__force__campaign=campaign).select_related("unit__force")
    leading = {leader.character_id: leader.unit for leader in leaders if leader.character_id}
    lines = [
        CharacterLine(
            c.name,
            c.player,
            c.hit_points,
            c.max_hit_points,
            c.alive,
            list(c.feats),
            leading.get(c.pk),
        )
        for c in campaign.characters.select_related("player")
    ]
    lines += [
        CharacterLine(
            leader.name,
            None,
            leader.hit_points,
            None,
            leader.alive,
            [],
            leader.unit,
            named_on_unit=True,
        )
        for leader in leaders
        if leader.character_id is None
    ]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.named_on_unit))


def unit_snapshot(*, unit: Unit) -> dict[str, Any]:
    """The unit's recorded fields as its history stores them."""
    return unit.state.to_json()


def unit_history_replay(*, unit: Unit) -> dict[str, Any]:
    """The snapshot its history arrives at: every entry's `after`, in order."""
    return snapshot_replay(unit_history(unit=unit).values_list("after", flat=True))


def unit_history_explains(*, unit: Unit) -> bool:
    """Whether replaying the unit's history arrives exactly at its current state."""
    return unit_history_replay(unit=unit) == unit_snapshot(unit=unit)


def units_joined(*, units: Iterable[Unit]) -> dict[int, int]:
    """The campaign day each unit joined it (its first "created" entry), by pk."""
    joined: dict[int, int] = {}
    entries = HistoryEntry.objects.filter(unit__in=list(units), kind=HistoryEntry.Kind.CREATED)
    for pk, day in entries.order_by("id").values_list("unit_id", "day"):
        joined.setdefault(pk, day)
    return joined


def engaged_battles(*, campaign: Campaign) -> dict[int, CampaignBattle]:
    """Units in a battle whose outcome is not applied yet (being fought, or awaiting the GM's
    review), each with that battle: until it is, the unit stands as it went in, and its card
    for another battle would be the one from before this battle."""
    unsettled = CampaignBattle.objects.filter(
        campaign=campaign,
        state__in=CampaignBattle.UNSETTLED,
    ).only("campaign_id", "name", "day", "sides", "state")
    return {pk: battle for battle in unsettled for pks in battle.sides.values() for pk in pks}


def engaged_units(*, campaign: Campaign) -> dict[int, str]:
    """`engaged_battles`, each unit with its battle's name."""
    return {pk: battle.name for pk, battle in engaged_battles(campaign=campaign).items()}


def history_standing() -> QuerySet[HistoryEntry]:
    """History entries that still stand: neither undone since (a revert entry names them) nor
    set aside (`HistoryEntry.ASIDE`: reverts, which only cancel the entry they name, and
    Orders, which change nothing of the unit's). What the history counts — the medics' work
    of the day, what they saved — it counts of these: a reverted save was never made."""
    return HistoryEntry.objects.filter(reverted_by__isnull=True).exclude(
        kind__in=HistoryEntry.ASIDE
    )


@dataclass(frozen=True)
class MedicsWorked:
    """The Medical crews' work of a campaign day, as its medical entries still standing
    (`history_standing`) hold it: work reverted since was never done."""

    crews: dict[int, int]
    """Hits each crew healed, by its pk: its own, whichever force it worked in and whichever
    unit it treated (an entry's ``crews``, written by `medical_apply`)."""
    unnamed: dict[int, int]
    """Hits healed in entries that name no crew (written before entries named them, or
    imported: unit ids do not travel), by the force the unit treated is in now."""

    def left(self, force_id: int, units: Iterable[Unit]) -> dict[int, int]:
        """What each of the force's crews (among ``units``, the force's now) may still heal
        today, by pk (`recovery.crews_left`)."""
        capacity = {unit.pk: medical_capacity(unit.state) for unit in units}
        return crews_left(capacity, self.crews, self.unnamed.get(force_id, 0))


def medics_worked(force_ids: Collection[int], day: int | None = None) -> MedicsWorked:
    """The Medical crews' work today in the campaigns of the forces among ``force_ids`` (each on
    its campaign's day; ``day``: that one instead), in one query. A crew's capacity is for the
    whole day (``campaign.services.recovery.medical_apply``), and goes with it to another
    force: the work is read by crew, not by the force of the unit treated."""
    worked = history_standing().filter(
        kind=HistoryEntry.Kind.MEDICAL,
        unit__force__campaign_id__in=Force.objects.filter(pk__in=force_ids).values("campaign_id"),
        day=F("unit__force__campaign__day") if day is None else day,
    )
    crews: dict[int, int] = {}
    unnamed: dict[int, int] = {}
    for force_id, details in worked.values_list("unit__force_id", "details"):
        named = details.get("crews")
        if isinstance(named, dict):
            for pk, hits in named.items():
                crews[int(pk)] = crews.get(int(pk), 0) + hits
        else:
            unnamed[force_id] = unnamed.get(force_id, 0) + _healed(details)
    return MedicsWorked(crews=crews, unnamed=unnamed)


def standing_moves() -> QuerySet[HistoryEntry]:
    """Moves of a unit to another force that still stand and keep their forces
    (`HistoryEntry.moved`): one undone moved nothing, and an imported one keeps no forces."""
    return history_standing().filter(kind=HistoryEntry.Kind.GM_EDIT, details__has_key="moved")


def with_moved(units: QuerySet[Unit]) -> QuerySet[Unit]:
    """``units``, each knowing whether it has moved to another force (``moved``: a standing
    move, `standing_moves`), so that only the units that have are asked where they were
    (`forces_then`)."""
    return units.annotate(moved=Exists(standing_moves().filter(unit=OuterRef("pk"))))


def forces_then(since: Iterable[tuple[int, datetime]]) -> dict[tuple[int, datetime], Force]:
    """The force each unit was in at a moment, by (unit pk, moment) as ``since`` gives them,
    for the units moved to another force after it: the force the first standing move after it
    left (`standing_moves`), with its owner. A unit not moved since is in its force still, and
    not given. One query, and one more for the forces when a unit has moved."""
    asked = set(since)
    if not asked:
        return {}
    moves: dict[int, list[tuple[datetime, int]]] = {}
    found = standing_moves().filter(unit_id__in={pk for pk, _ in asked}).order_by("pk")
    for unit_id, at, details in found.values_list("unit_id", "created_at", "details"):
        left = details["moved"].get("from")
        if isinstance(left, int):
            moves.setdefault(unit_id, []).append((at, left))
    then = {}
    for pk, when in asked:
        if (left := next((f for at, f in moves.get(pk, ()) if at > when), None)) is not None:
            then[pk, when] = left
    forces = Force.objects.select_related("owner").in_bulk(set(then.values()))
    return {key: forces[force] for key, force in then.items() if force in forces}


def _healed(details: dict[str, Any]) -> int:
    """Hits one medical entry healed: Casualty hits saved and Morale hits healed."""
    return details.get("saved", 0) + details.get("morale_saved", 0)


def campaign_battle_units(*, campaign_battle: CampaignBattle) -> dict[int, Unit]:
    """The persistent units that fought in the battle, by pk, with their forces, owners and cards,
    each knowing whether it has moved to another force since (`with_moved`)."""
    pks = [pk for side in campaign_battle.sides.values() for pk in side]
    units = with_moved(Unit.objects.filter(pk__in=pks).select_related("force__owner", "unit_type"))
    return {u.pk: u for u in units}


def campaign_battle_of(*, battle_id: int) -> CampaignBattle | None:
    """The campaign battle an engine battle was fought for, if any."""
    return CampaignBattle.objects.select_related("campaign").filter(battle_id=battle_id).first()


def campaign_battle_ids() -> QuerySet:
    """The ids of every engine battle fought for a campaign (a subquery, not a list)."""
    return CampaignBattle.objects.filter(battle__isnull=False).values("battle_id")


def roster_version(force: Force) -> tuple:
    """What the force's roster page is drawn from beyond the campaign and force rows: the sums
    of the version tokens of its units (a leader's change moves its unit's), of their cards,
    and of the library cards of the campaign's ruleset (a GM's add-unit form offers them); and
    of its units' Orders with their givers (each Order's line names the character who gave it);
    and the campaign's battles whose outcome is not applied yet, by their state (a unit's line
    names the one it is in, `engaged_battles`).

    Every save gives a row a new random token (``units.models.Versioned``), so the sums change
    with any saved change, a unit, card or Order added or removed, a card reloaded or a
    character renamed. One fixed SQL statement: the roster is the page read most, and the ORM
    takes longer to build this aggregate than the database takes to answer it.
    """
    with connection.cursor() as cursor:
        fighting, awaiting = CampaignBattle.UNSETTLED
        unsettled = [force.campaign_id, fighting, force.campaign_id, fighting]
        unsettled += [force.campaign_id, awaiting]
        cursor.execute(
            _ROSTER_VERSION_SQL,
            [force.campaign.ruleset, force.pk, force.pk, *unsettled, force.pk],
        )
        return tuple(cursor.fetchone())


_ROSTER_VERSION_SQL = f"""
    SELECT COUNT(u.id), SUM(u.version), SUM(t.version),
           (SELECT SUM(version) FROM {UnitType._meta.db_table} WHERE ruleset = %s),
           (SELECT SUM(o.version) FROM {Order._meta.db_table} o
            JOIN {Unit._meta.db_table} ou ON ou.id = o.unit_id WHERE ou.force_id = %s),
           (SELECT SUM(version) FROM {Character._meta.db_table} WHERE id IN (
               SELECT o.giver_id FROM {Order._meta.db_table} o
               JOIN {Unit._meta.db_table} ou ON ou.id = o.unit_id WHERE ou.force_id = %s)),
           (SELECT COUNT(id) FROM {CampaignBattle._meta.db_table}
            WHERE campaign_id = %s AND state = %s),
           (SELECT SUM(id) FROM {CampaignBattle._meta.db_table}
            WHERE campaign_id = %s AND state = %s),
           (SELECT SUM(id) FROM {CampaignBattle._meta.db_table}
            WHERE campaign_id = %s AND state = %s)
    FROM {Unit._meta.db_table} u JOIN {UnitType._meta.db_table} t ON t.id = u.unit_type_id
    WHERE u.force_id = %s
"""


# --- what a GM's click will change (read only: the rules' pure functions, nothing written) -----


def outcome_preview(
    *, campaign_battle: CampaignBattle
) -> tuple[list[tuple[Unit, CampaignUnitState, CampaignUnitState]], list[str], list[str]]:
    """(rows, refusal, notes). The rows: (unit, now, after) for each unit of a battle awaiting
    its outcome, as Apply will leave it: the same computation Apply makes (`outcome_steps`),
    with the same dice, writing nothing. The refusal: why Apply would refuse the outcome (the
    rows are then empty), as its sentences; empty when it would apply. A battle an auto-mode
    campaign could not apply on its own (a unit changed while it was fought) waits for the GM,
    who reads here why. The notes: what the table alone does not say, a sentence each (a unit
    destroyed since the battle takes nothing from it, `outcomes.destroyed_since_text`)."""
    # Reads kept beside the writes that use them (imported here: the services import this).
    rows, refusal, notes, _ = outcome_review(campaign_battle=campaign_battle)
    return rows, refusal, notes


def outcome_review(
    *, campaign_battle: CampaignBattle
) -> tuple[
    list[tuple[Unit, CampaignUnitState, CampaignUnitState]], list[str], list[str],
    list[HistoryEntry],
]:  # fmt: skip
    """`outcome_preview`, and the history entries Apply will write, unsaved and in order: what
    the review tells each unit in the words of its history."""
    from campaign.services.battles import campaign_battle_outcome
    from campaign.services.outcomes import outcome_steps

    try:
        # Apply's own reads lock the units; here the lock lasts only for the reading.
        with transaction.atomic():
            steps = outcome_steps(**campaign_battle_outcome(campaign_battle))
    except ValidationError as refused:
        return [], refused.messages, [], []
    preview: dict[int, tuple[Unit, CampaignUnitState, CampaignUnitState]] = {}
    entries = []
    for step in steps:
        was = preview[step.unit.pk][2] if step.unit.pk in preview else step.unit.state
        now = preview[step.unit.pk][1] if step.unit.pk in preview else step.unit.state
        preview[step.unit.pk] = (step.unit, now, step.state)
        # As `unit_change` will write it: the fields the step changes, and its sentence.
        before, after = snapshot_diff(was.to_json(), step.state.to_json())
        if after or step.always:
            entries.append(
                HistoryEntry(
                    unit=step.unit,
                    kind=step.kind,
                    text=sentence(step.why, before, after),
                    before=before,
                    after=after,
                )
            )
    rows = sorted(preview.values(), key=lambda row: (row[0].force.name, row[0].name))
    return rows, [], [step.note for step in steps if step.note], entries


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


def revert_review(
    *, applied_entries: Sequence[int], fight: tuple[str, str, str | None]
) -> tuple[list[tuple[Unit, CampaignUnitState, CampaignUnitState]], list[HistoryEntry]]:
    """`revert_preview`, and the revert entries Revert will write, unsaved and in its order
    (newest undone first): what the review tells each unit in the words of its history ("the
    experience from the battle of day 2, Crossroads, is undone: back to Green, 1 experience
    point"), without the reason the GM is still to give. ``applied_entries``: a battle's or an
    engagement's applied outcome; ``fight``: it as its revert names it (`reverts.Fight`)."""
    from campaign.services.reverts import revert_undid

    now: dict[int, dict[str, Any]] = {}
    told = []
    for entry in (
        HistoryEntry.objects.filter(pk__in=applied_entries)
        .select_related("unit__force", "unit__leader__character")
        .order_by("-pk")
    ):
        was = now.setdefault(entry.unit_id, entry.unit.state.to_json())
        state = CampaignUnitState.from_json({**was, **entry.before})
        undid = revert_undid(entry, fight, state)
        before, after = snapshot_diff(was, state.to_json())
        now[entry.unit_id] = state.to_json()
        told.append(
            HistoryEntry(
                unit=entry.unit,
                kind=HistoryEntry.Kind.REVERT,
                text=sentence(undone_text(**undid), before, after),
                before=before,
                after=after,
                details={"undid": undid},
            )
        )
    return revert_preview(applied_entries=applied_entries), told


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
    refusal says it (`pages.revert_blocked_lines`): a fight by its Revert (and what holds that
    up, in turn), the unit's own Undo of each other entry after the fight when every one of
    them has one, else a correction. Only its own Revert for a fight nothing holds up. Two
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
    Undo, if at all (`undo_refused`, `pages.revert_blocked`), or the unit is corrected instead.
    ``fights``: the campaign's applied fights (`fights_applied`), when read already."""
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


@dataclass(frozen=True)
class TimelineFocus:
    """One force's or one unit's part of the campaign's timeline: the fights its units were in
    and what befell them; the campaign's own story (its people, its calendar, the GM's notes)
    is no unit's."""

    units: frozenset[int]
    """The pks of the units it follows: the unit, or each unit of the force."""
    battles: frozenset[int]
    """The pks of the campaign battles one of them fought in (`timeline_focus`)."""
    engagements: frozenset[int]


def timeline_focus(*, campaign: Campaign, units: Collection[int]) -> TimelineFocus:
    """The timeline of ``units`` (pks): the battles and engagements any of them was put on a
    side of, found from each one's sides (two queries of one short row a fight: which units
    fought is kept in the fight's set-up, not in a table of its own)."""
    units = frozenset(units)

    def fought(sides: Any) -> bool:
        return isinstance(sides, dict) and any(
            units.intersection(pks) for pks in sides.values() if isinstance(pks, list)
        )

    battles = campaign.battles.order_by().values_list("pk", "sides")
    engagements = campaign.engagements.order_by().values_list("pk", "setup__sides")
    return TimelineFocus(
        units=units,
        battles=frozenset(pk for pk, sides in battles if fought(sides)),
        engagements=frozenset(pk for pk, sides in engagements if fought(sides)),
    )


def notable_entries(
    *,
    campaign: Campaign,
    force_ids: set[int],
    after_id: int = 0,
    focus: TimelineFocus | None = None,
):
    """History entries of the campaign worth a line on its timeline: deaths (a unit's, or its
    leader's), promotions and losses of quality for good, training, GM corrections and reverts,
    a character taking command of a unit, and a unit raised once the campaign's fighting has
    begun (units of ``force_ids`` only, newer than ``after_id``; of the ``focus``'s units
    only). The units raised before its first fight are the rosters the campaign starts with, a
    line each of which would bury its first day: the force pages list them."""
    Kind = HistoryEntry.Kind
    first_fight = (
        HistoryEntry.objects.filter(unit__force__campaign=campaign, kind__in=HistoryEntry.FIGHTS)
        .order_by("pk")
        .values("pk")[:1]
    )
    takes_command = Q(kind=Kind.LEADER, after__leader__name__isnull=False) & ~Q(
        details__has_key="healed"  # a leader's heal (`HistoryEntry.leader_named`)
    )
    notable = (
        Q(after__status="destroyed")
        | Q(before__leader__alive=True, after__leader__alive=False)
        | (Q(after__has_key="quality") & ~Q(kind=Kind.CREATED))
        | Q(kind__in=[Kind.GM_EDIT, Kind.TRAINING, Kind.REVERT, Kind.CASUALTIES])
        | takes_command
        | Q(kind=Kind.CREATED, pk__gt=Subquery(first_fight))
    )
    entries = HistoryEntry.objects.filter(notable, unit__force_id__in=force_ids, pk__gt=after_id)
    if focus is not None:
        entries = entries.filter(unit_id__in=focus.units)
    return entries.select_related("unit__force").order_by("-id")


def timeline_records(
    campaign: Campaign, focus: TimelineFocus | None = None
) -> tuple[QuerySet, ...]:
    """The campaign's records each of which is a line of the timeline on its day, besides the
    units' notable entries: its battles, engagements and quick resolves, and its own story
    (`StoryEntry`); of a ``focus``, the fights of its units and no story. A day split over
    pages shows them on its first."""
    if focus is None:
        return (
            campaign.battles.all(),
            campaign.engagements.all(),
            campaign.quick_resolves.all(),
            campaign.story.all(),
        )
    units = list(focus.units)
    return (
        campaign.battles.filter(pk__in=list(focus.battles)),
        campaign.engagements.filter(pk__in=list(focus.engagements)),
        campaign.quick_resolves.filter(Q(attacker_id__in=units) | Q(defender_id__in=units)),
        campaign.story.none(),
    )


def timeline_days(
    *,
    campaign: Campaign,
    force_ids: set[int],
    upto: int | None = None,
    above: int | None = None,
    limit: int,
    focus: TimelineFocus | None = None,
) -> list[int]:
    """Up to ``limit`` campaign days on which the timeline has something (a battle, an
    engagement, a quick resolve, a notable entry of the units of ``force_ids``): the latest
    up to day ``upto``, newest first, or the earliest after day ``above``, oldest first.
    The database finds them; ``limit`` rows at most come back."""  # fmt: skip
    sources = [
        *timeline_records(campaign, focus),
        notable_entries(campaign=campaign, force_ids=force_ids, focus=focus),
    ]
    days = []
    for source in sources:
        if upto is not None:
            source = source.filter(day__lte=upto)
        if above is not None:
            source = source.filter(day__gt=above)
        days.append(source.order_by().values_list("day", flat=True).distinct())
    found = days[0].union(*days[1:]).order_by("day" if above is not None else "-day")
    return list(found[:limit])


def timeline_day_counts(
    *,
    campaign: Campaign,
    force_ids: set[int],
    days: list[int],
    below: tuple[int, int] | None,
    focus: TimelineFocus | None = None,
) -> dict[int, int]:
    """How many lines the timeline has on each of ``days``, counted in the database; on day
    ``below[0]``, only its notable entries older than entry ``below[1]`` (the rest of a day
    split over pages: its fights were on the page before)."""
    fight_days = [day for day in days if below is None or day != below[0]]
    notable = notable_entries(campaign=campaign, force_ids=force_ids, focus=focus)
    notable = notable.filter(timeline_entries_on(fight_days, below))
    counted = [
        source.filter(day__in=fight_days).order_by().values("day").annotate(n=Count("id"))
        for source in timeline_records(campaign, focus)
    ]
    counted.append(notable.order_by().values("day").annotate(n=Count("id")))
    counts: dict[int, int] = {}
    for row in counted[0].union(*counted[1:], all=True):
        counts[row["day"]] = counts.get(row["day"], 0) + row["n"]
    return counts


def timeline_entries_on(days: list[int], below: tuple[int, int] | None) -> Q:
    """The entries of whole ``days``, and of day ``below[0]`` those older than entry
    ``below[1]``."""
    on = Q(day__in=days)
    if below is not None:
        on |= Q(day=below[0], pk__lt=below[1])
    return on


def entries_since(
    *, campaign: Campaign, force_ids: set[int], after: datetime | None, limit: int = 20
):
    """What happened to the units of ``force_ids`` after the moment ``after`` (None: the
    latest of all that happened to them), newest first."""
    entries = HistoryEntry.objects.filter(unit__force_id__in=force_ids)
    if after is not None:
        entries = entries.filter(created_at__gt=after)
    return list(with_standing(entries.select_related("unit__force").order_by("-id"))[:limit])


STORY_SINCE_LINES = 20
"""The most lines of the campaign's story a visit is told of (the timeline keeps them all)."""


def story_since(*, campaign: Campaign, after: datetime) -> list[StoryEntry]:
    """The lines of the campaign's own story (its people's changes, the GM's notes) after the
    moment ``after`` (a member's last visit), newest first, at most `STORY_SINCE_LINES`."""
    lines = campaign.story.filter(created_at__gt=after).order_by("-id")
    return list(lines[:STORY_SINCE_LINES])


def advance_entries(*, campaign: Campaign, after_id: int, upto_id: int) -> list[HistoryEntry]:
    """The entries an Advance of the calendar wrote: the deaths when a medical window closed
    and the days of R&R, after entry ``after_id`` up to ``upto_id`` (its first and last; the
    Advance locks every unit of the campaign, so no other change to them falls in between)."""
    Kind = HistoryEntry.Kind
    return list(
        HistoryEntry.objects.filter(
            unit__force__campaign=campaign,
            pk__gt=after_id,
            pk__lte=upto_id,
            kind__in=[Kind.CASUALTIES, Kind.RECOVERY],
        )
        .select_related("unit__force", "unit__leader__character")
        .order_by("id")
    )


def _notice_worthy(*, force_ids: set[int], after_id: int) -> QuerySet[HistoryEntry]:
    Kind = HistoryEntry.Kind
    worth = (
        Q(after__status="destroyed")
        | Q(after__has_key="quality")
        | Q(kind__in=[Kind.CASUALTIES, Kind.BATTLE])
    )
    return HistoryEntry.objects.filter(worth, unit__force_id__in=force_ids, pk__gt=after_id)


def notice_entries(
    *, force_ids: set[int], after_id: int, most: int | None = None
) -> list[HistoryEntry]:
    """The entries of the units of ``force_ids`` after ``after_id`` that an email notice may
    tell of: deaths, losses to the medical window, changes of quality, battles applied; oldest
    first, and given ``most``, only the latest ``most`` of them."""
    found = with_standing(
        _notice_worthy(force_ids=force_ids, after_id=after_id).select_related("unit__force")
    )
    if most is None:
        return list(found.order_by("id"))
    return list(found.order_by("-id")[:most])[::-1]


def notice_entries_before(*, force_ids: set[int], after_id: int, before_id: int) -> int:
    """How many of the entries `notice_entries` finds after ``after_id`` come before entry
    ``before_id``: those a notice of the latest leaves out. Counted in the database."""
    found = _notice_worthy(force_ids=force_ids, after_id=after_id)
    return found.filter(pk__lt=before_id).count()


def latest_entry_id(*, campaign: Campaign) -> int:
    last = (
        HistoryEntry.objects.filter(unit__force__campaign=campaign)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return last or 0


def invitee_key(text: str) -> str:
    """An invitee as stored: a username as typed (usernames are case-sensitive), an e-mail
    address in lower case."""
    text = text.strip()
    return text.lower() if "@" in text else text


def invitee_keys(user: Any) -> list[str]:
    """The names an invitation to this user may carry: their username and their e-mail."""
    keys = [user.get_username()]
    email = getattr(user, "email", "")
    if email:
        keys.append(email.lower())
    return keys


def invitations_for(user: Any) -> QuerySet[Invitation]:
    """The invitations waiting for this user's answer, oldest first."""
    return (
        Invitation.objects.filter(invitee__in=invitee_keys(user))
        .select_related("campaign__gm")
        .order_by("created_at")
    )


# --- fog of war ---------------------------------------------------------------------------------
#
# Under the campaign's fog of war a player reads a battle's report, log, replay and downloaded
# log as their side saw it: the side their force's units fought on. A member with units on
# neither side (a spectator, a player who sat it out) sees the outcome only; one with units on
# both sides had eyes on both, and the GM and co-GMs always see everything. A member who sees
# some force that fought the battle only in summary reads it so too, fog of war or not: the
# whole log would give the cards, Skill, dice and hits of that force's units.

FOG_ALL = "all"
"""A fog side meaning "sees everything" (the GM, or a player with units on both sides)."""
FOG_NONE = ""
"""A fog side meaning "fought on neither side": the outcome only."""


class FoggedLogUnreadable(Exception):
    """A stored log that cannot be read back to take out what a side did not see."""


def fog_side(*, campaign_battle: CampaignBattle, user: Any, manages: bool, sees_all: bool) -> str:
    """The side whose eyes ``user`` sees this battle through: a side id, ``FOG_ALL`` or
    ``FOG_NONE``. ``manages``: the user is the campaign's GM or a co-GM; ``sees_all``: the user
    sees every force that fought it in full (`Viewer.sees_in_full`)."""
    if manages or (sees_all and not campaign_battle.campaign.fog_of_war):
        return FOG_ALL
    sides = campaign_battle.sides
    pks = {pk for side in sides.values() for pk in side}
    own = set(Unit.objects.filter(pk__in=pks, force__owner=user).values_list("pk", flat=True))
    mine = [side for side, side_pks in sides.items() if own.intersection(side_pks)]
    if len(mine) == 1:
        return mine[0]
    return FOG_ALL if mine else FOG_NONE


def fogged_log(
    *, campaign_battle: CampaignBattle, log: BattleLog, side: str, seed_shown: bool = True
) -> str:
    """The stored log as ``side`` saw it: without the events it could not see (the whole log
    for ``FOG_ALL``), and without its seed unless ``seed_shown`` (`fog.seed_withheld_json`).
    ``FoggedLogUnreadable`` if it cannot be read back."""
    if side == FOG_ALL and seed_shown:
        return log.events
    data = json.loads(log.events)
    if not seed_shown:
        try:
            data = seed_withheld_json(data)
        except (KeyError, TypeError) as exc:
            raise FoggedLogUnreadable("this log cannot be read back without its seed") from exc
    if side == FOG_ALL:
        return canonical_json(data)
    try:
        sides = unit_sides(parse_scenario(campaign_battle.battle.scenario, fought=True))
        hidden = hidden_events(log_events(log), sides, side)
    except (ScenarioError, KeyError, TypeError, ValueError):
        raise FoggedLogUnreadable("this log cannot be read back under fog of war") from None
    data["events"] = [e for i, e in enumerate(data["events"]) if i not in hidden]
    return canonical_json(data)


# --- battle set-up ------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitsToFight:
    """The campaign's units as a battle's set-up or table result sees them, by force and name."""

    free: list[Unit]
    """Ready, and in no battle whose outcome is not applied: the units offered."""
    engaged: list[tuple[Unit, str]]
    """Ready but held back, still in a battle whose outcome is not applied (`engaged_units`),
    each with that battle's name."""
    out_of_action: list[Unit]
    """Not ready (`Status.fights`): retreated in poor order, or destroyed."""


def units_to_fight(*, campaign: Campaign) -> UnitsToFight:
    """Which of the campaign's units a battle may be set up or recorded with, and which not."""
    in_battle = engaged_units(campaign=campaign)
    units = list(
        Unit.objects.filter(force__campaign=campaign)
        .select_related("force", "unit_type", "leader")
        .order_by("force__name", "name")
    )
    ready = [unit for unit in units if Status(unit.status).fights]
    return UnitsToFight(
        free=[unit for unit in ready if unit.pk not in in_battle],
        engaged=[(unit, in_battle[unit.pk]) for unit in ready if unit.pk in in_battle],
        out_of_action=[unit for unit in units if not Status(unit.status).fights],
    )


LIST_EVERY_UNIT = 200
"""A battle's forms list every unit free to fight, a row each, up to this many; a campaign with
more lists them a page at a time (`units_page`), by force and name."""
UNITS_A_PAGE = 50
CHOSEN_AT_MOST = 200
"""Units put on a side that a paged form reads back: more than any scenario fields (40 a side)."""
FIGHTING = [status.value for status in Status if status.fights]


def lists_every_unit(*, campaign: Campaign) -> bool:
    """Whether a battle's forms list every unit ready to fight (held back or not), a row each:
    up to `LIST_EVERY_UNIT` of them; else a page at a time (`units_page`)."""
    return ready_count(campaign=campaign) <= LIST_EVERY_UNIT


def ready_count(*, campaign: Campaign) -> int:
    """How many of the campaign's units are ready to fight (held back or not)."""
    return Unit.objects.filter(force__campaign=campaign, status__in=FIGHTING).count()


@dataclass(frozen=True)
class UnitsPage:
    """A page of the units free to fight, for a campaign with more than `LIST_EVERY_UNIT` of
    them: the page the GM asked for (by force, name and number), and the units already put on
    a side on other pages, which the form carries along so that no choice is dropped."""

    shown: list[Unit]
    chosen: list[Unit]
    """Free units put on a side (``side_<pk>`` in the form's data) not on the page shown."""
    forces: list[Force]
    force: Force | None
    """The force whose units are shown; None: every force's."""
    search: str
    number: int
    pages: int
    count: int
    """Free units matching the force and the search, on every page."""
    engaged: list[tuple[Unit, str]]
    """Units the form's data put on a side that are held back in a battle, with its name."""
    held_back: list[tuple[str, int]]
    """Each battle whose outcome is not applied, with how many units it holds back."""
    refused: list[Unit]
    """Units put on a side in the form's data that are no longer ready to fight."""
    out_of_action: list[tuple[Force, list[tuple[str, int]]]]
    """Each force with units out of action: (status label, how many) by status."""
    too_many: int = 0
    """`CHOSEN_AT_MOST` when the form's data put more units than that on a side (only that
    many are read); else 0."""
    unfit: UnitsToFight | None = None
    """The units of each force with units but none free to fight: out of action, or held back
    in a battle (`units_offered` says why, as a small campaign's form does)."""

    @property
    def units(self) -> list[Unit]:
        """Every unit the form has fields for: those chosen on other pages first."""
        return [*self.chosen, *self.shown]

    @property
    def first(self) -> int:
        return (self.number - 1) * UNITS_A_PAGE + 1 if self.shown else 0

    @property
    def last(self) -> int:
        return (self.number - 1) * UNITS_A_PAGE + len(self.shown)

    @property
    def earlier(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def later(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None


def chosen_pks(data: Any) -> list[int]:
    """The units a set-up form's data puts on a side (``side_<pk>`` not blank), in order."""
    found = []
    for key in data or ():
        if key.startswith("side_") and (pk := key_named(key[5:])) is not None and data.get(key):
            found.append(pk)
    return found


def units_page(
    *, campaign: Campaign, data: Any = None, force: str = "", search: str = "", page: Any = 1
) -> UnitsPage:
    """The page of the campaign's free units a paged set-up shows, and what its ``data`` (the
    form as sent) already put on a side: a few bounded queries whatever the campaign's size."""
    in_battle = engaged_units(campaign=campaign)
    forces = list(Force.objects.filter(campaign=campaign).order_by("name", "pk"))
    shown_force = next((f for f in forces if str(f.pk) == str(force)), None)
    search = (search or "").strip()[:100]
    free = Unit.objects.filter(force__campaign=campaign, status__in=FIGHTING).exclude(
        pk__in=list(in_battle)
    )
    if shown_force is not None:
        free = free.filter(force=shown_force)
    if search:
        free = free.filter(name__icontains=search)
    count = free.count()
    pages = max(1, -(-count // UNITS_A_PAGE))
    try:
        number = min(max(1, int(page)), pages)
    except (TypeError, ValueError):
        number = 1
    start = (number - 1) * UNITS_A_PAGE
    # The leader's character too: its hit points are said out of its full ones.
    related = ("force", "unit_type", "leader__character")
    shown = list(
        free.select_related(*related).order_by("force__name", "name", "pk")[
            start : start + UNITS_A_PAGE
        ]
    )
    on_page = {unit.pk for unit in shown}
    asked = chosen_pks(data)
    too_many = CHOSEN_AT_MOST if len(asked) > CHOSEN_AT_MOST else 0
    wanted = [pk for pk in asked[:CHOSEN_AT_MOST] if pk not in on_page]
    held = [pk for pk in asked[:CHOSEN_AT_MOST] if pk in in_battle]
    found = Unit.objects.filter(force__campaign=campaign, pk__in=[*wanted, *held])
    found = found.select_related(*related).in_bulk()
    chosen = [
        found[pk]
        for pk in wanted
        if pk in found and Status(found[pk].status).fights and pk not in in_battle
    ]
    refused = [found[pk] for pk in wanted if pk in found and not Status(found[pk].status).fights]
    engaged = [(found[pk], in_battle[pk]) for pk in held if Status(found[pk].status).fights]
    return UnitsPage(
        shown=shown,
        chosen=chosen,
        forces=forces,
        force=shown_force,
        search=search,
        number=number,
        pages=pages,
        count=count,
        engaged=engaged,
        held_back=list(Counter(in_battle.values()).items()),
        refused=refused,
        out_of_action=out_of_action_counts(campaign=campaign, forces=forces),
        too_many=too_many,
        unfit=_unfit_forces_units(campaign, forces, in_battle),
    )


def _unfit_forces_units(
    campaign: Campaign, forces: list[Force], in_battle: dict[int, str]
) -> UnitsToFight:
    """The units of the forces with none free to fight (`UnitsPage.unfit`): two queries
    whatever the campaign's size, the second reading only those forces' units."""
    free = Unit.objects.filter(force__campaign=campaign, status__in=FIGHTING).exclude(
        pk__in=list(in_battle)
    )
    fit = set(free.order_by().values_list("force_id", flat=True).distinct())
    units = list(
        Unit.objects.filter(force__in=[force for force in forces if force.pk not in fit])
        .select_related("force")
        .order_by("force__name", "name")
    )
    ready = [unit for unit in units if Status(unit.status).fights]
    return UnitsToFight(
        free=[],
        engaged=[(unit, in_battle[unit.pk]) for unit in ready if unit.pk in in_battle],
        out_of_action=[unit for unit in units if not Status(unit.status).fights],
    )


def out_of_action_counts(
    *, campaign: Campaign, forces: list[Force] | None = None
) -> list[tuple[Force, list[tuple[str, int]]]]:
    """Each force with units out of action, by name: (status label, how many) by status."""
    by_force: dict[int, list[tuple[str, int]]] = {}
    counted = (
        Unit.objects.filter(force__campaign=campaign)
        .exclude(status__in=FIGHTING)
        .values_list("force_id", "status")
        .annotate(n=Count("pk"))
        .order_by("force_id", "status")
    )
    for force_id, status, n in counted:
        by_force.setdefault(force_id, []).append((Status(status).label, n))
    if forces is None:
        forces = list(Force.objects.filter(pk__in=by_force).order_by("name", "pk"))
    return [(force, by_force[force.pk]) for force in forces if force.pk in by_force]


def campaign_battle_launched(
    *, campaign: Campaign, user: Any, request_key: uuid.UUID | str | None
) -> CampaignBattle | None:
    """The battle ``user`` launched with this request key (a set-up form's), if any."""
    if request_key is None:
        return None
    try:
        key = uuid.UUID(str(request_key))
    except ValueError:
        return None
    return CampaignBattle.objects.filter(
        campaign=campaign, battle__request_key=key, battle__created_by=user
    ).first()


def engine_unit_names(*, campaign_battle: CampaignBattle) -> dict[str, str]:
    """Engine unit id → the name its roster gives the unit."""
    fought = engine_units_fought(campaign_battle=campaign_battle)
    return {engine_id: unit.name for engine_id, unit in fought.items()}


def engine_units_fought(*, campaign_battle: CampaignBattle) -> dict[str, Unit]:
    """Engine unit id → the campaign unit that fought as it (with its force), if it still
    exists."""
    pks = campaign_battle.engine_units or {}
    units = Unit.objects.filter(pk__in=pks.values()).select_related("force").in_bulk()
    return {engine_id: units[pk] for engine_id, pk in pks.items() if pk in units}
