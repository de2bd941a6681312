"""Writes for the card library: load the sample library's cards and terrain into the database.

The library is a folder per ruleset of `.card` files in the "WRITING A CARD" text format
(`units.cardtext`), and one `terrain.json` shared by both rulesets (`units.terrain`). A unit
card's file also names, on a `Specialty:` line of its own, the BUCS specialty a unit must hold
to fight at its quality on that card: the campaign's line, not part of the Team Bravo card. Loading
reads and checks every file first; any problem (reported with its file and line) stops the load
before anything is written. Loading twice changes nothing the second time.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from units.bucs import Specialty
from units.cardfile import specialty_named, split_specialty_line
from units.cardtext import (
    CardError,
    CardTextError,
    check_name,
    is_building,
    parse_card,
    validate_card,
)
from units.models import Ruleset, UnitType
from units.terrain import TerrainError, validate_terrain
from units.words import given

LIBRARY_DIR = Path(__file__).resolve().parent / "library"
TERRAIN_FILE = "terrain.json"
SOURCE_LENGTH = UnitType._meta.get_field("source").max_length
"""Characters of a library file's path the card keeps as its source."""


@dataclass(frozen=True)
class LibraryProblem:
    """One thing wrong with one library file."""

    path: str
    """The file, relative to the library folder (the folder itself as given, if it is none)."""
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}, line {self.line}"
        return f'{where}, field "{self.field}": {self.message}'


