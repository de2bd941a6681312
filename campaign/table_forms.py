"""The forms of the table's pages: characters, Orders and the clock, engagements, checks.

As in `campaign.forms`, forms only parse what was typed; the services decide what is allowed.
A unit field offers only the units that may do what it asks (an `Offer`, which asks the rule
where one decides it), so a page never offers a unit that cannot act.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property, reduce
from operator import or_
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import F, Q
from django.utils.functional import lazy

from battles.forms import LaunchKeyField, SeedField, WholeNumberField
from campaign.battle_forms import chosen_problems, not_a_choice
from campaign.forms import (
    SPECIALTIES_LEFT_EMPTY,
    SPECIALTY_CHOICES,
    ListedName,
    PageForm,
    UserField,
    card_label,
    people_choices,
    revert_reason,
    specialties_left_empty,
)
from campaign.keys import key_named
from campaign.models import Campaign, Force, Order, Unit
from campaign.pages import left_out, name_order, unit_label
from campaign.rules.characters import Feat, can_rally, can_train, feats_from, rally_blocked
from campaign.rules.checks import REQUISITION_BASE_DC, requisition_quality_problem
from campaign.rules.engagement import ROUND_LIMIT_MAX, SIDES, TERRAINS, terrain_label
from campaign.rules.experience import training_blocked
from campaign.rules.history import hit_points_text, number_text, possessive
from campaign.rules.orders import HOURS_PER_DAY, OrderKind, clock_text
from campaign.rules.state import (
    CampaignUnitState,
    Status,
    can_act,
    quality_from_name,
    quality_name,
)
from campaign.selectors import battle_setup, roster
from campaign.selectors.battle_setup import ready_count
from campaign.services.characters import (
    HEALED_TODAY,
    HEALED_TODAY_LEFT_OUT,
    HIT_POINTS_MAX,
    heal_text,
    rallied_today,
)
from campaign.services.checks import DC_MAX, units_not_alone
from campaign.services.engagements import SITUATION_FIELDS
from campaign.services.orders import LISTED_HOURS_MAX, orders_under_way
from campaign.services.recovery import MAX_DAYS
from campaign.templatetags.working import signed
from campaign.units_offered import NO_UNITS, out_of_action_by_force, units_offered
from units.bucs import TRAINING_CEILING, Equipment
from units.models import UnitType
from units.words import and_words, capfirst, quoted

FEAT_CHOICES = [(f.value, f.label) for f in Feat]
ORDER_CHOICES = [
    (k.value, f"{k.label} ({k.row.listed_hours} h listed"
     + (f"; needs {k.row.specialty.label})" if k.row.specialty else ")"))
    for k in OrderKind
]  # fmt: skip
SKILL_CHOICES = [("", "A general skill (every unit's)"), *SPECIALTY_CHOICES]
SITUATION_LABELS = {
    "dug_in": "dug in",
    "several_directions": "fire from several directions",
    "cramped": "cramped quarters",
    "landing": "landing",
}


def _units(campaign: Campaign, owner: Any = None):
    """The campaign's units; with ``owner``, those of the forces that user owns (a player's
    form offers, refuses by name and leaves out only their own)."""
    units = Unit.objects.filter(force__campaign=campaign)
    if owner is not None:
        units = units.filter(force__owner=owner)
    return units.select_related("force", "leader").order_by("force__name", "name")


@dataclass(frozen=True)
class Offer:
    """Which of the campaign's units a field offers: those ``blocked`` finds nothing against
    (it says why a unit cannot, "" when it can). ``doing`` is what the unit would do, for the
    error that names a unit no longer offered ("Squad 1 (Red Company) cannot train: …")."""

    doing: str
    blocked: Callable[[Unit], str]
    left_out_as: Callable[[Unit], str] | None = None
    """Why a unit ``blocked`` keeps out is not offered, said under the form before the names
    of the units alike ("Led by a living character already"); without it, the unit's status says why
    (`Status.out_of_action`)."""


def _not_ready(unit: Unit) -> str:
    return "" if Status(unit.status).fights else f"it is {unit.state.status.label.lower()}"


def _destroyed(unit: Unit) -> str:
    return "it is destroyed" if unit.status == Status.DESTROYED else ""


def _destroyed_or_led(unit: Unit) -> str:
    leader = getattr(unit, "leader", None)
    if unit.status != Status.DESTROYED and leader is not None and leader.alive:
        return f"{leader.name} leads it already"
    return _destroyed(unit)


def _not_leadable(unit: Unit) -> str:
    if unit.status == Status.DESTROYED:
        return Status.DESTROYED.out_of_action
    # One sentence for them all: the list of characters beside the form says who leads each.
    return "Led by a living character already"


def _not_trainable(unit: Unit) -> str:
    # The cases of `training_apply`, which `training_blocked` asked.
    state = unit.state
    if not state.status.fights:
        return state.status.out_of_action
    if state.in_combat_zone:
        return "In the combat zone, where no unit trains"
    quality = state.quality
    if quality < TRAINING_CEILING:
        # Below the steps training reaches (Raw): its next step comes from battle.
        return f"{quality.label}, made {quality.raised().label} by battle, not by training"
    return f"{quality.label}: training raises a unit to Experienced at most"


def _not_rallied(unit: Unit) -> str:
    # The cases of `rules.characters.rally`, which `rally_blocked` asked.
    state = unit.state
    if state.status == Status.DESTROYED:
        return Status.DESTROYED.out_of_action
    if state.morale_hits == 0:
        return "No Morale hits to heal (Casualty hits are the medics' work)"
    return "In the combat zone with one Morale hit, which only R&R heals"


# A retreated unit is out of action, so it makes no check and takes no Order (the services'
# rule); but a character may still take command of it in camp, and a Strategist's heal of a
# Morale hit is what it may need most.
CHECK = Offer("make a check", _not_ready)
JOIN = Offer("take a leader", _destroyed_or_led, _not_leadable)
TRAIN = Offer("train", lambda unit: training_blocked(unit.state), _not_trainable)
RALLY = Offer("have a Morale hit healed", lambda unit: rally_blocked(unit.state), _not_rallied)
ORDER = Offer("be given an Order", _not_ready)
FIGHT = Offer("fight", _not_ready)


def _offered(campaign: Campaign, offer: Offer, owner: Any = None):
    units = _units(campaign, owner)
    if offer.blocked is _not_ready:
        # Whether a unit fights is its status, a column: asked in the query that draws the
        # choices, not of every unit beforehand.
        return units.filter(status__in=[status for status in Status if status.fights])
    return units.filter(pk__in=[unit.pk for unit in units if not offer.blocked(unit)])


class _LeavesOut:
    """A form whose unit fields offer the units ``offer`` allows, and says which it leaves out
    and why (`pages.left_out`), under the form."""

    offer: Offer
    campaign: Campaign
    owner: Any = None
    """A player's form: only the units of their own forces (`_units`)."""

    def _by_force(self) -> bool:
        # A big campaign's units out of action are counted by force; a player's own are few.
        return (
            self.owner is None
            and not _lists_every_unit(self.campaign)
            and self.offer.blocked is _not_ready
        )

    def _asks_by_name(self) -> bool:
        # A big campaign's form that asks its unit by name (`_unit_field`) refuses one it
        # cannot take by its name and why when sent, rather than reading every unit to say
        # here which it leaves out.
        return not _lists_every_unit(self.campaign) and any(
            isinstance(field, _UnitNamed) for field in self.fields.values()
        )

    @cached_property
    def left_out(self) -> list[str]:
        if self._by_force():
            return []  # counted by force instead (`left_out_forces`)
        if self._asks_by_name():
            return []
        units = [u for u in _units(self.campaign, self.owner) if self.offer.blocked(u)]
        if self.offer.left_out_as is None:
            return left_out(units)
        return left_out(blocked=[(unit, self.offer.left_out_as(unit)) for unit in units])

    @cached_property
    def left_out_forces(self) -> list[dict[str, str]]:
        """A big campaign's units out of action, counted by force (as a paged set-up does)."""
        if not self._by_force():
            return []
        return out_of_action_by_force(self.campaign)


