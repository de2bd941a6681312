"""Every page can be read without seeing it.

A player with a screen reader hears a control by its name, a link by its words, a picture by
its text: a field with no label is read as "edit text", a button with only an icon as
"button", and a page without its language is read in the reader's own. Every page of the
access walks is fetched as the GM, a co-GM, a player, a spectator and someone logged out, and
as the owner of a one-off battle, with its forms sent with bad input too, and checked for what
a reader needs:

- the page says its language (``<html lang>``) and has one main heading (``<h1>``);
- every field (input, select, textarea) has a name: a ``<label>`` around it or naming its id,
  ``aria-label`` or ``aria-labelledby``;
- every button and every link has words (its text, or ``aria-label``, or an image's alt; not
  words hidden from readers, ``aria-hidden``);
- every image has alt text (empty for a picture that only decorates), and every drawing
  (``<svg>``) is either named (``role="img"``; ``"group"`` for a map whose units are controls,
  since an image's parts are not read; ``"application"`` for the map editor's; with
  ``aria-label`` or a ``<title>``) or hidden from readers (``aria-hidden="true"``) because the
  page says the same in words;
- a label's field and a link's place on the page (``href="#…"``) are on the page, and
  whatever names, describes or is controlled by an element (``aria-labelledby``,
  ``aria-describedby``: a field's help, its errors; ``aria-controls``) is on the page;
- headings never skip a level (an h2 then an h4): a reader moving by headings finds a part of
  the page with no name above it;
- a table of data has header cells (``<th>``), which a reader says before each cell;
- an error beside a field is tied to it: the field says it is at fault (``aria-invalid``) and
  is described by its errors (``aria-describedby``, as Django does for the site's field
  templates: ``<id>_error``), or the errors sit inside its label. An error with no field says
  itself at once (``role="alert"``).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.web.campaign_world import login
from tests.web.test_join_page import _invite, _join_url
from tests.web.test_library_pages import _pages as library_pages
from tests.web.walks import battle_pages, campaign_pages, is_page
from units.models import UnitType
from units.services import library_load

pytestmark = pytest.mark.django_db

FIELDS = {"input", "select", "textarea"}
UNNAMED_INPUTS = {"hidden"}
"""Inputs a reader never meets."""
VALUE_NAMED = {"submit", "button", "reset"}
"""Inputs named by their ``value``."""
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _Reader(HTMLParser):
    """Walks a page keeping what a screen reader would need, and lists what it lacks."""

    def __init__(self, whole: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.whole = whole
        self.lang = False
        self.h1 = 0
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.fields: list[tuple[str, dict[str, str], bool]] = []
        """Each field: its tag, its attributes, whether a label holds it."""
        self.label_for: set[str] = set()
        self.ids: set[str] = set()
        self.named: list[tuple[str, dict[str, str], list[str]]] = []
        """Open buttons and links, with the words found inside so far."""
        self.problems: list[str] = []
        self.described: list[tuple[str, dict[str, str]]] = []
        """Elements named or described by others, by id."""
        self.svg: list[tuple[dict[str, str], bool]] = []
        self.main = 0
        self.tables: list[tuple[dict[str, str], bool]] = []
        """Open tables, each with whether a caption names it."""
        self.cells: list[dict[str, int]] = []
        """The open tables' cells counted by kind (``td``, ``th``)."""
        self.heading = 0
        """The level of the last heading."""
        self.errors: list[tuple[dict[str, str], bool]] = []
        """Each error beside a field: its attributes, whether a label holds it."""
        self.described_by: set[str] = set()
        self.anchors: set[str] = set()
        """The ids the page's links lead to on the page itself."""

    # The open elements that collect words: buttons, links, an svg's title.
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "html" and a.get("lang"):
            self.lang = True
        if tag == "h1":
            self.h1 += 1
        if re.fullmatch(r"h[1-6]", tag):
            level = int(tag[1])
            if self.whole and self.heading and level > self.heading + 1:
                self.problems.append(f"an h{level} after an h{self.heading}: {_show(tag, a)}")
            self.heading = level
        if tag == "main" or a.get("role") == "main":
            self.main += 1
        if tag == "nav" and not _aria(a):
            self.problems.append(f"a navigation with no name: {_show(tag, a)}")
        if tag == "table":
            self.tables.append((a, False))
            self.cells.append({"td": 0, "th": 0})
        if tag in ("td", "th") and self.cells:
            self.cells[-1][tag] += 1
        if "field-errors" in a.get("class", "").split():
            held = any(t == "label" for t, _ in self.stack)
            self.errors.append((a, held))
        self.described_by.update(a.get("aria-describedby", "").split())
        if tag == "caption" and self.tables:
            self.tables[-1] = (self.tables[-1][0], True)
        pointers = ("aria-describedby", "aria-labelledby", "aria-controls", "aria-invalid")
        if any(a.get(name) for name in pointers):
            self.described.append((tag, a))
        if tag == "label" and a.get("for"):
            self.label_for.add(a["for"])
        if tag in FIELDS:
            kind = a.get("type", "text").lower() if tag == "input" else tag
            if kind in VALUE_NAMED:
                if not (a.get("value", "x" if kind != "button" else "").strip() or _aria(a)):
                    self.problems.append(f"a {kind} input with no words: {_show(tag, a)}")
            elif kind not in UNNAMED_INPUTS:
                held = any(t == "label" for t, _ in self.stack)
                self.fields.append((tag, a, held))
        if tag == "img":
            if "alt" not in a:
                self.problems.append(f"an image with no alt text: {_show(tag, a)}")
            for _, _, words in self.named:
                words.append("" if self._unheard() else a.get("alt", ""))
        if tag == "svg":
            hidden = a.get("aria-hidden") == "true" or any(
                o.get("aria-hidden") == "true" for _, o in self.stack
            )
            self.svg.append((a, hidden))
        if tag == "title" and self.svg:
            self.named.append(("svg-title", a, []))
        if tag == "a" and a.get("href", "").startswith("#") and len(a["href"]) > 1:
            self.anchors.add(a["href"][1:])
        if tag == "button" or (tag == "a" and "href" in a):
            self.named.append((tag, a, []))
        if tag not in VOID:
            self.stack.append((tag, a))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self._unheard():
            return
        for _, _, words in self.named:
            words.append(data)

    def _unheard(self) -> bool:
        """Whether what is read here is hidden from readers (``aria-hidden``): its words name
        nothing."""
        return any(a.get("aria-hidden") == "true" for _, a in self.stack)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break
        if tag in ("button", "a", "title") and self.named:
            kind, a, words = self.named.pop()
            text = " ".join("".join(words).split())
            if kind == "svg-title":
                if self.svg and text:
                    self.svg[-1] = (self.svg[-1][0] | {"aria-label": text}, self.svg[-1][1])
            elif not text and not _aria(a) and not a.get("title"):
                self.problems.append(
                    f"a {'link' if kind == 'a' else 'button'} with no words: {_show(kind, a)}"
                )
            for _, _, outer in self.named:
                outer.append(" " + text + " ")
        if tag == "table" and self.tables:
            a, captioned = self.tables.pop()
            if not (captioned or _aria(a)):
                self.problems.append(f"a table with no name: {_show('table', a)}")
            cells = self.cells.pop()
            if cells["td"] and not cells["th"]:
                self.problems.append(f"a table with no header cells: {_show('table', a)}")
        if tag == "svg" and self.svg:
            a, hidden = self.svg.pop()
            if not hidden and not (a.get("role") in ("img", "group", "application") and _aria(a)):
                self.problems.append(f"a drawing neither named nor hidden: {_show('svg', a)}")

    def close(self) -> None:
        super().close()
        if self.whole and not self.lang:
            self.problems.append("no <html lang>")
        if self.whole and self.h1 != 1:
            self.problems.append(f"{self.h1} main headings (<h1>), not one")
        if self.whole and self.main != 1:
            self.problems.append(f"{self.main} main regions (<main>), not one")
        for tag, a, held in self.fields:
            named = held or _aria(a) or (a.get("id") in self.label_for)
            if not named:
                self.problems.append(f"a field with no name: {_show(tag, a)}")
        for a, held in self.errors:
            tied = a.get("id") in self.described_by or held
            if not tied and a.get("role") != "alert":
                self.problems.append(f"an error tied to no field: {_show('span', a)}")
        for target in sorted(self.label_for - self.ids):
            self.problems.append(f"a label for {target}, not on the page")
        for target in sorted(self.anchors - self.ids):
            self.problems.append(f"a link to #{target}, not on the page")
        for tag, a in self.described:
            if a.get("aria-invalid") == "true" and not a.get("aria-describedby"):
                self.problems.append(
                    f"a field at fault not described by its errors: {_show(tag, a)}"
                )
            for attribute in ("aria-labelledby", "aria-describedby", "aria-controls"):
                missing = [i for i in a.get(attribute, "").split() if i not in self.ids]
                if missing:
                    self.problems.append(
                        f"{attribute} {', '.join(missing)}, not on the page: {_show(tag, a)}"
                    )


