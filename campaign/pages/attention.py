"""The units needing attention: retreated, awaiting the medics, led by a dying leader, held in
a battle."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from campaign.models import Campaign, CampaignBattle, Unit
from campaign.pages.deadlines import dying_when, rally_when
from campaign.pages.left_out import names_of
from campaign.pages.names import unit_label
from campaign.rules.recovery import awaiting_until, days_to_rally, medical_window_open
from campaign.rules.state import Status
from campaign.selectors.roster import campaign_now, campaign_units, engaged_battles
from units.words import and_words, number_text, plural


@dataclass(frozen=True)
class Attention:
    unit: Unit
    reason: str
    """Why, in sentences: "1 Casualty hit awaits the medics. Unsaved, it dies after …", its
    dying leader's last (`leader_down`)."""
    medics: bool = False
    """Its Casualty hits await the medics (they die when its medical window closes)."""
    rally_days: int | None = None
    """Days of R&R until it rallies, if it retreated and time alone rallies it
    (`recovery.days_to_rally`)."""
    rally: str = ""
    """When it rallies, in words, if it retreated (`rally_when`)."""
    leader_down: str = ""
    """Why its leader leads it not, if it is dying (`Leader.leads_nobody`): a heal is due."""
    crews_idle: str = ""
    """Why its force's Medical crews cannot save its hits today, if they cannot
    (`forces_crews_idle`)."""
    unit_reason: str = ""
    """`reason` without its dying leader's sentence: where the leader has a line of its own
    (the GM's, with a way to heal them), the unit's says only what befalls the unit."""
    medics_reason: str = ""
    """`reason`'s sentences on its Casualty hits awaiting the medics, if they await them: how
    many, and when they die unsaved."""


@dataclass(frozen=True)
class HeldInBattle:
    """A battle whose outcome is not applied yet, and the viewer's units it holds."""

    battle: CampaignBattle
    units: list[Unit]

    @property
    def text(self) -> str:
        """What it means for them, after the battle's name: "the GM has yet to review and apply
        its outcome. Until then 1st Squad and Atlas are shown as they went in, and go into no
        other fight"."""
        one = len(self.units) == 1
        are, they = ("is", "it") if one else ("are", "they")
        goes = "goes" if one else "go"
        if self.battle.state == CampaignBattle.State.AWAITING:
            waits = "the GM has yet to review and apply its outcome. Until then"
        else:
            waits = "still being fought. Until its outcome is applied,"
        return (
            f"{waits} {names_of(self.units)} {are} shown as {they} went in, and {goes} into no "
            "other fight"
        )


def units_held_in_battles(campaign: Campaign, visible: set[int]) -> list[HeldInBattle]:
    """The battles whose outcome is not applied yet (`roster.engaged_battles`) that hold
    units of the forces ``visible``, each with those units, the earliest battle first: a player
    waits on the GM's review of them, and "Needs attention" says so."""
    engaged = engaged_battles(campaign=campaign)
    held: dict[int, HeldInBattle] = {}
    units = campaign_units(campaign=campaign).filter(pk__in=list(engaged), force_id__in=visible)
    for unit in units.order_by("name", "pk"):
        battle = engaged[unit.pk]
        held.setdefault(battle.pk, HeldInBattle(battle, [])).units.append(unit)
    return sorted(held.values(), key=lambda h: (h.battle.day, h.battle.pk))


def rallying_text(rallying: list[Attention]) -> str:
    """The GM's line for the retreated units: which the next day of R&R rallies, by name (the
    others are listed under it, each with its `rally_when`). "1 unit retreated in poor order:
    the next day of R&R rallies it" left the GM to find which."""
    next_day = [a.unit for a in rallying if a.rally_days == 1]
    named = and_words([unit_label(unit) for unit in next_day])
    if len(next_day) == len(rallying):
        return (
            f"{named} retreated in poor order: the next day of R&R rallies "
            f"{'it' if len(next_day) == 1 else 'them'}."
        )
    said = f"{plural(len(rallying), 'unit')} retreated in poor order"
    if not next_day:
        none = "does not rally it" if len(rallying) == 1 else "rallies none of them"
        return f"{said}; the next day of R&R {none}:"
    later = len(rallying) - len(next_day)
    # The units it does not rally are listed under the line: pointed at, not "this one".
    below = "the one below" if later == 1 else f"the {number_text(later)} below"
    return f"{said}; the next day of R&R rallies {named}, not {below}:"


def units_needing_attention(campaign: Campaign, visible: set[int]) -> list[Attention]:
    """Retreated units, units whose Casualty hits await the medics and units whose leader is
    dying (forces the viewer sees in full only)."""
    found = []
    now = campaign_now(campaign)
    # Only the units that may need attention are read (a campaign may hold thousands);
    # ``medical_window_open`` still decides (Casualty hits never outlast their 24 hours).
    # A leader below 0 hit points may be dying (`Leader.leads_nobody` decides): a heal is due.
    knocked_out = Q(leader__alive=True, leader__hit_points__lt=0)
    maybe = Q(status=Status.RETREATED) | Q(casualty_hits__gt=0) | knocked_out
    for unit in campaign_units(campaign=campaign).filter(maybe, force_id__in=visible):
        # A unit may have retreated with Casualty hits still to save: the medics come first,
        # since those hits die 24 hours after the battle and a retreat rallies by itself.
        medics = medical_window_open(unit.state, now)
        reasons = []  # each a sentence
        if medics:
            hits = plural(unit.casualty_hits, "Casualty hit")
            one = unit.casualty_hits == 1
            await_, they = ("awaits", "it") if one else ("await", "they")
            until = awaiting_until(unit.state)
            closes = until[0][0]
            if len(until) > 1:
                # Several battles' hits, each by its own 24 hours: "1 dies after …, and 1 after …".
                last, they = "", ""
            else:
                last = "" if closes > now else " in their last hour"
            die = dying_when(unit.state, now)
            if they:
                die = f"{they} {'dies' if one else 'die'} {die.partition(' ')[2]}"
            reasons.append(f"{hits} {await_} the medics{last}. Unsaved, {die}.")
        rally_days, rally = None, ""
        if unit.status == Status.RETREATED:
            rally_days = days_to_rally(unit.state, now)
            rally = rally_when(unit.state, now, rally_days)
            reasons.append(f"Retreated in poor order: {rally}.")
        # A dying leader needs a heal even when the unit it led is destroyed: it outlives it.
        leader = getattr(unit, "leader", None)
        down = "" if leader is None else leader.leads_nobody
        own = " ".join(reasons)
        if down:
            reasons.append(f"{down}.")
        if reasons:
            found.append(
                Attention(
                    unit,
                    " ".join(reasons),
                    medics,
                    rally_days,
                    rally,
                    down,
                    unit_reason=own,
                    medics_reason=reasons[0] if medics else "",
                )
            )
    return found
