"""A small, safe Markdown renderer for the project's own documents (``docs/*.md``).

It knows what those documents use — ATX headings, paragraphs, lists, fenced code, pipe tables,
block quotes, rules, and inline code, bold, italics and links — and nothing else. Every character
of the source is escaped: raw HTML in the text shows as text, and a link only becomes a link when
it points at an anchor in the page or at an ``http(s)`` address. No third-party parser, so nothing
that passes HTML through by default can slip in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from django.utils.safestring import SafeString, mark_safe

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)\d+[.)]\s+(.*)$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_TABLE_DIVIDER = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(
    r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?!\w)"
)
_SAFE_URL = re.compile(r"^(https?://|#)[^\s<>\"']*$")


def slug(text: str) -> str:
    """A heading's anchor, as GitHub makes it, so the documents' own links keep working."""
    text = re.sub(r"[`*_]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _inline(text: str) -> str:
    """One line of inline Markdown as escaped HTML."""
    out = []
    pos = 0
    for m in _CODE_SPAN.finditer(text):
        out.append(_emphasis(text[pos : m.start()]))
        out.append(f"<code>{escape(m.group(2).strip())}</code>")
        pos = m.end()
    out.append(_emphasis(text[pos:]))
    return "".join(out)


def _emphasis(text: str) -> str:
    text = escape(text, quote=True)

    def link(m: re.Match[str]) -> str:
        label, url = m.group(1), m.group(2)
        if not _SAFE_URL.match(url):
            return label  # a relative file path means nothing on the site: keep the words
        return f'<a href="{url}">{label}</a>'

    text = _LINK.sub(link, text)
    text = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", text)
    return _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    parts, current, in_code = [], "", False
    for i, ch in enumerate(row):
        if ch == "`":
            in_code = not in_code
        if ch == "|" and not in_code and (i == 0 or row[i - 1] != "\\"):
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip().replace("\\|", "|") for p in parts]


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


def render(source: str) -> Document:
    """The Markdown ``source`` as safe HTML."""
    lines = source.splitlines()
    html: list[str] = []
    headings: list[Heading] = []
    used: dict[str, int] = {}
    paragraph: list[str] = []
    i = 0

    def flush() -> None:
        if paragraph:
            html.append(f"<p>{' '.join(_inline(p.strip()) for p in paragraph)}</p>")
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            flush()
            i += 1
            continue
        if fence := _FENCE.match(line):
            flush()
            marker = fence.group(1)
            language = line.strip()[len(marker) :].strip()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence
            css = (
                f' class="language-{escape(language)}"'
                if re.fullmatch(r"[\w+-]+", language)
                else ""
            )
            html.append(f"<pre><code{css}>{escape(chr(10).join(body))}</code></pre>")
            continue
        if heading := _HEADING.match(line):
            flush()
            level, text = len(heading.group(1)), heading.group(2)
            anchor = slug(text) or "section"
            if anchor in used:
                used[anchor] += 1
                anchor = f"{anchor}-{used[anchor]}"
            else:
                used[anchor] = 0
            headings.append(Heading(level, re.sub(r"[`*]", "", text), anchor))
            html.append(f'<h{level} id="{escape(anchor)}">{_inline(text)}</h{level}>')
            i += 1
            continue
        if _RULE.match(line):
            flush()
            html.append("<hr>")
            i += 1
            continue
        if (
            line.lstrip().startswith("|")
            and i + 1 < len(lines)
            and _TABLE_DIVIDER.match(lines[i + 1])
        ):
            flush()
            head = _cells(line)
            i += 2
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            html.append('<div class="table-wrap"><table><thead><tr>')
            html.extend(f'<th scope="col">{_inline(c)}</th>' for c in head)
            html.append("</tr></thead><tbody>")
            for row in rows:
                html.append("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>")
            html.append("</tbody></table></div>")
            continue
        if line.lstrip().startswith(">"):
            flush()
            quoted = []
            while i < len(lines) and lines[i].lstrip().startswith(">"):
                quoted.append(lines[i].lstrip()[1:].removeprefix(" "))
                i += 1
            inner = render("\n".join(quoted)).html
            html.append(f"<blockquote>{inner}</blockquote>")
            continue
        if _BULLET.match(line) or _NUMBERED.match(line):
            flush()
            tag = "ul" if _BULLET.match(line) else "ol"
            items: list[str] = []
            while i < len(lines) and lines[i].strip():
                item = _BULLET.match(lines[i]) or _NUMBERED.match(lines[i])
                if item and not item.group(1):
                    items.append(item.group(2))
                elif item:
                    items.append(item.group(2))  # a nested item: shown flat, in order
                elif items:
                    items[-1] += " " + lines[i].strip()  # a wrapped line of the item
                i += 1
            html.append(f"<{tag}>" + "".join(f"<li>{_inline(t)}</li>" for t in items) + f"</{tag}>")
            continue
        paragraph.append(line)
        i += 1
    flush()
    title = next((h.text for h in headings if h.level == 1), "")
    # Every piece above went through escape() before any tag was added.
    return Document(html=mark_safe("\n".join(html)), title=title, headings=headings)
