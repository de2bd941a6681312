"""The dashboard and a force's roster: the day, forces, battles and what needs attention; the roster
sorted by a query and swapped alone under htmx, numbered squads in order and the destroyed last;
each unit's card as its printable card prints it, where the engine's differs, with room for its
lines and labelled cells on a phone; BUCS and hit boxes told in words; and every page with a skip
link, no inline scripts, the campaign clock and data links that say who they are for."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Campaign, Unit
from campaign.services import unit_create, unit_edit
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


HTMX = {"HTTP_HX_REQUEST": "true"}


def _words(html: str) -> str:
    """A page's words without its tags (the roster keeps each item of a card in a span)."""
    return re.sub(r"<[^>]+>", "", html)


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_it_shows_the_dashboard_with_day_forces_battles_and_what_needs_attention(client, world):
    unit = Unit.objects.filter(force=world.force, status="ready").first() or world.unit
    unit_edit(unit=unit, changes={"status": "retreated"}, reason="routed", actor=world.users["gm"])
    page = login(client, world, "player").get(_url("dashboard", world)).text
    assert f"Day <strong>{world.campaign.day}</strong>" in page
    assert "Red Company" in page and "Blue Battalion" in page
    assert "Skirmish at the mill" in page and "Red Company won" in page
    assert "Crossroads" in page
    # An outcome awaiting review is the GM's to do, never a player's or a spectator's.
    assert "Skirmish at the mill" in page and "awaiting the GM's review" not in page
    watching = login(client, world, "spectator").get(_url("dashboard", world)).text
    assert "awaiting the GM's review" not in watching and "no outcome awaits review" not in (
        watching
    )
    assert f"{unit.name}</a> (Red Company): Retreated in poor order" in page
    assert "Advance the calendar" not in page, "a player has no GM panel"
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    assert "Advance the calendar" in page
    # When the dead die, as `recovery.time_passes` has it: past the 24 hours, not at midnight.
    assert (
        "Each midnight is a day of R&amp;R. Casualty hits the medics have not saved die once the "
        "clock is past the 24 hours after their fight." in page
    )


def test_it_prints_each_units_next_battle_card_on_the_roster(client, world, django_user_model):
    unit_edit(
        unit=world.unit,
        changes={"status": "ready", "quality": "experienced", "morale_hits": 0, "casualty_hits": 0},
        reason="test",
        actor=world.users["gm"],
    )
    response = login(client, world, "player").get(_url("force", world, world.force.pk))
    lines = {line.unit.pk: line for line in response.context["lines"]}
    # The card a real table prints, without Orders: Experienced, the card's Skill 3 + 0; a
    # battle fought by the engine gives it the standing Order's column, + 1, and says so.
    assert lines[world.unit.pk].card["skill"] == 3
    assert lines[world.unit.pk].engine_card["skill"] == 4
    assert "Skill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1" in _words(response.text)
    assert "In a battle fought by the engine: Skill 4, not 3" in response.text
    assert "Infantry" in response.text


def test_it_sorts_the_roster_by_a_query_parameter_and_swaps_only_the_table_under_htmx(
    client, world, settings
):
    settings.PAGE_CACHE_SECONDS = 0  # every fetch drawn afresh, so each has its context
    login(client, world, "gm")
    url = _url("force", world, world.force.pk)
    for sort in ("quality", "-quality", "experience", "-name", "skill", "casualty"):
        names = [line.unit.name for line in client.get(url, {"sort": sort}).context["lines"]]
        assert len(names) == world.force.units.count()
    by_name = [line.unit.name for line in client.get(url, {"sort": "name"}).context["lines"]]
    backwards = [line.unit.name for line in client.get(url, {"sort": "-name"}).context["lines"]]
    assert by_name == sorted(by_name) and backwards == sorted(by_name, reverse=True)
    assert client.get(url, {"sort": "bogus"}).context["sort"] == "name"
    partial = client.get(url, {"sort": "-quality"}, **HTMX)
    assert partial.status_code == 200
    assert "<table" in partial.text and "<html" not in partial.text
    assert "HX-Request" in partial["Vary"]
    assert 'aria-sort="descending"' in partial.text


