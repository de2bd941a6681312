"""Why a launch is refused: bad input, or work over a budget. Views put both on the form."""

from __future__ import annotations


class BattleInputError(ValueError):
    """A scenario or seed that cannot be launched; ``errors`` lists (path, reason)."""

    def __init__(self, errors: list[tuple[str, str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{path}: {reason}" for path, reason in errors))


class WorkRefused(BattleInputError):
    """A launch over a budget (``battles.budget``): ``retry_after`` is about how many seconds
    until it would fit (0: it never fits as it is)."""

    def __init__(self, reason: str, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__([("", reason)])
