"""The battle told in words: one sentence for each event of the engine's log, one line per die.

The report's log, the replay's captions and anything else that tells a battle read it here. It
speaks as a reader would: pieces by their names (``battles.names``), places in words ("moves
4″ into North wood B"), distances to a tenth of an inch; a unit's side only where its name does
not already say which unit it is. Every die stays in the log, attached to its event by
``battles.report``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from battles.engine import Event
from battles.engine import events as ev
from battles.engine.cards import Keyword
from battles.engine.geometry import distance, nearest_point
from battles.fog import SeedWithheld
from battles.names import Names
from units.words import and_words, capfirst


def inches(x: float) -> str:
    """A distance for reading: "6″", "3.2″"."""
    return f"{x:.1f}".rstrip("0").rstrip(".") + "″"


def describe(
    e: Event,
    names: Names,
    *,
    at_end: bool = False,
    in_sight: bool = False,
    unseen: Collection[str] = (),
) -> str:
    """One sentence for one (non-roll) event; ``at_end``: a score the battle's end gave
    (`end_scores`); ``in_sight``: a reveal of a unit the enemy already saw (`in_sight_reveals`);
    ``unseen``: the occupants of a collapsing building the reader's side could not see
    (`unseen_occupants`)."""
    if at_end and isinstance(e, ev.Score):
        why = _score_reason(e.reason, names)
        return f"{names.side(e.side)} scores {e.points} at the end for {why}: {e.total} in all."
    if in_sight and isinstance(e, ev.Reveal):
        return _still_in_sight(e, names)
    if isinstance(e, ev.Collapse):
        return capfirst(_collapse_text(e, names, unseen))
    return capfirst(_sentence(e, names))


def unseen_occupants(
    events: Sequence[Event], index: int, hidden: Collection[int]
) -> frozenset[str]:
    """The occupants of the building collapsing at ``index`` that the reader's side could not
    see: each rolls for the collapse after it, and the die of a unit out of sight is ``hidden``
    (`fog.hidden_events`). Named, they told where a unit that had gone in unseen stood."""
    e = events[index]
    if not isinstance(e, ev.Collapse) or not hidden:
        return frozenset()
    rolls: dict[str, int] = {}
    for i in range(index + 1, len(events)):
        r = events[i]
        if isinstance(r, ev.Roll) and r.purpose == ev.RollPurpose.COLLAPSE:
            rolls.setdefault(r.who, i)
        if len(rolls) == len(e.occupants):
            break
    return frozenset(u for u in e.occupants if rolls.get(u) in hidden)


def _collapse_text(e: ev.Collapse, names: Names, unseen: Collection[str]) -> str:
    inside = [names.get(u) for u in e.occupants if u not in unseen]
    out_of_sight = len(e.occupants) - len(inside)
    if out_of_sight:
        inside.append(
            "a unit out of sight" if out_of_sight == 1 else f"{out_of_sight} units out of sight"
        )
    building = names.get(e.building)
    if not inside:
        return f"{building} collapses into rubble."
    return f"{building} collapses into rubble on {and_words(inside)}."


def in_sight_reveals(events: Sequence[Event]) -> frozenset[int]:
    """Indexes of the reveals of a unit the enemy already saw. The engine logs one whenever
    firing (or a sensor) sets how long a unit stays seen, and one when that time runs out with the
    unit still in the open, so a unit firing turn after turn in plain view read "gives itself
    away by firing" before every shot, and "is spotted" where nobody had lost sight of it. Read
    from the whole log, as `idle_activations` is: concealment is the enemy's sight, whoever
    reads."""
    concealed: set[str] = set()
    seen: set[int] = set()
    for i, e in enumerate(events):
        if isinstance(e, ev.Conceal):
            concealed.add(e.unit)
        elif isinstance(e, ev.Reveal):
            if e.unit not in concealed:
                seen.add(i)
            concealed.discard(e.unit)
    return frozenset(seen)


def _still_in_sight(e: ev.Reveal, names: Names) -> str:
    unit = names.get(e.unit)
    if e.cause == ev.RevealCause.FIRED:
        return f"Firing keeps {unit} in the enemy's sight through its next activation."
    if e.cause == ev.RevealCause.SENSOR:
        return f"A sensor keeps {unit} in the enemy's sight through its next activation."
    return f"{capfirst(unit)} is still in the enemy's sight."


def end_scores(events: Sequence[Event], names: Names) -> frozenset[int]:
    """Indexes of the points objectives gave at the battle's end (their points at end). The
    engine logs them just as the last turn's points per turn, right after them, so the story
    read "scores 1 for holding Ford", then "scores 3 for holding Ford": in the run of scores
    that closes the log, the last award of each objective with points at end to each side is
    the end's. Read from the whole log, as `idle_activations` is."""
    at_end = {f"objective:{o.id}" for o in names.scenario.objectives if o.points_at_end}
    found: dict[tuple[str, str], int] = {}
    if not events or not isinstance(events[-1], ev.End):
        return frozenset()  # a battle still being fought has had no end to score
    i = len(events) - 2
    while i >= 0 and isinstance(events[i], ev.Score):
        score = events[i]
        if score.reason in at_end:
            found.setdefault((score.side, score.reason), i)
        i -= 1
    return frozenset(found.values())


