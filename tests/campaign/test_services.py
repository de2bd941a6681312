"""The write services: outcomes applied and reverted, rosters, GM corrections, who may do what."""

from __future__ import annotations

import pytest
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError

from battles.models import Battle
from campaign.models import (
    Campaign,
    Force,
    HistoryEntry,
    Invitation,
    Membership,
    Order,
    SavedMap,
    TableRoll,
    Unit,
)
from campaign.rules.damage import UnitOutcome
from campaign.rules.history import FIELD_LABELS
from campaign.rules.state import SNAPSHOT_FIELDS, UNIT_FIELDS, Status
from campaign.rules.values import READERS
from campaign.selectors.access import (
    campaign_can_manage,
    campaign_role,
    campaigns_for_user,
    invitations_for,
)
from campaign.selectors.entries import unit_history_explains
from campaign.services import (
    best_equipment,
    campaign_create,
    campaign_update,
    force_create,
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    leader_attach,
    leader_detach,
    membership_remove,
    membership_set,
    opposing_equipment_by_side,
    outcome_apply,
    outcome_revert,
    unit_combat_zone_set,
    unit_create,
    unit_edit,
)
from campaign.services.characters import character_create, character_heal, character_rally
from campaign.services.checks import contest_run, skill_check_run
from campaign.services.maps import saved_map_create
from campaign.services.orders import clock_advance, order_give
from campaign.services.recovery import calendar_advance, medical_apply
from campaign.services.roster import EDITABLE
from units.bucs import Equipment, Quality
from units.models import Ruleset

Kind = HistoryEntry.Kind

# ---------------------------------------------------------------------------------------------
# outcome_apply
# ---------------------------------------------------------------------------------------------


def test_it_applies_a_battle_to_every_unit_with_an_entry_each(campaign, make_unit, enemy):
    red = make_unit("Red Rifles", quality="experienced")
    blue = make_unit(
        "Blue Mech", "Mech", quality="legendary", specialties=("mechanized",), into=enemy
    )
    battle = Battle.objects.create(
        name="Factory Hold", ruleset="combined_arms", scenario={}, seed=9, engine_version="t"
    )
    entries = outcome_apply(
        campaign=campaign,
        outcomes={red.pk: UnitOutcome(0, 0), blue.pk: UnitOutcome(2, 0)},
        winners=[red.pk],
        reason="Factory Hold",
        battle=battle,
    )
    battle_entries = [e for e in entries if e.kind == Kind.BATTLE]
    assert {e.unit_id for e in battle_entries} == {red.pk, blue.pk}
    assert all(e.battle == battle and e.day == 1 for e in entries)
    blue_entry = next(e for e in battle_entries if e.unit_id == blue.pk)
    damage = blue_entry.details["damage"]
    # What the battle did comes first, then the working.
    took = f"took {damage['morale_hits']} Morale hits and {damage['casualty_hits']} Casualty hits"
    assert blue_entry.text.startswith(f"Factory Hold: {took} — 2 of 4 Hits lost; ")
    assert len(damage["blow_dice"]) == 2 and len(damage["split_dice"]) == sum(damage["split"])
    assert blue_entry.after.get("casualty_hits", 0) == damage["casualty_hits"]
    assert blue_entry.details["outcome"] == {"hits_lost": 2, "skill_lost": 0, "removed": "none"}
    # A unit that came through untouched still has the battle in its history, said plainly.
    red_entry = next(e for e in battle_entries if e.unit_id == red.pk)
    assert red_entry.text.startswith("Factory Hold: came through unhurt; ")
    assert "took" not in red_entry.text and "0 of 1 Hit lost" not in red_entry.text
    assert red_entry.details["won"] is True


def test_a_battle_entry_names_the_die_that_split_each_bucs_hit(campaign, make_unit):
    """Each BUCS hit is Casualty on a d6 of 4 or more, else Morale; the entry showed the blows'
    dice and then "3 BUCS hits (0 Morale, 3 Casualty)", so a GM could not check the split.
    It names the split dice as it names the blows'."""
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    # Seed 1: blows 1 and 6 of the 4-Hit Mech card, 1 + 2 BUCS hits; splits 5, 2 and 3.
    (entry,) = outcome_apply(
        campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, reason="Weir", seed=1
    )[:1]
    assert entry.details["damage"]["split_dice"] == [5, 2, 3]
    assert (
        "Weir: took 2 Morale hits and 1 Casualty hit — 2 of 4 Hits lost; a d6 for each Hit lost "
        "rolled 1 and 6, divided by the card's 4 Hits, rounded up: 3 BUCS hits, a d6 each rolled "
        "5, 2 and 3 (Casualty on 4 or more); "
    ) in entry.text


