"""The Characters page: the campaign's characters, their feats and the units they lead; the
GM creates them, puts them at a unit's head, trains, heals and rallies with them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaign.access import FULL, Viewer, campaign_for_viewer, require_manage
from campaign.keys import key_named
from campaign.models import Character, CharacterEntry, Unit
from campaign.pages.done_words import rallied_text, trained_text
from campaign.pages.finder import character_search
from campaign.pages.timeline import clean_cursor
from campaign.rules.characters import Feat, FeatRow, ordered_feats
from campaign.selectors.access import characters_held
from campaign.selectors.roster import campaign_characters, campaign_now
from campaign.services import leader_attach, unit_train
from campaign.services.characters import character_create, character_heal, character_rally
from campaign.table_forms.characters import (
    CharacterForm,
    HealForm,
    JoinForm,
    RallyForm,
    TrainByForm,
)
from campaign.views._common import base_context, form_action
from units.words import plural

CHARACTERS = "campaign/characters.html"
CHARACTER_ENTRIES_SHOWN = 20


def feat_effect(row: FeatRow) -> str:
    """What a feat does for the unit its character leads, in the players' words."""
    parts = []
    if row.combat:
        parts.append(f"+{row.combat} to the unit's combat rolls")
    if row.skill:
        parts.append(f"+{row.skill} to its skill checks")
    if row.outnumbered_relief:
        parts.append(f"cancels up to {row.outnumbered_relief} points of Outnumbered")
    if row.surprise:
        parts.append(f"+{row.surprise} on its side's Hide and Spot checks")
    if row.order_hours_saved:
        hours = plural(row.order_hours_saved, "hour")
        parts.append(f"the character's Orders take {hours} less (at least 1)")
    if row.rallies:
        parts.append("rallies Morale hits")
    if row.trains:
        parts.append("trains units")
    return "; ".join(parts)


def led(character: Character) -> Unit | None:
    """The unit a character is at the head of, if any."""
    leader = getattr(character, "leading", None)
    return None if leader is None else leader.unit


def _sees_character(viewer: Viewer, player: Any, unit: Unit | None) -> bool:
    player_id = None if player is None else player.pk
    return viewer.character_sight(player_id=player_id, unit=unit) == FULL


def characters_context(
    viewer: Viewer, query: Mapping[str, str] | None = None, **forms: Any
) -> dict[str, Any]:
    """The campaign's characters a viewer sees in full (`Viewer.character_sight`): a member who
    sees other forces only in summary finds their own characters and those at the head of
    units they see, not who leads another force's units nor how they stand. A page of them
    (``?page=2``), those whose name or unit's holds ``?q=`` if it is asked (`character_search`);
    the GM's join form starts on the unit ``?unit=`` names."""
    campaign = viewer.campaign
    query = query or {}
    lines = campaign_characters(campaign=campaign)
    seen = [line for line in lines if _sees_character(viewer, line.player, line.unit)]
    found = character_search(seen, search=query.get("q", ""), page=clean_cursor(query.get("page")))
    # The GM holds an import's characters for those invited until they join: said beside each.
    taking_over = characters_held(campaign) if viewer.manages else {}
    characters = [
        (
            line,
            ", ".join(f.label for f in ordered_feats(line.feats)),
            "" if line.named_on_unit else taking_over.get(line.name, ""),
        )
        for line in found.lines
    ]
    entries = CharacterEntry.objects.filter(character__campaign=campaign)
    if viewer.others_sight != FULL:
        heading = campaign.characters.select_related("player", "leading__unit__force")
        entries = entries.filter(
            character__in=[c.pk for c in heading if _sees_character(viewer, c.player, led(c))]
        )
    context = base_context(
        viewer,
        characters=characters,
        found=found,
        forces_in_full=viewer.forces_in_full(),
        named_on_unit=any(line.named_on_unit for line, _, _ in characters),
        character_entries=entries.select_related("character").order_by("-id")[
            :CHARACTER_ENTRIES_SHOWN
        ],
        feat_effects=[(feat.label, feat_effect(feat.row)) for feat in Feat],
    )
    if viewer.manages:
        context["heal_form"] = forms.get("heal_form") or HealForm(campaign=campaign)
        context["character_form"] = forms.get("character_form") or CharacterForm(
            campaign=viewer.campaign
        )
        # A unit page's link to the join form asks for its unit (``?unit=``): the form starts on it.
        context["join_form"] = forms.get("join_form") or JoinForm(
            campaign=campaign, initial={"unit": key_named(query.get("unit"))}
        )
        context["train_form"] = forms.get("train_form") or TrainByForm(campaign=campaign)
        context["rally_form"] = forms.get("rally_form") or RallyForm(campaign=campaign)
    return context


@login_required
@require_GET
def characters_page(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    return render(request, CHARACTERS, characters_context(viewer, request.GET))


def _characters_action(request, pk, form_class, key, partial, act):
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    campaign = viewer.campaign
    form = form_class(request.POST, campaign=campaign)

    def done(data):
        message = act(viewer, data)
        return reverse("campaign:characters", args=[pk]), message

    return form_action(
        request, form, done, page=CHARACTERS, partial=partial,
        context=lambda: characters_context(viewer, **{key: form}),
    )  # fmt: skip


@login_required
@require_POST
def character_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, data):
        character = character_create(
            campaign=viewer.campaign, name=data["name"], hit_points=data["hit_points"],
            feats=data["feats"], player=data["player"], actor=request.user,
        )  # fmt: skip
        return f"{character.name} is a character of the campaign."

    return _characters_action(request, pk, CharacterForm, "character_form", "character-form", act)


@login_required
@require_POST
def character_join_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, data):
        leader_attach(unit=data["unit"], character=data["character"], actor=request.user)
        return f"{data['character'].name} leads {data['unit'].name}."

    return _characters_action(request, pk, JoinForm, "join_form", "join-form", act)


@login_required
@require_POST
def character_train_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, data):
        entry = unit_train(unit=data["unit"], character=data["character"], actor=request.user)
        return trained_text(data["character"].name, data["unit"].name, entry)

    return _characters_action(request, pk, TrainByForm, "train_form", "train-form", act)


@login_required
@require_POST
def character_heal_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, data):
        entry = character_heal(
            character=data["character"], hit_points=data["hit_points"], reason=data["reason"],
            actor=request.user,
        )  # fmt: skip
        return f"{entry.text}."

    return _characters_action(request, pk, HealForm, "heal_form", "heal-form", act)


@login_required
@require_POST
def character_rally_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, data):
        character_rally(character=data["character"], unit=data["unit"], actor=request.user)
        state = Unit.objects.get(pk=data["unit"].pk).state
        now = campaign_now(viewer.campaign)
        return rallied_text(data["character"].name, data["unit"].name, state, now)

    return _characters_action(request, pk, RallyForm, "rally_form", "rally-form", act)
