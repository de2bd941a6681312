"""The unit finder and the Characters page's search: what a page of each lists, and its links."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from campaign.models import Campaign, CampaignBattle, Force, Unit
from campaign.pages.destroyed import destroyed_where
from campaign.pages.names import name_order
from campaign.rules.history import taken_text
from campaign.rules.state import Status
from campaign.selectors.roster import CharacterLine, engaged_battles
from units.words import plural

FOUND_A_PAGE = 50
"""Units one page of a unit search lists, or characters one page of the Characters page."""
SEARCH_LONGEST = 100
"""The longest name a unit search looks for (a unit's name is at most 200 characters)."""


def page_query(asked: Mapping[str, object], number: int) -> str:
    """The address's query for page ``number`` of a search asked with ``asked``: what was left
    empty, and the first page's number, left out."""
    asked = {**asked, "page": number if number > 1 else ""}
    return "?" + urlencode({key: value for key, value in asked.items() if value})


class PageLinks:
    """The queries of the pages either side of a paged search's (`page_query`)."""

    number: int

    def query(self, number: int) -> str:
        raise NotImplementedError

    @property
    def previous_query(self) -> str:
        return self.query(self.number - 1)

    @property
    def next_query(self) -> str:
        return self.query(self.number + 1)


@dataclass(frozen=True)
class UnitSearch(PageLinks):
    """The units a member looks for across the campaign, among the forces they see in full:
    one page of those found, by force, then by name as a roster orders them."""

    forces: list[Force]
    """The forces searched: those the viewer sees in full, in name order."""
    unsearched: list[str]
    """The names of the others, which the viewer sees in summary only."""
    search: str
    force: Force | None
    """The one force looked in, or None for every force searched."""
    status: str
    """The status the units found show (`finder_statuses`), or "" for any."""
    found: list[Unit]
    number: int
    pages: int
    count: int

    @property
    def asked(self) -> bool:
        return bool(self.search or self.force or self.status)

    @property
    def shown(self) -> str:
        """What was found, in words: "3 units with “plat” in their name or their leader's, in
        Red Company, destroyed"; then the page, when there are several (". Page 2 of 3: units
        51 to 100")."""
        what = plural(self.count, "unit") if self.count else "No unit"
        if self.search:
            whose = "their" if self.count > 1 else "its"
            what += f" with “{self.search}” in {whose} name or {whose} leader’s"
        if self.force is not None:
            what += f", in {self.force.name}"
        if self.status:
            what += f", {dict(finder_statuses())[self.status].lower()}"
        if self.pages > 1:
            first = (self.number - 1) * FOUND_A_PAGE + 1
            what += f". Page {self.number} of {self.pages}: units {first} to "
            what += f"{first + len(self.found) - 1}"
        return what

    def query(self, number: int) -> str:
        """The address's query for page ``number`` of the same search."""
        asked = {"q": self.search, "force": self.force.pk if self.force else "",
                 "status": self.status}  # fmt: skip
        return page_query(asked, number)


def finder_statuses() -> list[tuple[str, str]]:
    """The statuses a unit is found by, as its status shows them (`_unit_status.html`): a ready
    unit held by a battle not yet applied shows what it waits for (`CampaignBattle.holds_unit`)
    in place of "Ready"."""
    held = list(CampaignBattle.HOLDS_UNIT.items())
    return [(Status.READY.value, Status.READY.label), *held] + [
        (status.value, status.label) for status in Status if status != Status.READY
    ]


def unit_search(
    campaign: Campaign,
    force_ids: Collection[int],
    *,
    search: str = "",
    force: str = "",
    status: str = "",
    page: int | None = None,
) -> UnitSearch:
    """The units of ``force_ids`` (the forces the viewer sees in full) whose name or leader's
    name contains ``search``, in ``force`` (one of them, by pk; else every one) and of
    ``status`` (else any; one of `finder_statuses`, as the unit's status shows it: "ready" is
    not held by a battle not yet applied, "awaiting" is held by one awaiting review): a page
    of them. A force the viewer may not see in full is never
    searched, nor named back: asked for, it is every force. Four queries whatever the
    campaign's size: its forces, the names of the units found, the page's units and the
    battles not yet applied (`engaged_battles`), each found unit with the one holding it
    (``battle``, else None); and one more when a unit found is destroyed, each with where
    and when it fell (``destroyed``, `destroyed_where`), as its roster line says it."""
    every = list(campaign.forces.order_by("name", "pk"))
    forces = [f for f in every if f.pk in force_ids]
    chosen = next((f for f in forces if str(f.pk) == force), None)
    search = search.strip()[:SEARCH_LONGEST]
    status = status if status in dict(finder_statuses()) else ""
    units = Unit.objects.filter(force__in=[chosen] if chosen else forces)
    # A unit ready but held by a battle not yet applied goes into no other fight: its status
    # says what it waits for in place of "Ready" (`_unit_status.html`), and is found by that.
    held = engaged_battles(campaign=campaign)
    if status in CampaignBattle.HOLDS_UNIT:
        waiting = [pk for pk, battle in held.items() if battle.state == status]
        units = units.filter(status=Status.READY, pk__in=waiting)
    elif status:
        units = units.filter(status=status)
    if status == Status.READY:
        units = units.exclude(pk__in=list(held))
    names = {f.pk: f.name for f in forces}
    rows = units.values_list("pk", "name", "force_id", "leader__name")
    if search:
        # Matched here, not by the database: SQLite's LIKE ignores the case of A to Z only
        # ("émile" would miss "Émile"), and casefold reads every letter alike on any backend.
        wanted = search.casefold()
        rows = [
            (pk, name, force_id, leader)
            for pk, name, force_id, leader in rows
            if wanted in name.casefold() or wanted in (leader or "").casefold()
        ]
    # By force, then as a roster reads its names ("Squad 9" before "Squad 10"): sorted here,
    # from the names alone, and only the page's units read whole.
    order = sorted(
        rows, key=lambda row: (name_order(names[row[2]]), row[2], name_order(row[1]), row[0])
    )
    count = len(order)
    pages = max(1, -(-count // FOUND_A_PAGE))
    number = min(max(1, page or 1), pages)
    start = (number - 1) * FOUND_A_PAGE
    pks = [row[0] for row in order[start : start + FOUND_A_PAGE]]
    read = Unit.objects.select_related("unit_type", "leader").in_bulk(pks) if pks else {}
    by_pk = {f.pk: f for f in forces}
    gone = destroyed_where(read.values(), campaign.pk)
    found = []
    for pk in pks:
        unit = read[pk]
        unit.force = by_pk[unit.force_id]
        unit.battle = held.get(pk)
        unit.destroyed = gone.get(pk, "")
        # The hits it carries, only the kinds it carries ("5 Casualty hits"), as its history.
        hits = unit.morale_hits, unit.casualty_hits
        unit.hits_said = taken_text(*hits) if any(hits) else ""
        found.append(unit)
    unsearched = [f.name for f in every if f.pk not in force_ids]
    return UnitSearch(forces, unsearched, search, chosen, status, found, number, pages, count)


@dataclass(frozen=True)
class CharacterSearch(PageLinks):
    """A page of the characters the Characters page lists (`character_search`), those whose
    name or whose unit's holds what was looked for."""

    lines: list[CharacterLine]
    search: str
    number: int
    pages: int
    count: int
    every: int
    """How many the reader sees in all, whatever was looked for."""

    @property
    def finds(self) -> bool:
        """The page offers its find box: more than a page to look through, or a search."""
        return self.every > FOUND_A_PAGE or bool(self.search)

    @property
    def shown(self) -> str:
        """What the page lists, in words, when it is not every one: "3 characters with “ash”
        in their name or their unit's", "Characters 51 to 100 of 230"; else ""."""
        what = ""
        if self.search:
            whose = "their" if self.count > 1 else "its"
            what = plural(self.count, "character") if self.count else "No character"
            what += f" with “{self.search}” in {whose} name or {whose} unit’s"
        if self.pages > 1:
            first = (self.number - 1) * FOUND_A_PAGE + 1
            where = f"{first} to {first + len(self.lines) - 1} of {self.count}"
            what = f"{what}: {where}" if what else f"Characters {where}"
        return what

    def query(self, number: int) -> str:
        """The address's query for page ``number`` of the same search."""
        return page_query({"q": self.search}, number)


def character_search(
    lines: list[CharacterLine], *, search: str = "", page: int | None = None
) -> CharacterSearch:
    """Page ``page`` (`FOUND_A_PAGE` a page, as a unit search; the first when None, the last
    when past it) of ``lines`` (`roster.campaign_characters`, those the reader sees) whose
    name or whose unit's contains ``search``, whatever the case of its letters, as a unit
    search matches."""
    search = search.strip()[:SEARCH_LONGEST]
    found = lines
    if search:
        wanted = search.casefold()
        found = [
            line
            for line in lines
            if wanted in line.name.casefold()
            or (line.unit is not None and wanted in line.unit.name.casefold())
        ]
    count = len(found)
    pages = max(1, -(-count // FOUND_A_PAGE))
    number = min(max(1, page or 1), pages)
    start = (number - 1) * FOUND_A_PAGE
    shown = found[start : start + FOUND_A_PAGE]
    return CharacterSearch(shown, search, number, pages, count, len(lines))