def _aria(a: dict[str, str]) -> bool:
    return bool(a.get("aria-label", "").strip() or a.get("aria-labelledby", "").strip())


def _show(tag: str, a: dict[str, str]) -> str:
    keep = {k: v for k, v in a.items() if k in ("id", "name", "type", "class", "href")}
    return f"<{tag} " + " ".join(f'{k}="{v}"' for k, v in keep.items()) + ">"


def test_the_reader_finds_what_a_page_lacks():
    bare = (
        '<html><body><input name="a"><a href="/x"></a><button><svg></svg></button>'
        '<a href="/y"><span aria-hidden="true">×</span></a>'
        '<a href="#away">Away</a><label for="off">Off</label>'
        '<img src="x"><select aria-describedby="gone"></select>'
        "<nav><table><tr><td>1</td></tr></table></nav><h2>A</h2><h4>B</h4>"
        '<input id="n" aria-invalid="true"><label for="n">N</label>'
        '<span class="field-errors" id="n_error">Too big.</span>'
        '<button aria-controls="away">More</button></body></html>'
    )
    assert what_a_reader_misses(bare) == [
        'a link with no words: <a href="/x">',
        "a drawing neither named nor hidden: <svg >",
        "a button with no words: <button >",
        'a link with no words: <a href="/y">',
        "an image with no alt text: <img >",
        "a navigation with no name: <nav >",
        "a table with no name: <table >",
        "a table with no header cells: <table >",
        "an h4 after an h2: <h4 >",
        "no <html lang>",
        "0 main headings (<h1>), not one",
        "0 main regions (<main>), not one",
        'a field with no name: <input name="a">',
        "a field with no name: <select >",
        'an error tied to no field: <span class="field-errors" id="n_error">',
        "a label for off, not on the page",
        "a link to #away, not on the page",
        "aria-describedby gone, not on the page: <select >",
        'a field at fault not described by its errors: <input id="n">',
        "aria-controls away, not on the page: <button >",
    ]
    named = (
        '<html lang="en"><body><main><h1>Page</h1><label>A <input name="a"></label>'
        '<label for="b">B</label><select id="b" aria-describedby="b_helptext"></select>'
        '<span id="b_helptext">Help</span><a href="/x"><img alt="Home"></a>'
        '<button aria-label="Close"><svg aria-hidden="true"></svg></button>'
        '<svg role="img" aria-labelledby="t"><title id="t">Chart</title></svg>'
        '<input type="submit"><input type="hidden" name="key">'
        '<nav aria-label="Site"></nav><table><caption>Units</caption></table>'
        '<h2 id="h">Fights</h2><table aria-labelledby="h"><tr><th>1</th></tr></table>'
        '<h3>Orders</h3><input id="n" aria-invalid="true" aria-describedby="n_error">'
        '<label for="n">N</label><span class="field-errors" id="n_error">Too big.</span>'
        '<label>M <input name="m"><span class="field-errors">Too small.</span></label>'
        '<p class="field-errors" role="alert">Not launched.</p>'
        '<button aria-controls="h">More</button></main></body></html>'
    )
    assert what_a_reader_misses(named) == []
    assert what_a_reader_misses('<p><input name="a"></p>', whole=False) == [
        'a field with no name: <input name="a">'
    ]


