"""What changed for a member: their last visit, and the email notices they may opt in to.

A member's "since your last visit" counts from the moment they last opened the dashboard, kept
on their membership (the GM's on the campaign), so it holds across browsers and devices.

Email notices tell a member who opted in what befell *their own* units — destroyed, Casualty
hits that died when the medical window closed, risen or fallen a step, a battle's outcome
applied and what it left each of them — in the campaign's words. A service that writes such
changes calls ``notices_after_commit``; once its transaction commits, a Celery task mails every
opted-in member what is new since the last entry their notices told of
(``Membership.notified_upto``), so a repeated or late task sends nothing twice and misses
nothing. Only a member's own units are named: nothing about a force their side could not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, CampaignBattle, HistoryEntry, Membership
from campaign.pages.events import entry_events
from campaign.pages.fights import battles_listed
from campaign.pages.history_words import entry_words
from campaign.pages.names import unit_label
from campaign.pages.sides import winner_names
from campaign.rules.history import UNHURT, took_words
from campaign.selectors.entries import entries_carrying, entry_battles
from campaign.selectors.timeline import latest_entry_id, notice_entries, notice_entries_before
from config.site import full_link, site_address
from units.words import and_words, plural, possessive

UNHURT_WORDS = UNHURT.removeprefix(": ")
"""A unit a battle did nothing to, as its history says it ("came through unhurt")."""

NOTICE_KINDS = ("destroyed", "promoted", "reduced")
"""The timeline's kinds of line a notice tells of (besides each battle applied, and Casualty
hits lost when a medical window closed)."""

NOTICE_ENTRIES_MOST = 200
"""The most changes one notice tells of. Notices held up (the mail or the workers down through a
week of battles) are told in one mail of bounded size: the latest changes, and how many older
ones were left out (the campaign's timeline tells them all)."""


@dataclass(frozen=True)
class Visit:
    """A member opening the campaign's dashboard: when they last did (None: never, or a
    superuser with no part in the campaign) and when this visit began."""

    last: datetime | None
    at: datetime


def member_visit(*, campaign: Campaign, user: Any) -> Visit:
    """``user`` opens the campaign's dashboard now: when they last did."""
    now = timezone.now()
    if campaign.gm_id == user.pk:
        return Visit(campaign.gm_last_visit_at, now)
    last = (
        Membership.objects.filter(campaign=campaign, user=user)
        .values_list("last_visit_at", flat=True)
        .first()
    )
    return Visit(last, now)


def member_visit_record(*, campaign: Campaign, user: Any, visit: Visit, news: bool) -> None:
    """Record the visit, so that the next one counts from it, when it is the member's first or
    it showed them something new (``news``). A visit that showed nothing new is not written:
    counting the next visit from the one before finds the same news, and the dashboard, read
    far more often than a campaign changes, then writes nothing. Two tabs opened at once may
    both count from the same visit: no lock is worth that."""
    if visit.last is not None and not news:
        return
    if campaign.gm_id == user.pk:
        Campaign.objects.filter(pk=campaign.pk).update(gm_last_visit_at=visit.at)
        campaign.gm_last_visit_at = visit.at
        return
    Membership.objects.filter(campaign=campaign, user=user).update(last_visit_at=visit.at)


@transaction.atomic
def notices_set(*, campaign: Campaign, user: Any, on: bool) -> Membership:
    """Turn the member's email notices on or off; on counts from now (no mail about the past)."""
    membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
    if membership is None:
        raise ValidationError("Only a member of the campaign gets its notices.")
    if on and not user.email:
        raise ValidationError(
            {"email_notices": "Your account has no e-mail address to send notices to."}
        )
    if on and not membership.email_notices:
        membership.notified_upto = latest_entry_id(campaign=campaign)
    membership.email_notices = on
    membership.save(update_fields=["email_notices", "notified_upto"])
    return membership


def notices_after_commit(campaign: Campaign) -> None:
    """Queue the campaign's notices for when the current transaction commits (not before: a
    rolled-back change must mail no one)."""
    from campaign.tasks import campaign_notices_send  # the tasks import the services

    transaction.on_commit(partial(campaign_notices_send.delay, campaign.pk))


def notice_lines(campaign: Campaign, entries: list, site: str = "") -> list[str]:
    """The sentences of one member's notice: each battle applied, who won it as its page says
    (`winner_names`: every member reads a battle's sides and its winner there, fog of war or
    none), and what it left each of the member's units in it ("Atlas (Red Company) retreated in
    poor order and fell from Average to Inexperienced."), given the ``site``'s address with a
    link to its report; then what else befell each unit."""
    # A battle's own entries: its outcome, and the experience it brought (a step won with it).
    applied = [
        e for e in entries if e.kind in (HistoryEntry.Kind.BATTLE, HistoryEntry.Kind.EXPERIENCE)
    ]
    homes, names = entry_battles(entries=applied)
    carrying = entries_carrying(entries=applied)
    battles: dict[int, dict[str, list[str]]] = {}
    for entry in applied:
        if entry.pk in homes:
            told = battles.setdefault(homes[entry.pk], {}).setdefault(unit_label(entry.unit), [])
            told += _fight_parts(entry, carrying.get(entry.pk, {}))
    winners = winner_names(list(battles_listed(CampaignBattle.objects.filter(pk__in=battles))))
    lines = []
    for battle, units in battles.items():
        won = winners.get(battle)
        result = f"{won} won" if won else "neither side won, a draw"
        lines.append(
            f"{names[battle]}: {result}. Its outcome was applied to {and_words(list(units))}."
        )
        lines += [
            f"  {label} {and_words(told or [UNHURT_WORDS])}." for label, told in units.items()
        ]
        if link := full_link(site, reverse("campaign:battle", args=[campaign.pk, battle])):
            lines.append(f"  Its report: {link}")
    for entry, event in zip(entries, entry_events(campaign, entries), strict=True):
        if entry.pk in homes:
            continue  # told under its battle
        if entry.kind == HistoryEntry.Kind.CASUALTIES or event.kind in NOTICE_KINDS:
            lines.append(f"Day {event.day}: {event.text}.")
    return lines


ZONE_WORDS = ("is in the combat zone", "is out of the combat zone")
"""Where a fight left a unit, as its history says it (`story_text`): no harm done, nor any
spared, so a fight's entry that says only this still says what the fight did to the unit."""


def _fight_parts(entry: HistoryEntry, unit: dict[str, Any]) -> list[str]:
    """What one entry of a battle did to the unit, each in words that follow its name ("fell
    from Average to Green", "now carries 1 Morale hit"). A fight's entry
    that changed nothing but its bookkeeping, or where the unit stands, says what the fight did
    as the unit's history does: "came through unhurt", or "took no hits" when Armor or
    Excellent equipment stopped them."""
    why, what = entry_words(entry, unit)
    parts = [part for part in what.split("; ") if part]
    if all(part in ZONE_WORDS for part in parts):
        took = took_words(entry.kind, entry.details, why)
        parts[:0] = [took] if took else []
    return parts


def _pages_lines(campaign: Campaign, forces: dict[int, str], site: str) -> list[str]:
    """Where the member reads more: their forces' rosters and the campaign's dashboard (none
    without the site's address)."""
    if not site:
        return []
    pk = campaign.pk
    lines = [
        f"{possessive(name)} roster: {full_link(site, reverse('campaign:force', args=[pk, force]))}"
        for force, name in forces.items()
    ]
    lines.append(f"The campaign: {full_link(site, reverse('campaign:dashboard', args=[pk]))}")
    return ["", *lines]


def campaign_notices_send(*, campaign_id: int) -> int:
    """Mail each opted-in member of the campaign what befell their units since their last
    notice; how many mails were sent."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return 0
    sent = 0
    members = Membership.objects.filter(campaign=campaign, email_notices=True).values_list(
        "pk", flat=True
    )
    for pk in members:
        sent += _member_notice_send(campaign, pk)
    return sent


@transaction.atomic
def _member_notice_send(campaign: Campaign, membership_pk: int) -> int:
    # The row stays locked while the mail goes: two tasks at once cannot both send it.
    membership = Membership.objects.select_for_update().select_related("user").get(pk=membership_pk)
    user = membership.user
    forces = dict(campaign.forces.filter(owner=user).order_by("pk").values_list("pk", "name"))
    if not membership.email_notices or not user.email or not forces:
        return 0
    after = membership.notified_upto
    entries = notice_entries(force_ids=set(forces), after_id=after, most=NOTICE_ENTRIES_MOST)
    if not entries:
        return 0
    site = site_address()
    lines = notice_lines(campaign, entries, site)
    if len(entries) == NOTICE_ENTRIES_MOST and (
        older := notice_entries_before(force_ids=set(forces), after_id=after,
                                       before_id=entries[0].pk)
    ):  # fmt: skip
        lines[:0] = [
            f"{plural(older, 'older change')} to your units "
            f"{'is' if older == 1 else 'are'} left out of this notice; the campaign's timeline "
            "tells them all.",
            "",
        ]
    membership.notified_upto = entries[-1].pk
    membership.save(update_fields=["notified_upto"])
    if not lines:
        return 0
    body = "\n".join(
        [f"News of your units in {campaign.name}:", "", *lines,
         *_pages_lines(campaign, forces, site), "",
         "You get these notices because you asked for them on the campaign's page; turn "
         "them off there."]
    )  # fmt: skip
    # A subject is one line: a name that holds a line break (typed or imported so) would
    # have the mail refused (a header may not hold one), and every notice after it.
    one_line = " ".join(campaign.name.split())
    send_mail(
        subject=f"{one_line}: news of your units",
        message=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[user.email],
    )
    return 1