class LibraryError(Exception):
    """The library has problems; nothing was loaded."""

    def __init__(self, problems: list[LibraryProblem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass
class LibraryReport:
    """What a load did, by card name."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    not_in_library: list[str] = field(default_factory=list)
    """Cards in the database that no library file holds (kept: units may be made from them)."""


@dataclass(frozen=True)
class LibraryEntry:
    """One card or terrain type read from the library, ready to load."""

    name: str
    kind: str
    ruleset: str
    card: dict[str, Any]
    source: str
    specialty: str = ""
    """The BUCS specialty a unit needs on this card (unit cards); blank for the rest."""


def source_words(source: str) -> str:
    """Where a card was loaded from, in words: a library file's path (``LibraryEntry.source``)
    as the ruleset's library and the file's name ("Combined Arms library: Assault
    Engineers"), the terrain file as the terrain library; anything else as it is."""
    if source == TERRAIN_FILE:
        return "the terrain library"
    folder, _, name = source.rpartition("/")
    if folder in Ruleset.values and name.endswith(".card"):
        words = " ".join(w[:1].upper() + w[1:] for w in name.removesuffix(".card").split("_"))
        return f"the {Ruleset(folder).label} library: {words}"
    return source


def _read_cards(root: Path, problems: list[LibraryProblem]) -> list[LibraryEntry]:
    entries: list[LibraryEntry] = []
    for path in sorted(root.rglob("*.card")):
        relative = path.relative_to(root).as_posix()
        try:
            # Its path is stored as the card's source, and the database keeps only UTF-8 text.
            relative.encode("utf-8")
        except UnicodeEncodeError:
            shown = relative.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            problems.append(LibraryProblem(shown, None, "file", "its name is not UTF-8"))
            continue
        if len(relative) > SOURCE_LENGTH:
            # Its path is kept as the card's source, in a column only so wide.
            problems.append(
                LibraryProblem(
                    relative, None, "file", f"its path is longer than {SOURCE_LENGTH} characters"
                )
            )
            continue
        folder = path.parent.relative_to(root).as_posix()
        if folder not in Ruleset.values:
            problems.append(
                LibraryProblem(
                    relative, None, "ruleset", f"a card lives in {' or '.join(Ruleset.values)}/"
                )
            )
            continue
        whole = _read_text(path, relative, "card", problems)
        if whole is None:
            continue
        try:
            text, specialty_line = split_specialty_line(whole)
            card = parse_card(text)
        except CardTextError as error:
            problems.append(LibraryProblem(relative, error.line, error.field, error.message))
            continue
        specialty = _card_specialty(relative, card, specialty_line, problems)
        try:
            # Text may carry either rule text's keywords; the card's folder says which it may
            # (rulings.md, "Two rulesets, one engine").
            validate_card(card, folder)
        except CardError as error:
            line = _line_of(whole, r"^\s*keywords\s*:")
            problems.append(LibraryProblem(relative, line, error.field, error.message))
            continue
        kind = UnitType.Kind.BUILDING if is_building(card) else UnitType.Kind.UNIT
        entries.append(LibraryEntry(card["name"], kind, folder, card, relative, specialty))
    return entries


def _card_specialty(
    relative: str,
    card: dict[str, Any],
    line: tuple[int, str] | None,
    problems: list[LibraryProblem],
) -> str:
    """The specialty a unit card's file names; every unit card names one, a building none."""
    if is_building(card):
        if line is not None:
            problems.append(
                LibraryProblem(relative, line[0], "specialty", "a building needs no specialty")
            )
        return ""
    if line is None:
        problems.append(
            LibraryProblem(
                relative,
                None,
                "specialty",
                'name the specialty its unit needs on a line of its own: "Specialty: Infantry"',
            )
        )
        return ""
    specialty = specialty_named(line[1])
    if specialty is None:
        names = ", ".join(s.label for s in Specialty)
        problems.append(
            LibraryProblem(
                relative,
                line[0],
                "specialty",
                f"unknown specialty {given(line[1])}; one of {names}",
            )
        )
        return ""
    return specialty.value


def _read_text(path: Path, relative: str, field: str, problems: list[LibraryProblem]) -> str | None:
    """A library file's text, or None with the problem said: a folder, a broken link or an
    unreadable file is one more problem of the library, not a crash."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        problems.append(LibraryProblem(relative, None, field, "not UTF-8 text"))
    except OSError as error:
        reason = error.strerror or str(error)
        problems.append(LibraryProblem(relative, None, field, f"cannot read it: {reason}"))
    return None


def _line_of(text: str, pattern: str) -> int | None:
    """The first line of a file's text matching `pattern` (case-insensitive), to point at it."""
    regex = re.compile(pattern, re.IGNORECASE)
    for number, line in enumerate(text.splitlines(), 1):
        if regex.search(line):
            return number
    return None


_COLON = re.compile(r"\s*:")


def _key_lines(text: str) -> dict[str, int]:
    """The line of each key of the top-level JSON object, to point a problem at its entry."""
    lines: dict[str, int] = {}
    depth, line, index = 0, 1, 0
    while index < len(text):
        char = text[index]
        if char == '"':
            end = index + 1
            while text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if depth == 1 and _COLON.match(text, end + 1):
                lines.setdefault(json.loads(text[index : end + 1]), line)
            line += text.count("\n", index, end)
            index = end
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
        elif char == "\n":
            line += 1
        index += 1
    return lines


def _read_terrain(root: Path, problems: list[LibraryProblem]) -> list[LibraryEntry]:
    path = root / TERRAIN_FILE
    if not path.exists() and not path.is_symlink():
        return []  # No terrain file: no terrain types (a broken link is one, and unreadable).
    text = _read_text(path, TERRAIN_FILE, "terrain", problems)
    if text is None:
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        problems.append(LibraryProblem(TERRAIN_FILE, error.lineno, "json", error.msg))
        return []
    except RecursionError:
        problems.append(LibraryProblem(TERRAIN_FILE, None, "json", "nested too deep to read"))
        return []
    except ValueError:
        # Python reads no integer of more than 4,300 digits (its int_max_str_digits).
        problems.append(LibraryProblem(TERRAIN_FILE, None, "json", "a number too long to read"))
        return []
    if not isinstance(data, dict):
        problems.append(LibraryProblem(TERRAIN_FILE, 1, "terrain", "must map names to terrain"))
        return []
    lines = _key_lines(text)
    entries = []
    for name, props in data.items():
        line = lines.get(name)
        try:
            # The name is stored as a card's is (`UnitType.name`).
            check_name("name", name, kind="terrain")
        except CardError as error:
            problems.append(LibraryProblem(TERRAIN_FILE, line, error.field, error.message))
            continue
        try:
            validate_terrain(props)
        except TerrainError as error:
            field = f"{name}.{error.field}"
            problems.append(LibraryProblem(TERRAIN_FILE, line, field, error.message))
            continue
        entries.append(LibraryEntry(name, UnitType.Kind.TERRAIN, "", props, TERRAIN_FILE))
    return entries


def library_read(*, root: Path = LIBRARY_DIR) -> list[LibraryEntry]:
    """Every card and terrain type in the library, checked; `LibraryError` lists all problems."""
    if not root.is_dir():
        # Else a mistyped folder would read as an empty library, and load as one.
        raise LibraryError([LibraryProblem(str(root), None, "folder", "no such folder")])
    problems: list[LibraryProblem] = []
    entries = _read_cards(root, problems) + _read_terrain(root, problems)
    seen: dict[tuple[str, str], str] = {}
    for entry in entries:
        key = (entry.ruleset, entry.name.casefold())
        if key in seen:
            problems.append(
                LibraryProblem(
                    entry.source,
                    1,
                    "name",
                    f"{given(entry.name)} is already the name in {seen[key]}",
                )
            )
        seen.setdefault(key, entry.source)
    if problems:
        raise LibraryError(problems)
    return entries


@transaction.atomic
def library_load(*, root: Path = LIBRARY_DIR) -> LibraryReport:
    """Load (or refresh) every library card; nothing is written if any file has a problem."""
    entries = library_read(root=root)
    report = LibraryReport()
    loaded: set[int] = set()
    for entry in entries:
        existing = UnitType.objects.filter(ruleset=entry.ruleset, name=entry.name).first()
        values = {
            "kind": entry.kind,
            "card": entry.card,
            "source": entry.source,
            "specialty": entry.specialty,
        }
        if existing is None:
            existing = UnitType.objects.create(name=entry.name, ruleset=entry.ruleset, **values)
            report.created.append(entry.name)
        elif any(getattr(existing, key) != value for key, value in values.items()):
            for key, value in values.items():
                setattr(existing, key, value)
            existing.save()
            report.updated.append(entry.name)
        else:
            report.unchanged.append(entry.name)
        loaded.add(existing.pk)
    report.not_in_library = list(
        UnitType.objects.exclude(pk__in=loaded).values_list("name", flat=True)
    )
    return report
