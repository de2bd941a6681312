"""Smaller page words: who may train or rally, one form for hit points, a way to log out from
a page not found, the username on the phone."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.urls import reverse

from campaign.rules.history import took_name, took_text
from campaign.services.characters import character_create
from campaign.services.leaders import leader_attach
from tests.web.campaign_world import login, raise_units

pytestmark = pytest.mark.django_db


def test_trainer_and_strategist_offer_only_characters_who_can(client, world):
    gm = world.users["gm"]
    strategist = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                                  feats=["strategist"], actor=gm)  # fmt: skip
    plain = character_create(campaign=world.campaign, name="Pvt. Bloggs", hit_points=8, actor=gm)
    page = login(client, world, "gm").get(reverse("campaign:characters", args=[world.campaign.pk]))
    train = page.context["train_form"].fields["character"].queryset
    rally = page.context["rally_form"].fields["character"].queryset
    assert strategist in rally and plain not in rally
    assert plain not in train


def test_a_leaders_hit_points_read_as_a_characters_do(client, world):
    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    leader_attach(unit=world.unit, character=holt, actor=gm)
    login(client, world, "gm")
    unit = client.get(reverse("campaign:unit", args=[world.campaign.pk, world.unit.pk])).text
    characters = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    assert "Capt. Holt, 12 of 12 hit points" in unit
    assert "12 of 12 hit points" in characters


def test_a_dead_character_reads_dead_not_its_hit_points_on_every_page(client, world):
    """The dead's hit points mean nothing to the table: the Characters page says "dead", as the
    unit's page and its printable card say of a fallen leader; the living keep their number."""
    from campaign.models import Character, Leader

    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    character_create(campaign=world.campaign, name="Pvt. Bloggs", hit_points=8, actor=gm)
    leader_attach(unit=world.unit, character=holt, actor=gm)
    Character.objects.filter(pk=holt.pk).update(hit_points=-22, alive=False)
    Leader.objects.filter(unit=world.unit).update(hit_points=-22, alive=False)
    login(client, world, "gm")
    characters = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    cells = re.findall(r'data-label="Hit points">([^<]*)</td>', characters)
    assert sorted(cells) == ["8 of 8 hit points", "dead"]
    assert "22 hit points" not in characters
    unit = client.get(reverse("campaign:unit", args=[world.campaign.pk, world.unit.pk])).text
    card = client.get(reverse("campaign:unit-card", args=[world.campaign.pk, world.unit.pk])).text
    assert "Capt. Holt, dead" in unit and "Capt. Holt (dead)" in card
    assert "22 hit points" not in unit + card


def test_a_wounded_leader_reads_as_d20_modern_says_with_a_real_minus(client, world):
    """At 0 hit points a leader is disabled, below it dying, at −10 dead: each page that shows
    a leader's hit points says which, and prints a negative number with a minus sign."""
    from campaign.models import Leader
    from campaign.pages.changes import Change
    from campaign.rules.history import changes_text, hit_points_text
    from campaign.rules.state import CampaignUnitState, LeaderState
    from units.bucs import Quality

    assert hit_points_text(9, most=12) == "9 of 12 hit points"
    assert hit_points_text(0) == "0 hit points, disabled"
    assert hit_points_text(-6) == "\u22126 hit points, dying"
    assert hit_points_text(-10) == "\u221210 hit points, dead"
    gm = world.users["gm"]
    leader_attach(unit=world.unit, name="Capt. Mara Holt", hit_points=9, actor=gm)
    Leader.objects.filter(unit=world.unit).update(hit_points=-6)
    login(client, world, "gm")
    for page in ("unit", "unit-card"):
        text = client.get(reverse(f"campaign:{page}", args=[world.campaign.pk, world.unit.pk])).text
        assert "Capt. Mara Holt, \u22126 hit points, dying" in text or (
            "Capt. Mara Holt (\u22126 hit points, dying)" in text
        ), page
        assert "-6 hit points" not in text, page
    # A review's before and after, and the history's words for it.
    before = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE,
                               leader=LeaderState("Capt. Mara Holt", 9))  # fmt: skip
    after = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE,
                              leader=LeaderState("Capt. Mara Holt", 0))  # fmt: skip
    cells = {what: (b, a) for what, b, a, _ in Change(world.unit, before, after).cells()}
    assert cells["Leader"] == (
        "Capt. Mara Holt, 9 hit points",
        "Capt. Mara Holt, 0 hit points, disabled",
    )
    assert changes_text({"leader": before.leader.to_json()}, {"leader": {
        "name": "Capt. Mara Holt", "hit_points": -6, "alive": True}}) == (
        "leader Capt. Mara Holt (9 hit points) \u2192 Capt. Mara Holt (\u22126 hit points, dying)"
    )  # fmt: skip


