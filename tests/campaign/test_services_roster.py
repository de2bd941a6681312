"""Rosters, GM corrections and leaders: a new unit's history starts with its whole state, a
correction is an entry with its reason that refuses bad values, points past the next step and hits a
unit cannot carry, and retreats a unit its hits break; a leader's hit points are bounded; leaders
join and leave through history, units move in and out of the combat zone, a force holds its most
units, each named once, and every table of a unit's fields follows the one list of them."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry, Unit
from campaign.rules.history import FIELD_LABELS
from campaign.rules.state import SNAPSHOT_FIELDS, UNIT_FIELDS, Status
from campaign.rules.values import READERS
from campaign.selectors.entries import unit_history_explains
from campaign.services import leader_attach, leader_detach, unit_combat_zone_set, unit_edit
from campaign.services.recovery import calendar_advance
from campaign.services.roster import EDITABLE
from units.bucs import Quality

Kind = HistoryEntry.Kind


def test_a_new_unit_starts_its_history_with_its_whole_state(make_unit):
    unit = make_unit("1st Squad", quality="green", leader={"name": "Sgt. Kay", "hit_points": 12})
    (entry,) = unit.history.all()
    assert entry.kind == Kind.CREATED and entry.before == {}
    assert entry.after == unit.state.to_json()
    assert entry.text == (
        "raised in Red Company as Green Rifle Squad (Adequate equipment, Infantry, led by Sgt. Kay)"
    )


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"name": ""}, "name"),
        ({"quality": "veteran"}, "quality"),
        ({"equipment": "shiny"}, "equipment"),
        ({"specialties": ["infantry", "mechanized"], "quality": "green"}, "specialties"),
        ({"specialties": ["armor"]}, "specialties"),
        ({"card": "House"}, "unit_type"),
        ({"card": "Line Suit"}, "unit_type"),
        ({"leader": {"name": "X"}}, "leader"),
    ],
)
def test_it_refuses_a_bad_new_unit_naming_the_field(make_unit, kwargs, field):
    arguments = {"name": "Squad", **kwargs}
    card = arguments.pop("card", "Rifle Squad")
    with pytest.raises(ValidationError) as refused:
        make_unit(arguments.pop("name"), card, **arguments)
    assert field in refused.value.message_dict
    assert not Unit.objects.exists()


def test_a_gm_correction_is_an_entry_with_its_reason(make_unit, cast):
    unit = make_unit()
    entry = unit_edit(
        unit=unit,
        changes={"casualty_hits": 2, "quality": "elite"},
        reason="table report",
        actor=cast.gm,
    )
    assert entry.kind == Kind.GM_EDIT and entry.actor == cast.gm
    # Casualty hits entered by hand get the medics' 24 hours from now (docs/campaign.md §1.6).
    assert entry.text == (
        "GM correction: table report; its Casualty hits await the medics until day 2, 00:00; "
        "quality Average → Elite, Casualty hits 0 → 2, the medics' 24 hours from none → "
        "day 1, 00:00"
    )
    assert unit_edit(unit=unit, changes={"casualty_hits": 2}, reason="again") is None


@pytest.mark.parametrize(
    ("changes", "reason", "field"),
    [
        ({"morale_hits": -1}, "r", "morale_hits"),
        ({"quality": 7}, "r", "quality"),
        ({"status": "fled"}, "r", "status"),
        ({"force": 1}, "r", "force"),
        ({"morale_hits": 1}, "", "reason"),
        ({"morale_hits": 1}, None, "reason"),
        (None, "r", "changes"),
    ],
)
def test_a_gm_correction_refuses_bad_values(make_unit, changes, reason, field):
    unit = make_unit()
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=unit, changes=changes, reason=reason)
    assert field in refused.value.message_dict
    assert unit.history.count() == 1


def test_a_unit_keeps_its_specialties_when_its_quality_falls(make_unit):
    unit = make_unit(quality="average", specialties=("infantry", "medical"))
    unit_edit(unit=unit, changes={"quality": "green"}, reason="casualties")
    unit.refresh_from_db()
    assert unit.specialties == ["infantry", "medical"]


def test_a_correction_gives_no_unit_the_points_of_its_next_step_and_caps_them_when_it_falls(
    make_unit,
):
    """An Inexperienced unit rises at 3 points: a correction giving it 3 is refused by name,
    nothing written; 2 stand. Corrected down to Green (2 points to rise), its 2 points are
    capped at 1, as a battle that costs it quality caps them; set with the quality, points
    that reach the new step are refused too."""
    unit = make_unit("Old Faithful", quality="inexperienced")
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=unit, changes={"experience": 3}, reason="good work")
    assert refused.value.message_dict == {
        "experience": [
            "Old Faithful is Inexperienced: at 3 experience points it rises to Average, so it "
            "holds at most 2 as Inexperienced; to raise it, set its quality too."
        ]
    }
    assert unit.history.count() == 1
    unit_edit(unit=unit, changes={"experience": 2}, reason="good work")
    unit_edit(unit=unit, changes={"quality": "green"}, reason="casualties")
    unit.refresh_from_db()
    assert (unit.state.quality, unit.state.experience) == (Quality.GREEN, 1)
    with pytest.raises(ValidationError, match="at 1 experience point it rises to Green"):
        unit_edit(unit=unit, changes={"quality": "raw", "experience": 1}, reason="recount")
    unit_edit(unit=unit, changes={"quality": "average", "experience": 3}, reason="recount")
    unit.refresh_from_db()
    assert (unit.state.quality, unit.state.experience) == (Quality.AVERAGE, 3)


def test_a_unit_below_its_specialties_is_corrected_like_any_other_and_gains_none(make_unit):
    """Aid Post fell to Raw holding Infantry and Medical: a correction that sends its
    specialties as they stand (as a whole form does) is not refused for them, one that gives
    one up is allowed, and one that adds one is refused, naming what it may keep."""
    unit = make_unit("Aid Post", quality="average", specialties=("infantry", "medical"))
    unit_edit(unit=unit, changes={"quality": "raw"}, reason="its dead")
    kept = ["infantry", "medical"]
    unit_edit(unit=unit, changes={"name": "Aid Station", "specialties": kept}, reason="renamed")
    unit.refresh_from_db()
    assert (unit.name, unit.specialties) == ("Aid Station", kept)
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=unit, changes={"specialties": [*kept, "aviation"]}, reason="taught")
    assert refused.value.message_dict == {
        "specialties": [
            "A Raw unit holds no specialties; Aid Station may keep the Infantry and Medical it "
            "holds, but not gain Aviation."
        ]
    }
    unit_edit(unit=unit, changes={"specialties": ["medical"]}, reason="rifles handed in")
    unit.refresh_from_db()
    assert unit.specialties == ["medical"]
    # What it gave up is not its to take back while Raw.
    with pytest.raises(ValidationError, match="may keep the Medical it holds, but not gain"):
        unit_edit(unit=unit, changes={"specialties": kept}, reason="rifles back")


def test_leaders_join_and_leave_through_history(make_unit):
    unit = make_unit()
    leader = leader_attach(unit=unit, name="Lt. Varga", hit_points=20)
    assert leader.unit == unit and leader.alive
    with pytest.raises(ValidationError, match="already"):
        leader_attach(unit=unit, name="Lt. Other", hit_points=20)
    leader_detach(unit=unit, reason="promoted")
    unit = Unit.objects.get(pk=unit.pk)
    assert unit.state.leader is None
    texts = list(unit.history.values_list("text", flat=True))
    assert texts[1].startswith("Lt. Varga takes command; leader none → Lt. Varga (20 hit points)")
    assert texts[2].startswith("promoted; leader Lt. Varga (20 hit points) → none")
    assert unit_history_explains(unit=unit)
    with pytest.raises(ValidationError, match="1 or more"):
        leader_attach(unit=unit, name="Lt. Down", hit_points=0)


def test_a_unit_moves_in_and_out_of_the_combat_zone(make_unit, cast):
    unit = make_unit()
    entry = unit_combat_zone_set(unit=unit, in_combat_zone=True, actor=cast.player)
    assert entry.kind == Kind.DEPLOYMENT and entry.after == {"in_combat_zone": True}
    assert unit_combat_zone_set(unit=unit, in_combat_zone=True) is None


def test_a_retreated_unit_is_not_sent_into_the_combat_zone_until_it_rallies(campaign, make_unit):
    from campaign.services import calendar_advance

    unit = make_unit("1st Squad")
    unit_edit(unit=unit, changes={"morale_hits": 1, "status": "retreated"}, reason="broke")
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        unit_combat_zone_set(unit=unit, in_combat_zone=True)
    assert refused.value.message_dict == {
        "in_combat_zone": [
            "1st Squad retreated in poor order: it has left the combat zone, and goes back in "
            "once it has rallied"
        ]
    }
    unit.refresh_from_db()
    assert not unit.in_combat_zone and HistoryEntry.objects.count() == before
    calendar_advance(campaign=campaign)  # a day of R&R: it rallies
    unit.refresh_from_db()
    assert unit.status == Status.READY
    assert unit_combat_zone_set(unit=unit, in_combat_zone=True).after == {"in_combat_zone": True}


def test_a_correction_that_breaks_a_unit_takes_it_out_of_the_combat_zone(make_unit):
    unit = make_unit("1st Squad")
    unit_combat_zone_set(unit=unit, in_combat_zone=True)
    unit_edit(unit=unit, changes={"morale_hits": 1, "status": "retreated"}, reason="broke")
    unit.refresh_from_db()
    assert (unit.status, unit.in_combat_zone) == (Status.RETREATED, False)
    # Kept in the zone by name, it is refused, as an import of that state would be.
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=unit, changes={"in_combat_zone": True}, reason="by hand")
    assert list(refused.value.message_dict) == ["in_combat_zone"]
    # Casualty hits whose medical window closed before now would never die: refused too.
    calendar_advance(campaign=unit.force.campaign, days=2)
    unit.refresh_from_db()
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=unit, changes={"casualty_hits": 1, "window_from": 0}, reason="by hand")
    assert list(refused.value.message_dict) == ["casualty_hits"]
    assert HistoryEntry.objects.count() == before


def test_a_correction_says_too_many_points_and_too_many_hits_at_once(make_unit):
    """Refused for its points and for its hits, a correction names both together: the GM
    mends the form once, not once for each."""
    unit = make_unit("Old Faithful", quality="inexperienced")
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=unit, changes={"experience": 7, "casualty_hits": 9, "name": "Old Faithful"},
                  reason="miscounted")  # fmt: skip
    assert sorted(refused.value.message_dict) == ["casualty_hits", "experience"]
    assert "holds at most 2 as Inexperienced" in refused.value.message_dict["experience"][0]
    assert "can carry at most 3 hits" in refused.value.message_dict["casualty_hits"][0]
    # A quality that is no quality leaves both unjudged: they hang on it.
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=unit, changes={"quality": "heroic", "experience": 7, "casualty_hits": 9},
                  reason="miscounted")  # fmt: skip
    assert list(refused.value.message_dict) == ["quality"]
    assert unit.history.count() == 1


def test_a_correction_refuses_hits_the_unit_cannot_carry_and_writes_nothing(make_unit):
    sappers = make_unit("Sappers", quality="inexperienced")  # 3 hits: the third breaks it
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=sappers, changes={"morale_hits": 50, "casualty_hits": 99}, reason="typo")
    assert refused.value.message_dict == {
        "casualty_hits": [
            "Sappers is Inexperienced: it can carry at most 3 hits, Morale and Casualty "
            "together (the last breaks it), and was given 149."
        ]
    }
    # Lowering its quality lowers what it can carry.
    unit_edit(unit=sappers, changes={"morale_hits": 2}, reason="shaken")
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=sappers, changes={"quality": "raw"}, reason="recruits")
    assert list(refused.value.message_dict) == ["quality"]
    assert "it can carry at most 1 hit," in refused.value.message_dict["quality"][0]
    sappers.refresh_from_db()
    assert (sappers.morale_hits, sappers.quality, sappers.history.count()) == (
        2,
        Quality.INEXPERIENCED,
        2,
    )


def test_a_correction_whose_hits_break_a_unit_retreats_it_in_poor_order(make_unit):
    sappers = make_unit("Sappers", quality="inexperienced")
    unit_combat_zone_set(unit=sappers, in_combat_zone=True)
    unit_edit(unit=sappers, changes={"morale_hits": 1, "casualty_hits": 2}, reason="ambushed")
    sappers.refresh_from_db()
    # As at the bridge: broken, out of action and out of the combat zone; the medics' 24 hours
    # decide its fate.
    assert (sappers.status, sappers.in_combat_zone) == (Status.RETREATED, False)
    assert sappers.window_from is not None
    # A GM who holds a broken unit ready says so by its status: the GM's word is kept.
    rifles = make_unit("Rifles", quality="green")
    unit_edit(unit=rifles, changes={"morale_hits": 2, "status": "ready"}, reason="rallied")
    rifles.refresh_from_db()
    assert (rifles.status, rifles.morale_hits) == (Status.READY, 2)


def test_every_table_of_unit_fields_follows_the_one_list_of_them():
    # A field added to CampaignUnitState is a Unit column, a snapshot key and a GM correction
    # at once; the tables of its reader and its words must name it too.
    assert tuple(READERS) == UNIT_FIELDS == EDITABLE
    assert tuple(FIELD_LABELS) == SNAPSHOT_FIELDS == (*UNIT_FIELDS, "leader")
    assert {f.name for f in Unit._meta.concrete_fields} >= set(UNIT_FIELDS)


def test_a_force_holds_its_most_units_each_named_once_and_a_requisitioned_unit_stays(
    force, cards, make_unit, monkeypatch
):
    from campaign.services import roster
    from campaign.services._record import name_taken
    from campaign.services.checks import requisition_run

    monkeypatch.setattr(roster, "MAX_UNITS_PER_FORCE", 3)
    make_unit("Rifles")
    with pytest.raises(ValidationError) as refused:
        make_unit("Rifles")
    assert refused.value.message_dict == {"name": [name_taken("Red Company", "a unit", "Rifles")]}
    roll = requisition_run(force=force, unit_type=cards["Rifle Squad"], name="Levies",
                           bonus=40, seed=1)  # fmt: skip
    levies = Unit.objects.get(pk=roll.result["unit"])
    with pytest.raises(ValidationError, match="has a part in the story already"):
        roster.unit_remove(unit=levies)
    with pytest.raises(ValidationError) as refused:
        roster.units_raise(force=force, unit_type=cards["Rifle Squad"], name="Mob",
                           count=roster.MAX_RAISED_AT_ONCE + 1)  # fmt: skip
    assert list(refused.value.message_dict) == ["count"]
    make_unit("Third")  # the third of three
    with pytest.raises(ValidationError) as refused:
        make_unit("Fourth")
    assert refused.value.message_dict == {
        "__all__": ["Red Company already holds 3 units, the most a force may hold"]
    }
    assert force.units.count() == 3


def test_a_correction_bounds_a_leaders_hit_points_and_says_the_medics_only_for_new_hits(
    make_unit,
):
    from campaign.services.roster import LEADER_HIT_POINTS

    squad = make_unit(leader={"name": "Sgt. Kay", "hit_points": 12})
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=squad, changes={LEADER_HIT_POINTS: -1000}, reason="typo")
    assert refused.value.message_dict == {LEADER_HIT_POINTS: ["At least −999."]}
    hit = unit_edit(unit=squad, changes={"casualty_hits": 1}, reason="sniper")
    assert "await the medics" in hit.text
    # Morale hits added beside Casualty hits already awaiting the medics say nothing of them.
    shaken = unit_edit(unit=squad, changes={"morale_hits": 1}, reason="shelled")
    assert "await the medics" not in shaken.text
    unit_edit(unit=squad, changes={"status": "destroyed"}, reason="a mine")
    with pytest.raises(ValidationError) as refused:
        leader_attach(unit=squad, name="Sgt. Lo", hit_points=9)
    assert refused.value.message_dict == {
        "leader": [f"{squad.name} is destroyed: there is no one left to lead"]
    }
