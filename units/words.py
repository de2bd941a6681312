"""How the library's sentences repeat what someone gave: a name in curly quotes, a value from a
card file as the file wrote it. Plain Python, read by the campaign's pages too."""

from __future__ import annotations

import json
from typing import Any


def quoted(name: str) -> str:
    """A name a sentence repeats as someone gave it, marked off from the words around it in
    curly quotes whatever it holds: “1st Squad”, “Holt's Raiders” (never ``repr``, which
    quotes the one in single quotes and the other in double)."""
    return f"“{name}”"


def given(value: Any) -> str:
    """What someone gave where a refusal repeats it: text in curly quotes (`quoted`), a
    character that cannot be printed (a tab, a line break) as "�"; anything else as a card
    file writes it ("true", "nothing", "[1, 2]"), never as Python writes it ("True", "None")."""
    if isinstance(value, str):
        return quoted("".join(c if c.isprintable() else "\ufffd" for c in value))
    if value is None:
        return "nothing"
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return quoted(str(value))