def test_a_page_not_found_offers_a_way_to_log_out(client, world):
    login(client, world, "player")
    missing = client.get("/campaigns/999999/")
    assert missing.status_code == 404
    confirm = reverse("logout-confirm")
    assert f'href="{confirm}">Log out</a>' in missing.text
    page = client.get(confirm)
    assert page.status_code == 200 and 'action="/accounts/logout/"' in page.text


def test_a_page_not_found_has_the_top_bar_of_every_other_page(client, world):
    """A reader who meets a 404 finds the top bar they know: the same places, "Rules" the
    players' rules card (not the engine's rules document), their name their account."""
    login(client, world, "player")

    def top_bar(page: str) -> list[tuple[str, str]]:
        nav = re.search(r'<nav aria-label="Site">(.*?)</nav>', page, re.S).group(1)
        return re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav)

    missing = client.get("/campaigns/999999/")
    assert missing.status_code == 404
    found = client.get(reverse("campaign:list"))
    # Each page's log-out is its own: a form here, the link to the page with the button there.
    assert top_bar(missing.text) == [*top_bar(found.text), (reverse("logout-confirm"), "Log out")]
    assert (reverse("campaign:rules-card"), "Rules") in top_bar(missing.text)


def test_a_page_not_found_or_too_large_has_the_skip_link_of_every_other_page(client, world):
    """A keyboard reader who meets a 404 or a 413 can skip the top bar as on any other page."""
    login(client, world, "player")

    def skip_link(page: str) -> str:
        return re.search(r'<a class="skip-link"[^>]*>[^<]+</a>', page).group(0)

    found = client.get(reverse("campaign:list")).text
    missing = client.get("/campaigns/999999/")
    too_large = client.post(reverse("login"), data=b"", content_type="text/plain",
                            CONTENT_LENGTH=str(10**7))  # fmt: skip
    assert (missing.status_code, too_large.status_code) == (404, 413)
    for page in (missing.text, too_large.text):
        assert skip_link(page) == skip_link(found)
        assert '<main id="main" tabindex="-1">' in page


def test_a_page_not_found_asks_to_be_added_only_to_a_campaign_the_reader_is_not_in(client, world):
    """A member who opens a battle that is gone is not told to ask to be added to their own
    campaign: the one answer, the same to everyone, says whom that asking is for."""
    login(client, world, "spectator")
    url = reverse("campaign:battle", args=[world.campaign.pk, 999999])
    missing = client.get(url)
    assert missing.status_code == 404
    page = html.unescape(missing.text)
    assert "If someone sent you a link to a campaign you are not in, ask its GM to add you." in page
    assert "a link to a campaign, ask" not in page


def test_the_phone_header_keeps_the_username():
    css = Path(__file__).resolve().parents[2] / "campaign/static/bridgehead/bridgehead.css"
    assert ".site-header nav > span { display: none; }" not in css.read_text()


def test_a_roster_column_heading_wraps_between_words_never_inside_one():
    """Sort links in the roster's head are not broken anywhere, as the linked names in its
    rows are ("Sk ill", "Experien ce" at 1280 pixels): they keep whole words."""
    css = Path(__file__).resolve().parents[2] / "campaign/static/campaign/campaign.css"
    rules = re.findall(r"\.roster thead a \{([^}]*)\}", css.read_text())
    assert any("overflow-wrap: normal" in rule for rule in rules)


def test_a_fights_entry_says_hit_beside_one_casualty_hit():
    assert took_text("Mill ford", 2, 1) == "Mill ford: took 2 Morale hits and 1 Casualty hit"
    assert took_text("Mill ford", 1, 3) == "Mill ford: took 1 Morale hit and 3 Casualty hits"
    # The fight's name is read back from the entry whatever the count.
    assert took_name(took_text("Mill ford", 0, 1) + " — 1 of 2 Hits lost") == "Mill ford"


