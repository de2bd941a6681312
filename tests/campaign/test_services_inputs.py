"""What the write services read and refuse as given: a campaign's settings checked, the campaign day
read as stored rather than from a stale copy, a text input that is not text refused by its field,
and numbers out of range refused in words — each writing nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Campaign, Force, HistoryEntry, Order, SavedMap, TableRoll
from campaign.rules.damage import UnitOutcome
from campaign.services import (
    campaign_update,
    membership_set,
    outcome_apply,
    outcome_revert,
    unit_create,
)
from campaign.services.characters import character_create, character_heal, character_rally
from campaign.services.checks import contest_run, skill_check_run
from campaign.services.maps import saved_map_create
from campaign.services.orders import clock_advance, order_give
from campaign.services.recovery import calendar_advance, medical_apply

Kind = HistoryEntry.Kind


def test_campaign_settings_are_checked(campaign, cast):
    with pytest.raises(ValidationError, match="not a campaign setting"):
        campaign_update(campaign=campaign, ruleset="one_year_war")
    with pytest.raises(ValidationError) as refused:
        campaign_update(campaign=campaign, apply_mode="sometimes")
    assert "apply_mode" in refused.value.message_dict
    with pytest.raises(ValidationError, match="1_50"):
        campaign_update(campaign=campaign, quick_resolve_rounds=0)
    with pytest.raises(ValidationError, match="GM already"):
        membership_set(campaign=campaign, user=cast.gm, role="player")


def test_the_services_read_the_campaign_day_themselves(campaign, make_unit, enemy, force):
    from campaign.models import Campaign
    from campaign.services import calendar_advance, medical_apply, quick_resolve_run

    red = make_unit("Red Rifles")
    make_unit("Aid Post", specialties=("infantry", "medical"))
    blue = make_unit("Blue Rifles", into=enemy)
    stale = Campaign.objects.get(pk=campaign.pk)
    stale_force = Force.objects.select_related("campaign").get(pk=force.pk)
    calendar_advance(campaign=campaign)  # day 2, through another copy of the campaign
    record = quick_resolve_run(campaign=stale, attacker=red, defender=blue, seed=3, round_limit=1)
    assert record.day == 2
    days = HistoryEntry.objects.filter(pk__in=record.applied_entries).values_list("day", flat=True)
    assert set(days) == {2}
    entries = outcome_apply(
        campaign=stale, outcomes={red.pk: UnitOutcome(0, 0)}, reason="Second Crossing"
    )
    assert {e.day for e in entries} == {2}
    red.refresh_from_db()
    red.casualty_hits, red.last_battle_day = 1, 2
    red.save()
    (saved,) = medical_apply(force=stale_force, reason="aid post")
    assert saved.day == 2


def test_a_unit_raised_or_a_force_imported_is_dated_by_the_campaign_day_as_stored(
    campaign, force, cards
):
    from campaign.services import force_import
    from campaign.transfer.export import force_export

    stale_force = Force.objects.select_related("campaign").get(pk=force.pk)
    stale = Campaign.objects.get(pk=campaign.pk)
    calendar_advance(campaign=campaign, days=3)  # day 4, through another copy of the campaign
    late = unit_create(force=stale_force, unit_type=cards["Rifle Squad"], name="Late")
    assert late.history.get(kind=Kind.CREATED).day == 4
    data = force_export(force=force)
    data["force"] = {**data["force"], "name": "Reserve"}
    for unit in data["force"]["units"]:
        del unit["history"]  # an export without history: imported as of the day it arrives
    reserve = force_import(campaign=stale, data=data)
    assert {e.day for e in HistoryEntry.objects.filter(unit__force=reserve)} == {4}


TEXT_INPUTS = {
    "outcome_revert": (
        lambda w: outcome_revert(entries=list(w["unit"].history.all()[:1]), reason=None),
        "reason",
    ),
    "order_give": (
        lambda w: order_give(giver=w["holt"], unit=w["unit"], kind="attack", note=None),
        "note",
    ),
    "character_heal": (
        lambda w: character_heal(character=w["holt"], hit_points=1, reason=None),
        "reason",
    ),
    "character_rally": (
        lambda w: character_rally(character=w["holt"], unit=w["unit"], reason=5),
        "reason",
    ),
    "skill_check_run": (
        lambda w: skill_check_run(campaign=w["campaign"], units=[w["unit"]], dc=10, reason=None),
        "reason",
    ),
    "contest_run": (
        lambda w: contest_run(
            campaign=w["campaign"], active=[w["unit"]], resisting=[w["foe"]], reason=None
        ),
        "reason",
    ),
    "medical_apply": (lambda w: medical_apply(force=w["unit"].force, reason=None), "reason"),
    "calendar_advance": (
        lambda w: calendar_advance(campaign=w["campaign"], days=1, reason=None),
        "reason",
    ),
    "clock_advance": (
        lambda w: clock_advance(campaign=w["campaign"], hours=1, reason=None),
        "reason",
    ),
    "saved_map_create": (
        lambda w: saved_map_create(campaign=w["campaign"], name=None, text="{}"),
        "name",
    ),
}


@pytest.mark.parametrize("service", TEXT_INPUTS)
def test_a_text_input_that_is_not_text_is_refused_by_field_and_writes_nothing(
    campaign, make_unit, enemy, service
):
    # A name, a reason or a note is text: anything else is the field's refusal, not a crash
    # half-way through the service.
    world = {
        "campaign": campaign,
        "unit": make_unit("A"),
        "foe": make_unit("B", into=enemy),
        "holt": character_create(
            campaign=campaign, name="Holt", hit_points=10, feats=["strategist"]
        ),
    }
    written = [HistoryEntry, Order, TableRoll, SavedMap]
    before = [model.objects.count() for model in written]
    clock = Campaign.objects.values_list("day", "hour").get(pk=campaign.pk)
    call, field = TEXT_INPUTS[service]
    with pytest.raises(ValidationError) as refused:
        call(world)
    assert refused.value.message_dict[field][0].startswith("must be text, got ")
    assert [model.objects.count() for model in written] == before
    assert Campaign.objects.values_list("day", "hour").get(pk=campaign.pk) == clock


def test_numbers_out_of_range_are_refused_in_words(campaign, make_unit):
    from campaign.services import units_raise
    from campaign.services.characters import character_create, character_heal
    from campaign.services.checks import skill_check_run
    from campaign.services.engagements import engagement_run
    from campaign.services.orders import clock_advance, order_give
    from campaign.services.quick import quick_resolve_run

    squad, foe = make_unit(), make_unit("Foes")
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    calls = [
        (calendar_advance, {"campaign": campaign, "days": 0}, "days",
         "The calendar moves on 1 to 365 days at a time, not 0."),
        (clock_advance, {"campaign": campaign, "hours": 0}, "hours",
         "The clock moves on 1 to 8760 hours at a time, not 0."),
        (units_raise, {"force": squad.force, "unit_type": squad.unit_type, "name": "R",
                       "count": 0}, "count", "1 to 20 units are raised at once, not 0."),
        (character_create, {"campaign": campaign, "name": "Kay", "hit_points": 0}, "hit_points",
         "A new character has 1 to 999 hit points, not 0."),
        (character_heal, {"character": holt, "hit_points": 0}, "hit_points",
         "A heal gives back 1 to 999 hit points, not 0."),
        (order_give, {"giver": holt, "unit": squad, "kind": "use_skill", "listed_hours": 0},
         "listed_hours", "A skill's time is 1 to 240 hours, not 0."),
        (skill_check_run, {"campaign": campaign, "units": [squad], "dc": 0}, "dc",
         "The DC is 1 to 60, not 0."),
        (quick_resolve_run, {"campaign": campaign, "attacker": squad, "defender": foe,
                             "round_limit": 0}, "round_limit",
         "The round limit is 1 to 50 rounds, not 0."),
        (engagement_run, {"campaign": campaign, "sides": {"attackers": [squad],
                          "defenders": [foe]}, "round_limit": 0}, "round_limit",
         "The round limit is 1 to 50 rounds, not 0."),
    ]  # fmt: skip
    for service, arguments, field, words in calls:
        with pytest.raises(ValidationError) as refused:
            service(**arguments)
        assert refused.value.message_dict[field] == [words], service.__name__
