"""Writes for the campaign's characters: create them, heal them, and a Strategist's rally.

A character joins a unit through `leader_attach(character=...)` and trains one through
`unit_train(character=...)` (`campaign.services.leaders`): one way to lead and one way to train.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction

from campaign.models import (
    Campaign,
    Character,
    CharacterEntry,
    HistoryEntry,
    Leader,
    Membership,
    Unit,
)
from campaign.rules.characters import RallyError, can_rally, feats_from, ordered_feats, rally
from campaign.rules.history import lost_past_full
from campaign.rules.state import LEADER_DEATH_HIT_POINTS, LeaderState
from campaign.selectors.access import command_refused
from campaign.selectors.entries import history_standing
from campaign.services._record import (
    campaign_full,
    locked,
    name_taken,
    require_manager,
    text_given,
    unit_change,
)
from units.models import new_version
from units.words import number_text, value_shown

Kind = HistoryEntry.Kind
HIT_POINTS_MAX = 999


@transaction.atomic
def character_create(
    *,
    campaign: Campaign,
    name: str,
    hit_points: int,
    feats: Iterable[str] = (),
    player: Any = None,
    actor: Any = None,
) -> Character:
    """A player character (``player`` a member of the campaign) or a named NPC (no player)."""
    require_manager(campaign, actor)
    campaign = locked(campaign)  # one count of its characters at a time
    errors: dict[str, list[str]] = {}
    if full := campaign_full(campaign, "character"):
        errors[NON_FIELD_ERRORS] = [full]
    name = (name or "").strip()
    if not name:
        errors["name"] = ["a character needs a name"]
    elif campaign.characters.filter(name=name).exists():
        errors["name"] = [name_taken(str(campaign), "a character", name)]
    if isinstance(hit_points, bool) or not isinstance(hit_points, int):
        errors["hit_points"] = [f"must be a whole number, got {value_shown(hit_points)}"]
    elif not 1 <= hit_points <= HIT_POINTS_MAX:
        errors["hit_points"] = [
            f"A new character has 1 to {HIT_POINTS_MAX} hit points, not {hit_points}."
        ]
    try:
        held = ordered_feats(feats)
    except ValueError as error:
        errors["feats"] = [str(error)]
    if player is not None:
        plays = (
            campaign.gm_id == player.pk
            or Membership.objects.filter(
                campaign=campaign,
                user=player,
                role__in=[Membership.Role.PLAYER, Membership.Role.CO_GM],
            ).exists()
        )
        if not plays:
            errors["player"] = [f"{player} is not a player of {campaign}"]
    if errors:
        raise ValidationError(errors)
    return Character.objects.create(
        campaign=campaign,
        name=name,
        hit_points=hit_points,
        max_hit_points=hit_points,  # a new character is whole
        alive=hit_points > LEADER_DEATH_HIT_POINTS,
        feats=[f.value for f in held],
        player=player,
    )


def heal_text(name: str, why: str, before: int, after: int, most: int) -> str:
    """A heal's record: the words the GM wrote read after the character's name, then its hit
    points: "Capt. Holt rests a night: hit points 3 → 8 of 14"."""
    return f"{name} {why}: hit points {number_text(before)} → {number_text(after)} of {most}"


@transaction.atomic
def character_heal(
    *, character: Character, hit_points: int, reason: str = "", actor: Any = None
) -> CharacterEntry:
    """The GM heals a living character by the hit points the d20 table worked out (a night's
    rest, a Treat Injury check, a medical kit: docs/bucs-choices.md, "Healing a character"),
    never above its full hit points. A character at the head of a unit is that unit's leader:
    its unit's history records the heal too."""
    character = locked(character)
    campaign = Campaign.objects.get(pk=character.campaign_id)
    require_manager(campaign, actor)
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason)
    if isinstance(hit_points, bool) or not isinstance(hit_points, int):
        errors["hit_points"] = [f"must be a whole number, got {value_shown(hit_points)}"]
    elif not 1 <= hit_points <= HIT_POINTS_MAX:
        errors["hit_points"] = [
            f"A heal gives back 1 to {HIT_POINTS_MAX} hit points, not {hit_points}."
        ]
    if not character.alive:
        errors["character"] = [f"{character} is dead: the dead are not healed"]
    elif character.hit_points >= character.max_hit_points:
        errors["character"] = [
            f"{character} is at full hit points already ({character.max_hit_points})"
        ]
    if errors:
        raise ValidationError(errors)
    before = character.hit_points
    after = min(character.max_hit_points, before + hit_points)
    why = reason or "healed"
    text = heal_text(character.name, why, before, after, character.max_hit_points)
    lacked, lost = after - before, before + hit_points - after
    if lost:
        # A heal stops at full: the GM is told what was lost, not left to count it.
        text += f" (full: it lacked {lacked}, so {lost_past_full(lost, hit_points)})"
    leader = Leader.objects.filter(character=character).select_related("unit").first()
    if leader is not None:
        unit = Unit.objects.select_for_update(of=("self",)).get(pk=leader.unit_id)
        state = unit.state
        unit_change(
            unit=unit,
            state=state.but(leader=LeaderState(state.leader.name, after, alive=True)),
            kind=Kind.LEADER,
            why=f"{character.name} {why}",
            day=campaign.day,
            # The history says the heal against the character's full hit points: "8 of 14",
            # and what went past them: "(full: 14 of the 20 healed were lost)".
            details={
                "character": character.pk,
                "healed": lacked,
                "leader_most_hit_points": character.max_hit_points,
                **({"lost": lost} if lost else {}),
            },
            actor=actor,
        )  # its leader row carries the hit points to the character
    Character.objects.filter(pk=character.pk).update(hit_points=after, version=new_version())
    return CharacterEntry.objects.create(
        character=character,
        day=campaign.day,
        hour=campaign.hour,
        text=text,
        before={"hit_points": before},
        after={"hit_points": after},
        actor=actor,
    )


