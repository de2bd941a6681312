"""The one seeded dice helper of the campaign: every die of an engagement, a check, a quick
resolve or a battle's outcome coming out through the bridge, from one seed.

The pure rules take their dice as functions (`d20()`, `d6()`), so a test can script them; the
services build both from one seed here, so the same seed and the same set-up give the same
result die for die. Like the engine's `Dice`, a face is drawn from ``random()``, the one
generator method whose output Python guarantees across versions. Plain Python: no Django.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SEED_FACES = 2**31
"""The seeds `Dice.next_seed` draws: 0 .. 2**31 - 1, a seed every roller takes."""


@dataclass
class Dice:
    """d20 and d6 from one seed, each result kept in the order it was rolled."""

    seed: int | str
    """A whole number, or a string (a battle's outcome seeds its dice from its inputs)."""
    rolled: list[tuple[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def d20(self) -> int:
        return self._roll("d20", 20)

    def d6(self) -> int:
        return self._roll("d6", 6)

    def next_seed(self) -> int:
        """A seed for another seeded thing (an engine battle, an outcome's dice), drawn from
        this one like a die, so a run of many seeded things comes from one seed."""
        seed = int(self._rng.random() * SEED_FACES)
        self.rolled.append(("seed", seed))
        return seed

    def _roll(self, name: str, sides: int) -> int:
        result = int(self._rng.random() * sides) + 1
        self.rolled.append((name, result))
        return result
