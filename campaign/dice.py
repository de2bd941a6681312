"""The one seeded dice helper of the table rules: every die of an engagement or check from one seed.

The pure rules take their dice as functions (`d20()`, `d6()`), so a test can script them; the
services build both from one seed here, so the same seed and the same set-up give the same
engagement die for die. Plain Python: no Django.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Dice:
    """d20 and d6 from one seed, each result kept in the order it was rolled."""

    seed: int
    rolled: list[tuple[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def d20(self) -> int:
        return self._roll("d20", 20)

    def d6(self) -> int:
        return self._roll("d6", 6)

    def _roll(self, name: str, sides: int) -> int:
        result = self._rng.randint(1, sides)
        self.rolled.append((name, result))
        return result