HEALED_TODAY = "a Strategist healed one of its Morale hits today already"
"""Why a unit has no Morale hit healed by a Strategist again today (`rallied_today`)."""

HEALED_TODAY_LEFT_OUT = "A Morale hit healed by a Strategist today already"
"""The same, said under the form before the names of the units it leaves out."""


def rallied_today(campaign: Campaign) -> set[int]:
    """The pks of the units a Strategist rallied on the campaign's day: once a day for each.
    A rally reverted since was never made (`history_standing`), like the medics' reverted work."""
    rallies = history_standing().filter(
        unit__force__campaign=campaign,
        kind=Kind.RECOVERY,
        day=campaign.day,
        details__has_key="rallied_by",
    )
    return set(rallies.values_list("unit_id", flat=True))


@transaction.atomic
def character_rally(
    *, character: Character, unit: Unit, reason: str = "", actor: Any = None
) -> HistoryEntry:
    """A Strategist heals one Morale hit of a unit: never a Casualty hit, and never the last
    Morale hit of a unit in the combat zone; once a day for each unit (a rally reverted since
    does not count)."""
    unit = (
        Unit.objects.select_for_update(of=("self",))
        .select_related("force__campaign")
        .get(pk=unit.pk)
    )
    campaign = unit.force.campaign
    require_manager(campaign, actor)
    character = locked(character)
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason)
    if character.campaign_id != campaign.pk:
        errors["character"] = [f"{character} is not of {campaign}"]
    elif not character.alive:
        errors["character"] = [f"{character} is dead"]
    elif not can_rally(feats_from(character.feats)):
        errors["character"] = [f"{character} is not a Strategist"]
    elif refused := command_refused(character=character, unit=unit, does="heal"):
        errors["character"] = [refused]
    if unit.pk in rallied_today(campaign):
        errors["unit"] = [f"{unit} cannot have a Morale hit healed: {HEALED_TODAY}"]
    try:
        state = rally(unit.state)
    except RallyError as error:
        errors.setdefault("unit", []).append(
            f"{unit.name} cannot have a Morale hit healed: {error}"
        )
    if errors:
        raise ValidationError(errors)
    why = f"a Morale hit healed by {character.name} (Strategist)"
    entry = unit_change(
        unit=unit,
        state=state,
        kind=Kind.RECOVERY,
        why=f"{why}: {reason}" if reason else why,
        day=campaign.day,
        details={"rallied_by": character.pk},
        actor=actor,
    )
    assert entry is not None
    return entry