def test_a_unit_left_standing_that_its_hits_break_is_told_why_it_retreats(campaign, make_unit):
    """A unit the table left in the field retreats in poor order when its hits break it; its
    entry went from the working straight to "retreated in poor order", as if the last thing
    said (a step lost, a leader's death) were the reason. It says the hits and what its
    quality sustains."""
    squad = make_unit("Atlas", "Mech", quality="green", specialties=("mechanized",))
    # Seed 0: one Hit of the 4-Hit Mech card lost, its d6 a 6: 2 BUCS hits, the 2 a Green unit
    # sustains, the last breaking it.
    entry = outcome_apply(
        campaign=campaign, outcomes={squad.pk: UnitOutcome(1, 0)}, reason="Weir", seed=0
    )[0]
    assert entry.details["damage"]["blow_dice"] == [6]
    assert entry.after["status"] == Status.RETREATED
    assert "; 2 hits now break it, for a Green unit sustains 2, the last breaking it" in entry.text
    # A unit the table took out says so at the head of its entry, and needs no more.
    taken = make_unit("2nd Squad")
    entry = outcome_apply(
        campaign=campaign, outcomes={taken.pk: UnitOutcome(1, 0, "destroyed")}, reason="Weir"
    )[0]
    assert entry.text.startswith("Taken out at Weir") and "now break it" not in entry.text


def test_it_measures_excellent_equipment_against_each_units_own_enemy(campaign, make_unit, enemy):
    mech = {"card": "Mech", "specialties": ("mechanized",), "quality": "legendary"}
    red = make_unit("Red Mech", equipment="excellent", **mech)
    blue = make_unit("Blue Mech", equipment="excellent", into=enemy, **mech)
    grunt = make_unit("Blue Grunts", quality="legendary", into=enemy)
    faced = opposing_equipment_by_side({"red": [red], "blue": [blue, grunt]})
    assert faced == {
        red.pk: Equipment.EXCELLENT,
        blue.pk: Equipment.EXCELLENT,
        grunt.pk: Equipment.EXCELLENT,
    }
    outcome_apply(
        campaign=campaign,
        outcomes={red.pk: UnitOutcome(0, 1), blue.pk: UnitOutcome(0, 1)},
        opposing_equipment={red.pk: "excellent", blue.pk: "good"},
        reason="Ridge",
    )
    red.refresh_from_db()
    blue.refresh_from_db()
    assert red.morale_hits == 1  # Excellent against Excellent ignores nothing
    assert blue.morale_hits == 0  # Excellent against Good ignores its first Morale hit


def test_best_equipment_is_adequate_for_an_enemy_without_a_record():
    assert best_equipment([]) == Equipment.ADEQUATE
    assert best_equipment(["poor", "good"]) == Equipment.GOOD


def test_the_same_outcome_gives_the_same_leader_dice(campaign, make_unit):
    leader = {"name": "Capt. Holt", "hit_points": 40}
    mechs = [
        make_unit(name, "Mech", quality="legendary", specialties=("mechanized",), leader=leader)
        for name in ("One", "Two")
    ]
    rolls = []
    for mech in mechs:
        (entry, *_) = outcome_apply(
            campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, reason="Ridge", seed=3
        )
        rolls.append(entry.details["damage"]["leader_rolls"])
    assert rolls[0] == rolls[1] and len(rolls[0]) == 3