def test_a_roster_of_numbered_squads_reads_in_their_numbers_order(client, world, settings):
    # Thirty squads numbered in order: Squad 2 comes after Squad 1, not after Squad 19.
    settings.PAGE_CACHE_SECONDS = 0
    for n in range(3, 13):  # Squads 1 and 2 are there already
        unit_create(force=world.force, unit_type=world.unit.unit_type, name=f"Squad {n}")
    login(client, world, "player")
    url = _url("force", world, world.force.pk)
    numbers = [f"Squad {n}" for n in range(1, 13)]
    for sort, expected in (("name", numbers), ("-name", numbers[::-1])):
        lines = client.get(url, {"sort": sort}).context["lines"]
        assert [ln.unit.name for ln in lines if ln.unit.name.startswith("Squad ")] == expected, sort
    page = client.get(url).text
    assert page.index(">Squad 9<") < page.index(">Squad 10<")


def test_a_name_with_digits_of_any_script_sorts_without_failing():
    from campaign.pages.names import name_order

    # "²" is a digit to str.isdigit but no number to int(); Arabic-Indic digits are numbers.
    names = ["Squad ²", "Squad 10", "Squad ٣", "Squad 2"]
    assert sorted(names, key=name_order) == ["Squad 2", "Squad ٣", "Squad 10", "Squad ²"]


def test_the_destroyed_come_after_every_unit_still_on_the_books_whatever_the_sort(
    client, world, settings
):
    # On a phone the roster is read top down: the units a player can still field come first.
    settings.PAGE_CACHE_SECONDS = 0
    first = min(world.force.units.all(), key=lambda u: u.name.lower())
    unit_edit(unit=first, changes={"status": "destroyed"}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "player")
    url = _url("force", world, world.force.pk)
    for sort in ("name", "-name", "status", "-status", "quality", "-experience"):
        lines = client.get(url, {"sort": sort}).context["lines"]
        gone = [line.unit.status == "destroyed" for line in lines]
        assert gone == sorted(gone) and gone[-1], sort  # the living, then the destroyed
    names = [line.unit.name for line in client.get(url).context["lines"]]
    living = sorted((u.name for u in world.force.units.exclude(pk=first.pk)), key=str.lower)
    assert names == [*living, first.name]


def test_it_shows_another_players_force_only_in_summary_when_the_gm_says_so(client, world):
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    page = login(client, world, "rival").get(_url("force", world, world.force.pk)).text
    assert "only a summary of this force" in page
    assert world.unit.name not in page
    own = client.get(_url("force", world, world.enemy.pk)).text
    assert world.enemy_unit.name in own


def test_it_has_no_inline_scripts_or_handlers(client, world):
    login(client, world, "gm")
    urls = [
        _url("dashboard", world),
        _url("force", world, world.force.pk),
        _url("unit", world, world.unit.pk),
        _url("unit-card", world, world.unit.pk),
        _url("battle-setup", world),
        _url("battle-record", world),
        _url("battle", world, world.engine_battle.pk),
        _url("battle", world, world.table_battle.pk),
    ]
    for url in urls:
        page = client.get(url).text
        assert "<script>" not in page and " onclick=" not in page and " onchange=" not in page


def test_the_roster_and_unit_page_explain_bucs_in_place(client, world):
    login(client, world, "player")
    for url in (_url("force", world, world.force.pk), _url("unit", world, world.unit.pk)):
        page = client.get(url).text
        assert "What these words mean" in page and "Casualty hits</dt>" in page, url
    roster = client.get(_url("force", world, world.force.pk)).text
    assert 'class="pips" role="img"' in roster and "of the" in roster


def test_the_roster_keys_its_hit_boxes_in_words_once(client, world):
    """The boxes beside each status are told in words under the roster, once, not only to a
    screen reader; the rules card says the same words."""
    roster = login(client, world, "player").get(_url("force", world, world.force.pk)).text
    key = (
        '<p class="hit-key">Hit boxes beside each status: <span class="pips" aria-hidden="true">'
        '<span class="pip pip-morale"></span></span> a Morale hit, <span class="pips" '
        'aria-hidden="true"><span class="pip pip-casualty"></span></span> a Casualty hit, '
        '<span class="pips" aria-hidden="true"><span class="pip pip-free"></span></span> a hit '
        "the unit can still take.</p>"
    )
    assert roster.count(key) == 1
    assert roster.index("</table>") < roster.index(key)  # under the roster
    card = client.get(reverse("campaign:rules-card")).text
    assert (
        key.removeprefix('<p class="hit-key">Hit boxes beside each status: ').removesuffix("</p>")
        in card
    )


