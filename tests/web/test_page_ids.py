"""No page carries the same element id twice.

An id names one element: a label's ``for``, a skip link, an ``aria-describedby``, htmx's
``hx-target`` and the site's own script each find the first element of that id and miss the
rest. Every page of the access walks is fetched as each member of a campaign and logged out,
with its forms sent with bad input too (their errors beside their fields), and as the owner of
a one-off battle.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest

from tests.web.walks import battle_pages, campaign_pages

pytestmark = pytest.mark.django_db


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids[value] += 1


def repeated_ids(html: str) -> list[str]:
    parser = _Ids()
    parser.feed(html)
    return sorted(name for name, count in parser.ids.items() if count > 1)


def test_the_parser_finds_a_repeated_id():
    assert repeated_ids('<p id="a"></p><div id="b"><span id="a"></span></div>') == ["a"]
    assert repeated_ids('<p id="a"></p><p id="b"></p>') == []


@pytest.mark.parametrize(
    ("role", "least"),
    [("gm", 20), ("co_gm", 20), ("player", 20), ("spectator", 20), ("anonymous", 1)],
)
def test_no_campaign_page_repeats_an_id(client, world, role, least):
    pages = list(campaign_pages(client, world, role, sent=True))
    assert len(pages) > least  # the walk reached the pages, not only refusals
    wrong = [f"{label}: {', '.join(r)}" for label, html, _ in pages if (r := repeated_ids(html))]
    assert not wrong, "\n".join(wrong)


def test_no_battle_page_repeats_an_id(client, owner, scenario, finished_battle):
    pages = battle_pages(client, owner, scenario, finished_battle)
    wrong = [f"{url}: {', '.join(r)}" for url, html, _ in pages if (r := repeated_ids(html))]
    assert not wrong, "\n".join(wrong)
