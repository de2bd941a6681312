"""The campaign lab: seeded campaigns of engine battles through the real services, measured.

`lab_run` plays N campaigns of M battles each: every battle fields each force's ready units on
the ruleset's reference scenario through the bridge (`campaign_battle_scenario`), the engine
resolves it in-process, `outcome_apply` brings the outcome back, the medics work (or not),
and the clock moves on a day and an hour: the battle's 24 hours are over. Everything happens
inside a transaction that is rolled back, so nothing is left in the database. It answers "how
deadly is my campaign?" per quality step: the chance a unit taken out by damage is lost for good,
BUCS hits per battle, the share of Casualty hits the medics save, days out of action, and
quality after M battles.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from battles.engine import parse_scenario, run_battle
from battles.engine.events import Removal
from campaign.demo import DEMO_FORCES
from campaign.models import Campaign, Force, HistoryEntry, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.dice import Dice
from campaign.rules.orders import HOURS_PER_DAY
from campaign.rules.state import Status
from campaign.services import (
    best_equipment,
    campaign_create,
    campaign_import,
    force_create,
    medical_apply,
    membership_set,
    outcome_apply,
    unit_create,
)
from campaign.services.battles import Deployment, campaign_battle_scenario
from campaign.services.orders import clock_advance
from units.bucs import Quality, Specialty
from units.models import Ruleset, UnitType
from units.services import library_load

SCENARIOS = Path(__file__).resolve().parents[1] / "battles" / "engine" / "scenarios"
REFERENCE_SCENARIO = {
    Ruleset.COMBINED_ARMS: "crossroads.json",
    Ruleset.ONE_YEAR_WAR: "river-crossing.json",
}
"""The table each ruleset's lab battles are fought on (both forces stand on its spots)."""

# One Year War forces in the demo's shape, for labs of that ruleset:
# (force, owner, [(unit name, card, quality, equipment, specialties, leader)]).
OYW_FORCES = (
    ("Federation", "alice", [
        ("Line Suit 1", "Federation Line Suit", "average", "adequate", ["mechanized"], None),
        ("Line Suit 2", "Federation Line Suit", "green", "adequate", ["mechanized"], None),
        ("Medical Suit", "Federation Line Suit", "average", "good", ["mechanized", "medical"],
         None),
        ("Tank Troop", "Federation Tank", "experienced", "excellent", ["mechanized", "armor"],
         ("Lt. Ames", 16)),
        ("Fighter Wing", "Federation Fighter", "average", "adequate", ["aviation"], None),
    ]),
    ("Principality", "bob", [
        ("Zaku 1", "Principality Line Suit", "average", "adequate", ["mechanized"], None),
        ("Zaku 2", "Principality Line Suit", "inexperienced", "adequate", ["mechanized"], None),
        ("Commander", "Principality Commander Suit", "elite", "good",
         ["mechanized", "armor"], ("Cdr. Vey", 22)),
        ("Magella", "Principality Tank", "average", "barely_adequate", ["mechanized", "armor"],
         None),
        ("Dopp", "Principality Fighter", "legendary", "adequate", ["aviation"], None),
    ]),
)  # fmt: skip
DEFAULT_FORCES = {Ruleset.COMBINED_ARMS: DEMO_FORCES, Ruleset.ONE_YEAR_WAR: OYW_FORCES}

LAB_STEP_HOURS = HOURS_PER_DAY + 1
"""The clock between one lab battle and the next: a day and an hour, so the medics' 24 hours
(open up to and including the 24th) are over before the next battle."""


@dataclass
class Tally:
    """What the lab counted for one quality step (a unit's quality when the battle began)."""

    unit_battles: int = 0
    taken_out: int = 0
    """Removed from the table by damage (every Hit lost)."""
    lost_for_good: int = 0
    """Of those taken out, destroyed utterly once the medics' 24 hours had passed."""
    morale_hits: int = 0
    casualty_hits: int = 0
    saved: int = 0
    """Casualty hits the medics saved."""
    out_of_action: int = 0
    """Times a unit left a battle out of action (retreated in poor order)."""
    days_out: int = 0
    """Days those units spent out of action before they rallied (or the campaign ended)."""
    started: int = 0
    """Units that began a campaign at this quality …"""
    final_quality: int = 0
    """… the sum of their quality steps after the last battle (destroyed counts as none) …"""
    destroyed_by_end: int = 0
    """… and how many of them were destroyed by then."""

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class LabReport:
    ruleset: str
    medics: bool
    campaigns: int
    battles: int
    battles_fought: int = 0
    by_quality: dict[Quality, Tally] = field(default_factory=lambda: defaultdict(Tally))
    battles_with_hit_lost: int = 0
    """Unit-battles in which a unit lost at least one Hit …"""
    battles_with_casualty_hits: int = 0
    """… and of those, how many left it Casualty hits for the medics."""
    quality_started: int = 0
    """Quality steps of every unit at the start of its campaign, summed …"""
    quality_kept: int = 0
    """… and after the last battle (a destroyed unit keeps none)."""
    medical_force_started: int = 0
    """The same two sums for the fighting units of forces that hold a Medical crew: what the
    medics are there to keep."""
    medical_force_kept: int = 0

    def rows(self) -> list[dict[str, Any]]:
        """One row per quality step, in ladder order, with the figures the lab prints."""
        rows = []
        for quality in Quality:
            t = self.by_quality.get(quality, Tally())
            rows.append(
                {
                    "quality": quality.label,
                    "unit_battles": t.unit_battles,
                    "taken_out": t.taken_out,
                    "lost_for_good": _share(t.lost_for_good, t.taken_out),
                    "morale_per_battle": _mean(t.morale_hits, t.unit_battles),
                    "casualty_per_battle": _mean(t.casualty_hits, t.unit_battles),
                    "saved": _share(t.saved, t.casualty_hits),
                    "days_out": _mean(t.days_out, t.out_of_action),
                    "started": t.started,
                    "quality_after": _mean(t.final_quality, t.started - t.destroyed_by_end),
                    "destroyed_by_end": _share(t.destroyed_by_end, t.started),
                }
            )
        return rows


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else part / whole


