"""A campaign refusal repeats what it was given as a sentence says it (a name in curly quotes, a
value by what it is) and lists what is allowed by the names the pages show, never as Python
writes them or by the code words the data keeps."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError

from campaign.rules.engagement import terrain_error
from campaign.rules.values import leader_value, parse_field
from campaign.services.campaigns import campaign_hand_over
from campaign.services.characters import character_create
from campaign.services.orders import order_give


@pytest.mark.django_db
def test_an_order_of_no_kind_is_refused_by_the_orders_names(campaign, make_unit):
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=10)
    squad = make_unit("1st Squad")
    with pytest.raises(ValidationError) as refused:
        order_give(giver=holt, unit=squad, kind="defend", listed_hours=True)
    assert refused.value.message_dict == {
        "kind": ["no Order “defend”; one of Attack, Use Skill or Establish Beachhead"],
        "listed_hours": ["A skill's time is a whole number of hours, not true."],
    }


@pytest.mark.django_db
def test_a_gm_may_not_stay_in_a_campaign_handed_on_as_no_role(campaign, cast):
    with pytest.raises(ValidationError) as refused:
        campaign_hand_over(campaign=campaign, to=cast.gm, stay_as=["gm"], with_forces=False,
                           actor=cast.gm)  # fmt: skip
    assert refused.value.message_dict["stay_as"] == [
        "not a role: a list; one of Co-GM, Player or Spectator"
    ]


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("equipment", "shiny",
         "unknown equipment “shiny”; one of “poor”, “barely_adequate”, “adequate”, “good” or "
         "“excellent”"),
        ("equipment", 3, "unknown equipment 3; one of “poor”,"),
        ("specialties", ["cavalry"],
         "unknown specialty “cavalry”; one of “infantry”, “mechanized”,"),
        ("status", "resting",
         "unknown status “resting”; one of “ready”, “retreated” or “destroyed”"),
        ("quality", "superb", "unknown quality “superb”; one of Raw, Green,"),
        ("in_combat_zone", "yes", 'must be true or false, got the text "yes"'),
        ("in_combat_zone", None, "must be true or false, got empty (null)"),
    ],
)  # fmt: skip
def test_a_recorded_fields_refusal_repeats_the_value_and_lists_what_it_takes(field, value, says):
    with pytest.raises(ValueError) as refused:
        parse_field(field, value)
    assert str(refused.value).startswith(says)
    assert "'" not in str(refused.value)


@pytest.mark.parametrize(
    ("field", "bad"), [("equipment", "shiny"), ("specialties", ["cavalry"]), ("status", "resting")]
)
def test_every_word_a_recorded_fields_refusal_lists_is_taken(field, bad):
    """A campaign file's author writes what the refusal lists, so each listed word reads."""
    with pytest.raises(ValueError) as refused:
        parse_field(field, bad)
    listed = re.findall("“([^”]+)”", str(refused.value).split("; one of ", 1)[1])
    assert len(listed) >= 3
    for word in listed:
        parse_field(field, [word] if field == "specialties" else word)


def test_a_leader_and_a_terrain_refused_are_said_in_the_campaigns_words():
    with pytest.raises(ValueError) as refused:
        leader_value({"name": "Holt", "hit_points": 9, "rank": "Capt."})
    assert str(refused.value) == "unknown leader field “rank”"
    assert terrain_error("moon") == (
        "unknown terrain “moon”; one of Open, Amphibious, Arctic, Jungle or Swamp"
    )


def test_a_fight_kept_in_the_medical_window_may_keep_its_name_and_hour_and_no_other_field():
    """A kept fight's name and hour are its own (`WindowFight.name`, `WindowFight.at`), a fight
    kept before fights kept them has none; anything else is refused by the fields a kept fight
    has."""
    fight = {"quality": "green", "experience": 0, "casualty_hits": 1, "skill_lost": 1,
             "found_too_late": 0, "won": False, "broken": True}  # fmt: skip
    (unnamed,) = parse_field("window_fights", [fight])
    assert unnamed.name == ""
    (named,) = parse_field("window_fights", [{**fight, "name": " Battle of the Crossroads "}])
    assert named.name == "Battle of the Crossroads"
    assert named.to_json() == {**fight, "name": "Battle of the Crossroads"}
    assert "name" not in unnamed.to_json()
    (timed,) = parse_field("window_fights", [{**fight, "at": 34}])
    assert (timed.at, unnamed.at) == (34, None)
    assert timed.to_json() == {**fight, "at": 34} and "at" not in unnamed.to_json()
    with pytest.raises(ValueError) as refused:
        parse_field("window_fights", [{**fight, "at": -1}])
    assert str(refused.value).startswith("fight 1: ")
    with pytest.raises(ValueError) as refused:
        parse_field("window_fights", [{**fight, "title": "Crossroads"}])
    assert str(refused.value) == (
        "fight 1 must have exactly quality, experience, casualty_hits, skill_lost, "
        "found_too_late, won, broken, and may have name and at"
    )
    with pytest.raises(ValueError) as refused:
        parse_field("window_fights", [{**fight, "name": 7}])
    assert str(refused.value) == "fight 1: its name must be text, got 7"