def what_a_reader_misses(html: str, whole: bool = True) -> list[str]:
    """What a screen reader would miss on a page (``whole``) or a part of one swapped in."""
    reader = _Reader(whole)
    reader.feed(html)
    reader.close()
    return reader.problems


@pytest.mark.parametrize(
    ("role", "least"),
    [("gm", 20), ("co_gm", 20), ("player", 20), ("spectator", 20), ("anonymous", 1)],
)
def test_every_campaign_page_can_be_read_without_seeing_it(client, world, role, least):
    pages = list(campaign_pages(client, world, role, sent=True))
    assert len(pages) > least
    wrong = [f"{label}: {p}" for label, html, whole in pages
             for p in what_a_reader_misses(html, whole)]  # fmt: skip
    assert not wrong, "\n".join(wrong)


def test_every_battle_page_can_be_read_without_seeing_it(client, owner, scenario, finished_battle):
    pages = list(battle_pages(client, owner, scenario, finished_battle))
    for name in ("battles:setup", "battles:odds-setup"):  # sent with bad input
        url = reverse(name)
        bad = {"scenario": "crossroads", "seed": "x", "turn_limit": "x", "battles": "x"}
        response = client.post(url, bad | {"precision": "x", "request_key": "k"})
        assert is_page(response, 400) and "field-errors" in response.text, url
        pages.append((url, response.text, True))
    wrong = [f"{url}: {p}" for url, html, whole in pages for p in what_a_reader_misses(html, whole)]
    assert not wrong, "\n".join(wrong)


