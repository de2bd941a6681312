"""Unit skill checks, contests, Strength in numbers, and raising a unit by Requisition."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Character, TableRoll, Unit
from campaign.rules.characters import Feat
from campaign.rules.checks import (
    REQUISITION_BASE_DC,
    CheckError,
    CheckUnit,
    contest,
    requisition_check,
    requisition_dc,
    skill_check,
)
from campaign.rules.command import Command
from campaign.rules.damage import UnitOutcome
from campaign.services import leader_attach, outcome_apply
from campaign.services.characters import character_create
from campaign.services.checks import check_units, contest_run, requisition_run, skill_check_run
from campaign.services.orders import order_call_off, order_give
from tests.campaign.helpers import dice
from units.bucs import Equipment, Quality, Specialty

Q, S = Quality, Specialty


def worker(key="A", quality=Q.AVERAGE, equipment=Equipment.GOOD, specialties=(S.MEDICAL,),
           command=Command.UNDER_ORDERS, **more):  # fmt: skip
    return CheckUnit(key, key, quality, equipment, specialties, command, **more)


def test_a_check_is_d20_plus_quality_plus_equipment_in_its_specialties():
    result = skill_check([worker()], S.MEDICAL, 15, dice(12))
    assert result["modifiers"] == [
        ["quality: Average, alone under Orders", 0], ["equipment: Good", 2]
    ]  # fmt: skip
    assert result["total"] == 14 and result["success"] is False
    assert skill_check([worker()], S.MEDICAL, 14, dice(12))["success"] is True


def test_outside_its_specialties_a_unit_works_as_raw_with_poor_kit():
    result = skill_check([worker()], S.COMBAT_ENGINEERING, 10, dice(12))
    values = dict(map(tuple, result["modifiers"]))
    assert values["quality: Raw, alone under Orders"] == -6 and values["equipment: Poor"] == -4


def test_strength_in_numbers_adds_two_per_extra_unit_with_the_skill_in_common():
    crews = [worker("A"), worker("B"), worker("C"), worker("D", specialties=(S.INFANTRY,))]
    result = skill_check(crews, S.MEDICAL, 10, dice(10))
    assert ["Strength in numbers (3 units)", 4] in result["modifiers"]
    general = skill_check(crews, None, 10, dice(10))
    assert ["Strength in numbers (4 units)", 6] in general["modifiers"]
    # A helper without the skill adds nothing, and the roll says so by name.
    assert ["no help from D: no Medical specialty", 0] in result["modifiers"]
    assert not any(m[0].startswith("no help") for m in general["modifiers"])


def test_a_helper_that_cannot_act_alone_is_refused_under_the_helpers():
    green = worker("Kids", quality=Q.GREEN, command=Command.WITHOUT_ORDERS)
    with pytest.raises(CheckError) as error:
        skill_check([worker(), green], None, 10, dice(10))
    refusal = "Kids is Green: it cannot act alone; give it an Order"
    assert error.value.errors == {"helpers": [refusal]}
    with pytest.raises(CheckError) as error:
        contest([worker()], None, [worker("B"), green], None, dice(10, 10))
    assert list(error.value.errors) == ["resisting_helpers"]


def test_a_unit_that_cannot_act_alone_makes_no_check_without_an_order():
    with pytest.raises(CheckError, match="cannot act alone"):
        skill_check([worker(quality=Q.GREEN, command=Command.WITHOUT_ORDERS)], None, 10, dice(10))
    led = worker(command=Command.ASSISTING, leader_feats=frozenset({Feat.SPECIAL_FORCES}))
    result = skill_check([led], S.MEDICAL, 10, dice(10))
    assert result["modifiers"][0] == ["quality: Average, assisting its leader", 3]
    assert ["leader's feats (Special Forces)", 1] in result["modifiers"]


def test_a_unit_outside_its_specialties_makes_no_check_without_an_order():
    """Outside its specialties a unit performs as Raw, and Raw cannot act alone: without an Order
    it is refused, as the lead, as a helper, on either side of a contest."""
    rifles = worker("Rifles", equipment=Equipment.ADEQUATE, specialties=(S.INFANTRY,),
                    command=Command.WITHOUT_ORDERS)  # fmt: skip
    refusal = (
        "Rifles is outside its specialties: it performs as Raw, and a Raw unit makes no check "
        "without an Order; give it an Order"
    )
    with pytest.raises(CheckError) as error:
        skill_check([rifles], S.MEDICAL, 10, dice(10))
    assert error.value.errors == {"units": [refusal]}
    with pytest.raises(CheckError) as error:
        skill_check([worker(), rifles], S.MEDICAL, 10, dice(10))
    assert error.value.errors == {"helpers": [refusal]}
    with pytest.raises(CheckError) as error:
        contest([rifles], S.MEDICAL, [worker()], None, dice(10, 10))
    assert error.value.errors == {"active": [refusal]}
    with pytest.raises(CheckError) as error:
        contest([worker()], None, [worker("B"), rifles], S.MEDICAL, dice(10, 10))
    assert error.value.errors == {"resisting_helpers": [refusal]}
    # Within its specialties, or on a general skill, it works alone at its own quality.
    for skill in (S.INFANTRY, None):
        result = skill_check([rifles], skill, 10, dice(10))
        assert result["modifiers"][0] == ["quality: Average, alone without Orders", -2]
    # Under an Order it does the task as Raw.
    ordered = worker("Rifles", specialties=(S.INFANTRY,))
    result = skill_check([ordered], S.MEDICAL, 10, dice(10))
    assert result["modifiers"][0] == ["quality: Raw, alone under Orders", -6]


def test_a_contest_is_two_checks_and_a_tie_goes_to_the_resisting_side():
    scouts, hidden = [worker("Scouts")], [worker("Hidden")]
    assert contest(scouts, S.MEDICAL, hidden, S.MEDICAL, dice(11, 10))["winner"] == "active"
    assert contest(scouts, S.MEDICAL, hidden, S.MEDICAL, dice(10, 10))["winner"] == "resisting"


def test_it_chose_the_requisition_dcs_and_adds_the_equipment_modifier():
    assert list(REQUISITION_BASE_DC.values()) == [10, 12, 14, 16, 18]  # Raw to Experienced
    assert requisition_dc(Q.AVERAGE, Equipment.EXCELLENT) == 20
    assert requisition_dc(Q.AVERAGE, Equipment.POOR) == 12
    assert requisition_check(3, Q.AVERAGE, Equipment.ADEQUATE, dice(13))["success"] is True
    assert requisition_check(3, Q.AVERAGE, Equipment.ADEQUATE, dice(12))["success"] is False


@pytest.mark.django_db
def test_a_skill_check_is_seeded_and_kept_in_every_units_history(campaign, make_unit):
    medics = [make_unit(f"Medics {i}", specialties=("medical",)) for i in (1, 2)]
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    for unit in medics:
        order_give(giver=holt, unit=unit, kind="use_skill")
    roll = skill_check_run(campaign=campaign, units=medics, skill="medical", dc=12, seed=3)
    again = skill_check_run(campaign=campaign, units=medics, skill="medical", dc=12, seed=3)
    assert roll.result == again.result and roll.seed == 3
    assert ["Strength in numbers (2 units)", 2] in roll.result["modifiers"]
    for unit in medics:
        entry = unit.history.last()
        assert entry.kind == "skill_check" and entry.details["table_roll"] == again.pk


@pytest.mark.django_db
def test_bad_checks_are_refused_and_nothing_is_written(campaign, make_unit, enemy):
    squad = make_unit()
    with pytest.raises(ValidationError) as error:
        skill_check_run(campaign=campaign, units=[], skill="flying", dc=0)
    assert set(error.value.message_dict) == {"units", "skill", "dc"}
    kids = make_unit("Kids", quality="green")
    with pytest.raises(ValidationError) as error:
        skill_check_run(campaign=campaign, units=[kids], dc=10)
    assert error.value.message_dict == {
        "units": ["Kids is Green: it cannot act alone; give it an Order"]
    }
    # In a contest each side's unit that cannot act alone is named under its side.
    with pytest.raises(ValidationError) as error:
        contest_run(campaign=campaign, active=[kids], resisting=[make_unit("B", into=enemy)])
    assert error.value.message_dict == {
        "active": ["Kids is Green: it cannot act alone; give it an Order"]
    }
    with pytest.raises(ValidationError) as error:
        contest_run(campaign=campaign, active=[squad],
                    resisting=[make_unit("Cubs", into=enemy, quality="green")])  # fmt: skip
    assert list(error.value.message_dict) == ["resisting"]
    with pytest.raises(ValidationError) as error:
        contest_run(campaign=campaign, active=[squad], resisting=[squad])
    assert error.value.message_dict == {
        "resisting": [
            f"{squad.name} is on both sides: a unit cannot contest itself; "
            "choose a unit of another force"
        ]
    }
    # Two units of one force are not opponents: the GM is told which force and why.
    with pytest.raises(ValidationError) as error:
        contest_run(campaign=campaign, active=[squad], resisting=[make_unit("Mates")])
    assert error.value.message_dict == {
        "resisting": [
            f"{squad.force.name} is on both sides: a force cannot contest itself; "
            "choose a unit of another force"
        ]
    }
    assert not TableRoll.objects.exists()
    roll = contest_run(campaign=campaign, active=[squad], resisting=[make_unit("C", into=enemy)],
                       seed=1)  # fmt: skip
    assert roll.kind == "contest" and roll.result["winner"] in ("active", "resisting")


@pytest.mark.django_db
def test_a_unit_raised_by_requisition_enters_history_with_its_roll(force, cards, campaign):
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    rolls = {}
    for seed in range(40):
        roll = requisition_run(force=force, unit_type=cards["Rifle Squad"], name=f"R{seed}",
                               quality="average", specialties=["infantry"], character=holt,
                               bonus=5, seed=seed)  # fmt: skip
        rolls[roll.result["success"]] = roll
        if len(rolls) == 2:
            break
    raised = Unit.objects.get(pk=rolls[True].result["unit"])
    created = raised.history.first()
    assert created.details["raised_by"] == "requisition"
    assert created.details["d20"] + 5 == created.details["total"] >= created.details["dc"] == 16
    assert "by Requisition (Holt: d20" in created.text
    # The summary says what is Poor or Good, as the roster names equipment.
    assert "Average Rifle Squad “R" in rolls[True].summary
    assert "(Adequate equipment): d20" in rolls[True].summary
    assert "unit" not in rolls[False].result
    assert not Unit.objects.filter(name=rolls[False].setup["unit"]["name"]).exists()


@pytest.mark.django_db
def test_a_character_killed_at_a_units_head_since_it_was_loaded_cannot_requisition(
    force, cards, campaign, make_unit
):
    hero = character_create(campaign=campaign, name="Capt. Hero", hit_points=1)
    vanguard = make_unit("Vanguard", quality="legendary")
    leader_attach(unit=vanguard, character=hero)
    outcome_apply(
        campaign=campaign, outcomes={vanguard.pk: UnitOutcome(1, 0, "destroyed")},
        reason="Ambush", seed=0,
    )  # fmt: skip
    assert not Character.objects.get(pk=hero.pk).alive  # the caller's copy still says alive
    with pytest.raises(ValidationError) as refused:
        requisition_run(force=force, unit_type=cards["Rifle Squad"], name="New",
                        quality="green", specialties=["infantry"], character=hero, bonus=40,
                        seed=1)  # fmt: skip
    assert refused.value.message_dict == {
        "character": ["Capt. Hero is dead: the dead requisition nothing"]
    }
    assert not TableRoll.objects.exists() and not Unit.objects.filter(name="New").exists()


@pytest.mark.django_db
def test_a_unit_raised_by_gm_fiat_says_so(make_unit):
    assert make_unit().history.first().details == {"raised_by": "gm_fiat"}


@pytest.mark.django_db
def test_elite_and_legendary_come_only_from_combat_never_from_requisition(force, cards):
    """BUCS: "Elite and Legendary come only from combat": no roll raises such a unit, however
    high; nothing is rolled or raised, and the GM is told why."""
    for quality in ("elite", "legendary"):
        with pytest.raises(ValidationError) as refused:
            requisition_run(force=force, unit_type=cards["Rifle Squad"], name="Aces",
                            quality=quality, bonus=40, seed=1)  # fmt: skip
        (said,) = refused.value.message_dict["quality"]
        assert "Elite and Legendary come only from combat" in said
    assert not TableRoll.objects.exists() and not Unit.objects.exists()
    raised = requisition_run(force=force, unit_type=cards["Rifle Squad"], name="Veterans",
                             quality="experienced", bonus=40, seed=1)  # fmt: skip
    assert raised.result["success"] and Unit.objects.get().quality == Q.EXPERIENCED


def test_a_bad_requisition_names_every_field_and_raises_nothing(force, cards):
    with pytest.raises(ValidationError) as error:
        requisition_run(force=force, unit_type=cards["Rifle Squad"], name="", quality="superb",
                        bonus=99)  # fmt: skip
    assert {"name", "quality", "bonus"} <= set(error.value.message_dict)
    assert not TableRoll.objects.exists() and not Unit.objects.exists()


@pytest.mark.django_db
def test_the_gm_is_told_why_a_unit_outside_its_specialties_makes_no_check_alone(
    campaign, make_unit
):
    rifles = make_unit("Rifles", quality="average", specialties=("infantry",))
    with pytest.raises(ValidationError) as error:
        skill_check_run(campaign=campaign, units=[rifles], skill="medical", dc=5, seed=1)
    (refusal,) = error.value.message_dict["units"]
    assert "outside its specialties: it performs as Raw" in refusal
    assert not TableRoll.objects.exists()
    roll = skill_check_run(campaign=campaign, units=[rifles], skill="infantry", dc=5, seed=1)
    assert roll.result["modifiers"][0] == ["quality: Average, alone without Orders", -2]


@pytest.mark.django_db
def test_a_contest_side_of_several_units_gets_strength_in_numbers_from_their_shared_skill(
    campaign, make_unit, enemy
):
    scouts = make_unit("Scouts", specialties=("infantry",))
    rangers = make_unit("Rangers", specialties=("infantry",))
    medics = make_unit("Medics", specialties=("medical",))
    # Outside its specialties a unit performs as Raw: it helps only under an Order.
    order_give(giver=character_create(campaign=campaign, name="Holt", hit_points=10),
               unit=medics, kind="use_skill")  # fmt: skip
    hidden = make_unit("Pickets", into=enemy, specialties=("infantry",))
    roll = contest_run(campaign=campaign, active=[scouts, rangers, medics], resisting=[hidden],
                       active_skill="infantry", resisting_skill="infantry", seed=5)  # fmt: skip
    modifiers = dict(roll.result["active"]["modifiers"])
    assert modifiers["Strength in numbers (2 units)"] == 2  # Medics share no Infantry
    assert "Strength in numbers" not in " ".join(dict(roll.result["resisting"]["modifiers"]))
    assert roll.summary.startswith("Scouts (helped by Rangers, Medics) (")
    assert roll.setup["active"] == [scouts.pk, rangers.pk, medics.pk]


@pytest.mark.django_db
def test_a_unit_whose_order_is_called_off_checks_without_orders(campaign, make_unit):
    medics = make_unit("Medics", specialties=("medical",))
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    order = order_give(giver=holt, unit=medics, kind="use_skill")
    (under,) = check_units(campaign, [medics])
    assert under.command == Command.UNDER_ORDERS
    order_call_off(order=order)
    (called_off,) = check_units(campaign, [medics])
    assert called_off.command == Command.WITHOUT_ORDERS
    # Outside its specialties it is Raw, and Raw makes no check without an Order.
    with pytest.raises(ValidationError, match="makes no check without an Order"):
        skill_check_run(campaign=campaign, units=[medics], skill="infantry", dc=10, seed=1)


@pytest.mark.django_db
def test_a_unit_raised_with_a_negative_bonus_says_its_roll_as_the_kept_roll_does(
    force, cards, campaign
):
    """The unit's history tells its Requisition roll in the words the kept roll uses: the die,
    the bonus with its own sign (never "+ -2"), and how the DC was made."""
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    # Seed 2 rolls a 20: 20 − 2 = 18 against DC 12 (Green 12, Adequate +0): raised.
    roll = requisition_run(force=force, unit_type=cards["Rifle Squad"], name="Levy",
                           quality="green", specialties=["infantry"], character=holt,
                           bonus=-2, seed=2)  # fmt: skip
    said = "d20 20 -2 = 18 against DC 12 (Green 12, Adequate equipment +0)"
    assert said in roll.summary
    created = Unit.objects.get(pk=roll.result["unit"]).history.first()
    assert f"by Requisition (Holt: {said})" in created.text
    assert "+ -2" not in created.text


@pytest.mark.django_db
def test_a_check_takes_dcs_1_to_60_refuses_a_unit_out_of_action_and_says_a_failure(
    campaign, make_unit, cast
):
    from django.core.exceptions import PermissionDenied

    from campaign.services import unit_edit

    medics = [make_unit(f"Medics {i}", specialties=("medical",)) for i in (1, 2)]
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    for unit in medics:
        order_give(giver=holt, unit=unit, kind="use_skill")
    # DC 60 is the most taken, and no d20 reaches it: the check fails and says so.
    roll = skill_check_run(campaign=campaign, units=medics, skill="medical", dc=60, seed=3)
    assert roll.result["success"] is False and roll.summary.endswith("against DC 60: fails")
    # The unit that made it is named first in its own entry only; its helper's names none.
    makers = [unit.history.last().details["maker"] for unit in medics]
    assert makers == ["Medics 1", ""]
    for dc in (61, True):
        with pytest.raises(ValidationError) as refused:
            skill_check_run(campaign=campaign, units=medics[:1], skill="medical", dc=dc, seed=3)
        assert list(refused.value.message_dict) == ["dc"]
    unit_edit(unit=medics[1], changes={"status": "retreated"}, reason="ran")
    before = TableRoll.objects.count()
    with pytest.raises(ValidationError) as refused:
        skill_check_run(campaign=campaign, units=medics[1:], skill="medical", dc=10, seed=3)
    assert refused.value.message_dict == {"units": ["Medics 2 is not ready: it cannot work"]}
    assert TableRoll.objects.count() == before
    # Only those who run the campaign roll at its table.
    with pytest.raises(PermissionDenied):
        skill_check_run(campaign=campaign, units=medics[:1], skill="medical", dc=10,
                        actor=cast.player)  # fmt: skip
    assert TableRoll.objects.count() == before


@pytest.mark.django_db
def test_a_contest_names_the_side_that_won_and_enters_both_sides_histories(
    campaign, make_unit, enemy
):
    scouts, pickets = make_unit("Scouts"), make_unit("Pickets", into=enemy)
    rolls = [
        contest_run(campaign=campaign, active=[scouts], resisting=[pickets], seed=seed)
        for seed in (0, 1)  # d20s 17 against 16, then 3 against 17
    ]
    assert [roll.result["winner"] for roll in rolls] == ["active", "resisting"]
    assert rolls[0].summary.endswith(": Scouts wins")
    assert rolls[1].summary.endswith(": Pickets wins")
    for unit in (scouts, pickets):
        entries = unit.history.filter(kind="contest").order_by("pk")
        assert [e.details["table_roll"] for e in entries] == [roll.pk for roll in rolls]


@pytest.mark.django_db
def test_a_requisition_takes_a_bonus_within_40_either_way_and_a_character_of_its_campaign(
    force, cards, campaign, cast
):
    from campaign.services import campaign_create

    elsewhere = campaign_create(name="Op. Elsewhere", gm=cast.gm, ruleset=campaign.ruleset)
    stranger = character_create(campaign=elsewhere, name="Maj. Stray", hit_points=10)
    with pytest.raises(ValidationError) as refused:
        requisition_run(force=force, unit_type=cards["Rifle Squad"], name="Rifles",
                        character=stranger, bonus=-41, seed=1)  # fmt: skip
    assert refused.value.message_dict == {
        "character": [f"Maj. Stray cannot requisition for {campaign}"],
        "bonus": ["the bonus must be a whole number within ±40"],
    }
    assert not TableRoll.objects.exists() and not Unit.objects.exists()
    roll = requisition_run(force=force, unit_type=cards["Rifle Squad"], name="Rifles",
                           bonus=-40, seed=1)  # fmt: skip
    assert roll.setup["bonus"] == -40 and not roll.result["success"]