def _in_name_order(unit: Unit) -> tuple[Any, ...]:
    return name_order(unit.force.name), name_order(unit.name)


class _InNameOrder(forms.models.ModelChoiceIterator):
    """The units by force, then name, as people read them (`pages.name_order`): "Squad 2"
    before "Squad 10", as the roster lists them."""

    def __iter__(self) -> Iterator[Any]:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for unit in self.field.in_name_order(self.queryset):
            yield self.choice(unit)


class _OfferedUnits:
    """A choice among the units an `Offer` allows, in name order (`_InNameOrder`). A unit of
    the campaign it does not offer (destroyed since the page was drawn, say) is refused by its
    name and the reason, as the field's error, rather than as a choice that is not there."""

    iterator = _InNameOrder
    default_error_messages = {
        "invalid_choice": "“%(value)s” names no unit of this campaign: choose one from the list."
    }
    owner: Any = None
    """Offered from the forces of this user only (`_units`), when given."""
    same_as: _OfferedUnits | None = None
    """Another field of the form offering the very same units (the quick resolve's attacker,
    for its defender): this one's list is drawn from that one's read, not a read of its own."""
    _drawn: list[Unit] | None = None

    def in_name_order(self, queryset: Any) -> list[Unit]:
        """The units offered, as listed; read once however many times the form draws them."""
        if self.same_as is not None:
            return self.same_as.in_name_order(self.same_as.queryset)
        if self._drawn is None:
            self._drawn = sorted(queryset, key=_in_name_order)
        return self._drawn

    def refusal(self, value: Any) -> ValidationError | None:
        key = key_named(value)
        if key is None:
            return None
        unit = _units(self.campaign, self.owner).filter(pk=key).first()
        if unit is None:
            return None
        why = self.offer.blocked(unit) or "it is not offered here"
        return ValidationError(f"{unit_label(unit)} cannot {self.offer.doing}: {why}",
                               code="not_offered")  # fmt: skip

    def label_from_instance(self, obj: Unit) -> str:
        return unit_label(obj)


class _UnitField(_OfferedUnits, forms.ModelChoiceField):
    """One of the units an `Offer` allows (of ``owner``'s forces, when given). In a campaign
    with no unit at all, the field says why its list is empty and how to fill it."""

    def __init__(self, campaign: Campaign, offer: Offer, owner: Any = None, **kwargs: Any) -> None:
        self.campaign, self.offer, self.owner = campaign, offer, owner
        kwargs.setdefault("empty_label", "Choose a unit")
        if owner is None and not kwargs.get("help_text"):
            # Read as the field is drawn, from the list it draws: no query while it offers any.
            kwargs["help_text"] = lazy(self._none_to_offer, str)()
        super().__init__(queryset=_offered(campaign, offer, owner), **kwargs)

    def _none_to_offer(self) -> str:
        """Why the list is empty when the campaign has no unit at all; the units it has but
        does not offer are said under the form (`_LeavesOut`)."""
        if self.same_as is not None:
            return ""  # said once, under the field whose list this one repeats
        if self.in_name_order(self.queryset) or _units(self.campaign).exists():
            return ""
        return NO_UNITS

    def to_python(self, value: Any) -> Any:
        try:
            return super().to_python(value)
        except ValidationError as error:
            raise self.refusal(value) or error from None