def _battle_applied(cast, cards, name: str, order: tuple[str, ...]) -> dict[str, dict]:
    """A campaign with one engine battle applied (its dice by default), built from scratch:
    each unit's battle entry's details, by unit name."""
    campaign = campaign_create(name=name, gm=cast.gm, ruleset=Ruleset.COMBINED_ARMS)
    red = force_create(campaign=campaign, owner=cast.gm, name="Red Company")
    blue = force_create(campaign=campaign, owner=cast.gm, name="Blue Battalion")
    leader = {"name": "Capt. Holt", "hit_points": 40}
    line_up = {
        "Iron Wolf": (blue, "Mech", "legendary", ("mechanized",), leader),
        "Old Guard": (red, "Mech", "elite", ("mechanized",), None),
        "1st Squad": (red, "Rifle Squad", "experienced", ("infantry",), None),
    }
    units = {}
    for unit_name in order:
        into, card, quality, specialties, boss = line_up[unit_name]
        units[unit_name] = unit_create(
            force=into,
            unit_type=cards[card],
            name=unit_name,
            quality=quality,
            equipment="adequate",
            specialties=specialties,
            leader=boss,
        )
    battle = Battle.objects.create(
        name="Ridge", ruleset="combined_arms", scenario={}, seed=9, engine_version="t"
    )
    lost = {
        "Iron Wolf": UnitOutcome(3, 1),
        "Old Guard": UnitOutcome(2, 0),
        "1st Squad": UnitOutcome(0, 1),
    }
    entries = outcome_apply(
        campaign=campaign,
        outcomes={units[n].pk: lost[n] for n in order},
        winners=[units["Iron Wolf"].pk],
        reason="Ridge",
        battle=battle,
        actor=cast.gm,
    )
    return {e.unit.name: e.details for e in entries if e.kind == Kind.BATTLE}


def test_the_same_campaign_built_twice_rolls_the_same_outcome_dice(cast, cards):
    """The default dice of a battle's outcome come from the battle and the units that fought,
    not from row ids: built again (other ids, its units raised in another order), the same
    campaign rolls the same dice."""
    first = _battle_applied(cast, cards, "Op. One", ("Iron Wolf", "Old Guard", "1st Squad"))
    again = _battle_applied(cast, cards, "Op. Two", ("1st Squad", "Old Guard", "Iron Wolf"))
    assert first == again
    wolf = first["Iron Wolf"]["damage"]
    assert len(wolf["blow_dice"]) == 3 and len(wolf["leader_rolls"]) > 0
    assert len(first["Old Guard"]["damage"]["blow_dice"]) == 2


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"reason": " "}, "reason"),
        ({"day": 2}, "day"),
        ({"outcomes": {}}, "outcomes"),
        ({"winners": [12345]}, "winners"),
        ({"winners": 5}, "winners"),
        ({"reason": None}, "reason"),
        ({"outcomes": None}, "outcomes"),
        ({"opposing_equipment": "superb"}, "opposing_equipment"),
    ],
)
def test_it_refuses_a_bad_outcome_and_writes_nothing(campaign, make_unit, kwargs, field):
    unit = make_unit()
    arguments = {"campaign": campaign, "outcomes": {unit.pk: UnitOutcome(0, 1)}, "reason": "Ford"}
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        outcome_apply(**{**arguments, **kwargs})
    assert field in refused.value.message_dict
    assert HistoryEntry.objects.count() == before


def test_it_refuses_a_bad_kit_naming_the_unit_and_writes_nothing(campaign, make_unit):
    unit = make_unit(equipment="excellent")
    arguments = {"campaign": campaign, "outcomes": {unit.pk: UnitOutcome(0, 1)}, "reason": "Ford"}
    before = HistoryEntry.objects.count()
    for kits, field in (
        ({unit.pk: "shiny"}, f"kits.{unit.pk}"),
        ({unit.pk: None}, f"kits.{unit.pk}"),
        ({12345: "poor"}, "kits.12345"),
        (["poor"], "kits"),
    ):
        with pytest.raises(ValidationError) as refused:
            outcome_apply(**arguments, kits=kits)
        assert field in refused.value.message_dict, kits
    assert refused.value.message_dict == {"kits": [
        "must map units to the equipment rating each fought with"
    ]}  # fmt: skip
    assert HistoryEntry.objects.count() == before
    # A rating by its name is the kit it fought with: Poor, its Excellent special is gone.
    (entry, *_) = outcome_apply(**arguments, kits={unit.pk: "poor"}, seed=1)
    assert entry.details["damage"]["excellent_ignored"] == 0


def test_it_refuses_units_of_another_campaign_or_out_of_action(campaign, make_unit, cast, cards):
    other = campaign_create(name="Elsewhere", gm=cast.gm, ruleset="combined_arms")
    stranger = unit_create(
        force=force_create(campaign=other, owner=cast.gm, name="Them"),
        unit_type=cards["Rifle Squad"],
        name="Stranger",
    )
    routed = make_unit("Routed")
    Unit.objects.filter(pk=routed.pk).update(status=Status.RETREATED)
    with pytest.raises(ValidationError) as refused:
        outcome_apply(
            campaign=campaign,
            outcomes={stranger.pk: UnitOutcome(1, 0), routed.pk: UnitOutcome(1, 0)},
            reason="Ford",
        )
    assert set(refused.value.message_dict) == {f"outcomes.{stranger.pk}", f"outcomes.{routed.pk}"}


