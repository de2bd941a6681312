"""Campaigns: the GM's game of many evenings, its forces, their persistent units and history.

The models hold state and cheap database constraints only. Every change to a unit goes through
`campaign.services`, which writes a `HistoryEntry` for it; reads live in `campaign.selectors`.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.safestring import mark_safe

from campaign.rules.history import applications_text, out_cold_text
from campaign.rules.state import (
    STATUS_LABELS,
    CampaignUnitState,
    LeaderState,
    Status,
    can_act,
)
from units.bucs import Equipment, Quality
from units.models import Ruleset, UnitType, Versioned, new_version

QUALITY_CHOICES = [(int(q), q.label) for q in Quality]
EQUIPMENT_CHOICES = [(e.value, e.label) for e in Equipment]
STATUS_CHOICES = [(s.value, STATUS_LABELS[s]) for s in Status]


CAMPAIGN_SETTINGS = ("apply_mode", "other_forces_visible", "quick_resolve_rounds", "fog_of_war")
"""The GM's settings of a campaign, besides its name: what the settings form edits and an
export carries."""


class Campaign(models.Model):
    """A multi-session campaign run by a GM under one Team Bravo ruleset."""

    class ApplyMode(models.TextChoices):
        AUTO = "auto", "Apply battle outcomes at once"
        REVIEW = "review", "The GM reviews each outcome first"

    class Visibility(models.TextChoices):
        FULL = "full", "Full rosters"
        SUMMARY = "summary", "Force names and unit counts only"

    name = models.CharField(max_length=200)
    ruleset = models.CharField(
        max_length=16,
        choices=Ruleset.choices,
        default=Ruleset.COMBINED_ARMS,
        help_text="Decides whether Skill lost in a battle returns (One Year War) or not.",
    )
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    day = models.PositiveIntegerField(default=1, help_text="The campaign calendar's current day.")
    request_key = models.UUIDField(
        null=True,
        blank=True,
        unique=True,
        editable=False,
        help_text="The one-time key of the form that made it (a new campaign, an import): a "
        "repeated request finds this campaign.",
    )
    apply_mode = models.CharField(
        max_length=8,
        choices=ApplyMode.choices,
        default=ApplyMode.AUTO,
        help_text="Whether a finished battle's outcome reaches the rosters at once.",
    )
    other_forces_visible = models.CharField(
        max_length=8,
        choices=Visibility.choices,
        default=Visibility.FULL,
        help_text="What players see of forces that are not theirs.",
    )
    quick_resolve_rounds = models.PositiveSmallIntegerField(
        default=5, help_text="The round limit a quick resolve starts from."
    )
    fog_of_war = models.BooleanField(
        default=False,
        help_text="Players see a battle's log and replay as their side saw it; the GM sees all.",
    )
    hour = models.PositiveSmallIntegerField(
        default=0, help_text="The campaign clock's hour of the current day (0–23)."
    )
    gm_last_visit_at = models.DateTimeField(
        null=True, blank=True, help_text="When the GM last opened the dashboard (any device)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(day__gte=1), name="campaign_day_from_1"),
            models.CheckConstraint(
                condition=models.Q(quick_resolve_rounds__gte=1, quick_resolve_rounds__lte=50),
                name="campaign_quick_resolve_rounds_1_50",
            ),
            models.CheckConstraint(condition=models.Q(hour__lte=23), name="campaign_hour_0_23"),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's part in a campaign other than its GM's: co-GM, player or spectator."""

    class Role(models.TextChoices):
        CO_GM = "co_gm", "Co-GM"
        PLAYER = "player", "Player"
        SPECTATOR = "spectator", "Spectator"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)
    last_visit_at = models.DateTimeField(
        null=True, blank=True, help_text="When they last opened the dashboard (any device)."
    )
    email_notices = models.BooleanField(
        default=False, help_text="Mail them when their units are destroyed, die or are promoted."
    )
    notified_upto = models.PositiveBigIntegerField(
        default=0, help_text="The last history entry their notices have told them of."
    )

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    def clean(self) -> None:
        if self.campaign_id is None or self.user_id is None:
            return
        if self.campaign.gm_id == self.user_id:
            raise ValidationError({"user": f"{self.user} is the campaign's GM already"})
        owns = self.campaign.forces.filter(owner_id=self.user_id).exists()
        if self.role == self.Role.SPECTATOR and owns:
            raise ValidationError({"role": f"{self.user} owns a force: a spectator cannot"})


