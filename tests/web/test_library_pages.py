"""The card library and rules pages, the site's own 404 and 403 pages, the favicon, and the
answer an htmx request gets once its session has expired."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from tests.web.campaign_world import login
from units.cardtext import render_card
from units.markdown import render, slug
from units.models import Ruleset, UnitType
from units.services import library_load, source_words

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def cards() -> list[UnitType]:
    library_load()
    return list(UnitType.objects.all())


def _pages(cards) -> list[str]:
    return [
        reverse("library:list"),
        reverse("library:card", args=[cards[0].pk]),
        reverse("library:card", args=[cards[-1].pk]),
        reverse("library:document", args=["rules"]),
        reverse("library:document", args=["campaign"]),
    ]


def test_it_sends_anonymous_users_to_log_in(client, cards):
    for url in _pages(cards):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_it_shows_every_logged_in_user_every_page(client, cards, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    for url in _pages(cards):
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("library:document", args=["secrets"])).status_code == 404
    assert client.get(reverse("library:card", args=[999999])).status_code == 404


def test_it_lists_the_cards_by_ruleset_with_their_card_text(client, cards, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    page = client.get(reverse("library:list")).text
    assert "Combined Arms" in page and "One Year War" in page and "Terrain" in page
    unit = next(c for c in cards if c.kind == UnitType.Kind.UNIT)
    first_line = render_card(unit.card).splitlines()[0]
    assert first_line in page
    card_page = client.get(reverse("library:card", args=[unit.pk])).text
    for line in render_card(unit.card).splitlines():
        assert line.replace("'", "&#x27;").replace('"', "&quot;") in card_page


def test_a_card_says_where_it_came_from_in_words_not_a_path(client, cards, django_user_model):
    assert source_words("combined_arms/heavy_weapons_team.card") == (
        "the Combined Arms library: Heavy Weapons Team"
    )
    assert source_words("one_year_war/federation_tank.card") == (
        "the One Year War library: Federation Tank"
    )
    assert source_words("terrain.json") == "the terrain library"
    assert source_words("") == ""
    client.force_login(django_user_model.objects.create_user("reader"))
    engineers = next(c for c in cards if c.source == "combined_arms/assault_engineers.card")
    page = client.get(reverse("library:card", args=[engineers.pk])).text
    assert "· from the Combined Arms library: Assault Engineers</p>" in page
    assert ".card" not in page
    woods = next(c for c in cards if c.kind == UnitType.Kind.TERRAIN)
    page = client.get(reverse("library:card", args=[woods.pk])).text
    assert "· from the terrain library</p>" in page and "terrain.json" not in page


def test_a_terrain_type_reads_as_sentences_under_its_name(client, cards, django_user_model):
    """Terrain is not a card, but the library shows it as a card's words are shown: its name as
    a name, what it does on the table in a sentence, then why; never its fields."""
    client.force_login(django_user_model.objects.create_user("reader"))
    lake = next(c for c in cards if c.kind == UnitType.Kind.TERRAIN and c.name == "lake")
    does = (
        "Blocks movement (only Aerial units, Amphibious units and cards that list water under "
        "Enters go in); does not block sight; it is water: an Amphibious unit&#x27;s movement "
        "is doubled in it."
    )
    for page in (reverse("library:list"), reverse("library:card", args=[lake.pk])):
        text = client.get(page).text
        assert does in text
        assert f"{does}\n\nDeep water: open to the eye" in text
        for field in ("kind: water", "blocks movement: yes", "blocks sight: no", "why: "):
            assert field not in text, (page, field)
    card = client.get(reverse("library:card", args=[lake.pk])).text
    assert "<h1>Lake</h1>" in card and "<title>Lake · Card library" in card
    listed = client.get(reverse("library:list")).text
    assert f'{reverse("library:card", args=[lake.pk])}">Lake</a>' in listed
    wall = next(c for c in cards if c.kind == UnitType.Kind.TERRAIN and c.name == "wall")
    assert (
        "Does not block movement, but crossing it takes a terrain roll, even for Sure-Footed "
        "units (Aerial units need none); does not block sight."
    ) in client.get(reverse("library:card", args=[wall.pk])).text


def test_an_empty_library_says_so_in_words_not_a_command(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    page = client.get(reverse("library:list")).text
    assert "The library is empty: no unit cards have been loaded on this site yet." in page
    assert "manage.py" not in page
    assert reverse("library:load") not in page
    # Only the site's staff load the cards.
    assert client.post(reverse("library:load")).status_code == 403
    assert not UnitType.objects.exists()


def test_the_sites_staff_load_the_sample_cards_from_the_empty_library(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("admin", password="x"))
    page = client.get(reverse("library:list")).text
    assert f'action="{reverse("library:load")}"' in page and "Load the sample cards" in page
    loaded = client.post(reverse("library:load"), follow=True)
    assert UnitType.objects.filter(ruleset=Ruleset.ONE_YEAR_WAR).exists()
    assert UnitType.objects.filter(ruleset=Ruleset.COMBINED_ARMS).exists()
    assert "The sample cards are loaded:" in loaded.text
    assert reverse("library:load") not in loaded.text  # loaded, the button is gone


def test_a_force_page_says_its_rulesets_cards_are_missing_and_links_the_library(
    client, django_user_model
):
    from campaign.services import campaign_create, force_create

    gm = django_user_model.objects.create_user("newgm")
    campaign = campaign_create(name="Frost", gm=gm, ruleset=Ruleset.ONE_YEAR_WAR)
    force = force_create(campaign=campaign, owner=gm, name="Alpha", actor=gm)
    client.force_login(gm)
    url = reverse("campaign:force", args=[campaign.pk, force.pk])
    page = client.get(url).text
    assert "The card library holds no One Year War cards yet" in page
    assert f'<a href="{reverse("library:list")}">the card library</a>' in page
    library_load()
    assert "holds no One Year War cards" not in client.get(url).text


def test_it_renders_the_rules_documents(client, cards, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    rules = client.get(reverse("library:document", args=["rules"])).text
    assert "<h1" in rules and "<table aria-labelledby=" in rules
    assert 'id="4-rulings-added-by-the-engine"' in rules
    assert 'href="#4-rulings-added-by-the-engine"' in rules
    campaign = client.get(reverse("library:document", args=["campaign"])).text
    assert "<h2" in campaign


def test_the_nav_links_the_library_and_the_rules(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    page = client.get(reverse("home")).text
    assert f'href="{reverse("library:list")}"' in page
    # "Rules" is the players' rules card; the rules documents are linked from it.
    assert f'href="{reverse("campaign:rules-card")}"' in page
    card = client.get(reverse("campaign:rules-card")).text
    assert f'href="{reverse("library:document", args=["rules"])}"' in card
    # The documents a reader opens from it show the rules without their tests, so the links
    # promise the rules, not "each tied to its test", and speak to players, not developers.
    assert "Every rule and ruling, in full:" in card
    assert "its test" not in card and "developers" not in card


# --- the Markdown renderer ---------------------------------------------------------------------


def test_markdown_escapes_everything_and_passes_no_html_through():
    doc = render(
        "# Title <b>x</b>\n\n"
        "A <script>alert(1)</script> & a `<code>` and **bold <i>**.\n\n"
        "| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | `x \\| y` |\n\n"
        '[bad](javascript:alert(1)) [worse](" onmouseover="x) [ok](https://example.org/)'
        " [a path](tests/x.py)\n\n"
        "```\n<div>kept as text</div>\n```\n"
    ).html
    assert "<script" not in doc and "<img" not in doc and "<b>" not in doc and "<i>" not in doc
    assert "&lt;script&gt;" in doc
    assert "javascript:" not in doc.replace("javascript:alert(1)", "")  # never an href
    assert 'href="javascript' not in doc
    assert "onmouseover=" not in doc.replace("&quot; onmouseover=&quot;", "")
    assert '<a href="https://example.org/">ok</a>' in doc
    assert " a path</p>" in doc and "tests/x.py" not in doc  # a path keeps its words only
    assert "&lt;div&gt;kept as text&lt;/div&gt;" in doc
    assert "<code>x | y</code>" in doc
    assert "<strong>bold &lt;i&gt;</strong>" in doc


def test_markdown_renders_the_shapes_the_documents_use():
    doc = render(
        "# One\n\n## Two `code`\n\ntext *em* and _em_ here\nwrapped\n\n"
        "- a\n- b\n  - nested\n\n1. first\n2. second\n\n> quoted\n\n---\n\n## Two `code`\n"
    )
    html = doc.html
    assert doc.title == "One"
    assert '<h2 id="two-code">Two <code>code</code></h2>' in html
    assert 'id="two-code-1"' in html
    assert "<p>text <em>em</em> and <em>em</em> here\nwrapped</p>" in html
    assert "<ul>\n<li>a</li>\n<li>b\n<ul>\n<li>nested</li>\n</ul>\n</li>\n</ul>" in html
    assert "<ol>\n<li>first</li>\n<li>second</li>\n</ol>" in html
    assert "<blockquote>\n<p>quoted</p>\n</blockquote>" in html
    assert "<hr />" in html
    assert [(h.level, h.text, h.id) for h in doc.headings] == [
        (1, "One", "one"),
        (2, "Two code", "two-code"),
        (2, "Two code", "two-code-1"),
    ]
    assert slug("1. Team Bravo: Combined Arms") == "1-team-bravo-combined-arms"


def test_markdown_makes_a_wide_table_labelled_rows_and_leaves_a_narrow_one():
    html = render(
        "| quality | Raw | Green | Average |\n|---|--:|--:|--:|\n"
        "| modifier | \u22126 | \u22124 | 0 |\n\n"
        "| Sentence | In the engine |\n|---|---|\n| A table. | 24 by 24. |\n"
    ).html
    wide, narrow = html.split("</table>")[:2]
    assert 'class="stack"' in wide and 'class="stack"' not in narrow
    assert '<th scope="row">modifier</th>' in wide
    assert 'data-label="Raw">\u22126</td>' in wide and 'data-label="Average">0</td>' in wide
    assert "<td>A table.</td>" in narrow and "data-label" not in narrow


def test_markdown_renders_both_documents_without_raw_tags():
    for name in ("rules.md", "campaign.md"):
        html = render((DOCS / name).read_text()).html
        assert "<script" not in html
        assert html.count("<table ") == html.count("</table>") > 0


# --- 400, 404, 403, 500, favicon, expired sessions ----------------------------------------------


@override_settings(DEBUG=False)
def test_a_request_that_cannot_be_read_gets_the_sites_400_page(client):
    # Over the site's field limit: refused whole, saying so in words, in the site's own dress.
    fields = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1
    body = "&".join(f"f{i}=x" for i in range(fields))  # short: under the body limit
    response = client.post(reverse("login"), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "That could not be read" in response.text and "Nothing was saved" in response.text
    assert "bridgehead.css" in response.text


def test_a_failure_on_our_side_gets_the_sites_500_page(rf):
    from django.views.defaults import server_error

    response = server_error(rf.get("/"))
    assert response.status_code == 500
    text = response.content.decode()
    assert "Something went wrong on our side" in text and "Nothing was half-saved" in text
    assert "bridgehead.css" in text


@override_settings(DEBUG=False)
def test_the_404_page_is_the_sites_own(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Nothing here" in response.text
    assert "bridgehead.css" in response.text
    # The same bytes for a hidden campaign as for a missing page: nothing tells them apart.
    again = client.get("/campaigns/999999/")
    assert again.status_code == 404 and again.content == response.content


@override_settings(DEBUG=False)
def test_the_403_page_is_the_sites_own(client, world):
    login(client, world, "player")
    url = reverse("campaign:advance", args=[world.campaign.pk])
    response = client.post(url, {"days": "1"})
    assert response.status_code == 403
    assert "Not allowed" in response.text
    assert "Only the campaign&#x27;s GM may do that." in response.text


@override_settings(DEBUG=False)
def test_the_403_page_ends_the_reason_with_one_full_stop(rf, world):
    """A reason given with its full stop, or without one, reads with exactly one."""
    from django.core.exceptions import PermissionDenied
    from django.views.defaults import permission_denied

    request = rf.get("/")
    request.user = world.users["player"]
    for reason in ("Under fog of war you see this battle's outcome only.",
                   "under fog of war you see this battle's outcome only"):  # fmt: skip
        text = permission_denied(request, PermissionDenied(reason)).content.decode()
        assert "outcome only. You are logged in as player" in text, reason
        assert "only.." not in text


def test_the_favicon_is_linked_and_served(client):
    page = client.get(reverse("home")).text
    assert 'rel="icon"' in page and "favicon.svg" in page
    from django.contrib.staticfiles import finders

    assert finders.find("bridgehead/favicon.svg")


def test_an_expired_htmx_request_is_sent_to_log_in_as_a_whole_page(client, world):
    page = reverse("campaign:battle", args=[world.campaign.pk, world.engine_battle.pk])
    progress = reverse("campaign:battle-progress", args=[world.campaign.pk, world.engine_battle.pk])
    response = client.get(
        progress, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=f"http://testserver{page}?kind=move"
    )
    assert response.status_code == 200
    assert response.content == b""
    assert response["HX-Redirect"] == reverse("login") + "?next=" + page.replace("/", "%2F") + (
        "%3Fkind%3Dmove"
    )
    # A page from elsewhere is not where the login sends anyone back to.
    response = client.get(
        progress, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="https://evil.example/x"
    )
    assert response["HX-Redirect"] == reverse("login") + "?next=" + progress.replace("/", "%2F")
    # Without htmx: the plain redirect.
    assert client.get(progress).status_code == 302


def test_a_logged_in_htmx_redirect_is_left_alone(client, world):
    login(client, world, "gm")
    url = reverse("campaign:battle-progress", args=[world.campaign.pk, world.engine_battle.pk])
    response = client.get(url)  # not htmx: the progress URL redirects to the page
    assert response.status_code == 302
    response = client.post(
        reverse("campaign:advance", args=[world.campaign.pk]), {"days": "1"}, **HTMX
    )
    assert "HX-Redirect" in response
    assert "login" not in response["HX-Redirect"]


# --- 405 and /favicon.ico ----------------------------------------------------------------------


def test_a_405_is_the_sites_error_page_saying_what_the_address_takes(client, world):
    login(client, world, "gm")
    url = reverse("campaign:advance", args=[world.campaign.pk])
    response = client.put(url)
    assert response.status_code == 405
    assert response["Allow"] == "GET, POST"
    assert "Not this way" in response.text and "bridgehead.css" in response.text
    assert (
        "This address is a page to open, and takes only the forms sent from it; open it and use "
        "its buttons instead."
    ) in response.text
    # A POST-only address, asked with GET, as a browser following a link does.
    response = client.get(reverse("logout"))
    assert response.status_code == 405
    assert (
        "This address takes a form sent from its page; open the page and use its button instead."
    ) in response.text
    # Words a user knows: pages, forms and buttons, never HTTP's methods.
    for word in ("GET", "POST", "PUT", "request"):
        assert word not in response.text.split("<main")[1], word


def test_a_form_only_address_opened_as_a_page_leads_to_the_page_of_its_form(client, world):
    """As after logging in again, when the site brings its user back to the form they sent:
    the 405 page links the page above, where the form is, for every form-only address of a
    campaign (two of them sit under another form's address: one more step)."""
    from tests.web.test_campaign_access import ROUTES

    login(client, world, "gm")
    order = reverse("campaign:order-give", args=[world.campaign.pk])
    response = client.get(order)
    assert response.status_code == 405
    orders = reverse("campaign:orders", args=[world.campaign.pk])
    assert f'<a class="button primary" href="{orders}">Open the page it belongs to</a>' in (
        response.text
    )
    steps = {}
    for route in ROUTES:
        url = route.url(world)
        if route.method != "post" or client.get(url).status_code != 405:
            continue
        for step in (1, 2):
            found = re.search(r'<a class="button primary" href="([^"]+)">Open the page it belongs '
                              r"to</a>", client.get(url).text)  # fmt: skip
            assert found, url
            url = found[1]
            if client.get(url).status_code == 200:
                steps[route.label] = step
                break
    assert len(steps) >= 30 and set(steps.values()) == {1, 2}
    assert [label for label, step in steps.items() if step == 2] == [
        "withdraw an invitation",
        "detach a leader",
    ]
    # A wrong method that is no page opened (a form sent to a page's address) gets no button.
    response = client.put(reverse("campaign:advance", args=[world.campaign.pk]))
    assert "Open the page it belongs to" not in response.text


def test_a_stale_form_gets_the_sites_page_with_the_way_back_and_does_nothing(world):
    """A form sent from a page opened before its user logged in or out elsewhere: its token no
    longer matches. Django's own page would speak of CSRF cookies; the site's says what
    happened in words and leads back to the form's page; under htmx the page reloads."""
    from django.test import Client

    from campaign.models import Order

    client = login(Client(enforce_csrf_checks=True), world, "gm")
    orders = reverse("campaign:orders", args=[world.campaign.pk])
    give = reverse("campaign:order-give", args=[world.campaign.pk])
    response = client.post(give, {"kind": "attack"}, HTTP_REFERER=f"http://testserver{orders}")
    assert response.status_code == 403
    text = response.text
    assert "Send the form again" in text and "This form had gone stale" in text
    assert (
        f'<a class="button primary" href="http://testserver{orders}">Open its page again</a>'
        in text
    )
    assert "bridgehead.css" in text and "CSRF" not in text.split("<main", 1)[1]  # in words
    assert 'title="Your account">gm</a>' in text  # still logged in, and told so
    # A page of another site is no way back: the page above the form's address is.
    response = client.post(give, {}, HTTP_REFERER="https://elsewhere.example/")
    assert f'href="{orders}">Open its page again</a>' in response.text
    # Under htmx the page is loaded afresh, and says why.
    response = client.post(give, {}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and response["HX-Refresh"] == "true"
    assert "This form had gone stale" in client.get(orders).text
    assert not Order.objects.exists()


def test_what_to_do_instead_in_words():
    from config.errors import what_to_do

    assert what_to_do("GET, HEAD") == (
        "This address is a page to open, not one a form is sent to; open it and use the buttons "
        "on it instead."
    )
    assert what_to_do("POST").startswith("This address takes a form sent from its page")
    assert what_to_do("GET, HEAD, POST, OPTIONS") == what_to_do("POST, GET")
    assert what_to_do("") == (
        "This address cannot be used this way; go back to the page you came from."
    )


def test_favicon_ico_leads_to_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/bridgehead/favicon.svg"