@override_settings(ROOT_URLCONF="tests.web.reset_urls")
def test_the_sign_in_account_and_library_pages_can_be_read_without_seeing_it(client, world):
    library_load()
    wrong = []

    def check(url: str, data: dict | None = None, ok: int = 200) -> None:
        response = client.post(url, data) if data is not None else client.get(url)
        assert is_page(response, ok), url
        wrong.extend(f"{url}: {p}" for p in what_a_reader_misses(response.content.decode()))

    check(reverse("home"))
    check(reverse("login"))
    check(reverse("login"), {"username": "player", "password": "wrong"})
    check(reverse("password_reset"))
    check(reverse("password_reset"), {"email": "not an address"})
    invitation = _invite(world)
    check(_join_url(invitation))
    check(_join_url(invitation), {"username": "", "password": "x", "password_again": "y"}, ok=400)
    login(client, world, "player")
    for url in [
        reverse("home"),
        reverse("account"),
        reverse("password_change"),
        reverse("logout-confirm"),
        *library_pages(list(UnitType.objects.all())),
    ]:
        check(url)
    check(reverse("password_change"), {"old_password": "wrong"})
    check(reverse("account-email-ask"), {"address": "not an address"}, ok=400)
    assert not wrong, "\n".join(wrong)


OUTSIDE_A_CAMPAIGN = {"my campaigns", "rules card", "join by a made-up link", "import a campaign"}
"""Pages of the campaign walk that belong to no one campaign."""


@pytest.mark.parametrize("role", ["gm", "player"])
def test_every_campaign_page_is_titled_with_the_campaign(client, world, role):
    """A player with several campaigns' pages open tells the tabs apart, and a reader hears
    where a page is, by its title: the page's own name, and its campaign's."""
    wrong = []
    for label, html, whole in campaign_pages(client, world, role):
        title = re.search(r"<title>([^<]*)</title>", html)
        if not whole or label in OUTSIDE_A_CAMPAIGN or "Not found" in title[1]:
            continue
        if world.campaign.name not in title[1]:
            wrong.append(f"{label}: {title[1]}")
    assert not wrong, "\n".join(wrong)


def _headings(html: str) -> list[str]:
    return [
        f"h{level} {' '.join(re.sub('<[^>]+>', ' ', words).split())}"
        for level, words in re.findall(r"<h([1-6])\b[^>]*>(.*?)</h\1>", html, re.S)
    ]


def test_a_form_of_its_own_is_not_heard_as_part_of_the_section_above_it(client, world):
    """A reader moving by headings takes an h3 for a part of the h2 before it: the engagement
    page's revert form was a part of its last round ("Round 4 › Revert this engagement"), and
    the Engagements page's form to fight one a part of the list of those fought lately. Each
    is a section of the page (h2), as the GM's forms on the other table pages stand under the
    GM's panel (h2 GM)."""
    pages = {label: html for label, html, _ in campaign_pages(client, world, "gm")}
    log = _headings(pages["engagement log"])
    assert "h2 Revert this engagement" in log and "h3 Revert this engagement" not in log
    setup = _headings(pages["engagements"])
    assert setup.index("h2 Fight an engagement") > setup.index("h2 Fought lately")
    orders = _headings(pages["orders"])
    assert orders.index("h3 Give an Order") == orders.index("h2 GM") + 1


@pytest.mark.parametrize("role", ["gm", "player"])
def test_the_table_pages_links_mark_the_page_the_reader_is_on(client, world, role):
    """Characters · Orders and the clock · Engagements · Checks and Requisition: a screen
    reader hears "current page" on the one that is open (and the eye sees it in bold)."""
    pages = {label: html for label, html, _ in campaign_pages(client, world, role)}
    for label, words in [
        ("characters", "Characters"),
        ("orders", "Orders and the clock"),
        ("engagements", "Engagements"),
        ("checks", "Checks and Requisition"),
    ]:
        current = re.findall(r'<a href="[^"]*" aria-current="page">([^<]*)</a>', pages[label])
        assert current == [words], label
    assert "aria-current" not in pages["engagement log"]


def test_each_situation_box_of_an_engagement_names_its_unit(client, world):
    """The GM tabbing through the Engagements page's table heard "dug in, check box" once a
    row, never whose: each box is named with its unit, as the battle set-up's fields are
    ("Side of Squad 1")."""
    html = next(h for label, h, _ in campaign_pages(client, world, "gm") if label == "engagements")
    rows = re.findall(r'<tr><th scope="row"><label for="[^"]+">([^<]+)</label>.*?</tr>', html, re.S)
    assert rows  # the world's one unit ready to fight: the rest are out of action or busy
    cells = re.findall(r'<td class="situation">(.*?)</td>', html, re.S)
    assert len(cells) == len(rows)
    for cell in cells:
        names = [" ".join(re.sub("<[^>]+>", " ", n).split()) for n in re.findall(
            r'<label class="check">(.*?)</label>', cell, re.S)]  # fmt: skip
        assert names and all(re.fullmatch(r"[^:]+: [a-z ]+", n) for n in names), names
    assert "Iron Wolf: dug in" in html.replace('<span class="visually-hidden">', "").replace(
        "</span>", ""
    )