def order_under_way_text(order: Any) -> str:
    """An Order under way, as the Orders page names it: "Order to Use Skill, under way until
    day 2, 06:00"."""
    until = clock_text(order.finishes_at)
    return f"Order to {OrderKind(order.kind).label}, under way until {until}"


class _OrderedUnitField(_UnitField):
    """A unit to give an Order to, each named with the battle not yet applied that holds it
    ("awaiting review of Battle of the Crossroads", as its status says it) and the Order under
    way it would replace. A held unit is offered: an Order is for what comes next, and the
    battle it is in went on under the Orders it took in."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        super().__init__(campaign, offer, **kwargs)
        self.under_way = orders_under_way(campaign, list(self.queryset))
        self.held = roster.engaged_battles(campaign=campaign)

    def label_from_instance(self, obj: Unit) -> str:
        order, battle = self.under_way.get(obj.pk), self.held.get(obj.pk)
        label = unit_label(obj)
        if battle is not None:
            label += f", {battle.holds_unit.lower()} {battle.held_in} {battle.name}"
        return label if order is None else f"{label}: its {order_under_way_text(order)}"


class _CharacterField(forms.ModelChoiceField):
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
    one on each form of the page, as its big forms ask a unit (`_UnitNamed`). One the form does
    not offer is refused by name and why (``why_not``), as `_CharacterField` refuses it."""

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
) -> _CharacterField | _CharacterNamed:
    """The characters ``offered`` (living ones): chosen from a list while the campaign has up
    to `battle_setup.LIST_EVERY_UNIT` living characters, as a unit is; past that, typed by name
    (`_CharacterNamed`)."""
    if _living_count(campaign) > battle_setup.LIST_EVERY_UNIT:
        return _CharacterNamed(campaign, offered, why_not, **kwargs)
    return _CharacterField(campaign, offered, why_not, **kwargs)


def _dead_or_not_theirs(player: Any) -> Callable[[Any], str]:
    def why_not(character: Any) -> str:
        if player is not None and character.player_id != player.pk:
            # Another player's character is not named: it is none of this player's business.
            return NOT_YOURS
        return f"{character.name} is dead" if not character.alive else ""

    return why_not


NOT_YOURS = "That character is not one of yours: your characters are in the list."


NO_FORCES = "The campaign has no force yet: raise one on the campaign's page."
NO_CHARACTERS = "The campaign has no living character yet: create one under New character."


def _character_field(
    campaign: Campaign, player: Any = None, nobody: str = "", **kwargs: Any
) -> _CharacterField | _CharacterNamed:
    # A dead character leads, trains, heals, rallies, orders and requisitions no more (the
    # services refuse one): the forms offer the living only; a player's, their own. With none
    # to offer, the field says why beneath its empty list (``nobody``).
    living = campaign.characters.filter(alive=True)
    if player is not None:
        living = living.filter(player=player)
    if nobody and not (living.exists() if player is not None else _living_count(campaign)):
        kwargs["help_text"] = nobody
    return _character_choice(campaign, living, _dead_or_not_theirs(player), **kwargs)


class CharacterForm(PageForm):
    name = forms.CharField(max_length=200)
    hit_points = WholeNumberField(counts="hit point", min_value=1, max_value=HIT_POINTS_MAX)
    feats = forms.MultipleChoiceField(
        choices=FEAT_CHOICES, required=False, widget=forms.CheckboxSelectMultiple,
        label="Feats and classes",
    )  # fmt: skip
    player = ListedName(max_length=150, required=False, label="Played by")

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        _, *people = people_choices(campaign, who_play=True)
        self.fields["player"].widget.choices = [("", "Nobody: an NPC"), *people]

    def clean_player(self) -> Any:
        username = self.cleaned_data.get("player", "").strip()
        if not username:
            return None
        field = UserField(max_length=150)
        field.campaign = self.campaign
        return field.clean(username)


class CampaignForm(PageForm):
    """A form whose choices are the campaign's units and characters; sent twice, it acts once
    (its one-time key, `views.form_action`)."""

    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        self.campaign = campaign
        super().__init__(*args, **kwargs)

    def only_character(self, name: str = "character") -> int | None:
        """The one character field ``name`` offers, if it offers just one (a player's one
        character, the campaign's one Strategist): the form starts on it."""
        offered = getattr(self.fields[name], "queryset", None)
        if offered is None:
            return None
        pks = list(offered.values_list("pk", flat=True)[:2])
        return pks[0] if len(pks) == 1 else None

    def starts_on_the_only_character(self) -> None:
        """An unsent form whose list offers one character starts on it: nothing to choose."""
        if not self.is_bound and "character" not in self.initial:
            self.initial["character"] = self.only_character()

    def starts_on_unit(self, pk: int | None) -> None:
        """An unsent form asked for unit ``pk`` (a unit page's link to it) starts on it: its key
        in a list, its name where the unit is typed (`_UnitNamed`)."""
        if self.is_bound or pk is None:
            return
        if isinstance(self.fields["unit"], _UnitNamed):
            unit = _units(self.campaign).filter(pk=pk).first()
            self.initial["unit"] = unit_label(unit) if unit else None
        else:
            self.initial["unit"] = pk


