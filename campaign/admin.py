"""Admin for campaigns. Changes to units go through the services, so they land in history.

Unit edits need a reason and become GM-edit entries; the calendar moves only by its action
(which runs R&R and closes medical windows); history, leaders and quick resolves are read-only
here, because their services are the one way to change them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count

from campaign.models import (
    Campaign,
    Force,
    HistoryEntry,
    Leader,
    Membership,
    QuickResolve,
    StoryEntry,
    Unit,
)
from campaign.rules.values import parse_field
from campaign.services import calendar_advance, unit_create, unit_edit
from campaign.services._record import campaign_full
from campaign.services.roster import EDITABLE, unit_create_check, unit_edit_check
from units.bucs import Specialty


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class CampaignAddsForm(forms.ModelForm):
    """A force or a membership added on its own admin page, or moved there into another
    campaign: refused past what that campaign holds (`campaign_full`), as the campaign's own
    pages refuse one."""

    holds = ""
    """What it adds, a key of `CAMPAIGN_HOLDS`."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        campaign = data.get("campaign")
        joining = self.instance.pk is None or "campaign" in self.changed_data
        adding = joining and campaign is not None
        if adding and (full := campaign_full(campaign, self.holds)):
            raise ValidationError(full)
        return data


class ForceAdminForm(CampaignAddsForm):
    holds = "force"

    class Meta:
        model = Force
        fields = ("campaign", "owner", "name")


class MembershipAdminForm(CampaignAddsForm):
    holds = "member"

    class Meta:
        model = Membership
        fields = ("campaign", "user", "role", "last_visit_at", "email_notices", "notified_upto")


class CampaignAddsFormSet(forms.BaseInlineFormSet):
    """Forces or memberships added on a campaign's admin page, several at once: refused
    together past what the campaign holds."""

    holds = ""

    def clean(self) -> None:
        super().clean()
        adding = sum(
            1
            for form in self.forms
            if form.instance.pk is None
            and form.has_changed()
            and not self._should_delete_form(form)
        )
        if adding and (full := campaign_full(self.instance, self.holds, adding)):
            raise ValidationError(full)


class MembershipFormSet(CampaignAddsFormSet):
    holds = "member"


class ForceFormSet(CampaignAddsFormSet):
    holds = "force"


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = MembershipFormSet
    extra = 0


class ForceInline(admin.TabularInline):
    model = Force
    formset = ForceFormSet
    extra = 0
    fields = ("name", "owner")
    show_change_link = True


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "gm", "day", "apply_mode", "force_count", "created_at")
    list_filter = ("ruleset", "apply_mode", "other_forces_visible")
    search_fields = ("name", "gm__username")
    inlines = (MembershipInline, ForceInline)
    actions = ("advance_one_day",)

    def get_readonly_fields(self, request, obj=None) -> tuple[str, ...]:
        # The calendar moves by its service; a campaign's ruleset is fixed once it has forces.
        return ("day",) if obj is None else ("day", "ruleset")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(force_total=Count("forces"))

    @admin.display(description="forces", ordering="force_total")
    def force_count(self, obj: Campaign) -> int:
        return obj.force_total

    @admin.action(description="Advance the calendar one day (R&R, medical windows close)")
    def advance_one_day(self, request, queryset) -> None:
        for campaign in queryset:
            entries = calendar_advance(campaign=campaign, days=1, actor=request.user)
            campaign.refresh_from_db()
            self.message_user(
                request, f"{campaign}: day {campaign.day}, {len(entries)} history entries"
            )


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    form = MembershipAdminForm
    list_display = ("user", "campaign", "role", "joined_at")
    list_filter = ("role", "campaign")
    search_fields = ("user__username", "campaign__name")


class UnitInline(admin.TabularInline):
    model = Unit
    extra = 0
    # A force's roster at a glance, not every recorded field (`UNIT_FIELDS`): each unit's own
    # page holds the rest.
    fields = ("name", "unit_type", "quality", "morale_hits", "casualty_hits", "status")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Force)
