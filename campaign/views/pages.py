"""The campaign's reading pages: my campaigns, the dashboard, a force's roster, a unit, its card.

Every view is login-only and finds its objects through ``campaign.access``; each page's
``*_context`` is also what an action view renders, with its bound form, when the action fails
without JavaScript.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_safe
from django.views.decorators.vary import vary_on_headers

from campaign.access import (
    FULL,
    UnitInSummary,
    Viewer,
    campaign_battle_for_viewer,
    campaign_for_viewer,
    force_for_viewer,
    force_roster_for_viewer,
    unit_for_viewer,
)
from campaign.charts import UNIT_CHART_FIELDS
from campaign.forms import (
    AdvanceForm,
    ButtonForm,
    CampaignForm,
    CombatZoneForm,
    ForceEditForm,
    ForceForm,
    InvitationForm,
    LeaderAttachForm,
    LeaderDetachForm,
    MedicalForm,
    MemberForm,
    MemberRemoveForm,
    NoticesForm,
    SettingsForm,
    StoryNoteForm,
    UnitAddForm,
    UnitEditForm,
    UnitMoveForm,
    people_choices,
)
from campaign.models import Campaign, CampaignBattle, Force, Membership, Order, Unit
from campaign.pages.at_the_table import AtTheTable, at_the_table
from campaign.pages.attention import (
    Attention,
    rallying_text,
    units_held_in_battles,
    units_needing_attention,
)
from campaign.pages.cards import card_html, card_text
from campaign.pages.charts import force_strength_chart, unit_charts
from campaign.pages.destroyed import destroyed_where
from campaign.pages.events import since_last_visit
from campaign.pages.fights import (
    quick_resolve_outcome,
    quick_resolve_reason,
    recent_battles,
    recent_fights,
    recent_quick_resolves,
)
from campaign.pages.finder import finder_statuses, unit_search
from campaign.pages.forces import force_summaries, units_count_text
from campaign.pages.ladder import equipment_lines, quality_ladder
from campaign.pages.medics import (
    MEDICS_SPENT,
    forces_crews_idle,
    forces_with_medics,
    medics_left,
    medics_today,
)
from campaign.pages.my_campaigns import my_campaigns
from campaign.pages.reverts import undo_problems
from campaign.pages.roster import RosterLine, clean_sort, printed_lines, roster_line
from campaign.pages.sides import force_colour
from campaign.pages.sight import units_seen_in_summary
from campaign.pages.stories import unit_story_lines
from campaign.pages.timeline import (
    clean_cursor,
    timeline,
    timeline_choices,
    timeline_follow,
    timeline_lists_units,
)
from campaign.rules.bridge import fought_going, went_in_text
from campaign.rules.damage import LEADER_DEATH_MORALE_HITS
from campaign.rules.experience import training_blocked
from campaign.rules.history import undone_name
from campaign.rules.orders import OrderKind
from campaign.rules.state import Status
from campaign.selectors.access import GM, invitations_for, invitations_holding, with_holdings
from campaign.selectors.entries import unit_chart_entries, unit_story
from campaign.selectors.reviews import undo_offered
from campaign.selectors.roster import campaign_now, engaged_battles, force_roster, roster_version
from campaign.selectors.timeline import story_since
from campaign.services.accounts import email_pending
from campaign.services.battles import campaign_battle_cards
from campaign.services.going_in import printed_line, printed_roster, table_going_into
from campaign.services.members import still_playing
from campaign.services.notices import Visit, member_visit, member_visit_record
from campaign.services.orders import (
    ENDED,
    current_orders,
    ended_text,
    order_status,
    orders_under_way,
)
from campaign.services.roster import unit_remove_refusal, unit_zone_refusal
from campaign.table_forms.characters import UnitTrainForm
from campaign.table_forms.engagements import QuickResolveForm
from campaign.table_forms.orders import order_under_way_text
from campaign.views._common import base_context, return_path
from config.pagecache import cached_page, row_key
from units.bucs import Equipment, Quality, Specialty

DASHBOARD = "campaign/dashboard.html"
ROSTER_COLUMNS = (
    ("name", "Unit"),
    # Its status second, as a phone's card shows it, under the name: one order on every screen.
    ("status", "Status"),
    ("skill", "Skill"),
    ("quality", "Quality, equipment, specialties"),
    ("morale", "Morale hits"),
    ("casualty", "Casualty hits"),
    ("experience", "Experience"),
)


def campaign_list_context(request: HttpRequest, **forms: Any) -> dict[str, Any]:
    return {
        "campaigns": my_campaigns(request.user),
        "create_form": forms.get("create_form") or CampaignForm(),
        "invitations": with_holdings(invitations_for(request.user)),
    }


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """What Bridgehead is; to a member, their campaigns and what waits for them in each."""
    context = {}
    if request.user.is_authenticated:
        context = {
            "campaigns": my_campaigns(request.user),
            "invitations": invitations_for(request.user),
        }
    return render(request, "home.html", context)


@login_required
@require_GET
def campaign_list(request: HttpRequest) -> HttpResponse:
    return render(request, "campaign/list.html", campaign_list_context(request))


def _own_forces(viewer: Viewer, summaries: list) -> set[int]:
    """The forces whose units are "yours": a player's own; every force for the GMs; what a
    spectator may see in full."""
    if viewer.manages:
        return {s.force.pk for s in summaries}
    owned = {s.force.pk for s in summaries if viewer.owns(s.force)}
    if owned or viewer.role != "spectator":
        return owned
    return {s.force.pk for s in summaries if viewer.sight(s.force) == FULL}


def medics_due_context(
    campaign: Campaign, attention: list[Attention]
) -> tuple[list[Attention], dict[str, Any]]:
    """The units whose Casualty hits await the medics, among ``attention``
    (`units_needing_attention`), as the dashboard's "Needs doing" and the Orders page's clock
    list them (`_medics_due.html`): ``attention`` with why each force's crews cannot work today,
    where they cannot, and the context the list reads."""
    medics = medics_left({a.unit.force_id for a in attention if a.medics})
    # A force whose Medical crews are out of action is told which, why and till when.
    crewless = {a.unit.force_id: a.unit.force for a in attention if a.medics}
    idle = forces_crews_idle(
        [f for pk, f in crewless.items() if pk not in medics], campaign_now(campaign)
    )
    attention = [replace(a, crews_idle=idle.get(a.unit.force_id, "")) for a in attention]
    return attention, {
        "medics_due": [a for a in attention if a.medics],
        # The GM sends them in; a player is told when their force has none to send.
        "medics_forces": {pk for pk, left in medics.items() if left},
        # A force whose crews have saved all they can today is told so, not sent to its form.
        "medics_spent": {pk for pk, left in medics.items() if not left},
        "medics_spent_text": MEDICS_SPENT,
    }


def fought_medics_due(campaign: Campaign, fought: Iterable[Unit]) -> dict[str, Any]:
    """Which of the units a fight changed now carry Casualty hits awaiting the medics, until
    when, and each force's "Send in the medics" (`medics_due_context`): told to the GM on the
    fight's page once its outcome is applied, so the next step is there, not on another page."""
    fought = list(fought)
    attention = units_needing_attention(campaign, {unit.force_id for unit in fought})
    pks = {unit.pk for unit in fought}
    return medics_due_context(campaign, [a for a in attention if a.unit.pk in pks])[1]


