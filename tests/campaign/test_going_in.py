"""The bridge going in (rulings.md, "The bridge, second edition"): one rule for everything BUCS
knows about a unit — quality under Orders or without, equipment, the specialty its card needs —
turned into one shift of the card's Skill; quality and Order go into the scenario."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from campaign.rules.bridge import (
    COMMANDED,
    BridgeError,
    battle_card,
    card_for,
    card_specialties,
    fought_going,
    fought_kit,
    going_in,
    unit_going_in,
)
from campaign.rules.command import Command, column
from campaign.rules.state import Status
from campaign.services.characters import character_create
from campaign.services.going_in import table_going_into
from campaign.services.orders import order_give
from tests.campaign.helpers import unit_state
from tests.campaign.test_bridge import RIFLES
from units.bucs import CANNOT_ACT_ALONE, Equipment, Quality, Specialty
from units.cardtext import validate_card

Q = Quality
E = Equipment
S = Specialty


def skill(printed=3, quality=Q.AVERAGE, **kwargs):
    return going_in({**RIFLES, "skill": printed}, effective=quality, **kwargs)


@pytest.mark.parametrize(
    ("quality", "modifier", "shift"),
    [
        (Q.RAW, -6, -2),
        (Q.GREEN, -4, -1),
        (Q.INEXPERIENCED, -2, -1),
        (Q.AVERAGE, 0, 0),
        (Q.EXPERIENCED, +2, +1),
        (Q.ELITE, +4, +1),
        (Q.LEGENDARY, +6, +2),
    ],
    ids=lambda v: v.label if isinstance(v, Quality) else str(v),
)
def test_under_orders_with_adequate_kit_quality_shifts_skill_by_its_modifier_over_four(
    quality, modifier, shift
):
    printed = 4 if shift < 0 else 3  # a printed Skill that leaves the shift inside 2..5
    going = skill(printed, quality)
    assert (going.modifier, going.shift, going.skill) == (modifier, shift, printed + shift)


@pytest.mark.parametrize(
    ("quality", "modifier", "shift"),
    [
        # Raw and Green cannot act alone: they fight at the table's worst, −6, and hold.
        (Q.RAW, -6, -2),
        (Q.GREEN, -6, -2),
        (Q.INEXPERIENCED, -4, -1),
        (Q.AVERAGE, -2, -1),
        (Q.EXPERIENCED, 0, 0),
        (Q.ELITE, +4, +1),
        (Q.LEGENDARY, +6, +2),
    ],
    ids=lambda v: v.label if isinstance(v, Quality) else str(v),
)
def test_without_an_order_quality_gives_its_alone_without_orders_modifier(quality, modifier, shift):
    going = skill(4 if shift < 0 else 3, quality, under_orders=False)
    assert (going.modifier, going.shift) == (modifier, shift)


@pytest.mark.parametrize("quality", [Q.RAW, Q.GREEN], ids=lambda q: q.label)
def test_a_unit_that_cannot_act_alone_counts_the_same_at_the_bridge_and_in_an_engagement(quality):
    # "Green units may act alone only after an Order": without one, Green is at the table's
    # worst, as Raw is, in a battle and in a fight alike; an Order lifts Green to its −4.
    alone = going_in(RIFLES, effective=quality, under_orders=False).modifier
    assert alone == column(quality, Command.WITHOUT_ORDERS)[0] == CANNOT_ACT_ALONE == -6
    ordered = going_in(RIFLES, effective=quality, under_orders=True).modifier
    assert ordered == column(quality, Command.UNDER_ORDERS)[0] == quality.alone_under_orders


@pytest.mark.parametrize(
    ("quality", "equipment", "modifier", "shift"),
    [
        (Q.AVERAGE, E.POOR, -4, -1),
        (Q.AVERAGE, E.BARELY_ADEQUATE, -2, -1),
        (Q.AVERAGE, E.GOOD, +2, +1),
        (Q.AVERAGE, E.EXCELLENT, +4, +1),
        (Q.EXPERIENCED, E.BARELY_ADEQUATE, 0, 0),  # the two cancel
        (Q.ELITE, E.EXCELLENT, +8, +2),
        (Q.LEGENDARY, E.EXCELLENT, +10, +3),  # 2.5, half away from zero
        (Q.RAW, E.POOR, -10, -3),
        (Q.GREEN, E.GOOD, -2, -1),  # −0.5 rounds away from zero
    ],
)
def test_equipment_adds_its_modifier_before_the_shift(quality, equipment, modifier, shift):
    going = skill(3, quality, equipment=equipment)
    assert (going.modifier, going.shift) == (modifier, shift)


def test_a_unit_on_a_card_its_specialties_do_not_cover_fights_as_raw_with_poor_kit():
    # An Elite, Excellent-equipped infantry unit put in a tank (the card needs Armor): it
    # fights as Raw (−6) with Poor kit (−4): −10, a shift of −3, so printed Skill 4 is 2.
    tank = {**RIFLES, "name": "Medium Tank", "skill": 4}
    going = going_in(
        tank,
        effective=Q.ELITE,
        equipment=E.EXCELLENT,
        specialties=(S.INFANTRY,),
        needed={S.ARMOR},
    )
    assert (going.quality, going.equipment, going.covered) == (Q.RAW, E.POOR, False)
    assert (going.modifier, going.shift, going.skill) == (-10, -3, 2)
    covered = going_in(
        tank, effective=Q.ELITE, equipment=E.EXCELLENT, specialties=(S.MECHANIZED, S.ARMOR),
        needed={S.ARMOR},
    )  # fmt: skip
    assert (covered.modifier, covered.skill) == (+8, 5)


def test_a_raw_unit_fights_with_poor_kit_on_any_card_that_needs_a_specialty():
    # Raw may hold no specialty (its limit is 0): on a card that needs one it is outside its
    # specialties like any unit, Raw and with Poor kit (−10), whatever it owns; a card that needs
    # none takes its own kit.
    going = going_in(RIFLES, effective=Q.RAW, equipment=E.GOOD, needed={S.INFANTRY})
    assert (going.quality, going.equipment, going.modifier, going.shift) == (Q.RAW, E.POOR, -10, -3)
    going = going_in(RIFLES, effective=Q.RAW, equipment=E.GOOD, needed=())
    assert (going.quality, going.equipment, going.modifier, going.shift) == (Q.RAW, E.GOOD, -4, -1)


def test_a_unit_brought_down_to_raw_by_its_hits_still_counts_as_poor_outside_its_specialties(
    make_unit, cards
):
    # An Average medical crew (no Infantry) with Excellent kit on a rifle squad's card fights as
    # Raw with Poor kit: −10. Three Morale hits take it down to Raw, but it still holds its
    # specialty, so it is still pressed into a task outside it: −10, never its own kit's −2.
    cards["Rifle Squad"].specialty = "infantry"
    cards["Rifle Squad"].save()
    medics = make_unit("Medics", quality="average", equipment="excellent", specialties=("medical",))
    fresh = unit_going_in(medics)
    medics.morale_hits = 3
    shaken = unit_going_in(medics)
    assert (fresh.quality, fresh.equipment, fresh.modifier) == (Q.RAW, E.POOR, -10)
    assert (shaken.quality, shaken.equipment, shaken.modifier) == (Q.RAW, E.POOR, -10)


def test_it_takes_outstanding_morale_and_casualty_hits_off_quality(make_unit):
    # Elite (5) with 1 Morale and 2 Casualty hits fights as Inexperienced (2): Skill 4 − 1 = 3.
    state = unit_state(quality=Q.ELITE, morale_hits=1, casualty_hits=2)
    assert state.effective_quality == Q.INEXPERIENCED
    unit = make_unit("Veterans", "Mech", quality="elite", specialties=("mechanized",))
    unit.morale_hits, unit.casualty_hits = 1, 2
    assert unit_going_in(unit).quality == Q.INEXPERIENCED
    assert battle_card(unit)["skill"] == 3


def test_it_never_takes_effective_quality_below_raw():
    state = unit_state(quality=Q.GREEN, morale_hits=4, casualty_hits=3)
    assert state.effective_quality == Q.RAW


@pytest.mark.parametrize(("printed", "quality", "printed_as"), [(5, Q.LEGENDARY, 5), (2, Q.RAW, 2)])
def test_it_clamps_battle_skill_to_the_card_range(printed, quality, printed_as):
    assert skill(printed, quality).skill == printed_as


def test_it_prints_the_card_afresh_and_leaves_the_library_card_alone():
    card = {**RIFLES, "weapons": [dict(RIFLES["weapons"][0])]}
    shifted = card_for(card, going_in(card, effective=Q.LEGENDARY))
    shifted["weapons"][0]["power"] = 9
    assert card["skill"] == 3 and card["weapons"][0]["power"] == 2 and shifted["skill"] == 5


def test_it_prints_the_battle_card_in_the_engine_card_format(make_unit):
    unit = make_unit(quality="experienced")
    unit.morale_hits = 1  # Experienced less one hit: Average, Skill as printed
    card = battle_card(unit)
    validate_card(card)
    assert card == {**unit.unit_type.card, "skill": 3}
    unit.morale_hits = 0
    assert battle_card(unit)["skill"] == 4
    assert battle_card(unit, under_orders=False)["skill"] == 3  # Experienced alone: 0


def test_the_card_names_the_specialty_a_unit_needs_to_fight_at_its_quality(make_unit, cards):
    cards["Medium Tank"].specialty = "armor"
    cards["Medium Tank"].save()
    crew = make_unit("Tiger", "Medium Tank", quality="elite", specialties=("mechanized", "armor"))
    squad = make_unit("Pressed Men", "Medium Tank", quality="elite", specialties=("infantry",))
    assert battle_card(crew)["skill"] == 5  # Elite +4: +1
    assert battle_card(squad)["skill"] == 2  # Raw with Poor kit: −10, −3 from printed 4
    assert unit_going_in(squad).to_json() == {
        "quality": "raw", "equipment": "poor", "covered": False, "under_orders": True,
        "modifier": -10, "shift": -3, "skill": 2,
    }  # fmt: skip


@pytest.mark.parametrize("status", [Status.RETREATED, Status.DESTROYED])
def test_it_gives_no_battle_card_to_a_unit_out_of_action(make_unit, status):
    unit = make_unit()
    unit.status = status
    with pytest.raises(BridgeError, match="cannot go into battle"):
        battle_card(unit)


def test_a_unit_raised_with_no_specialty_takes_those_its_card_needs_if_it_may_hold_them():
    """A unit raised with no specialty ticked takes the one its card needs, with what that one
    requires, "only when its quality may hold them" (docs/campaign.md §6.5)."""
    infantry, armor = SimpleNamespace(specialty="infantry"), SimpleNamespace(specialty="armor")
    assert card_specialties(infantry, Q.GREEN) == [S.INFANTRY]
    assert card_specialties(armor, Q.AVERAGE) == [S.MECHANIZED, S.ARMOR]
    assert card_specialties(armor, Q.GREEN) == card_specialties(infantry, Q.RAW) == []


def rifle_unit(**fields):
    """A persistent unit on the Rifle Squad card (Skill 3, needs Infantry), as the bridge reads
    one: an Average infantry squad with Adequate kit, with any fields changed."""
    fields = {
        "quality": 3, "morale_hits": 0, "casualty_hits": 0, "equipment": "adequate",
        "specialties": ["infantry"],
        "unit_type": SimpleNamespace(card=RIFLES, specialty="infantry"),
        **fields,
    }  # fmt: skip
    return SimpleNamespace(**fields)


def test_a_unit_a_legendary_unit_commanded_with_no_order_went_in_under_orders():
    """Under a Legendary unit's command a unit counts as under Orders, though the Legendary
    unit has no Order to pass on (docs/bucs-choices.md, "Orders at the bridge"): the card it
    fought with is printed again from the under-Orders column."""
    mech_skill = SimpleNamespace(card={**RIFLES, "skill": 4}, specialty="infantry")
    green = rifle_unit(quality=1, unit_type=mech_skill)
    commanded = {"order": None, "source": COMMANDED, "quality": "green", "equipment": "adequate"}
    assert fought_going(green, commanded).skill == 3  # Green under Orders: −4 ÷ 4 = −1
    alone = {**commanded, "source": "none"}
    assert fought_going(green, alone).skill == 2  # without: the worst value, −6 ÷ 4 → −2


def test_the_kit_a_unit_fought_with_counts_as_poor_under_an_order_outside_its_specialties():
    """Excellent kit's special goes by each side's kit as it fought: Poor for a unit that did
    its Order outside its specialties ("counts as Poor"), however good its own."""
    unit = rifle_unit(equipment="excellent")
    assert fought_kit(unit) == E.EXCELLENT
    outside = {"order": {"kind": "hold"}, "source": "character", "quality": "raw",
               "equipment": "poor"}  # fmt: skip
    assert fought_kit(unit, outside) == E.POOR


def test_it_has_no_battle_card_for_a_building():
    with pytest.raises(BridgeError, match="not a unit card"):
        going_in(
            {"name": "House", "resistance": 3, "hits": 4, "admits": None, "rubble": "r"},
            effective=Q.RAW,
        )


@pytest.mark.parametrize(
    ("printed", "quality", "kwargs", "said"),
    [
        (3, Q.AVERAGE, {"under_orders": False},
         "Skill 2: the card's 3, shifted by Average without Orders (−2) and Adequate kit (0): "
         "−2 ÷ 4 = −0.5, rounded half away from zero to −1."),
        (4, Q.ELITE, {"equipment": E.EXCELLENT},
         "Skill 5: the card's 4, shifted by Elite under Orders (+4) and Excellent kit (+4): "
         "+8 ÷ 4 = +2; 6 is held to 5, for a card's Skill runs 2 to 5."),
        (3, Q.GREEN, {"under_orders": False},
         "Skill 2: the card's 3, shifted by Green without Orders (−6: it cannot act alone) and "
         "Adequate kit (0): −6 ÷ 4 = −1.5, rounded half away from zero to −2; 1 is held to 2, "
         "for a card's Skill runs 2 to 5."),
        (3, Q.AVERAGE, {}, "Skill 3: the card's 3, shifted by Average under Orders (0) and "
         "Adequate kit (0): 0 ÷ 4 = 0."),
        (4, Q.ELITE, {"specialties": [S.INFANTRY], "needed": [S.ARMOR]},
         "Skill 2: the card's 4, shifted by Raw under Orders (−6) and Poor kit (−4), outside its "
         "specialties: −10 ÷ 4 = −2.5, rounded half away from zero to −3; 1 is held to 2, for a "
         "card's Skill runs 2 to 5."),
    ],
    ids=["without-orders", "held-at-five", "cannot-act-alone", "as-printed", "uncovered"],
)  # fmt: skip
def test_the_skill_working_says_how_the_card_skill_comes_from_the_printed_one(
    printed, quality, kwargs, said
):
    """A printed card's Skill is a number a GM must be able to check against the tables: the
    card's own, the quality's column, the kit, the division and its rounding, the clamp."""
    assert skill(printed, quality, **kwargs).skill_working(printed) == said


@pytest.mark.django_db
def test_a_units_card_under_an_order_outside_its_specialties_has_poor_kit(campaign, make_unit):
    """ "A unit pressed into a task outside its specialties counts as Poor": the card a table
    battle prints for an Elite squad with Excellent kit told to Establish Beachhead is Raw with
    Poor kit, as its Orders go in, not its own Excellent kit."""
    marines = make_unit("Marines", quality="elite", equipment="excellent")
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=12)
    order_give(giver=holt, unit=marines, kind="establish_beachhead")
    going = table_going_into(campaign, [marines], at=0)[marines.pk]
    assert going.orders.equipment == going.going.equipment == Equipment.POOR
    assert going.going.quality == Quality.RAW and going.going.modifier == -10
