"""The GM's and players' forms on the campaign pages.

Forms only parse what was typed; the services decide what is allowed and say so with a
``ValidationError`` keyed by field, which ``add_service_errors`` puts next to that field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Q

from battles.engine.validation import MAX_SCENARIO_TEXT
from battles.forms import LaunchKeyField, NamesRequired, OneTimeBoundField, WholeNumberField
from battles.jsontext import read_json
from campaign.models import STORY_TEXT, Campaign, Force, Membership, Unit
from campaign.rules.bridge import card_needs, card_specialties
from campaign.rules.damage import LEADER_DEATH_MORALE_HITS
from campaign.rules.history import hit_points_text
from campaign.rules.orders import HOURS_PER_DAY
from campaign.rules.recovery import morale_hits_healable
from campaign.rules.state import (
    LEADER_DEATH_HIT_POINTS,
    STATUS_LABELS,
    UNIT_FIELDS,
    CampaignUnitState,
    ordered_specialties,
    quality_name,
)
from campaign.rules.values import MAX_HITS
from campaign.selectors.access import forces_the_gm_plays
from campaign.selectors.roster import leader_most_hit_points
from campaign.services.campaigns import HAND_OVER_STAYS
from campaign.services.characters import HIT_POINTS_MAX
from campaign.services.maps import MAP_NAME_NEEDED
from campaign.services.recovery import MAX_DAYS
from campaign.services.reverts import REVERT_REASON_NEEDED
from campaign.services.roster import LEADER_HIT_POINTS, MAX_RAISED_AT_ONCE
from config.security import megabytes
from units.bucs import Equipment, Quality, Specialty, kept_beyond_limit
from units.models import UnitType
from units.words import and_words, number_text, possessive, quoted

QUALITY_CHOICES = [(quality_name(q), q.label) for q in Quality]
EQUIPMENT_CHOICES = [(e.value, e.label) for e in Equipment]
SPECIALTY_CHOICES = [(s.value, s.label) for s in Specialty]
STATUS_CHOICES = [(s.value, label) for s, label in STATUS_LABELS.items()]


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's errors next to the fields they name; the rest above the form."""
    messages = error.message_dict if hasattr(error, "error_dict") else {None: error.messages}
    for field, problems in messages.items():
        # Services name nested fields ("outcomes.12", "deployments[0]"); the form's own field
        # names use underscores, so try the plain name, then the first part.
        name = None
        if field is not None:
            mapped = form.field_for(field) if hasattr(form, "field_for") else None
            for candidate in (mapped, field, field.replace(".", "_"), field.split(".")[0]):
                if candidate in form.fields:
                    name = candidate
                    break
        for problem in problems:
            # A field the form does not show: the service's own sentence names the thing. Said
            # once: a unit's several entries may each refuse for the same reason.
            if problem not in form.errors.get(name or NON_FIELD_ERRORS, ()):
                form.add_error(name, problem)


class PageForm(NamesRequired, forms.Form):
    """A form that may share its page with others. Its fields' ids carry the form's name
    (``id_leader_attach_name``, not ``id_name``), so no two elements of a page share an id and
    each label, error and script finds its own field."""

    bound_field_class = OneTimeBoundField  # a one-time form is not filled again by Back

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        words = re.sub(r"(?<!^)(?=[A-Z])", "_", type(self).__name__.removesuffix("Form"))
        kwargs.setdefault("auto_id", f"id_{words.lower()}_%s")
        super().__init__(*args, **kwargs)


class CampaignForm(PageForm):
    """A new campaign; the one who creates it is its GM."""

    name = forms.CharField(max_length=200)
    ruleset = forms.ChoiceField(
        choices=Campaign._meta.get_field("ruleset").choices,
        # Chosen once: no form changes it later, so the GM is told before choosing.
        help_text="The Team Bravo rules its battles are fought under, and their card library: "
        "it stays for the whole campaign. Under Combined Arms Skill lost to suppression costs a "
        "quality step for good; under One Year War it comes back (the Rules page says more).",
    )
    request_key = LaunchKeyField(required=False)  # the page's form always carries one