def _unit_field(campaign: Campaign, offer: Offer, **kwargs: Any) -> forms.Field:
    """One of the units ``offer`` allows: chosen from a list where the campaign's forms list
    every unit, else typed by name (`_UnitNamed`), as the checks ask them, rather than a list
    of every unit on each form of the page."""
    if _lists_every_unit(campaign):
        return _UnitField(campaign, offer, **kwargs)
    return _UnitNamed(campaign, offer, **kwargs)


class JoinForm(_LeavesOut, CampaignForm):
    under_the_characters = True
    offer = JOIN

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = _character_field(self.campaign, nobody=NO_CHARACTERS)
        if isinstance(self.fields["character"], _CharacterField):
            self.fields["character"].shows_unit_led()
        self.fields["unit"] = _unit_field(self.campaign, JOIN, label="Joins unit")
        self.starts_on_unit(self.initial.get("unit"))
        self.starts_on_the_only_character()


def _characters_who(
    campaign: Campaign, may: Callable[[Any], bool], cannot: str, nobody: str = "", **kwargs: Any
) -> _CharacterField | _CharacterNamed:
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


TRAINER_NOT = "is neither Special Forces nor a Strategist, so trains no unit"
RALLIER_NOT = "is not a Strategist, so heals no Morale hits"
NOBODY_TRAINS = (
    "Training is given by a Special Forces or Strategist character of the campaign, and it has "
    "none alive: create one under New character."
)
NOBODY_RALLIES = (
    "A Morale hit is healed so by a Strategist character of the campaign, and it has none "
    "alive: create one under New character."
)

TRAINING_HELP = (
    "A course of training by a Special Forces or Strategist character: one quality step up, to "
    "Experienced at most, for a ready unit out of the combat zone. The course takes the time "
    "your table rules: the campaign's clock does not move for it (advance the calendar on the "
    "campaign's page)."
)
"""What training does, said above each training form."""


class TrainByForm(_LeavesOut, CampaignForm):
    under_the_characters = True
    help = TRAINING_HELP
    offer = TRAIN

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = _characters_who(
            self.campaign, can_train, TRAINER_NOT, NOBODY_TRAINS, label="Trainer"
        )
        self.fields["unit"] = _unit_field(self.campaign, TRAIN, label="Trains unit")
        self.starts_on_the_only_character()


class UnitTrainForm(CampaignForm):
    """Training from the unit's page: the trainer is one of the campaign's living Special
    Forces or Strategist characters."""

    help = TRAINING_HELP

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = _characters_who(
            self.campaign, can_train, TRAINER_NOT, label="Trainer", empty_label=None
        )
        self.fields["reason"] = forms.CharField(max_length=300, required=False)


class HealForm(CampaignForm):
    under_the_characters = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = _character_field(
            self.campaign, nobody=NO_CHARACTERS, label="Heals"
        )
        self.fields["character"].shows_hit_points = True
        self.starts_on_the_only_character()
        self.fields["hit_points"] = WholeNumberField(
            counts="hit point",
            min_value=1,
            max_value=HIT_POINTS_MAX,
            label="Hit points healed (as the d20 table worked out)",
        )
        # The heal's record reads the words after the character's name ("Capt. Holt rests a
        # night: hit points 3 → 8 of 14", `services.characters.heal_text`), so the example is
        # a verb, not a noun ("Capt. Holt a night's rest" is no sentence).
        self.fields["reason"] = forms.CharField(
            max_length=300,
            required=False,
            label="How, read after their name (rests a night, is treated by the medic…)",
            help_text=self.example(),
        )

    def example(self) -> str:
        """How the record keeps the words, said of one of the campaign's own characters the GM
        may heal (the first by name, healed half what it lacks), never a name the campaign does
        not have; with none hurt, of no name at all."""
        hurt = (
            self.campaign.characters.filter(alive=True, hit_points__lt=F("max_hit_points"))
            .order_by("name")
            .first()
        )
        if hurt is None:
            return "Kept after the character's name: “… rests a night: hit points 3 → 8 of 14.”"
        lacks = hurt.max_hit_points - hurt.hit_points
        after = hurt.hit_points + (lacks + 1) // 2
        said = heal_text(hurt.name, "rests a night", hurt.hit_points, after, hurt.max_hit_points)
        return f"Kept as “{said}.”"


class RallyForm(_LeavesOut, CampaignForm):
    under_the_characters = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = _characters_who(
            self.campaign, can_rally, RALLIER_NOT, NOBODY_RALLIES, label="Strategist"
        )
        # Once a day for each unit: one rallied today is not offered, as the service refuses it.
        rallied = rallied_today(self.campaign)
        self.offer = Offer(
            RALLY.doing,
            lambda unit: HEALED_TODAY if unit.pk in rallied else RALLY.blocked(unit),
            lambda unit: HEALED_TODAY_LEFT_OUT if unit.pk in rallied else _not_rallied(unit),
        )
        self.fields["unit"] = _unit_field(self.campaign, self.offer, label="Heals a Morale hit of")
        self.starts_on_the_only_character()


