"""Helpers for the tests of the pages that show a window of a long history: many entries
written at once, the rows a request reads, and the links a page leads on by."""

from __future__ import annotations

import re
from contextlib import contextmanager

from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.constants import CURSOR, MULTI, NO_RESULTS

from campaign.models import HistoryEntry, Unit


def add_notes(unit: Unit, days: list[int], prefix: str = "Note") -> None:
    """A GM's note (a GM edit that changes nothing) on ``unit`` for each of ``days``, in
    order, each named "<prefix> <n>" (n from 0): a line on its page and on the timeline."""
    HistoryEntry.objects.bulk_create(
        HistoryEntry(unit=unit, day=day, kind=HistoryEntry.Kind.GM_EDIT,
                     text=f"{prefix} {n}", before={}, after={})
        for n, day in enumerate(days)
    )  # fmt: skip


@contextmanager
def rows_read():
    """Counts the rows the database hands back to Python, whatever the query."""
    seen = [0]
    original = SQLCompiler.execute_sql

    def counting(self, result_type=MULTI, *args, **kwargs):
        result = original(self, result_type, *args, **kwargs)
        if result_type == MULTI and result is not None:
            chunks = [list(chunk) for chunk in result]
            seen[0] += sum(len(chunk) for chunk in chunks)
            return iter(chunks)
        if result is not None and result_type not in (CURSOR, NO_RESULTS):
            seen[0] += 1
        return result

    SQLCompiler.execute_sql = counting
    try:
        yield seen
    finally:
        SQLCompiler.execute_sql = original


def link(page: str, words: str) -> str | None:
    """The address of the page's link of ``words``, if it has one."""
    found = re.search(rf'<a href="([^"]+)">{re.escape(words)}</a>', page)
    return found.group(1).replace("&amp;", "&") if found else None