def idle_activations(events: Sequence[Event]) -> frozenset[int]:
    """Indexes of the activations in which the unit neither moved nor attacked: the log's
    bare "Atlas acts." and a replay frame with nothing under it left the reader asking what
    it did. Read from the whole log, so fog of war never turns a hidden move into a halt."""
    idle: set[int] = set()
    current: tuple[int, str] | None = None
    for i, e in enumerate(events):
        if isinstance(e, ev.Activation | ev.TurnStart | ev.End):
            if current is not None:
                idle.add(current[0])
            current = (i, e.unit) if isinstance(e, ev.Activation) else None
        elif isinstance(e, ev.Move | ev.Attack) and current is not None:
            actor = e.unit if isinstance(e, ev.Move) else e.attacker
            current = None if actor == current[1] else current
    if current is not None:
        idle.add(current[0])
    return frozenset(idle)


def turn_summaries(events: Sequence[Event], names: Names) -> dict[int, str]:
    """One line closing each turn: the score after it and the units it took out of the battle
    ("After turn 4: Red Company 4, Blue Battalion 0. Left the battle: Hammer (taken out)."), so a
    long battle read a turn at a time says where it stands without adding up its scores. Only
    what every reader sees: scores and removals are never hidden by fog of war."""
    totals = {s.id: 0 for s in names.scenario.sides}
    summaries: dict[int, str] = {}
    turn, gone = 0, []

    def close() -> None:
        if turn:
            score = ", ".join(f"{names.side(side)} {points}" for side, points in totals.items())
            left = f" Left the battle: {', '.join(gone)}." if gone else ""
            summaries[turn] = f"After turn {turn}: {score}.{left}"

    for e in events:
        if isinstance(e, ev.TurnStart):
            close()
            turn, gone = e.turn, []
        elif isinstance(e, ev.Score):
            totals[e.side] = e.total
        elif isinstance(e, ev.Remove):
            gone.append(f"{names.get(e.unit)} ({names.left[ev.Removal(e.how)]})")
    close()
    return summaries


def describe_idle(e: ev.Activation, names: Names, why: str = "") -> str:
    """An activation in which the unit neither moved nor fired (`idle_activations`), and
    ``why`` it had nothing to fire at, where the log and the cards say (`idle_reasons`)."""
    return f"{names.get(e.unit)} acts: it stays where it is and does not fire.{why}"


NOTHING_TO_FIRE_AT = (
    " Every enemy left is Aerial, and only weapons marked AA can attack an Aerial unit: it has"
    " none."
)
"""Why a unit with no weapon marked AA holds its fire where every enemy left is Aerial, under
rules where only such weapons may attack one (`Ruleset.aerial_only_aa`)."""


