"""The battle report's template context, for any view that shows a finished battle.

A view decides who may see the battle and from which side (``viewer``: a side id under fog of
war, None for the GM or owner), then calls ``battle_report`` and renders the partials of
``templates/battles/report.html`` — ``report`` for everything, ``log`` for the filtered log that
htmx swaps in. The campaign pages reuse both with their own permission checks and URLs; a
page that includes the report also loads ``battles/replay.js`` (see ``battles/battle.html``).
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.utils.text import capfirst

from battles.engine import ENGINE_VERSION, Scenario, ScenarioError, parse_scenario
from battles.engine.events import EndReason, Removal
from battles.engine.result import BattleResult
from battles.engine.scenario import Objective, ObjectiveKind
from battles.fog import hidden_events, seed_withheld
from battles.frames import replay_frames, unseen_at_deployment
from battles.luck import SideLuck, luck_table
from battles.models import Battle
from battles.names import Names, scenario_names
from battles.report import (
    EVENT_KINDS,
    Turn,
    entry_count,
    filter_turns,
    log_turns,
    veiled_count,
)
from battles.report import unit_sides as sides_of_units
from battles.selectors import battle_log, log_events
from battles.table import TableView, table_view
from units.words import possessive

LOG_PAGE_EVENTS = 4000
"""Events (dice included) one page of a battle's log shows at most, in whole turns (a turn with
more is shown alone); the replay plays the same turns. The whole log is the download."""

LOG_SWAP = {"log_swapped": True}
"""What the report's log is drawn with when its filter swaps it in alone (``report.html#log``):
its count of events shown is then news, said through the page's live region."""


class LogUnreadable(Exception):
    """A stored log this engine cannot read back (written by another engine version)."""


@dataclass(frozen=True, slots=True)
class LogFilter:
    """The log filter as asked for, already checked against the battle."""

    unit: str = ""
    kind: str = ""
    viewer: str | None = None

    def query(self, **changes: Any) -> str:
        """The query string for this filter with ``changes`` applied ("" drops a key)."""
        values = {"unit": self.unit, "kind": self.kind, "as": self.viewer or ""}
        values.update(changes)
        return urlencode({k: v for k, v in values.items() if v})


def lost_of(lost: int, had: int) -> str:
    """What a unit or building lost of what its card has, as every table of a battle's losses
    says it, fought by the engine or at a real table: "1 of 2" (Hits, or Skill)."""
    return f"{lost} of {had}"


@dataclass(frozen=True, slots=True)
class UnitRow:
    id: str
    name: str
    side: str
    side_index: int
    hits: int
    hits_lost: int
    skill: int
    skill_lost: int
    removed: str
    shots: int
    damage_dealt: int
    card: str
    """The card's name (``name`` is the unit's own, where it has one)."""
    left: str
    """How it left the battle, in the reader's words (`Names.left`): "destroyed", "taken out"."""

    @property
    def hits_lost_of(self) -> str:
        return lost_of(self.hits_lost, self.hits)

    @property
    def skill_lost_of(self) -> str:
        return lost_of(self.skill_lost, self.skill)


@dataclass(frozen=True, slots=True)
class SideRow:
    id: str
    name: str
    index: int
    score: int
    objectives_held: tuple[str, ...]
    winner: bool


@dataclass(frozen=True, slots=True)
class LuckRow:
    """One side's luck, exact figures kept and printable ones beside them."""

    luck: SideLuck
    side_index: int
    expected_damage: str
    damage_difference: str
    damage_at_least: str
    expected_suppressions: str
    suppression_difference: str
    suppressions_at_least: str
    verdict: str
    """The sentence saying how its dice went, naming the side (`luck_verdict`)."""


LUCKY = Fraction(1, 5)
"""Below this chance of doing at least (or at most) as well, the dice decided: said so."""


def difference_text(value: Fraction) -> str:
    """A luck table's difference, to two places, signed with a real minus as every page signs
    a number ("+0.48", "−0.52", never the hyphen "-0.52"); "0.00" when it rounds to nothing."""
    text = f"{float(value):+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text.replace("-", "\u2212")


def _lean(at_least: Fraction, at_most: Fraction) -> int:
    """+1 when the dice gave more than chance would likely give, -1 when less, 0 within it."""
    if at_least < LUCKY:
        return 1
    if at_most < LUCKY:
        return -1
    return 0


