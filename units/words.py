"""How a sentence repeats what someone gave, and prints a number: a name in curly quotes, a
value from a form or a file by what it is, a negative number with a real minus, a count with its
word, a name's possessive. Plain Python, read by the units library, the battles and the campaign
alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def quoted(name: str) -> str:
    """A name a sentence repeats as someone gave it, marked off from the words around it in
    curly quotes whatever it holds: “1st Squad”, “Holt's Raiders” (never ``repr``, which
    quotes the one in single quotes and the other in double)."""
    return f"“{name}”"


MINUS = "\u2212"
"""The minus sign a page prints: "−6", never the hyphen "-6"."""


def number_text(number: int) -> str:
    """A whole number as a page prints it, a negative one with a real minus: "−6", a large one
    with its thousands marked: "2,147,483,647"."""
    return f"{MINUS}{-number:,}" if number < 0 else f"{number:,}"


def times(count: int) -> str:
    """How often something happened, as a sentence says it: "once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(count, f"{number_text(count)} times")


def a_or_an(word: str) -> str:
    """The article a sentence puts before ``word``: "a Green unit", "an Order entry"."""
    return "an" if word[:1] in "AEIOU" else "a"


def capfirst(text: str) -> str:
    """Words opening a sentence: their first letter a capital, the rest as they are ("north
    bunker collapses" → "North bunker collapses"; a name keeps its own capitals)."""
    return text[:1].upper() + text[1:]


def and_words(words: list[str]) -> str:
    """Words joined for a sentence: "A", "A and B", "A, B and C" ("" for none)."""
    return " and ".join(filter(None, (", ".join(words[:-1]), *words[-1:])))


def or_words(words: list[str]) -> str:
    """Choices joined for a sentence, as a refusal lists what it takes: "A", "A or B",
    "A, B or C"."""
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def value_shown(value: Any) -> str:
    """A value from loose input (a form, a file's JSON) as a sentence says what it was given:
    a number as a page prints it ("−5", "1,000,000"), text in quotes, a list or an object by
    what it is (their contents could be anything, and long)."""
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        # Measured in bits: Python writes out no integer of more than 4,300 digits.
        return number_text(value) if value.bit_length() <= 100 else "a number far too long"
    if isinstance(value, float):
        return f"{value:g}".replace("-", MINUS)
    if isinstance(value, str):
        return f'the text "{value}"' if len(value) <= 40 else "a long text"
    if isinstance(value, Mapping):
        return "an object"
    return "a list" if isinstance(value, list | tuple) else type(value).__name__


def given(value: Any) -> str:
    """A name someone gave, where a refusal repeats it: text in curly quotes (`quoted`); what
    is no text at all by what it is (`value_shown`: "a list", "empty (null)")."""
    return quoted(value) if isinstance(value, str) else value_shown(value)


def plural(count: int, word: str) -> str:
    """A count and its word, as a page prints them: "1 day", "3 days", "10,000 battles"."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def possessive(name: str) -> str:
    """A name's possessive, as a page writes it: "Iron Wolf's", and of a name ending in s the
    apostrophe alone: "Sappers'"."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"
