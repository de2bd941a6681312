"""The engagements fought: their list, each one's page with its round-by-round log (what a reader
may see of it), what it did to its units, and the GM's Revert."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaign.access import FULL, Viewer, campaign_for_viewer, require_manage
from campaign.models import Character, Engagement, HistoryEntry, Unit
from campaign.pages.changes import changes
from campaign.pages.fights import engagements_page
from campaign.pages.reverts import revert_blocked
from campaign.pages.sides import engagement_sides
from campaign.pages.timeline import clean_cursor
from campaign.rules.engagement import SIDES
from campaign.rules.history import out_cold_text
from campaign.rules.orders import OrderKind
from campaign.selectors.reviews import entries_changes
from campaign.services.engagements import engagement_named, engagement_revert
from campaign.services.reverts import revert_review
from campaign.table_forms.engagements import RevertEngagementForm
from campaign.views._common import (
    as_before_text,
    base_context,
    changes_for_reader,
    form_action,
    reverted_context,
)
from campaign.views.pages import fought_medics_due
from units.words import capfirst

ENGAGEMENT = "campaign/engagement.html"
ENGAGEMENTS = "campaign/engagements.html"


LEGENDARY_UNNAMED = " (commanded by a Legendary unit)"
"""A seen unit's command on its roll by a Legendary unit of a force the reader sees in summary,
in place of the name (`engagement_log`)."""


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
    wrote (`pages.changes.changes`, as a battle's page tells its outcome), for the forces the reader
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
