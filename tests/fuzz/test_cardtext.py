"""Card text: the parser and the library load refuse bad cards cleanly and write nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.urls import NoReverseMatch, reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.conftest import FUZZ
from tests.fuzz.inputs import EDGE_TEXT
from units.cardtext import CardTextError, parse_card, render_card
from units.services import LibraryError, library_load

pytestmark = pytest.mark.django_db

LIBRARY = Path(__file__).resolve().parents[2] / "units" / "library"
CARDS = {p.relative_to(LIBRARY).as_posix(): p.read_text() for p in sorted(LIBRARY.rglob("*.card"))}
TOKENS = st.sampled_from(
    [*EDGE_TEXT, "·", "—", ",", ":", "Skill", "Move", "Power", "Range", "(building)", "\n", "x"]
)


@st.composite
def mutated_card(draw) -> str:
    """A library card with one to three words or lines replaced, dropped or repeated."""
    text = CARDS[draw(st.sampled_from(sorted(CARDS)))]
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["word", "word", "drop", "repeat", "text"]))
        if action == "word":
            words = lines[index].split(" ")
            at = draw(st.integers(0, len(words) - 1))
            words[at] = draw(TOKENS | st.text(max_size=6))
            lines[index] = " ".join(words)
        elif action == "drop" and len(lines) > 1:
            del lines[index]
        elif action == "repeat":
            lines.insert(index, lines[index])
        else:
            lines[index] = draw(st.text(max_size=30))
    return "\n".join(lines)


def _parse(text: str):
    def run() -> bool:
        try:
            card = parse_card(text)
        except CardTextError as error:
            assert error.line >= 1 and error.field and str(error)
            return False
        # What parses renders, and reads back the same.
        assert parse_card(render_card(card)) == card
        return True

    return run


@settings(FUZZ, max_examples=150)
@given(text=mutated_card() | st.text(max_size=200))
def test_card_text_is_parsed_or_refused_with_its_line(probe, text):
    p = probe("card text: parse_card")
    p.attempt(_parse(text), text)
    p.check()


@settings(FUZZ, max_examples=15)
@given(text=mutated_card(), name=st.sampled_from(sorted(CARDS)))
def test_a_bad_card_in_the_library_loads_nothing(probe, tmp_path_factory, text, name):
    root = tmp_path_factory.mktemp("library")
    shutil.copytree(LIBRARY, root, dirs_exist_ok=True)
    (root / name).write_text(text, encoding="utf-8")
    p = probe("card text: library_load of a library with one mutated card")

    def run() -> bool:
        try:
            library_load(root=root)
        except LibraryError:
            return False
        return True

    p.attempt(run, (name, text))
    p.check()


@settings(FUZZ, max_examples=30)
@given(
    pk=st.integers(-5, 10**6),
    slug=st.sampled_from(["rules", "campaign", "scenario", "x", "-", "a" * 80])
    | st.from_regex(r"\A[-a-zA-Z0-9_]{1,30}\Z"),
    query=st.dictionaries(st.sampled_from(["q", "kind", "ruleset", "page"]), st.text(max_size=20)),
    htmx=st.booleans(),
)
def test_the_library_pages(probe, client, django_user_model, pk, slug, query, htmx):
    """The card library and rules pages (GET only): guessed ids and slugs, garbage queries."""
    try:
        urls = [
            reverse("library:list"),
            reverse("library:card", args=[max(pk, 0)]),
            reverse("library:document", args=[slug]),
        ]
    except NoReverseMatch:
        pytest.skip("the library pages are not installed")
    client.force_login(django_user_model.objects.get_or_create(username="reader")[0])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    p = probe("GET library pages (cards, rules documents)")
    for url in urls:

        def run(url=url) -> bool:
            response = client.get(url, query, **headers)
            assert response.status_code < 500, response.status_code
            return False  # a GET never writes

        p.attempt(run, (url, query))
    p.check()
