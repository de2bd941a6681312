"""The table's pages: characters, Orders and the clock, engagements and their logs, checks.

Every member of the campaign reads them; the GM and co-GMs act, and a player gives their own
units Orders with their own characters. The views guard in the order of
`campaign.views` (login, lookup, the right to act, the form) and do the work through
the services.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import FULL, Viewer, campaign_for_viewer, require_manage
from campaign.battle_forms import browsed
from campaign.forms import add_service_errors
from campaign.keys import key_named
from campaign.models import (
    Campaign,
    Character,
    CharacterEntry,
    Engagement,
    HistoryEntry,
    Leader,
    Order,
    TableRoll,
    Unit,
)
from campaign.pages import (
    battles_page,
    changes,
    character_search,
    clean_cursor,
    engagement_outcome,
    engagement_sides,
    engagements_page,
    rallied_text,
    requisition_refused,
    revert_blocked,
    roll_notice,
    still_in_battle,
    trained_text,
    units_needing_attention,
)
from campaign.rules.characters import Feat, FeatRow, ordered_feats
from campaign.rules.engagement import (
    DRIVEN_BACK,
    DRIVEN_BACK_MARGIN,
    LANDING_WINS_TO_END_PIN,
    PINNED_BY_NUMBERS,
    SIDES,
)
from campaign.rules.history import number_text, out_cold_text, plural
from campaign.rules.orders import OrderKind, clock_text, outside_specialties_text
from campaign.rules.state import ordered_specialties
from campaign.selectors.reviews import entries_changes, revert_review
from campaign.selectors.roster import campaign_characters, campaign_now, engaged_battles
from campaign.services import leader_attach, unit_train
from campaign.services.characters import character_create, character_heal, character_rally
from campaign.services.checks import contest_run, requisition_run, skill_check_run
from campaign.services.engagements import (
    engagement_named,
    engagement_preview,
    engagement_revert,
    engagement_run,
)
from campaign.services.going_in import deployment_order, led_units
from campaign.services.orders import (
    UNDER_WAY,
    clock_move,
    order_call_off,
    order_give,
    order_state_text,
    order_status,
    order_working,
    orders_under_way,
    replaced_when,
)
from campaign.table_forms.characters import (
    CharacterForm,
    HealForm,
    JoinForm,
    RallyForm,
    TrainByForm,
)
from campaign.table_forms.check_fields import CHECK_UNITS_LIST, check_units_suggested
from campaign.table_forms.checks import ContestForm, SkillCheckForm
from campaign.table_forms.engagements import SITUATION_LABELS, EngagementForm, RevertEngagementForm
from campaign.table_forms.orders import CallOffForm, ClockForm, OrderForm, order_under_way_text
from campaign.table_forms.requisition import RequisitionForm, requisition_asked
from campaign.views._common import (
    as_before_text,
    base_context,
    changes_for_reader,
    form_action,
    form_invalid,
    reverted_context,
)
from campaign.views.clock import reviewed, time_moved, time_refused, time_review
from campaign.views.engagement_setup import engagement_review, to_engagement_review
from campaign.views.pages import fought_medics_due, medics_due_context
from units.bucs import (
    DUG_IN,
    HIT_MARGIN,
    MOBILE_PER_STEP,
    MOMENTUM_PER_ROUND,
    OUTNUMBERED_TABLE,
    PINNED_DOWN_OPPONENT,
    SURPRISE_MOMENTUM,
    Equipment,
    Specialty,
)
from units.words import and_words, capfirst

CHARACTERS = "campaign/characters.html"
CHARACTER_ENTRIES_SHOWN = 20
ORDERS = "campaign/orders.html"
SETUP = "campaign/engagement_setup.html"
ENGAGEMENT = "campaign/engagement.html"
ENGAGEMENTS = "campaign/engagements.html"
BATTLES = "campaign/battles.html"
CHECKS = "campaign/checks.html"
ROLLS_SHOWN = 30
LEGENDARY_UNNAMED = " (commanded by a Legendary unit)"
"""A seen unit's command on its roll by a Legendary unit of a force the reader sees in summary,
in place of the name (`engagement_log`)."""


# -- characters --------------------------------------------------------------------------------


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
    characters = [
        (line, ", ".join(f.label for f in ordered_feats(line.feats))) for line in found.lines
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
        named_on_unit=any(line.named_on_unit for line, _ in characters),
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


# -- Orders and the clock ----------------------------------------------------------------------


def orders_context(viewer: Viewer, unit: int | None = None, **forms: Any) -> dict[str, Any]:
    """The Orders page; ``unit``: the unit its Order form starts on (a unit page's "Give it an
    Order"), if offered there."""
    campaign = viewer.campaign
    initial = {} if unit is None else {"unit": unit}
    now = campaign_now(campaign)
    given = Order.objects.filter(campaign=campaign)
    if not viewer.manages:
        # An Order is its unit's business: shown to those who see the unit's force in full.
        given = given.filter(unit__force__in=viewer.forces_in_full())
    listed = list(given.select_related("unit__force", "giver")[:100])
    # Each unit's status as its roster line says it: held by a battle not yet applied, it is
    # "Awaiting review" of that battle, not ready.
    held = engaged_battles(campaign=campaign) if listed else {}
    for order in listed:
        order.unit.battle = held.get(order.unit_id)
    # An Order that replaced one of these was given after it, so it is among them too.
    replaced = replaced_when(listed)
    orders = [
        (order, OrderKind(order.kind).label, clock_text(order.given_at),
         order_state_text(order, now, replaced.get(order.pk)),
         _call_off_form(campaign, order) if viewer.calls_off(order)
         and order_status(order, now) == UNDER_WAY else None)
        for order in listed
    ]  # fmt: skip
    context = base_context(
        viewer, now=clock_text(now), orders=orders, call_off_form=forms.get("call_off_form")
    )
    if viewer.manages:
        context["order_form"] = forms.get("order_form") or OrderForm(
            campaign=campaign, initial=initial
        )
        context["clock_form"] = forms.get("clock_form") or ClockForm()
        # Beside the clock, what moving it may kill: each unit whose Casualty hits await the
        # medics, and when they die, as the dashboard's "Needs doing" says it.
        every_force = set(campaign.forces.values_list("pk", flat=True))
        _, medics = medics_due_context(campaign, units_needing_attention(campaign, every_force))
        context.update(medics)
        context["no_givers"] = not campaign.characters.filter(alive=True).exists()
        if context["no_givers"]:
            context["named_leaders"] = _named_leaders(campaign)
    elif _gives_as_player(viewer):
        context["order_form"] = forms.get("order_form") or OrderForm(
            campaign=campaign, player=viewer.user, initial=initial
        )
        context["no_givers"] = not campaign.characters.filter(
            alive=True, player=viewer.user
        ).exists()
    return context


def _gives_as_player(viewer: Viewer) -> bool:
    """A player with a force of their own, whose units they give Orders."""
    return not viewer.manages and any(
        viewer.gives_orders_to(force) for force in viewer.campaign.forces.all()
    )


@login_required
@require_GET
def orders_page(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    return render(request, ORDERS, orders_context(viewer, key_named(request.GET.get("unit"))))


@login_required
@require_POST
def order_give_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    if not _gives_as_player(viewer):
        require_manage(viewer)
    player = None if viewer.manages else request.user
    form = OrderForm(request.POST, campaign=viewer.campaign, player=player)

    def give(data):
        unit = data["unit"]
        replacing = orders_under_way(viewer.campaign, [unit]).get(unit.pk)
        order = order_give(
            giver=data["giver"], unit=data["unit"], kind=data["kind"],
            listed_hours=data["listed_hours"], note=data["note"], actor=request.user,
        )  # fmt: skip
        message = (
            f"{order.giver.name} ordered {order.unit.name} to {OrderKind(order.kind).label}: "
            f"{order.hours} h ({order_working(order)}), done at {clock_text(order.finishes_at)}"
        )
        if replacing is not None:
            message += f"; its {order_under_way_text(replacing)}, is replaced"
        message += "."
        # Given while a battle not yet applied holds the unit, the Order is for after it.
        battle = engaged_battles(campaign=viewer.campaign).get(unit.pk)
        if battle is not None:
            message += f" {still_in_battle(unit.name, battle.name)}: the Order is for what follows."
        # The GM or player learns here, not at the battle, that the unit is pressed into it.
        outside = outside_specialties_text(
            order.kind, Equipment(order.unit.equipment), ordered_specialties(order.unit.specialties)
        )
        if outside:
            message += f" {outside}"
        # And that nobody is at its head to repeat it, where the unit performs it as Raw.
        unit = order.unit
        going = deployment_order(unit, None, {unit.pk: order}, led=unit.pk in led_units([unit]))
        if going.order is None:
            message += f" {going.notes[-1]}"
        return reverse("campaign:orders", args=[pk]), message

    return form_action(
        request, form, give, page=ORDERS, partial="order-form",
        context=lambda: orders_context(viewer, order_form=form),
    )  # fmt: skip


def _named_leaders(campaign: Campaign) -> str:
    """Leaders named on a unit's page alone, who are no characters: said where the Orders page
    says the campaign has none, or the Characters page, which lists them, seems to contradict
    it ("Sgt. Vance leads a unit by name only, as no character")."""
    names = list(
        Leader.objects.filter(unit__force__campaign=campaign, character__isnull=True, alive=True)
        .order_by("name")
        .values_list("name", flat=True)
    )
    if not names:
        return ""
    leads = "leads a unit" if len(names) == 1 else "lead units"
    return f"{and_words(names)} {leads} by name only, as no character"


def _call_off_form(campaign: Campaign, order: Order) -> CallOffForm:
    return CallOffForm(
        campaign=campaign, initial={"order": order.pk}, auto_id=f"id_call_off_{order.pk}_%s"
    )


@login_required
@require_http_methods(["GET", "POST"])
def order_call_off_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the Orders page asking to confirm calling off one Order under way, as deleting a
    campaign asks first. POST: the GM calls off an Order under way: it makes no sense any more
    (a player, one their own character gave; `services.orders.order_call_off` decides)."""
    viewer = campaign_for_viewer(request.user, pk)
    if not _gives_as_player(viewer):
        require_manage(viewer)
    if request.method == "GET":
        return _call_off_confirm(request, viewer)
    form = CallOffForm(request.POST, campaign=viewer.campaign)

    def call_off(data):
        order = order_call_off(order=data["order"], actor=request.user)
        message = (
            f"The Order to {OrderKind(order.kind).label} that {order.giver.name} gave "
            f"{order.unit.name} is called off at {clock_text(order.called_off_at)}."
        )
        return reverse("campaign:orders", args=[pk]), message

    return form_action(
        request, form, call_off, page=ORDERS, partial="orders-list",
        context=lambda: orders_context(viewer, call_off_form=form),
    )  # fmt: skip


def _call_off_confirm(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """The Orders page with the question above its list; for an Order the viewer may not call
    off, or no longer under way, the page as it is."""
    campaign = viewer.campaign
    asked = CallOffForm(request.GET, campaign=campaign)
    order = asked.cleaned_data["order"] if asked.is_valid() else None
    if order is None or not (
        viewer.calls_off(order) and order_status(order, campaign_now(campaign)) == UNDER_WAY
    ):
        return redirect("campaign:orders", campaign.pk)
    confirm = {"order": order, "label": OrderKind(order.kind).label,
               "form": _call_off_form(campaign, order)}  # fmt: skip
    return render(request, ORDERS, orders_context(viewer) | {"confirm_call_off": confirm})


@login_required
@require_http_methods(["GET", "POST"])
def clock_advance_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what the next hours do to the units, and a button to confirm (the calendar's
    review, `time_review`). POST with the confirmation: move the clock on, and a summary of
    what changed and the Orders done (without it: to the review; after the clock has moved
    since the review, a second tab or click: refused, moving nothing)."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = ClockForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return form_invalid(request, ORDERS, "clock-form", orders_context(viewer, clock_form=form))
    hours, reason = form.cleaned_data["hours"], form.cleaned_data["reason"]
    campaign = viewer.campaign
    url = reverse("campaign:clock-advance", args=[pk])
    start = campaign_now(campaign)
    if request.method == "GET":
        return time_review(
            request,
            viewer,
            hours=hours,
            title=f"Move the clock on {plural(hours, 'hour')}?",
            confirm_url=url,
            confirm_label=f"Move on to {clock_text(start + hours)}",
            hidden=[("hours", hours), ("reason", reason)],
            back_url=reverse("campaign:orders", args=[pk]),
        )
    reviewed_at = reviewed(request)
    review = f"{url}?{urlencode({'hours': hours, 'reason': reason})}"
    if reviewed_at is None:
        return HttpResponseClientRedirect(review) if request.htmx else redirect(review)
    try:
        _, entries = clock_move(
            campaign=campaign, hours=hours, reason=reason, actor=request.user,
            reviewed_at=reviewed_at, reviewed=request.POST.get("reviewed"),
        )  # fmt: skip
    except ValidationError as error:
        if again := time_refused(request, error, review):
            return again
        add_service_errors(form, error)
        return form_invalid(request, ORDERS, "clock-form", orders_context(viewer, clock_form=form))
    return time_moved(request, pk, entries, {"hours": hours, "start": start})


# -- engagements -------------------------------------------------------------------------------


def engagement_rules() -> tuple[list[str], list[tuple[str, str]]]:
    """What an engagement's rounds and each of its set-up's choices do, in words, from the
    rules' own numbers (`rules.engagement`, `units.bucs`, docs/bucs-choices.md "Engagements"):
    the round's sentences, and each situation by its label on the form."""
    outnumbered = ", ".join(
        f"{number_text(value)} at {ratio.numerator} to {ratio.denominator}"
        + (" (and Pinned Down)" if ratio == PINNED_BY_NUMBERS else "")
        for ratio, value in OUTNUMBERED_TABLE
    )
    terrain = Specialty.AMPHIBIOUS.row.terrain_modifier
    rounds = [
        "Each round every unit rolls d20 + its modifiers against the enemy it is paired with: "
        f"the higher deals 1 hit per full {HIT_MARGIN} points of margin, half rounded up Morale "
        f"hits, the rest Casualty hits; a loser by {DRIVEN_BACK_MARGIN} or more is Driven Back "
        f"({number_text(DRIVEN_BACK)} next round).",
        f"Momentum: +{MOMENTUM_PER_ROUND} for each round in a row a unit won, lost when it "
        f"loses one. Outnumbered: {outnumbered}. Mobile: +{MOBILE_PER_STEP} a step of "
        "mobility over its enemy (foot, Mechanized, Armor).",
        f"Terrain — Amphibious, Arctic: +{terrain} and double Momentum for a unit with that "
        "specialty against one without; Armor enters Amphibious, Arctic, Jungle or Swamp ground "
        "only if it is Amphibious too. Surprise (Hide against Spot): the side that hides unseen "
        f"starts with +{SURPRISE_MOMENTUM} Momentum.",
        # Who the situations below never pin (rules.engagement's pinned_causes).
        "Never Pinned Down: an Armor unit facing no enemy Armor, by anything, except in cramped "
        "quarters; by numbers, a unit faster than every enemy, except in cramped quarters.",
    ]
    pinned = f"Pinned Down (its enemy +{PINNED_DOWN_OPPONENT})"
    situations = [
        (SITUATION_LABELS["dug_in"], f"+{DUG_IN} on its rolls; no Momentum nor Driven Back, "
         "for it or against it; Pinned Down only from several directions."),
        (SITUATION_LABELS["several_directions"],
         f"{pinned} for the whole engagement, dug in or not (Armor facing no Armor is not)."),
        (SITUATION_LABELS["cramped"], f"{pinned} until it wins a pairing."),
        (SITUATION_LABELS["landing"], f"{pinned} until it has won {LANDING_WINS_TO_END_PIN} "
         "pairings; an Amphibious unit lands unpinned."),
    ]  # fmt: skip
    return rounds, situations


def setup_context(
    viewer: Viewer, form: EngagementForm | None = None, browse: Any = None
) -> dict[str, Any]:
    campaign = viewer.campaign
    engagements = list(Engagement.objects.filter(campaign=campaign)[:20])
    sides = engagement_sides(engagements)
    if form is None and viewer.manages:
        form = EngagementForm(campaign=campaign, browse=browse)
    rounds, situations = engagement_rules()
    return base_context(
        viewer,
        form=form,
        engagements=[(e, engagement_outcome(e, sides[e.pk])) for e in engagements],
        rules_rounds=rounds,
        rules_situations=situations,
    )


def _setup_arguments(viewer: Viewer, form: EngagementForm) -> dict[str, Any]:
    data = form.cleaned_data
    return {
        "campaign": viewer.campaign,
        "sides": form.sides(),
        "situations": form.situations(),
        "terrain": data["terrain"],
        "surprise": data["surprise"] or None,
        "round_limit": data["round_limit"],
        "seed": data["seed"],
        "name": data["name"],
    }


def _setup_preview(request: HttpRequest, viewer: Viewer, form: EngagementForm):
    """The engagement as Apply will write it (`engagement_preview`, which writes nothing), or,
    refused, the set-up again with the refusal beside its field."""
    if form.is_valid():
        try:
            return engagement_preview(**_setup_arguments(viewer, form), actor=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
    return form_invalid(request, SETUP, "engagement-form", setup_context(viewer, form))


@login_required
@require_http_methods(["GET", "POST"])
def engagement_setup(request: HttpRequest, pk: int) -> HttpResponse:
    """POST: fight the engagement and apply it. Where the GM reviews each outcome first, the
    POST goes to its review instead (a GET marked ``review``, writing nothing), whose Apply (the
    POST confirmed, with what the review showed) writes exactly that, or is refused if a unit
    changed since."""
    viewer = campaign_for_viewer(request.user, pk)
    reviewing = request.method == "GET" and request.GET.get("review") == "yes"
    if request.method == "GET" and not reviewing:
        return render(request, SETUP, setup_context(viewer, browse=request.GET))
    require_manage(viewer)
    form = EngagementForm(request.GET if reviewing else request.POST, campaign=viewer.campaign)
    here = reverse("campaign:engagement-setup", args=[pk])
    if reviewing:
        preview = _setup_preview(request, viewer, form)
        if isinstance(preview, HttpResponse):
            return preview
        record = preview.engagement
        return engagement_review(
            request, viewer, preview,
            outcome=engagement_outcome(record, engagement_sides([record])[record.pk]),
            confirm_url=here, back_url=here, marks=("review",),
        )  # fmt: skip
    if "browse_page" in request.POST:
        # Another page of units, or a search: the form comes back with every choice in it.
        return render(request, SETUP, setup_context(viewer, browsed(form)))
    review_first = viewer.campaign.apply_mode == Campaign.ApplyMode.REVIEW
    confirmed = request.POST.get("confirm") == "yes" and request.POST.get("reviewed")
    if review_first and not confirmed:
        # Refused here beside its field, as when applied at once; else to the review.
        preview = _setup_preview(request, viewer, form)
        if isinstance(preview, HttpResponse):
            return preview
        return to_engagement_review(request, here, preview, review="yes")

    def run(data):
        record = engagement_run(
            **_setup_arguments(viewer, form), request_key=data["request_key"],
            actor=request.user, reviewed=request.POST.get("reviewed") if review_first else None,
        )  # fmt: skip
        outcome = engagement_outcome(record, engagement_sides([record])[record.pk])
        title = capfirst(record.name)
        message = f"{title}: {outcome}."
        return reverse("campaign:engagement", args=[pk, record.pk]), message

    return form_action(
        request, form, run, page=SETUP, partial="engagement-form",
        context=lambda: setup_context(viewer, form),
    )  # fmt: skip


def engagement_log(
    record: Engagement,
    sides: dict[str, str],
    unseen: Collection[str] = (),
    leaders_named: Collection[str] = (),
) -> dict[str, Any]:
    """The events grouped for reading: the line-up, the surprise check, then each round. Where
    the engine names a side ("attackers"), the log names it by ``sides`` (its forces).

    Of the units of ``unseen`` (their keys, `unseen_units`) the log keeps what the fight showed
    of them, their names and the totals they rolled against the reader's units: not their
    quality, leader, Order or Legendary command, not the dice and modifiers of their rolls (a
    side's surprise check, drawn from all its units, whenever one of them is unseen), not why
    they were Pinned Down, nor the hits they took, their leaders' wounds and how they broke;
    nor does a seen unit's roll name one of them as the Legendary unit commanding it. Of those
    in ``leaders_named`` (`leaders_seen`) the line-up still names the leader: the reader's own
    character."""
    names = {e["unit"]: e["name"] for e in record.events if e["event"] == "unit"}
    # Names a seen unit's roll may not give for its Legendary commander (one of another force's
    # units may share a seen unit's name, which gives nothing away).
    unnamed = {names[k] for k in unseen if k in names} - {
        n for k, n in names.items() if k not in unseen
    }
    side_units: dict[str, set[str]] = {side: set() for side in SIDES}
    for e in record.events:
        if e["event"] == "unit":
            side_units[e["side"]].add(e["unit"])

    def shown(working: dict[str, Any], hidden: bool) -> dict[str, Any]:
        """A roll's working, or of a hidden one its total alone."""
        return {"veiled": True, "total": working["total"]} if hidden else working

    def commander_unnamed(modifier: list[Any]) -> list[Any]:
        text = modifier[0]
        for name in unnamed:
            text = text.replace(f" (commanded by {name}, Legendary)", LEGENDARY_UNNAMED)
        return [text, *modifier[1:]]

    def rolled(working: dict[str, Any]) -> dict[str, Any]:
        # Every pairing's working names its unit; without one, it is hidden if any unit is.
        hidden = working["unit"] in unseen if "unit" in working else bool(unseen)
        veiled = shown(working, hidden)
        if not hidden and unnamed and "modifiers" in veiled:
            veiled = {**veiled, "modifiers": [commander_unnamed(m) for m in veiled["modifiers"]]}
        return {**veiled, "name": working.get("name", "")}

    def lined_up(e: dict[str, Any]) -> dict[str, Any]:
        # A leader knocked out before the fight is said as the unit page says it.
        out = "" if "leader_dying" not in e else out_cold_text(e["leader"], e["leader_dying"])
        if e["unit"] in unseen:
            if e["unit"] not in leaders_named:
                return {"name": e["name"], "unseen": True, "leader": None}
            return {"name": e["name"], "unseen": True, "leader": e.get("leader"),
                    "leader_dead": e.get("leader_dead", False), "leader_out": out}  # fmt: skip
        # A unit the reader sees in full leads to its page, as on a battle's page.
        unit_url = (
            reverse("campaign:unit", args=[record.campaign_id, int(e["unit"])])
            if str(e["unit"]).isdigit()
            else None
        )
        return {**e, "order": OrderKind(e["order"]).label if e["order"] else None,
                "url": unit_url, "leader_out": out}  # fmt: skip

    # Each side headed by its role and, where they can be named, its forces.
    lineup = [{"heading": side.capitalize() + ("" if sides[side] == f"the {side}"
                                               else f": {sides[side]}"),
               "units": [lined_up(e) for e in record.events
                         if e["event"] == "unit" and e["side"] == side]}
              for side in SIDES]  # fmt: skip
    surprise = next((e for e in record.events if e["event"] == "surprise"), None)
    if surprise is not None:
        # The side whose units started at +2 Momentum, if any. Engagements fought before
        # surprise was the hiders' alone gave it to the check's winner, spotters included,
        # and their events do not name it: their log says what their fight did.
        momentum = surprise.get("momentum", surprise["winner"])
        hiding, spotting = surprise["hiding"], SIDES[1 - SIDES.index(surprise["hiding"])]
        surprise = {**surprise,
                    "hide": shown(surprise["hide"], bool(side_units[hiding] & set(unseen))),
                    "spot": shown(surprise["spot"], bool(side_units[spotting] & set(unseen))),
                    "hiding_name": sides[hiding],
                    "winner_name": sides[surprise["winner"]],
                    "momentum_name": sides[momentum] if momentum else None}  # fmt: skip
    rounds: list[dict[str, Any]] = []
    # The pairing whose hits are being dealt, how many have been and the kit that ignored any:
    # a unit broken by the first of them is out, and the rest never land (docs/bucs-choices.md,
    # "The damage split is each unit's, per round").
    pairing: dict[str, Any] = {}
    dealt, ignored = 0, Counter[str]()
    # A leader's wounds and death are told by the leader's name, as the line-up names it.
    leaders = {e["unit"]: e.get("leader") for e in record.events if e["event"] == "unit"}
    for event in record.events:
        kind = event["event"]
        if kind == "hit":
            dealt += 1
            if event.get("ignored"):
                ignored[IGNORED_BY[event["ignored"]]] += 1
        left = pairing.get("hits", 0) - dealt
        if kind == "broken" and left > 0 and event["unit"] not in unseen:
            pairing["never_landed"] = never_landed_text(names[event["unit"]], dealt, left, ignored)
        if kind == "round":
            pinned = [(names[k], "" if k in unseen else ", ".join(v))
                      for k, v in event["pinned"].items()]  # fmt: skip
            rounds.append({"number": event["round"], "pinned": pinned, "lines": []})
        elif kind == "pairing":
            pairing = {**event,
                       "rolls": [rolled(event[side]) for side in SIDES],
                       "winner_name": sides.get(event.get("winner"))}  # fmt: skip
            dealt, ignored = 0, Counter()
            rounds[-1]["lines"].append(pairing)
        elif kind in ("hit", "leader", "leader_died", "broken") and event["unit"] not in unseen:
            rounds[-1]["lines"].append({**event, "unit_name": names.get(event.get("unit")),
                                        "leader_name": leaders.get(event.get("unit")),
                                        "ignored_by": IGNORED_BY.get(event.get("ignored")),
                                        "winner_name": sides.get(event.get("winner"))})  # fmt: skip
    return {"lineup": lineup, "surprise": surprise, "rounds": rounds}


IGNORED_BY = {"armor": "Armor", "excellent": "Excellent equipment"}
"""The kit that ignored a hit, by the engagement event's ``ignored``, as the log names it."""


def never_landed_text(name: str, dealt: int, left: int, ignored: Counter[str]) -> str:
    """A pairing's hits that never landed, its loser broken by those dealt before them, any its
    kit ignored among those said so: "the first broke Iron Wolf, so the second never landed",
    "the first 3 (Armor ignored one) broke Sappers, so the last never landed"."""
    first = "the first" if dealt == 1 else f"the first {dealt}"
    if ignored:
        (kit, count), *more = [(k, "one" if n == 1 else str(n)) for k, n in ignored.items()]
        first += f" ({', '.join([f'{kit} ignored {count}', *(f'{k} {n}' for k, n in more)])})"
    if dealt + left == 2:
        rest = "the second never landed"
    elif left == 1:
        rest = "the last never landed"
    else:
        rest = f"the other {left} never landed"
    return f"{first} broke {name}, so {rest}"


def unseen_units(viewer: Viewer, record: Engagement) -> set[str]:
    """The keys of an engagement's units whose force the viewer does not see in full
    (`Viewer.forces_in_full`): every member reads that the engagement was fought, between
    which units and with what outcome, as a battle's report; what those units were and what
    the fight did to them is for those who see their force, as a roster is."""
    if viewer.manages:
        return set()
    pks = [pk for side in record.setup.get("sides", {}).values() for pk in side]
    full = viewer.forces_in_full()
    seen = Unit.objects.filter(pk__in=pks, force__in=full).values_list("pk", flat=True)
    return {str(pk) for pk in pks} - {str(pk) for pk in seen}


def leaders_seen(viewer: Viewer, record: Engagement, unseen: Collection[str]) -> set[str]:
    """The keys of the ``unseen`` units whose leader in the engagement the viewer still sees
    (`Viewer.character_sight`): their own character at the head of another force's unit."""
    led = {e["unit"]: e["leader"] for e in record.events
           if e["event"] == "unit" and e["unit"] in unseen and e.get("leader")}  # fmt: skip
    if not led:
        return set()
    units = {str(u.pk): u for u in Unit.objects.filter(
        pk__in=[int(k) for k in led if str(k).isdigit()]).select_related("force")}  # fmt: skip
    players = dict(
        Character.objects.filter(campaign=viewer.campaign, name__in=led.values()).values_list(
            "name", "player_id"
        )
    )
    return {
        key
        for key, name in led.items()
        if name in players
        and viewer.character_sight(player_id=players[name], unit=units.get(key)) == FULL
    }


def engagement_context(viewer: Viewer, record: Engagement, **forms: Any) -> dict[str, Any]:
    sides = engagement_sides([record])[record.pk]
    unseen = unseen_units(viewer, record)
    pks = [pk for side in record.setup.get("sides", {}).values() for pk in side]
    forces = Unit.objects.filter(pk__in=pks).values_list("force_id", flat=True)
    log = engagement_log(record, sides, unseen, leaders_seen(viewer, record, unseen))
    context = base_context(viewer, engagement=record, log=log,
                           unseen=bool(unseen), seed_shown=viewer.sees_every_die(forces),
                           winner=sides.get(record.winner),
                           when=f"day {record.day}, {record.hour:02d}:00")  # fmt: skip
    if record.state == Engagement.State.APPLIED:
        context.update(_engagement_aftermath(viewer, record))
    else:
        said = reverted_said(record.name)
        context.update(reverted_context(viewer, applied=record.applied_entries, said=said))
    if viewer.manages and record.state == Engagement.State.APPLIED:
        if forms.get("revert_form"):
            context["revert_form"] = forms["revert_form"]  # sent, and refused: it says why
        elif blocked := revert_blocked(record.campaign, record.applied_entries, "engagement"):
            context["revert_blocked"] = blocked  # nothing to offer: Revert would refuse it
        else:
            context["revert_form"] = RevertEngagementForm()
        if not context.get("revert_blocked"):
            # What Revert gives back, in the sentences it writes, as a battle's review says it.
            told = revert_review(
                applied_entries=record.applied_entries, fight=engagement_named(record)
            )
            context["revert_changes"] = changes(*told)
    return context


def _engagement_aftermath(viewer: Viewer, record: Engagement) -> dict[str, Any]:
    """What an applied engagement did to its units, told in the words of the history entries it
    wrote (`pages.changes`, as a battle's page tells its outcome), for the forces the reader
    sees in full, as on the rosters; and, to the GM, which of its units' Casualty hits await
    the medics now, until when, and how to send them (`medics_due_context`)."""
    entries = list(
        HistoryEntry.objects.filter(pk__in=record.applied_entries)
        .select_related("unit__force", "unit__leader__character")
        .order_by("pk")
    )
    shown, hidden = changes_for_reader(viewer, changes(entries_changes(entries), entries))
    context: dict[str, Any] = {"changes": shown, "changes_hidden": hidden}
    if viewer.manages:
        context.update(fought_medics_due(viewer.campaign, (c.unit for c in shown)))
    return context


@login_required
@require_GET
def engagements_list(request: HttpRequest, pk: int) -> HttpResponse:
    """Every engagement the campaign has fought, the latest first, a page at a time
    (``?page=2``): each member may read an engagement's sides and outcome, as on its page."""
    viewer = campaign_for_viewer(request.user, pk)
    page = engagements_page(viewer.campaign, clean_cursor(request.GET.get("page")))
    return render(request, ENGAGEMENTS, base_context(viewer, page=page))


@login_required
@require_GET
def battles_list(request: HttpRequest, pk: int) -> HttpResponse:
    """Every battle of the campaign, the engine's and those at the table, the latest first, a
    page at a time (``?page=2``): each member may read a battle's sides and outcome, as on the
    dashboard (fog of war hides only what a side did not see, on the battle's page)."""
    viewer = campaign_for_viewer(request.user, pk)
    page = battles_page(viewer.campaign, clean_cursor(request.GET.get("page")))
    return render(request, BATTLES, base_context(viewer, page=page))


def _engagement_for(viewer: Viewer, engagement_pk: int) -> Engagement:
    record = Engagement.objects.filter(pk=engagement_pk, campaign=viewer.campaign).first()
    if record is None:
        raise Http404("no such engagement")
    return record


@login_required
@require_GET
def engagement_detail(request: HttpRequest, pk: int, engagement_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    record = _engagement_for(viewer, engagement_pk)
    return render(request, ENGAGEMENT, engagement_context(viewer, record))


def engagement_reverted_text(name: str, units: list[Any]) -> str:
    """What reverting an engagement did, by its name and its units' names: "Skirmish at the
    mill is reverted: Iron Wolf and Aid Post are as they were before it." """
    return as_before_text(reverted_said(name), units)


def reverted_said(name: str) -> str:
    """An engagement reverted, by its name: "Skirmish at the mill is reverted"."""
    return f"{capfirst(name)} is reverted"


@login_required
@require_POST
def engagement_revert_view(request: HttpRequest, pk: int, engagement_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    record = _engagement_for(viewer, engagement_pk)
    require_manage(viewer)
    form = RevertEngagementForm(request.POST)

    def revert(data):
        if record.state == Engagement.State.APPLIED and (
            blocked := revert_blocked(record.campaign, record.applied_entries, "engagement")
        ):
            # What changed since, by name: not "undo that first".
            raise ValidationError([str(line) for line in blocked])
        applied = HistoryEntry.objects.filter(pk__in=record.applied_entries).select_related("unit")
        units = [entry.unit for entry in sorted(applied, key=lambda e: e.pk)]  # the line-up's order
        engagement_revert(engagement=record, reason=data["reason"], actor=request.user)
        url = reverse("campaign:engagement", args=[pk, record.pk])
        return url, engagement_reverted_text(record.name, units)

    return form_action(
        request, form, revert, page=ENGAGEMENT, partial="revert-form",
        context=lambda: engagement_context(viewer, record, revert_form=form),
    )  # fmt: skip


# -- checks and Requisition --------------------------------------------------------------------


def roll_units(roll: TableRoll) -> list[int]:
    """The units a check or a contest was rolled for, by pk (a Requisition's: none)."""
    if roll.kind == TableRoll.Kind.REQUISITION:
        return []
    setup = roll.setup
    return [*setup.get("units", []), *setup.get("active", []), *setup.get("resisting", [])]


def roll_forces(roll: TableRoll, force_of: dict[int, int]) -> set[int]:
    """The forces a check, a contest or a Requisition was rolled for (``force_of``: unit pk →
    its force's pk, for the units still there)."""
    if roll.kind == TableRoll.Kind.REQUISITION:
        return {roll.setup.get("force")}
    return {force_of[pk] for pk in roll_units(roll) if pk in force_of}


ROLLS_READ = 600
"""Rolls a page of a player's or a spectator's checks reads at most, looking for those they may
see: past that many it shows the ones it found, and the earlier rolls are a page further on."""


def rolls_seen(
    viewer: Viewer, limit: int = ROLLS_SHOWN, before: int | None = None
) -> tuple[list[TableRoll], int | None]:
    """The campaign's latest rolls a viewer may read (``before``: rolled before that one):
    each one rolled for a force they see in full (a contest is both sides' to read). Read a
    quarter of `ROLLS_READ` at a time (``limit`` at least), each batch with the forces of the
    units it names only, `ROLLS_READ` at most; when that many were read without finding
    ``limit``, also the last roll read (the rolls before it are still to look through), else
    None."""
    rolls = TableRoll.objects.filter(campaign=viewer.campaign)
    if before is not None:
        rolls = rolls.filter(pk__lt=before)
    if viewer.manages:
        return list(rolls[:limit]), None
    full = viewer.forces_in_full()
    if not full:
        return [], None
    seen: list[TableRoll] = []
    read, last, size = 0, before, max(limit, ROLLS_READ // 4)
    while read < ROLLS_READ:
        batch = list((rolls if last is None else rolls.filter(pk__lt=last))[:size])
        if not batch:
            return seen, None
        named = {pk for roll in batch for pk in roll_units(roll)}
        force_of = dict(
            Unit.objects.filter(force__campaign=viewer.campaign, pk__in=named).values_list(
                "pk", "force_id"
            )
        )
        for roll in batch:
            if roll_forces(roll, force_of) & full:
                # Which of its units the reader sees in full: `rolls_shown` shows only theirs.
                roll.units_in_full = {pk for pk in roll_units(roll) if force_of.get(pk) in full}
                seen.append(roll)
                if len(seen) == limit:
                    return seen, None
        read, last = read + len(batch), batch[-1].pk
    return seen, last


def rolls_shown(viewer: Viewer, rolls: list[TableRoll]) -> bool:
    """Give each roll what the reader reads of it: ``workings``, each side's working with
    whether its dice and modifiers are shown — only for a unit whose force the reader sees in
    full (`Viewer.sight`: a contest's other side, a check's unit of another force, is named
    with its total only, as on an engagement's page) — and ``seed_shown``, only to whoever sees
    every unit of it (`Viewer.sees_every_die`: the seed rolls every die again). True when some
    roll hides something."""
    everything = viewer.others_sight == FULL
    hid = False
    for roll in rolls:
        r = roll.result
        sides = (
            [r] if r.get("modifiers") else [r["active"], r["resisting"]] if r.get("active") else []
        )
        # (A unit no longer on any roster is nobody's to read of, under summary.)
        seen = set(roll_units(roll)) if everything else roll.units_in_full
        roll.workings = [(w, int(w.get("unit", 0)) in seen) for w in sides]
        roll.seed_shown = set(roll_units(roll)) <= seen
        hid = hid or not roll.seed_shown or not all(shown for _, shown in roll.workings)
    return hid


def rolls_raising(campaign: Campaign, rolls: list[TableRoll]) -> None:
    """Give each roll ``raised``: the unit a Requisition raised, as (its pk, its name now), for
    its name to link to its page; None for any other roll, or a unit no longer on a roster."""
    raised = {
        r.pk: r.result["unit"]
        for r in rolls
        if r.kind == TableRoll.Kind.REQUISITION and r.result.get("unit")
    }
    units = Unit.objects.filter(force__campaign=campaign, pk__in=raised.values())
    names = dict(units.values_list("pk", "name")) if raised else {}
    for roll in rolls:
        unit = raised.get(roll.pk)
        roll.raised = (unit, names[unit]) if unit in names else None


def checks_context(
    viewer: Viewer, before: Any = None, again: Any = None, **forms: Any
) -> dict[str, Any]:
    """The rolls, ``ROLLS_SHOWN`` a page (``before``: the rolls before that one), and the
    GM's forms; ``again``: a refused Requisition, whose asking the Requisition form is filled
    with, so the GM may roll again or ask for less without typing it all anew."""
    campaign = viewer.campaign
    before = key_named(before or "")
    rolls, read_to = rolls_seen(viewer, ROLLS_SHOWN + 1, before)
    shown = rolls[:ROLLS_SHOWN]
    rolls_raising(campaign, shown)
    context = base_context(
        viewer,
        rolls=shown,
        rolls_veiled=rolls_shown(viewer, shown),
        earlier_rolls=rolls[ROLLS_SHOWN - 1].pk if len(rolls) > ROLLS_SHOWN else read_to,
        rolls_before=before,
    )
    if viewer.manages:
        context["skill_form"] = forms.get("skill_form") or SkillCheckForm(campaign=campaign)
        context["contest_form"] = forms.get("contest_form") or ContestForm(campaign=campaign)
        context["requisition_form"] = forms.get("requisition_form") or RequisitionForm(
            campaign=campaign, initial=_asked_again(campaign, again)
        )
        context["check_units"] = check_units_suggested(campaign)
        context["check_units_list"] = CHECK_UNITS_LIST
    return context


def _asked_again(campaign: Campaign, again: Any) -> dict[str, Any] | None:
    """What the refused Requisition ``again`` (its roll's key) asked, as the form's initial
    values; None for anything else (a roll that raised its unit, another campaign's)."""
    key = key_named(again or "")
    roll = None if key is None else TableRoll.objects.filter(pk=key, campaign=campaign).first()
    if roll is None or not requisition_refused(roll):
        return None
    return requisition_asked(roll.setup)


@login_required
@require_GET
def checks_page(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    context = checks_context(viewer, request.GET.get("before"), request.GET.get("again"))
    return render(request, CHECKS, context)


def _checks_action(request, pk, form_class, key, partial, act):
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = form_class(request.POST, campaign=viewer.campaign)

    def done(data):
        roll = act(viewer, form, data)
        url = reverse("campaign:checks", args=[pk])
        if requisition_refused(roll):
            # Back to its form filled with what was asked (`checks_context`'s ``again``).
            url += f"?again={roll.pk}#requisition-form"
        return url, *roll_notice(roll)

    return form_action(
        request, form, done, page=CHECKS, partial=partial,
        context=lambda: checks_context(viewer, **{key: form}),
    )  # fmt: skip


@login_required
@require_POST
def skill_check_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, form, data):
        return skill_check_run(
            campaign=viewer.campaign, units=form.units(), skill=data["skill"] or None,
            dc=data["dc"], seed=data["seed"], reason=data["reason"], actor=request.user,
        )  # fmt: skip

    return _checks_action(request, pk, SkillCheckForm, "skill_form", "skill-form", act)


@login_required
@require_POST
def contest_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, form, data):
        return contest_run(
            campaign=viewer.campaign, active=form.side("active"), resisting=form.side("resisting"),
            active_skill=data["active_skill"] or None,
            resisting_skill=data["resisting_skill"] or None, seed=data["seed"],
            reason=data["reason"], actor=request.user,
        )  # fmt: skip

    return _checks_action(request, pk, ContestForm, "contest_form", "contest-form", act)


@login_required
@require_POST
def requisition_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, form, data):
        return requisition_run(
            force=data["force"], unit_type=data["unit_type"], name=data["name"],
            quality=data["quality"], equipment=data["equipment"],
            specialties=data["specialties"], character=data["character"], bonus=data["bonus"],
            seed=data["seed"], actor=request.user,
        )  # fmt: skip

    return _checks_action(request, pk, RequisitionForm, "requisition_form", "requisition-form",
                          act)  # fmt: skip
