"""A project document as the site serves it to players and GMs: the rules, without the
developer's working.

``docs/rules.md`` and ``docs/campaign.md`` are both the rules and the project's rule-to-test
listing. A reader of /library/docs/ wants the first: so the tables lose their "Test" and "In
the code" columns, an aside in brackets that only points at code or files goes, and a sentence
that still names code (a module, a function, a field, a test) goes with it. The files stay as
they are; this is the one place that decides what a reader is shown.
"""

from __future__ import annotations

import re

DEVELOPER_COLUMNS = {"test", "tests", "in the code"}
"""Table columns (by header) a reader is not shown."""

DEVELOPER_SECTIONS = {
    "2. History",
    "3. Services",
    "4. Export and import",
    "5. The log, determinism and replay",
}
"""Sections (by heading, with everything under them) about the code, not the game."""

_CODE = re.compile(r"`([^`]+)`")
_DEVELOPER_CODE = re.compile(
    r"""
    [/\\]|::                                  # a path or a test name
    | \.(py|md|json|card|js|html|css)\b       # a file
    | ^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+          # a dotted name: bridge.going_in
    | ^\w*_\w*$                               # a field: casualty_hits
    | ^[A-Z][a-z]+[A-Z]\w*                    # a class: CampaignUnitState
    | \w\(                                    # a call or a signature: Dice.fixed([...])
    """,
    re.VERBOSE,
)
_ASIDE = re.compile(r"\s*\(([^()]*)\)")
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=[A-Z*`(\"])")
_ITEM = re.compile(r"^(\s*(?:\d+\.|[-*+])\s+)(.*)$")


def is_developer_code(span: str) -> bool:
    """Whether a code span names code or a file rather than a word of the rules."""
    return bool(_DEVELOPER_CODE.search(span.strip()))


def _names_code(text: str) -> bool:
    return any(is_developer_code(m.group(1)) for m in _CODE.finditer(text))


_DEVELOPER_WORDS = re.compile(r"\b(tests?|Django)\b")
"""Words that make a sentence of prose the developer's: "each with the test that proves it"."""


def reader_text(text: str, *, prose: bool = False) -> str:
    """Text without its pointers at code: asides that name code dropped, then sentences that
    still do (and, in ``prose``, sentences about the tests)."""
    previous = None
    while previous != text:  # innermost brackets first, so an aside within an aside goes too
        previous = text
        text = _ASIDE.sub(lambda m: "" if _names_code(m.group(1)) else _kept(m.group(0)), text)
    text = text.replace("\x01", "(").replace("\x02", ")")

    def shown(sentence: str) -> bool:
        return not _names_code(sentence) and not (prose and _DEVELOPER_WORDS.search(sentence))

    kept = [s for s in _SENTENCE_END.split(text) if shown(s)]
    return re.sub(r"\s+([,.;:])", r"\1", " ".join(kept)).strip()


def _heading(line: str) -> str:
    """A heading without its clauses about the tests: the rules' title promised "every rule,
    and the test that proves it" over a page that shows no test."""
    marks, _, text = line.partition(" ")
    kept = [clause for clause in text.split(", ") if not _DEVELOPER_WORDS.search(clause)]
    return f"{marks} {', '.join(kept)}" if _level(line) and kept else line


def _kept(aside: str) -> str:
    """An aside kept as it was, its brackets masked so the next pass looks further out."""
    return aside.replace("(", "\x01").replace(")", "\x02")


def _table(lines: list[str]) -> list[str]:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]
    drop = {i for i, cell in enumerate(rows[0]) if cell.strip("*").lower() in DEVELOPER_COLUMNS}
    out = []
    for n, row in enumerate(rows):
        cells = [c for i, c in enumerate(row) if i not in drop]
        if n > 1:  # not the header, nor the line under it
            cells = [reader_text(c) or "—" for c in cells]
        out.append("| " + " | ".join(cells) + " |")
    return out


def _prose(lines: list[str]) -> list[str]:
    """A paragraph, or a list item by item."""
    items: list[tuple[str, list[str]]] = []
    for line in lines:
        item = _ITEM.match(line)
        if item or not items:
            marker, rest = (item.group(1), item.group(2)) if item else ("", line)
            items.append((marker, [rest.strip()]))
        else:
            items[-1][1].append(line.strip())
    out = []
    for marker, words in items:
        text = reader_text(" ".join(words), prose=True)
        if text:
            out.append(marker + text)
    return out


def reader_view(source: str) -> str:
    """The markdown ``source`` as a player or GM reads it (see the module's docstring)."""
    out: list[str] = []
    block: list[str] = []
    fenced = False

    def flush() -> None:
        if block and block[0].lstrip().startswith("|"):
            out.extend(_table(block))
        elif block:
            out.extend(_prose(block))
        block.clear()

    for line in _without_developer_sections(source.splitlines()):
        if line.lstrip().startswith("```"):
            flush()
            fenced = not fenced
            out.append(line)
        elif fenced:
            out.append(line)
        elif not line.strip() or line.startswith("#"):
            flush()
            out.append(_heading(line))
        elif block and block[0].lstrip().startswith("|") != line.lstrip().startswith("|"):
            flush()
            block.append(line)
        else:
            block.append(line)
    flush()
    return "\n".join(_renumbered(_without_empty_sections(out))) + "\n"


def _level(line: str) -> int:
    """A heading's level (0: not a heading)."""
    match = re.match(r"(#{1,6})\s", line)
    return len(match.group(1)) if match else 0


def _without_developer_sections(lines: list[str]) -> list[str]:
    kept: list[str] = []
    skipping = 0  # the level of the heading being left out, with what is under it
    for line in lines:
        level = _level(line)
        if level and skipping and level <= skipping:
            skipping = 0
        if level and line.lstrip("#").strip() in DEVELOPER_SECTIONS:
            skipping = level
        if not skipping:
            kept.append(line)
    return kept


_NUMBERED = re.compile(r"^(#{1,6}\s+)(\d+)((?:\.\d+)*\.?\s)")
_SECTION_REF = re.compile(r"§(\s?)(\d+)(?=[\s.,;:)]|$)")


def _renumbered(lines: list[str]) -> list[str]:
    """The numbered sections left, numbered again in order from 1, and each "§" that points to
    one said by its new number: with the code's sections left out, the contents of the campaign
    rules read "1.", then "5.", as if four sections were missing."""
    numbers: dict[str, str] = {}
    for line in lines:
        if (numbered := _NUMBERED.match(line)) and numbered.group(2) not in numbers:
            numbers[numbered.group(2)] = str(len(numbers) + 1)
    out = []
    for line in lines:
        if numbered := _NUMBERED.match(line):
            head, top, rest = numbered.groups()
            out.append(f"{head}{numbers[top]}{rest}{line[numbered.end() :]}")
        else:
            # A section left out keeps its number: nothing shown points to one.
            out.append(
                _SECTION_REF.sub(lambda ref: f"§{ref[1]}{numbers.get(ref[2], ref[2])}", line)
            )
    return out


def _without_empty_sections(lines: list[str]) -> list[str]:
    """The lines without headings left over nothing: a section that was all code goes whole."""
    kept: list[str] = []
    for line in reversed(lines):
        level = _level(line)
        if level:
            body = []
            for later in kept[::-1]:
                if _level(later) and _level(later) <= level:
                    break
                body.append(later)
            if not any(x.strip() for x in body):
                continue
        kept.append(line)
    return kept[::-1]