class ForceAdmin(admin.ModelAdmin):
    form = ForceAdminForm
    list_display = ("name", "campaign", "owner", "unit_count")
    list_filter = ("campaign",)
    search_fields = ("name", "owner__username", "campaign__name")
    inlines = (UnitInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(unit_total=Count("units"))

    @admin.display(description="units", ordering="unit_total")
    def unit_count(self, obj: Force) -> int:
        return obj.unit_total


class UnitForm(forms.ModelForm):
    """Checks through the services' own checks, so the admin refuses what they refuse."""

    specialties = forms.MultipleChoiceField(
        choices=[(s.value, s.label) for s in Specialty],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    reason = forms.CharField(
        required=False, help_text="Why: it goes into the unit's history (needed for a change)."
    )

    class Meta:
        model = Unit
        fields = ("force", "unit_type", *EDITABLE)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        try:
            if self.instance.pk is None:
                unit_create_check(
                    force=data["force"],
                    unit_type=data["unit_type"],
                    name=data.get("name", ""),
                    quality=data.get("quality", 3),
                    equipment=data.get("equipment", ""),
                    specialties=data.get("specialties", []),
                )
            else:
                unit_edit_check(
                    unit=self.instance, changes=self.changes(), reason=data.get("reason", "")
                )
        except (KeyError, ValidationError) as error:
            if isinstance(error, ValidationError):
                for field, problems in error.message_dict.items():
                    self.add_error(field if field in self.fields else None, problems)
        return data

    def changes(self) -> dict[str, Any]:
        """The recorded fields this form changes, against the unit as stored."""
        state = Unit.objects.select_related("leader").get(pk=self.instance.pk).state
        changes = {}
        for field in EDITABLE:
            if field not in self.cleaned_data:
                continue
            value = self.cleaned_data[field]
            try:
                if getattr(state, field) == parse_field(field, value):
                    continue
            except ValueError:
                pass  # the services' check reports it
            changes[field] = value
        return changes


class HistoryInline(admin.TabularInline):
    model = HistoryEntry
    fk_name = "unit"
    extra = 0
    fields = ("day", "kind", "text", "battle")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
    form = UnitForm
    # The columns that fit a list: `UNIT_FIELDS` but specialties, Skill lost, the last battle's
    # day and the medical window's start (long, or read on the unit's page), with the card and
    # effective quality.
    list_display = (
        "name", "force", "unit_type", "quality", "effective", "equipment", "morale_hits",
        "casualty_hits", "status", "in_combat_zone", "experience", "battles_fought",
    )  # fmt: skip
    list_filter = ("status", "quality", "equipment", "in_combat_zone", "force__campaign")
    search_fields = ("name", "force__name", "unit_type__name")
    list_select_related = ("force", "unit_type")
    inlines = (HistoryInline,)

    def get_readonly_fields(self, request, obj=None) -> tuple[str, ...]:
        return () if obj is None else ("force", "unit_type")

    @admin.display(description="effective quality")
    def effective(self, obj: Unit) -> str:
        return obj.effective_quality.label

    def save_model(self, request, obj: Unit, form: UnitForm, change: bool) -> None:
        data = form.cleaned_data
        if change:
            entry = unit_edit(
                unit=obj, changes=form.changes(), reason=data["reason"], actor=request.user
            )
            if entry is None:
                messages.info(request, "Nothing changed.")
            obj.refresh_from_db()
            return
        created = unit_create(
            force=data["force"],
            unit_type=data["unit_type"],
            name=data["name"],
            quality=int(data["quality"]),
            equipment=data["equipment"],
            specialties=data["specialties"],
            reason=data["reason"],
            actor=request.user,
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(Leader)
class LeaderAdmin(ReadOnlyAdmin):
    list_display = ("name", "unit", "hit_points", "alive")
    list_filter = ("alive", "unit__force__campaign")
    search_fields = ("name", "unit__name")


@admin.register(HistoryEntry)
class HistoryEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "day", "unit", "kind", "text", "battle", "actor", "created_at")
    list_filter = ("kind", "unit__force__campaign", "unit__force")
    search_fields = ("text", "unit__name")
    list_select_related = ("unit", "battle", "actor")

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(StoryEntry)
class StoryEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "day", "campaign", "kind", "text", "actor", "created_at")
    list_filter = ("kind", "campaign")
    search_fields = ("text",)
    list_select_related = ("campaign", "actor")

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(QuickResolve)
class QuickResolveAdmin(ReadOnlyAdmin):
    list_display = ("id", "campaign", "day", "attacker", "defender", "winner", "rounds", "seed")
    list_filter = ("campaign", "winner")
    search_fields = ("attacker__name", "defender__name", "reason")
