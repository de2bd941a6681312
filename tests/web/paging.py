"""Helpers for the tests of the pages that show a window of something long: many entries or
units written at once, the rows a request reads, and the links a page leads on by."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.constants import CURSOR, MULTI, NO_RESULTS

from campaign.models import HistoryEntry, Unit
from campaign.selectors import battle_setup
from campaign.services import force_create


@pytest.fixture
def paged(monkeypatch):
    """Pages of 5 units once more than 10 are ready: a big campaign at a small one's cost."""
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", 10)
    monkeypatch.setattr(battle_setup, "UNITS_A_PAGE", 5)


@pytest.fixture
def big(monkeypatch):
    """Units asked by name once more than 10 are ready."""
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", 10)


def fill_forces(world, count: int) -> None:
    """``count`` more ready units in each of the two forces, "Red 01", "Blue 01"..."""
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    Unit.objects.bulk_create(
        Unit(force=force, unit_type=card, name=f"{prefix} {n:02}", specialties=["infantry"])
        for force, prefix in ((world.force, "Red"), (world.enemy, "Blue"))
        for n in range(1, count + 1)
    )


def fill_companies(world, count: int) -> None:
    """``count`` more ready units in ten new companies of the player's, "Squad 1-01"...: none
    in the two forces the campaign's first battles left hits on for the medics."""
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    owner = world.users["player"]
    for n in range(1, 11):
        force = force_create(campaign=world.campaign, owner=owner, name=f"Company {n}")
        Unit.objects.bulk_create(
            Unit(force=force, unit_type=card, name=f"Squad {n}-{m:02}", specialties=["infantry"])
            for m in range(1, count // 10 + 1)
        )


def unit_named(name: str) -> Unit:
    return Unit.objects.get(name=name)


def side_rows(html: str) -> list[int]:
    """The units a form offers a side to, by pk, in the order it lists them."""
    return [int(pk) for pk in re.findall(r'name="side_(\d+)"', html)]


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
