"""Engagements: BUCS unit combat many against many, every modifier from the units and the
situation, round by round with fixed dice (the pure rules of `campaign/rules/engagement.py`)."""

from __future__ import annotations

import random

import pytest

from battles.engine.events import Removal
from campaign.rules.characters import Feat
from campaign.rules.command import Commandable, legendary_command
from campaign.rules.damage import damage_apply
from campaign.rules.dice import Dice
from campaign.rules.engagement import (
    DRIVEN_BACK,
    DRIVEN_BACK_MARGIN,
    PINNED_BY_NUMBERS,
    Engaged,
    EngagementError,
    engagement_fight,
    setup_errors,
)
from campaign.rules.orders import OrderKind
from campaign.rules.state import LeaderState
from tests.campaign.helpers import dice, unit_state
from units.bucs import Equipment, Quality, Specialty

Q = Quality
S = Specialty
TANK = (S.MECHANIZED, S.ARMOR)


def unit(key, **changes):
    """An Engaged unit: ``order``, ``leader_feats`` and the situation flags go to Engaged."""
    engaged = {}
    for name in ("order", "leader_feats", "order_repeated", "dug_in", "beachhead",
                 "several_directions", "cramped", "landing"):  # fmt: skip
        if name in changes:
            engaged[name] = changes.pop(name)
    return Engaged(key, unit_state(name=key, **changes), **engaged)


def fight(attackers, defenders, d20s, d6s=(), rounds=1, **options):
    return engagement_fight(
        {"attackers": attackers, "defenders": defenders},
        round_limit=rounds,
        d20=dice(*d20s),
        d6=dice(*d6s),
        **options,
    )


def pairings(result, round_number=None):
    return [
        e for e in result.events
        if e["event"] == "pairing" and round_number in (None, e["round"])
    ]  # fmt: skip


def mods(roll):
    return {name: value for name, value in roll["modifiers"]}


def pinned(result, round_number):
    return next(e for e in result.events if e["event"] == "round" and e["round"] == round_number)[
        "pinned"
    ]


def test_it_pairs_every_unit_and_counts_outnumbered_from_the_sides():
    result = fight([unit("A1"), unit("A2")], [unit("B1")], [10, 10, 10, 10])
    first, second = pairings(result)
    assert (first["attackers"]["name"], second["attackers"]["name"]) == ("A1", "A2")
    assert first["defenders"]["name"] == second["defenders"]["name"] == "B1"
    assert mods(first["defenders"])["Outnumbered 2 to 1"] == -2
    assert "Outnumbered 1 to 2" not in mods(first["attackers"])
    assert first["attackers"]["total"] == 8 and first["defenders"]["total"] == 6
    # A1 won its pairing: Momentum is the unit's own, so A2 has none of it.
    assert "Momentum" not in mods(second["attackers"])


