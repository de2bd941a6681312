"""Named errors of the engine: a bad scenario, an illegal commander action, a die source run dry."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .events import Event


class ScenarioError(ValueError):
    """A scenario was refused. ``problems`` lists every (path, reason) found, in document order.

    The message shows each problem as ``path: reason``, e.g.
    ``sides[0].units[2].card.skill: must be 2..5, got 7``.
    """

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = list(problems)
        lines = [f"{path}: {reason}" if path else reason for path, reason in self.problems]
        super().__init__("invalid scenario:\n  " + "\n  ".join(lines))


class IllegalActionError(ValueError):
    """A commander asked for something the rules do not allow; the engine never guesses a fix.

    Raised out of ``run_battle``, it carries the battle's ``events`` up to the refusal.
    """

    events: tuple[Event, ...] = ()
    """The log of the battle it stopped, up to the refusal: an activation refused before it
    begins leaves no event; one refused at a later step leaves what it did before it."""


class DiceExhaustedError(RuntimeError):
    """A fixed die source was asked for more dice than a test gave it.

    Raised out of ``run_battle``, it carries the battle's ``events`` up to the die it lacked.
    """

    events: tuple[Event, ...] = ()
    """The log of the battle it stopped, up to the die it lacked: every die rolled is in it."""