def luck_verdict(side: SideLuck) -> str:
    """What a side's dice did, in a sentence naming it ("Blue Battalion had lucky …"), judged
    for damage and for suppressions apart, as the table beside it shows them: a side whose
    damage came out high and whose suppressions low is not called lucky without saying so."""
    if side.attacks == 0:
        return f"{side.name} made no attacks."
    # (the rolls' name, what they gave, more of it, less of it, chance of as much, of as little)
    kinds = [
        (
            "damage",
            "damage",
            "more damage",
            "less damage",
            side.damage_at_least,
            side.damage_at_most,
        )
    ]
    if side.expected_suppressions or side.suppressions:
        # Attacks that could never suppress (on buildings, or too weak) say nothing about it.
        kinds.append(
            (
                "suppression",
                "suppressions",
                "more suppressions",
                "fewer suppressions",
                side.suppressions_at_least,
                side.suppressions_at_most,
            )
        )
    leans = [(_lean(at_least, at_most), *words) for *words, at_least, at_most in kinds]
    if all(lean == 0 for lean, *_ in leans):
        return f"{possessive(side.name)} dice came out about as expected."
    if len({lean for lean, *_ in leans}) == 1:
        lucky = leans[0][0] > 0
        what = " and ".join(more if lucky else less for _, _, _, more, less in leans)
        return f"{side.name} had {'lucky' if lucky else 'unlucky'} dice: {what} than expected."
    said = f"{side.name} had " + " but ".join(
        f"{'lucky' if lean > 0 else 'unlucky'} {rolls} rolls ({more if lean > 0 else less} "
        "than expected)"
        for lean, rolls, _, more, less in leans
        if lean
    )
    steady = [gave for lean, _, gave, *_ in leans if not lean]
    return f"{said}; its {steady[0]} came out about as expected." if steady else f"{said}."


def luck_rows(luck: list[SideLuck]) -> list[LuckRow]:
    rows = []
    for i, side in enumerate(luck):
        verdict = luck_verdict(side)
        rows.append(
            LuckRow(
                luck=side,
                side_index=i,
                expected_damage=f"{float(side.expected_damage):.2f}",
                damage_difference=difference_text(side.damage_difference),
                damage_at_least=_percent(side.damage_at_least),
                expected_suppressions=f"{float(side.expected_suppressions):.2f}",
                suppression_difference=difference_text(side.suppression_difference),
                suppressions_at_least=_percent(side.suppressions_at_least),
                verdict=verdict,
            )
        )
    return rows


def _percent(p: Fraction) -> str:
    """A chance for reading: whole percent, but never rounded to a misleading 0% or 100%."""
    value = float(p) * 100
    if 0 < value < 0.1:
        return "< 0.1%"
    if 99.9 < value < 100:
        return "> 99.9%"
    return f"{value:.1f}%"


END_REASON_TEXT = {
    EndReason.TURN_LIMIT: "the turn limit",
    EndReason.SIDE_ELIMINATED: "a side was wiped out",
}
"""Why a battle ended, as its report and the campaign's ``battles.json`` say it."""


@dataclass
class BattleReport:
    """Everything the report partials render."""

    battle: Battle
    url: str
    """Where the filter form sends its GET (the page that shows this report)."""
    download_url: str
    ruleset: str
    winner: str | None
    end_reason: str
    end_reason_text: str
    """``end_reason`` in words (``END_REASON_TEXT``)."""
    turns_played: int
    sides: list[SideRow]
    units: list[UnitRow]
    buildings: list[dict[str, Any]]
    objectives: list[str]
    log: list[Turn]
    shown: int
    total: int
    turns_shown: str
    """Which turns this page of the log shows, in words, when it shows only some: "Turns 12 to
    40 of 630" ("" when it shows them all)."""
    earlier: str | None
    """The query of the page of the turns before these, if any."""
    later: str | None
    """The query of the page of the turns after these, if any."""
    downloaded: int
    """How many events the log downloaded from ``download_url`` holds, for this reader."""
    veiled: int
    """How many activations of units out of sight the shown log marks (not counted in
    ``shown`` nor ``total``: the reader's side saw nothing of them)."""
    filter: LogFilter
    unit_choices: list[tuple[str, list[tuple[str, str]]]]
    """(side name, [(unit id, name)]) for the log's unit filter, a group per side."""
    kind_choices: list[tuple[str, str]]
    viewer_choices: list[tuple[str, str, str, bool]]
    """(value, label, query, selected) when the reader may pick a side's view; else empty."""
    luck: list[LuckRow]
    table: TableView
    frames: dict[str, Any]
    why_left_out: str = ""
    """Whose units the units table leaves out, and why, in a sentence ("" when none)."""
    removed_words: str = ""
    """How a unit may leave the battle, for the replay's key: "destroyed or demoralised", a
    campaign's "taken out or broken" (`Names.left`)."""
    luck_left_out: list[str] = field(default_factory=list)
    """The sides whose luck row the luck table leaves out with those units."""

    @property
    def dice_url(self) -> str:
        """The log with every die roll shown, opened (the same view and unit filter)."""
        return f"{self.url}?{self.filter.query(kind='roll')}#battle-log"

    @property
    def viewer_name(self) -> str | None:
        """The name of the side whose eyes the report is seen through (None: everything)."""
        viewer = self.filter.viewer
        return next((s.name for s in self.sides if s.id == viewer), viewer)


