"""Export and import: a campaign or a force as JSON, checked whole before anything is written."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.jsontext import read_json
from campaign.models import Campaign, Force, HistoryEntry, Leader, Membership, Unit
from campaign.pages.medics import medics_left
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import clock_hour
from campaign.selectors.entries import unit_history_explains
from campaign.selectors.reviews import undo_refused
from campaign.services import (
    calendar_advance,
    campaign_create,
    campaign_import,
    campaign_update,
    force_edit,
    force_import,
    medical_apply,
    membership_set,
    outcome_apply,
    outcome_revert,
    unit_edit,
    unit_move,
)
from campaign.services.maps import saved_map_create
from campaign.services.transfer import campaign_import_summary
from campaign.transfer.export import campaign_export, export_text, force_export
from tests.campaign.invited import accept_every_invitation
from units.words import possessive, value_shown

SCENARIOS = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"


@pytest.fixture
def played(campaign, force, enemy, make_unit, cast):
    """A campaign two days in: a battle, a revert, recovery, a leader, a spectator."""
    red = make_unit(
        "Atlas",
        "Mech",
        quality="elite",
        specialties=("mechanized", "armor"),
        leader={"name": "Capt. Holt", "hit_points": 12},
    )
    blue = make_unit("Blue Rifles", into=enemy)
    entries = outcome_apply(
        campaign=campaign,
        outcomes={red.pk: UnitOutcome(3, 1), blue.pk: UnitOutcome(0, 0)},
        winners=[red.pk],
        reason="Ford",
    )
    outcome_revert(entries=[e for e in entries if e.unit_id == blue.pk][-1:], reason="oops")
    calendar_advance(campaign=campaign, days=1)
    membership_set(campaign=campaign, user=cast.outsider, role="spectator")
    campaign.refresh_from_db()
    return campaign


def counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Campaign, Membership, Force, Unit, HistoryEntry))


def test_a_campaign_survives_export_and_import_exactly(played):
    exported = campaign_export(campaign=played)
    exported = json.loads(json.dumps(exported))  # it really is JSON
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    # Its people are invited, not made members: their forces wait with the GM.
    assert not imported.memberships.exists()
    assert set(imported.forces.values_list("owner__username", flat=True)) == {"gm"}
    accept_every_invitation(imported)
    again = campaign_export(campaign=imported)
    assert again == exported
    assert imported.day == 2 and imported.gm == played.gm
    for unit in Unit.objects.filter(force__campaign=imported):
        assert unit_history_explains(unit=unit)
    reverted = HistoryEntry.objects.filter(unit__force__campaign=imported, kind="revert").get()
    assert reverted.reverts.kind == "experience"


def test_a_units_history_keeps_its_order_on_import_whatever_its_times_say(played):
    exported = json.loads(json.dumps(campaign_export(campaign=played)))
    history = exported["forces"][0]["units"][0]["history"]
    assert len(history) >= 3
    history[-1]["created_at"] = history[0]["created_at"]  # written before the entry it follows
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    again = campaign_export(campaign=imported)
    assert again["forces"][0]["units"][0]["history"] == history


def test_a_unit_moved_to_another_force_survives_export_and_import(played, force, enemy):
    atlas = Unit.objects.get(force__campaign=played, name="Atlas")
    unit_move(unit=atlas, force=enemy, reason="detached to the ford")
    exported = json.loads(json.dumps(campaign_export(campaign=played)))
    exported["campaign"]["name"] = "Op. Test, moved"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert campaign_export(campaign=imported) == exported
    moved = Unit.objects.get(force__campaign=imported, name="Atlas")
    assert moved.force.name == enemy.name
    said = f"Moved from {force.name} to {enemy.name} (GM: detached to the ford)"
    assert moved.history.latest("pk").text == said
    assert unit_history_explains(unit=moved)
    # The forces it left and joined are kept by id, which do not travel: the copy's move has
    # no Undo, and is undone by moving the unit back.
    histories = [unit["history"] for each in exported["forces"] for unit in each["units"]]
    assert not any("moved" in entry["details"] for history in histories for entry in history)
    assert undo_refused(moved.history.latest("pk")) == (
        "a move to another force is undone by moving the unit back"
    )


def test_the_medics_work_of_the_day_survives_export_and_import_by_the_unit_treated(
    played, force, make_unit
):
    make_unit("Aid Post", specialties=("infantry", "medical"))  # 2 hits a day
    reserve = make_unit("Reserve")
    unit_edit(unit=reserve, changes={"morale_hits": 2}, reason="shelled in reserve")
    (healed,) = medical_apply(force=force, morale={reserve.pk: 2})
    assert set(healed.details["crews"].values()) == {2}
    exported = json.loads(json.dumps(campaign_export(campaign=played)))
    exported["campaign"]["name"] = "Op. Test, healed"
    imported = campaign_import(data=exported)
    # The crews are named by unit id, which does not travel: the copy's work counts by the
    # force of the unit treated, and leaves its crew nothing more today all the same.
    copy_of = HistoryEntry.objects.get(unit__force__campaign=imported, kind="medical")
    assert "crews" not in copy_of.details
    red = imported.forces.get(name=force.name)
    assert medics_left({force.pk, red.pk}) == {force.pk: 0, red.pk: 0}


def test_the_export_names_users_and_cards_not_database_ids(played):
    exported = campaign_export(campaign=played)
    assert exported["format"] == "bridgehead.campaign" and exported["version"] == 1
    assert exported["campaign"]["gm"] == "gm"
    assert {"user": "outsider", "role": "spectator"} in exported["campaign"]["members"]
    red = exported["forces"][1]
    assert red["owner"] == "player" and red["units"][0]["unit_type"] == "Mech"
    # The leader as the battle left them (its dice are seeded from the units' ids).
    holt = Leader.objects.get(unit__name="Atlas")
    assert red["units"][0]["leader"] == {
        "name": "Capt. Holt",
        "hit_points": holt.hit_points,
        "alive": holt.alive,
    }


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


def test_a_unit_without_history_is_imported_with_a_created_entry(played):
    data = campaign_export(campaign=played)
    del data["forces"][0]["units"][0]["history"]
    data["campaign"]["name"] = "Hand-written"
    imported = campaign_import(data=data)
    unit = Unit.objects.get(force__campaign=imported, name="Blue Rifles")
    (entry,) = unit.history.all()
    assert entry.kind == "created" and entry.text.startswith("imported into Blue Battalion")
    assert unit_history_explains(unit=unit)


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


def test_a_force_moves_into_another_campaign(played, cast):
    exported = force_export(force=played.forces.get(name="Red Company"))
    other = campaign_create(name="Sequel", gm=cast.gm, ruleset="combined_arms")
    with pytest.raises(ValidationError, match="not the GM or a player"):
        force_import(campaign=other, data=exported)
    membership_set(campaign=other, user=cast.player, role="player")
    force = force_import(campaign=other, data=exported)
    assert force.owner == cast.player
    assert [u.name for u in force.units.all()] == ["Atlas"]
    assert force_export(force=force)["force"] == exported["force"]
    with pytest.raises(ValidationError, match="force of this name already"):
        force_import(campaign=other, data=exported, owner=cast.gm)


def test_a_force_keeps_to_its_ruleset(played, cast):
    exported = force_export(force=played.forces.get(name="Red Company"))
    other = campaign_create(name="Space", gm=cast.gm, ruleset="one_year_war")
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=other, data=exported, owner=cast.gm)
    assert "ruleset" in refused.value.message_dict
    assert not other.forces.exists()


def test_the_fog_of_war_setting_survives_export_and_import(played):
    campaign_update(campaign=played, fog_of_war=True, actor=played.gm)
    exported = campaign_export(campaign=played)
    assert exported["campaign"]["fog_of_war"] is True
    exported["campaign"]["name"] = "Fogged, restored"
    assert campaign_import(data=exported).fog_of_war is True


def test_an_export_from_before_fog_of_war_imports_with_it_off(played):
    exported = campaign_export(campaign=played)
    del exported["campaign"]["fog_of_war"]
    exported["campaign"]["name"] = "Older file"
    assert campaign_import(data=exported).fog_of_war is False


def test_an_export_from_before_units_kept_their_medical_window_hour_imports_without_it(played):
    # Such a unit, and every entry of its history, lacks `window_from`: it imports empty (the
    # window then runs from 00:00 of the unit's last battle day) and its history still explains.
    # A window opens only on Casualty hits: one a correction entered, dead since, left one.
    blue = Unit.objects.get(force__campaign=played, name="Blue Rifles")
    unit_edit(unit=blue, changes={"casualty_hits": 1}, reason="ambushed off-table")
    calendar_advance(campaign=played, days=2)
    played.refresh_from_db()
    exported = campaign_export(campaign=played)
    units = [unit for force in exported["forces"] for unit in force["units"]]
    assert any(unit["window_from"] is not None for unit in units)
    for unit in units:
        unit.pop("window_from")
        for entry in unit["history"]:
            entry["before"].pop("window_from", None)
            entry["after"].pop("window_from", None)
    exported["campaign"]["name"] = "Older units"
    imported = campaign_import(data=exported)
    for unit in Unit.objects.filter(force__campaign=imported):
        assert unit.window_from is None and unit_history_explains(unit=unit)
    again = campaign_export(campaign=imported)
    assert [u["last_battle_day"] for f in again["forces"] for u in f["units"]] == [
        u["last_battle_day"] for u in units
    ]


def test_the_fights_a_medical_window_keeps_survive_export_and_import(campaign, make_unit):
    from campaign.services.orders import clock_advance

    unit = make_unit("Atlas", "Mech", quality="inexperienced", specialties=("mechanized",))
    unit_edit(unit=unit, changes={"experience": 2}, reason="earlier skirmishes")
    for hour, (name, hits) in enumerate((("A", 1), ("B", 0), ("C", 0))):
        # Won an hour apart; A's Hit lost is a Casualty hit (seed 1), awaiting the medics.
        outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(hits, 0)}, day=1,
                      hour=hour, winners=[unit.pk], reason=name, seed=1)  # fmt: skip
        clock_advance(campaign=campaign, hours=1)
    campaign.refresh_from_db()  # day 1, 03:00
    exported = json.loads(json.dumps(campaign_export(campaign=campaign)))
    (kept,) = [u["window_fights"] for f in exported["forces"] for u in f["units"]]
    assert [(f["casualty_hits"], f["won"]) for f in kept] == [(1, True), (0, True), (0, True)]
    # Each by its name, for the window's closing to say whose suppression counted its dead.
    assert [f["name"] for f in kept] == ["A", "B", "C"]
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    units = [f["units"] for f in exported["forces"]]
    assert [f["units"] for f in campaign_export(campaign=imported)["forces"]] == units
    (again,) = Unit.objects.filter(force__campaign=imported)
    assert [f["name"] for f in again.window_fights] == ["A", "B", "C"]
    # The window closes the same on both sites: A's step up withdrawn, B and C counted again.
    for each in (campaign, imported):
        clock_advance(campaign=each, hours=24)
    closed = [(u.quality, u.experience) for u in Unit.objects.order_by("pk")]
    assert closed == [(3, 0), (3, 0)]
    # An export from before units kept their window's fights imports with none kept.
    for unit_data in (u for f in exported["forces"] for u in f["units"]):
        unit_data.pop("window_fights")
        for entry in unit_data["history"]:
            entry["before"].pop("window_fights", None)
            entry["after"].pop("window_fights", None)
    exported["campaign"]["name"] = "Op. Test, from before"
    older = campaign_import(data=exported)
    (unit,) = Unit.objects.filter(force__campaign=older)
    assert unit.window_fights == [] and unit.casualty_hits == 1
    assert unit_history_explains(unit=unit)


def test_each_fights_own_24_hours_survive_export_and_import(campaign, make_unit):
    """A at day 1, 00:00 and B at day 1, 20:00 each leave Atlas a Casualty hit: exported before
    A's hit dies, and again after it died while B's awaits, each import closes them as the
    campaign does, A's after day 2, 00:00 and B's after day 2, 20:00."""
    from campaign.rules.recovery import awaiting_until
    from campaign.services.orders import clock_advance
    from units.bucs import Quality

    unit = make_unit("Atlas", "Mech", specialties=("mechanized",))
    for name, hours in (("A", 20), ("B", 1)):  # seed 1: a d6 of 1, a split of 6
        outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(1, 0)}, reason=name,
                      seed=1)  # fmt: skip
        clock_advance(campaign=campaign, hours=hours)
    campaign.refresh_from_db()  # day 1, 21:00
    exported = json.loads(json.dumps(campaign_export(campaign=campaign)))
    (kept,) = [u["window_fights"] for f in exported["forces"] for u in f["units"]]
    assert [(f["name"], f["at"]) for f in kept] == [("A", 0), ("B", 20)]
    exported["campaign"]["name"] = "Op. Test, before A's died"
    before = campaign_import(data=exported)
    clock_advance(campaign=campaign, hours=4)  # day 2, 01:00: A's hit died, B's awaits
    campaign.refresh_from_db()
    exported = json.loads(json.dumps(campaign_export(campaign=campaign)))
    exported["campaign"]["name"] = "Op. Test, after A's died"
    after = campaign_import(data=exported)
    clock_advance(campaign=before, hours=4)
    units = {u.force.campaign_id: u for u in Unit.objects.select_related("force")}
    for each in (campaign, before, after):
        assert awaiting_until(units[each.pk].state) == [(clock_hour(2, 20), 1)]
    for each in (campaign, before, after):
        each.refresh_from_db()
        clock_advance(campaign=each, hours=19)  # day 2, 20:00: B's 24th hour
        assert Unit.objects.get(force__campaign=each).casualty_hits == 1
        clock_advance(campaign=each, hours=1)
    closed = [
        (u.quality, u.casualty_hits, [e.text for e in u.history.filter(kind="casualties")])
        for u in Unit.objects.order_by("pk")
    ]
    assert closed[0] == closed[1] == closed[2]
    assert closed[0][:2] == (Quality.GREEN, 0) and len(closed[0][2]) == 2
    # A fight kept as fought after the campaign's day is refused.
    kept[1]["at"] = clock_hour(5, 0)
    exported["campaign"]["name"] = "Op. Test, from the future"
    exported["forces"][0]["units"][0]["window_fights"] = kept
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=exported)
    assert "after the campaign's day 2" in str(refused.value)


def test_a_unit_holding_more_specialties_than_its_quality_may_survives_export_and_import(
    campaign, make_unit
):
    """Aid Post's three Casualty hits die with the medics' 24 hours, and it falls to Raw
    holding Infantry and Medical, as it may (`bucs.kept_beyond_limit`): the campaign's export,
    and its force's, import again with them, and its history explains them."""
    from campaign.services.orders import clock_advance

    unit = make_unit("Aid Post", quality="average", specialties=("infantry", "medical"))
    unit_edit(unit=unit, changes={"casualty_hits": 3}, reason="shelled at the ford")
    clock_advance(campaign=campaign, hours=25)
    campaign.refresh_from_db()
    unit.refresh_from_db()
    assert (unit.quality, unit.specialties, unit.status) == (0, ["infantry", "medical"], "ready")
    exported = json.loads(json.dumps(campaign_export(campaign=campaign)))
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    assert [f["units"] for f in campaign_export(campaign=imported)["forces"]] == [
        f["units"] for f in exported["forces"]
    ]
    again = Unit.objects.get(force__campaign=imported, name="Aid Post")
    assert (again.quality, again.specialties) == (0, ["infantry", "medical"])
    assert unit_history_explains(unit=again)
    data = force_export(force=unit.force)
    data["force"]["name"] = "Red Company, again"
    moved = force_import(campaign=campaign, data=data).units.get(name="Aid Post")
    assert (moved.quality, moved.specialties) == (0, ["infantry", "medical"])


