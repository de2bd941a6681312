"""What survives export and import: a campaign exactly, named by its users and cards rather than
database ids, its units' history in order (or a created entry for a unit without one), a unit moved
between forces, the medics' day, the fights each medical window keeps, its people's story and saved
maps; a force moving into another campaign; exports from before a setting existed importing without
it; and the same campaign always exporting the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry, Leader, Unit
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
    unit_edit,
    unit_move,
)
from campaign.services.maps import saved_map_create
from campaign.services.transfer import campaign_import_summary
from campaign.transfer.export import campaign_export, export_text, force_export
from tests.campaign.invited import accept_every_invitation

SCENARIOS = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"


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


def test_a_unit_without_history_is_imported_with_a_created_entry(played):
    data = campaign_export(campaign=played)
    del data["forces"][0]["units"][0]["history"]
    data["campaign"]["name"] = "Hand-written"
    imported = campaign_import(data=data)
    unit = Unit.objects.get(force__campaign=imported, name="Blue Rifles")
    (entry,) = unit.history.all()
    assert entry.kind == "created" and entry.text.startswith("imported into Blue Battalion")
    assert unit_history_explains(unit=unit)


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


def test_the_export_file_is_the_same_bytes_for_the_same_campaign(played):
    first = export_text(campaign_export(campaign=played))
    assert json.loads(first) == campaign_export(campaign=played)
    assert export_text(json.loads(first)) == first