def _mean(total: int, count: int) -> float | None:
    return None if count == 0 else total / count


class _Discard(Exception):
    """Raised to roll a lab campaign back once it has been measured."""


def lab_run(
    *,
    ruleset: str = Ruleset.COMBINED_ARMS,
    campaigns: int = 3,
    battles: int = 10,
    medics: bool = True,
    seed: int = 1,
    export: dict[str, Any] | None = None,
) -> LabReport:
    """Play and measure `campaigns` seeded campaigns of `battles` battles; nothing is kept.

    The forces are the demo's (the ruleset's default forces), or those of a campaign export
    (`campaign.transfer.export.campaign_export`), whose ruleset then rules.
    """
    if export is not None:
        ruleset = export.get("campaign", {}).get("ruleset", ruleset)
    report = LabReport(str(ruleset), medics, campaigns, battles)
    try:
        with transaction.atomic():
            library_load()
            for n in range(campaigns):
                try:
                    with transaction.atomic():
                        campaign = lab_campaign(str(ruleset), export, n)
                        _play(campaign, battles, medics, Dice(seed * 1_000_003 + n), report)
                        raise _Discard
                except _Discard:
                    pass
            raise _Discard
    except _Discard:
        pass
    return report


def _users(names: Iterable[str]) -> dict[str, Any]:
    User = get_user_model()
    return {name: User.objects.get_or_create(username=name)[0] for name in names}


def lab_campaign(ruleset: str, export: dict[str, Any] | None, n: int) -> Campaign:
    if export is not None:
        data = json.loads(json.dumps(export))
        data["campaign"]["name"] = f"{data['campaign']['name']} (lab {n})"
        names = {data["campaign"]["gm"], *(f["owner"] for f in data["forces"])}
        names |= {m["user"] for m in data["campaign"].get("members", [])}
        _users(names)
        return campaign_import(data=data, keep_members=True)  # a lab's copy, as it was
    forces = DEFAULT_FORCES[Ruleset(ruleset)]
    users = _users(["lab-gm", *(owner for _, owner, _ in forces)])
    campaign = campaign_create(name=f"Lab {n}", gm=users["lab-gm"], ruleset=ruleset)
    for force_name, owner, roster in forces:
        membership_set(campaign=campaign, user=users[owner], role="player")
        force = force_create(campaign=campaign, owner=users[owner], name=force_name)
        for name, card, quality, equipment, specialties, leader in roster:
            unit_create(
                force=force,
                unit_type=UnitType.objects.get(ruleset=ruleset, name=card),
                name=name,
                quality=quality,
                equipment=equipment,
                specialties=specialties,
                leader=None if leader is None else {"name": leader[0], "hit_points": leader[1]},
            )
    return campaign


def _play(campaign: Campaign, battles: int, medics: bool, dice: Dice, report: LabReport) -> None:
    base = json.loads((SCENARIOS / REFERENCE_SCENARIO[Ruleset(campaign.ruleset)]).read_text())
    forces = list(Force.objects.filter(campaign=campaign).order_by("pk"))[:2]
    units = list(Unit.objects.filter(force__in=forces).select_related("unit_type", "force"))
    start_quality = {unit.pk: Quality(unit.quality) for unit in units}
    medical_forces = {u.force_id for u in units if Specialty.MEDICAL.value in u.specialties}
    out_since: dict[int, Quality] = {}
    """Units out of action, by the quality step they went out at."""
    for _ in range(battles):
        campaign.refresh_from_db()
        sides = _sides(forces)
        taken_out = []
        if all(sides):
            taken_out = _battle(campaign, base, forces, sides, medics, dice, report, out_since)
        # The medics' 24 hours are over (they close after the 24th hour): whoever is destroyed
        # now is lost for good.
        clock_advance(campaign=campaign, hours=LAB_STEP_HOURS, reason="the lab's day")
        lost = set(
            Unit.objects.filter(
                pk__in=[pk for pk, _ in taken_out], status=Status.DESTROYED
            ).values_list("pk", flat=True)
        )
        for pk, quality in taken_out:
            report.by_quality[quality].taken_out += 1
            report.by_quality[quality].lost_for_good += pk in lost
        for unit in Unit.objects.filter(pk__in=list(out_since)):
            report.by_quality[out_since[unit.pk]].days_out += 1
            if unit.status != Status.RETREATED:
                del out_since[unit.pk]
    for unit in Unit.objects.filter(pk__in=list(start_quality)):
        tally = report.by_quality[start_quality[unit.pk]]
        tally.started += 1
        report.quality_started += start_quality[unit.pk]
        kept = 0 if unit.status == Status.DESTROYED else unit.quality
        report.quality_kept += kept
        if unit.force_id in medical_forces and Specialty.MEDICAL.value not in unit.specialties:
            report.medical_force_started += start_quality[unit.pk]
            report.medical_force_kept += kept
        if unit.status == Status.DESTROYED:
            tally.destroyed_by_end += 1
        else:
            tally.final_quality += unit.quality