def test_the_campaigns_story_of_its_people_survives_export_and_import(played, force, cast):
    force_edit(force=force, name="Red Company", owner=cast.rival, actor=cast.gm)
    campaign_update(campaign=played, name="Op. Test, renamed", actor=cast.gm)
    calendar_advance(campaign=played, days=2, reason="Night falls over the Bridge 7", actor=cast.gm)
    played.refresh_from_db()
    exported = json.loads(json.dumps(campaign_export(campaign=played)))
    assert [(g["day"], g["kind"], g["text"]) for g in exported["story"]] == [
        (1, "joined", "player joined as a player."),
        (1, "joined", "rival joined as a player."),
        (1, "force", "Red Company was raised for player."),
        (1, "force", "Blue Battalion was raised for rival."),
        (2, "calendar", "The calendar moved on 1 day to day 2."),
        (2, "joined", "outsider joined as a spectator."),
        (2, "force", "Red Company went from player to rival."),
        (2, "renamed", "Op. Test was renamed Op. Test, renamed."),
        (4, "calendar", "The calendar moved on 2 days to day 4: Night falls over the Bridge 7."),
    ]
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert campaign_export(campaign=imported)["story"] == exported["story"]
    # A file from before the story kept them imports with none.
    del exported["story"]
    exported["campaign"]["name"] = "Op. Test, older"
    assert not campaign_import(data=exported).story.exists()