def test_every_page_has_a_skip_link_and_says_done_in_words(client, world):
    login(client, world, "gm")
    page = client.get(_url("dashboard", world)).text
    assert '<a class="skip-link" href="#main">Skip to the content</a>' in page
    assert '<main id="main"' in page
    response = client.post(_url("unit-zone", world, world.enemy_unit.pk), {"in_combat_zone": "no"})
    done = client.get(response["Location"]).text
    assert '<strong class="notice-word">Done:</strong>' in done  # not by its colour alone


def test_the_roster_shows_the_printed_cards_and_says_where_the_engines_differ(client, world):
    """The force page's roster gives each unit the card its printable card prints, as its
    page does (no standing Order at a table); where a battle fought by the engine would give
    it another card, its row says what changes, in the unit page's words. Sorted by Skill,
    it goes by the printed Skill."""
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    pickets = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    order_give(giver=holt, unit=pickets, kind="attack", actor=gm)
    # Raised after the Pickets: by the engine's card, Skill 3 both, it would follow them.
    sentries = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                           quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    assert (
        'Roster<span class="caption-note"> — each unit\'s card as its printable card prints it. '
        "Skill as a battle at the "
        "table takes it: under Orders with an Order under way, else without Orders"
    ) in page
    assert "as a battle fought by the engine gives them" not in page

    def row(name):
        return page.split(f">{name}</a>", 1)[1].split("</tr>", 1)[0]

    def words(name):
        return _words(row(name))

    assert '<td class="num" data-label="Skill">2</td>' in row(sentries.name)
    assert "Skill 2 · Move 5" in words(sentries.name)
    assert "Skill 3 · Move 5" not in words(sentries.name)
    assert '<br><span class="small">In a battle fought by the engine: Skill 3, not 2</span>' in row(
        sentries.name
    )
    # Under an Order the two agree: one card, nothing said beside it.
    assert '<td class="num" data-label="Skill">3</td>' in row(pickets.name)
    assert "Skill 3 · Move 5" in words(pickets.name)
    assert "In a battle fought by the engine" not in row(pickets.name)
    for sort, first, then in (("skill", sentries, pickets), ("-skill", pickets, sentries)):
        page = client.get(_url("force", world, world.force.pk) + f"?sort={sort}").text
        assert page.index(f">{first.name}</a>") < page.index(f">{then.name}</a>"), sort


def test_the_roster_says_when_the_engines_card_applies_and_says_it_after_the_printed_one(
    client, world
):
    """A player reading the roster between sessions met "In a battle fought by the engine:
    Skill 3, not 2" with nothing saying what the engine is, set between the printed card's
    numbers and its weapons, so the weapons read as the engine's. The caption says that a
    battle set up here is the one the engine fights, and the line comes after the whole
    printed card; a roster whose cards all agree says nothing of it."""
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    sentries = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                           quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    caption = page.split("<caption>", 1)[1].split("</caption>", 1)[0]
    assert (
        "A battle set up here is fought by the engine: where that changes a unit's card, its "
        "row says how, after the card." in caption
    )
    row = page.split(f">{sentries.name}</a>", 1)[1].split("</tr>", 1)[0]
    card = row.split('data-label="Card for the next battle">', 1)[1]
    assert card.index("Rifles —") < card.index("In a battle fought by the engine: Skill 3, not 2")
    # Each under an Order, every card agrees with the engine's: nothing to explain.
    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    for unit in Unit.objects.filter(force=world.force, status="ready"):
        order_give(giver=holt, unit=unit, kind="attack", actor=gm)
    page = client.get(_url("force", world, world.force.pk)).text
    assert "In a battle fought by the engine" not in page
    assert "is fought by the engine" not in page


