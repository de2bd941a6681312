"""The command line, and the functions a Django management command wraps.

``python -m battles.engine SCENARIO --seed N`` prints a readable account of the battle, where
SCENARIO is a JSON file or the name of a bundled scenario (``factory-hold``, ``big-battle``, ...);
``--json`` prints ``{"log": ..., "result": ...}`` as canonical JSON. ``simulate`` returns the
same text, so a ``manage.py simulate`` command only has to print it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import ScenarioError
from .events import Event, roll_came_to
from .record import BattleRecord, canonical_json, log_from_dict, run_battle
from .result import BattleResult
from .scenarios import bundled_names, resolve


def simulate(scenario: str, seed: int, as_json: bool = False) -> str:
    """Run a scenario (file or bundled name) with the seed; the account (or JSON) as text.

    Raises ``ScenarioError`` for a bad file or an unknown name.
    """
    record = run_battle(resolve(scenario), seed)
    return format_json(record) if as_json else format_account(record.result, record.events)


def format_json(record: BattleRecord) -> str:
    """Log and result as canonical JSON."""
    return canonical_json(record.to_dict())


def format_account(result: BattleResult, log: Iterable[Event] | Mapping[str, Any]) -> str:
    """A readable account: each turn, each activation, every die, then the outcome."""
    events = log_from_dict(log) if isinstance(log, Mapping) else list(log)
    lines: list[str] = []
    rolls: list[Any] = []
    for e in events:
        kind = e.KIND
        if kind == "roll":
            rolls.append(e)
            continue
        # Dice the line does not tell (a collapse roll passed, say) each get a line of their
        # own, so that every die is shown: a damage line tells only its own unit's.
        told: list[Any] = []
        for r in rolls:
            if kind in _TELLS_DICE and (kind != "damage" or r.who == getattr(e, "unit", None)):
                told.append(r)
            else:
                lines.append(f"    {r.who} rolls {_die(r)}")
        rolls = told
        line = _describe(e, rolls)
        rolls = []
        if line:
            lines.append(line)
    lines.append("")
    lines.extend(format_result(result))
    return "\n".join(lines) + "\n"


_TELLS_DICE = frozenset({"initiative", "move", "attack", "damage"})
"""Events whose line tells the dice rolled just before them."""


def _die(r: Any) -> str:
    """A die, what it came to in the words a battle's story uses (`roll_came_to`)."""
    came_to = roll_came_to(r.purpose, r.outcome)
    if r.purpose in ("penetration", "armour"):
        total = f"{r.value}+{r.modifier}={r.value + r.modifier}"
        return f"{r.purpose} {total} vs {r.against}, {came_to}"
    return f"{r.purpose.replace('_', ' ')} {r.value} vs {r.against} ({came_to})"


def _initiative_faces(rolls: list[Any]) -> str:
    """Each side's initiative die, throw by throw, a tie said as such: "infantry 3, armour 3:
    a tie, rolled again; infantry 2, armour 4"."""
    throws = [rolls[i : i + 2] for i in range(0, len(rolls), 2)]
    said = []
    for pair in throws:
        faces = ", ".join(f"{r.who} {r.value}" for r in pair)
        if pair[0].outcome == "tie":
            faces += f": {roll_came_to('initiative', 'tie')}"
        said.append(faces)
    return "; ".join(said)


def _describe(e: Any, rolls: list[Any]) -> str:
    dice = "; ".join(_die(r) for r in rolls)
    k = e.KIND
    if k == "battle_start":
        seed = "given dice" if e.seed is None else f"seed {e.seed}"
        return f"{e.scenario} — {e.ruleset}, {seed}, engine {e.engine_version}"
    if k == "turn_start":
        return f"\nTurn {e.turn}"
    if k == "initiative":
        return f"  Initiative: {e.first} goes first ({_initiative_faces(rolls)})"
    if k == "activation":
        return f"  {e.unit} activates"
    if k == "move":
        end = e.path[-1]
        how = " — failed terrain roll, stops at the edge" if e.halted else ""
        pre = f" [{dice}]" if dice else ""
        return f'    moves {e.cost:g}" to ({end[0]:g}, {end[1]:g}){pre}{how}'
    if k == "attack":
        verb = "rams back" if e.attack == "ram_back" else f"attacks {e.target} with {e.weapon}"
        who = f"{e.attacker} " if e.attack == "ram_back" else ""
        return (
            f'    {who}{verb} (Power {e.power}, {e.distance:g}"): {dice} → '
            f"{e.outcome.replace('_', ' ')}"
        )
    if k == "damage":
        pre = f" [{dice}]" if dice else ""
        return f"    {e.unit} takes 1 damage, {e.hits} Hits left{pre}"
    if k == "suppress":
        return f"    {e.unit} is suppressed, Skill {e.skill}"
    if k == "remove":
        return f"    {e.unit} is {e.how} and removed"
    if k == "collapse":
        inside = f", {', '.join(e.occupants)} inside" if e.occupants else ""
        return f"    {e.building} collapses into rubble{inside}"
    if k == "reveal":
        return f"    {e.unit} is revealed ({e.cause})"
    if k == "conceal":
        return f"    {e.unit} is concealed"
    if k == "score":
        return f"    {e.side} scores {e.points} ({e.reason}), total {e.total}"
    if k == "end":
        return f"\nBattle ends ({e.reason.replace('_', ' ')}) in turn {e.turn}"
    return ""


def format_result(result: BattleResult) -> list[str]:
    """The outcome as lines: winner, sides, units."""
    lines = [f"Winner: {result.winner or 'draw'}"]
    for s in result.sides:
        held = ", ".join(s.objectives_held) or "none"
        lines.append(f"  {s.name} ({s.side}): {s.score} points; objectives held: {held}")
    lines.append("Units:")
    for u in result.units:
        lines.append(
            f"  {u.unit:<16} {u.side:<8} {u.name:<20} hits lost {u.hits_lost}, skill lost "
            f"{u.skill_lost}, {u.removed}, shots {u.shots}, damage {u.damage_dealt}"
        )
    for b in result.buildings:
        lines.append(
            f"  {b.building:<16} building hits lost {b.hits_lost}, collapsed {b.collapsed}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m battles.engine",
        description="Fight one Team Bravo battle and print its account: each turn, each "
        "activation and every die, then the outcome. The same scenario and seed fight the "
        "same battle again.",
        epilog="For example: python -m battles.engine factory-hold --seed 1",
    )
    parser.add_argument(
        "scenario",
        help=f"scenario JSON file, or a bundled name: {', '.join(bundled_names())}",
    )
    parser.add_argument("--seed", type=int, required=True, help="dice seed")
    parser.add_argument("--json", action="store_true", help="print the log and result as JSON")
    args = parser.parse_args(argv)
    try:
        out = simulate(args.scenario, args.seed, args.json)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        sys.stdout.write(out if not args.json else out + "\n")
        sys.stdout.flush()
    except OSError as exc:  # a full disk, a closed pipe: say so rather than a traceback
        print(f"cannot write the account: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