def test_the_saved_maps_survive_export_and_import(played, cast):
    scenario = json.loads((SCENARIOS / "crossroads.json").read_text())
    saved_map_create(
        campaign=played, name="Crossroads again", text=json.dumps(scenario), actor=cast.gm
    )
    exported = campaign_export(campaign=played)
    assert [m["name"] for m in exported["maps"]] == ["Crossroads again"]
    exported["campaign"]["name"] = "With maps"
    imported = campaign_import(data=exported)
    assert campaign_export(campaign=imported)["maps"] == exported["maps"]
    # The success message counts what came across, the map among it.
    said = campaign_import_summary(campaign=imported, data=exported)
    assert said.startswith("Imported With maps: 2 forces, 2 units, 1 map; ")


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


def test_the_export_file_is_the_same_bytes_for_the_same_campaign(played):
    first = export_text(campaign_export(campaign=played))
    assert json.loads(first) == campaign_export(campaign=played)
    assert export_text(json.loads(first)) == first


@pytest.fixture
def at_the_table(campaign, make_unit, cast):
    """A campaign with its d20 side: a player's character leading a unit and healed, another
    who trained a unit, Orders done and under way, and the clock at 05:00."""
    from campaign.models import Character
    from campaign.services import leader_attach, unit_train
    from campaign.services.characters import character_create, character_heal
    from campaign.services.orders import clock_advance, order_give

    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14,
                            feats=["leadership", "strategist"], player=cast.player)  # fmt: skip
    vey = character_create(campaign=campaign, name="Lt. Vey", hit_points=9,
                           feats=["special_forces"])  # fmt: skip
    squad = make_unit("1st Squad")
    recruits = make_unit("Recruits", quality="green")
    leader_attach(unit=squad, character=holt)
    Character.objects.filter(pk=holt.pk).update(max_hit_points=20)  # wounded before
    character_heal(character=holt, hit_points=3, reason="rests an hour")  # 14 → 17 of 20
    unit_train(unit=recruits, character=vey)
    order_give(giver=vey, unit=recruits, kind="attack")
    clock_advance(campaign=campaign, hours=5)
    order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8, note="scout the ford")
    campaign.refresh_from_db()
    return campaign


