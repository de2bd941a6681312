"""The site in dark mode (the reader's system asks for it, as many phones do at night): every
box the stylesheets draw keeps its words readable.

A rule that paints a box (a light background) or its words (a colour) for the light page is
read as the dark page draws it: the dark mode's colours for the names (``--ink``, ``--accent``
…), the dark mode's own rule for the same selector where there is one, and words that inherit
the dark ink. Their contrast is at least 4.5:1, as WCAG asks of body text. The drawings (maps,
charts, hit boxes) keep their own colours and are left out; the printable cards are always
black on white.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

STATIC = Path(settings.BASE_DIR) / "campaign" / "static"
SHEETS = [
    "bridgehead/bridgehead.css",
    "campaign/campaign.css",
    "library/library.css",
    "campaign/table-tools.css",
    "campaign/table.css",
]
DARK = "@media screen and (prefers-color-scheme: dark)"
PAPER = "#16191c"
"""The dark page, under any box that paints no background of its own."""
DRAWINGS = re.compile(
    r"svg|circle|polyline|rect\b|\.pip|\.swatch|\.series|\.key-line|\.unit\b|\.unit\.|map|"
    r"histogram|\.bar|handle|spot|legend-|\.activation|\.die-face|::before|hr\b"
)
"""Selectors of drawings and their marks, whose colours are not words on a box."""
HEAD = re.compile(r"([^{}]+)\{")


def _closing(text: str, start: int) -> int:
    depth = 1
    for at in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if not depth:
            return at
    raise ValueError("an unclosed block")


def _rules(text: str, media: str | None = None):
    """(media, selector, {property: value}) of a stylesheet, @media blocks opened."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    pos = 0
    while match := HEAD.search(text, pos):
        head = " ".join(match[1].split())
        if head.startswith("@"):
            end = _closing(text, match.end())
            yield from _rules(text[match.end() : end], head)
        else:
            end = text.index("}", match.end())
            body = (d.split(":", 1) for d in text[match.end() : end].split(";") if ":" in d)
            declared = {name.strip(): value.strip() for name, value in body}
            for selector in head.split(","):
                yield media, " ".join(selector.split()), declared
        pos = end + 1


def _rgb(colour: str) -> tuple[float, ...] | None:
    colour = colour.split("!")[0].strip()
    if not re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}", colour):
        return None
    if len(colour) == 4:
        colour = "#" + "".join(c * 2 for c in colour[1:])
    return tuple(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))


def _contrast(one: tuple[float, ...], other: tuple[float, ...]) -> float:
    def luminance(rgb):
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _dark_reading() -> list[str]:
    rules = [rule for sheet in SHEETS for rule in _rules((STATIC / sheet).read_text())]
    names: dict[str, str] = {}
    for media, selector, declared in rules:  # the light names, then the dark ones over them
        if selector == ":root" and media in (None, DARK):
            names.update({k: v for k, v in declared.items() if k.startswith("--")})
    dark: dict[str, dict[str, str]] = {}
    for media, selector, declared in rules:
        if media == DARK:
            dark.setdefault(selector, {}).update(declared)

    def colour(value: str | None) -> tuple[float, ...] | None:
        if value and (name := re.fullmatch(r"var\((--[\w-]+)\)", value.strip())):
            value = names.get(name[1])
        return _rgb(value) if value else None

    unreadable = []
    for media, selector, declared in rules:
        if media == DARK or (media and "print" in media) or selector.startswith((":", "@")):
            continue
        if DRAWINGS.search(selector):
            continue
        painted = {**declared, **dark.get(selector, {})}
        background = painted.get("background", painted.get("background-color"))
        if "color" not in declared and colour(background) is None:
            continue  # paints neither its words nor a box of its own
        words = colour(painted.get("color", "var(--ink)"))
        box = colour(background) or _rgb(PAPER)
        if words and (ratio := _contrast(words, box)) < 4.5:
            unreadable.append(f"{selector}: {ratio:.1f}:1")
    return unreadable


def test_every_box_and_its_words_stay_readable_in_dark_mode():
    unreadable = _dark_reading()
    assert not unreadable, "\n".join(unreadable)
