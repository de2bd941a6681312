"""A unit's history says each thing once, and why its experience fell when it falls."""

from __future__ import annotations

import html
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.pages.history_words import without_repeats
from campaign.rules.history import story_text
from campaign.services.leaders import leader_attach
from tests.web.campaign_world import login
from units.bucs import Quality

pytestmark = pytest.mark.django_db


def test_a_reason_said_again_by_what_it_did_is_said_once():
    assert without_repeats("retreated in poor order", "retreated in poor order") == (
        "retreated in poor order",
        "",
    )
    assert without_repeats("Cpl. Nox takes command", "Cpl. Nox takes command (8 hit points)") == (
        "Cpl. Nox takes command (8 hit points)",
        "",
    )
    # An engagement's reason says a unit was destroyed as "; destroyed".
    engagement = "Patrol clash at the ford: took 1 Morale hit and 1 Casualty hit; destroyed"
    assert without_repeats(engagement, "was destroyed") == (engagement, "")
    assert without_repeats("took 2 hits", "was destroyed") == ("took 2 hits", "was destroyed")
    assert without_repeats("took 2 hits", "now carries 1 Morale hit and 1 Casualty hit") == (
        "took 2 hits",
        "now carries 1 Morale hit and 1 Casualty hit",
    )


def test_the_unit_page_says_a_leader_takes_command_once(client, world):
    leader_attach(unit=world.unit, name="Cpl. Nox", hit_points=8, actor=world.users["gm"])
    page = login(client, world, "player").get(
        reverse("campaign:unit", args=[world.campaign.pk, world.unit.pk])
    )
    assert page.text.count("Cpl. Nox takes command") == 1
    assert "Cpl. Nox takes command (8 hit points)." in page.text


def test_experience_that_falls_says_why():
    fell = story_text(
        {"quality": "average", "experience": 2}, {"quality": "green", "experience": 1}, {}
    )
    assert fell == (
        "fell from Average to Green; has 1 (2 before) of the 2 experience points it needs to "
        "rise to Inexperienced"
    )
    rose = story_text(
        {"quality": "green", "experience": 2}, {"quality": "inexperienced", "experience": 0}, {}
    )
    assert "starts again with 0 of the 3 experience points it needs to rise to Average" in rose
    # Where it stands toward its next step is said only where its quality is known; Legendary
    # has none above it.
    assert story_text({}, {"experience": 2}, {}) == "has 2 experience points"
    assert story_text({}, {"experience": 2}, {"quality": "legendary"}) == (
        "has 2 experience points, at Legendary, the top step"
    )


def test_a_step_up_that_leaves_the_points_as_they_were_still_says_where_they_stand():
    """Green at 1 of 2 earns 2: it rises to Inexperienced with 1 point left over, the same
    number as before, so the entry's fields hold no experience; its sentence still says it."""
    rose = story_text({"quality": "green"}, {"quality": "inexperienced"}, {"experience": 1})
    assert rose == (
        "rose from Green to Inexperienced; has 1 of the 3 experience points it needs to rise to "
        "Average"
    )
    # A fall keeps its words: the points it caps are in its fields when they change.
    assert story_text({"quality": "average"}, {"quality": "green"}, {"experience": 1}) == (
        "fell from Average to Green"
    )