def test_the_rosters_caption_is_a_title_in_bold_and_its_explanation_in_the_pages_weight(
    client, world
):
    """The roster's caption, a table's bold title, carried the whole of how its cards read
    Skill: on a phone six lines of bold before the first unit. "Roster" keeps the bold; what
    follows is read at the page's own weight."""
    from tests.web.test_dark_mode import STATIC, _rules

    page = login(client, world, "player").get(_url("force", world, world.force.pk)).text
    caption = page.split("<caption>", 1)[1].split("</caption>", 1)[0]
    assert caption.startswith(
        'Roster<span class="caption-note"> — each unit\'s card as its printable card prints it. '
        "Skill as a battle at the table takes it:"
    )
    assert caption.endswith("</span>")
    weights = {
        selector: declared["font-weight"]
        for _, selector, declared in _rules((STATIC / "campaign/campaign.css").read_text())
        if "font-weight" in declared
    }
    assert weights.get(".roster caption .caption-note") == "400"


def test_the_roster_prints_a_cards_melee_keywords_and_terrain_as_its_printable_card_does(
    client, world
):
    """The roster says each unit's card is the one its printable card prints, but it left out
    the card's Melee, Keywords and the terrain it enters: a Mech with Melee 6 read on the
    roster as having none. They follow its weapons, in the printable card's words."""
    from units.cardtext import parse_card
    from units.models import Ruleset, UnitType

    text = (
        "Breacher\nSkill 3 · Move 4 · Resistance 5 · Hits 2 · Size 4\n"
        "Autocannon — Power 5, Range 18\nMelee 6\nKeywords: Breaching\nEnters: woods"
    )
    breacher = UnitType.objects.create(
        name="Breacher", ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.UNIT,
        card=parse_card(text),
    )  # fmt: skip
    unit = unit_create(force=world.force, unit_type=breacher, name="Ram", quality="average",
                       specialties=["mechanized"])  # fmt: skip
    login(client, world, "player")
    card = client.get(_url("unit", world, unit.pk) + "card/").text
    assert "Melee 6" in card and "Keywords: Breaching" in card and "Enters: woods" in card
    page = client.get(_url("force", world, world.force.pk)).text
    row = page.split(">Ram</a>", 1)[1].split("</tr>", 1)[0]
    stats = row.split('data-label="Card for the next battle">', 1)[1]
    assert "Autocannon —" in stats
    assert "<br>Melee 6<br>Keywords: Breaching<br>Enters: woods" in stats
    assert stats.index("Autocannon —") < stats.index("Melee 6")


def test_the_rosters_card_reads_as_the_printable_card_and_breaks_only_between_its_items(
    client, world
):
    """At 1280 px the roster's card broke its stat line anywhere ("· Hits 2 · Size 4" began a
    line), printed "Rifles: Power 2" where the printable card prints "Rifles — Power 2", and on
    a phone its cell was labelled "Next card" under a column headed "Card for the next
    battle". Its lines are the printable card's, each stat kept whole with the dot after it,
    and its label is the column's."""
    sentries = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sentries",
                           quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    printed = client.get(_url("unit-card", world, sentries.pk)).text
    card_text = _words(printed.split('<pre class="card-text">', 1)[1].split("</pre>", 1)[0])
    assert '<th scope="col">Card for the next battle</th>' in page
    assert "Next card" not in page
    row = page.split(">Sentries</a>", 1)[1].split("</tr>", 1)[0]
    cell = row.split('<td class="card-stats" data-label="Card for the next battle">', 1)[1]
    cell = cell.split("</td>", 1)[0].split('<br><span class="small">In a battle', 1)[0]
    stat_line = cell.split("<br>", 1)[0]
    stats = card_text.splitlines()[1].split(" · ")
    assert [s.split()[0] for s in stats] == ["Skill", "Move", "Resistance", "Hits", "Size"]
    kept_whole = re.findall(r'<span class="nowrap">([^<]*)</span>', stat_line)
    assert kept_whole == [f"{item} ·" for item in stats[:-1]] + stats[-1:]
    read = [_words(line) for line in cell.split("<br>")]
    assert read == card_text.splitlines()[1:], (read, card_text)
    assert "Rifles — Power 2, Range 12" in read


