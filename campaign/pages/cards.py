"""A unit's card as the pages print it: its text, its HTML, what another card changes, what
it lacks."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.utils.html import format_html, format_html_join

from campaign.rules.state import ordered_specialties
from units.bucs import Specialty
from units.cardtext import CardError, card_notes, render_card, stat_items, weapon_head, weapon_items
from units.words import and_words


def card_lacks_text(needed: Collection[Specialty], *, one: bool = True) -> str:
    """A unit (``one``) or units whose specialties do not cover their card, in a sentence: on
    that card they fight as Raw, with Poor kit (`units.bucs.fielded`)."""
    names = and_words([s.label for s in ordered_specialties(needed)])
    its, lacks, fights = (
        ("Its", "it lacks", "it fights") if one else ("Their", "they lack", "they fight")
    )
    return (
        f"{its} card needs the {names} specialty, which {lacks}: on that card {fights} as Raw, "
        "with Poor kit."
    )


def card_changes(printed: dict[str, Any] | None, other: dict[str, Any] | None) -> str:
    """What ``other`` card changes from the ``printed`` one, in the card's words: "Skill 4, not
    3"; "" when they agree (or either is missing)."""
    if printed is None or other is None:
        return ""
    changed = [
        f"{key.capitalize()} {other[key]}, not {printed.get(key)}"
        for key in other
        if other[key] != printed.get(key) and isinstance(other[key], int | str)
    ]
    return "; ".join(changed)


def card_text(card: dict[str, Any] | None) -> str:
    """The card in the rule text's layout, or "" when it cannot be printed."""
    if card is None:
        return ""
    try:
        return render_card(card)
    except CardError:
        return ""


def card_html(card: dict[str, Any] | None) -> str:
    """`card_text` for a printed card's ``<pre>``, each stat and each weapon item kept whole
    (``<span class="nowrap">``) as the roster keeps them: a narrow card breaks its lines between
    "Hits 1 ·" and "Size 1", never between "Hits" and its 1. Read without its tags it is
    `card_text` to the letter. A card that cannot be printed so (a building's) is its text."""
    text = card_text(card)
    if not text or card is None or "skill" not in card:
        return text

    def whole(items: list[str], sep: str) -> str:
        kept = [f"{item}{sep}" for item in items[:-1]] + items[-1:]
        return format_html_join(" ", '<span class="nowrap">{}</span>', ((k,) for k in kept))

    lines = [format_html("{}", card["name"]), whole(stat_items(card), " ·")]
    lines += [
        format_html("{} {}", weapon_head(w), whole(weapon_items(w), ",")) for w in card["weapons"]
    ]
    lines += [format_html("{}", note) for note in card_notes(card)]
    return format_html_join("\n", "{}", ((line,) for line in lines))