ROLE_WORDS = {
    Membership.Role.CO_GM: ("a co-GM", "co-GMs"),
    Membership.Role.PLAYER: ("a player", "players"),
    Membership.Role.SPECTATOR: ("a spectator", "spectators"),
}
"""A member's part as a sentence says it, of one and of many."""


def role_phrase(role: str) -> str:
    """A member's part as a sentence says it: "a player", "a co-GM", "a spectator"."""
    return ROLE_WORDS[Membership.Role(role)][0]


def new_link_key() -> str:
    """The secret in a link (an invitation's, an e-mail confirmation's): unguessable, and fit
    for an address."""
    return secrets.token_urlsafe(32)


class Invitation(models.Model):
    """A GM's invitation to a campaign, pending until the invitee accepts or declines it.

    It names the invitee as the GM typed the name (a username, or an e-mail address in lower
    case), not as an account: whether such an account exists is never told to the GM, so an
    invitation to a name nobody has looks, and is kept, just like any other. Its link (with
    ``link_key``) is what the GM sends someone with no account yet, and what is mailed to an
    address invited (`InvitationMail`): whoever opens it may join by it, making an account
    there (`services.members.invitation_join`).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.CharField(max_length=254, help_text="A username or an e-mail address.")
    role = models.CharField(
        max_length=16, choices=Membership.Role.choices, default=Membership.Role.PLAYER
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    link_key = models.CharField(
        max_length=64, unique=True, default=new_link_key, editable=False,
        help_text="The secret in the invitation's link: whoever opens the link may join by it.",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    forces = models.ManyToManyField(
        "Force",
        blank=True,
        related_name="held_for",
        help_text="Forces an import gave the invitee: the GM holds them until the invitee joins.",
    )
    characters = models.ManyToManyField(
        "Character",
        blank=True,
        related_name="held_for",
        help_text="Characters an import gave the invitee to play: theirs once they join.",
    )

    class Meta:
        ordering = ["campaign", "invitee"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "invitee"], name="invitation_once"),
        ]

    def __str__(self) -> str:
        return f"{self.invitee} ({self.get_role_display()}) to {self.campaign}"


class InvitationMail(models.Model):
    """An invitation's link mailed to the e-mail address it was sent to
    (`services.invitation_mail`): kept while its invitation waits, so the GM's list says when it
    went, and for a day after, so an inviter's mails in any 24 hours are counted even after
    their invitations are withdrawn."""

    invitation = models.ForeignKey(
        Invitation, on_delete=models.SET_NULL, null=True, blank=True, related_name="mails"
    )
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        help_text="Who sent the invitation: the one whose mails a day are counted.",
    )  # fmt: skip
    address = models.EmailField()
    asked_at = models.DateTimeField(default=timezone.now)
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-asked_at", "-id"]

    def __str__(self) -> str:
        return f"an invitation mailed to {self.address}"


class InvitationAnswer(models.Model):
    """How an invitation was answered, kept once the invitation is used up: a second Accept or
    Decline of it (a double click, a second tab) is told so, by the one who answered it only."""

    invitation_pk = models.PositiveBigIntegerField(
        unique=True, help_text="The answered invitation's id (the invitation itself is gone)."
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField()
    answered_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} {'accepted' if self.accepted else 'declined'} {self.campaign}"


class Force(models.Model):
    """A player's force in a campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="forces")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="forces"
    )
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="force_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.campaign_id is None or self.owner_id is None:
            return
        playing = self.campaign.memberships.filter(
            user_id=self.owner_id, role__in=[Membership.Role.PLAYER, Membership.Role.CO_GM]
        ).exists()
        if self.campaign.gm_id != self.owner_id and not playing:
            raise ValidationError({"owner": f"{self.owner} is not a player of {self.campaign}"})