def clean_filter(
    scenario: Scenario, *, unit: str = "", kind: str = "", viewer: str | None = None
) -> LogFilter:
    """A filter that only names this battle's units, known kinds and its sides."""
    units = {u.id for u in scenario.units()} | {b.id for b in scenario.buildings}
    sides = {s.id for s in scenario.sides}
    return LogFilter(
        unit=unit if unit in units else "",
        kind=kind if kind in EVENT_KINDS else "",
        viewer=viewer if viewer in sides else None,
    )


def battle_report(
    battle: Battle,
    *,
    url: str,
    download_url: str,
    unit: str = "",
    kind: str = "",
    turn: str = "",
    viewer: str | None = None,
    viewer_choice: bool = False,
    download_viewer: str | None = None,
    log_only: bool = False,
    outcome_only: bool = False,
    side_names: Mapping[str, str] | None = None,
    unit_names: Mapping[str, str] | None = None,
    left: Mapping[Removal, str] | None = None,
    seed_shown: bool = True,
    units_left_out: Collection[str] = (),
    why_left_out: str = "",
) -> BattleReport | None:
    """The report of a finished battle, or None when it has no log yet.

    ``viewer`` is a side id for fog of war (None sees all); ``viewer_choice`` offers links to
    see the battle as each side (only for someone who may see everything). ``download_viewer``
    is the side whose eyes the download at ``download_url`` sees through (None: the whole log,
    whatever side the page is seen as); the report counts the events it holds by the same
    fog (``hidden_events``) that takes them out of it. ``log_only`` skips
    the luck table and the replay, for the htmx partial that redraws the log alone.
    ``outcome_only`` (a reader who may see the outcome and the units only) reads no event of
    the log: the outcome and the units come from the stored result, and the report's log
    parts stay empty.
    ``side_names`` and ``unit_names`` (by id) name the sides and units as their players know
    them — a campaign battle's sides are its forces, its units "Iron Wolf" — in every part of
    the report, the map and the replay included; ``left`` says how a unit left the battle in
    the reader's words likewise (a campaign's "taken out", `names.scenario_names`). The log
    shows a page of whole turns from turn ``turn`` (the first, when it is none of them) of at
    most `LOG_PAGE_EVENTS` events. Raises ``LogUnreadable`` when the stored log cannot be read
    back by this engine. Without
    ``seed_shown`` the log's header does not give the battle's seed (`fog.seed_withheld`).
    ``units_left_out`` (unit ids) are units the reader may know by name only: the units table
    gives no row of theirs, nor the luck table a row of a side they fought on (its attacks,
    and the odds of each, would tell their cards); ``why_left_out`` says so in a sentence.
    """
    log = battle_log(battle)
    result = battle.outcome
    if log is None or result is None:
        return None
    try:
        scenario = parse_scenario(battle.scenario, fought=True)
        events = [] if outcome_only else log_events(log)
        if not seed_shown:
            events = seed_withheld(events)
    except (ScenarioError, KeyError, TypeError, ValueError) as exc:
        # An engine that changed its formats since; the stored log stays downloadable.
        raise LogUnreadable(
            f"The log was written by engine {battle.engine_version}; this engine "
            f"({ENGINE_VERSION}) cannot read it back ({type(exc).__name__}: {exc})."
        ) from exc
    if side_names:
        scenario = renamed_sides(scenario, side_names)
    chosen = clean_filter(scenario, unit=unit, kind=kind, viewer=viewer)
    unit_sides = sides_of_units(scenario)
    hidden = hidden_events(events, unit_sides, chosen.viewer)
    download_hidden = hidden_events(events, unit_sides, download_viewer)
    names = scenario_names(
        scenario, unit_names, left, title=battle.name, cards_unseen=units_left_out
    )
    turns = log_turns(events, scenario, hidden, names)
    shown = filter_turns(turns, unit=chosen.unit, kind=chosen.kind)
    page, earlier, later = log_page(shown, turn)
    report = BattleReport(
        battle=battle,
        url=url,
        download_url=download_url,
        ruleset=scenario.ruleset.title,
        winner=names.side(result.winner) if result.winner else None,
        end_reason=result.end_reason,
        end_reason_text=_end_reason_text(scenario, result, names),
        turns_played=result.turns,
        sides=_sides(scenario, result, names),
        units=[row for row in _units(scenario, result, names) if row.id not in units_left_out],
        buildings=_buildings(scenario, result, names),
        objectives=_objectives(scenario, result, names),
        log=page,
        shown=entry_count(shown),
        total=entry_count(turns),
        turns_shown=_turns_shown(page, result.turns) if len(page) < len(shown) else "",
        earlier=None if earlier is None else chosen.query(turn=str(earlier)),
        later=None if later is None else chosen.query(turn=str(later)),
        veiled=veiled_count(shown),
        downloaded=len(events) - len(download_hidden),
        filter=chosen,
        unit_choices=[
            (side.name, [(u.id, names.units[u.id]) for u in side.units]) for side in scenario.sides
        ],
        kind_choices=list(EVENT_KINDS.items()),
        viewer_choices=_viewer_choices(scenario, chosen) if viewer_choice else [],
        luck=[],
        table=table_view(scenario, names=names),
        frames={},
        why_left_out=why_left_out if units_left_out else "",
        removed_words=f"{names.left[Removal.DESTROYED]} or {names.left[Removal.DEMORALISED]}",
    )
    if not (log_only or outcome_only):
        hidden_sides = {u.side for u in scenario.units() if u.id in units_left_out}
        report.luck = [
            row
            for row in luck_rows(luck_table(scenario, events))
            if row.luck.side not in hidden_sides
        ]
        report.luck_left_out = [s.name for s in scenario.sides if s.id in hidden_sides]
        report.frames = replay_frames(
            scenario,
            events,
            viewer=chosen.viewer,
            hidden=hidden,
            names=names,
            turns=(page[0].number, page[-1].number) if page and len(page) < len(shown) else None,
        )
        # The drawn table shows deployment as the replay's first frame does, fog included.
        unseen = unseen_at_deployment(report.frames)
        report.table = table_view(scenario, unseen=unseen, names=names)
    return report


