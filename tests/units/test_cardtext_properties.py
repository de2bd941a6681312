"""Card text properties: every valid card survives the round trip; no text breaks the parser."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from units.cardtext import (
    CHARGES,
    KEYWORDS,
    CardError,
    CardTextError,
    parse_card,
    render_card,
    validate_card,
)

# Names: mostly letters, with the punctuation that could confuse a parser mixed in.
NAME_ALPHABET = st.one_of(
    st.sampled_from(string.ascii_letters + string.digits + "  -–—'().:#/&"),
    st.sampled_from(["·", "|", ",", ";", " - ", " — ", "Power", "Range", "Melee", "\u00e9"]),
    st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")),
)
names = (
    st.lists(NAME_ALPHABET, min_size=1, max_size=8)
    .map(lambda parts: "".join(parts).strip())
    .filter(bool)
)
inches = st.one_of(st.integers(0, 1000), st.integers(0, 1_000_000).map(lambda n: n / 1000))
positive_inches = inches.filter(lambda x: x > 0)
sizes = st.integers(1, 5)
stats = st.integers(0, 99)
terrain_kinds = st.from_regex(r"[a-z]{1,8}(?:[ -][a-z]{1,8})?", fullmatch=True)


@st.composite
def weapons(draw: st.DrawFn, name: str) -> dict:
    # Buildings have no Size: a buildings-only line carries no Size restriction.
    buildings_only = draw(st.booleans())
    low = None if buildings_only else draw(st.none() | sizes)
    high = None if buildings_only else draw(st.none() | sizes)
    if low is not None and high is not None and low > high:
        low, high = high, low
    return {
        "name": name,
        "power": draw(stats),
        "range": draw(positive_inches),
        "aa": draw(st.booleans()),
        "buildings_only": buildings_only,
        "min_size": low,
        "max_size": high,
        "uses": draw(st.none() | st.integers(1, 99)),
    }


@st.composite
def unit_cards(draw: st.DrawFn) -> dict:
    weapon_names = draw(st.lists(names, max_size=4, unique_by=str.casefold))
    lines = [draw(weapons(name)) for name in weapon_names]
    keywords = draw(st.sets(st.sampled_from([k for k in KEYWORDS if k != "demolition"])))
    if draw(st.booleans()) and "charges" not in {n.casefold() for n in weapon_names}:
        lines.insert(draw(st.integers(0, len(lines))), dict(CHARGES))
        keywords.add("demolition")
    card = {
        "name": draw(names),
        "skill": draw(st.integers(2, 5)),
        "move": draw(inches),
        "resistance": draw(stats),
        "hits": draw(st.integers(1, 99)),
        "size": (size := draw(sizes)),
        # A printed Melee is the card's Size + 0 to 3 (WRITING A CARD).
        "melee": draw(st.none() | st.integers(size, size + 3)),
        "weapons": lines,
        "keywords": sorted(keywords, key=KEYWORDS.index),
        "enters": draw(st.lists(terrain_kinds, max_size=4, unique=True)),
    }
    # A few generated names break a naming rule (a unit called "... (building)", a weapon
    # called "Keywords: ..."); those are not valid cards, and the round trip is for valid ones.
    assume(is_valid(card))
    return card


@st.composite
def building_cards(draw: st.DrawFn) -> dict:
    low, high = sorted(draw(st.lists(sizes, min_size=2, max_size=2)))
    card = {
        "name": draw(names),
        "resistance": draw(stats),
        "hits": draw(st.integers(1, 99)),
        "admits": draw(st.none() | st.just({"min_size": low, "max_size": high})),
        "rubble": draw(names),
    }
    assume(is_valid(card))
    return card


def is_valid(card: dict) -> bool:
    try:
        validate_card(card)
    except CardError:
        return False
    return True


cards = st.one_of(unit_cards(), building_cards())


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(cards)
def test_it_reads_back_every_valid_card_it_writes(card):
    text = render_card(card)
    assert parse_card(text) == card


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(cards)
def test_it_writes_one_canonical_form(card):
    text = render_card(card)
    assert render_card(parse_card(text)) == text
    assert not text.endswith("\n")
    # Whole inches are written whole ("Range 12", never "Range 12.0"). Names may hold ".0"
    # themselves: the numbers are judged on the same card with plain names.
    plain = render_card(_named_plainly(card))
    assert ".0 " not in plain and not plain.endswith(".0")


def _named_plainly(card: dict) -> dict:
    """The card with its names (and a building's rubble) made plain letters: its numbers as
    they were. The Demolition keyword's Charges keep their name."""
    plain = {**card, "name": "Card"}
    if "rubble" in card:
        plain["rubble"] = "Rubble"
    if "weapons" in card:
        plain["weapons"] = [
            w if w == CHARGES else {**w, "name": f"Weapon {chr(ord('A') + i)}"}
            for i, w in enumerate(card["weapons"])
        ]
    return plain


# Fragments of real card text, so random lines get deep into the parser.
FRAGMENTS = [
    "Skill", "Move", "Resistance", "Hits", "Size", "Melee", "Power", "Range", "AA",
    "buildings only", "only", "uses", "use", "two", "one", "Keywords:", "Enters:", "Admits:",
    "Becomes:", "(building)", "Demolition", "Charges", "Aerial", "Sure-Footed", "nothing",
    "up to", "+", "·", "|", ",", ";", "—", "–", "-", " ", " ", ":", '"', ".", "\n", "\r\n",
    "0", "1", "2", "3", "4", "5", "9", "12", "99", "100", "2.5", "0.001", "-1", "1e9", "٣",
    "12345678901234567890", "woods", "x", "\x0b", "\u2028", "\t",
]  # fmt: skip
card_like_text = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)


def parse_or_refuse(text: str) -> None:
    try:
        card = parse_card(text)
    except CardTextError as error:
        assert error.line >= 1
        assert error.field
        assert str(error).startswith(f"line {error.line}, field ")
        return
    # Whatever it accepts is a valid card in canonical form.
    validate_card(card)
    assert parse_card(render_card(card)) == card


@settings(max_examples=500)
@given(st.text())
def test_it_raises_nothing_but_card_text_errors_on_any_text(text):
    parse_or_refuse(text)


@settings(max_examples=1000)
@given(card_like_text)
def test_it_raises_nothing_but_card_text_errors_on_card_like_text(text):
    parse_or_refuse(text)


@settings(max_examples=300)
@given(card_like_text)
def test_it_raises_nothing_but_card_text_errors_below_a_valid_header(text):
    parse_or_refuse("Scouts\nSkill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1\n" + text)
    parse_or_refuse("House (building)\nResistance 3 · Hits 4\n" + text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(cards, st.data())
def test_it_raises_nothing_but_card_text_errors_on_damaged_cards(card, data):
    text = render_card(card)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 6)))
    patch = data.draw(st.sampled_from(["", *FRAGMENTS]))
    parse_or_refuse(text[:start] + patch + text[end:])
