"""A library card file: the Team Bravo card text, plus the campaign's own `Specialty:` line.

The line names the BUCS specialty a unit must hold to fight at its quality on the card; it is
not part of the card (the engine never sees it), so readers split it off before parsing the
card text. Plain Python, no Django: the battles app's library reader uses it too.
"""

from __future__ import annotations

import re

from units.bucs import Specialty

_SPECIALTY_LINE = re.compile(r"^\s*specialty\s*:\s*(.*?)\s*$", re.IGNORECASE)


def specialty_named(name: str) -> Specialty | None:
    """The specialty a card file names, by its label or stable name, any case."""
    key = "_".join(name.lower().replace("-", " ").split())
    return next((s for s in Specialty if key in (s.value, s.label.lower().replace(" ", "_"))), None)


def split_specialty_line(text: str) -> tuple[str, tuple[int, str] | None]:
    """(card text, (line number, name) or None): the `Specialty:` line blanked out of the text,
    so the card's line numbers hold."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = _SPECIALTY_LINE.match(line)
        if match:
            lines[index] = ""
            return "\n".join(lines), (index + 1, match.group(1))
    return text, None