class OrderForm(_LeavesOut, CampaignForm):
    """The GM's, every living character to every unit; a player's (``player``), their own
    living characters to the units of their own forces (`services.orders.player_gives`)."""

    offer = ORDER

    def __init__(self, *args: Any, player: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = player
        self.fields["giver"] = _character_field(
            self.campaign, player, label="Given by",
            help_text="Your living characters give your units Orders." if player else
            "A living character of the campaign gives an Order (the Characters page "
            "creates them): a player's character to the units of its player's forces and the "
            "unit it leads, an NPC to any unit.",
        )  # fmt: skip
        if player is None and isinstance(self.fields["giver"], _CharacterField):
            self.fields["giver"].shows_whom_it_orders()
        self._starts_on = self.initial.get("unit")
        """The unit's pk the form starts on, if any."""
        if player is None and not _lists_every_unit(self.campaign):
            # The GM's form in a campaign too big to list its units asks the unit by name
            # (`_unit_field`), and starts on the unit it was asked for by its name too.
            self.fields["unit"] = _UnitNamed(
                self.campaign, ORDER, label="To unit",
                help_text="Its name, as its force's roster gives it: a new Order replaces the "
                "one under way.",
            )  # fmt: skip
            self.starts_on_unit(self._starts_on)
        else:
            self.fields["unit"] = _OrderedUnitField(
                self.campaign, ORDER, owner=player, label="To unit",
                help_text="A unit under an Order is named with it: a new Order replaces the "
                "one under way" + (", if one of your characters gave it." if player else "."),
            )  # fmt: skip
        self.fields["kind"] = forms.ChoiceField(
            choices=ORDER_CHOICES, label="Order",
            error_messages={"invalid_choice": "“%(value)s” is not one of the Orders table's "
                            "Orders; choose one from the list."},
            help_text="An Order that needs a specialty the unit lacks falls outside its "
            "specialties: it performs as Raw, with Poor kit.",
        )  # fmt: skip
        if not self.is_bound and "giver" not in self.initial:
            self.initial["giver"] = self._likely_giver()
        use_skill = OrderKind.USE_SKILL
        self.fields["listed_hours"] = WholeNumberField(
            counts="hour", min_value=1, max_value=LISTED_HOURS_MAX, required=False,
            label=f"Hours the skill takes ({use_skill.label} only)",
            help_text=f"What the skill's own rules give, before the unit's quality shortens "
            f"it. Left empty: {use_skill.row.listed_hours} hours, as the Orders table lists. "
            f"Leave it empty for other Orders: their time is the table's.",
        )  # fmt: skip
        self.fields["note"] = forms.CharField(max_length=300, required=False)

    def _likely_giver(self) -> int | None:
        """Who the form starts on: the character leading the unit it starts on, or the only
        character it offers (a player's one character), if any."""
        givers = self.fields["giver"].queryset.values_list("pk", flat=True)
        unit = self._starts_on
        if unit is not None and (leading := givers.filter(leading__unit=unit).first()):
            return leading
        return self.only_character("giver")


class CallOffForm(CampaignForm):
    """Calls off one Order under way, which the GM judges makes no sense any more: one such
    form for each Order under way on the page, its ids numbered by the Order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["order"] = forms.ModelChoiceField(
            queryset=Order.objects.filter(campaign=self.campaign),
            widget=forms.HiddenInput,
            error_messages={"invalid_choice": "That Order is not one of this campaign's."},
        )


ROLL_SEED_HELP = (
    "Optional. The same seed and set-up roll the same dice again; left empty, one is drawn."
)
"""What the seed of a roll at the table does, said under each form that rolls (a battle's
forms say `battles.forms.SEED_HELP`)."""


class ClockForm(PageForm):
    hours = WholeNumberField(
        counts="hour", min_value=1, max_value=MAX_DAYS * HOURS_PER_DAY, initial=1
    )
    reason = forms.CharField(max_length=300, required=False)


class QuickResolveForm(_LeavesOut, PageForm):
    """An engagement between two units, fought out BUCS unit against unit."""

    offer = FIGHT

    attacker = forms.ModelChoiceField(queryset=Unit.objects.none())  # offered in __init__
    defender = forms.ModelChoiceField(queryset=Unit.objects.none())
    attacker_dug_in = forms.BooleanField(required=False, label="Attacker dug in")
    attacker_surprise = forms.BooleanField(required=False, label="Attacker has surprise")
    defender_dug_in = forms.BooleanField(required=False, label="Defender dug in")
    defender_pinned_down = forms.BooleanField(required=False, label="Defender pinned down")
    round_limit = WholeNumberField(
        counts="round", min_value=1, max_value=ROUND_LIMIT_MAX, required=False
    )
    seed = SeedField(help_text=ROLL_SEED_HELP)
    reason = forms.CharField(max_length=300, required=False, label="What happened")
    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        # Only a ready unit fights, as on the engagement page: a retreated or destroyed one is
        # not offered, and one that is no longer ready when the form comes back (destroyed in
        # another tab since the dashboard was drawn) is refused by its name and why (`FIGHT`).
        # A campaign too big to list its units asks them by name, as the checks do: two
        # lists of every ready unit would be most of the dashboard, and read every unit.
        for field in ("attacker", "defender"):
            self.fields[field] = _unit_field(campaign, FIGHT, label=field.capitalize())
        if _lists_every_unit(campaign):
            # Both lists offer the same ready units: one read draws the two.
            self.fields["defender"].same_as = self.fields["attacker"]
        self.fields["round_limit"].initial = campaign.quick_resolve_rounds

    def stances(self) -> tuple[dict[str, bool], dict[str, bool]]:
        data = self.cleaned_data
        return (
            {"dug_in": data["attacker_dug_in"], "surprise": data["attacker_surprise"]},
            {"dug_in": data["defender_dug_in"], "pinned_down": data["defender_pinned_down"]},
        )


class EngagementForm(CampaignForm):
    """Who fights on which side, and the situation the GM states."""

    name = forms.CharField(max_length=200, required=False, label="What happened")
    terrain = forms.ChoiceField(choices=[(t, terrain_label(t)) for t in TERRAINS])
    surprise = forms.ChoiceField(
        choices=[("", "No one hides"), *((s, f"The {s} try to hide") for s in SIDES)],
        required=False,
    )
    round_limit = WholeNumberField(counts="round", min_value=1, max_value=ROUND_LIMIT_MAX)
    seed = SeedField(help_text=ROLL_SEED_HELP)
    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""

    def __init__(self, *args: Any, browse: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round_limit"].initial = self.campaign.quick_resolve_rounds
        # Only a unit that may fight has a row, as on a battle's set-up: one out of action or
        # still in a battle whose outcome is not applied is named under the form instead. A
        # campaign with more units than a page lists shows a page of them (``browse``: the
        # page asked for), the units already put on a side carried along first.
        offered = units_offered(self.campaign, self.data if self.is_bound else browse or {})
        self.units = offered.units
        self.engaged = offered.engaged
        self.refused = offered.refused
        self.paged = offered.paged
        self.left_out = offered.left_out
        self.left_out_forces = offered.out_of_action
        self.no_units = offered.no_units
        self.rows = []
        for unit in self.units:
            side = f"side_{unit.pk}"
            self.fields[side] = forms.ChoiceField(
                choices=[("", "Not fighting"), *((s, s.capitalize()) for s in SIDES)],
                required=False,
                label=f"{unit.name} ({unit.force.name})",
                error_messages=not_a_choice(unit, "a side of an engagement"),
            )  # fmt: skip
            flags = []
            for flag in SITUATION_FIELDS:
                name = f"{flag}_{unit.pk}"
                self.fields[name] = forms.BooleanField(required=False,
                                                       label=SITUATION_LABELS[flag])  # fmt: skip
                flags.append(name)
            self.rows.append((unit, side, flags))

    def bound_rows(self):
        return [(unit, self[side], [self[f] for f in flags]) for unit, side, flags in self.rows]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen_problems(self)
        return data

    def sides(self) -> dict[str, list[Unit]]:
        data = self.cleaned_data
        return {s: [u for u in self.units if data.get(f"side_{u.pk}") == s] for s in SIDES}

    def situations(self) -> dict[int, dict[str, bool]]:
        data = self.cleaned_data
        chosen = {u.pk for units in self.sides().values() for u in units}
        return {
            u.pk: {flag: bool(data.get(f"{flag}_{u.pk}")) for flag in SITUATION_FIELDS}
            for u in self.units
            if u.pk in chosen
        }


class RevertEngagementForm(PageForm):
    """Sent twice, it reverts once and says so again (its one-time key)."""

    reason = revert_reason()
    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""


CANNOT_ALONE_UNNAMED = (
    "Not named in a campaign this big: a Green or Raw unit with no Order, no leader and no "
    "Legendary unit commanding it, and any unit with no Order on a skill outside its "
    "specialties (where it performs as Raw). The roll names each one it refuses."
)


class _SaysWhoCannotAlone:
    """A check's form that says under it which of the units it offers cannot make a check on
    their own as they stand, and why (`services.checks.units_not_alone`), so the GM sees it
    before the roll refuses them, whether the units are listed or typed by name."""

    campaign: Campaign

    @cached_property
    def cannot_alone(self) -> list[str]:
        if not _lists_every_unit(self.campaign):
            # A page that names no unit reads none of their Orders and leaders either.
            return [CANNOT_ALONE_UNNAMED]
        # Read once for the page's forms, as `_ready_count` is.
        if (known := getattr(self.campaign, "_cannot_alone", None)) is None:
            known = self.campaign._cannot_alone = left_out(blocked=units_not_alone(self.campaign))
        return known


class SkillCheckForm(_SaysWhoCannotAlone, _LeavesOut, CampaignForm):
    offer = CHECK

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["lead"] = _check_unit_field(self.campaign, label="Unit making the check")
        self.fields["helpers"] = _helpers_field(
            self.campaign, "Units helping (Strength in numbers)", helps="lead"
        )
        self.fields["skill"] = forms.ChoiceField(choices=SKILL_CHOICES, required=False)
        self.fields["dc"] = WholeNumberField(min_value=1, max_value=DC_MAX, label="DC")
        self.fields["seed"] = SeedField(help_text=ROLL_SEED_HELP)
        self.fields["reason"] = forms.CharField(max_length=300, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        _not_helping_itself(self, "lead", "helpers")
        return data

    def units(self) -> list[Unit]:
        data = self.cleaned_data
        return [data["lead"], *(u for u in data["helpers"] if u.pk != data["lead"].pk)]

    def field_for(self, name: str) -> str | None:
        return "lead" if name == "units" else name


class _UnitsField(_OfferedUnits, forms.ModelMultipleChoiceField):
    """Several of the units an `Offer` allows. A value that names no key the database could
    hold (too large, negative, not digits: ``key_named``) is refused as a choice that is not
    there, before the database sees it (SQLite raises on a number out of its range).

    Only a choice of several needs this: Django answers an exact lookup (a `ModelChoiceField`,
    ``filter(pk=…)``) on an out-of-range number with no row, but sends an ``__in`` list to the
    database as it is."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        self.campaign, self.offer = campaign, offer
        super().__init__(queryset=_offered(campaign, offer), **kwargs)

    def _check_values(self, value):
        for key in value:
            if key_named(key) is None:
                raise ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice",
                    params={"value": key},
                )  # fmt: skip
        try:
            return super()._check_values(value)
        except ValidationError as error:
            if error.code != "invalid_choice":
                raise
            raise self.refusal(error.params["value"]) or error from None