def test_the_d20_side_survives_export_and_import_exactly(at_the_table, cast):
    from campaign.models import Order
    from campaign.services.orders import order_call_off

    order_call_off(order=Order.objects.get(campaign=at_the_table, giver__name="Capt. Holt"))
    exported = json.loads(export_text(campaign_export(campaign=at_the_table)))
    assert exported["campaign"]["hour"] == 5
    assert [o["called_off_at"] for o in exported["orders"]] == [None, 5]
    holt = next(c for c in exported["characters"] if c["name"] == "Capt. Holt")
    assert holt["leads"] == {"force": "Red Company", "unit": "1st Squad"}
    assert (holt["player"], holt["hit_points"], holt["max_hit_points"]) == ("player", 17, 20)
    assert holt["entries"][0]["text"] == "Capt. Holt rests an hour: hit points 14 → 17 of 20"
    assert [o["giver"] for o in exported["orders"]] == ["Lt. Vey", "Capt. Holt"]
    history = exported["forces"][0]["units"][1]["history"]
    trained = next(e for e in reversed(history) if e["kind"] == "training")
    assert trained["details"]["character"] == "Lt. Vey"  # named: ids do not travel
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert export_text(campaign_export(campaign=imported)) == export_text(exported)
    leader = Leader.objects.get(unit__force__campaign=imported, unit__name="1st Squad")
    assert leader.character.name == "Capt. Holt" and leader.character.campaign == imported
    entry = HistoryEntry.objects.filter(unit__force__campaign=imported, kind="training").get()
    assert entry.details["character"] == imported.characters.get(name="Lt. Vey").pk
    for unit in Unit.objects.filter(force__campaign=imported):
        assert unit_history_explains(unit=unit)