class Unit(Versioned):
    """A persistent unit: a card from the library under BUCS quality, hits and history.

    Its ``version`` also changes when its leader's row does (the roster shows the leader)."""

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="units")
    unit_type = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=200)
    quality = models.PositiveSmallIntegerField(choices=QUALITY_CHOICES, default=Quality.AVERAGE)
    equipment = models.CharField(
        max_length=16, choices=EQUIPMENT_CHOICES, default=Equipment.ADEQUATE.value
    )
    specialties = models.JSONField(default=list, blank=True)
    morale_hits = models.PositiveSmallIntegerField(default=0)
    casualty_hits = models.PositiveSmallIntegerField(
        default=0, help_text="Dead and wounded awaiting the medics."
    )
    skill_lost = models.PositiveSmallIntegerField(
        default=0, help_text="Skill lost to suppression for good (Combined Arms)."
    )
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=Status.READY.value)
    experience = models.PositiveIntegerField(default=0)
    battles_fought = models.PositiveIntegerField(default=0)
    in_combat_zone = models.BooleanField(default=False)
    last_battle_day = models.PositiveIntegerField(null=True, blank=True)
    window_from = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Clock hour (hours since day 1, 00:00) its medical window runs from: its "
        "Casualty hits awaiting the medics die 24 hours after it.",
    )
    window_quality_lost = models.PositiveSmallIntegerField(
        default=0,
        help_text="Quality steps lost to suppression (Combined Arms) in the battles whose "
        "Casualty hits await the medics: the dead are measured against the steps it had before.",
    )
    window_quality_gained = models.PositiveSmallIntegerField(
        default=0,
        help_text="Quality steps gained by experience in the fights whose own Casualty hits "
        "await the medics, in a window opened before its fights were kept: withdrawn before "
        "the dead reduce the unit, should any die.",
    )
    window_experience = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Experience before the fights whose Casualty hits await the medics earned "
        "any: a unit their dead destroy earned nothing in them.",
    )
    window_fights = models.JSONField(
        default=list,
        blank=True,
        help_text="Every fight since its medical window opened, in order, with its own Casualty "
        "hits and what it earned: when the window closes, the dead go back to the fights that "
        "dealt them and the experience after them counts again.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["force", "id"]
        constraints = [
            models.UniqueConstraint(fields=["force", "name"], name="unit_unique_name"),
            models.CheckConstraint(
                condition=models.Q(quality__gte=0, quality__lte=6),
                name="unit_quality_raw_to_legendary",
            ),
            models.CheckConstraint(
                condition=models.Q(morale_hits__gte=0, casualty_hits__gte=0, skill_lost__gte=0),
                name="unit_hits_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=[s.value for s in Status]), name="unit_status_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def state(self) -> CampaignUnitState:
        """The unit as the campaign rules see it (its leader included)."""
        leader = getattr(self, "leader", None)
        return CampaignUnitState.from_row(
            self,
            None if leader is None else LeaderState(leader.name, leader.hit_points, leader.alive),
        )

    @property
    def effective_quality(self) -> Quality:
        return self.state.effective_quality


class Leader(models.Model):
    """A d20 character leading a unit: immune to Morale hits, wounded by its Casualty hits."""

    unit = models.OneToOneField(Unit, on_delete=models.CASCADE, related_name="leader")
    name = models.CharField(max_length=200)
    hit_points = models.IntegerField(help_text="Current hit points; dead at −10.")
    alive = models.BooleanField(default=True)
    character = models.OneToOneField(
        "Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="leading"
    )

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.character_id is not None:
            # A character's name is its own (`Character.save` keeps its leader row in step):
            # a state written back (a revert, say) brings no name the character has lost.
            self.name = Character.objects.values_list("name", flat=True).get(pk=self.character_id)
        super().save(*args, **kwargs)
        self._touch_unit()
        if self.character_id is not None:
            # The character is the one at the head of the unit: its wounds are the leader's.
            Character.objects.filter(pk=self.character_id).update(
                hit_points=self.hit_points, alive=self.alive, version=new_version()
            )

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        deleted = super().delete(*args, **kwargs)
        self._touch_unit()
        return deleted

    def _touch_unit(self) -> None:
        Unit.objects.filter(pk=self.unit_id).update(version=new_version())

    @property
    def leads(self) -> bool:
        """Whether it leads its unit now: neither dying nor dead (`state.can_act`)."""
        return can_act(self.hit_points, alive=self.alive)

    @property
    def leads_nobody(self) -> str:
        """Why a living leader leads its unit not, in words ("Sgt Vance is dying (−3 hp) and
        leads nobody until healed"), or "" (leading, or dead: pages say the dead apart)."""
        if not self.alive or self.leads:
            return ""
        return out_cold_text(self.name, self.hit_points)


class QuickResolve(models.Model):
    """A small engagement resolved BUCS unit against unit, with its seed and every roll."""

    class Winner(models.TextChoices):
        ATTACKER = "attacker", "Attacker"
        DEFENDER = "defender", "Defender"
        NONE = "", "Neither (round limit)"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="quick_resolves")
    day = models.PositiveIntegerField()
    attacker = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="+")
    seed = models.BigIntegerField()
    round_limit = models.PositiveSmallIntegerField()
    setup = models.JSONField(help_text="Both sides' stances, as the GM set them.")
    events = models.JSONField(help_text="Every roll and hit, in order.")
    rounds = models.PositiveSmallIntegerField()
    winner = models.CharField(max_length=8, choices=Winner.choices, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.attacker} against {self.defender}, day {self.day}"


class HistoryEntry(models.Model):
    """One change to a persistent unit: what, before → after, why, and from where."""

    class Kind(models.TextChoices):
        CREATED = "created", "Raised"
        BATTLE = "battle", "Battle"
        QUICK_RESOLVE = "quick_resolve", "Quick resolve"
        MEDICAL = "medical", "Medical"
        CASUALTIES = "casualties", "Casualties died"
        RECOVERY = "recovery", "R&R"
        EXPERIENCE = "experience", "Experience"
        TRAINING = "training", "Training"
        DEPLOYMENT = "deployment", "Deployment"
        LEADER = "leader", "Leader"
        ENGAGEMENT = "engagement", "Engagement"
        SKILL_CHECK = "skill_check", "Skill check"
        CONTEST = "contest", "Contest"
        GM_EDIT = "gm_edit", "GM correction"
        REVERT = "revert", "Revert"
        ORDER = "order", "Order"

    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="history")
    day = models.PositiveIntegerField(help_text="The campaign day it happened.")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.TextField(help_text="What happened, in a sentence a player can read.")
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    details = models.JSONField(
        default=dict, blank=True, help_text="The working: splits, ignored hits, dice rolled."
    )
    battle = models.ForeignKey(
        "battles.Battle", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    quick_resolve = models.ForeignKey(
        QuickResolve, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    reverts = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="reverted_by"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    FIGHTS = (Kind.BATTLE, Kind.ENGAGEMENT, Kind.QUICK_RESOLVE)
    """The kinds of a unit's entries for its fights, each of which may deal Casualty hits:
    battles, engagements (quick resolves among them), and quick resolves from before they were."""
    DEATH_TOLD = (*FIGHTS, Kind.GM_EDIT)
    """The kinds of entry that can kill a leader: each names in its reason the leader who died and
    what it cost the unit (`damage.leader_died_text`), so its story says it no more."""
    ASIDE = (Kind.REVERT, Kind.ORDER)
    """The kinds of entry that change nothing an Undo or a revert would take back, nor wait on:
    a revert (it only cancels the entry it names) and an Order given, called off or ended
    (`services.orders`: the Order's own row keeps it)."""

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "history entries"
        indexes = [models.Index(fields=["unit", "id"]), models.Index(fields=["kind", "day"])]

    def __str__(self) -> str:
        return f"Day {self.day}, {self.unit}: {self.text}"

    @property
    def death_told(self) -> bool:
        """Whether its reason tells its leader's death, if it died here (`DEATH_TOLD`)."""
        return self.kind in self.DEATH_TOLD

    @property
    def leader_named(self) -> bool:
        """Whether its reason opens with its leader's name: a heal's ("Capt. Holt healed"),
        which keeps what it healed (`services.characters.character_heal`)."""
        return self.kind == self.Kind.LEADER and "healed" in self.details

    @property
    def moved(self) -> dict[str, int] | None:
        """The forces a move to another force left and joined, by id (``from``, ``to``), when
        it is one saved with them (`services.roster.unit_move`); else None."""
        moved = self.details.get("moved") if self.kind == self.Kind.GM_EDIT else None
        return moved if isinstance(moved, dict) else None

    @property
    def undo_kind(self) -> str:
        """Its kind as a revert or an Undo names it (`rules.history.UNDONE`): a correction's,
        but "move" for a move to another force, which its Undo names as such."""
        return "move" if self.moved is not None else self.kind


STORY_TEXT = 2000
"""The longest line of the campaign's story (a GM's note, or one imported)."""


class StoryEntry(models.Model):
    """A line of the campaign's own story, besides what befell its units: a change to its
    people or forces (the campaign renamed, handed to another GM or its settings for the
    players changed, someone joining, taking another part or leaving, a force raised, renamed
    or given to another player), said with the names of the moment; the calendar moving on
    (and the clock, when the GM said why); or a note its GM wrote ("The bridge at Elm Ford is
    down."). For everyone in the campaign: who is in it, the forces' names and the GM's notes
    are everyone's to read."""

    class Kind(models.TextChoices):
        RENAMED = "renamed", "Renamed"
        SETTINGS = "settings", "Settings"
        JOINED = "joined", "Joined"
        PART = "part", "New part"
        LEFT = "left", "Left"
        FORCE = "force", "Force"
        NEW_GM = "new_gm", "New GM"
        NOTE = "note", "GM's note"
        CALENDAR = "calendar", "Calendar"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="story")
    day = models.PositiveIntegerField(help_text="The campaign day it happened.")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.TextField(help_text="What happened, in a sentence anyone in it can read.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["campaign", "day"])]

    def __str__(self) -> str:
        return f"Day {self.day}, {self.campaign}: {self.text}"


class CampaignBattle(models.Model):
    """A battle of the campaign: who fought on which side, and whether its outcome is applied.

    Fought by the engine (``battle`` set) or at a real table (``table_result`` entered by the
    GM): the campaign applies either through the same bridge. ``state`` moves only by
    conditional updates, so an outcome is applied exactly once however many workers or
    requests try.
    """

    class State(models.TextChoices):
        FIGHTING = "fighting", "Being fought"
        AWAITING = "awaiting", "Awaiting review"
        APPLIED = "applied", "Applied"
        REVERTED = "reverted", "Reverted"
        FAILED = "failed", "Failed"

    UNSETTLED = (State.FIGHTING, State.AWAITING)
    """A battle whose outcome is not applied yet: its units still carry what they went in with,
    and may go into no other battle until it is (`roster.engaged_units`)."""
    HOLDS_UNIT = {State.FIGHTING.value: "Fighting", State.AWAITING.value: "Awaiting review"}
    """A ready unit's status while an `UNSETTLED` battle holds it, by the battle's state
    (`holds_unit`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    name = models.CharField(max_length=200)
    day = models.PositiveIntegerField(help_text="The campaign day it was fought.")
    hour = models.PositiveSmallIntegerField(
        default=0, help_text="The hour of that day it was fought (0–23)."
    )
    battle = models.OneToOneField(
        "battles.Battle", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    sides = models.JSONField(help_text="Side id → the pks of the persistent units on it.")
    engine_units = models.JSONField(
        default=dict, blank=True, help_text="Engine unit id → persistent unit pk."
    )
    orders = models.JSONField(
        default=dict, blank=True, help_text="Unit pk → how its Orders went into the battle."
    )
    table_result = models.JSONField(
        null=True, blank=True, help_text="A result entered by hand: winner and per-unit losses."
    )
    state = models.CharField(max_length=16, choices=State.choices, default=State.FIGHTING)
    applications = models.PositiveIntegerField(default=0)
    applied_entries = models.JSONField(
        default=list, blank=True, help_text="History entries written by the latest application."
    )
    earlier_entries = models.JSONField(
        default=list,
        blank=True,
        help_text="A table battle's history entries written by its applications since reverted, "
        "oldest first (an engine battle's entries name their battle).",
    )
    applied_at = models.DateTimeField(null=True, blank=True)
    odds = models.ForeignKey(
        "battles.OddsRun", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The odds the GM asked for this very set-up before launching it.",
    )  # fmt: skip
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    request_key = models.UUIDField(
        null=True,
        blank=True,
        unique=True,
        editable=False,
        help_text="The one-time key of the form that recorded a table result: the form sent "
        "twice records it once (a launch keeps its key on its battle).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-day", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(hour__lte=23), name="campaign_battle_hour_0_23"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (day {self.day})"

    @property
    def table_entries(self) -> list[int]:
        """The history entries a table battle wrote, every application's, oldest first (an
        engine battle's entries name their battle instead)."""
        return [*self.earlier_entries, *self.applied_entries]

    @property
    def applications_text(self) -> str:
        """How often its outcome was applied and reverted, for its state line ("" for once)."""
        return applications_text(self.applications, applied=self.state == self.State.APPLIED)

    @property
    def holds_unit(self) -> str:
        """A ready unit's status while this battle holds it (`UNSETTLED`), in place of "Ready":
        it is ready for no other fight until the outcome is applied. The battle's name follows
        it ("Awaiting review of Battle of the Crossroads", `held_in`)."""
        return self.HOLDS_UNIT.get(self.state, self.HOLDS_UNIT[self.State.AWAITING])

    @property
    def held_in(self) -> str:
        """The word that leads from `holds_unit` to the battle's name: "of", "in"."""
        return "in" if self.state == self.State.FIGHTING else "of"


class SavedMap(models.Model):
    """A GM's own map for the campaign's battles: table, terrain, buildings, objectives and the
    two sides' deployment spots, as a scenario document checked by the engine when saved."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="maps")
    name = models.CharField(max_length=200)
    scenario = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="saved_map_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Character(Versioned):
    """A player character or a named NPC of the campaign: what BUCS reads of a d20 character.

    Its ``version`` keys the pages that name it (a roster names the giver of each Order)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    name = models.CharField(max_length=200)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
        help_text="The member who plays the character; none for the GM's NPCs.",
    )
    hit_points = models.IntegerField(help_text="Current hit points; dead at −10.")
    max_hit_points = models.PositiveIntegerField(
        default=1, help_text="Full hit points: healing never takes the character above them."
    )
    alive = models.BooleanField(default=True)
    feats = models.JSONField(
        default=list, blank=True, help_text="Leadership, Squad Tactics, Special Forces, Strategist."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="character_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        # The leader row of the unit it leads names it: renamed however it was saved, every
        # page and every later line of the story says the name it has now.
        stale = Leader.objects.filter(character=self).exclude(name=self.name)
        units = list(stale.values_list("unit_id", flat=True))
        if units:
            stale.update(name=self.name)
            Unit.objects.filter(pk__in=units).update(version=new_version())


class CharacterEntry(models.Model):
    """One change to a character's hit points outside a unit's fights (a heal), in a sentence."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="entries")
    day = models.PositiveIntegerField()
    hour = models.PositiveSmallIntegerField()
    text = models.TextField()
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "character entries"

    def __str__(self) -> str:
        return f"Day {self.day}, {self.character}: {self.text}"


class Order(Versioned):
    """An Order a character gives a unit: it takes hours on the campaign clock.

    It is done once the clock reaches ``finishes_at`` (hours since day 1, 00:00); an Order is
    replaced (``replaced``) by the next Order given to the same unit before it is done, called
    off by the GM (``called_off_at``) once it makes no sense any more, or ended with its unit
    (``ended_at``, ``ended_as``) when the unit retreats in poor order or is destroyed before it
    is done.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="orders")
    giver = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="orders_given")
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="orders")
    kind = models.CharField(max_length=32)
    listed_hours = models.PositiveSmallIntegerField()
    hours = models.PositiveSmallIntegerField(help_text="The time it takes this unit.")
    given_at = models.PositiveIntegerField(help_text="Clock hour it was given.")
    finishes_at = models.PositiveIntegerField(help_text="Clock hour it is done.")
    replaced = models.BooleanField(default=False)
    called_off_at = models.PositiveIntegerField(
        null=True, blank=True, help_text="Clock hour the GM called it off as senseless."
    )
    ended_at = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Clock hour its unit was taken out of action, the Order under way: it ended "
        "with the unit (and goes on, should that be undone).",
    )
    ended_as = models.CharField(
        max_length=16,
        blank=True,
        help_text="The status that ended it with its unit: retreated or destroyed.",
    )
    note = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-given_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} for {self.unit}"


