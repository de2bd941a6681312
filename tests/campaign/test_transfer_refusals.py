"""What an import refuses, writing nothing: a bad field, named by its path, and every bad field at
once; a file that is no export of ours, told so in one sentence; a unit state the rules never leave,
or a history that does not explain it; Casualty hits never due; a map the engine refuses; and what
the database would not give back; a unit's number refused says what it was and what is allowed."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.jsontext import read_json
from campaign.models import Campaign, Force, HistoryEntry, Membership, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import clock_hour
from campaign.services import (
    calendar_advance,
    campaign_create,
    campaign_import,
    force_import,
    outcome_apply,
)
from campaign.transfer.export import campaign_export, force_export
from tests.campaign.test_transfer_round_trip import SCENARIOS
from units.words import possessive, value_shown


def counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Campaign, Membership, Force, Unit, HistoryEntry))


BAD_FIELDS = [
    (("forces", 1, "units", 0, "quality"), "veteran", "forces[1].units[0].quality"),
    (("forces", 0, "units", 0, "morale_hits"), -1, "forces[0].units[0].morale_hits"),
    (("forces", 0, "units", 0, "unit_type"), "Zeppelin", "forces[0].units[0].unit_type"),
    (("forces", 0, "owner"), "outsider", "forces[0].owner"),
    (("campaign", "ruleset"), "chess", "campaign.ruleset"),
    (("campaign", "members", 0, "role"), "king", "campaign.members[0].role"),
    (("story", 0, "kind"), "coup", "story[0].kind"),
    (("story", 0, "day"), 3, "story[0].day"),
    (("story", 0, "text"), " ", "story[0].text"),
    (("story", 0, "created_at"), "yesterday", "story[0].created_at"),
    (("forces", 0, "units", 0, "history", 1, "kind"), "x", "forces[0].units[0].history[1].kind"),
    (("forces", 0, "units", 0, "specialties"), ["armor"], "forces[0].units[0].specialties"),
]


@pytest.mark.parametrize(("path", "value", "named"), BAD_FIELDS, ids=[b[2] for b in BAD_FIELDS])
def test_an_import_with_one_bad_field_writes_nothing_and_names_it(played, path, value, named):
    data = copy.deepcopy(campaign_export(campaign=played))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert named in refused.value.message_dict
    assert counts() == before


def test_an_entry_reverting_itself_or_dated_day_0_is_refused_in_words_writing_nothing(played):
    data = copy.deepcopy(campaign_export(campaign=played))
    history = data["forces"][0]["units"][0]["history"]
    reverting = next(k for k, entry in enumerate(history) if entry["reverts"] is not None)
    history[reverting]["reverts"] = reverting
    history[1]["day"] = 0
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    said = refused.value.message_dict
    at = "forces[0].units[0].history"
    assert said[f"{at}[{reverting}].reverts"] == ["must be the index of an earlier entry"]
    assert said[f"{at}[1].day"] == ["must be a campaign day, 1..2"]
    assert counts() == before


def test_a_medical_window_from_the_next_days_first_hour_is_refused_writing_nothing(
    campaign, make_unit
):
    unit = make_unit("Atlas", "Mech", specialties=("mechanized",))
    outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(1, 0)}, reason="A", seed=1)
    data = json.loads(json.dumps(campaign_export(campaign=campaign)))
    (atlas,) = [u for f in data["forces"] for u in f["units"]]
    assert atlas["window_from"] is not None and atlas["window_fights"]
    atlas["window_from"] = clock_hour(2, 0)  # the campaign stands on day 1
    atlas["window_fights"][0]["at"] = clock_hour(2, 0)
    data["campaign"]["name"] = "Op. Test, from the future"
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    at = "forces[0].units[0]"
    assert refused.value.message_dict == {
        f"{at}.window_from": ["after the campaign's day 1"],
        f"{at}.window_fights[0].at": ["after the campaign's day 1"],
    }
    assert counts() == before


def test_an_import_listing_its_gm_as_a_member_too_is_refused_writing_nothing(played):
    data = copy.deepcopy(campaign_export(campaign=played))
    members = data["campaign"]["members"]
    members.append({"user": "gm", "role": "player"})
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict == {
        f"campaign.members[{len(members) - 1}].user": ["the GM is not also a member"]
    }
    assert counts() == before


def test_an_export_of_another_version_is_refused_writing_nothing(played):
    data = copy.deepcopy(campaign_export(campaign=played))
    data["version"] = 2
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict == {"version": ["this site reads version 1, got 2"]}
    assert counts() == before


def test_an_import_refuses_a_history_that_does_not_explain_the_unit(played):
    data = campaign_export(campaign=played)
    data["forces"][1]["units"][0]["morale_hits"] = 0
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    (message,) = refused.value.message_dict["forces[1].units[0].history"]
    assert message.startswith("does not explain morale_hits")


def test_an_import_reports_every_bad_field_at_once(played):
    data = campaign_export(campaign=played)
    data["campaign"]["day"] = 0
    data["forces"][0]["units"][0]["status"] = "fled"
    data["forces"][1]["units"][0]["extra"] = 1
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert set(refused.value.message_dict) >= {
        "campaign.day",
        "forces[0].units[0].status",
        "forces[1].units[0].extra",
    }


@pytest.mark.parametrize("day", [0, -3, "2", 2.5, True])
def test_a_bad_campaign_day_is_the_one_problem_named(played, day):
    # Everything dated in the file is read against no day at all rather than day 1: the
    # campaign's own day is what is wrong, not every later entry, unit, story and Order.
    data = campaign_export(campaign=played)
    assert played.day > 1
    data["campaign"]["day"] = day
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict == {
        "campaign.day": [
            f"must be the campaign's day, a whole number from 1, got {value_shown(day)}"
        ]
    }


@pytest.mark.parametrize(
    "data", [None, [], {"format": "bridgehead.force", "version": 1}, {"format": "x", "version": 9}]
)
def test_an_import_refuses_what_is_not_an_export(db, data):
    with pytest.raises(ValidationError):
        campaign_import(data=data)


@pytest.mark.parametrize("data", [None, [], {}, {"not": 1}, {"format": "x", "version": 1}])
def test_a_file_that_is_no_export_of_ours_is_told_so_in_one_sentence(played, data):
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict == {
        "__all__": [
            'This is not a Bridgehead campaign export (it has no "format": '
            '"bridgehead.campaign" field).'
        ]
    }
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=played, data=data)
    assert refused.value.messages == [
        'This is not a Bridgehead force export (it has no "format": "bridgehead.force" field).'
    ]
    # One of ours of the other kind says which it is.
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=force_export(force=played.forces.first()))
    assert refused.value.messages == ["This is a Bridgehead force export, not a campaign export."]
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=played, data=campaign_export(campaign=played))
    assert refused.value.messages == ["This is a Bridgehead campaign export, not a force export."]
    assert counts() == before


IMPOSSIBLE = [
    # Casualty hits with no window (never saved, never dead). The unit is an Average rifle
    # squad; the campaign stands at day 2, 00:00.
    (
        {"casualty_hits": 3, "morale_hits": 2, "window_from": None, "last_battle_day": None},
        {
            "casualty_hits": "Blue Rifles carries Casualty hits with no medical window (no battle "
            "nor correction opened one): they would never be saved nor die",
        },
    ),
    # Retreated, yet in the combat zone, where it would never rally.
    (
        {"morale_hits": 1, "status": "retreated", "in_combat_zone": True},
        {
            "in_combat_zone": "Blue Rifles retreated in poor order: it has left the combat zone, "
            "and goes back in once it has rallied"
        },
    ),
    # Casualty hits from its battle on day 1, 00:00, on day 3: their 24 hours are over.
    (
        {"casualty_hits": 1, "day": 3},
        {
            "casualty_hits": "Blue Rifles carries Casualty hits whose medical window closed at "
            "day 2, 00:00: those the medics did not save died then, and a unit never carries old "
            "Casualty hits"
        },
    ),
    # As many experience points as an Average unit's next step needs: the last of them would
    # have raised it to Experienced.
    (
        {"experience": 4},
        {
            "experience": "Blue Rifles is Average: at 4 experience points it rises to "
            "Experienced, so it holds at most 3 as Average; to raise it, set its quality too."
        },
    ),
]


@pytest.mark.parametrize(("changes", "named"), IMPOSSIBLE)
def test_an_import_refuses_a_unit_state_the_rules_never_leave(played, changes, named):
    data = campaign_export(campaign=played)
    data["campaign"]["name"] = "Hand-edited"
    data["campaign"]["day"] = changes.pop("day", data["campaign"]["day"])
    unit = data["forces"][0]["units"][0]
    del unit["history"]  # no history to explain it: the state alone is judged
    unit.update(changes)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict == {
        f"forces[0].units[0].{field}": [why] for field, why in named.items()
    }
    assert counts() == before


def test_a_force_import_refuses_casualty_hits_never_due(played):
    data = force_export(force=played.forces.get(name="Blue Battalion"))
    data["force"]["name"] = "Blue Battalion, again"
    unit = data["force"]["units"][0]
    del unit["history"]
    unit.update(casualty_hits=3, morale_hits=2, window_from=None, last_battle_day=None)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=played, data=data)
    assert set(refused.value.message_dict) == {"force.units[0].casualty_hits"}
    assert counts() == before
    # As the rules leave it, retreated with its hits awaiting the medics, it is imported.
    unit.update(status="retreated", in_combat_zone=False, window_from=clock_hour(2, 0))
    imported = force_import(campaign=played, data=data).units.get()
    assert (imported.status, imported.casualty_hits) == ("retreated", 3)


def test_a_force_awaiting_the_medics_is_refused_by_a_campaign_on_an_earlier_day(
    campaign, force, make_unit, cast
):
    unit = make_unit("Atlas", "Mech", specialties=("mechanized",))
    calendar_advance(campaign=campaign, days=2)
    outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(1, 0)}, reason="A", seed=1)
    unit.refresh_from_db()
    assert (unit.casualty_hits, unit.last_battle_day) == (1, 3)
    data = force_export(force=force)
    other = campaign_create(name="Sequel", gm=cast.gm, ruleset="combined_arms")
    before = counts()
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=other, data=data, owner=cast.gm)
    said = refused.value.message_dict
    assert said["force.units[0].last_battle_day"] == ["after the campaign's day 1"]
    assert said["force.units[0].window_from"] == ["after the campaign's day 1"]
    assert counts() == before


def test_a_force_keeps_to_its_ruleset(played, cast):
    exported = force_export(force=played.forces.get(name="Red Company"))
    other = campaign_create(name="Space", gm=cast.gm, ruleset="one_year_war")
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=other, data=exported, owner=cast.gm)
    assert "ruleset" in refused.value.message_dict
    assert not other.forces.exists()


def test_an_import_refuses_a_map_the_engine_refuses_naming_the_piece(played):
    data = campaign_export(campaign=played)
    scenario = json.loads((SCENARIOS / "crossroads.json").read_text())
    scenario["terrain"][0]["polygon"] = [[0, 0], [1, 1]]
    data["maps"] = [{"name": "Broken", "scenario": scenario}]
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert "maps[0].scenario.terrain[0].polygon" in refused.value.message_dict
    assert counts() == before


def _entry(data):
    return data["forces"][0]["units"][0]["history"][0]


UNREADABLE = [
    # Year 1 at +14:00 is year 0 in UTC: the database keeps it, nothing reads it back.
    (lambda d: _entry(d).update(created_at="0001-01-01T00:00:00+14:00"), "history[0].created_at"),
    (lambda d: _entry(d).update(created_at="9999-12-31T23:00:00-14:00"), "history[0].created_at"),
    (lambda d: _entry(d).update(created_at="2026-05-01T19:30:00"), "history[0].created_at"),
    (lambda d: _entry(d)["details"].update(x=float("nan")), "history[0].details.x"),
    (lambda d: _entry(d).update(text="half a pair \ud83d"), "history[0].text"),
    (lambda d: _entry(d).update(text="nul \x00"), "history[0].text"),
]


@pytest.mark.parametrize(("spoil", "named"), UNREADABLE, ids=[str(i) for i in range(6)])
def test_an_import_refuses_what_the_database_would_not_give_back(played, spoil, named):
    data = campaign_export(campaign=played)
    spoil(data)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert f"forces[0].units[0].{named}" in refused.value.message_dict
    assert counts() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [("quick_resolve_rounds", 99), ("quick_resolve_rounds", "5"), ("fog_of_war", "yes")],
)
def test_an_import_refuses_settings_the_table_would_refuse(played, field, value):
    data = campaign_export(campaign=played)
    data["campaign"][field] = value
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert f"campaign.{field}" in refused.value.message_dict
    assert counts() == before


def test_an_import_refuses_a_day_no_database_column_holds(played):
    data = campaign_export(campaign=played)
    data["campaign"]["day"] = 2**31
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert "campaign.day" in refused.value.message_dict


def test_the_earliest_time_that_reads_back_is_imported_and_read(played, client):
    data = campaign_export(campaign=played)
    _entry(data)["created_at"] = "0001-01-01T00:00:00+00:00"
    data["campaign"]["name"] = "Ancient"
    imported = campaign_import(data=data)
    unit = Unit.objects.filter(force__campaign=imported).order_by("id").first()
    assert unit.history.order_by("id")[0].created_at.year == 1
    client.force_login(imported.gm)
    for url in (
        reverse("campaign:unit", args=[imported.pk, unit.pk]),
        reverse("campaign:unit-json", args=[imported.pk, unit.pk]),
        reverse("campaign:export", args=[imported.pk]),
    ):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty"),
        ("{1", "the file is not JSON: expecting property name enclosed in double quotes at line 1"),
        ('{"a": NaN}', "NaN is not a number JSON allows"),
        (b"\xff\xfe", "the file is not UTF-8 text"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused_in_plain_words(text, message):
    with pytest.raises(ValueError, match=message):
        read_json(text)


@pytest.mark.parametrize(
    ("value", "shown"),
    [(-5, "−5"), (1_000_001, "1,000,001"), ("5", 'the text "5"'), (None, "empty (null)"),
     (2.5, "2.5"), (True, "true"), ([3], "a list")],
)  # fmt: skip
def test_a_units_number_refused_says_what_it_was_and_what_is_allowed(played, value, shown):
    data = campaign_export(campaign=played)
    data["campaign"]["name"] = "Hand-edited"
    unit = data["forces"][0]["units"][0]
    unit["experience"] = value
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict["forces[0].units[0].experience"] == [
        f"{possessive(unit['name'])} experience must be a whole number from 0 to 1,000,000, "
        f"not {shown}"
    ]


def test_a_refusal_names_a_unit_ending_in_s_with_the_apostrophe_alone(played):
    data = campaign_export(campaign=played)
    data["campaign"]["name"] = "Hand-edited"
    unit = data["forces"][0]["units"][0]
    unit["name"], unit["experience"] = "Sappers", -5
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict["forces[0].units[0].experience"] == [
        "Sappers' experience must be a whole number from 0 to 1,000,000, not −5"
    ]