def dashboard_context(viewer: Viewer, visit: Visit | None = None, **forms: Any) -> dict[str, Any]:
    """The dashboard; ``visit`` is the member opening it (`member_visit`), whose last visit
    says what is new to them (on their first, the latest that befell their units). None: a
    form drawn again with its errors, which tells nothing new."""
    campaign = viewer.campaign
    summaries = force_summaries(campaign)
    full = {s.force.pk for s in summaries if viewer.sight(s.force) == FULL}
    own = _own_forces(viewer, summaries)
    battles = recent_battles(campaign)
    attention = units_needing_attention(campaign, own)
    # A retreated unit whose Casualty hits await the medics is listed with them, its retreat
    # told in its line: the medics come first, and a unit is listed once.
    rallying = [a for a in attention if a.unit.status == Status.RETREATED and not a.medics]
    # Read once: the People list, and the GM's forms that choose among them.
    members = list(campaign.memberships.select_related("user").order_by("role", "user__username"))
    plays = any(viewer.owns(s.force) for s in summaries)
    owners = {s.force.owner_id for s in summaries}
    attention, medics_context = medics_due_context(campaign, attention)
    # A player's units waiting on a battle's outcome wait on the GM: their list says so.
    held = [] if viewer.manages or not own else units_held_in_battles(campaign, own)
    invitations = invitations_holding(campaign, mails=True) if viewer.manages else []
    # The GM holds an import's forces for those invited until they join: said beside each.
    taking_over = {force.pk: i.invitee for i in invitations for force in i.held}
    context = base_context(
        viewer,
        forces=[(s, s.force.pk in full, taking_over.get(s.force.pk, "")) for s in summaries],
        # A player who has just joined plays nothing until the GM raises or gives them a force.
        no_force_yet=viewer.role == Membership.Role.PLAYER and not plays,
        forces_in_summary=len(full) < len(summaries),
        # A member finds a unit among the forces they see in full (`unit_find`).
        finds_units=any(s.units for s in summaries if s.force.pk in full),
        fights=recent_fights(campaign, battles),
        awaiting=[b for b in battles if b.state == CampaignBattle.State.AWAITING],
        attention=attention,
        held_in_battles=held,
        **medics_context,
        leaders_down=[a for a in attention if a.leader_down],
        # A player's line leads to their force's medics form, as the GM's list does.
        directs_medics={s.force.pk for s in summaries if viewer.may_direct(s.force)},
        # Still to do before these can fight: a player with no force, a force with no units.
        forceless=[
            m for m in members if m.role == Membership.Role.PLAYER and m.user_id not in owners
        ],
        unitless=[s for s in summaries if not s.units],
        rallying=rallying,
        rallying_text=rallying_text(rallying) if rallying else "",
        rallying_later=[a for a in rallying if a.rally_days != 1],
        # What changed is told of the units the member calls theirs; with none, nothing is.
        since=since_last_visit(campaign, own, visit.last) if own and visit else None,
        first_visit=visit is not None and visit.last is None,
        # Who came, went or took another part, and forces raised or given on, since the last
        # visit: everyone's to see (the first visit has the timeline for what came before).
        story_since_visit=story_since(campaign=campaign, after=visit.last)
        if visit and visit.last
        else [],
        sees_units=bool(own),
        # The GM's reason goes to whoever sees either unit's force in full.
        quick_resolves=[
            (qr, quick_resolve_outcome(qr), quick_resolve_reason(qr, full))
            for qr in recent_quick_resolves(campaign)
        ],
        strength=force_strength_chart(campaign, [s for s in summaries if s.force.pk in full])
        if full
        else None,
        members=members,
    )
    membership = (
        campaign.memberships.filter(user=viewer.user).select_related("user").first()
        if plays
        else None
    )
    if membership is not None:
        # Email notices: a member with units of their own opts in here.
        context["notices_member"] = membership
        context["notices_form"] = forms.get("notices_form") or NoticesForm(
            initial={"email_notices": membership.email_notices}
        )
        # An address given on joining waits for its link: "no e-mail address" would deny it.
        context["email_pending"] = None if viewer.user.email else email_pending(viewer.user)
    if viewer.role != GM:
        # Any member but the GM may leave, once the forces they play are given to others.
        context["leave_form"] = forms.get("leave_form") or ButtonForm()
        context["leave_refusal"] = still_playing(campaign, viewer.user, leaving=True)
    if viewer.manages:
        context["advance_form"] = forms.get("advance_form") or AdvanceForm()
        context["quick_form"] = forms.get("quick_form") or QuickResolveForm(campaign=campaign)
        context["invitation_form"] = forms.get("invitation_form") or InvitationForm()
        context["member_form"] = forms.get("member_form") or MemberForm(
            campaign=campaign, members=members
        )
        context["member_remove_form"] = forms.get("member_remove_form") or MemberRemoveForm(
            campaign=campaign, members=members
        )
        context["invitations"] = invitations
        context["force_form"] = forms.get("force_form") or ForceForm(
            campaign=campaign, members=members
        )
        context["settings_form"] = forms.get("settings_form") or SettingsForm.for_campaign(campaign)
    return context