D20_BAD_FIELDS = [
    (("characters", 0, "feats"), ["luck"], "characters[0].feats"),
    (("characters", 0, "hit_points"), 99, "characters[0].hit_points"),
    (("characters", 0, "leads"), {"force": "Red Company", "unit": "Recruits"},
     "characters[0].leads"),
    (("characters", 1, "player"), "outsider", "characters[1].player"),
    (("orders", 0, "giver"), "Nobody", "orders[0].giver"),
    (("orders", 1, "kind"), "dance", "orders[1].kind"),
    (("orders", 1, "called_off_at"), 3, "orders[1].called_off_at"),  # before it was given
    (("orders", 1, "called_off_at"), 10, "orders[1].called_off_at"),  # after the clock, 05:00
    (("orders", 1, "ended_at"), 5, "orders[1].ended_at"),  # its unit, 1st Squad, stands
    (("campaign", "hour"), 24, "campaign.hour"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "value", "named"), D20_BAD_FIELDS, ids=[b[2] for b in D20_BAD_FIELDS]
)
def test_a_d20_import_with_one_bad_field_writes_nothing_and_names_it(
    at_the_table, path, value, named
):
    from campaign.models import Character, Order

    data = copy.deepcopy(campaign_export(campaign=at_the_table))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    before = (*counts(), Character.objects.count(), Order.objects.count())
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert named in refused.value.message_dict
    assert (*counts(), Character.objects.count(), Order.objects.count()) == before