HELPERS_AT_MOST = 40
"""Units a check's side names as helping it, when they are typed by name."""


def _by_name(campaign: Campaign, offer: Offer, typed: str) -> Unit:
    """The campaign's unit named ``typed`` ("Squad 7", or "Squad 7 (Red Company)" where two
    forces have a Squad 7), if ``offer`` allows it; else a refusal in the campaign's words."""
    units = _units(campaign)
    # As typed (a name may hold two spaces running), or with its spaces tidied.
    said = dict.fromkeys((typed.strip(), " ".join(typed.split())))
    # A unit's label, as the suggestions give it, first: "Recon (North) (Red Company)" is
    # Recon (North) of Red Company, "Recon (North)" Recon of North if a force is so called.
    # Either name may hold brackets, so every way to split it is tried, in one query.
    labels = [
        Q(name__iexact=text[: split.start()], force__name__iexact=text[split.end() : -1])
        for text in said
        if text.endswith(")")
        for split in re.finditer(r" \(", text)
    ]
    found = list(units.filter(reduce(or_, labels))[:6]) if labels else []
    if not found:
        found = list(units.filter(reduce(or_, (Q(name__iexact=text) for text in said)))[:6])
    typed = " ".join(typed.split())
    if not found:
        raise ValidationError(f"No unit of the campaign is named {quoted(typed)}.", code="no_unit")
    if len(found) > 1:
        names = and_words([unit_label(unit) for unit in found[:5]])
        raise ValidationError(
            f"More than one unit is named {quoted(typed)}: {names}. Name its force too, as "
            f"{quoted(unit_label(found[0]))}.",
            code="ambiguous",
        )
    unit = found[0]
    if why := offer.blocked(unit):
        raise ValidationError(f"{unit_label(unit)} cannot {offer.doing}: {why}", code="not_offered")
    return unit


