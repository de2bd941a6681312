"""Fields that offer the campaign's characters: listed, or typed by name in a big campaign, the
living only, and one not offered refused by name and why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from campaign.keys import key_named
from campaign.models import Campaign
from campaign.rules.characters import feats_from
from campaign.rules.history import hit_points_text
from campaign.rules.state import Status, can_act
from campaign.selectors import battle_setup
from units.words import and_words, number_text, possessive, quoted


class CharacterField(forms.ModelChoiceField):
    """One of the campaign's characters a form offers. One of its characters the form does not
    offer (dead since the page was drawn, say) is refused by name and why (``why_not``, the
    sentence), in the services' words, rather than as a choice that is not there."""

    def __init__(self, campaign: Campaign, offered: Any, why_not: Callable[[Any], str],
                 **kwargs: Any) -> None:  # fmt: skip
        self.campaign, self.why_not = campaign, why_not
        kwargs.setdefault("empty_label", "Choose a character")
        super().__init__(queryset=offered.order_by("name"), **kwargs)

    shows_hit_points = False
    """Whether each character is offered with its hit points ("Lt. Reyes (9 of 14 hit
    points)"): the heal's list, where they are what the GM chooses by."""

    def shows_unit_led(self) -> None:
        """Offer each character with the unit it leads ("Lt. Reyes (leads 1st Squad)"): the join
        list, where one leading a unit is refused until detached from it."""
        self.queryset = self.queryset.select_related("leading__unit")
        self._shows_unit_led = True

    _shows_unit_led = False

    def shows_whom_it_orders(self) -> None:
        """Offer each character with the units it gives Orders ("Lt. Reyes (alice's: orders Red
        Company)", an NPC any unit): the GM's Order form, where a player's character sent to
        another player's unit is refused (`access.command_refused`)."""
        self.queryset = self.queryset.select_related("player", "leading__unit__force")
        self._shows_whom = True

    _shows_whom = False

    @cached_property
    def _forces_by_owner(self) -> dict[int, list[str]]:
        """The names of the campaign's forces, by the player who owns them: read once, as the
        list is drawn."""
        found: dict[int, list[str]] = {}
        for owner, name in self.campaign.forces.order_by("name").values_list("owner_id", "name"):
            found.setdefault(owner, []).append(name)
        return found

    def _whom_it_orders(self, obj: Any) -> str:
        if obj.player_id is None:
            return "NPC: orders any unit"
        names = list(self._forces_by_owner.get(obj.player_id, []))
        leading = getattr(obj, "leading", None)
        # The unit it leads, wherever the GM put it at the head.
        unit = None if leading is None else leading.unit
        away = unit is not None and unit.force.owner_id != obj.player_id
        if away and unit.status != Status.DESTROYED:
            names.append(unit.name)
        ordered = f"orders {and_words(names)}" if names else "no unit of theirs to order"
        return f"{possessive(str(obj.player))}: {ordered}"

    def label_from_instance(self, obj: Any) -> str:
        if self.shows_hit_points:
            return f"{obj.name} ({hit_points_text(obj.hit_points, most=obj.max_hit_points)})"
        # A dying character is offered (it may be healed) but leads, orders, trains, rallies
        # and requisitions nothing until then (`state.can_act`; the services refuse it).
        if obj.alive and not can_act(obj.hit_points):
            return f"{obj.name} (dying, {number_text(obj.hit_points)} hp)"
        leading = getattr(obj, "leading", None) if self._shows_unit_led else None
        # A survivor of the unit it led, destroyed, is free to lead another (`leader_attach`).
        if leading is not None and leading.unit.status != Status.DESTROYED:
            return f"{obj.name} (leads {leading.unit.name})"
        if self._shows_whom:
            return f"{obj.name} ({self._whom_it_orders(obj)})"
        return obj.name

    def to_python(self, value: Any) -> Any:
        try:
            return super().to_python(value)
        except ValidationError as error:
            key = key_named(value)
            found = None if key is None else self.campaign.characters.filter(pk=key).first()
            if found is None:
                raise
            why = self.why_not(found) or f"{found.name} is not offered here"
            raise ValidationError(why, code="not_offered") from error


NAMED_CHARACTER_HELP = "Their name, as the Characters page gives it."


NAMED_CHARACTER_HELP_HERE = "Their name, as the list above gives it."
"""What a character asked by name says under it (`_CharacterNamed`); on the Characters page,
under the list of them."""