class AskedOdds(models.Model):
    """An odds run a GM asked on the campaign's set-up page ("Who is favoured?"): the
    campaign's, so read in its names wherever it is opened (`campaign.odds`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    run = models.OneToOneField("battles.OddsRun", on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"Odds {self.run_id} for {self.campaign}"


class Engagement(models.Model):
    """BUCS unit combat, many against many: its set-up, seed, every round, and what it did."""

    class State(models.TextChoices):
        APPLIED = "applied", "Applied"
        REVERTED = "reverted", "Reverted"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="engagements")
    name = models.CharField(max_length=200)
    day = models.PositiveIntegerField()
    hour = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    round_limit = models.PositiveSmallIntegerField()
    setup = models.JSONField(help_text="Sides, terrain, surprise and each unit's situation.")
    events = models.JSONField(help_text="Every die and modifier, round by round.")
    rounds = models.PositiveSmallIntegerField()
    winner = models.CharField(max_length=16, blank=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.APPLIED)
    applied_entries = models.JSONField(default=list, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    request_key = models.UUIDField(
        null=True,
        blank=True,
        unique=True,
        editable=False,
        help_text="Makes a repeated request harmless: the form sent twice fights once.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.name} (day {self.day})"


class TableRoll(models.Model):
    """A skill check, a contest between units or a Requisition check: seeded and kept."""

    class Kind(models.TextChoices):
        SKILL_CHECK = "skill_check", "Skill check"
        CONTEST = "contest", "Contest"
        REQUISITION = "requisition", "Requisition"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="table_rolls")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    day = models.PositiveIntegerField()
    hour = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    setup = models.JSONField()
    result = models.JSONField()
    summary = models.CharField(max_length=400)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.summary


class FormSent(models.Model):
    """An action a page's form did, by the form's one-time key: the same form sent again (a
    double click, a page re-sent from the browser's history, a phone retrying) goes back where
    the first sending went and says what it said, doing nothing twice (`views.form_action`)."""

    request_key = models.UUIDField(unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    url = models.CharField(max_length=2000)
    message = models.TextField()
    html = models.BooleanField(
        default=False,
        help_text="The message is HTML built for it (a link to what the action made), not text.",
    )
    level = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.message

    def said(self) -> str:
        """The message as the first sending said it: its links as links, its text as text."""
        return mark_safe(self.message) if self.html else self.message  # built by format_html


class EmailChange(models.Model):
    """Someone asking for an e-mail address on their account: it becomes theirs only once they
    open the link mailed to it (``key``) and confirm, so an address is never used, nor counted
    as taken, on someone's word alone (`services.accounts`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_changes"
    )
    address = models.EmailField()
    key = models.CharField(
        max_length=64, unique=True, default=new_link_key, editable=False,
        help_text="The secret in the link mailed to the address.",
    )  # fmt: skip
    asked_at = models.DateTimeField(default=timezone.now)
    mailed_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-asked_at", "-id"]

    def __str__(self) -> str:
        return f"{self.address} for {self.user}"