class AsDrawnField(forms.CharField):
    """A thing's fields as its form showed them, carried back hidden (JSON), so what the form
    sends can be told apart from what changed elsewhere since it was opened (a battle applied,
    the medics, another tab). A form drawn again with errors carries the thing as it stands
    then (its initial, never the stale value sent), so that form, sent again, is measured
    against what it shows."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, strip=False, **kwargs)

    def bound_data(self, data: Any, initial: Any) -> Any:
        return initial


class ChangedOnTheForm:
    """A form that corrects a thing's fields (a unit's, a force's): it carries the thing as it
    showed it (``drawn``, an `AsDrawnField`), so that only what its sender changed on it is
    written, and what changed elsewhere since it was opened (a battle applied, the medics,
    another tab) is not undone by a form that still shows it as it was."""

    drawn: AsDrawnField
    cleaned_data: dict[str, Any]
    fields: dict[str, forms.Field]

    @staticmethod
    def drawn_initial(now: dict[str, Any]) -> dict[str, Any]:
        """The form's first values: the thing's fields ``now``, and ``drawn`` recording them."""
        return {**now, "drawn": json.dumps(now)}

    def changed_on_the_form(self, now: dict[str, Any]) -> dict[str, Any]:
        """The fields changed on the form (their cleaned values), of those ``now`` holds (the
        thing as it stands). A field left as the form showed it stays as it stands now; one
        changed on the form that also changed since it was opened is refused beside it, saying
        what it is now (the form drawn again shows the thing as it is now, so it may be sent
        again)."""
        shown = self._as_drawn(now)
        changed, refused = {}, {}
        for field, old in now.items():
            sent = self.cleaned_data[field]
            new, was = self.comparable(field, sent), shown[field]
            if new == was or new == self.comparable(field, old):
                continue  # left as the form showed it, or as it stands already
            if was != self.comparable(field, old):
                refused[field] = (
                    f"Since this form was opened, this has become {self.shown(field, old)}: "
                    f"save again to make it {self.shown(field, new)} all the same."
                )
            else:
                changed[field] = sent
        if refused:
            raise ValidationError(refused)
        return changed

    def comparable(self, field: str, value: Any) -> Any:
        """A field's value as two are compared (a field sent, as stored, as drawn)."""
        return value

    def shown(self, field: str, value: Any) -> str:
        """A field's value in the form's own words: a choice by its label."""
        box = self.fields[field]
        labels = dict(getattr(box, "choices", None) or getattr(box.widget, "choices", ()))
        return str(labels.get(value, value)) if isinstance(value, str) else str(value)

    def _as_drawn(self, now: dict[str, Any]) -> dict[str, Any]:
        """The fields as the form showed them, from ``drawn``; a field it did not carry back
        (or carried in a shape of no such field) as it stands ``now``."""
        try:
            drawn = json.loads(self.cleaned_data.get("drawn") or "{}")
        except ValueError:
            drawn = {}
        if not isinstance(drawn, dict):
            drawn = {}
        shown = {}
        for field, value in now.items():
            carried = drawn.get(field, value)
            if type(carried) is not type(value) or (
                isinstance(value, list) and not all(isinstance(v, str) for v in carried)
            ):
                carried = value
            shown[field] = self.comparable(field, carried)
        return shown


class SettingsForm(ChangedOnTheForm, PageForm):
    """The GM's campaign settings: its name, how outcomes reach the rosters and what players
    see. Only what was changed on the form is written (`ChangedOnTheForm`): a rename sent from
    a page opened before a co-GM turned fog of war on leaves it on."""

    name = forms.CharField(max_length=200, label="The campaign's name")
    apply_mode = forms.ChoiceField(choices=Campaign.ApplyMode.choices, label="Battle outcomes")
    other_forces_visible = forms.ChoiceField(
        choices=Campaign.Visibility.choices, label="Other players' forces"
    )
    fog_of_war = forms.BooleanField(
        required=False,
        label="Fog of war",
        help_text="Players read a battle's log and replay as their side saw it.",
    )
    drawn = AsDrawnField()

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        self.campaign = campaign
        kwargs.setdefault("initial", self.drawn_initial(self.as_stands()))
        super().__init__(*args, **kwargs)

    @classmethod
    def for_campaign(cls, campaign: Campaign) -> SettingsForm:
        return cls(campaign=campaign)

    def as_stands(self) -> dict[str, Any]:
        return {field: getattr(self.campaign, field) for field in type(self).base_fields
                if field != "drawn"}  # fmt: skip

    def changes(self) -> dict[str, Any]:
        """The settings changed on the form, for `campaign_update`."""
        return self.changed_on_the_form(self.as_stands())

    def shown(self, field: str, value: Any) -> str:
        if field == "fog_of_war":
            return "on" if value else "off"
        return super().shown(field, value)