# ---------------------------------------------------------------------------------------------
# outcome_revert
# ---------------------------------------------------------------------------------------------


def test_it_reverts_an_outcome_as_new_entries(campaign, make_unit):
    unit = make_unit("Walker", "Mech", quality="average", specialties=("mechanized",))
    created = unit.state.to_json()
    entries = outcome_apply(
        campaign=campaign, outcomes={unit.pk: UnitOutcome(1, 0)}, winners=[unit.pk], reason="Ford"
    )
    reverted = outcome_revert(entries=entries, reason="wrong battle report")
    unit.refresh_from_db()
    assert unit.state.to_json() == created
    assert [e.kind for e in reverted] == [Kind.REVERT] * len(entries)
    assert {e.reverts_id for e in reverted} == {e.pk for e in entries}
    assert reverted[0].text.startswith(
        "wrong battle report: the experience from the battle of day 1, Ford, is undone; "
    )
    assert reverted[-1].text.startswith(
        "wrong battle report: the battle of day 1, Ford, is undone; "
    )
    assert unit_history_explains(unit=unit)


def test_it_refuses_to_revert_twice_or_over_a_later_change(campaign, make_unit):
    unit = make_unit("Walker", "Mech", quality="legendary", specialties=("mechanized",))
    entries = outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 1)}, reason="Ford")
    unit_edit(unit=unit, changes={"morale_hits": 3}, reason="miscounted")
    with pytest.raises(ValidationError, match="changed since: undo that first"):
        outcome_revert(entries=entries, reason="undo")
    edit = unit.history.get(kind=Kind.GM_EDIT)
    [undone] = outcome_revert(entries=[edit], reason="undo the edit")
    assert undone.text.startswith("undo the edit: the GM's correction of day 1 is undone; ")
    with pytest.raises(ValidationError, match="reverted already"):
        outcome_revert(entries=[edit], reason="again")
    created = unit.history.get(kind=Kind.CREATED)
    with pytest.raises(ValidationError, match="Raised entry stays"):
        outcome_revert(entries=[created], reason="unmake")


def test_it_refuses_to_revert_entries_of_two_campaigns_and_writes_nothing(
    campaign, make_unit, cast, cards
):
    other = campaign_create(name="Op. Other", gm=cast.gm, ruleset=Ruleset.COMBINED_ARMS)
    membership_set(campaign=other, user=cast.player, role="player")
    there = unit_create(force=force_create(campaign=other, owner=cast.player, name="Blue"),
                        unit_type=cards["Rifle Squad"], name="Scouts")  # fmt: skip
    here = make_unit("Walker")
    edits = [
        unit_edit(unit=unit, changes={"morale_hits": 1}, reason="shelled") for unit in (here, there)
    ]
    written = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        outcome_revert(entries=edits, reason="undo", actor=cast.gm)
    assert refused.value.message_dict == {"entries": ["entries from more than one campaign"]}
    assert HistoryEntry.objects.count() == written
    assert [Unit.objects.get(pk=u.pk).morale_hits for u in (here, there)] == [1, 1]


# ---------------------------------------------------------------------------------------------
# Rosters, corrections, leaders
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Who may do what
# ---------------------------------------------------------------------------------------------


def test_the_cast_has_its_roles(campaign, cast):
    assert campaign_role(campaign=campaign, user=cast.gm) == "gm"
    assert campaign_role(campaign=campaign, user=cast.player) == Membership.Role.PLAYER
    assert campaign_role(campaign=campaign, user=cast.outsider) is None
    assert list(campaigns_for_user(user=cast.player)) == [campaign]
    assert not campaigns_for_user(user=cast.outsider).exists()
    membership_set(campaign=campaign, user=cast.outsider, role="co_gm")
    assert campaign_can_manage(campaign=campaign, user=cast.outsider)


def test_an_invitation_makes_no_member_until_accepted_and_keeps_its_role(campaign, cast):
    invitation_send(campaign=campaign, invitee=" outsider ", role="spectator", actor=cast.gm)
    [invitation] = invitations_for(cast.outsider)
    assert (invitation.campaign, invitation.role, invitation.invited_by) == (
        campaign,
        "spectator",
        cast.gm,
    )
    assert campaign_role(campaign=campaign, user=cast.outsider) is None
    assert not invitations_for(cast.player).exists()
    with pytest.raises(ObjectDoesNotExist):  # only the invitee may answer it
        invitation_accept(invitation_pk=invitation.pk, user=cast.player)
    membership = invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    assert membership.role == "spectator"
    assert campaign_role(campaign=campaign, user=cast.outsider) == "spectator"
    assert not Invitation.objects.exists()


