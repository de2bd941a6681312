"""Commander policies beyond the simple baseline: the strong default and what it weighs.

``DefaultCommander`` (``default.py``) plays a side the way the rule text says players correctly
play; ``picture.py`` holds its threat map and attack values, ``goals.py`` turns standing Orders
into goals, ``odds.py`` caches the exact chances of ``probability`` as floats.
"""

from __future__ import annotations

from .default import DefaultCommander

__all__ = ["DefaultCommander"]
