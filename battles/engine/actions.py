"""What a commander may ask for: one activation of one unit, as a short list of steps.

An activation is a move or an attack, not both. Move and Fire allows move-then-attack or
attack-then-move; Split Movement allows move, attack, move (total movement within Move).
A Sensor reveal takes the place of an attack. A turn in place (a move with no waypoints and a
new facing) is movement: for a Fixed Mount it costs the activation like any move.
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Point


@dataclass(frozen=True, slots=True)
class MoveStep:
    """Move along waypoints (the unit's own position is the implied start)."""

    to: tuple[Point, ...]
    """Waypoints in order; empty for a turn in place."""
    facing: float | None = None
    """Facing at the end (degrees CCW from +x); ``None``: the direction of travel."""


@dataclass(frozen=True, slots=True)
class AttackStep:
    """Attack a unit or building with a weapon, or ``CLOSE_COMBAT``."""

    target: str
    """Target unit or building id."""
    weapon: str
    """Weapon name from the card, or ``targeting.CLOSE_COMBAT``."""


@dataclass(frozen=True, slots=True)
class RevealStep:
    """Sensor: instead of firing, reveal one concealed enemy within 6"."""

    target: str
    """Concealed enemy unit id."""


Step = MoveStep | AttackStep | RevealStep


@dataclass(frozen=True, slots=True)
class Activate:
    """Activate one unit with these steps (no steps: the unit passes)."""

    unit: str
    """Unit id."""
    steps: tuple[Step, ...] = ()
    """What it does, in order."""
