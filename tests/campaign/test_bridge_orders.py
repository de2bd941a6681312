"""Orders at the bridge (docs/bucs-choices.md, "Orders at the bridge"): a character's Order under
way goes into the Team Bravo battle the unit fights, under BUCS's rules on Orders."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest

from campaign.models import CampaignBattle
from campaign.rules.bridge import (
    COMMANDED,
    ENGINE_ORDER,
    CharacterOrder,
    SideUnit,
    battle_order,
    going_in,
    legendary_orders,
    went_in_text,
)
from campaign.rules.checks import CheckUnit, skill_check_roll
from campaign.rules.command import Command
from campaign.rules.orders import OrderKind
from campaign.services import leader_attach
from campaign.services.battles import (
    Deployment,
    campaign_battle_launch,
    campaign_battle_scenario,
)
from campaign.services.characters import character_create
from campaign.services.orders import clock_advance, order_call_off, order_give
from tests.campaign.helpers import dice
from tests.campaign.test_bridge import RIFLES
from units.bucs import Equipment, Quality, Specialty

Q = Quality
ADEQUATE = Equipment.ADEQUATE
INFANTRY = (Specialty.INFANTRY,)
CROSSROADS = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"


def _order(kind: OrderKind) -> CharacterOrder:
    return CharacterOrder(kind, "Capt. Holt", finishes_at=26)


def _skill(going) -> int:
    return going_in(
        RIFLES,
        effective=going.quality,
        equipment=going.equipment,
        specialties=INFANTRY,
        under_orders=going.under_orders,
    ).skill


def test_each_characters_order_becomes_a_team_bravo_standing_order():
    assert {k.value: v for k, v in ENGINE_ORDER.items()} == {
        "attack": "attack",
        "use_skill": "hold",
        "establish_beachhead": "advance",
    }
    amphibious = (Specialty.AMPHIBIOUS,)
    for kind, engine in (
        (OrderKind.ATTACK, "attack"),
        (OrderKind.USE_SKILL, "hold"),
        (OrderKind.ESTABLISH_BEACHHEAD, "advance"),
    ):
        going = battle_order(
            equipment=ADEQUATE,
            effective=Q.AVERAGE,
            specialties=amphibious,
            standing={"kind": "screen"},  # the set-up's choice gives way to the character's
            character_order=_order(kind),
            led=False,
        )
        assert (going.order, going.source, going.giver) == (
            {"kind": engine},
            "character",
            "Capt. Holt",
        )
        assert going.under_orders and going.quality == Q.AVERAGE
    assert going.text == (
        "Order to Establish Beachhead, given by Capt. Holt: advances. "
        "The Order is under way until day 2, 02:00."
    )


def test_a_raw_unit_nobody_leads_goes_in_without_its_order_it_needs_it_repeated_every_round():
    alone = battle_order(
        equipment=ADEQUATE,
        effective=Q.RAW,
        specialties=INFANTRY,
        standing=None,
        character_order=_order(OrderKind.ATTACK),
        led=False,
    )
    assert alone.order is None and not alone.under_orders and alone.source == "character"
    assert "no character leads it to repeat the Order every round" in alone.text
    led = battle_order(
        equipment=ADEQUATE,
        effective=Q.RAW,
        specialties=INFANTRY,
        standing=None,
        character_order=_order(OrderKind.ATTACK),
        led=True,
    )
    assert led.order == {"kind": "attack"} and led.under_orders
    assert "the character at its head repeats the Order every round" in led.text


def test_an_order_outside_its_specialties_is_performed_as_raw_in_the_battle():
    beachhead = _order(OrderKind.ESTABLISH_BEACHHEAD)
    outside = battle_order(
        equipment=ADEQUATE,
        effective=Q.ELITE,
        specialties=INFANTRY,
        standing=None,
        character_order=beachhead,
        led=True,
    )
    assert outside.quality == Q.RAW and outside.order == {"kind": "advance"}
    assert outside.equipment == Equipment.POOR
    assert "Establish Beachhead is outside its specialties: it performs as Raw, with Poor kit." in (
        outside.text
    )
    assert "It performs it as Raw: the character at its head repeats the Order every round." in (
        outside.text
    )
    assert _skill(outside) == 2  # Raw under Orders −6, Poor −4: a shift of −3 from 3, clamped
    attack = battle_order(
        equipment=ADEQUATE,
        effective=Q.ELITE,
        specialties=INFANTRY,
        standing=None,
        character_order=_order(OrderKind.ATTACK),
        led=False,
    )
    assert attack.quality == Q.ELITE and _skill(attack) == 4  # Elite under Orders: +4, +1


def test_a_unit_performing_its_order_as_raw_needs_it_repeated_every_round_as_a_raw_unit_does():
    # "Raw units need an Order repeated every round"; "a unit doing an Order outside its
    # specialties performs as Raw"; "units without the Infantry specialty fight as Raw". As an
    # engagement's lapses after its first round, an Order such a unit performs as Raw, with no
    # character at its head to repeat it, does not go into the battle: it holds in place.
    beachhead = battle_order(
        equipment=ADEQUATE,
        effective=Q.ELITE,
        specialties=INFANTRY,
        standing={"kind": "attack"},
        character_order=_order(OrderKind.ESTABLISH_BEACHHEAD),
        led=False,
    )
    assert beachhead.order is None and not beachhead.under_orders
    assert (beachhead.quality, beachhead.equipment) == (Q.RAW, Equipment.POOR)
    assert beachhead.text.endswith(
        "It performs it as Raw and no character leads it to repeat the Order every round, so it "
        "goes into battle without Orders and holds in place."
    )
    assert _skill(beachhead) == 2  # Raw cannot act alone: the table's worst, clamped to 2
    # A Mechanized unit on a card that needs Infantry fights as Raw there: likewise.
    on_foot = battle_order(
        equipment=ADEQUATE,
        effective=Q.ELITE,
        specialties=(Specialty.MECHANIZED,),
        standing=None,
        character_order=_order(OrderKind.ATTACK),
        led=False,
        needed={Specialty.INFANTRY},
    )
    assert on_foot.order is None
    assert "It fights as Raw on its card and no character leads it to repeat" in on_foot.text
    # Led, the character at its head repeats it, and the Order goes in.
    led = battle_order(
        equipment=ADEQUATE,
        effective=Q.ELITE,
        specialties=(Specialty.MECHANIZED,),
        standing=None,
        character_order=_order(OrderKind.ATTACK),
        led=True,
        needed={Specialty.INFANTRY},
    )
    assert led.order == {"kind": "attack"} and led.quality == Q.ELITE
    # Without any Order, a unit that fights as Raw on its card holds in place, as Raw does.
    alone = battle_order(
        equipment=ADEQUATE,
        effective=Q.ELITE,
        specialties=(Specialty.MECHANIZED,),
        standing=None,
        character_order=None,
        led=False,
        needed={Specialty.INFANTRY},
    )
    assert alone.text.endswith("Raw units act alone only after an Order: it holds in place.")


def test_an_order_outside_its_specialties_is_performed_with_poor_kit_as_a_skill_check_is():
    # An Elite unit with Excellent kit, Ordered to Establish Beachhead without Amphibious,
    # performs as Raw (−6) with Poor kit (−4), not with its own Excellent (+4): −10, as the
    # skill check in the same situation counts it.
    beachhead = _order(OrderKind.ESTABLISH_BEACHHEAD)
    outside = battle_order(
        equipment=Equipment.EXCELLENT,
        effective=Q.ELITE,
        specialties=INFANTRY,
        standing=None,
        character_order=beachhead,
        led=True,
    )
    assert (outside.quality, outside.equipment) == (Q.RAW, Equipment.POOR)
    going = going_in(
        {"name": "Marines", "skill": 5},
        effective=outside.quality,
        equipment=outside.equipment,
        specialties=INFANTRY,
        needed={Specialty.INFANTRY},
        under_orders=outside.under_orders,
    )
    assert (going.modifier, going.shift, going.skill) == (-10, -3, 2)
    check = skill_check_roll(
        [CheckUnit("A", "Marines", Q.ELITE, Equipment.EXCELLENT, INFANTRY, Command.UNDER_ORDERS)],
        Specialty.AMPHIBIOUS,
        dice(10),
    )
    assert check["total"] - 10 == going.modifier
    # Within its specialties the same unit keeps its quality and its Excellent kit.
    inside = battle_order(
        equipment=Equipment.EXCELLENT,
        effective=Q.ELITE,
        specialties=(Specialty.INFANTRY, Specialty.AMPHIBIOUS),
        standing=None,
        character_order=beachhead,
        led=True,
    )
    assert (inside.quality, inside.equipment) == (Q.ELITE, Equipment.EXCELLENT)


def test_without_any_order_a_unit_uses_the_without_orders_column_and_green_holds():
    average = battle_order(
        equipment=ADEQUATE,
        effective=Q.AVERAGE,
        specialties=INFANTRY,
        standing=None,
        character_order=None,
        led=False,
    )
    assert (average.order, average.source, average.under_orders) == (None, "none", False)
    assert _skill(average) == 2  # Average without Orders: −2, a shift of −1 from 3
    assert "without-Orders column" in average.text
    green = battle_order(
        equipment=ADEQUATE,
        effective=Q.GREEN,
        specialties=INFANTRY,
        standing=None,
        character_order=None,
        led=False,
    )
    assert green.text == (
        "No Order: it goes in without one. Green units act alone only after an Order: "
        "it holds in place."
    )
    standing = battle_order(
        equipment=ADEQUATE,
        effective=Q.AVERAGE,
        specialties=INFANTRY,
        standing={"kind": "hold"},
        character_order=None,
        led=False,
    )
    assert (standing.order, standing.source, _skill(standing)) == ({"kind": "hold"}, "set-up", 3)
    assert standing.text == "The set-up's standing Order: holds."


@pytest.mark.django_db
def test_a_characters_order_under_way_goes_into_the_battle_and_a_done_one_does_not(
    campaign, make_unit, enemy
):
    base = json.loads(CROSSROADS.read_text())
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=12)
    recruits = make_unit("Recruits", quality="raw", specialties=())
    veterans = make_unit("Veterans", quality="elite")
    mech = make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy)
    order_give(giver=holt, unit=recruits, kind="attack")
    order_give(giver=holt, unit=veterans, kind="establish_beachhead")  # 1 h; Infantry only
    leader_attach(unit=recruits, name="Sgt. Vance", hit_points=9)
    leader_attach(unit=veterans, name="Lt. Ward", hit_points=10)  # to repeat it: as Raw

    deployments = [
        Deployment(unit=recruits, side="blue", position=(6, 3), order=None),
        Deployment(unit=veterans, side="blue", position=(10, 2), order={"kind": "hold"}),
        Deployment(unit=mech, side="red", position=(20, 20), order={"kind": "hold"}),
    ]
    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = campaign_battle_launch(
            campaign=campaign, base=base, deployments=deployments, seed=12
        )
    placed = _placed(battle.battle.scenario, battle.engine_units)
    assert placed[recruits.pk]["order"] == {"kind": "attack"}  # led: the Order is repeated
    assert placed[veterans.pk]["order"] == {"kind": "advance"}
    assert placed[veterans.pk]["quality"] == "raw"  # outside its specialties
    assert placed[veterans.pk]["card"]["skill"] == 2
    assert battle.orders[str(veterans.pk)]["text"].startswith(
        "Order to Establish Beachhead, given by Capt. Holt: advances."
    )
    assert battle.orders[str(mech.pk)]["source"] == "set-up"

    # Two hours on, both Orders are done: the set-up's standing Orders stand again.
    CampaignBattle.objects.filter(pk=battle.pk).update(state=CampaignBattle.State.FAILED)
    clock_advance(campaign=campaign, hours=2)
    campaign.refresh_from_db()
    scenario, _, engine_units, orders = campaign_battle_scenario(campaign, base, deployments, None)
    placed = _placed(scenario, engine_units)
    assert placed[veterans.pk]["order"] == {"kind": "hold"}
    assert placed[veterans.pk]["quality"] == "elite"
    assert "order" not in placed[recruits.pk]  # the set-up gave it none
    assert orders[str(recruits.pk)]["source"] == "none"


@pytest.mark.django_db
def test_an_order_called_off_goes_into_no_battle(campaign, make_unit, enemy):
    base = json.loads(CROSSROADS.read_text())
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=12)
    veterans = make_unit("Veterans", quality="elite")
    mech = make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy)
    order = order_give(giver=holt, unit=veterans, kind="use_skill", listed_hours=8)
    deployments = [
        Deployment(unit=veterans, side="blue", position=(10, 2), order={"kind": "advance"}),
        Deployment(unit=mech, side="red", position=(20, 20), order={"kind": "hold"}),
    ]
    scenario, _, engine_units, orders = campaign_battle_scenario(campaign, base, deployments, None)
    assert _placed(scenario, engine_units)[veterans.pk]["order"] == {"kind": "hold"}  # Use Skill
    # The GM judges it senseless: the set-up's standing Order stands again.
    order_call_off(order=order)
    scenario, _, engine_units, orders = campaign_battle_scenario(campaign, base, deployments, None)
    assert _placed(scenario, engine_units)[veterans.pk]["order"] == {"kind": "advance"}
    assert orders[str(veterans.pk)]["source"] == "set-up"


def _placed(scenario, engine_units):
    return {engine_units[u["id"]]: u for side in scenario["sides"] for u in side["units"]}


# ---------------------------------------------------------------------------------------------
# A Legendary unit's command at the bridge
# ---------------------------------------------------------------------------------------------


def _side_unit(key, quality, *, standing=None, led=False):
    own = battle_order(
        equipment=ADEQUATE,
        effective=quality,
        specialties=INFANTRY,
        standing=standing,
        character_order=None,
        led=led,
    )
    return SideUnit(key, f"Unit {key}", quality, led, own)


def test_a_legendary_unit_commands_up_to_six_lesser_units_without_orders_in_the_listed_order():
    side = [
        _side_unit("own", Q.AVERAGE, standing={"kind": "hold"}),  # an Order of its own
        _side_unit("led", Q.GREEN, led=True),  # a character leads it
        *(_side_unit(f"g{i}", Q.GREEN) for i in range(7)),
        _side_unit("legend", Q.LEGENDARY, standing={"kind": "advance"}),
    ]
    orders = legendary_orders(side)
    commanded = [k for k, o in orders.items() if o.source == COMMANDED]
    assert commanded == ["g0", "g1", "g2", "g3", "g4", "g5"]  # six, as listed; g6 left over
    g0 = orders["g0"]
    assert (g0.order, g0.under_orders, g0.giver, g0.quality) == (
        {"kind": "advance"}, True, "Unit legend", Q.GREEN,
    )  # fmt: skip
    assert _skill(g0) == 2 and _skill(orders["g6"]) == 2  # Green −4 vs −6: both clamp to 2
    assert (
        g0.text == "Under the command of Unit legend (Legendary), whose Order it takes: advances."
    )
    assert orders["g6"].order is None and not orders["g6"].under_orders
    assert orders["own"].order == {"kind": "hold"} and orders["led"].source == "none"
    # A second Legendary unit of the side takes up the seventh.
    again = legendary_orders([*side, _side_unit("legend2", Q.LEGENDARY, standing=None)])
    assert again["g6"].giver == "Unit legend2" and again["g6"].under_orders


def test_a_legendary_unit_with_no_order_passes_none_on_and_a_shaken_one_commands_nobody():
    green, average = _side_unit("g", Q.GREEN), _side_unit("a", Q.AVERAGE)
    orders = legendary_orders([green, average, _side_unit("legend", Q.LEGENDARY)])
    assert (orders["g"].order, orders["g"].under_orders) == (None, True)
    assert _skill(orders["a"]) == 3  # Average under Orders: 0, not without Orders' −2
    assert orders["g"].text == (
        "Under the command of Unit legend (Legendary): under Orders, though Unit legend has no "
        "Order to pass on. Green units act alone only after an Order: it holds in place."
    )
    # Hits outstanding make it Elite in effect: it commands nobody.
    shaken = legendary_orders([green, average, _side_unit("legend", Q.ELITE)])
    assert shaken["a"].source == "none" and _skill(shaken["a"]) == 2


@pytest.mark.django_db
def test_at_the_bridge_a_legendary_unit_commands_the_lesser_units_of_its_side(
    campaign, make_unit, enemy
):
    base = json.loads(CROSSROADS.read_text())
    legend = make_unit("Old Guard", quality="legendary")
    recruits = make_unit("Recruits", quality="average")
    foe = make_unit("Foe", quality="average", into=enemy)
    campaign.refresh_from_db()
    scenario, _, engine_units, orders = campaign_battle_scenario(
        campaign,
        base,
        [
            Deployment(unit=legend, side="blue", position=(6, 3)),  # the set-up's Attack
            Deployment(unit=recruits, side="blue", position=(10, 2), order=None),
            Deployment(unit=foe, side="red", position=(20, 20), order=None),
        ],
        None,
    )
    placed = _placed(scenario, engine_units)
    assert placed[recruits.pk]["order"] == {"kind": "attack"}
    assert placed[recruits.pk]["card"]["skill"] == 3  # under Orders: Average's 0, not −2
    assert orders[str(recruits.pk)]["text"] == (
        "Under the command of Old Guard (Legendary), whose Order it takes: attacks."
    )
    # The enemy's units are not its to command.
    assert "order" not in placed[foe.pk] and placed[foe.pk]["card"]["skill"] == 2
    assert orders[str(foe.pk)]["source"] == "none"


def test_an_order_to_attack_going_in_is_named_once():
    """The set-up read "Order to Attack, given by Lt. Ada Reyes: attacks.": the Order's name
    says what the unit does. A giver's name holds a full stop ("Lt."), so the sentence is read
    back by the giver kept beside it."""
    going = battle_order(
        equipment=ADEQUATE,
        effective=Q.AVERAGE,
        specialties=INFANTRY,
        standing=None,
        character_order=CharacterOrder(OrderKind.ATTACK, "Lt. Ada Reyes", finishes_at=25),
        led=True,
    )
    assert going.text == (
        "Order to Attack, given by Lt. Ada Reyes. The Order is under way until day 2, 01:00."
    )
    went = (
        "went in to attack, under Lt. Ada Reyes' Order to Attack. When the battle began, the "
        "Order was under way until day 2, 01:00."
    )
    assert went_in_text(going.text, going.giver) == went
    # A battle launched before says "…: attacks.", read the same way.
    old = "Order to Attack, given by Lt. Ada Reyes: attacks. " + going.text.split(". ", 2)[2]
    assert went_in_text(old, going.giver) == went
    assert went_in_text(old) == went