def test_a_unit_led_by_a_character_uses_the_assisting_column_and_its_feats():
    led = unit("A", leader=LeaderState("Holt", 12), leader_feats=frozenset({Feat.LEADERSHIP}))
    (pairing,) = pairings(fight([led], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"]) == {
        "quality: Average, assisting its leader (Holt)": 3,
        "equipment: Adequate": 0,
        "leader's feats (Leadership)": 1,
    }
    assert pairing["attackers"]["total"] == 14


def test_outnumbered_is_counted_from_the_units_still_in_the_fight():
    """Outnumbered comes from the sides' own counts (docs/campaign.md §6.3), of the units still
    fighting: R (Raw) breaks in round 1, and in round 2 B faces A alone, one to one."""
    # R without Orders −6 rolls 5; B −2, outnumbered 2 to 1 −2, rolls 10: a margin of 7.
    result = fight([unit("R", quality=Q.RAW), unit("A")], [unit("B")], [5, 10] + [10] * 4,
                   rounds=2)  # fmt: skip
    assert result.damage["R"].removed == Removal.DEMORALISED
    first, _, last = pairings(result)
    assert mods(first["defenders"])["Outnumbered 2 to 1"] == -2
    assert last["attackers"]["unit"] == "A"
    assert not any(name.startswith("Outnumbered") for name in mods(last["defenders"]))


def test_a_led_unit_under_an_order_still_assists_its_leader():
    """A unit assists the character leading it; an Order to it does not make it "alone, under
    Orders" (bucs.md, "Unit quality": the columns are alone under Orders, alone without Orders,
    and assisting a character)."""
    led = unit("A", leader=LeaderState("Holt", 12), order=OrderKind.ATTACK)
    (pairing,) = pairings(fight([led], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"])["quality: Average, assisting its leader (Holt)"] == 3
    assert pairing["attackers"]["total"] == 13


def test_a_unit_uses_under_orders_with_an_order_and_without_orders_otherwise():
    (pairing,) = pairings(fight([unit("A", order=OrderKind.ATTACK)], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"])["quality: Average, alone under Orders"] == 0
    assert mods(pairing["defenders"])["quality: Average, alone without Orders"] == -2


def test_green_acts_alone_only_after_an_order_and_raw_needs_it_repeated_every_round():
    ordered = unit("B", quality=Q.GREEN, order=OrderKind.ATTACK)
    green = fight([unit("A", quality=Q.GREEN)], [ordered], [10, 10])
    (pairing,) = pairings(green)
    assert mods(pairing["attackers"]) == {
        "quality: Green without Orders cannot act alone": -6, "equipment: Adequate": 0
    }  # fmt: skip
    assert mods(pairing["defenders"])["quality: Green, alone under Orders"] == -4
    raw = unit("A", quality=Q.RAW, order=OrderKind.ATTACK, order_repeated=False)
    result = fight([raw], [unit("B")], [10, 6, 10, 6], rounds=2)
    one, two = (p["attackers"]["modifiers"][0][0] for p in pairings(result))
    assert one == "quality: Raw, alone under Orders"
    # Under an Order its giver did not repeat: the row says so.
    assert two == (
        "quality: Raw, its Order not repeated (its giver leads no unit on its side, or is dying "
        "or dead), so without Orders it cannot act alone"
    )
    repeated = unit("A", quality=Q.RAW, order=OrderKind.ATTACK, order_repeated=True)
    result = fight([repeated], [unit("B")], [10, 6, 10, 6], rounds=2)
    assert pairings(result, 2)[0]["attackers"]["modifiers"][0][0] == (
        "quality: Raw, alone under Orders"
    )


def test_a_green_units_order_lasts_the_fight_without_being_repeated():
    """Only Raw needs its Order repeated every round; "Green units may act alone only after an
    Order" (bucs.md, "Unit quality"): a Green unit's Order, given once, holds in round 2."""
    green = unit("A", quality=Q.GREEN, order=OrderKind.ATTACK, order_repeated=False)
    result = fight([green], [unit("B")], [10, 6, 10, 6], rounds=2)
    assert [p["attackers"]["modifiers"][0] for p in pairings(result)] == [
        ["quality: Green, alone under Orders", -4]
    ] * 2


def test_a_legendary_unit_takes_command_of_up_to_six_lesser_units_not_led_by_a_character():
    units = [Commandable("legend", False, False, Q.LEGENDARY)]
    units += [Commandable(f"u{i}", False, False, Q.AVERAGE) for i in range(8)]
    units.append(Commandable("led", True, False, Q.AVERAGE))
    commanded = legendary_command(units)
    assert sorted(commanded) == ["u0", "u1", "u2", "u3", "u4", "u5"]
    result = fight([unit("L", quality=Q.LEGENDARY), unit("A")], [unit("B")], [10, 10, 10, 10])
    second = pairings(result)[1]
    assert second["attackers"]["modifiers"][0] == [
        "quality: Average, alone under Orders (commanded by L, Legendary)",
        0,
    ]


def test_legendary_command_holds_only_while_the_commander_stands_and_is_still_legendary():
    # L (Legendary without Orders, +6) rolls 1 against B1 (Average without Orders, −2) rolling
    # 14: a margin of 5, one Morale hit. L is Elite from then on and commands nobody: S, in the
    # very next pairing, is Inexperienced without Orders (−4), not under Orders (−2).
    legend, squad = unit("L", quality=Q.LEGENDARY), unit("S", quality=Q.INEXPERIENCED)
    d20s = [1, 14, 10, 10, 10, 14, 10, 10]
    result = fight([legend, squad], [unit("B1"), unit("B2")], d20s, rounds=2)
    lineup = {e["unit"]: e["commanded_by"] for e in result.events if e["event"] == "unit"}
    assert lineup["S"] == "L"
    first, second, third, fourth = pairings(result)
    assert first["hits"] == 1 and result.damage["L"].morale_hits == 1
    assert second["attackers"]["modifiers"][0] == ["quality: Inexperienced, alone without Orders",
                                                   -4]  # fmt: skip
    assert third["attackers"]["modifiers"][0] == ["quality: Elite, alone without Orders", 4]
    assert fourth["attackers"]["modifiers"][0] == ["quality: Inexperienced, alone without Orders",
                                                   -4]  # fmt: skip
    # A second Legendary unit on the side takes up the units the first can no longer command.
    legends = [unit("L1", quality=Q.LEGENDARY), unit("L2", quality=Q.LEGENDARY)]
    defenders = [unit("B1"), unit("B2"), unit("B3")]
    result = fight([*legends, squad], defenders, [1, 14, 4, 12, 10, 10])
    lineup = {e["unit"]: e["commanded_by"] for e in result.events if e["event"] == "unit"}
    assert lineup["S"] == "L1"
    assert pairings(result)[2]["attackers"]["modifiers"][0] == [
        "quality: Inexperienced, alone under Orders (commanded by L2, Legendary)", -2
    ]  # fmt: skip


def test_a_legendary_unit_commands_six_units_without_orders_passing_over_those_with_one():
    """A Legendary unit "may take command of up to 6 lesser units not commanded by a character"
    (bucs.md, "Unit quality"): a unit under an Order of its own needs no commander and takes
    none of the six places, nor does a unit broken out of the fight."""
    squads = [unit(f"U{i}") for i in range(1, 7)]
    attackers = [unit("L", quality=Q.LEGENDARY), unit("O", order=OrderKind.ATTACK), *squads]
    result = fight(attackers, [unit("B")], [10] * 16)
    lineup = {e["unit"]: e["commanded_by"] for e in result.events if e["event"] == "unit"}
    assert lineup["O"] is None and all(lineup[f"U{i}"] == "L" for i in range(1, 7))
    # R (Raw, commanded) loses round 1 by 9 and breaks; in round 2 U7, the seventh, takes its
    # place.
    raw = unit("R", quality=Q.RAW)
    attackers = [unit("L", quality=Q.LEGENDARY), raw, *squads[:5], unit("U7")]
    defenders = [unit(f"B{i}") for i in range(1, 9)]
    result = fight(attackers, defenders, [10, 10, 5, 10] + [10] * 28, rounds=2)
    lineup = {e["unit"]: e["commanded_by"] for e in result.events if e["event"] == "unit"}
    assert (lineup["R"], lineup["U7"]) == ("L", None)
    assert result.damage["R"].removed == Removal.DEMORALISED
    (u7,) = [p["attackers"] for p in pairings(result, 2) if p["attackers"]["unit"] == "U7"]
    assert u7["modifiers"][0] == [
        "quality: Average, alone under Orders (commanded by L, Legendary)", 0
    ]  # fmt: skip


def test_an_order_outside_its_specialties_is_performed_as_raw():
    beach = unit("A", order=OrderKind.ESTABLISH_BEACHHEAD)
    (pairing,) = pairings(fight([beach], [unit("B")], [10, 10]))
    assert pairing["attackers"]["modifiers"][0] == [
        "Establish Beachhead is outside its specialties: performs as Raw, with Poor kit",
        0,
    ]
    assert mods(pairing["attackers"])["quality: Raw, alone under Orders"] == -6


def test_an_order_outside_its_specialties_is_performed_with_poor_kit_as_a_check_counts_it():
    # Elite with Excellent kit, Ordered to Establish Beachhead without Amphibious: Raw −6 and
    # Poor −4, not its own +4, the same −10 a skill check outside its specialties gives.
    kit = {"quality": Q.ELITE, "equipment": Equipment.EXCELLENT}
    beach = unit("A", order=OrderKind.ESTABLISH_BEACHHEAD, **kit)
    (pairing,) = pairings(fight([beach], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"]) == {
        "Establish Beachhead is outside its specialties: performs as Raw, with Poor kit": 0,
        "quality: Raw, alone under Orders": -6,
        "equipment: Poor": -4,
    }
    assert pairing["attackers"]["total"] == 10 - 10
    # With Amphibious the same Order is its own work: Elite under Orders and Excellent kit.
    amphibious = (S.INFANTRY, S.AMPHIBIOUS)
    marines = unit("A", specialties=amphibious, order=OrderKind.ESTABLISH_BEACHHEAD, **kit)
    (pairing,) = pairings(fight([marines], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"]) == {
        "quality: Elite, alone under Orders": 4, "equipment: Excellent": 4
    }  # fmt: skip


def test_a_unit_without_infantry_fights_as_raw_with_poor_kit():
    medics = unit("A", specialties=(S.MEDICAL,), equipment=Equipment.GOOD)
    (pairing,) = pairings(fight([medics], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"])["equipment: Poor"] == -4
    assert mods(pairing["attackers"])["quality: Raw without Orders cannot act alone"] == -6


def test_a_mechanized_unit_without_infantry_fights_at_its_quality_with_its_kit():
    """Units without the Infantry specialty "fight as Raw", but a vehicle crew's Mechanized (or
    Armor) covers the fight as Infantry does (docs/campaign.md §6.1): an Elite Mechanized crew
    without Infantry fights as Elite, with its own kit."""
    crew = unit("A", quality=Q.ELITE, specialties=(S.MECHANIZED,), equipment=Equipment.GOOD)
    (pairing,) = pairings(fight([crew], [unit("B")], [10, 10]))
    got = mods(pairing["attackers"])
    assert got["quality: Elite, alone without Orders"] == 4 and got["equipment: Good"] == 2


def test_a_unit_brought_down_to_raw_by_its_hits_still_fights_with_poor_kit():
    # Average medics with Good kit and 2 Morale hits (Green) lose round 1 by 6: one more Morale
    # hit takes them to Raw. Still outside their specialties, they still count as Poor.
    medics = unit("A", specialties=(S.MEDICAL,), equipment=Equipment.GOOD, morale_hits=2)
    one, two = pairings(fight([medics], [unit("B")], [5, 3, 10, 10], rounds=2))
    assert (one["winner"], one["hits"]) == ("defenders", 1)
    assert mods(one["attackers"])["equipment: Poor"] == mods(two["attackers"])["equipment: Poor"]
    assert "equipment: Good" not in mods(two["attackers"])


def test_a_unit_that_counts_as_poor_has_poor_kits_specials_not_its_own_kits():
    # Medics (no Infantry) with Excellent kit fight as Raw with Poor kit (−6 −4) and roll 10:
    # 0. B (Good kit, without Orders: −2 +2) rolls 10: a margin of 10, two hits. Poor kit
    # ignores no Morale hit: the first lands.
    medics = unit("A", specialties=(S.MEDICAL,), equipment=Equipment.EXCELLENT)
    result = fight([medics], [unit("B", equipment=Equipment.GOOD)], [10, 10])
    assert mods(pairings(result)[0]["attackers"])["equipment: Poor"] == -4
    assert [(e["kind"], e["ignored"]) for e in result.events if e["event"] == "hit"] == [
        ("morale", None), ("casualty", None)
    ]  # fmt: skip
    taken = result.damage["A"]
    assert (taken.morale_hits, taken.casualty_hits, taken.excellent_ignored) == (1, 1, 0)
    # The other way: Excellent infantry (−2 +4) rolls 1 against Elite medics with Excellent kit
    # rolling 20 (as Raw with Poor: −10): a margin of 7, one Morale hit. The medics count as
    # Poor, less well equipped, so the infantry's Excellent kit ignores it.
    elite_medics = unit("B", quality=Q.ELITE, specialties=(S.MEDICAL,),
                        equipment=Equipment.EXCELLENT)  # fmt: skip
    result = fight([unit("A", equipment=Equipment.EXCELLENT)], [elite_medics], [1, 20])
    assert pairings(result)[0]["winner"] == "defenders" and pairings(result)[0]["hits"] == 1
    taken = result.damage["A"]
    assert (taken.morale_hits, taken.excellent_ignored) == (0, 1)
    # A Mechanized unit with Good kit on an Order outside its specialties counts as Poor: it
    # loses its mobility, so it has no Mobile against infantry ...
    mech = {"specialties": (S.INFANTRY, S.MECHANIZED), "equipment": Equipment.GOOD}
    beach = unit("B", order=OrderKind.ESTABLISH_BEACHHEAD, **mech)
    (pairing,) = pairings(fight([unit("A")], [beach], [10, 10]))
    assert mods(pairing["defenders"])["equipment: Poor"] == -4
    assert "Mobile" not in mods(pairing["defenders"])
    # ... and is no faster than them, so three to one pins it by numbers.
    infantry = [unit(f"A{i}") for i in range(3)]
    assert pinned(fight(infantry, [beach], [10] * 6), 1) == {"B": ["outnumbered 3:1"]}
    assert pinned(fight(infantry, [unit("B", **mech)], [10] * 6), 1) == {}


def test_dug_in_adds_two_and_is_immune_to_momentum_and_driven_back_both_ways():
    result = fight([unit("A", dug_in=True)], [unit("B")], [20, 10, 10, 10], rounds=2)
    one, two = pairings(result)
    assert mods(one["attackers"])["Dug In"] == 2
    assert one["margin"] >= DRIVEN_BACK_MARGIN and one["driven_back"] is None
    assert "Momentum" not in mods(two["attackers"])
    assert "Driven Back last round" not in mods(two["defenders"])


def test_a_unit_beating_a_dug_in_enemy_gains_no_momentum_and_brings_none_against_it():
    """Dug In is "immune to Momentum and Driven Back, for and against" (bucs.md, "Unit vs
    unit"): A, alone against dug-in D and open C, loses to D and beats C in round 1. Its round
    is C's win alone, so it gains +1, which counts against C next round and not against D."""
    # A: without Orders −2, outnumbered 2 to 1 −2; D: −2, Dug In +2; C: −2. Margins under 5.
    d20s = [10, 10, 15, 10,  # round 1: A 6 against D 10, A 11 against C 8
            10, 10, 10, 10]  # fmt: skip
    result = fight([unit("A")], [unit("D", dug_in=True), unit("C")], d20s, rounds=2)
    against_d, against_c, again_d, again_c = pairings(result)
    assert (against_d["winner"], against_c["winner"]) == ("defenders", "attackers")
    assert "Momentum" not in mods(again_d["attackers"])
    assert mods(again_c["attackers"])["Momentum"] == 1


def test_excellent_kit_ignores_no_casualty_hit_even_as_its_first_hit_from_a_worse_enemy():
    """Excellent kit "ignores its first Morale hit against a less well equipped unit" (bucs.md,
    "Equipment"), never a Casualty hit. X (Excellent), alone, loses by 5 to E1 (Excellent:
    its Morale hit lands) and then by 5 to E2 (Poor): that hit is the round's second, a
    Casualty hit, and lands too."""
    x = unit("X", equipment=Equipment.EXCELLENT)
    e1, e2 = unit("E1", equipment=Equipment.EXCELLENT), unit("E2", equipment=Equipment.POOR)
    # E1 −2 +4, X −2 +4 −2 (outnumbered); after its hit X is Inexperienced: −4 +4 −2; E2 −2 −4.
    result = fight([e1, e2], [x], [13, 10, 19, 10])
    assert [(p["winner"], p["hits"]) for p in pairings(result)] == [("attackers", 1)] * 2
    taken = result.damage["X"]
    assert (taken.morale_hits, taken.casualty_hits, taken.excellent_ignored) == (1, 1, 0)


def test_a_unit_beaten_by_ten_is_driven_back_and_pays_for_it_next_round():
    result = fight([unit("A")], [unit("B")], [20, 10, 10, 10], rounds=2)
    one, two = pairings(result)
    assert one["margin"] == 10 and one["driven_back"] == "B"
    assert mods(two["defenders"])["Driven Back last round"] == DRIVEN_BACK == -2
    assert mods(two["attackers"])["Momentum"] == 1


def test_momentum_grows_by_one_each_consecutive_round_won_and_passes_to_the_winner():
    # A wins rounds 1 to 3 and loses round 4, each by under 5 (no hits to change anyone's
    # quality); B wins round 5 too. Both fight without Orders (−2).
    d20s = [12, 10, 12, 10, 12, 10, 5, 10, 10, 10]
    result = fight([unit("A")], [unit("B")], d20s, rounds=5)
    rounds = pairings(result)
    assert [p["winner"] for p in rounds] == ["attackers"] * 3 + ["defenders"] * 2
    assert [p["hits"] for p in rounds] == [0] * 5
    assert [mods(p["attackers"]).get("Momentum") for p in rounds] == [None, 1, 2, 3, None]
    assert [mods(p["defenders"]).get("Momentum") for p in rounds] == [None] * 4 + [1]
    assert [p["attackers"]["total"] for p in rounds] == [10, 11, 12, 6, 8]


def test_momentum_is_settled_once_a_round_and_won_only_by_winning_every_pairing():
    # B alone against A1 and A2, all without Orders (−2); B is outnumbered two to one (−2).
    # Every margin is under 5: no hits to change anyone's quality.
    d20s = [5, 10, 5, 10,  # round 1: B beats A1 and A2 — it won the round
            5, 10, 9, 10,  # round 2: B beats A1 and ties A2 — nobody's round: B keeps its +1
            5, 10, 12, 10,  # round 3: B beats A1, A2 beats B — B lost the round, A2 won it
            10, 10, 10, 10]  # fmt: skip
    result = fight([unit("A1"), unit("A2")], [unit("B")], d20s, rounds=4)
    rounds = pairings(result)
    assert [p["winner"] for p in rounds] == [
        "defenders", "defenders", "defenders", None, "defenders", "attackers",
        "attackers", "attackers",
    ]  # fmt: skip
    assert [p["hits"] for p in rounds] == [0] * 8
    # Winning A1's pairing does not lift B's Momentum for A2's in the same round.
    assert [mods(p["defenders"]).get("Momentum") for p in rounds] == [None, None] + [1] * 4 + [
        None, None,
    ]  # fmt: skip
    assert [mods(p["attackers"]).get("Momentum") for p in rounds] == [None] * 7 + [1]


def test_fire_from_several_directions_pins_even_a_dug_in_unit_nothing_else_does():
    result = fight([unit("A")], [unit("B", several_directions=True)], [10, 10])
    assert pinned(result, 1) == {"B": ["fire from several directions"]}
    assert mods(pairings(result)[0]["attackers"])["B Pinned Down"] == 2
    result = fight([unit("A")], [unit("B", dug_in=True, cramped=True, landing=True)], [10, 10])
    assert pinned(result, 1) == {}
    both = unit("B", dug_in=True, cramped=True, several_directions=True)
    assert pinned(fight([unit("A")], [both], [10, 10]), 1) == {
        "B": ["fire from several directions"]
    }


def test_a_unit_pinned_in_a_doorway_is_free_once_it_wins_a_round():
    result = fight([unit("A")], [unit("B", cramped=True)], [5, 10, 10, 10], rounds=2)
    assert pinned(result, 1) == {"B": ["cramped quarters (doorway, elevator, narrow street)"]}
    assert pairings(result, 1)[0]["winner"] == "defenders"
    assert pinned(result, 2) == {}


def test_outnumbered_three_to_one_pins_until_a_unit_is_destroyed_to_even_the_odds():
    assert PINNED_BY_NUMBERS == 3
    raw = [unit(f"A{i}", quality=Q.RAW, order=OrderKind.ATTACK) for i in range(3)]
    result = fight(raw, [unit("B")], [1, 20, 10, 10, 10, 10, 10, 10, 10, 10], rounds=2)
    assert pinned(result, 1) == {"B": ["outnumbered 3:1"]}
    assert {"event": "broken", "round": 1, "unit": "A0", "removed": "demoralised"} in result.events
    assert pinned(result, 2) == {}


def test_a_mobility_advantage_is_never_pinned_by_numbers_except_in_cramped_quarters():
    infantry = [unit(f"A{i}") for i in range(3)]
    mech = unit("B", specialties=(S.INFANTRY, S.MECHANIZED))
    assert pinned(fight(infantry, [mech], [10] * 6), 1) == {}
    cramped = unit("B", specialties=(S.INFANTRY, S.MECHANIZED), cramped=True)
    assert "outnumbered 3:1" in pinned(fight(infantry, [cramped], [10] * 6), 1)["B"]


def test_armor_is_never_pinned_by_infantry_or_mechanized_except_in_cramped_quarters():
    tank = unit("B", specialties=TANK, several_directions=True)
    assert pinned(fight([unit("A")], [tank], [10, 10]), 1) == {}
    tank = unit("B", specialties=TANK, several_directions=True, cramped=True)
    assert pinned(fight([unit("A")], [tank], [10, 10]), 1) == {
        "B": ["fire from several directions",
              "cramped quarters (doorway, elevator, narrow street)"]
    }  # fmt: skip
    enemy_tank = unit("A", specialties=TANK)
    assert pinned(fight([enemy_tank], [unit("B", specialties=TANK, several_directions=True)],
                        [10, 10]), 1) == {"B": ["fire from several directions"]}  # fmt: skip


def lined_up(result, key):
    return next(e for e in result.events if e["event"] == "unit" and e["unit"] == key)


def test_the_line_up_says_which_stated_situation_cannot_pin_a_unit_and_why():
    """A box the GM ticked that pins nobody is said, not silently dropped: the line-up names
    the situation and why it spares the unit."""
    tank = unit("B", specialties=TANK, several_directions=True, landing=True)
    result = fight([unit("A")], [tank], [10, 10])
    assert lined_up(result, "B")["unpinned"] == [
        "fire from several directions — Armor facing no enemy Armor",
        "landing from landing craft — Armor facing no enemy Armor",
    ]
    marines = unit("A", specialties=(S.INFANTRY, S.AMPHIBIOUS), landing=True)
    assert lined_up(fight([marines], [unit("B")], [10, 10]), "A")["unpinned"] == [
        "landing from landing craft — Amphibious, it lands unpinned"
    ]
    dug = unit("A", dug_in=True, cramped=True, several_directions=True)
    assert lined_up(fight([dug], [unit("B")], [10, 10]), "A")["unpinned"] == [
        "cramped quarters (doorway, elevator, narrow street) "
        "— dug in: only fire from several directions pins it"
    ]
    # What pins it, and a unit with nothing stated, have nothing to say.
    pinned_tank = unit("B", specialties=TANK, several_directions=True, cramped=True)
    assert "unpinned" not in lined_up(fight([unit("A")], [pinned_tank], [10, 10]), "B")
    assert "unpinned" not in lined_up(fight([unit("A")], [unit("B")], [10, 10]), "B")


def test_a_landing_unit_is_pinned_until_it_has_won_two_rounds():
    result = fight([unit("A", landing=True)], [unit("B")], [15, 10, 15, 10, 10, 10], rounds=3)
    assert pinned(result, 1) == pinned(result, 2) == {"A": ["landing from landing craft"]}
    assert [p["winner"] for p in pairings(result)][:2] == ["attackers", "attackers"]
    assert pinned(result, 3) == {}


def test_an_amphibious_unit_lands_without_being_pinned_down_where_others_are():
    # The same landing, the same dice: A without Amphibious starts Pinned Down (B +2 against
    # it); A with Amphibious does not, on a beach or anywhere else.
    plain = fight([unit("A", landing=True)], [unit("B")], [10, 10], terrain="amphibious")
    assert pinned(plain, 1) == {"A": ["landing from landing craft"]}
    assert mods(pairings(plain)[0]["defenders"])["A Pinned Down"] == 2
    marines = unit("A", specialties=(S.INFANTRY, S.AMPHIBIOUS), landing=True)
    for terrain in ("amphibious", "open"):
        result = fight([marines], [unit("B")], [10, 10], terrain=terrain)
        assert pinned(result, 1) == {}, terrain
        assert "A Pinned Down" not in mods(pairings(result)[0]["defenders"]), terrain


def test_mobile_gives_two_per_step_of_mobility_advantage():
    mech = unit("A", specialties=(S.INFANTRY, S.MECHANIZED))
    (pairing,) = pairings(fight([mech], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"])["Mobile"] == 2 and "Mobile" not in mods(pairing["defenders"])
    (pairing,) = pairings(fight([unit("A", specialties=TANK)], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"])["Mobile"] == 4
    for rating in (Equipment.POOR, Equipment.BARELY_ADEQUATE):
        worn = unit("A", specialties=TANK, equipment=rating)
        (pairing,) = pairings(fight([worn], [unit("B")], [10, 10]))
        assert "Mobile" not in mods(pairing["attackers"]), rating
        assert mods(pairing["attackers"])[f"equipment: {rating.label}"] == rating.modifier
    # Adequate kit or better keeps it.
    (pairing,) = pairings(fight([unit("A", specialties=TANK, equipment=Equipment.GOOD)],
                                [unit("B")], [10, 10]))  # fmt: skip
    assert mods(pairing["attackers"])["Mobile"] == 4


def test_terrain_specialists_get_two_and_double_momentum_against_units_without():
    marines = unit("A", specialties=(S.INFANTRY, S.AMPHIBIOUS))
    result = fight([marines], [unit("B")], [15, 10, 10, 10], rounds=2, terrain="amphibious")
    one, two = pairings(result)
    assert mods(one["attackers"])["Amphibious in its terrain"] == 2
    assert mods(two["attackers"])["Momentum, doubled (Amphibious in its terrain)"] == 2
    rivals = unit("B", specialties=(S.INFANTRY, S.AMPHIBIOUS))
    result = fight([marines], [rivals], [15, 10, 10, 10], rounds=2, terrain="amphibious")
    assert mods(pairings(result, 2)[0]["attackers"])["Momentum"] == 1
    result = fight([marines], [unit("B")], [15, 10], terrain="open")
    assert "Amphibious in its terrain" not in mods(pairings(result)[0]["attackers"])


def test_surprise_is_hide_against_spot_and_only_hiders_unseen_start_at_two_momentum():
    result = fight([unit("A")], [unit("B")], [15, 5, 10, 10], surprise="attackers")
    check = next(e for e in result.events if e["event"] == "surprise")
    assert check["hide"] == {
        "unit": "A", "name": "A", "d20": 15, "total": 13,
        "modifiers": [["quality: Average, alone without Orders", -2], ["equipment: Adequate", 0]],
    }  # fmt: skip
    assert (check["winner"], check["momentum"]) == ("attackers", "attackers")
    assert mods(pairings(result)[0]["attackers"])["Momentum"] == 2
    assert "Momentum" not in mods(pairings(result)[0]["defenders"])
    # Spotted, the hiders surprise nobody, and spotting them is no surprise: no Momentum either
    # side. A tie goes to the watch.
    for spot in (15, 5):
        result = fight([unit("A")], [unit("B")], [5, spot, 10, 10], surprise="attackers")
        check = next(e for e in result.events if e["event"] == "surprise")
        assert (check["winner"], check["momentum"]) == ("defenders", None), spot
        (pairing,) = pairings(result)
        assert "Momentum" not in mods(pairing["attackers"]), spot
        assert "Momentum" not in mods(pairing["defenders"]), spot
    scout = unit("A", leader=LeaderState("Vey", 10), leader_feats=frozenset({Feat.SPECIAL_FORCES}))
    result = fight([scout], [unit("B")], [10, 10, 10, 10], surprise="attackers")
    check = next(e for e in result.events if e["event"] == "surprise")
    assert check["hide"]["modifiers"][-1] == ["Special Forces (A's leader), once for the side", 2]
    assert check["winner"] == "attackers"


def test_hide_and_spot_are_general_skill_checks_counting_kit_and_the_leaders_skill_feats():
    """Each unit's Hide or Spot is its general skill check (`check_modifiers`): equipment and
    its leader's skill feats count, by the kit it fights with here; the worst hider and the best
    spotter roll for their sides."""

    def check(result, role=None):
        event = next(e for e in result.events if e["event"] == "surprise")
        return event if role is None else event[role]

    poor = fight([unit("A", equipment=Equipment.POOR)], [unit("B")], [10, 10, 10, 10],
                 surprise="attackers")  # fmt: skip
    excellent = fight([unit("A", equipment=Equipment.EXCELLENT)], [unit("B")], [10, 10, 10, 10],
                      surprise="attackers")  # fmt: skip
    assert (check(poor, "hide")["total"], check(excellent, "hide")["total"]) == (4, 12)
    assert ["equipment: Excellent", 4] in check(excellent, "hide")["modifiers"]
    # Against Spot 8 (Average, Adequate kit) the kit decides the surprise.
    assert (check(poor)["winner"], check(excellent)["winner"]) == ("defenders", "attackers")
    leader = LeaderState("Cpt", 10)
    led = unit("A", leader=leader, leader_feats=frozenset({Feat.LEADERSHIP}))
    result = fight([led], [unit("B")], [10, 10, 10, 10], surprise="attackers")
    assert check(result, "hide")["modifiers"] == [
        ["quality: Average, assisting its leader (Cpt)", 3], ["equipment: Adequate", 0],
        ["leader's feats (Leadership)", 1],
    ]  # fmt: skip
    assert check(result, "hide")["total"] == 14
    # The side hides as its worst unit counting its kit, and spots as its best: a Good-kit
    # Average unit spots better than an Experienced one with Poor kit (0 against −4).
    sharp = unit("S", equipment=Equipment.GOOD)
    blunt = unit("X", quality=Q.EXPERIENCED, equipment=Equipment.POOR)
    result = fight([unit("A"), unit("N", equipment=Equipment.POOR)], [blunt, sharp],
                   [10, 10, 10, 10, 10, 10], surprise="attackers")  # fmt: skip
    assert (check(result, "hide")["name"], check(result, "hide")["total"]) == ("N", 4)
    assert (check(result, "spot")["name"], check(result, "spot")["total"]) == ("S", 10)
    # Kit it fights with: without Infantry a unit is Raw with Poor kit, Hide and Spot included.
    medics = unit("M", equipment=Equipment.GOOD, specialties=(S.MEDICAL,))
    result = fight([medics], [unit("B")], [10, 10, 10, 10], surprise="attackers")
    assert ["equipment: Poor", -4] in check(result, "hide")["modifiers"]


def test_armor_cannot_enter_amphibious_arctic_jungle_or_swamp_unless_amphibious():
    tank = unit("A", specialties=TANK)
    for terrain in ("amphibious", "arctic", "jungle", "swamp"):
        assert setup_errors({"attackers": [tank], "defenders": [unit("B")]}, terrain) == {
            "terrain": [f"A is Armor: it cannot enter {terrain} terrain"]
        }
    with pytest.raises(EngagementError, match="cannot enter swamp") as error:
        fight([tank], [unit("B")], [10, 10], terrain="swamp")
    assert list(error.value.errors) == ["terrain"]
    swimmer = unit("A", quality=Q.EXPERIENCED, specialties=(*TANK, S.AMPHIBIOUS))
    assert setup_errors({"attackers": [swimmer], "defenders": [unit("B")]}, "swamp") == {}


def test_a_set_up_that_cannot_be_fought_is_refused_by_the_field_at_fault():
    a, b = unit("A"), unit("B")
    assert setup_errors({"attackers": [], "defenders": [b]}, "open") == {
        "attackers": ["the attackers need at least one unit"]
    }
    assert setup_errors({"attackers": [a], "defenders": [b], "reserve": [a]}, "open") == {
        "reserve": ["not a side of an engagement: the sides are attackers and defenders"]
    }
    assert setup_errors({"attackers": [a], "defenders": [b, a]}, "moon") == {
        "terrain": ["unknown terrain “moon”; one of Open, Amphibious, Arctic, Jungle or Swamp"],
        "defenders": ["A is listed already: a unit can fight on one side only"],
    }
    with pytest.raises(EngagementError) as error:
        fight([a], [], [], rounds=0, surprise="nobody")
    assert set(error.value.errors) == {"defenders", "round_limit", "surprise"}


def test_a_legendary_unit_takes_seven_hits_and_a_raw_one_one():
    # A (−2) rolls 4, B (at Raw or Green by its hits, without Orders: −6) rolls 1: a margin of
    # 7, one hit. A Legendary unit carrying five hits takes its sixth and stands; carrying six,
    # the seventh breaks it. A fresh Raw unit breaks on its first.
    for carried, broken in ((5, "none"), (6, "demoralised")):
        legend = unit("B", quality=Q.LEGENDARY, morale_hits=carried)
        taken = fight([unit("A")], [legend], [4, 1]).damage["B"]
        assert (taken.morale_hits, taken.removed) == (1, broken), carried
    assert fight([unit("A")], [unit("B", quality=Q.RAW)], [4, 1]).damage["B"].removed == (
        "demoralised"
    )


def test_the_leader_takes_3d6_per_casualty_hit_during_the_fight_and_its_death_breaks_the_unit():
    led = unit("A", leader=LeaderState("Holt", 5))
    result = fight([led], [unit("B")], [1, 16], [6, 6, 6], rounds=5)
    kinds = [e["event"] for e in result.events if e["event"] != "unit"]
    assert kinds == ["round", "pairing", "hit", "hit", "leader", "leader_died", "broken", "end"]
    leader = next(e for e in result.events if e["event"] == "leader")
    assert leader["rolls"] == [6, 6, 6] and leader["hit_points"] == -13 and leader["died"]
    # Broken by the death, it fights as nothing from then on: its log says no quality.
    assert "fights_as" not in next(e for e in result.events if e["event"] == "leader_died")
    taken = result.damage["A"]
    assert (taken.morale_hits, taken.casualty_hits, taken.removed) == (3, 1, "demoralised")
    assert taken.leader == LeaderState("Holt", -13, alive=False) and taken.leader_died
    assert result.winner == "defenders" and result.rounds == 1


def test_the_leader_takes_3d6_for_the_casualty_hit_that_destroys_the_unit_as_at_the_bridge():
    # A (Average, no Order: −2) rolls 20, B (Green, assisting Holt: +1) rolls 1: a margin of
    # 16, three hits. The first (Morale) leaves Green B at its last step; the second, a
    # Casualty hit, destroys it, and Holt takes 3d6 for it all the same.
    led = unit("B", quality=Q.GREEN, leader=LeaderState("Holt", 30))
    result = fight([unit("A")], [led], [20, 1], [6, 5, 4])
    kinds = [e["event"] for e in result.events if e["event"] != "unit"]
    assert kinds == ["round", "pairing", "hit", "hit", "leader", "broken", "end"]
    taken = result.damage["B"]
    assert (taken.morale_hits, taken.casualty_hits, taken.removed) == (1, 1, "destroyed")
    assert taken.leader_rolls == (6, 5, 4) and taken.leader == LeaderState("Holt", 15)
    # The bridge wounds a leader for the same one Casualty hit with the same three dice.
    _, bridged = damage_apply(
        unit_state(quality=Q.GREEN, leader=LeaderState("Holt", 30)),
        morale_hits=1, casualty_hits=1, removed=Removal.DESTROYED, day=1, d6=dice(6, 5, 4),
    )  # fmt: skip
    assert bridged.leader_rolls == taken.leader_rolls
    # A leader killed by that hit still costs 2 Morale hits; the unit is destroyed all the same.
    frail = unit("B", quality=Q.GREEN, leader=LeaderState("Holt", 5))
    taken = fight([unit("A")], [frail], [20, 1], [6, 6, 6]).damage["B"]
    assert taken.leader == LeaderState("Holt", -13, alive=False) and taken.leader_died
    assert (taken.morale_hits, taken.casualty_hits, taken.removed) == (3, 1, "destroyed")


def test_armor_ignores_two_casualty_hits_and_excellent_kit_its_first_morale_hit():
    tank = unit("B", specialties=TANK)
    veteran = unit("A", quality=Q.ELITE, order=OrderKind.ATTACK)
    result = fight([veteran], [tank], [20, 1])
    assert pairings(result)[0]["hits"] == 4
    taken = result.damage["B"]
    assert (taken.morale_hits, taken.casualty_hits, taken.armor_ignored) == (2, 0, 2)
    elite = unit("B", equipment=Equipment.EXCELLENT)
    taken = fight([unit("A")], [elite], [20, 6]).damage["B"]
    assert (taken.morale_hits, taken.casualty_hits, taken.excellent_ignored) == (0, 1, 1)


def hit_kinds(result, key):
    return [(e["round"], e["kind"], e["ignored"]) for e in result.events
            if e["event"] == "hit" and e["unit"] == key]  # fmt: skip


def test_a_units_hits_in_a_round_split_by_turns_over_all_its_pairings():
    # Lone Legendary D (without Orders +6, Outnumbered −2) against A1 and A2 (under Orders: 0).
    # Round 1: A1 20 against D 10 (14), a margin of 6; A2 20 against D, Elite now, 9 (11), a
    # margin of 9: one hit each, and the second of D's round is a Casualty hit.
    # Round 2 counts afresh: a tie, then A2 (11, Momentum) against D 4 (2): Morale.
    d = unit("D", quality=Q.LEGENDARY)
    ordered = [unit("A1", order=OrderKind.ATTACK), unit("A2", order=OrderKind.ATTACK)]
    result = fight(ordered, [d], [20, 10, 20, 9, 10, 13, 10, 4], rounds=2)
    assert [p["hits"] for p in pairings(result)] == [1, 1, 0, 1]
    assert hit_kinds(result, "D") == [
        (1, "morale", None), (1, "casualty", None), (2, "morale", None)
    ]  # fmt: skip
    taken = result.damage["D"]
    assert (taken.morale_hits, taken.casualty_hits) == (2, 1)


def test_armor_and_the_leader_take_their_turn_in_the_rounds_split():
    # Lone Legendary tank D (+6, Mobile +4, Outnumbered −2) against Elite A1 and A2 (+4): 24
    # against 18, then 24 against 15 (D Elite now). The second hit of D's round is its
    # Casualty hit, and Armor ignores it.
    elite = [unit(f"A{i}", quality=Q.ELITE, order=OrderKind.ATTACK) for i in (1, 2)]
    tank = unit("D", quality=Q.LEGENDARY, specialties=TANK)
    result = fight(elite, [tank], [20, 10, 20, 9])
    assert hit_kinds(result, "D") == [(1, "morale", None), (1, "casualty", "armor")]
    taken = result.damage["D"]
    assert (taken.morale_hits, taken.casualty_hits, taken.armor_ignored) == (1, 0, 1)
    # Legendary D led by Holt (assisting +6, then +4 as Elite; Outnumbered −2): 24 against
    # 17, then 24 against 17. The second hit is a Casualty hit, so Holt takes 3d6 for it.
    led = unit("D", quality=Q.LEGENDARY, leader=LeaderState("Holt", 30))
    result = fight(elite, [led], [20, 13, 20, 15], [6, 5, 4])
    assert hit_kinds(result, "D") == [(1, "morale", None), (1, "casualty", None)]
    taken = result.damage["D"]
    assert taken.leader_rolls == (6, 5, 4) and taken.leader == LeaderState("Holt", 15)


def test_the_same_seed_gives_the_same_engagement_die_for_die():
    def seeded(seed):
        rolls = Dice(seed)
        return engagement_fight(
            {"attackers": [unit("A1"), unit("A2", leader=LeaderState("Holt", 9))],
             "defenders": [unit("B1"), unit("B2", specialties=TANK)]},
            round_limit=10, d20=rolls.d20, d6=rolls.d6,
        ), rolls.rolled  # fmt: skip

    (first, rolled), (again, rolled_again) = seeded(42), seeded(42)
    assert first.events == again.events and rolled == rolled_again
    assert first.damage == again.damage
    dice_in_log = [
        roll["d20"] for e in first.events if e["event"] == "pairing"
        for roll in (e["attackers"], e["defenders"])
    ]  # fmt: skip
    assert dice_in_log == [r for kind, r in rolled if kind == "d20"]
    assert seeded(43)[0].events != first.events


def test_the_campaigns_dice_draw_each_face_from_random_which_python_keeps_stable():
    from campaign.rules.dice import Dice

    dice = Dice(7)
    # random.Random(7).random() is the same on every Python: these faces are too.
    assert [dice.d20() for _ in range(6)] == [7, 4, 14, 2, 11, 8]
    assert [dice.d6() for _ in range(6)] == [1, 4, 1, 3, 1, 1]
    assert dice.rolled[:2] == [("d20", 7), ("d20", 4)]
    # A battle's outcome seeds its dice from its inputs, as a string.
    assert [Dice("3:1:None:[(1, 2)]").d6() for _ in range(1)] == [1]


def test_the_campaigns_dice_draw_seeds_for_other_rollers_like_dice():
    from campaign.rules.dice import SEED_FACES

    one, two = Dice(7), Dice(7)
    seeds = [one.next_seed() for _ in range(5)]
    assert seeds == [two.next_seed() for _ in range(5)]
    assert all(0 <= s < SEED_FACES for s in seeds) and len(set(seeds)) == 5
    # The same draw as a die's: random.Random(7).random() scaled to the seed range.
    assert seeds[0] == int(random.Random(7).random() * SEED_FACES)
    assert one.rolled[0] == ("seed", seeds[0])


def test_a_dying_leader_leads_nobody_until_healed_but_a_disabled_one_still_leads():
    # d20 Modern: from −1 hit points a character is unconscious and dying; at 0 disabled,
    # still acting. The dying leader's unit fights as if nobody led it: no assisting column,
    # no feats, and the line-up says why.
    feats = frozenset({Feat.LEADERSHIP})
    dying = unit("A", leader=LeaderState("Vance", -3), leader_feats=feats)
    result = fight([dying], [unit("B")], [10, 10])
    (pairing,) = pairings(result)
    assert mods(pairing["attackers"]) == {
        "quality: Average, alone without Orders": -2, "equipment: Adequate": 0
    }  # fmt: skip
    lined_up = next(e for e in result.events if e["event"] == "unit" and e["unit"] == "A")
    assert lined_up["leader_dying"] == -3 and "leader_dead" not in lined_up
    disabled = unit("A", leader=LeaderState("Vance", 0), leader_feats=feats)
    (pairing,) = pairings(fight([disabled], [unit("B")], [10, 10]))
    assert mods(pairing["attackers"])["quality: Average, assisting its leader (Vance)"] == 3
    assert mods(pairing["attackers"])["leader's feats (Leadership)"] == 1


def test_a_dying_leaders_squad_tactics_cancel_no_outnumbered_penalty():
    """A dying leader leads nobody until healed, so its Squad/Squadron Tactics take none of
    the Outnumbered penalty off its unit (docs/bucs-choices.md, "Characters")."""
    feats = frozenset({Feat.SQUAD_TACTICS})
    dying = unit("D", leader=LeaderState("Vance", -3), leader_feats=feats)
    first = pairings(fight([unit("A1"), unit("A2")], [dying], [10] * 4))[0]
    got = mods(first["defenders"])
    assert got["Outnumbered 2 to 1"] == -2 and "Squad/Squadron Tactics" not in got
    assert first["defenders"]["total"] == 10 - 2 - 2


def test_a_dying_leaders_unit_says_in_its_hide_or_spot_working_that_the_leader_leads_nobody():
    """The surprise check of a unit whose leader is dying says why its leader's feats add
    nothing, in the line-up's words (`history.out_cold_text`); a leader at 0 still adds them."""
    feats = frozenset({Feat.LEADERSHIP})
    dying = unit("A", leader=LeaderState("Vance", -3), leader_feats=feats)
    for side, role in (("attackers", "hide"), ("defenders", "spot")):
        result = fight([dying], [unit("B")], [10, 10, 10, 10], surprise=side)
        check = next(e for e in result.events if e["event"] == "surprise")[role]
        assert check["modifiers"] == [
            ["quality: Average, alone without Orders", -2], ["equipment: Adequate", 0],
            ["no leader's feats: Vance is dying (\u22123 hp) and leads nobody until healed", 0],
        ], role  # fmt: skip
        assert check["total"] == 8, role
    disabled = unit("A", leader=LeaderState("Vance", 0), leader_feats=feats)
    result = fight([disabled], [unit("B")], [10, 10, 10, 10], surprise="attackers")
    hide = next(e for e in result.events if e["event"] == "surprise")["hide"]
    assert ["leader's feats (Leadership)", 1] in hide["modifiers"]
    assert not any("leads nobody" in name for name, _ in hide["modifiers"])


def test_a_dying_leader_is_still_wounded_with_its_unit_and_its_death_costs_2_morale_hits():
    dying = unit("A", leader=LeaderState("Vance", -3))
    result = fight([dying], [unit("B")], [1, 16], [6, 6, 6], rounds=5)
    taken = result.damage["A"]
    assert taken.leader_rolls == (6, 6, 6)
    assert taken.leader == LeaderState("Vance", -21, alive=False) and taken.leader_died


def test_a_hit_that_does_not_break_a_unit_says_what_it_fights_as_from_then_on():
    """The next round's roll shows the unit a step lower; the hit that cost the step says so."""
    result = fight([unit("A")], [unit("B")], [5, 11, 10, 10], rounds=2)
    (hit,) = [e for e in result.events if e["event"] == "hit"]
    assert (hit["unit"], hit["kind"], hit["fights_as"]) == ("A", "morale", "Inexperienced")
    second = pairings(result, 2)[0]["attackers"]
    assert any(name.startswith("quality: Inexperienced") for name in mods(second))
    # A hit that breaks the unit says nothing of the kind: the unit is out of the fight.
    shaken = unit("A", morale_hits=3)  # Average (step 3) with 3 hits: Raw, one hit from breaking
    (last,) = [e for e in fight([shaken], [unit("B")], [5, 11]).events if e["event"] == "hit"]
    assert "fights_as" not in last


def test_a_leaders_death_that_does_not_break_the_unit_says_what_it_fights_as():
    led = unit("A", quality=Q.LEGENDARY, leader=LeaderState("Holt", 5))
    result = fight([led], [unit("B")], [1, 20], [6, 6, 6])
    died = next(e for e in result.events if e["event"] == "leader_died")
    taken = result.damage["A"]
    assert taken.removed == "none"
    hits = taken.morale_hits + taken.casualty_hits
    assert died["fights_as"] == Q.LEGENDARY.lowered(hits).label