def _sides(forces: Sequence[Force]) -> list[list[Unit]]:
    """Each force's ready units, but for its Medical crews: a field hospital works behind the
    lines, where the 24 hours after a battle are spent."""
    return [
        [
            unit
            for unit in Unit.objects.filter(force=force, status=Status.READY)
            .select_related("unit_type", "leader", "force")
            .order_by("pk")
            if Specialty.MEDICAL.value not in unit.specialties
        ]
        for force in forces
    ]


def _battle(
    campaign: Campaign,
    base: dict[str, Any],
    forces: Sequence[Force],
    sides: Sequence[Sequence[Unit]],
    medics: bool,
    dice: Dice,
    report: LabReport,
    out_since: dict[int, Quality],
) -> list[tuple[int, Quality]]:
    """Fight one battle and settle it; the units taken out by damage, with their quality."""
    scenario, by_side, engine_units = _placed(campaign, base, sides)
    record = run_battle(parse_scenario(scenario), seed=dice.next_seed())
    result = record.result
    cards = {engine_units[u["id"]]: u["card"] for side in scenario["sides"] for u in side["units"]}
    outcomes = {
        engine_units[u.unit]: UnitOutcome(u.hits_lost, u.skill_lost, u.removed)
        for u in result.units
        if u.unit in engine_units
    }
    quality = {unit.pk: Quality(unit.quality) for members in sides for unit in members}
    winners = by_side.get(result.winner, []) if result.winner else []
    entries = outcome_apply(
        campaign=campaign,
        outcomes=outcomes,
        winners=winners,
        opposing_equipment={
            unit.pk: _best(other)
            for i, members in enumerate(sides)
            for other in [sides[1 - i]]
            for unit in members
        },
        reason=f"Lab battle {report.battles_fought + 1}",
        seed=dice.next_seed(),
        cards=cards,
    )
    report.battles_fought += 1
    for entry in entries:
        if entry.kind != HistoryEntry.Kind.BATTLE:
            continue
        tally = report.by_quality[quality[entry.unit_id]]
        damage = entry.details["damage"]
        tally.unit_battles += 1
        tally.morale_hits += damage["morale_hits"]
        tally.casualty_hits += damage["casualty_hits"]
        if entry.details["outcome"]["hits_lost"]:
            report.battles_with_hit_lost += 1
            report.battles_with_casualty_hits += damage["casualty_hits"] > 0
    if medics:
        for force in forces:
            if any(Specialty.MEDICAL.value in u.specialties for u in force.units.all()):
                try:
                    saved = medical_apply(force=force, reason="the lab's medics")
                except ValidationError:  # no ready crew today: nobody is saved
                    saved = []
                for entry in saved:
                    if entry.unit_id in quality:  # a unit of this battle (all there are)
                        report.by_quality[quality[entry.unit_id]].saved += entry.details["saved"]
    for unit in Unit.objects.filter(pk__in=list(outcomes)):
        if unit.status == Status.RETREATED:
            out_since.setdefault(unit.pk, quality[unit.pk])
            report.by_quality[quality[unit.pk]].out_of_action += 1
    return [(pk, quality[pk]) for pk, o in outcomes.items() if o.removed == Removal.DESTROYED]


def _placed(
    campaign: Campaign, base: dict[str, Any], sides: Sequence[Sequence[Unit]]
) -> tuple[dict[str, Any], dict[str, list[int]], dict[str, int]]:
    """The battle's scenario, each unit on its side's next spot that the engine accepts."""
    side_ids = [side["id"] for side in base["sides"]]
    deployments = [
        Deployment(unit, side_id, None)
        for side_id, members in zip(side_ids, sides, strict=False)
        for unit in members
    ]
    scenario, by_side, engine_units, _ = campaign_battle_scenario(campaign, base, deployments, None)
    return scenario, by_side, engine_units


def _best(units: Iterable[Unit]) -> str:
    return best_equipment(u.equipment for u in units).value