def test_each_roster_cell_on_a_phone_is_labelled_as_its_column_is_headed(client, world):
    """On a phone a roster row stacks its cells, each under a label; the Quality cell's said
    "Quality" under a column headed "Quality, equipment, specialties" (its equipment and
    specialties read as the quality's). Every cell's label is its column's heading."""
    login(client, world, "player")
    page = client.get(_url("force", world, world.force.pk)).text
    table = page.split('<table class="roster">', 1)[1].split("</table>", 1)[0]
    head, body = table.split("</thead>", 1)
    headings = [
        " ".join(_words(h).split()).rstrip(" ▲▼")
        for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', head, re.S)
    ]
    first_row = body.split("</tr>", 1)[0]
    labels = re.findall(r'<td [^>]*data-label="([^"]*)"', first_row)
    assert labels == headings[1:], (labels, headings)


def test_a_cards_lines_have_room_on_the_roster_the_unit_page_and_under_the_header():
    """At 1280 px the roster's card column was too narrow for its stat line and its weapons'
    "Power 5, Range 18"; at 820 px a unit's page kept two columns and broke its card's stat
    line at "· Size 1", and the header's "Log out" fell alone under the other links. The
    roster's card column has room for its stat line on two lines on any desktop, and on one
    where the page stops growing; the unit page's first column fits the stat line in the
    card's monospace (about 28rem) and the columns stack below a desktop's width, as the
    roster does; the header's links keep together, under the site's name when they must."""
    from tests.web.test_dark_mode import STATIC, _rules

    campaign = list(_rules((STATIC / "campaign/campaign.css").read_text()))
    card_column = {
        m: d["min-width"]
        for m, s, d in campaign
        if s == ".roster td.card-stats" and "min-width" in d
    }
    assert card_column["@media (min-width: 60.01rem)"] == "16rem"
    assert card_column["@media (min-width: 78rem)"] == "21rem"
    layout = {m: d["grid-template-columns"] for m, s, d in campaign if s == ".unit-layout"}
    assert layout[None] == "minmax(16rem, 29rem) minmax(0, 1fr)"
    assert layout["@media (max-width: 60rem)"] == "1fr"
    site = list(_rules((STATIC / "bridgehead/bridgehead.css").read_text()))
    header = {s: d for m, s, d in site if m is None and s.startswith(".site-header")}
    assert header[".site-header"]["flex-wrap"] == "wrap"
    assert header[".site-header nav"]["display"] == "flex"
    assert header[".site-header nav"]["flex-wrap"] == "wrap"


def test_a_stacked_tables_caption_is_as_wide_as_its_rows_on_a_phone():
    """On a phone a wide table (``table.stack``) is a block of rows: its caption is a block too,
    not a table's caption shrunk to its longest word ("Losses / as / entered")."""
    from tests.web.test_dark_mode import STATIC, _rules

    site = list(_rules((STATIC / "bridgehead/bridgehead.css").read_text()))
    phone = {s: d for m, s, d in site if m == "@media (max-width: 40rem)"}
    assert phone["main table.stack"]["display"] == "block"
    assert phone["table.stack caption"]["display"] == "block"


def test_a_force_page_gives_the_campaign_clock_as_the_other_pages_do(client, world):
    """The medics' day and the Orders under way go by the hour: the force page's heading says
    it, "day 1, 05:00", as the table's pages do."""
    Campaign.objects.filter(pk=world.campaign.pk).update(hour=5)
    page = login(client, world, "player").get(_url("force", world, world.force.pk)).text
    day = Campaign.objects.get(pk=world.campaign.pk).day
    assert f"force · day {day}, 05:00" in page


def test_the_links_to_a_pages_data_say_who_it_is_for_not_only_its_format(client, world):
    """The dashboard's, a force's and a unit's line under the title linked their data as a bare
    "JSON": a player tapping it on a phone met a wall of braces. The link says it is data for
    programs, its format after."""
    login(client, world, "player")
    for page, data in (
        (_url("dashboard", world), _url("campaign-json", world)),
        (_url("force", world, world.force.pk), _url("force-json", world, world.force.pk)),
        (_url("unit", world, world.unit.pk), _url("unit-json", world, world.unit.pk)),
    ):
        html = client.get(page).text
        assert f'<a href="{data}">Data for programs (JSON)</a>' in html, page
        assert ">JSON</a>" not in html, page