class _CharacterNamed(forms.CharField):
    """One of the characters a form offers (``queryset``), typed by name: a campaign with more
    of them than a form lists (`battle_setup.LIST_EVERY_UNIT`) asks this rather than list every
    one on each form of the page, as its big forms ask a unit (`UnitNamed`). One the form does
    not offer is refused by name and why (``why_not``), as `CharacterField` refuses it."""

    def __init__(self, campaign: Campaign, offered: Any, why_not: Callable[[Any], str],
                 **kwargs: Any) -> None:  # fmt: skip
        self.campaign, self.queryset, self.why_not = campaign, offered, why_not
        kwargs.pop("empty_label", None)
        kwargs.setdefault("help_text", NAMED_CHARACTER_HELP)
        super().__init__(max_length=200, **kwargs)

    def get_bound_field(self, form: Any, field_name: str) -> Any:
        # A form of the Characters page itself (`CampaignForm.under_the_characters`) does not
        # send the reader to the page they are on.
        bound = super().get_bound_field(form, field_name)
        if bound.help_text == NAMED_CHARACTER_HELP and form.under_the_characters:
            bound.help_text = NAMED_CHARACTER_HELP_HERE
        return bound

    def prepare_value(self, value: Any) -> Any:
        # A form starting on a character (`OrderForm._likely_giver`) gives its key: shown by name.
        if isinstance(value, int):
            found = self.queryset.filter(pk=value).first()
            return found.name if found else ""
        return super().prepare_value(value)

    def clean(self, value: Any) -> Any:
        typed = super().clean(value)
        if not typed:
            return None
        name = " ".join(typed.split())
        characters = self.campaign.characters
        found = characters.filter(name=typed.strip()).first()
        if found is None:
            alike = list(characters.filter(name__iexact=name)[:2])
            found = alike[0] if len(alike) == 1 else None
        if found is None:
            raise ValidationError(
                f"No character of the campaign is named {quoted(name)}.", code="no_character"
            )
        if not self.queryset.filter(pk=found.pk).exists():
            why = self.why_not(found) or f"{found.name} is not offered here"
            raise ValidationError(why, code="not_offered")
        return found


def _living_count(campaign: Campaign) -> int:
    """How many living characters the campaign has, counted once for the page's forms."""
    if (known := getattr(campaign, "_living_characters", None)) is None:
        known = campaign._living_characters = campaign.characters.filter(alive=True).count()
    return known


def _character_choice(
    campaign: Campaign, offered: Any, why_not: Callable[[Any], str], **kwargs: Any
) -> CharacterField | _CharacterNamed:
    """The characters ``offered`` (living ones): chosen from a list while the campaign has up
    to `battle_setup.LIST_EVERY_UNIT` living characters, as a unit is; past that, typed by name
    (`_CharacterNamed`)."""
    if _living_count(campaign) > battle_setup.LIST_EVERY_UNIT:
        return _CharacterNamed(campaign, offered, why_not, **kwargs)
    return CharacterField(campaign, offered, why_not, **kwargs)


def _dead_or_not_theirs(player: Any) -> Callable[[Any], str]:
    def why_not(character: Any) -> str:
        if player is not None and character.player_id != player.pk:
            # Another player's character is not named: it is none of this player's business.
            return NOT_YOURS
        return f"{character.name} is dead" if not character.alive else ""

    return why_not


NOT_YOURS = "That character is not one of yours: your characters are in the list."


NO_CHARACTERS = "The campaign has no living character yet: create one under New character."


def character_field(
    campaign: Campaign, player: Any = None, nobody: str = "", **kwargs: Any
) -> CharacterField | _CharacterNamed:
    # A dead character leads, trains, heals, rallies, orders and requisitions no more (the
    # services refuse one): the forms offer the living only; a player's, their own. With none
    # to offer, the field says why beneath its empty list (``nobody``).
    living = campaign.characters.filter(alive=True)
    if player is not None:
        living = living.filter(player=player)
    if nobody and not (living.exists() if player is not None else _living_count(campaign)):
        kwargs["help_text"] = nobody
    return _character_choice(campaign, living, _dead_or_not_theirs(player), **kwargs)


def characters_who(
    campaign: Campaign, may: Callable[[Any], bool], cannot: str, nobody: str = "", **kwargs: Any
) -> CharacterField | _CharacterNamed:
    """The living characters whose feats let them do it (``may``: `can_train`, `can_rally`):
    the others are not offered, as a unit field offers only the units its `Offer` allows; one
    sent all the same is refused as dead, or as ``cannot`` ("is not a Strategist"). With none
    to offer, the field says why beneath its empty list (``nobody``; the unit page's training
    form says it instead of the list)."""
    living = list(campaign.characters.filter(alive=True))
    campaign._living_characters = len(living)  # counted for the page's forms (`_living_count`)
    able = [c.pk for c in living if may(feats_from(c.feats))]
    if not able:
        kwargs["help_text"] = nobody

    def why_not(character: Any) -> str:
        return f"{character.name} {'is dead' if not character.alive else cannot}"

    offered = campaign.characters.filter(pk__in=able)
    return _character_choice(campaign, offered, why_not, **kwargs)
