"""The project's own documents (``docs/*.md``) as safe HTML, with markdown-it-py.

CommonMark with pipe tables, and nothing that lets markup through: raw HTML in the text shows as
text, and a link only stays a link when it points at an anchor in the page or at an ``http(s)``
address (a repository path means nothing on the site, so its words stay and the link goes).
Headings get the anchors GitHub gives them, so the documents' own links keep working.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.token import Token

_SAFE_URL = re.compile(r"^(https?://|#)[^\s<>\"']*$")


def slug(text: str) -> str:
    """A heading's anchor, as GitHub makes it, so the documents' own links keep working."""
    text = re.sub(r"[`*_]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@dataclass
class Heading:
    level: int
    text: str
    id: str


@dataclass
class Document:
    """A rendered document: its HTML and its headings (for a table of contents)."""

    html: SafeString
    title: str
    headings: list[Heading] = field(default_factory=list)


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _unlink_unsafe(inline: Token) -> None:
    """Drop the tags of links that point anywhere but an anchor or an http(s) address."""
    children, kept, dropping = inline.children or [], [], []
    for child in children:
        if child.type == "link_open":
            safe = bool(_SAFE_URL.match(str(child.attrGet("href") or "")))
            dropping.append(not safe)
            if safe:
                kept.append(child)
        elif child.type == "link_close":
            if not dropping.pop():
                kept.append(child)
        else:
            kept.append(child)
    inline.children = kept


STACKED_COLUMNS = 4
"""A table of this many columns or more is too wide for a phone: there it is read as labelled
rows (``table.stack``, as the site's own wide tables are), each row its first cell, then every
other cell under its column's name, not cut off at the screen's edge."""


def _inline_text(token: Token) -> str:
    return "".join(child.content for child in token.children or [] if child.content)


def _stack_tables(tokens: list[Token]) -> None:
    """Mark each table of `STACKED_COLUMNS` or more as ``stack``: its first cell in each row
    the row's heading, every other cell named by its column's heading (``data-label``)."""
    for index, token in enumerate(tokens):
        if token.type != "table_open":
            continue
        end = next(i for i in range(index, len(tokens)) if tokens[i].type == "table_close")
        cells = tokens[index:end]
        names = [_inline_text(cells[i + 1]) for i, t in enumerate(cells) if t.type == "th_open"]
        if len(names) < STACKED_COLUMNS:
            continue
        token.attrSet("class", "stack")
        column = 0
        for i, cell in enumerate(cells):
            if cell.type == "tr_open":
                column = 0
            elif cell.type == "td_open":
                if column == 0:
                    cell.tag = "th"
                    cell.attrSet("scope", "row")
                    # Its closing tag is the next td_close.
                    next(t for t in cells[i:] if t.type == "td_close").tag = "th"
                elif column < len(names):
                    cell.attrSet("data-label", names[column])
                column += 1
            elif cell.type == "th_open":
                cell.attrSet("scope", "col")
                column += 1


def render(source: str) -> Document:
    md = _parser()
    tokens = md.parse(source)
    headings: list[Heading] = []
    seen: dict[str, int] = {}
    above = ""
    """The id of the last heading: a table is named by the heading it stands under."""
    for index, token in enumerate(tokens):
        if token.type == "inline":
            _unlink_unsafe(token)
        if token.type == "table_open" and above:
            token.attrSet("aria-labelledby", above)
        if token.type != "heading_open":
            continue
        text = _inline_text(tokens[index + 1])
        anchor = slug(text)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        if count:
            anchor = f"{anchor}-{count}"
        token.attrSet("id", anchor)
        above = anchor
        headings.append(Heading(int(token.tag[1]), text, anchor))
    _stack_tables(tokens)
    html = md.renderer.render(tokens, md.options, {})
    title = next((h.text for h in headings if h.level == 1), "")
    return Document(html=mark_safe(html), title=title, headings=headings)