def test_a_fights_entry_says_only_the_kinds_of_hit_it_took(client, world):
    """A fight that dealt hits of one kind says only those ("took 1 Casualty hit", never "took
    0 Morale, 1 Casualty hit"); an entry saved in the old words reads on the pages as one
    written now does, its fight still named by it."""
    from campaign.models import HistoryEntry
    from campaign.rules.history import told_why

    assert took_text("Mill ford", 0, 1) == "Mill ford: took 1 Casualty hit"
    assert took_text("Mill ford", 0, 3) == "Mill ford: took 3 Casualty hits"
    assert took_text("Mill ford", 1, 0) == "Mill ford: took 1 Morale hit"
    assert took_text("Mill ford", 2, 0) == "Mill ford: took 2 Morale hits"
    for old, now in (
        ("Mill ford: took 0 Morale, 1 Casualty hit", "Mill ford: took 1 Casualty hit"),
        ("Mill ford: took 2 Morale, 0 Casualty hits — 1 of 2 Hits lost",
         "Mill ford: took 2 Morale hits — 1 of 2 Hits lost"),
        ("Mill ford: took 0 Morale, 2 Casualty hits; destroyed",
         "Mill ford: took 2 Casualty hits; destroyed"),
        ("Mill ford: took 1 Morale, 1 Casualty hit",
         "Mill ford: took 1 Morale hit and 1 Casualty hit"),
    ):  # fmt: skip
        assert told_why(old, {}, {}) == now
        assert took_name(old) == "Mill ford"
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    HistoryEntry.objects.create(
        unit=squad,
        day=world.campaign.day,
        kind=HistoryEntry.Kind.ENGAGEMENT,
        text="Old ford: took 0 Morale, 1 Casualty hit",
        before={},
        after={},
        details={"name": "Old ford"},
    )
    login(client, world, "gm")
    unit = client.get(reverse("campaign:unit", args=[world.campaign.pk, squad.pk])).text
    assert "Old ford: took 1 Casualty hit" in re.sub(r"\s+", " ", unit)
    assert "0 Morale" not in unit


def test_the_medics_story_saved_in_the_old_words_names_only_the_kinds_each_fight_dealt(
    client, world
):
    """The medics' story of a closing 24 hours saved before it named only the kinds of hit each
    fight or correction dealt ("at Ford; 0 Morale, 5 Casualty; medics saved 0; …") reads on the
    pages as one written now does ("5 Casualty hits"); a fight's working beside it keeps its
    split."""
    from campaign.models import HistoryEntry
    from campaign.rules.history import told_why

    old = (
        "at Ford; 0 Morale, 5 Casualty; GM correction: shelled; 2 Morale, 0 Casualty; Mill; "
        "1 Morale, 2 Casualty; medics saved 1; 5 Casualty hits not saved within 24 hours died"
    )
    assert told_why(old, {}, {}) == (
        "at Ford; 5 Casualty hits; GM correction: shelled; 2 Morale hits; Mill; 1 Morale hit and 2 "
        "Casualty hits; medics saved 1; 5 Casualty hits not saved within 24 hours died"
    )
    working = (
        "Ford: took 1 Casualty hit — its d6 rolled 6 (Casualty on 4 or more): {}; Armor ignored 1 "
        "Casualty hit"
    )
    assert told_why(working.format("0 Morale, 1 Casualty"), {}, {}) == working.format(
        "1 Casualty hit"
    )
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    HistoryEntry.objects.create(
        unit=squad,
        day=world.campaign.day,
        kind=HistoryEntry.Kind.CASUALTIES,
        text="at Old ford; 0 Morale, 5 Casualty; medics saved 0; "
        "5 Casualty hits not saved within 24 hours died",
        before={},
        after={},
    )
    login(client, world, "gm")
    unit = client.get(reverse("campaign:unit", args=[world.campaign.pk, squad.pk])).text
    assert (
        "5 Casualty hits not saved within 24 hours died (at Old ford; 5 Casualty hits; medics "
        "saved 0)"
    ) in re.sub(r"\s+", " ", unit)
    assert "0 Morale" not in unit


