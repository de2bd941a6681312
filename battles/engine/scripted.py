"""ScriptedCommander: fixed decisions, for rule tests that fix the dice as well.

It plays the activations it is given for its side, in order, then passes. Whatever it plays,
the engine checks as it checks any commander's choice (``IllegalActionError``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .actions import Activate

if TYPE_CHECKING:
    from .commander import BattleView


class ScriptedCommander:
    """Plays ``activations`` in order, one each time its side activates; once they are played,
    it passes with its first ready unit (in scenario order), an ``Activate`` with no steps."""

    def __init__(self, activations: Iterable[object] = ()) -> None:
        script: list[Activate] = []
        for i, a in enumerate(activations):
            # Checked now, where the mistake is made, not when its turn comes in the battle.
            if not isinstance(a, Activate):
                raise TypeError(
                    f"a ScriptedCommander plays Activates, got {type(a).__name__} at [{i}]"
                )
            script.append(a)
        self._script = script
        self._played = 0

    @property
    def remaining(self) -> tuple[Activate, ...]:
        """The activations not played yet: a battle that ended first never asked for them."""
        return tuple(self._script[self._played :])

    def choose(self, view: BattleView) -> Activate:
        if self._played < len(self._script):
            self._played += 1
            return self._script[self._played - 1]
        return Activate(view.ready_units()[0].id)
