"""The history's words for a unit's experience and a name's possessive, as pages print them
(`campaign.rules.history`)."""

from __future__ import annotations

from campaign.rules.history import changes_text, experience_text, story_text, undone_text
from units.words import possessive


def test_experience_left_as_it_was_is_said_without_its_points_before():
    assert experience_text({"experience": 2}, {"experience": 2}, "green") == (
        "has 2 of the 2 experience points it needs to rise to Inexperienced"
    )


def test_experience_lost_at_the_same_quality_is_held_with_its_points_before_not_begun_again():
    before, after = {"experience": 2, "quality": "green"}, {"experience": 1, "quality": "green"}
    assert experience_text(before, after) == (
        "has 1 (2 before) of the 2 experience points it needs to rise to Inexperienced"
    )


def test_a_name_ending_in_a_capital_s_takes_the_apostrophe_alone():
    assert possessive("SAPPERS") == "SAPPERS'"
    assert possessive("Iron Wolf") == "Iron Wolf's"


def test_a_destroyed_units_story_says_it_was_destroyed_not_the_experience_it_kept():
    before = {"status": "ready", "experience": 1, "quality": "green"}
    after = {"status": "destroyed", "experience": 3}
    unit = {"status": "destroyed", "quality": "green", "experience": 3}
    assert story_text(before, after, unit) == "was destroyed"
    assert story_text(before, after, unit, headlines=False) == ""


def test_a_leaders_hit_points_left_as_they_were_say_no_up_or_down():
    reyes = {"name": "Lt. Reyes", "hit_points": 9, "alive": True}
    assert story_text({"leader": reyes}, {"leader": dict(reyes)}, {}) == (
        "Lt. Reyes is at 9 hit points"
    )
    assert story_text({"leader": reyes}, {"leader": {**reyes, "hit_points": 12}}, {}, 14) == (
        "Lt. Reyes is at 12 of 14 hit points, up from 9"
    )


def test_skill_lost_is_told_only_when_more_is_lost():
    assert story_text({"skill_lost": 2}, {"skill_lost": 2}, {}) == ""
    assert story_text({"skill_lost": 1}, {"skill_lost": 2}, {}) == (
        "lost 1 point of Skill to suppression for good, 2 in all"
    )


def test_an_engagement_saved_under_its_default_name_is_undone_by_its_units_alone():
    assert undone_text("engagement", 2, "engagement", "engagement, Squad 1 against Iron Wolf") == (
        "the engagement of day 2, Squad 1 against Iron Wolf, is undone"
    )
    assert undone_text(
        "experience", 2, "engagement", "Quick resolve, Squad 1 against Iron Wolf"
    ) == ("the experience from the engagement of day 2, Squad 1 against Iron Wolf, is undone")


def test_a_fight_kept_in_the_medics_window_earning_its_points_is_told_as_experience_alone():
    before = {"experience": 1, "window_fights": [{"day": 1}]}
    after = {"experience": 3, "window_fights": [{"day": 1, "points": 2}]}
    assert changes_text(before, after) == "experience 1 → 3"
    assert changes_text({"window_fights": []}, {"window_fights": [{"day": 1}]}) == (
        "fights kept in the medics' 24 hours 0 → 1"
    )


def test_a_change_says_whether_the_unit_is_in_the_combat_zone_and_a_unit_with_no_specialty_none():
    assert changes_text({"in_combat_zone": True}, {"in_combat_zone": False}) == (
        "in the combat zone yes → no"
    )
    assert changes_text({"specialties": ["infantry"]}, {"specialties": []}) == (
        "specialties Infantry → none"
    )