PLAYING_ROLES = (Membership.Role.PLAYER, Membership.Role.CO_GM)
"""The members who may play a force or a character, besides the GM."""


def people_choices(
    campaign: Campaign, members: Iterable[Membership] | None = None, *, who_play: bool
) -> list[tuple[str, str]]:
    """The campaign's people as a list offers them, by username with their part ("alice
    (Player)"), by name: ``who_play``, its GM and the members who may play a force (a force's
    player); else its members (whose part changes, or who are removed). ``members``: the
    campaign's memberships with their users, when the page has read them already."""
    if members is None:
        members = campaign.memberships.select_related("user")
    people = [
        (m.user.get_username(), m.get_role_display())
        for m in members
        if not who_play or m.role in PLAYING_ROLES
    ]
    if who_play:
        people.append((campaign.gm.get_username(), "GM"))
    first = "Choose a player" if who_play else "Choose a member"
    return [("", first), *((name, f"{name} ({part})") for name, part in sorted(people))]


def member_named(campaign: Campaign, username: str) -> Any:
    """The member (not the GM) of the campaign called ``username``; anyone else is refused in
    the same words whether or not an account by that name exists."""
    membership = campaign.memberships.select_related("user").filter(user__username=username)
    found = membership.first()
    if found is None:
        raise ValidationError(f"no member of this campaign is called {quoted(username)}")
    return found.user


class ListedName(forms.CharField):
    """A username chosen from a list of the campaign's people (the form sets its choices,
    `people_choices`); what is sent is read as text, and the form says who it may be."""

    widget = forms.Select

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {}  # a list has no typed length to limit (what is sent still is)


class UserField(ListedName):
    """One of the campaign's people (its GM or a member) by username. Anyone else sent is
    refused in the same words whether or not an account by that name exists, so the form
    tells no one which usernames there are; the form sets ``campaign``."""

    campaign: Campaign | None = None

    def clean(self, value: Any) -> Any:
        username = super().clean(value)
        user = None
        if self.campaign is not None:
            people = Q(pk=self.campaign.gm_id) | Q(memberships__campaign=self.campaign)
            user = get_user_model().objects.filter(people, username=username).first()
        if user is None:
            raise ValidationError(f"no one in this campaign is called {quoted(username)}")
        return user


class InvitationForm(PageForm):
    """Invite someone to the campaign; they join when they accept."""

    invitee = forms.CharField(max_length=254, label="Username or e-mail address")
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)