@login_required
@require_GET
def campaign_dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    # "Since your last visit" counts from when this member last opened it, on any device.
    visit = member_visit(campaign=viewer.campaign, user=request.user)
    context = dashboard_context(viewer, visit)
    member_visit_record(
        campaign=viewer.campaign,
        user=request.user,
        visit=visit,
        news=bool(context["since"] or context["story_since_visit"]),
    )
    return render(request, DASHBOARD, context)


@login_required
@require_GET
def campaign_timeline(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign day by day: battles, engagements, deaths, promotions, GM corrections, the
    changes to its people and the GM's notes."""
    viewer = campaign_for_viewer(request.user, pk)
    return render(request, "campaign/timeline.html", timeline_context(viewer, request.GET))


def timeline_context(
    viewer: Viewer, query: Mapping[str, str] | None = None, **forms: Any
) -> dict[str, Any]:
    """The timeline's window that ``query`` asks for (``before``, or ``day`` and ``entry``;
    the latest when none), and for the GMs the form that writes a note in it."""
    query = query or {}
    forces = viewer.forces_in_full()
    before = clean_cursor(query.get("before"))
    day, entry = clean_cursor(query.get("day")), clean_cursor(query.get("entry"))
    split = (day, entry) if day is not None and entry is not None else None
    # Narrowed to a force or a unit the reader sees in full (`timeline_follow`), or the whole.
    choices = timeline_choices(viewer.campaign, forces)
    follow = timeline_follow(viewer.campaign, choices, query.get("focus"), query.get("unit", ""))
    page = timeline(viewer.campaign, forces, before, split, follow.focus)
    if not page.days and (before is not None or split is not None):
        page = timeline(viewer.campaign, forces, focus=follow.focus)  # nothing there: the first
    if follow.value:
        # Its pages stay narrowed: each link carries the focus.
        page = replace(
            page,
            earlier=page.earlier and page.earlier + follow.query,
            later=None if page.later is None else "?" + (page.later[1:] + follow.query).lstrip("&"),
        )
    context = base_context(
        viewer, days=page.days, page=page, choices=choices, follow=follow,
        lists_units=timeline_lists_units(choices),
    )  # fmt: skip
    if viewer.manages:
        context["note_form"] = forms.get("note_form") or StoryNoteForm()
    return context


def force_context(
    viewer: Viewer,
    force: Force,
    sort: str = "name",
    members: list[Membership] | None = None,
    **forms: Any,
) -> dict[str, Any]:
    """The force page; ``members``: the campaign's memberships with their users, when the
    page has read them already."""
    sight = viewer.sight(force)
    sort = clean_sort(sort)
    # The cards its units' printable cards print, as on each unit's page: the engine's, where
    # it differs, is said beside each (`RosterLine.engine_changes`).
    lines = printed_roster(force, sort=sort) if sight == FULL else []
    if lines:
        # A player checking a squad sees the Order it is under, as on the unit's page.
        orders = units_order_words(viewer.campaign, [line.unit for line in lines])
        # A destroyed unit's line says where it fell, in place of hits it has none to heal.
        gone = destroyed_where((line.unit for line in lines), viewer.campaign.pk)
        # A unit in a battle not applied yet stands as it went in: its line says which.
        engaged = engaged_battles(campaign=viewer.campaign)
        lines = [
            replace(
                line,
                order=orders.get(line.unit.pk, ""),
                destroyed=gone.get(line.unit.pk, ""),
                battle=engaged.get(line.unit.pk),
            )
            for line in lines
        ]
    context = base_context(
        viewer,
        force=force,
        force_colour=force_colour(force),
        sight=sight,
        sort=sort,
        columns=ROSTER_COLUMNS,
        lines=lines,
        # The caption says what the engine's line is, where some unit has one.
        engine_differs=any(line.engine_changes for line in lines),
        unit_count=force.units.count() if sight != FULL else None,
        unit_count_text=units_count_text(
            len(lines), sum(line.unit.status == Status.DESTROYED for line in lines)
        ),
    )
    if viewer.manages:
        context["add_form"] = add_form = forms.get("add_form") or UnitAddForm(
            campaign=viewer.campaign
        )
        # A new site's library may hold no card of the campaign's ruleset: the form says so.
        context["no_cards"] = not add_form.fields["unit_type"].queryset.exists()
        context["force_edit_form"] = forms.get("force_edit_form") or ForceEditForm(
            force=force, members=members
        )
    if viewer.may_direct(force):
        medics = medics_today(force, lines)
        context["medics"] = medics
        context["medical_form"] = forms.get("medical_form") or MedicalForm(
            wounded=medics.wounded, shaken=medics.shaken
        )
    return context


@login_required
@require_GET
@vary_on_headers("HX-Request")
def force_detail(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    # Read once, for the GMs: the page's key and its form both name the campaign's people.
    members = list(viewer.campaign.memberships.select_related("user")) if viewer.manages else None
    drawn_from = (
        row_key(viewer.campaign),
        viewer.role,
        row_key(force),
        force.owner.get_username(),
        roster_version(force),
        # The GMs' form offers the campaign's people by name and part.
        people_choices(viewer.campaign, members, who_play=True) if members is not None else None,
    )

    def draw(extra: dict[str, Any]) -> HttpResponse:
        sort = request.GET.get("sort", "name")
        context = force_context(viewer, force, sort, members=members) | extra
        if request.htmx:
            # A sort link: only the roster table is redrawn.
            return render(request, "campaign/force.html#roster", context)
        return render(request, "campaign/force.html", context)

    return cached_page(request, drawn_from, draw)


def units_order_words(campaign: Any, units: list[Unit]) -> dict[int, str]:
    """unit pk → the Order it is under (`_order_words`), or, for a unit out of action, the one
    that ended with it, its giver named before why it ended: "Order to Attack, given by
    Lt. Ada Reyes, ended at day 2, 01:00: 1st Squad retreated in poor order"."""
    now = campaign_now(campaign)
    words = {pk: _order_words(o) for pk, o in orders_under_way(campaign, units, at=now).items()}
    out = [unit for unit in units if not Status(unit.status).fights]
    for pk, order in current_orders(campaign, out).items() if out else ():
        if order_status(order, now) == ENDED:
            label = OrderKind(order.kind).label
            words[pk] = f"Order to {label}, given by {order.giver.name}, {ended_text(order)}"
    return words


def _order_words(order: Order) -> str:
    """The Order a unit is under, as its page says it: "Order to Use Skill, under way until
    day 2, 11:00, given by Capt. Holt: scout the ford"."""
    note = f": {order.note}" if order.note else ""
    return f"{order_under_way_text(order)}, given by {order.giver.name}{note}"


def _at_the_table(unit: Unit, under_way: dict[int, Order]) -> AtTheTable | None:
    """The unit's "BUCS at the table" block, with its Order from ``under_way``
    (`orders_under_way`), if any; none for a unit out of action, which rolls in no fight at
    the table (`Status.fights`): its card says it is out of action instead."""
    if not Status(unit.status).fights:
        return None
    order = under_way.get(unit.pk)
    return at_the_table(unit, "" if order is None else _order_words(order))


def _gives_order(viewer: Viewer, unit: Unit) -> tuple[bool, str]:
    """Whether the unit page leads the viewer to give the unit an Order: it can take one, and
    the viewer may give it one (a player, with a living character of their own); and if not,
    why, said to a viewer who gives the force's units Orders ("" to anyone else, who reads the
    campaign's Orders)."""
    if not viewer.gives_orders_to(unit.force):
        return False, ""
    if not Status(unit.status).fights:
        return False, f"it takes none while {Status(unit.status).label.lower()}"
    if viewer.manages or viewer.campaign.characters.filter(alive=True, player=viewer.user).exists():
        return True, ""
    return False, "you have no living character to give it one"


def unit_context(
    viewer: Viewer, unit: Unit, before: int | None = None, **forms: Any
) -> dict[str, Any]:
    """The unit page: its state, card and charts, and a page of its history, the latest
    entries or those before entry ``before``."""
    now = campaign_now(viewer.campaign)
    # The card shown is the one its printable card prints, as a battle at a real table judges
    # it; a battle fought by the engine gives it the set-up's standing Order, which may raise
    # its Skill: that card is shown beside it only where it differs.
    line = printed_line(viewer.campaign, unit, now)
    line = replace(
        line,
        destroyed=destroyed_where([unit], viewer.campaign.pk).get(unit.pk, ""),
        battle=engaged_battles(campaign=viewer.campaign).get(unit.pk),
    )
    story = unit_story(unit=unit, before=before)
    if before is not None and not story.entries:
        story = unit_story(unit=unit)  # nothing there: the latest entries
    history = unit_chart_entries(unit=unit, fields=UNIT_CHART_FIELDS)
    gives_order, order_none_why = _gives_order(viewer, unit)
    context = base_context(
        viewer,
        unit=unit,
        force=unit.force,
        line=line,
        card_text=card_text(line.card),
        card_html=card_html(line.card),
        engine_card_text=card_text(line.engine_card) if line.engine_changes else "",
        engine_card_changes=line.engine_changes,
        story=unit_story_lines(story),
        story_page=story,
        unit_charts=unit_charts(history, viewer.campaign.day),
        order_words=units_order_words(viewer.campaign, [unit]).get(unit.pk),
        gives_order=gives_order,
        order_none_why=order_none_why,
        # Whoever directs the force's medics is led to its form, when it has a crew to send.
        sends_medics=line.needs_medics
        and viewer.may_direct(unit.force)
        and bool(forces_with_medics({unit.force_id})),
    )
    if "zone_form" in forms:
        context["zone_form"] = forms["zone_form"]
    elif viewer.may_direct(unit.force) and not unit.state.destroyed:
        going = not unit.in_combat_zone
        context["zone_form"] = CombatZoneForm(initial={"in_combat_zone": "yes" if going else "no"})
        # A retreated unit is not offered the combat zone, nor is a unit in a battle not
        # applied yet moved (services.unit_combat_zone_set refuses them too).
        context["zone_blocked"] = unit_zone_refusal(unit, going)
    if viewer.manages:
        context["edit_form"] = forms.get("edit_form") or UnitEditForm(unit=unit)
        context["train_form"] = forms.get("train_form") or UnitTrainForm(campaign=viewer.campaign)
        # A destroyed unit is offered no move (sent from an older page, it is told why), nor
        # a unit of the campaign's only force.
        move_form = forms.get("move_form") or (
            None if unit.state.destroyed else UnitMoveForm(unit=unit)
        )
        if move_form is not None and (move_form.is_bound or move_form.offers):
            context["move_form"] = move_form
        context["remove_form"] = forms.get("remove_form") or ButtonForm()
        context["remove_refusal"] = unit_remove_refusal(unit)
        context["train_blocked"] = training_blocked(unit.state)
        # The unit's latest change, when it has an Undo of its own (`reviews.undo_offered`).
        if (undo := undo_offered(unit=unit, page=story)) is not None:
            context["undo_entry"] = undo
            context["undo_name"] = undone_name(undo.undo_kind, undo.day)
            # Why the Undo would be refused now, said in the link's place
            # (`pages.reverts.undo_problems`).
            context["undo_refusal"] = undo_problems(viewer.campaign, undo)
        leader = getattr(unit, "leader", None)
        if leader is not None:
            context["detach_form"] = LeaderDetachForm()
        # A destroyed unit has no one left to lead (services.leader_attach refuses it too).
        if (leader is None or not leader.alive) and not unit.state.destroyed:
            context["leader_form"] = LeaderAttachForm()
        # A refused form is shown again with its errors, whatever the unit's state now.
        context.update({k: forms[k] for k in ("detach_form", "leader_form") if k in forms})
    return context


@login_required
@require_GET
def unit_detail(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    try:
        unit = unit_for_viewer(viewer, unit_pk)
    except UnitInSummary:
        # A member's old link to a unit of a force they now see in summary: why, not "ask its
        # GM to add you" — and nothing of the unit, not even its force's name.
        return render(request, "campaign/unit_in_summary.html", base_context(viewer), status=403)
    before = clean_cursor(request.GET.get("before"))
    context = unit_context(viewer, unit, before)
    # Come from a revert its change refused: its Undo goes back there once done.
    context["back_to"] = return_path(request, pk)
    return render(request, "campaign/unit.html", context)


@login_required
@require_GET
def unit_find(request: HttpRequest, pk: int) -> HttpResponse:
    """Find a unit across the campaign by its name or its leader's, a force, a status: a plain
    GET form, so a search is an address to keep. Only the forces the viewer sees in full are
    searched: what the campaign shows of the others (their name and unit count) is not theirs
    to search."""
    viewer = campaign_for_viewer(request.user, pk)
    query = request.GET
    found = unit_search(
        viewer.campaign,
        viewer.forces_in_full(),
        search=query.get("q", ""),
        force=query.get("force", ""),
        status=query.get("status", ""),
        page=clean_cursor(query.get("page")),
    )
    return render(
        request,
        "campaign/units.html",
        base_context(viewer, found=found, statuses=finder_statuses()),
    )


@login_required
@require_GET
def unit_card(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """The unit's battle card laid out as the rule text prints it, for the table."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    now = campaign_now(viewer.campaign)
    # Printed for a battle at a real table, beside the force's other ready units, as the
    # table result form will judge it (`table_going_into`): the engine's card assumes the set-up's
    # standing Order, which a table battle never gives.
    line = printed_line(viewer.campaign, unit, now)
    under_way = orders_under_way(viewer.campaign, [unit], at=now)
    return render(
        request,
        "campaign/card.html",
        base_context(
            viewer,
            unit=unit,
            line=line,
            table=_at_the_table(unit, under_way),
            card_text=card_text(line.card),
            card_html=card_html(line.card),
            library_text=card_text(unit.unit_type.card),
        ),
    )


@login_required
@require_GET
def rules_card(request: HttpRequest) -> HttpResponse:
    """The players' rules card: BUCS in plain words on one page (the rule-to-test documents
    are a link for developers)."""
    return render(
        request,
        "campaign/rules_card.html",
        {
            "ladder": quality_ladder(),
            "equipment": equipment_lines(),
            "specialties": list(Specialty),
            "leader_death_morale_hits": LEADER_DEATH_MORALE_HITS,
        },
    )


@dataclass(frozen=True)
class SheetCard:
    """A card on a print sheet: the roster line and its card printed as the rule text does."""

    line: RosterLine
    text: str
    went_in: dict[str, Any] | None = None
    """How the unit's Orders went into the battle the sheet is for (`BattleOrder.to_json`):
    a battle's sheet says how the unit fought, not how it stands now."""
    table: AtTheTable | None = None
    """Its BUCS numbers as it stands now (`at_the_table`), on a force's sheet."""

    @property
    def unit(self) -> Unit:
        return self.line.unit

    @property
    def went_in_text(self) -> str:
        """How it went in, as a record of the battle's launch (`bridge.went_in_text`)."""
        return (
            ""
            if self.went_in is None
            else went_in_text(self.went_in["text"], self.went_in.get("giver") or "")
        )

    @property
    def fought_as(self) -> str:
        """The quality and kit it fought with, in words: "Green, Ordinary equipment"."""
        if self.went_in is None:
            return ""
        quality = Quality.of_word(self.went_in["quality"]).label
        return f"{quality}, {Equipment(self.went_in['equipment']).label} equipment"

    @property
    def html(self) -> str:
        """Its card as its ``<pre>`` prints it, each item kept whole (`pages.cards.card_html`)."""
        return card_html(self.line.card)

    @property
    def card_hits(self) -> range:
        return range(self.line.card["hits"] if self.line.card else 0)


def _sheet(
    request,
    viewer: Viewer,
    units,
    title: str,
    back_url: str,
    battle: CampaignBattle | None = None,
    left_out: str = "",
) -> HttpResponse:
    """The units' cards on a print sheet: as their roster lines print them for the next
    battle, or, for a ``battle``, those it printed (a unit not in it has none), with how each
    went in; the hits they carry now only while the battle's outcome is not applied (until
    then they are the hits they went in with). ``left_out``: why some units have no card here
    (`pages.sight.units_seen_in_summary`)."""
    now = campaign_now(viewer.campaign)
    lines = [roster_line(unit, now) for unit in units]
    if battle is None:
        # As on a unit's printable card: the cards a battle at a real table judges them by.
        lines = printed_lines(lines, table_going_into(viewer.campaign, units, at=now))
        orders = orders_under_way(viewer.campaign, units, at=now)
        sheet = [
            SheetCard(line, card_text(line.card), table=_at_the_table(line.unit, orders))
            for line in lines
        ]
    else:
        cards = campaign_battle_cards(battle)
        sheet = []
        for line in lines:
            went_in = battle.orders.get(str(line.unit.pk))
            line = replace(line, card=cards.get(line.unit.pk))
            table = None
            if went_in is not None:
                # As it went in: its Skill's working, and its BUCS numbers then.
                going = fought_going(line.unit, went_in)
                if line.card is not None and going.skill == line.card["skill"]:
                    printed = line.unit.unit_type.card["skill"]
                    line = replace(line, skill_working=going.skill_working(printed))
                # How it went in is said above the card: the block gives its numbers.
                table = at_the_table(line.unit, "", went_in)
            sheet.append(SheetCard(line, card_text(line.card), went_in, table))
    unsettled = battle is None or battle.state in CampaignBattle.UNSETTLED
    return render(
        request,
        "campaign/card_sheet.html",
        base_context(
            viewer,
            lines=sheet,
            title=title,
            back_url=back_url,
            hits_now=unsettled,
            table_skill=battle is None,
            day=battle.day if battle is not None else None,
            left_out=left_out,
        ),
    )


@login_required
@require_GET
def force_cards(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    """Every card of a force on one print sheet, with hit boxes."""
    viewer = campaign_for_viewer(request.user, pk)
    force = force_roster_for_viewer(viewer, force_pk)
    units = force_roster(force=force).exclude(status="destroyed")
    for unit in units:
        unit.force = force
    back = reverse("campaign:force", args=[pk, force.pk])
    return _sheet(request, viewer, list(units), force.name, back)


@login_required
@require_GET
def battle_cards(request: HttpRequest, pk: int, battle_pk: int) -> HttpResponse:
    """The cards of a battle's units (those the viewer may see) on one print sheet."""
    viewer = campaign_for_viewer(request.user, pk)
    cb = campaign_battle_for_viewer(viewer, battle_pk)
    pks = [pk for side in cb.sides.values() for pk in side]
    fought = list(
        Unit.objects.filter(pk__in=pks)
        .select_related("force__owner", "unit_type", "leader")
        .order_by("force__name", "name")
    )
    units = [u for u in fought if viewer.sight(u.force) == FULL]
    # The units of forces the reader sees in summary have no card here, and the sheet says so;
    # a sheet that would hold none is refused with the reason, as the log's download is.
    left_out = units_seen_in_summary(
        [u for u in fought if viewer.sight(u.force) != FULL],
        spectator=viewer.role == Membership.Role.SPECTATOR,
    )
    if left_out and not units:
        raise PermissionDenied(f"This battle's cards are not yours to print. {left_out}")
    back = reverse("campaign:battle", args=[pk, cb.pk])
    # The cards the battle printed (or, at a table, the bridge printed from the Orders under
    # way at its hour), not those of the next battle.
    return _sheet(request, viewer, units, cb.name, back, battle=cb, left_out=left_out)
