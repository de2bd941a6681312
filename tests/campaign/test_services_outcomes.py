"""Battle outcomes applied and reverted: an entry for every unit, naming the die that split each
BUCS hit and why a unit retreats, excellent equipment measured against each unit's own enemy, the
same dice for the same battle; a bad, impossible or foreign outcome refused writing nothing; and a
revert written as new entries, refused twice or over a later change."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from battles.models import Battle
from campaign.models import HistoryEntry, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.state import Status
from campaign.selectors.entries import unit_history_explains
from campaign.services import (
    best_equipment,
    campaign_create,
    force_create,
    membership_set,
    opposing_equipment_by_side,
    outcome_apply,
    outcome_revert,
    unit_create,
    unit_edit,
)
from units.bucs import Equipment
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


def test_a_refusal_of_where_skill_came_to_names_the_printed_cards_skill(campaign, make_unit, cards):
    # Rifle Squad prints Skill 3 in the library. Experienced with no Order and Infantry: 3; the
    # same unit raised without Infantry fights as Raw with Poor kit: 3 − 3, held to 2.
    cards["Rifle Squad"].specialty = "infantry"
    cards["Rifle Squad"].save()
    lacking = make_unit("Recruits", quality="experienced", specialties=())
    with pytest.raises(ValidationError) as refused:
        outcome_apply(campaign=campaign, outcomes={lacking.pk: UnitOutcome(0, 1)}, reason="Ford")
    assert refused.value.message_dict == {
        f"outcomes.{lacking.pk}": [
            "Recruits: Skill brought down to 1 means broken: mark it Broken (its card's Skill 2, "
            "less the 1 lost, is 1)"
        ]
    }
    squad = make_unit(quality="experienced")
    with pytest.raises(ValidationError) as refused:
        outcome_apply(
            campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 1, "demoralised")}, reason="Ford"
        )
    assert refused.value.message_dict == {
        f"outcomes.{squad.pk}": [
            "1st Squad: broken means Skill brought down to 1: its card's Skill 3, less the 1 "
            "lost, is 2"
        ]
    }
    outcome_apply(campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 1)}, reason="Ford")
    assert Unit.objects.get(pk=squad.pk).morale_hits == 1