def log_page(turns: list[Turn], first: str = "") -> tuple[list[Turn], int | None, int | None]:
    """The page of ``turns`` from turn ``first`` (a number; the first turn when it is no turn
    of them): as many whole turns as hold `LOG_PAGE_EVENTS` events, one at least; and the first
    turns of the pages before and after it (None: there is none)."""
    numbers = [t.number for t in turns]
    start = numbers.index(int(first)) if first.isdigit() and int(first) in numbers else 0
    sizes = [entry_count([t]) for t in turns]
    end = _fill(sizes, range(start, len(turns)))
    earlier = _fill(sizes, range(start - 1, -1, -1))
    return (
        turns[start:end],
        numbers[earlier] if start > 0 else None,
        numbers[end] if end < len(turns) else None,
    )


def _fill(sizes: list[int], order: range) -> int:
    """Walking ``order``, the index just past the last turn that still fits on a page with those
    before it (the first always does): where the page ends going forward, starts going back."""
    held, last = 0, order.start
    for i in order:
        if i != order.start and held + sizes[i] > LOG_PAGE_EVENTS:
            return i if order.step > 0 else i + 1
        held += sizes[i]
        last = i
    return last + 1 if order.step > 0 else last


def _turns_shown(page: list[Turn], played: int) -> str:
    """ "Turns 12 to 40 of 630", "The deployment and turns 1 to 9 of 630", "Turn 7 of 630"."""
    first, last = page[0], page[-1]
    if first is last:
        return f"{first.title} of {played}" if first.number else "The deployment"
    if not first.number:
        return f"The deployment and turns 1 to {last.number} of {played}"
    return f"Turns {first.number} to {last.number} of {played}"


def _sides(scenario: Scenario, result: BattleResult, names: Names) -> list[SideRow]:
    by_id = {o.id: o for o in scenario.objectives}
    rows = []
    for i, s in enumerate(scenario.sides):
        held = result.side(s.id).objectives_held
        rows.append(
            SideRow(
                s.id,
                s.name,
                i,
                result.side(s.id).score,
                tuple(
                    _objective_won(by_id[o], names) if o in by_id else capfirst(names.objective(o))
                    for o in held
                ),
                result.winner == s.id,
            )
        )
    return rows