def test_an_invitation_answered_already_says_so_to_its_invitee_only(campaign, cast):
    from campaign.services.members import InvitationAnswered

    invitation_send(campaign=campaign, invitee="outsider", role="player", actor=cast.gm)
    invitation = Invitation.objects.get()
    invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    for answer in (invitation_accept, invitation_decline):
        with pytest.raises(InvitationAnswered) as answered:
            answer(invitation_pk=invitation.pk, user=cast.outsider)
        assert answered.value.messages == [f"You have already joined {campaign.name}."]
        assert answered.value.joined and answered.value.campaign == campaign
    with pytest.raises(ObjectDoesNotExist):  # to anyone else, no such invitation
        invitation_accept(invitation_pk=invitation.pk, user=cast.player)
    assert Membership.objects.filter(campaign=campaign, user=cast.outsider).count() == 1
    assert not Invitation.objects.exists()


def test_an_invitation_declined_or_withdrawn_leaves_no_membership(campaign, cast):
    invitation_send(campaign=campaign, invitee="outsider", role="player", actor=cast.gm)
    invitation = Invitation.objects.get()
    assert invitation_decline(invitation_pk=invitation.pk, user=cast.outsider) == campaign
    invitation_send(campaign=campaign, invitee="outsider", role="co_gm", actor=cast.gm)
    invitation = Invitation.objects.get()
    with pytest.raises(PermissionDenied):
        invitation_withdraw(campaign=campaign, invitation_pk=invitation.pk, actor=cast.player)
    assert invitation_withdraw(campaign=campaign, invitation_pk=invitation.pk, actor=cast.gm) == (
        "outsider"
    )
    with pytest.raises(ObjectDoesNotExist):
        invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    assert campaign_role(campaign=campaign, user=cast.outsider) is None


def test_an_invitation_to_anyone_looks_the_same_and_members_get_none(campaign, cast):
    """Unknown names are kept like known ones; members and the GM are not invited again."""
    for name in ("nobody-at-all", "player", "gm", "outsider", "outsider"):
        assert (
            invitation_send(campaign=campaign, invitee=name, role="player", actor=cast.gm) is None
        )
    assert sorted(Invitation.objects.values_list("invitee", flat=True)) == [
        "nobody-at-all",
        "outsider",
    ]
    assert Membership.objects.get(campaign=campaign, user=cast.player).role == "player"


def test_an_invitation_by_e_mail_reaches_the_account_with_that_address(campaign, cast):
    cast.outsider.email = "Out.Sider@example.org"
    cast.outsider.save()
    invitation_send(
        campaign=campaign, invitee="OUT.SIDER@example.org", role="player", actor=cast.gm
    )
    [invitation] = invitations_for(cast.outsider)
    assert invitation.invitee == "out.sider@example.org"
    invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    assert campaign_role(campaign=campaign, user=cast.outsider) == "player"


def test_an_invitation_is_refused_for_bad_input_and_past_the_cap(campaign, cast, monkeypatch):
    with pytest.raises(PermissionDenied):
        invitation_send(campaign=campaign, invitee="outsider", role="player", actor=cast.player)
    with pytest.raises(ValidationError) as bad:
        invitation_send(campaign=campaign, invitee="a\x00b", role="king", actor=cast.gm)
    assert set(bad.value.message_dict) == {"invitee", "role"}
    monkeypatch.setattr("campaign.services.members.MAX_PENDING_INVITATIONS", 2)
    invitation_send(campaign=campaign, invitee="one", role="player", actor=cast.gm)
    invitation_send(campaign=campaign, invitee="two", role="player", actor=cast.gm)
    invitation_send(campaign=campaign, invitee="two", role="co_gm", actor=cast.gm)  # no new one
    with pytest.raises(ValidationError, match="2 invitations are waiting"):
        invitation_send(campaign=campaign, invitee="three", role="player", actor=cast.gm)
    assert dict(Invitation.objects.values_list("invitee", "role")) == {
        "one": "player",
        "two": "co_gm",
    }


