"""Replay: rebuild every intermediate state from the initial state and the log, without dice.

Because ``BattleState.apply`` is the only way a state changes, applying the logged events in
order to a fresh initial state reaches exactly the states the battle went through.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .events import Event
from .scenario import Scenario
from .state import BattleState


def replay_states(
    scenario: Scenario, events: Iterable[Event]
) -> Iterator[tuple[Event, BattleState]]:
    """Yield (event, state after it) for each event. The same state object is updated in place;
    take ``state.snapshot()`` to keep one."""
    state = BattleState.initial(scenario)
    for e in events:
        state.apply(e)
        yield e, state


def replay(scenario: Scenario, events: Iterable[Event]) -> BattleState:
    """The final state after applying every event."""
    state = BattleState.initial(scenario)
    for e in events:
        state.apply(e)
    return state