def test_an_engagement_named_by_its_units_opens_its_line_with_a_capital(client, world):
    """An engagement the GM did not name is named by its units ("engagement, Squad 1 against
    Iron Wolf"): on the unit's page that name opens the line, so it starts with a capital."""
    from campaign.services import unit_create
    from campaign.services.engagements import engagement_run

    card = world.unit.unit_type
    pickets, raiders = (
        unit_create(force=force, unit_type=card, name=name, specialties=["infantry"])
        for force, name in ((world.force, "Pickets"), (world.enemy_unit.force, "Raiders"))
    )
    engagement_run(campaign=world.campaign, sides={"attackers": [pickets],
                   "defenders": [raiders]}, seed=1, round_limit=1,
                   actor=world.users["gm"])  # fmt: skip
    page = login(client, world, "player").get(
        reverse("campaign:unit", args=[world.campaign.pk, pickets.pk])
    )
    text = page.content.decode()
    assert ">Engagement, Pickets against Raiders</a>:" in text
    assert ">engagement, Pickets" not in text

    # A unit out of action is refused in the sentence's own words, not its status's label.
    with pytest.raises(ValidationError) as refused:
        engagement_run(campaign=world.campaign, sides={"attackers": [world.unit],
                       "defenders": [raiders]}, seed=1, actor=world.users["gm"])  # fmt: skip
    assert refused.value.message_dict["attackers"] == [
        "Squad 1 is retreated in poor order: it cannot fight"
    ]


def test_a_change_still_ahead_is_told_in_the_present_and_one_done_in_the_past():
    """The review before the clock moves on tells what will happen (``ahead``), a history
    what did: the same sentence, only its tense changed."""
    before = {
        "status": "retreated",
        "quality": "average",
        "skill_lost": 1,
        "leader": {"name": "Capt. Hero", "hit_points": 3, "alive": True},
    }
    after = {
        "status": "ready",
        "quality": "green",
        "skill_lost": 2,
        "leader": {"name": "Capt. Hero", "hit_points": -13, "alive": False},
    }
    assert story_text(before, after, {}) == (
        "rallied; fell from Average to Green; Capt. Hero was killed; lost 1 point of Skill to "
        "suppression for good, 2 in all"
    )
    assert story_text(before, after, {}, ahead=True) == (
        "rallies; falls from Average to Green; Capt. Hero is killed; loses 1 point of Skill to "
        "suppression for good, 2 in all"
    )
    gone = {"status": "destroyed"}
    assert story_text({"status": "ready"}, gone, {}) == "was destroyed"
    assert story_text({"status": "ready"}, gone, {}, ahead=True) == "is destroyed"
    broken = {"status": "retreated"}
    assert story_text({"status": "ready"}, broken, {}) == "retreated in poor order"
    assert story_text({"status": "ready"}, broken, {}, ahead=True) == "retreats in poor order"
    risen = story_text({"quality": "green"}, {"quality": "inexperienced"}, {}, ahead=True)
    assert risen == "rises from Green to Inexperienced"


def test_the_timeline_says_where_the_points_of_a_step_up_that_left_them_as_they_were_stand(
    client, world
):
    """Its promotion line on the timeline stopped at "rose from Green to Inexperienced at
    Skirmish" where another's went on "starts again with 0 of the 3 …": the points left as
    they were are said too."""
    from campaign.models import CampaignBattle
    from campaign.services import unit_create, unit_edit
    from campaign.services.battles import campaign_battle_apply, campaign_battle_record

    gm = world.users["gm"]
    card = world.unit.unit_type
    ours = unit_create(force=world.force, unit_type=card, name="Keen", quality="green",
                       specialties=["infantry"])  # fmt: skip
    unit_edit(unit=ours, changes={"experience": 1}, reason="records", actor=gm)
    theirs = unit_create(force=world.enemy, unit_type=card, name="Slow", specialties=["infantry"])
    battle = campaign_battle_record(
        campaign=world.campaign, name="Skirmish", winner="attackers",
        sides={"attackers": [ours], "defenders": [theirs]},
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (ours, theirs)},
        actor=gm,
    )  # fmt: skip
    if battle.state != CampaignBattle.State.APPLIED:
        campaign_battle_apply(campaign_battle=battle, actor=gm)
    ours.refresh_from_db()
    assert (Quality(ours.quality), ours.experience) == (Quality.INEXPERIENCED, 1)
    page = login(client, world, "gm").get(reverse("campaign:timeline", args=[world.campaign.pk]))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.unescape(page.text)))
    assert (
        "Keen (Red Company) rose from Green to Inexperienced at Skirmish; has 1 of the 3 "
        "experience points it needs to rise to Average"
    ) in text, text