def _objective_won(objective: Objective, names: Names) -> str:
    """An objective a side held at the end, as the score table lists it: by its name as the
    objectives' lines under the table give it ("Crossroads", not the id "crossroads")."""
    name = capfirst(names.objective(objective.id))
    return f"{name} (razed)" if objective.kind is ObjectiveKind.RAZE else name


def renamed_sides(scenario: Scenario, side_names: Mapping[str, str]) -> Scenario:
    """The scenario with its sides called by ``side_names`` (the rest keep their names): the
    luck table, the map's key and the replay all read a side's name from the scenario."""
    sides = tuple(replace(s, name=side_names.get(s.id) or s.name) for s in scenario.sides)
    # Not `replace(scenario, ...)`: that builds the scenario's tables again (`Scenario.tables`),
    # the costliest part of a big battle's page. They number its cards, and say what the cards
    # may do to each other, whatever the sides are called: the renamed scenario shares them.
    renamed = copy.copy(scenario)
    object.__setattr__(renamed, "sides", sides)
    return renamed


def _end_reason_text(scenario: Scenario, result: BattleResult, names: Names) -> str:
    """Why the battle ended, naming the side wiped out ("Red Company was wiped out"): a draw
    or a win by points after it would leave the reader to guess whose side it was."""
    reason = EndReason(result.end_reason)
    removed = {u.unit for u in result.units if u.removed}
    gone = [
        names.sides[side.id]
        for side in scenario.sides
        if side.units and all(u.id in removed for u in side.units)
    ]
    if reason != EndReason.SIDE_ELIMINATED or not gone:
        return END_REASON_TEXT[reason]
    return f"{' and '.join(gone)} {'was' if len(gone) == 1 else 'were'} wiped out"


def _units(scenario: Scenario, result: BattleResult, names: Names) -> list[UnitRow]:
    by_id = {u.unit: u for u in result.units}
    index = {s.id: i for i, s in enumerate(scenario.sides)}
    rows = []
    for u in scenario.units():
        r = by_id[u.id]
        rows.append(
            UnitRow(
                u.id,
                names.units[u.id],
                names.sides[u.side],
                index[u.side],
                u.card.hits,
                r.hits_lost,
                u.card.skill,
                r.skill_lost,
                r.removed,
                r.shots,
                r.damage_dealt,
                u.card.name,
                names.left[Removal(r.removed)],
            )
        )
    return rows


def _buildings(scenario: Scenario, result: BattleResult, names: Names) -> list[dict[str, Any]]:
    by_id = {b.building: b for b in result.buildings}
    return [
        {
            "id": b.id,
            "name": names.buildings[b.id],
            "card": b.card.name,
            "hits": b.card.hits,
            "hits_lost": by_id[b.id].hits_lost,
            "hits_lost_of": lost_of(by_id[b.id].hits_lost, b.card.hits),
            "collapsed": by_id[b.id].collapsed,
        }
        for b in scenario.buildings
        if b.id in by_id
    ]


def _objectives(scenario: Scenario, result: BattleResult, names: Names) -> list[str]:
    """One sentence per objective: what it asks of whom, and how it stood at the end. The
    objective's own name leads, as a campaign may name it by a deed ("take the factory")."""
    held = {o: s.side for s in result.sides for o in s.objectives_held}
    collapsed = {b.building for b in result.buildings if b.collapsed}
    lines = []
    for o in scenario.objectives:
        name = names.objective(o.id)
        for_sides = " and ".join(names.sides[s] for s in o.sides)
        if o.kind is ObjectiveKind.RAZE:
            razed = o.building in collapsed or o.id in held
            at_end = "razed" if razed else "still standing at the end"
            lines.append(f"{capfirst(name)} ({for_sides} to raze): {at_end}.")
        else:
            at_end = f"held by {names.sides[held[o.id]]}" if o.id in held else "held by nobody"
            lines.append(f"{capfirst(name)} ({for_sides} to hold): {at_end} at the end.")
    return lines


def _viewer_choices(scenario: Scenario, chosen: LogFilter) -> list[tuple[str, str, str, bool]]:
    choices = [("", "Everything", chosen.query(**{"as": ""}), chosen.viewer is None)]
    for s in scenario.sides:
        choices.append(
            (s.id, f"As {s.name} saw it", chosen.query(**{"as": s.id}), chosen.viewer == s.id)
        )
    return choices