class _UnitNamed(forms.CharField):
    """One of the units an `Offer` allows, typed by name: a big campaign's forms ask this
    rather than list every unit (`battle_setup.lists_every_unit`)."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        self.campaign, self.offer = campaign, offer
        kwargs.setdefault("help_text", "Its name, as its force's roster gives it.")
        super().__init__(max_length=300, **kwargs)

    def clean(self, value: Any) -> Any:
        typed = super().clean(value)
        return _by_name(self.campaign, self.offer, typed) if typed else None


class _UnitsNamed(forms.CharField):
    """Several of the units an `Offer` allows, typed by name, one a line."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        self.campaign, self.offer = campaign, offer
        kwargs.setdefault("help_text", "Their names, one a line.")
        super().__init__(
            max_length=HELPERS_AT_MOST * 310,
            widget=forms.Textarea(attrs={"rows": 3}),
            **kwargs,
        )

    def clean(self, value: Any) -> Any:
        lines = [line for line in (super().clean(value) or "").splitlines() if line.strip()]
        if len(lines) > HELPERS_AT_MOST:
            raise ValidationError(f"Name at most {HELPERS_AT_MOST} units helping.")
        units, errors = [], []
        for line in lines:
            try:
                unit = _by_name(self.campaign, self.offer, line)
            except ValidationError as error:
                errors.extend(error.messages)
            else:
                if unit not in units:
                    units.append(unit)
        if errors:
            raise ValidationError(errors)
        return units


CHECK_LISTS_AT_MOST = 20
"""Ready units a check's fields list, a choice or a box each. With more, its units are typed
by name, the ready ones suggested once for every field (`check_units_suggested`): the three
sides of the Checks page's forms would otherwise draw a choice and a box for every unit three
times over (with 128 units, some 800 of them, seconds to draw)."""


def _ready_count(campaign: Campaign) -> int:
    """`battle_setup.ready_count`, asked once for the page's forms."""
    if (known := getattr(campaign, "_ready_count", None)) is None:
        known = campaign._ready_count = ready_count(campaign=campaign)
    return known


def _lists_every_unit(campaign: Campaign) -> bool:
    """`battle_setup.lists_every_unit`, asked once for the page's forms."""
    return _ready_count(campaign) <= battle_setup.LIST_EVERY_UNIT


def _check_lists_units(campaign: Campaign) -> bool:
    return _ready_count(campaign) <= CHECK_LISTS_AT_MOST


CHECK_UNITS_LIST = "check-units"
"""The id of the list of ready units' names a check's unit fields suggest."""


def check_units_suggested(campaign: Campaign) -> list[str]:
    """The ready units' names a check's typed unit fields suggest, as pages name them, by
    force and name; none when the fields list them, or when there are more than a battle's
    form lists (`battle_setup.LIST_EVERY_UNIT`)."""
    if _check_lists_units(campaign) or not _lists_every_unit(campaign):
        return []
    ready = _offered(campaign, CHECK)
    return [unit_label(u) for u in sorted(ready, key=_in_name_order)]


def _check_unit_field(campaign: Campaign, **kwargs: Any) -> forms.Field:
    if _check_lists_units(campaign):
        return _UnitField(campaign, CHECK, **kwargs)
    if _lists_every_unit(campaign):
        kwargs["widget"] = forms.TextInput(attrs={"list": CHECK_UNITS_LIST, "autocomplete": "off"})
        kwargs["help_text"] = "Its name: start typing and the ready units are suggested."
    return _UnitNamed(campaign, CHECK, **kwargs)