def test_only_the_gm_and_co_gms_run_the_campaign(campaign, cast, make_unit, enemy):
    unit = make_unit()
    for user in (cast.player, cast.outsider):
        with pytest.raises(PermissionDenied):
            outcome_apply(
                campaign=campaign, outcomes={unit.pk: UnitOutcome(1, 0)}, reason="Ford", actor=user
            )
        with pytest.raises(PermissionDenied):
            unit_edit(unit=unit, changes={"morale_hits": 1}, reason="x", actor=user)
        with pytest.raises(PermissionDenied):
            campaign_update(campaign=campaign, apply_mode="review", actor=user)
    campaign_update(campaign=campaign, apply_mode="review", actor=cast.gm)
    campaign.refresh_from_db()
    assert campaign.apply_mode == "review"


def test_players_raise_units_in_their_own_force_only(force, enemy, cast, cards):
    unit_create(force=force, unit_type=cards["Rifle Squad"], name="Mine", actor=cast.player)
    with pytest.raises(PermissionDenied):
        unit_create(force=enemy, unit_type=cards["Rifle Squad"], name="Theirs", actor=cast.player)


def test_forces_belong_to_players_of_the_campaign(campaign, cast):
    with pytest.raises(ValidationError, match="not a player"):
        force_create(campaign=campaign, owner=cast.outsider, name="Gatecrashers")
    membership_set(campaign=campaign, user=cast.outsider, role="spectator")
    with pytest.raises(ValidationError, match="not a player"):
        force_create(campaign=campaign, owner=cast.outsider, name="Gatecrashers")
    assert force_create(campaign=campaign, owner=cast.gm, name="Opposition").owner == cast.gm


def test_a_member_with_a_force_stays_until_it_is_handed_over(campaign, force, cast):
    with pytest.raises(ValidationError, match="give it to another player on its page first"):
        membership_remove(campaign=campaign, user=cast.player)
    with pytest.raises(ValidationError, match="spectator cannot"):
        membership_set(campaign=campaign, user=cast.player, role="spectator")
    Force.objects.filter(pk=force.pk).update(owner=cast.gm)
    membership_remove(campaign=campaign, user=cast.player)
    assert campaign_role(campaign=campaign, user=cast.player) is None


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


def test_it_refuses_an_outcome_impossible_for_the_card_the_unit_fought_with(campaign, make_unit):
    # Rifle Squad: Hits 1, Skill 3, for an Experienced unit with no Order too.
    squad = make_unit(quality="experienced")
    before = HistoryEntry.objects.count()
    impossible = {
        UnitOutcome(1, 0): "every Hit lost means taken out: mark it Taken out",
        UnitOutcome(2, 0, "destroyed"): "at most 1",
        UnitOutcome(0, 0, "destroyed"): "taken out means every Hit lost, and its card has 1 Hit",
        UnitOutcome(0, 3): "at most 2 Skill can be lost",
        UnitOutcome(0, 1, "demoralised"): "broken means Skill brought down to 1",
        UnitOutcome(0, 2): "Skill brought down to 1 means broken: mark it Broken",
        UnitOutcome(1, 2, "destroyed"): "a unit leaves a battle once",
    }
    for outcome, reason in impossible.items():
        with pytest.raises(ValidationError, match=reason):
            outcome_apply(campaign=campaign, outcomes={squad.pk: outcome}, reason="Ford")
    assert HistoryEntry.objects.count() == before


def test_every_table_of_unit_fields_follows_the_one_list_of_them():
    # A field added to CampaignUnitState is a Unit column, a snapshot key and a GM correction
    # at once; the tables of its reader and its words must name it too.
    assert tuple(READERS) == UNIT_FIELDS == EDITABLE
    assert tuple(FIELD_LABELS) == SNAPSHOT_FIELDS == (*UNIT_FIELDS, "leader")
    assert {f.name for f in Unit._meta.concrete_fields} >= set(UNIT_FIELDS)


# ---------------------------------------------------------------------------------------------
# Text inputs
# ---------------------------------------------------------------------------------------------

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


def test_only_its_player_or_the_gm_sends_a_unit_into_the_combat_zone(make_unit, cast):
    squad = make_unit()
    with pytest.raises(PermissionDenied):
        unit_combat_zone_set(unit=squad, in_combat_zone=True, actor=cast.rival)
    squad.refresh_from_db()
    assert not squad.state.in_combat_zone
    unit_combat_zone_set(unit=squad, in_combat_zone=True, actor=cast.player)
    squad.refresh_from_db()
    assert squad.state.in_combat_zone