def test_a_dead_character_and_the_hour_of_a_heal_survive_export_and_import(at_the_table):
    from campaign.models import Character, CharacterEntry
    from campaign.services.characters import character_heal

    holt = Character.objects.get(campaign=at_the_table, name="Capt. Holt")
    character_heal(character=holt, hit_points=1, reason="is patched up")  # at 05:00
    Character.objects.filter(campaign=at_the_table, name="Lt. Vey").update(
        alive=False, hit_points=-10
    )
    exported = json.loads(export_text(campaign_export(campaign=at_the_table)))
    holt_data, vey_data = exported["characters"]
    assert (vey_data["alive"], vey_data["hit_points"]) == (False, -10)
    assert [entry["hour"] for entry in holt_data["entries"]] == [0, 5]
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    vey = imported.characters.get(name="Lt. Vey")
    assert (vey.alive, vey.hit_points) == (False, -10)
    hours = CharacterEntry.objects.filter(character__campaign=imported).order_by("pk")
    assert list(hours.values_list("hour", flat=True)) == [0, 5]


def test_an_export_from_before_orders_were_called_off_imports_with_none_called_off(at_the_table):
    from campaign.models import Order

    data = copy.deepcopy(campaign_export(campaign=at_the_table))
    for order in data["orders"]:
        del order["called_off_at"], order["ended_at"]
    data["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=data)
    orders = Order.objects.filter(campaign=imported)
    assert orders.count() == 2 and not orders.filter(called_off_at__isnull=False).exists()
    assert not orders.filter(ended_at__isnull=False).exists()


def test_an_order_ended_with_its_unit_survives_export_and_import(at_the_table, cast):
    from campaign.models import Order

    squad = Unit.objects.get(force__campaign=at_the_table, name="1st Squad")
    unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled", actor=cast.gm)
    exported = json.loads(export_text(campaign_export(campaign=at_the_table)))
    assert [o["ended_at"] for o in exported["orders"]] == [None, 5]
    for hour, named in ((4, "orders[1].ended_at"), (6, "orders[1].ended_at")):
        bad = copy.deepcopy(exported)
        bad["orders"][1]["ended_at"] = hour  # before it was given; after the clock
        with pytest.raises(ValidationError) as refused:
            campaign_import(data=bad)
        assert named in refused.value.message_dict
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert export_text(campaign_export(campaign=imported)) == export_text(exported)
    assert Order.objects.get(campaign=imported, ended_at__isnull=False).unit.name == "1st Squad"


@pytest.fixture
def table_records(at_the_table, make_unit, enemy, cards, cast):
    """The table's records on top of the d20 side: an engagement reverted and one applied (the
    leader's character in it), a skill check, a contest, a Requisition raised and one refused."""
    from campaign.services.checks import contest_run, requisition_run, skill_check_run
    from campaign.services.engagements import engagement_revert, engagement_run

    campaign = at_the_table
    squad, recruits = (Unit.objects.get(force__campaign=campaign, name=name)
                       for name in ("1st Squad", "Recruits"))  # fmt: skip
    rifles = make_unit("Blue Rifles", into=enemy)
    pickets = make_unit("Blue Pickets", into=enemy, specialties=("infantry", "combat_engineering"))
    first = engagement_run(
        campaign=campaign, sides={"attackers": [recruits], "defenders": [rifles]}, seed=5,
        situations={rifles.pk: {"dug_in": True}}, round_limit=3, name="Mill ford",
    )  # fmt: skip
    engagement_revert(engagement=first, reason="wrong ford")
    # A seed after which each force still has a ready unit for the checks below.
    engagement_run(
        campaign=campaign, sides={"attackers": [squad, recruits], "defenders": [rifles, pickets]},
        seed=12, terrain="open", surprise="attackers", round_limit=4, name="Hill 12",
    )  # fmt: skip
    ready = [u for u in Unit.objects.filter(force__campaign=campaign) if u.status == "ready"]
    red = [u for u in ready if u.force.name == "Red Company"]
    blue = [u for u in ready if u.force.name == "Blue Battalion"]
    skill_check_run(campaign=campaign, units=red, dc=12, seed=3, reason="ford the river")
    contest_run(campaign=campaign, active=blue, resisting=red[:1],
                active_skill="combat_engineering", seed=4, reason="find the camp")  # fmt: skip
    holt = campaign.characters.get(name="Capt. Holt")
    force = Force.objects.get(campaign=campaign, name="Red Company")
    requisition_run(force=force, unit_type=cards["Medium Tank"], name="Dozer",
                    specialties=["mechanized"], character=holt, bonus=40, seed=1)  # fmt: skip
    requisition_run(force=force, unit_type=cards["Mech"], name="Atlas", quality="experienced",
                    character=holt, bonus=-40, seed=2)  # fmt: skip
    campaign.refresh_from_db()
    return campaign


def _unit_references(data):
    """Every unit a log or a result names, as `campaign.transfer.export.refs_translate` finds
    them."""
    from campaign.transfer.export import refs_translate

    found = []
    refs_translate(data, lambda key: found.append(key) or key)
    return found


def test_the_tables_records_survive_export_and_import_exactly(table_records):
    from campaign.models import Engagement, TableRoll
    from campaign.services.engagements import engagement_revert

    exported = json.loads(export_text(campaign_export(campaign=table_records)))
    mill, hill = exported["engagements"]
    assert (mill["name"], mill["state"], hill["state"]) == ("Mill ford", "reverted", "applied")
    # Units by the export's own keys, not database ids, in the set-up, the log and the rolls.
    assert mill["setup"]["sides"] == {"attackers": ["forces[1].units[1]"],
                                      "defenders": ["forces[0].units[0]"]}  # fmt: skip
    assert mill["setup"]["situations"] == {
        "forces[0].units[0]": {
            "dug_in": True,
            "several_directions": False,
            "cramped": False,
            "landing": False,
        }
    }
    assert {e["unit"] for e in hill["events"] if e["event"] == "unit"} == {
        "forces[1].units[0]",
        "forces[1].units[1]",
        "forces[0].units[0]",
        "forces[0].units[1]",
    }
    assert all(key.startswith("forces[") for key in hill["applied_entries"])
    kinds = [roll["kind"] for roll in exported["table_rolls"]]
    assert kinds == ["skill_check", "contest", "requisition", "requisition"]
    raised, refused = exported["table_rolls"][2:]
    assert (raised["setup"]["force"], raised["setup"]["character"]) == ("Red Company", "Capt. Holt")
    assert raised["setup"]["unit_type"] == "Medium Tank"
    assert raised["result"]["unit"].startswith("forces[1].units[")
    assert "unit" not in refused["result"]
    named = _unit_references(
        [mill["events"], hill["events"], *(roll["result"] for roll in exported["table_rolls"])]
    )
    assert len(named) > 20 and {key for key in named if key is not None} <= {
        f"forces[{i}].units[{j}]" for i in range(2) for j in range(3)
    }  # keys, not ids
    histories = [e for f in exported["forces"] for u in f["units"] for e in u["history"]]
    assert {e["details"].get("engagement") for e in histories} == {None, 0, 1}
    assert {e["details"].get("table_roll") for e in histories} == {None, 0, 1, 2}

    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert export_text(campaign_export(campaign=imported)) == export_text(exported)
    mill_now, hill_now = imported.engagements.order_by("id")
    assert mill_now.state == "reverted" and hill_now.state == "applied"
    with pytest.raises(ValidationError, match="reverted already"):
        engagement_revert(engagement=mill_now, reason="again")
    engagement_revert(engagement=hill_now, reason="the other hill")  # revertible as before
    hill_now.refresh_from_db()
    assert hill_now.state == "reverted"
    undone = HistoryEntry.objects.filter(unit__force__campaign=imported, kind="revert",
                                         reverts__pk__in=hill_now.applied_entries)  # fmt: skip
    assert undone.count() == len(hill_now.applied_entries)
    units = {u.pk for u in Unit.objects.filter(force__campaign=imported)}
    assert {int(pk) for side in hill_now.setup["sides"].values() for pk in side} <= units
    raised_now = TableRoll.objects.get(
        campaign=imported,
        kind="requisition",
        pk__in=[r.pk for r in imported.table_rolls.all() if "unit" in r.result],
    )
    assert Unit.objects.get(pk=raised_now.result["unit"]).name == "Dozer"
    created = Unit.objects.get(pk=raised_now.result["unit"]).history.order_by("id").first()
    assert created.details["table_roll"] == raised_now.pk
    assert Engagement.objects.filter(campaign=imported).count() == 2


def test_a_contests_entries_are_contests_even_from_an_export_that_called_them_skill_checks(
    table_records,
):
    exported = json.loads(export_text(campaign_export(campaign=table_records)))
    entries = [e for f in exported["forces"] for u in f["units"] for e in u["history"]]
    by_roll = {
        e["details"]["table_roll"]: e["kind"] for e in entries if "table_roll" in e["details"]
    }
    assert (by_roll[0], by_roll[1]) == ("skill_check", "contest")
    # An older site wrote a contest's entries as skill checks: they come in as contests.
    for entry in entries:
        if entry["kind"] == "contest":
            entry["kind"] = "skill_check"
    exported["campaign"]["name"] = "Op. Test, from before"
    imported = campaign_import(data=exported)
    kinds = {e.details["table_roll"]: e.kind
             for e in HistoryEntry.objects.filter(unit__force__campaign=imported,
                                                  details__has_key="table_roll")}  # fmt: skip
    rolls = {r.pk: r.kind for r in imported.table_rolls.all()}
    assert {rolls[pk]: kind for pk, kind in kinds.items() if rolls[pk] != "requisition"} == {
        "skill_check": "skill_check",
        "contest": "contest",
    }


def test_a_force_export_leaves_the_tables_links_behind(table_records, cast):
    force = Force.objects.get(campaign=table_records, name="Red Company")
    data = force_export(force=force)
    details = [e["details"] for u in data["force"]["units"] for e in u["history"]]
    assert {d["engagement"] for d in details if "engagement" in d} == {None}
    assert {d["table_roll"] for d in details if "table_roll" in d} == {None}


TABLE_BAD_FIELDS = [
    (("engagements", 0, "setup", "sides", "attackers", 0), "forces[9].units[0]",
     "engagements[0].setup.sides.attackers[0]"),
    (("engagements", 1, "state"), "lost", "engagements[1].state"),
    (("engagements", 1, "applied_entries", 0), "forces[0].units[0].history[99]",
     "engagements[1].applied_entries[0]"),
    (("engagements", 1, "applied_entries", 0), ["forces[0].units[0].history[0]"],
     "engagements[1].applied_entries[0]"),
    (("engagements", 0, "setup", "sides", "defenders", 0), ["forces[0].units[0]"],
     "engagements[0].setup.sides.defenders[0]"),
    (("engagements", 0, "setup", "sides", "defenders", 0), None,
     "engagements[0].setup.sides.defenders[0]"),
    (("table_rolls", 0, "setup", "units", 0), None, "table_rolls[0].setup.units[0]"),
    (("engagements", 0, "rounds"), 51, "engagements[0].rounds"),
    (("engagements", 0, "seed"), -1, "engagements[0].seed"),
    (("table_rolls", 0, "setup", "units", 0), 7, "table_rolls[0].setup.units[0]"),
    (("table_rolls", 2, "setup", "force"), "Green Army", "table_rolls[2].setup.force"),
    (("table_rolls", 2, "setup", "unit_type"), "Zeppelin", "table_rolls[2].setup.unit_type"),
    (("table_rolls", 2, "setup", "character"), "Nobody", "table_rolls[2].setup.character"),
    (("table_rolls", 1, "kind"), "poker", "table_rolls[1].kind"),
    (("table_rolls", 0, "day"), 99, "table_rolls[0].day"),
    (("forces", 0, "units", 0, "history", 1, "details", "engagement"), 5,
     "forces[0].units[0].history[1].details.engagement"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "value", "named"), TABLE_BAD_FIELDS, ids=[b[2] for b in TABLE_BAD_FIELDS]
)
def test_an_import_of_the_tables_records_with_one_bad_field_writes_nothing_and_names_it(
    table_records, path, value, named
):
    from campaign.models import Engagement, TableRoll

    data = copy.deepcopy(campaign_export(campaign=table_records))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    before = (*counts(), Engagement.objects.count(), TableRoll.objects.count())
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert named in refused.value.message_dict
    assert (*counts(), Engagement.objects.count(), TableRoll.objects.count()) == before


def test_an_export_from_before_the_tables_records_imports_without_their_links(table_records):
    data = copy.deepcopy(campaign_export(campaign=table_records))
    del data["engagements"], data["table_rolls"]
    imported = campaign_import(data={**data, "campaign": {**data["campaign"], "name": "Old"}})
    assert not imported.engagements.exists() and not imported.table_rolls.exists()
    details = HistoryEntry.objects.filter(unit__force__campaign=imported).values_list(
        "details", flat=True
    )
    assert {d.get("engagement") for d in details} == {None}


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