def idle_reasons(
    events: Sequence[Event], names: Names, hidden: Collection[int] = ()
) -> dict[int, str]:
    """Why the unit of an idle activation (`idle_activations`) did not fire, by the
    activation's index, where the log and the cards say it: under rules where only weapons
    marked AA may attack an Aerial unit, a unit with none whose every enemy still in the battle
    is Aerial has nothing it may attack (`NOTHING_TO_FIRE_AT`). Said once for each unit, at the
    first such activation the reader sees (``hidden`` ones are not), not again each turn it
    holds its fire. The engine's own reasons are not in the log, so nothing else is said (why
    it did not move, say), and nothing read from a card the reader may not see
    (`Names.cards_unseen`)."""
    if not names.scenario.ruleset.aerial_only_aa:
        return {}
    cards = {u.id: u.card for u in names.scenario.units()}
    idle = idle_activations(events)
    gone: set[str] = set()
    told: dict[int, str] = {}
    said: set[str] = set()
    for i, e in enumerate(events):
        if isinstance(e, ev.Remove):
            gone.add(e.unit)
        if i not in idle or i in hidden or e.unit in said:
            continue
        side = names.side_of.get(e.unit)
        enemies = [u for u, s in names.side_of.items() if s != side and u not in gone]
        card = cards.get(e.unit)
        if (
            card is not None
            and enemies
            and not any(w.aa for w in card.weapons)
            and all(Keyword.AERIAL in cards[u].keywords for u in enemies)
            and not names.cards_unseen & {e.unit, *enemies}
        ):
            told[i] = NOTHING_TO_FIRE_AT
            said.add(e.unit)
    return told


def _sentence(e: Event, names: Names) -> str:
    name = names.get
    if isinstance(e, ev.BattleStart):
        seed = "given dice" if e.seed is None else f"seed {e.seed}"
        if isinstance(e, SeedWithheld):
            seed = "its seed not shown"
        ruleset = e.ruleset.replace("_", " ").title()
        # The engine's version is for whoever checks the log (its download line says it), not
        # for the story's reader.
        if names.title and names.title != e.scenario:
            return f"{names.title} begins on {e.scenario} ({ruleset} rules, {seed})."
        return f"{e.scenario} begins ({ruleset} rules, {seed})."
    if isinstance(e, ev.TurnStart):
        return f"Turn {e.turn} begins."
    if isinstance(e, ev.Initiative):
        return f"{names.side(e.first)} wins the initiative and acts first."
    if isinstance(e, ev.Activation):
        return f"{name(e.unit)} acts."
    if isinstance(e, ev.Move):
        return _move_text(e, names)
    if isinstance(e, ev.Attack):
        return _attack_text(e, names)
    if isinstance(e, ev.Damage):
        cause = f" from {name(e.by)}" if e.by else " (a failed Breaching or collapse roll)"
        left = f"{e.hits or 'no'} Hit{'' if e.hits == 1 else 's'} left"
        return f"{name(e.unit)} takes 1 damage{cause}: {left}."
    if isinstance(e, ev.Suppress):
        return f"{name(e.unit)} is suppressed by {name(e.by)}, down to Skill {e.skill}."
    if isinstance(e, ev.Remove):
        how = names.left[ev.Removal(e.how)]
        withdraws = "" if e.how == ev.Removal.DESTROYED else " and withdraws"
        return f"{name(e.unit)} is {how}{withdraws}."
    if isinstance(e, ev.Reveal):
        cause = {
            ev.RevealCause.FIRED: (
                "gives itself away by firing: the enemy sees it through its next activation"
            ),
            ev.RevealCause.SENSOR: (
                "is picked up by a sensor: the enemy sees it through its next activation"
            ),
            ev.RevealCause.SPOTTED: "is spotted",
        }.get(ev.RevealCause(e.cause), e.cause)
        return f"{name(e.unit)} {cause}."
    if isinstance(e, ev.Conceal):
        return f"{name(e.unit)} is out of sight."
    if isinstance(e, ev.Score):
        why = _score_reason(e.reason, names)
        return f"{names.side(e.side)} scores {e.points} for {why}: {e.total} in all."
    if isinstance(e, ev.End):
        result = f"{names.side(e.winner)} wins" if e.winner else "a draw"
        why = "at the turn limit" if e.reason == ev.EndReason.TURN_LIMIT else "— a side is gone"
        return f"The battle ends in turn {e.turn} {why}: {result}."
    return e.KIND


def _move_text(e: ev.Move, names: Names) -> str:
    unit, end = names.get(e.unit), e.path[-1]
    if not e.halted and len(e.path) == 1:
        # A turn in place: a move with no waypoints and a new facing (a Fixed Mount's way to
        # bring its weapons round) read "moves 0″".
        where = names.where(end)
        for into, at in (("into ", "in "), ("onto ", "on ")):
            where = at + where.removeprefix(into) if where.startswith(into) else where
        return f"{unit} turns where it stands" + (f", {where}." if where else ".")
    if not e.halted:
        where = names.where(end)
        return f"{unit} moves {inches(e.cost)}" + (f" {where}." if where else ".")
    edge = _halted_at(end, names)
    at = f"at the edge of {edge}" if edge else "at the edge"
    if e.cost == 0:
        return f"{unit} fails its terrain roll and stays where it is, {at}."
    return f"{unit} moves {inches(e.cost)} and is stopped {at} by a failed terrain roll."