class NewAccountForm(PageForm):
    """An account made to join a campaign by an invitation's link."""

    # The autocomplete words let a phone's password manager offer and keep the new password.
    username = forms.CharField(
        max_length=150,
        help_text="What you log in with, and how the campaign names you.",
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
    )
    email = forms.EmailField(
        required=False,
        label="E-mail address (optional)",
        help_text="For e-mails about your units, if you ask for them on the campaign's page: "
        "a link to confirm it is mailed there.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = forms.CharField(
        strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password_again = forms.CharField(
        strip=False,
        label="Password, again",
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password") and data.get("password_again") != data["password"]:
            self.add_error("password_again", "This is not the password above: type it again.")
        return data


class MemberForm(PageForm):
    """Change a member's part in the campaign (only someone in it already)."""

    username = ListedName(max_length=150, label="Member")
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)
    NOT_THE_GM = "The GM's role does not change here: {username} is this campaign's GM."

    def __init__(
        self,
        *args: Any,
        campaign: Campaign,
        members: Iterable[Membership] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["username"].widget.choices = people_choices(campaign, members, who_play=False)

    def clean_username(self) -> Any:
        username = self.cleaned_data["username"]
        if username == self.campaign.gm.get_username():
            # Everyone sees who the GM is: saying so tells no one which usernames there are.
            raise ValidationError(self.NOT_THE_GM.format(username=username))
        return member_named(self.campaign, username)


class MemberRemoveForm(MemberForm):
    """Take a member out of the campaign (only someone in it already)."""

    role = None
    NOT_THE_GM = "{username} is this campaign's GM: the GM is not removed from it."


class ButtonForm(PageForm):
    """A form of one button (leaving the campaign, striking a unit off): nothing to fill in but
    its one-time key, so that sent twice it acts once."""

    request_key = LaunchKeyField(required=False)  # the page's form always carries one


class UnitMoveForm(PageForm):
    """Another force of the campaign for a unit, and why."""

    force = forms.ModelChoiceField(
        queryset=Force.objects.none(),
        label="To the force",
        empty_label="Choose a force",
        error_messages={
            "invalid_choice": "No force of this campaign has that number: choose one from the list."
        },
    )
    reason = forms.CharField(max_length=300, help_text="Goes into the unit's history.")

    def __init__(self, *args: Any, unit: Unit, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["force"]
        # Any force of the campaign is taken, the unit's own too: a move sent twice (or from a
        # page opened before another tab moved it) is refused by `unit_move` in words ("… is
        # in Red Company already"), not as a choice the list does not hold.
        field.queryset = unit.force.campaign.forces.all()
        # Drawn from one read of the other forces, each with its player; the queryset only
        # checks the one sent.
        others = list(
            field.queryset.exclude(pk=unit.force_id).select_related("owner").order_by("name")
        )
        self.offers = bool(others)
        choices = [(f.pk, f"{f.name} ({f.owner.get_username()})") for f in others]
        if len(others) == 1:  # the one other force, chosen already
            field.initial = others[0].pk
        else:
            choices.insert(0, ("", field.empty_label))
        field.widget.choices = choices


class ForceEditForm(ChangedOnTheForm, PageForm):
    """A force's name and its player (or the GM, or a co-GM): renamed, or given to another.
    Only what was changed on the form is written (`ChangedOnTheForm`): a rename sent from a
    page opened before the force was given to another player does not give it back."""

    name = forms.CharField(max_length=200)
    owner = UserField(max_length=150, label="Player")
    drawn = AsDrawnField()

    def __init__(
        self,
        *args: Any,
        force: Force,
        members: Iterable[Membership] | None = None,
        **kwargs: Any,
    ) -> None:
        self.force = force
        kwargs.setdefault("initial", self.drawn_initial(self.as_stands()))
        super().__init__(*args, **kwargs)
        self.fields["owner"].campaign = force.campaign
        choices = people_choices(force.campaign, members, who_play=True)
        self.fields["owner"].widget.choices = choices

    def as_stands(self) -> dict[str, Any]:
        return {"name": self.force.name, "owner": self.force.owner.get_username()}

    def changes(self) -> dict[str, Any]:
        """The name and the player as they are to be: changed on the form, or as they stand."""
        changed = self.changed_on_the_form(self.as_stands())
        return {"name": self.force.name, "owner": self.force.owner} | changed

    def comparable(self, field: str, value: Any) -> Any:
        return value.get_username() if field == "owner" and not isinstance(value, str) else value


class ForceForm(PageForm):
    """A new force for a player (or the GM)."""

    owner = UserField(max_length=150, label="Player")
    name = forms.CharField(max_length=200)

    def __init__(
        self,
        *args: Any,
        campaign: Campaign,
        members: Iterable[Membership] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["owner"].campaign = campaign
        self.fields["owner"].widget.choices = people_choices(campaign, members, who_play=True)


def card_label(card: UnitType) -> str:
    """A library card as the add-unit form offers it: "Rifle Squad (needs Infantry)"."""
    needed = and_words([s.label for s in ordered_specialties(card_needs(card))])
    return f"{card.name} (needs {needed})" if needed else card.name


SPECIALTIES_LEFT_EMPTY = (
    "Left empty: the specialty its card needs, named beside the card, if its quality may hold "
    "it (a Raw unit holds none). Outside its specialties a unit fights as Raw, with Poor kit."
)


def specialties_left_empty(data: dict[str, Any]) -> dict[str, Any]:
    """A form raising a unit on a card (``unit_type``) with no specialty ticked: it takes those
    its card needs, if its ``quality`` may hold them (`rules.bridge.card_specialties`); a Raw
    unit, or a Green one on a card that needs Armor (it brings Mechanized), is raised without,
    and told it fights as Raw with Poor kit on that card, rather than refused for what nobody
    ticked."""
    card, quality = data.get("unit_type"), data.get("quality")
    if card is not None and quality and not data.get("specialties"):
        data["specialties"] = [s.value for s in card_specialties(card, Quality.of_word(quality))]
    return data


class UnitAddForm(PageForm):
    """Raise a unit from a card of the library."""

    unit_type = forms.ModelChoiceField(
        queryset=UnitType.objects.none(), label="Card", empty_label="Choose a card"
    )
    name = forms.CharField(max_length=200)
    count = WholeNumberField(
        counts="unit",
        min_value=1,
        max_value=MAX_RAISED_AT_ONCE,
        initial=1,
        required=False,
        label="How many",
        help_text="More than one: each is named with its number after the name (Rifles 1, "
        "Rifles 2…), all alike.",
    )
    quality = forms.ChoiceField(choices=QUALITY_CHOICES, initial="average")
    equipment = forms.ChoiceField(choices=EQUIPMENT_CHOICES, initial="adequate")
    specialties = forms.MultipleChoiceField(
        choices=SPECIALTY_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=SPECIALTIES_LEFT_EMPTY,
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["unit_type"].queryset = UnitType.objects.filter(
            ruleset=campaign.ruleset, kind=UnitType.Kind.UNIT
        ).order_by("name")
        # Each card names the specialty it needs where it is chosen, with or without scripts.
        self.fields["unit_type"].label_from_instance = card_label

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["count"] = data.get("count") or 1  # left empty: one
        return specialties_left_empty(data)


DESTROYED_HITS = "Those it fell with: they count again only if its status is set back."
"""Beside a destroyed unit's hits, in its correction form: what the stored numbers are."""


class UnitEditForm(ChangedOnTheForm, PageForm):
    """A GM's correction: the fields as they should be, and why. Only what the GM changed on
    the form is written (`ChangedOnTheForm`)."""

    name = forms.CharField(max_length=200)
    quality = forms.ChoiceField(choices=QUALITY_CHOICES)
    equipment = forms.ChoiceField(choices=EQUIPMENT_CHOICES)
    specialties = forms.MultipleChoiceField(
        choices=SPECIALTY_CHOICES, required=False, widget=forms.CheckboxSelectMultiple
    )
    morale_hits = WholeNumberField(
        counts="Morale hit", min_value=0, max_value=MAX_HITS, label="Morale hits"
    )
    casualty_hits = WholeNumberField(
        counts="Casualty hit", min_value=0, max_value=MAX_HITS, label="Casualty hits"
    )
    status = forms.ChoiceField(choices=STATUS_CHOICES)
    experience = WholeNumberField(counts="experience point", min_value=0, max_value=9999)
    reason = forms.CharField(max_length=300, help_text="Goes into the unit's history.")
    drawn = AsDrawnField()

    def __init__(self, *args: Any, unit: Unit | None = None, **kwargs: Any) -> None:
        """``unit``: the unit corrected, its fields as they stand the form's first values; a
        unit with a living leader is asked its leader's hit points too."""
        if unit is not None:
            kwargs.setdefault("initial", self.drawn_initial(self.initial_for(unit)))
        super().__init__(*args, **kwargs)
        if unit is not None and (kept := kept_beyond_limit(unit.quality, unit.specialties)):
            # Its quality fell below what it holds: said where a specialty would be ticked.
            self.fields["specialties"].help_text = f"{kept} Untick one to give it up."
        if unit is not None and unit.state.destroyed:
            # Its page says "—" for hits a destroyed unit no longer carries: the numbers here
            # are said for what they are, not as hits it carries now.
            for field in ("morale_hits", "casualty_hits"):
                self.fields[field].help_text = DESTROYED_HITS
        leader = None if unit is None else getattr(unit, "leader", None)
        if leader is None or not leader.alive:
            return
        most = leader_most_hit_points(leader)
        reason = self.fields.pop("reason")
        self.fields[LEADER_HIT_POINTS] = WholeNumberField(
            counts="hit point",
            min_value=-HIT_POINTS_MAX,
            max_value=HIT_POINTS_MAX if most is None else most,
            label=f"{possessive(leader.name)} hit points "
            f"(now {hit_points_text(leader.hit_points, most=most)})",
            help_text="Casualty hits added here do not wound the leader: set their hit points "
            f"too. At {number_text(LEADER_DEATH_HIT_POINTS)} or below {leader.name} dies, "
            f"and {unit.name} takes {LEADER_DEATH_MORALE_HITS} Morale hits at once.",
        )
        self.fields["reason"] = reason

    @classmethod
    def initial_for(cls, unit: Unit) -> dict[str, Any]:
        """The unit's recorded fields this form corrects, as its snapshot holds them (quality by
        name), and its living leader's hit points. A subset of `UNIT_FIELDS` on purpose: the
        combat zone has its own form, and the rest (Skill lost, battles fought, last battle
        day) only battles move, or the admin."""
        snapshot = CampaignUnitState.from_row(unit, leader=None).to_json()
        initial = {name: snapshot[name] for name in UNIT_FIELDS if name in cls.base_fields}
        leader = getattr(unit, "leader", None)
        if leader is not None and leader.alive:
            initial[LEADER_HIT_POINTS] = leader.hit_points
        return initial

    def changes(self, unit: Unit) -> dict[str, Any]:
        """Only the fields the GM changed on the form (`changed_on_the_form`), so the history
        names just those, and a form opened before a battle's damage was written does not
        undo it."""
        return self.changed_on_the_form(self.initial_for(unit))

    def comparable(self, field: str, value: Any) -> Any:
        return sorted(value) if field == "specialties" and isinstance(value, list) else value

    def shown(self, field: str, value: Any) -> str:
        if field == "specialties":
            labels = dict(SPECIALTY_CHOICES)
            return and_words([str(labels.get(v, v)) for v in value]) or "none"
        return super().shown(field, value)


class AdvanceForm(PageForm):
    days = WholeNumberField(counts="day", min_value=1, max_value=MAX_DAYS, initial=1)
    reason = forms.CharField(max_length=300, required=False)


class ReviewedForm(forms.Form):
    """A review's confirmation of time passing: the clock hour the review was drawn at, which
    its confirmation carries back, so a second confirmation of the same review is refused
    (`recovery.clock_reviewed`). Read beside the calendar's and the clock's own forms."""

    reviewed_at = forms.IntegerField(min_value=0)


class NoticesForm(PageForm):
    email_notices = forms.BooleanField(
        required=False,
        label="E-mail me when my units are destroyed, lose Casualty hits to the medical window, "
        "rise or fall a step, or a battle of theirs is applied (and what it left them)",
    )


LOGIN_ERRORS_ID = "login-errors"
"""The id of the box around the login page's refusal, which its fields point to."""


class LoginForm(NamesRequired, AuthenticationForm):
    """Logging in. A field left empty is named by its label, as on every form of the site
    (`NamesRequired`). A wrong name or password belongs to neither field alone, so Django says
    it above the form; here it also describes both fields, marked invalid, so a screen reader
    that lands in the username field (the page's autofocus) hears why it is back there."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "No account has that username and password (capitals count in both).",
    }

    def full_clean(self) -> None:
        super().full_clean()
        if self.non_field_errors():
            for field in self.fields.values():
                field.widget.attrs.update(
                    {"aria-invalid": "true", "aria-describedby": LOGIN_ERRORS_ID}
                )


class EmailAskForm(PageForm):
    """An e-mail address for one's own account: a link to confirm it is mailed there."""

    address = forms.EmailField(
        label="New e-mail address",
        help_text="A link to confirm it is mailed there; it is yours once you open the link.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class AdvanceSummaryForm(PageForm):
    """The summary of an Advance or a move of the clock: how far it went, from when, and the
    history entries it wrote."""

    days = forms.IntegerField(min_value=1, max_value=MAX_DAYS, required=False)
    to = forms.IntegerField(min_value=1, required=False)
    hours = forms.IntegerField(min_value=1, max_value=MAX_DAYS * HOURS_PER_DAY, required=False)
    start = forms.IntegerField(min_value=0)
    """The clock hour the time moved on from: a move of the clock names its ``hours``, an
    Advance its ``days`` and the day it went ``to``; the Orders done meanwhile are told."""
    after = forms.IntegerField(min_value=0)
    upto = forms.IntegerField(min_value=0)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        calendar = data.get("days") is not None and data.get("to") is not None
        clock = data.get("hours") is not None
        if calendar == clock:
            raise forms.ValidationError("Name either the days and the day, or the hours.")
        return data


class MedicalForm(PageForm):
    """The medics of a force: the default triage (`recovery.medical_plan`: whole units first,
    then Casualty hits, then Morale hits, the highest quality first) with one click, or hits
    typed unit by unit: one ``save_<pk>`` field per unit whose Casualty hits await the medics,
    one ``heal_<pk>`` per unit with Morale hits they may heal. Sent twice, it sends the medics
    once."""

    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it

    reason = forms.CharField(max_length=300, required=False)

    def __init__(
        self,
        *args: Any,
        wounded: Sequence[Unit] = (),
        shaken: Sequence[Unit] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.wounded = list(wounded)
        self.shaken = list(shaken)
        for unit in self.wounded:
            self.fields[f"save_{unit.pk}"] = WholeNumberField(
                counts="Casualty hit",
                min_value=0,
                max_value=unit.casualty_hits,
                required=False,
                initial=0,
                label=f"{unit.name}: Casualty hits to save (of {unit.casualty_hits})",
            )
        for unit in self.shaken:
            room = morale_hits_healable(unit.state)
            # "(of 1)" beside a unit carrying 2 read as a miscount: the last is kept, and why.
            of = f"of {room}"
            if room < unit.morale_hits:
                of = f"{room} of its {unit.morale_hits}: in the combat zone it keeps its last"
            self.fields[f"heal_{unit.pk}"] = WholeNumberField(
                counts="Morale hit",
                min_value=0,
                max_value=room,
                required=False,
                initial=0,
                label=f"{unit.name}: Morale hits to heal ({of})",
            )

    def allocation_fields(self) -> list[tuple[Unit, forms.BoundField]]:
        return [(unit, self[f"save_{unit.pk}"]) for unit in self.wounded]

    def morale_fields(self) -> list[tuple[Unit, forms.BoundField]]:
        return [(unit, self[f"heal_{unit.pk}"]) for unit in self.shaken]

    def field_for(self, service_field: str) -> str | None:
        """``allocation.12`` and ``morale.12`` (the service's names) are the form's ``save_12``
        and ``heal_12``."""
        prefix, _, pk = service_field.partition(".")
        fields = {"allocation": "save", "morale": "heal"}
        return f"{fields[prefix]}_{pk}" if prefix in fields and pk else None

    def allocation(self) -> tuple[dict[int, int], dict[int, int]]:
        """(Casualty hits to save, Morale hits to heal) as the GM or owner chose them, unit by
        unit (units left at 0 are not treated); refused when nothing at all was chosen.

        A form drawn before the clock moved on may ask for hits of a unit it no longer offers
        (its Casualty hits died, the unit is gone): those go to the medics as asked, whose
        refusal says why, rather than being dropped unread."""

        def chosen(prefix: str, units: list[Unit]) -> dict[int, int]:
            picked = {
                unit.pk: self.cleaned_data[f"{prefix}_{unit.pk}"]
                for unit in units
                if self.cleaned_data.get(f"{prefix}_{unit.pk}")
            }
            for name, value in self.data.items():
                pk = re.fullmatch(rf"{prefix}_(\d+)", name)
                hits = str(value).strip()
                if pk and name not in self.fields and hits.isdigit() and int(hits) > 0:
                    picked[int(pk[1])] = int(hits)
            return picked

        saved, healed = chosen("save", self.wounded), chosen("heal", self.shaken)
        if not saved and not healed:
            raise ValidationError("Choose at least one hit to heal, or use the triage.")
        return saved, healed


class CombatZoneForm(PageForm):
    """Withdraw a unit from the combat zone (R&R then heals its last Morale hit), or send it
    back in."""

    in_combat_zone = forms.TypedChoiceField(
        choices=[("yes", "Send into the combat zone"), ("no", "Withdraw to the rear")],
        coerce=lambda value: value == "yes",
        widget=forms.HiddenInput,
        error_messages={
            "invalid_choice": "“%(value)s” is neither into the combat zone nor out "
            "of it: send the unit in or withdraw it with the button."
        },
    )
    reason = forms.CharField(max_length=300, required=False)


class LeaderAttachForm(PageForm):
    """A d20 character takes command of the unit."""

    name = forms.CharField(max_length=200, label="Leader's name")
    hit_points = WholeNumberField(
        counts="hit point", min_value=1, max_value=999, label="Hit points"
    )
    reason = forms.CharField(max_length=300, required=False)

    def field_for(self, service_field: str) -> str | None:
        return "name" if service_field == "leader" else None


class LeaderDetachForm(PageForm):
    reason = forms.CharField(max_length=300, required=False, label="Why the leader leaves")


def map_name() -> forms.CharField:
    """A map's name, as the map editor and its numbers form take it: a blank or a long one is
    refused in the map's words, not the field's ("This field is required.")."""
    return forms.CharField(
        max_length=200,
        error_messages={
            "required": MAP_NAME_NEEDED,
            "max_length": "a map's name takes at most %(limit_value)d characters; this one has "
            "%(show_value)d",
        },
    )


class SavedMapForm(PageForm):
    name = map_name()
    scenario = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=MAX_SCENARIO_TEXT,
        help_text="A scenario document, as the map editor exports it: table, terrain, "
        "buildings, objectives, and each side's units standing on its deployment spots.",
    )


def revert_reason(goes: str = "every unit's history") -> forms.CharField:
    """The reason a revert must give, saying so before the click and after a blank one
    (``goes``: the history it goes into)."""
    return forms.CharField(
        max_length=300,
        label="Why (required)",
        help_text=f"Goes into {goes}.",
        error_messages={"required": REVERT_REASON_NEEDED},
    )


class RevertForm(PageForm):
    reason = revert_reason()


class UndoForm(PageForm):
    """The reason for a unit's Undo (`services.reverts.entry_undo`)."""

    reason = revert_reason("the unit's history")


class CampaignDeleteForm(PageForm):
    """The campaign's name, typed to show the GM means this one."""

    name = forms.CharField(max_length=200, label="The campaign's name")
    request_key = LaunchKeyField(required=False)  # the page's form always carries one


class StoryNoteForm(PageForm):
    """A GM's note for the campaign's story (`services.story.story_note_add`)."""

    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=STORY_TEXT,
        label="A note for the story",
        help_text="What the evening left that no unit's history says. Everyone in the campaign "
        "reads it on the timeline, on today's date.",
    )
    request_key = LaunchKeyField(required=False)  # the page's form always carries one


class HandOverForm(PageForm):
    """The member who is to run the campaign, what its GM stays as, and whether the forces the
    GM plays go with it (`services.campaigns.campaign_hand_over`)."""

    to = ListedName(max_length=150, label="Who runs it from now on")
    stay_as = forms.ChoiceField(
        choices=[(r.value, r.label) for r in HAND_OVER_STAYS],
        initial=Membership.Role.CO_GM,
        label="You stay in it as",
        help_text="To leave it altogether, stay as a spectator and leave from the campaign's page.",
    )
    with_forces = forms.BooleanField(required=False, label="Give them the forces you play too")
    request_key = LaunchKeyField(required=False)  # the page's form always carries one

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        people = people_choices(campaign, who_play=False)
        self.offers = len(people) > 1  # a member besides the empty choice
        self.fields["to"].widget.choices = people
        played = forces_the_gm_plays(campaign)
        names = list(played.order_by("name").values_list("name", flat=True))
        forces = self.fields["with_forces"]
        if names:
            played_too = f"{and_words(names)}, and the characters you play."
            forces.help_text = f"{played_too} Otherwise they stay yours."
        else:
            del self.fields["with_forces"]

    def clean_to(self) -> Any:
        return member_named(self.campaign, self.cleaned_data["to"])


class CampaignImportForm(PageForm):
    """A campaign export, as a file or pasted; ``data`` is what it holds (checked whole by
    ``campaign_import`` afterwards)."""

    MAX_BYTES = settings.IMPORT_FILE_LIMIT

    request_key = LaunchKeyField(required=False)  # the page's form always carries one
    # An empty file is the file's own problem, said once by `read_json` ("the file is empty"),
    # not the field's "submitted file is empty" beside "choose an export file".
    file = forms.FileField(required=False, label="Export file", allow_empty_file=True)
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="…or paste it",
        max_length=MAX_BYTES,
        strip=False,
        error_messages={"max_length": f"A pasted export takes at most {megabytes(MAX_BYTES)}."},
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload, text = data.get("file"), data.get("text")
        if upload is None and not text:
            raise ValidationError("choose an export file, or paste one")
        if upload is not None and upload.size > self.MAX_BYTES:
            raise ValidationError(
                f"This file is {megabytes(upload.size, up=True)}; a campaign import takes at "
                f"most {megabytes(self.MAX_BYTES)}."
            )
        try:
            data["data"] = read_json(upload.read() if upload is not None else text)
        except ValueError as error:
            raise ValidationError(str(error)) from None
        return data