def _not_helping_itself(form: forms.Form, lead: str, helpers: str) -> None:
    """A unit ticked as helping the check it makes itself: said next to the helpers, not
    silently dropped."""
    unit = form.cleaned_data.get(lead)
    if unit is not None and unit in (form.cleaned_data.get(helpers) or []):
        form.add_error(
            helpers,
            f"{unit.name} makes the check itself, so it cannot also help it: untick it here.",
        )


def _helpers_field(campaign: Campaign, label: str, helps: str) -> forms.Field:
    """The units helping the unit of the field ``helps``. Listed, each box names that field, so
    the unit chosen there is not offered as helping itself (campaign/check-helpers.js); the
    server refuses it all the same (`_not_helping_itself`)."""
    if not _check_lists_units(campaign):
        return _UnitsNamed(campaign, CHECK, required=False, label=label)
    boxes = forms.CheckboxSelectMultiple(attrs={"data-helps": helps})
    return _UnitsField(campaign, CHECK, required=False, widget=boxes, label=label)


class ContestForm(_SaysWhoCannotAlone, _LeavesOut, CampaignForm):
    """Each side is a unit and the units helping it: Strength in numbers comes from those that
    share the side's skill, as in a skill check."""

    offer = CHECK

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["active"] = _check_unit_field(self.campaign, label="Active unit (e.g. recon)")
        self.fields["active_helpers"] = _helpers_field(
            self.campaign, "Units helping the active unit", helps="active"
        )
        self.fields["active_skill"] = forms.ChoiceField(choices=SKILL_CHOICES, required=False)
        self.fields["resisting"] = _check_unit_field(
            self.campaign, label="Resisting unit (e.g. hidden)"
        )
        self.fields["resisting_helpers"] = _helpers_field(
            self.campaign, "Units helping the resisting unit", helps="resisting"
        )
        self.fields["resisting_skill"] = forms.ChoiceField(choices=SKILL_CHOICES, required=False)
        self.fields["seed"] = SeedField(help_text=ROLL_SEED_HELP)
        self.fields["reason"] = forms.CharField(max_length=300, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        _not_helping_itself(self, "active", "active_helpers")
        _not_helping_itself(self, "resisting", "resisting_helpers")
        return data

    def side(self, name: str) -> list[Unit]:
        """The side's unit first, then its helpers."""
        lead = self.cleaned_data[name]
        return [lead, *(u for u in self.cleaned_data[f"{name}_helpers"] if u.pk != lead.pk)]


class RequisitionQualityField(forms.ChoiceField):
    """The qualities a Requisition may raise; an Elite or Legendary one sent all the same is
    refused with the rule's reason (`rules.checks.requisition_quality_problem`), not as an
    unknown choice."""

    def validate(self, value: Any) -> None:
        try:
            problem = requisition_quality_problem(quality_from_name(value))
        except ValueError:
            problem = ""
        if problem:
            raise ValidationError(f"{capfirst(problem)}.", code="invalid_choice")
        super().validate(value)


class RequisitionForm(CampaignForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        forces = Force.objects.filter(campaign=self.campaign).order_by("name")
        self.fields["force"] = forms.ModelChoiceField(
            queryset=forces,
            empty_label="Choose a force",
            help_text="" if forces.exists() else NO_FORCES,
        )
        self.fields["unit_type"] = forms.ModelChoiceField(
            queryset=UnitType.objects.filter(
                ruleset=self.campaign.ruleset, kind=UnitType.Kind.UNIT
            ).order_by("name"),
            label="Card",
            empty_label="Choose a card",
        )
        # Each card names the specialty it needs, as on its force's page (`card_label`).
        self.fields["unit_type"].label_from_instance = card_label
        self.fields["name"] = forms.CharField(max_length=200)
        # Elite and Legendary come only from combat: the form offers what a roll may raise.
        self.fields["quality"] = RequisitionQualityField(
            # Each with its DC, and each kit with what it adds to it, so the GM sees the DC
            # before the roll (`rules.checks.requisition_dc`).
            choices=[
                (quality_name(q), f"{q.label} (DC {dc})") for q, dc in REQUISITION_BASE_DC.items()
            ],
            initial="average",
            help_text="Raw to Experienced: Elite and Legendary come only from combat.",
        )
        self.fields["equipment"] = forms.ChoiceField(
            choices=[(e.value, f"{e.label} ({signed(e.modifier)} to the DC)") for e in Equipment],
            initial="adequate",
        )
        self.fields["specialties"] = forms.MultipleChoiceField(
            choices=SPECIALTY_CHOICES,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text=SPECIALTIES_LEFT_EMPTY,
        )
        self.fields["character"] = _character_field(
            self.campaign, required=False, label="Requisitioned by"
        )
        self.fields["bonus"] = WholeNumberField(
            min_value=-40, max_value=40, initial=0, label="Their Requisition bonus"
        )
        self.fields["seed"] = SeedField(help_text=ROLL_SEED_HELP)

    def clean(self) -> dict[str, Any]:
        return specialties_left_empty(super().clean())


def requisition_asked(setup: dict[str, Any]) -> dict[str, Any]:
    """A kept Requisition's asking (its roll's ``setup``) as the form's fields hold it: its
    force, card, name, quality, equipment, specialties, character and bonus; not its seed,
    which would roll the same die again."""
    unit = CampaignUnitState.from_json(setup["unit"])
    return {
        "force": setup["force"],
        "unit_type": setup["unit_type"],
        "name": unit.name,
        "quality": quality_name(unit.quality),
        "equipment": Equipment(unit.equipment).value,
        "specialties": [s.value for s in unit.specialties],
        "character": setup.get("character"),
        "bonus": setup.get("bonus", 0),
    }
