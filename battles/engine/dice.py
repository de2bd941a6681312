"""Dice: one source of d6 per battle, and every die recorded as a ``Roll`` event.

The engine never calls a global random generator. A battle owns one ``Dice``, built on
``random.Random(seed)`` or, in tests, on a fixed list of faces that fails loudly when it runs
out. All faces come from ``_draw``; every public method records each die it draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from .errors import DiceExhaustedError
from .events import Event, Roll, RollOutcome, RollPurpose

_SUCCESS, _FAILURE = RollOutcome.SUCCESS, RollOutcome.FAILURE
_WIN, _LOSE, _TIE = RollOutcome.WIN, RollOutcome.LOSE, RollOutcome.TIE


class Dice:
    """The battle's dice. ``emit`` receives each ``Roll``; the battle binds it to its log."""

    def __init__(self, source: Callable[[], int], seed: int | None = None) -> None:
        self._source = source
        self.seed = seed
        """The seed, when the dice are seeded (written into the log header)."""
        self.emit: Callable[[Event], None] = discard
        """Where rolls go; ``Battle`` points this at its log."""
        self.count = 0
        """Dice drawn so far."""

    @classmethod
    def seeded(cls, seed: int) -> Dice:
        """Dice from ``random.Random(seed)``: the same seed gives the same faces, always."""
        rng = random.Random(seed)
        r = rng.random
        # random() is the one generator method whose output Python guarantees across versions.
        return cls(lambda: int(r() * 6) + 1, seed)

    @classmethod
    def fixed(cls, faces: Iterable[int]) -> FixedDice:
        """Dice that roll exactly ``faces`` in order (for rule tests)."""
        return FixedDice(faces)

    def _draw(self) -> int:
        self.count += 1
        return self._source()

    def check(self, who: str, purpose: RollPurpose, skill: int) -> bool:
        """A Skill roll: 1d6 equal to or under ``skill`` succeeds."""
        v = self._draw()
        ok = v <= skill
        self.emit(Roll(who, purpose, v, 0, skill, _SUCCESS if ok else _FAILURE))
        return ok

    def opposed(self, attacker: str, defender: str, power: int, resistance: int) -> bool:
        """1d6 + Power against 1d6 + Resistance; True when the attacker is strictly higher."""
        a = self._draw()
        d = self._draw()
        at, dt = a + power, d + resistance
        won = at > dt  # Armour wins ties.
        self.emit(Roll(attacker, RollPurpose.PENETRATION, a, power, dt, _WIN if won else _LOSE))
        self.emit(Roll(defender, RollPurpose.ARMOUR, d, resistance, at, _LOSE if won else _WIN))
        return won

    def initiative(self, first: str, second: str) -> str:
        """Both sides roll 1d6, rerolling ties; returns the side that rolled high."""
        purpose = RollPurpose.INITIATIVE
        while True:
            a = self._draw()
            b = self._draw()
            if a == b:
                self.emit(Roll(first, purpose, a, 0, b, _TIE))
                self.emit(Roll(second, purpose, b, 0, a, _TIE))
                continue
            self.emit(Roll(first, purpose, a, 0, b, _WIN if a > b else _LOSE))
            self.emit(Roll(second, purpose, b, 0, a, _WIN if b > a else _LOSE))
            return first if a > b else second


class FixedDice(Dice):
    """Dice that roll a given list of faces and raise ``DiceExhaustedError`` past its end."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        for f in self.faces:
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
                raise ValueError(f"a die face is 1..6, got {f!r}")
        self._next = 0
        super().__init__(self._take)

    def _take(self) -> int:
        if self._next >= len(self.faces):
            raise DiceExhaustedError(
                f"fixed dice ran out after {len(self.faces)} faces {self.faces}"
            )
        self._next += 1
        return self.faces[self._next - 1]

    @property
    def remaining(self) -> list[int]:
        """Faces not yet rolled."""
        return self.faces[self._next :]


def discard(event: Event) -> None:
    """Default sink for dice used outside a battle."""