def test_a_fights_entry_says_a_unit_it_did_nothing_to_came_through_unhurt():
    assert took_text("Mill ford", 0, 0, unhurt=True) == "Mill ford: came through unhurt"
    # Hits struck but none reached the unit (Armor, say): no "took 0 Morale, 0 Casualty hits".
    assert took_text("Mill ford", 0, 0) == "Mill ford: took no hits"
    # A count is never hidden behind "unhurt".
    assert took_text("Mill ford", 1, 0, unhurt=True) == "Mill ford: took 1 Morale hit"
    # The fight's name is read back from either wording, and from an entry of the old wording.
    for text in (
        "Mill ford: came through unhurt",
        "Mill ford: took no hits; retreated in poor order",
        "Mill ford: took 0 Morale, 0 Casualty hits",
    ):
        assert took_name(text) == "Mill ford"


def test_a_dead_leader_is_said_dead_in_a_history_sentence_and_older_sentences_still_read():
    """A history sentence says a killed leader "dead", not the hit points it died with, as the
    pages beside a name do; a sentence saved when it kept them ("−13 hit points, dead") is still
    read back to its reason. A roll's working keeps its dice and says "dead" after them."""
    from campaign.rules.history import changes_text, revert_text, sentence, told_why
    from campaign.templatetags.working import hit_points_left

    before = {"leader": {"name": "Capt. Hero", "hit_points": 3, "alive": True}}
    after = {"leader": {"name": "Capt. Hero", "hit_points": -13, "alive": False}}
    assert changes_text(before, after) == (
        "leader Capt. Hero (3 hit points) \u2192 Capt. Hero (dead)"
    )
    assert revert_text(after, {}) == "back to led by Capt. Hero (dead)"
    assert told_why(sentence("Ford", before, after), before, after) == "Ford"
    saved = "Ford; leader Capt. Hero (3 hit points) \u2192 Capt. Hero (\u221213 hit points, dead)"
    assert told_why(saved, before, after) == "Ford"
    # The dying keep their number: it says how far from death they lie.
    dying = {"leader": {"name": "Capt. Hero", "hit_points": -6, "alive": True}}
    assert changes_text(before, dying).endswith("(\u22126 hit points, dying)")
    assert hit_points_left(-13, True) == "dead"
    assert hit_points_left(-6, False) == "\u22126 hit points, dying"


def test_a_fight_saved_in_the_old_words_for_a_unit_it_did_nothing_to_reads_unhurt(client, world):
    """An entry saved before "came through unhurt" ("took 0 Morale, 0 Casualty hits — 0 of 2
    Hits lost") reads on the pages as one written now does, its fight still named by it."""
    from campaign.models import HistoryEntry
    from campaign.rules.damage import UnitOutcome
    from campaign.rules.history import UNHURT, told_why
    from campaign.services import outcome_apply

    assert told_why("Mill ford: took 0 Morale, 0 Casualty hits", {}, {}) == (
        "Mill ford: came through unhurt"
    )
    # Hits that did something, or a unit that left the table, are no "unhurt".
    for kept in (
        "Mill ford: took 0 Morale, 0 Casualty hits; destroyed",
        "Mill ford: took 0 Morale, 0 Casualty hits — 1 of 2 Hits lost; Armor ignored 1 "
        "Casualty hit",
    ):
        assert told_why(kept, {}, {}) == kept.replace("0 Morale, 0 Casualty hits", "no hits")
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    outcome_apply(campaign=world.campaign, outcomes={squad.pk: UnitOutcome(0, 0)},
                  reason="Old ford")  # fmt: skip
    entry = squad.history.get(kind=HistoryEntry.Kind.BATTLE)
    assert entry.text.startswith(f"Old ford{UNHURT}; ")
    old = entry.text.replace(UNHURT, ": took 0 Morale, 0 Casualty hits — 0 of 2 Hits lost", 1)
    HistoryEntry.objects.filter(pk=entry.pk).update(text=old)
    assert took_name(old) == "Old ford"
    login(client, world, "gm")
    unit = client.get(reverse("campaign:unit", args=[world.campaign.pk, squad.pk])).text
    assert "Old ford: came through unhurt; is in the combat zone." in re.sub(r"\s+", " ", unit)
    assert "0 Morale, 0 Casualty hits" not in unit and "Hits lost" not in unit
