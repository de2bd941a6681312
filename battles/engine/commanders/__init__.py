"""Commander policies beyond the simple baseline: the strong default and what it weighs.

``DefaultCommander`` (``default.py``) plays a side the way the rule text says players correctly
play. ``board.py`` holds what the side knows, kept from one decision to the next, ``threat.py``
the threat a place is under, ``values.py`` what attacks and places are worth, ``attacks.py``
each unit's best legal attack (kept across a turn's decisions), ``moves.py`` the moves it
weighs, ``goals.py`` turns standing Orders into goals, and ``odds.py`` weighs the scenario's
odds (``tables.py``) against a target's state.
"""

from __future__ import annotations

from .default import DefaultCommander

__all__ = ["DefaultCommander"]
