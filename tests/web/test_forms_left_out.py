"""The units a form does not offer, said under it with why: a battle's set-up, a table result,
an engagement, a skill check and a contest name each unit left out, a sentence per reason
("Destroyed: Spare 2 (Red Company)."), by one rule (`Status.fights`, `pages.left_out.left_out`)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import CampaignBattle, Unit
from campaign.selectors.roster import engaged_units
from campaign.services import unit_edit
from tests.web.campaign_world import login, raise_units
from tests.web.test_campaign_battles import _ready_all, _url
from units.words import and_words

pytestmark = pytest.mark.django_db


def reverse_characters(world) -> str:
    return reverse("campaign:characters", args=[world.campaign.pk])


def reverse_action(world, name: str) -> str:
    return reverse(f"campaign:{name}", args=[world.campaign.pk])


RETREATED = "Retreated in poor order, out of action until R&R rallies them: "


@pytest.fixture
def out(world):
    """Every unit ready, then two spares of Red Company out of action: one retreated, one
    destroyed; the table result awaiting review still holds its units."""
    _ready_all(world)
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    retreated, destroyed = raise_units(world.force, card, 2, prefix="Spare")
    for unit, status in ((retreated, "retreated"), (destroyed, "destroyed")):
        unit_edit(unit=unit, changes={"status": status}, reason="a hard day",
                  actor=world.users["gm"])  # fmt: skip
    held = Unit.objects.filter(pk__in=engaged_units(campaign=world.campaign)).order_by(
        "force__name", "name"
    )
    return [f"{u.name} ({u.force.name})" for u in held]


def _left_out(html: str, form: str = "") -> list[str]:
    """The sentences under the form with this id (else the page's first such list)."""
    if form:
        html = html[html.index(f'id="{form}"') :]
        html = html[: html.index("</form>")]
    box = re.search(r'<div class="left-out small">.*?</ul></div>', html, re.S)
    assert box, "no list of the units left out"
    return re.findall(r"<li>(.*?)</li>", box.group(0))


def _expected(held: list[str]) -> list[str]:
    return [
        f"{RETREATED}Spare 1 (Red Company).",
        "Destroyed: Spare 2 (Red Company).",
        f"Still in Skirmish at the mill, whose outcome is not applied yet: {' and '.join(held)}.",
    ]


@pytest.mark.parametrize("page", ["battle-record", "battle-setup"])
def test_a_battles_forms_name_every_unit_left_out_and_why(client, world, out, page):
    html = login(client, world, "gm").get(_url(page, world)).content.decode()
    assert _left_out(html) == [line.replace("&", "&amp;") for line in _expected(out)]
    for name in ("Spare 1", "Spare 2"):
        spare = Unit.objects.get(force=world.force, name=name)
        assert f'name="side_{spare.pk}"' not in html


@pytest.mark.parametrize("page", ["battle-record", "battle-setup"])
def test_a_battles_form_leads_the_gm_to_the_review_that_frees_its_units(client, world, out, page):
    """Units left out as still in a battle awaiting review: the GM is shown the way to free
    them, a link to that battle's review and apply."""
    battle = CampaignBattle.objects.get(campaign=world.campaign, state="awaiting")
    html = login(client, world, "gm").get(_url(page, world)).content.decode()
    apply = reverse("campaign:battle-apply", args=[world.campaign.pk, battle.pk])
    assert (
        "A unit still in a battle fights again once its outcome is applied: "
        f'<a href="{apply}">review and apply {battle.name}</a>.'
    ) in html


def test_the_engagement_form_names_every_unit_left_out_and_offers_none_of_them(client, world, out):
    client = login(client, world, "gm")
    page = client.get(_url("engagement-setup", world))
    html = page.content.decode()
    assert _left_out(html, "engagement-form") == [
        line.replace("&", "&amp;") for line in _expected(out)
    ]
    form = page.context["form"]
    held = engaged_units(campaign=world.campaign)
    offered = {u.pk for u in form.units}
    assert offered and not offered & set(held)
    assert all(u.status == "ready" for u in form.units)
    # A page drawn before that battle began, still offering a unit in it: refused above the
    # form in the service's words, not fought without it.
    pk = next(iter(held))
    other = next(u for u in form.units if u.force_id != Unit.objects.get(pk=pk).force_id)
    data = {f"side_{pk}": "attackers", f"side_{other.pk}": "defenders", "terrain": "open",
            "round_limit": "1", "name": "A stale page"}  # fmt: skip
    refused = client.post(_url("engagement-setup", world), data)
    assert refused.status_code == 400
    assert "whose outcome is not applied yet" in " ".join(
        refused.context["form"].non_field_errors()
    )


def test_the_skill_check_and_contest_forms_name_every_unit_left_out(client, world, out):
    html = login(client, world, "gm").get(_url("checks", world)).content.decode()
    # A check is made by any ready unit, in a battle still to be applied or not.
    wanted = [line.replace("&", "&amp;") for line in _expected(out)[:2]]
    for form in ("skill-form", "contest-form"):
        assert _left_out(html, form) == wanted, form
    # The Requisition raises a unit: it leaves no unit out, and says nothing.
    requisition = html[html.index('id="requisition-form"') :]
    assert "left-out" not in requisition[: requisition.index("</form>")]


def test_the_join_training_and_rally_forms_name_every_unit_left_out_and_why(client, world):
    """The Characters page's forms offer only the units that may take a leader, train or be
    rallied; each names those it leaves out, a sentence per reason, so a GM looking for one
    learns why it is not there."""
    from campaign.services.characters import character_create, character_rally
    from tests.web.test_table_pages import _table_units

    destroyed, retreated, ready = _table_units(world)
    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            feats=["strategist"], actor=gm)  # fmt: skip
    login(client, world, "gm")
    url = reverse_characters(world)
    client.post(reverse_action(world, "character-join"), {"character": holt.pk, "unit": ready.pk})
    unit_edit(unit=ready, changes={"in_combat_zone": True, "morale_hits": 1}, reason="sent in",
              actor=gm)  # fmt: skip
    html = client.get(url).content.decode()
    label = {u.pk: f"{u.name} ({u.force.name})" for u in (destroyed, retreated, ready)}
    reserves = Unit.objects.filter(force__campaign=world.campaign, status="destroyed")
    dead = and_words(
        [f"{u.name} ({u.force.name})" for u in reserves.order_by("force__name", "name")]
    )
    assert sorted(_left_out(html, "join-form")) == [
        f"Destroyed: {dead}.",
        f"Led by a living character already: {label[ready.pk]}.",
    ]
    assert sorted(_left_out(html, "train-form")) == [
        f"Destroyed: {dead}.",
        f"In the combat zone, where no unit trains: {label[ready.pk]}.",
        f"{RETREATED}{label[retreated.pk]}.".replace("&", "&amp;"),
    ]
    assert sorted(_left_out(html, "rally-form")) == [
        f"Destroyed: {dead}.",
        f"In the combat zone with one Morale hit, which only R&amp;R heals: {label[ready.pk]}.",
    ]
    # Each choice says what to choose, not a row of dashes (the rally's one Strategist is
    # chosen already: `test_a_characters_form_with_one_character_to_offer_starts_on_it`).
    assert "---------" not in html
    for form, field, words in (("join-form", "unit", "Choose a unit"),
                               ("rally-form", "character", "Choose a character")):  # fmt: skip
        box = html[html.index(f'id="{form}"') :]
        assert re.search(
            rf'<select name="{field}"[^>]*>\s*<option value=""( selected)?>{words}<', box
        )
    character_rally(character=holt, unit=retreated, actor=gm)
    html = client.get(url).content.decode()
    assert (
        f"A Morale hit healed by a Strategist today already: {label[retreated.pk]}."
        in _left_out(html, "rally-form")
    )