def _halted_at(point: tuple[float, float], names: Names) -> str:
    """The hazard a unit halted at: only a failed terrain roll stops a move (a failed Breaching
    roll costs a Hit and the unit goes on into the building), so the nearest hazard, never the
    building whose wall it may stand against; "" if none is near."""
    pieces = [t for t in names.scenario.terrain if t.props.hazard]
    near = [(distance(nearest_point(t.polygon, point), point), t.id) for t in pieces]
    close = [row for row in near if row[0] <= 0.5]
    return names.piece(min(close)[1]) if close else ""


def _attack_text(e: ev.Attack, names: Names) -> str:
    attacker, target = names.get(e.attacker), names.get(e.target)
    if e.attack == ev.AttackKind.RAM:
        how = f"{attacker} rams {target} (Power = Size {e.power})"
    elif e.attack == ev.AttackKind.RAM_BACK:
        how = f"{attacker} strikes back at {target} (Power = Size {e.power})"
    elif e.attack == ev.AttackKind.MELEE:
        how = f"{attacker} attacks {target} in close combat (Power {e.power})"
    else:
        how = f"{attacker} fires {e.weapon} at {target} {_range_text(e.distance)} (Power {e.power})"
    outcome = {
        "miss": "a miss",
        "damage": "a hit that does damage",
        "no_damage": "a hit, no damage",
    }[e.outcome]
    resistance = _resistance(e.target, names)
    if e.outcome == ev.AttackOutcome.NO_DAMAGE and resistance is not None and e.power < resistance:
        # A hit that fails to damage suppresses only when Power is at least the target's
        # Resistance: without this, rifles hitting a tank again and again read as though the
        # suppression had been forgotten.
        outcome += f", too weak to suppress it (Resistance {resistance})"
    return f"{how}: {outcome}."


def _range_text(distance: float) -> str:
    """How far a shot went, as the story says it: "from 6″", or "at point-blank range" when
    the log's distance rounds to no inches at all (the shooter stands where its target does,
    or against the wall it fires at), which read "from 0″"."""
    said = inches(distance)
    return "at point-blank range" if said == inches(0) else f"from {said}"


def _resistance(unit: str, names: Names) -> int | None:
    """A unit's printed Resistance (None for a building, which is never suppressed, and for a
    unit whose card the reader may not see, `Names.cards_unseen`)."""
    if unit in names.cards_unseen:
        return None
    return next((u.card.resistance for u in names.scenario.units() if u.id == unit), None)


def _score_reason(reason: str, names: Names) -> str:
    what, _, key = reason.partition(":")
    if what == "removed":
        return f"removing {names.get(key)}"
    if what == "razed":
        return f"razing {names.get(key)}"
    if what == "objective":
        objective = next((o for o in names.scenario.objectives if o.id == key), None)
        return names.deed(objective) if objective else f"objective {names.objective(key)}"
    return reason


_PURPOSE = {
    "initiative": "initiative",
    "to_hit": "Skill roll to hit",
    "penetration": "penetration",
    "armour": "armour",
    "terrain": "terrain roll",
    "breaching": "Breaching roll",
    "collapse": "collapse roll",
}


def describe_roll(r: ev.Roll, names: Names) -> str:
    """One die: who rolled it, why, what it came to and against what."""
    # A unit's or a side's own name may start in lower case; the line opens with a capital.
    who = capfirst(names.side(r.who) if r.purpose == "initiative" else names.get(r.who))
    purpose = _PURPOSE.get(r.purpose, r.purpose)
    came_to = ev.roll_came_to(r.purpose, r.outcome)
    if r.purpose in ("penetration", "armour"):
        what = "Power" if r.purpose == "penetration" else "Resistance"
        total = f"{r.value} + {what} {r.modifier} = {r.value + r.modifier}"
        return f"{who}, {purpose}: {total} against {r.against} — {came_to}"
    if r.purpose == "initiative":
        return f"{who}, initiative: {r.value} against {r.against} — {came_to}"
    return f"{who}, {purpose}: {r.value} against Skill {r.against} — {came_to}"
