"""A unit's changes, before and after, as a review or a summary tells them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from campaign.models import Force, HistoryEntry, Unit
from campaign.pages.history_words import entry_line
from campaign.rules.history import hit_points_shown, hits_held_text
from campaign.rules.state import CampaignUnitState
from campaign.selectors.roster import leader_most_hit_points


@dataclass(frozen=True)
class Change:
    """One unit's before → after, as a review (before a GM's click) or a summary (after)."""

    unit: Unit
    before: CampaignUnitState
    after: CampaignUnitState
    lines: tuple[str, ...] = ()
    """What it did to the unit, a sentence per history entry, as the unit's history tells it
    (`entry_line`); none for a table of field values alone."""
    fought_for: Force | None = None
    """The force it fought for, when it has moved to another since (`changes_fought_for`):
    its row names both."""
    leader_most: Mapping[str, int] = field(default_factory=dict, hash=False)
    """The most hit points of each leader the entries telling it kept them for, by name
    (``leader_most_hit_points`` in an entry's details)."""

    @property
    def destroyed(self) -> bool:
        return self.after.destroyed and not self.before.destroyed

    @property
    def promoted(self) -> bool:
        return self.after.quality > self.before.quality

    @property
    def demoted(self) -> bool:
        return self.after.quality < self.before.quality and not self.destroyed

    @property
    def kind(self) -> str:
        """What the row is, for its colour and its word (never the colour alone)."""
        if self.destroyed:
            return "destroyed"
        if self.promoted:
            return "promoted"
        if self.demoted:
            return "reduced"
        return ""

    def cells(self) -> list[tuple[str, str, str, bool]]:
        """(what, before, after, changed) for hits, quality, status, Skill lost for good (what
        a step lost to suppression comes from, under Combined Arms), experience and leader."""
        b, a = self.before, self.after
        return [
            (
                "Hits",
                hits_held_text(b.morale_hits, b.casualty_hits),
                hits_held_text(a.morale_hits, a.casualty_hits),
                b.hits != a.hits or b.casualty_hits != a.casualty_hits,
            ),
            ("Quality", b.quality.label, a.quality.label, b.quality != a.quality),
            ("Status", b.status.label, a.status.label, b.status != a.status),
            (
                "Skill lost for good",
                str(b.skill_lost),
                str(a.skill_lost),
                b.skill_lost != a.skill_lost,
            ),
            (
                "Experience",
                _experience(b),
                _experience(a),
                not a.destroyed and _experience(b) != _experience(a),
            ),
            ("Leader", self._leader(b), self._leader(a), b.leader != a.leader),
        ]

    def _leader(self, state: CampaignUnitState) -> str:
        """Its leader and hit points as the unit's page says them: out of their full ones
        when its character records them ("14 of 14 hit points", `working.hit_points`), as the
        unit's leader now, or as the entries telling the row kept them (`leader_most`) of a
        leader since replaced."""
        leader = state.leader
        if leader is None:
            return "—"
        now = getattr(self.unit, "leader", None)
        if now is not None and now.name == leader.name:
            most = leader_most_hit_points(now)
        else:
            most = self.leader_most.get(leader.name)
        shown = hit_points_shown(leader.hit_points, alive=leader.alive, most=most)
        return f"{leader.name}, {shown}"


def _experience(state: CampaignUnitState) -> str:
    # A destroyed unit's experience counts towards nothing: a dash, as its page gives its
    # hits, and no change to read in the row that tells it destroyed.
    return "—" if state.destroyed else str(state.experience)


def changes(
    rows: list[tuple[Unit, CampaignUnitState, CampaignUnitState]],
    entries: Iterable[HistoryEntry] = (),
) -> list[Change]:
    """The rows as changes, each told by the history ``entries`` (in order) of its unit that
    made it: those an outcome wrote, or those Apply will write (`outcome_review`)."""
    told: dict[int, list[HistoryEntry]] = {}
    for entry in entries:
        told.setdefault(entry.unit_id, []).append(entry)
    found = []
    for unit, before, after in rows:
        now = before.to_json()
        lines = []
        most = {}
        for entry in told.get(unit.pk, ()):
            now.update(entry.after)  # the unit's snapshot after this entry
            lines.append(entry_line(entry, now))
            kept = entry.details.get("leader_most_hit_points")
            if kept is not None and isinstance(leader := now.get("leader"), dict):
                most[leader["name"]] = kept
        found.append(Change(unit, before, after, tuple(lines), leader_most=most))
    return found


def changes_fought_for(found: list[Change], fought_for: Mapping[int, Force]) -> list[Change]:
    """An outcome's changes (``found``), each unit moved to another force since with the force
    it fought for (``fought_for``, by unit pk, `moved_since`), as the battle's sides were when
    it was fought."""
    return [
        replace(change, fought_for=force)
        if (force := fought_for.get(change.unit.pk)) and force.pk != change.unit.force_id
        else change
        for change in found
    ]
