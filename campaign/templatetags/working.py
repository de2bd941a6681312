"""How a roll's working reads: each modifier as the quality table's column says it, its value
signed with a real minus ("Raw quality, assisting its leader: −2")."""

from __future__ import annotations

from typing import Any

from django import template

from campaign.rules.history import hit_points_shown, minus_signs
from campaign.selectors.roster import leader_most_hit_points
from units.bucs import Equipment, Quality
from units.words import MINUS, number_text, possessive

register = template.Library()

QUALITY_WORDS = {q.label for q in Quality}
EQUIPMENT_WORDS = {e.label for e in Equipment}


register.filter("possessive", possessive)


@register.filter
def signed(value: Any) -> str:
    """+2, −2, 0: a modifier's value, the minus a real one."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    if number > 0:
        return f"+{number}"
    return f"{MINUS}{-number}" if number < 0 else "0"


@register.filter
def number(value: Any) -> str:
    """A roll's total, a negative one with a real minus: "−1"."""
    try:
        return number_text(int(value))
    except (TypeError, ValueError):
        return str(value)


@register.filter(name="minus_signs")
def minus_signs_filter(text: Any) -> str:
    """A roll's summary as kept ("-1 against DC 10") with real minus signs: "−1 against DC 10"."""
    return minus_signs(str(text))


@register.filter(name="modifier_name")
def modifier_label(label: str) -> str:
    """A modifier's name as the tables say it: the log keeps "quality: Raw, assisting its
    leader" and "equipment: Barely Adequate"; they read "Raw quality, assisting its leader" and
    "Barely Adequate equipment" (every rating the equipment table names, one word or two)."""
    kind, colon, rest = label.partition(": ")
    if colon and kind == "quality":
        word = rest.split(" ", 1)[0].rstrip(",")
        if word in QUALITY_WORDS:
            tail = rest[len(word) :]
            if tail == " without Orders cannot act alone":
                tail = ", without Orders (it cannot act alone)"
            return f"{word} quality{tail}"
    if colon and kind == "equipment" and rest in EQUIPMENT_WORDS:
        return f"{rest} equipment"
    return label


@register.filter
def modifier(pair: Any) -> str:
    """One modifier of a roll's working, [name, value]: "Raw quality, assisting its leader:
    −2"."""
    name, value = pair[0], pair[1]
    return f"{modifier_label(str(name))}: {signed(value)}"


@register.filter
def hit_points(who: Any) -> str:
    """A character's or a leader's hit points in the one form the pages use, with where they
    leave it (`history.hit_points_text`): "9 of 12 hit points" when the most it may have is
    known (a leader's, from its character), else "9 hit points"; "−6 hit points, dying";
    "dead" for the dead (`history.hit_points_shown`)."""
    most = getattr(who, "max_hit_points", None)
    if most is None and getattr(who, "character_id", None) is not None:
        most = leader_most_hit_points(who)
    return hit_points_shown(who.hit_points, alive=getattr(who, "alive", True), most=most)


@register.filter
def hit_points_left(hit_points: Any, died: Any = False) -> str:
    """Hit points a roll left a leader on, as `hit_points` says them: "−6 hit points, dying";
    "dead" for one it killed (its dice beside it say how)."""
    return hit_points_shown(int(hit_points), alive=not died)