def test_the_training_form_says_a_raw_unit_is_made_green_by_battle_not_training(client, world):
    """Training lifts no Raw unit (its next step, Green, is not one training reaches): the
    form says so, not that training stops at Experienced, which a Raw unit is far below."""
    from tests.web.test_table_pages import _table_units

    _, _, ready = _table_units(world)
    unit_edit(unit=ready, changes={"quality": "raw", "specialties": []}, reason="green hands",
              actor=world.users["gm"])  # fmt: skip
    html = login(client, world, "gm").get(reverse_characters(world)).content.decode()
    raw = f"Raw, made Green by battle, not by training: {ready.name} ({ready.force.name})."
    assert raw in _left_out(html, "train-form")
    assert "Raw: training raises a unit to Experienced at most" not in html


def test_the_quick_resolve_form_names_every_unit_left_out_and_why(client, world, out):
    html = login(client, world, "gm").get(reverse_action(world, "dashboard")).content.decode()
    assert _left_out(html, "quick-form") == [
        line.replace("&", "&amp;") for line in _expected(out)[:2]
    ]


def test_many_units_left_out_alike_are_counted_by_force_not_named(client, world):
    from tests.web.paging import fill_forces

    fill_forces(world, 8)
    Unit.objects.filter(force__campaign=world.campaign).update(morale_hits=0)
    html = login(client, world, "gm").get(reverse_characters(world)).content.decode()
    counts = {
        force.name: Unit.objects.filter(force=force).exclude(status="destroyed").count()
        for force in (world.enemy, world.force)
    }
    said = [line for line in _left_out(html, "rally-form") if line.startswith("No Morale")]
    assert said == [
        "No Morale hits to heal (Casualty hits are the medics&#x27; work): "
        f"{sum(counts.values())} units ({counts[world.enemy.name]} of {world.enemy.name} and "
        f"{counts[world.force.name]} of {world.force.name})."
    ]
    assert "Red 01" not in said[0]
