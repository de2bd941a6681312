"""On a phone a wide table is laid out as a card per row, each value under its column's name,
which the stylesheet prints from the cell's ``data-label`` (``content: attr(data-label)``).

Where the table keeps its headings for a screen reader (hidden from the eye only, as the
report's and the lists' ``table.stack`` do), the reader has the column's name from them, and
the printed one was said again: "Played by, Played by NPC". The printed name is given no words
of its own there (``attr(data-label) / ""``), after the plain one a browser that cannot read
that keeps, so the name is always seen. Where the headings are not shown at all (the roster's,
the changes', a form's rows), the printed name is the only one a reader hears: it keeps its
words.
"""

from __future__ import annotations

import re

from tests.web.test_dark_mode import SHEETS, STATIC, _rules

LABEL = "attr(data-label)"
SILENT = 'attr(data-label) / ""'


def _contents(selector: str) -> list[str]:
    """Every ``content`` a selector declares, in order (a fallback, then what replaces it)."""
    found = []
    for sheet in SHEETS:
        text = re.sub(r"/\*.*?\*/", "", (STATIC / sheet).read_text(), flags=re.S)
        for head, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
            if selector in [" ".join(s.split()) for s in head.split(",")]:
                found += [v.strip() for v in re.findall(r"(?:^|;)\s*content\s*:([^;]*)", body)]
    return found


def _labelled_tables() -> dict[str, bool]:
    """Each table printing its columns' names before its cells → whether it keeps its
    headings for a screen reader (its ``thead`` not ``display: none``)."""
    rules = [(s, d) for sheet in SHEETS for _, s, d in _rules((STATIC / sheet).read_text())]
    tables = {s.removesuffix(" td::before") for s, d in rules
              if s.endswith(" td::before") and LABEL in d.get("content", "")}  # fmt: skip
    return {
        table: not any(s == f"{table} thead" and d.get("display") == "none" for s, d in rules)
        for table in tables
    }


def test_a_column_name_the_reader_has_from_the_heading_is_seen_not_said_again():
    tables = _labelled_tables()
    assert tables.get("table.stack") is True, tables
    for table, headings_kept in tables.items():
        said = _contents(f"{table} td::before")
        if headings_kept:
            assert said[-1] == SILENT, (table, said)
            assert LABEL in said, (table, "a browser without the '/' still shows the name")
        else:
            assert all("/" not in s for s in said), (table, "the only name a reader hears")
