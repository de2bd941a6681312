"""BUCS unit against unit at its edges, read from shared/design/bucs.md and the project's
choices (docs/bucs-choices.md), not from the code: every cell of the quality table in a fight,
a margin of exactly 5, the whole fight's first hits for Armor and Excellent kit, a leader at
exactly −10, a feat's cap on what it cancels. Fixed dice throughout."""

from __future__ import annotations

import pytest

from campaign.rules.characters import Feat
from campaign.rules.checks import requisition_check, requisition_dc
from campaign.rules.command import Commandable, legendary_command
from campaign.rules.orders import OrderKind, order_hours
from campaign.rules.state import LeaderState
from campaign.services import leader_attach
from campaign.services.characters import character_create
from campaign.services.engagements import engagement_run
from tests.campaign.helpers import dice
from tests.campaign.test_engagement import fight, hit_kinds, mods, pairings, unit
from units.bucs import Equipment, Quality, Specialty

Q = Quality
S = Specialty
TANK = (S.MECHANIZED, S.ARMOR)

# The copy's quality table, typed from bucs.md: alone under Orders, alone without Orders,
# assisting. "Cannot act alone" is the project's −6 (docs/bucs-choices.md, "Engagements").
COPY_TABLE = {
    Q.RAW: (-6, -6, -2),
    Q.GREEN: (-4, -6, 1),
    Q.INEXPERIENCED: (-2, -4, 2),
    Q.AVERAGE: (0, -2, 3),
    Q.EXPERIENCED: (2, 0, 4),
    Q.ELITE: (4, 4, 4),
    Q.LEGENDARY: (6, 6, 6),
}


def quality_modifier(roll):
    (value,) = [value for name, value in roll["modifiers"] if name.startswith("quality: ")]
    return value


@pytest.mark.parametrize("quality", list(Q))
def test_a_unit_fights_with_the_copys_modifier_in_every_column_of_its_quality(quality):
    under_orders, without_orders, assisting = COPY_TABLE[quality]
    ordered = unit("A", quality=quality, order=OrderKind.ATTACK)
    alone = unit("A", quality=quality)
    led = unit("A", quality=quality, leader=LeaderState("Holt", 30))
    for fighter, expected in ((ordered, under_orders), (alone, without_orders), (led, assisting)):
        (pairing,) = pairings(fight([fighter], [unit("B")], [10, 10]))
        assert quality_modifier(pairing["attackers"]) == expected, fighter.setup
        # Adequate kit and nothing else: the total is the die and the table's cell.
        assert pairing["attackers"]["total"] == 10 + expected


@pytest.mark.parametrize(("die", "hits"), [(14, 0), (15, 1), (19, 1), (20, 2)])
def test_one_hit_per_full_five_points_of_margin_in_a_fight(die, hits):
    # Both Average under Orders (0): the margin is the difference of the dice, over 10.
    a, b = unit("A", order=OrderKind.ATTACK), unit("B", order=OrderKind.ATTACK)
    (pairing,) = pairings(fight([a], [b], [die, 10]))
    assert (pairing["margin"], pairing["hits"]) == (die - 10, hits)
    taken = fight([a], [b], [die, 10]).damage["B"]
    assert taken.morale_hits + taken.casualty_hits == hits


@pytest.mark.parametrize(
    ("enemies", "own", "outnumbered", "cancelled"),
    [
        (3, 2, -1, 1),  # 1.5 to 1: only the one point there is, never a bonus
        (2, 1, -2, 2),  # 2 to 1: all of it
        (3, 1, -4, 2),  # 3 to 1: up to 2 points, so −2 is left
        (4, 1, -6, 2),  # 4 to 1: −4 left
    ],
)
def test_squad_tactics_adds_one_and_cancels_up_to_two_points_of_outnumbered(
    enemies, own, outnumbered, cancelled
):
    tactician = unit("D", leader=LeaderState("Holt", 30),
                     leader_feats=frozenset({Feat.SQUAD_TACTICS}))  # fmt: skip
    defenders = [tactician] + [unit(f"D{i}") for i in range(1, own)]
    attackers = [unit(f"A{i}") for i in range(enemies)]
    first = pairings(fight(attackers, defenders, [10] * (2 * enemies)))[0]
    got = mods(first["defenders"])
    assert got[f"Outnumbered {enemies} to {own}"] == outnumbered
    assert got["Squad/Squadron Tactics"] == cancelled
    assert got["leader's feats (Squad/Squadron Tactics)"] == 1
    # Average assisting its leader +3, the feat +1, Outnumbered less what Tactics cancels.
    assert first["defenders"]["total"] == 10 + 3 + 1 + outnumbered + cancelled
    # Without the feat (Leadership alone) nothing is cancelled.
    plain = unit("D", leader=LeaderState("Holt", 30), leader_feats=frozenset({Feat.LEADERSHIP}))
    first = pairings(fight(attackers, [plain, *defenders[1:]], [10] * (2 * enemies)))[0]
    assert "Squad/Squadron Tactics" not in mods(first["defenders"])


def test_armor_ignores_the_first_two_casualty_hits_of_the_whole_fight_not_of_each_round():
    # Legendary tank T led by Ward (assisting +6, Mobile +4) against Elite A under Orders (+4),
    # the tank rolling 1 each round, A 20: 24 against 11 (2 hits), then 25 against 7 (3 hits;
    # T Elite, Driven Back), then 26 against 6 (4 hits; T Average). Each round splits its own
    # hits Morale, Casualty, ...; Armor ignores the Casualty hits of rounds 1 and 2 and no more.
    tank = unit("T", quality=Q.LEGENDARY, specialties=TANK, order=OrderKind.ATTACK,
                leader=LeaderState("Ward", 30))  # fmt: skip
    elite = unit("A", quality=Q.ELITE, order=OrderKind.ATTACK)
    result = fight([elite], [tank], [20, 1] * 3, [1] * 6, rounds=3)
    assert [p["hits"] for p in pairings(result)] == [2, 3, 4]
    assert hit_kinds(result, "T") == [
        (1, "morale", None), (1, "casualty", "armor"),
        (2, "morale", None), (2, "casualty", "armor"), (2, "morale", None),
        (3, "morale", None), (3, "casualty", None), (3, "morale", None), (3, "casualty", None),
    ]  # fmt: skip
    taken = result.damage["T"]
    # Seven hits suffered, as many as a Legendary unit takes; the last a Casualty hit.
    assert (taken.morale_hits, taken.casualty_hits, taken.armor_ignored) == (5, 2, 2)
    assert taken.removed == "destroyed"
    # Its leader bleeds 3d6 for the two Casualty hits the unit suffered, none for those ignored.
    assert taken.leader_rolls == (1,) * 6 and taken.leader == LeaderState("Ward", 24)


def test_excellent_kit_ignores_the_first_morale_hit_of_a_less_well_equipped_enemy_only():
    # Excellent B (Legendary, no Order: +6, +4) rolls 1 against A (Average under Orders: 0)
    # rolling 20: 22 or 24 against 11, two hits, the first Morale.
    for kit, ignored in ((Equipment.GOOD, 1), (Equipment.EXCELLENT, 0)):
        a = unit("A", order=OrderKind.ATTACK, equipment=kit)
        b = unit("B", quality=Q.LEGENDARY, equipment=Equipment.EXCELLENT)
        result = fight([a], [b], [20, 1])
        first = hit_kinds(result, "B")[0]
        assert first == (1, "morale", "excellent" if ignored else None), kit
        assert result.damage["B"].excellent_ignored == ignored, kit
    # Against a Good enemy over three rounds, only the fight's first Morale hit is ignored.
    a = unit("A", quality=Q.LEGENDARY, order=OrderKind.ATTACK, equipment=Equipment.GOOD)
    b = unit("B", quality=Q.LEGENDARY, equipment=Equipment.EXCELLENT)
    result = fight([a], [b], [20, 1] * 3, rounds=3)
    ignored = [kind for _, kind, why in hit_kinds(result, "B") if why == "excellent"]
    assert ignored == ["morale"] and result.damage["B"].excellent_ignored == 1


@pytest.mark.parametrize(("hit_points", "dies"), [(8, True), (9, False)])
def test_a_leader_dies_in_a_fight_at_minus_ten_and_only_then_costs_two_morale_hits(
    hit_points, dies
):
    # A (Average, no Order: −2) rolls 20 against Legendary B assisting its leader (+6) rolling
    # 2: a margin of 10, two hits, Morale then Casualty. The Casualty hit costs the leader 3d6
    # of 6s: 18 hit points, to −10 (dead) from 8, to −9 (dying, not dead) from 9.
    led = unit("B", quality=Q.LEGENDARY, leader=LeaderState("Holt", hit_points))
    taken = fight([unit("A")], [led], [20, 2], [6, 6, 6]).damage["B"]
    assert taken.leader.hit_points == hit_points - 18
    assert taken.leader_died is dies and taken.leader.alive is not dies
    assert (taken.morale_hits, taken.casualty_hits) == ((3, 1) if dies else (1, 1))


def test_a_legendary_unit_commands_only_lesser_units_so_no_other_legendary_one():
    units = [
        Commandable("first", False, False, Q.LEGENDARY),
        Commandable("second", False, False, Q.LEGENDARY),
        Commandable("green", False, False, Q.GREEN),
        Commandable("elite", False, False, Q.ELITE),
    ]
    assert legendary_command(units) == {"green": "first", "elite": "first"}
    # The Green unit it commands acts as under Orders (−4), where alone it could not act (−6).
    legend, green = unit("L", quality=Q.LEGENDARY), unit("G", quality=Q.GREEN)
    second = pairings(fight([legend, green], [unit("B")], [10] * 4))[1]
    assert quality_modifier(second["attackers"]) == -4


@pytest.mark.parametrize(
    ("quality", "listed", "hours"),
    [
        (Q.RAW, 1, 1),  # 1 − 0 − 1: at least an hour
        (Q.GREEN, 3, 2),  # half of step 1 is 0: only the Strategist's hour comes off
        (Q.AVERAGE, 2, 1),  # 2 − 1 − 1 = 0: at least an hour
        (Q.LEGENDARY, 6, 2),  # 6 − 3 − 1
        (Q.LEGENDARY, 2, 1),
    ],
)
def test_a_strategists_hour_never_takes_an_order_below_one_hour(quality, listed, hours):
    assert order_hours(listed, quality, hours_saved=1) == hours


@pytest.mark.parametrize(
    ("own", "enemy", "mobile"),
    [
        (TANK, (S.INFANTRY, S.MECHANIZED), 2),  # Armor against Mechanized: one step
        ((S.INFANTRY, S.MECHANIZED), (S.INFANTRY, S.MECHANIZED), None),  # no advantage
        (TANK, TANK, None),
    ],
)
def test_mobile_counts_only_the_steps_one_unit_is_ahead_of_the_other(own, enemy, mobile):
    (pairing,) = pairings(fight([unit("A", specialties=own)], [unit("B", specialties=enemy)],
                                [10, 10]))  # fmt: skip
    assert mods(pairing["attackers"]).get("Mobile") == mobile
    assert "Mobile" not in mods(pairing["defenders"])


def test_surprise_momentum_grows_by_one_with_each_round_won_and_passes_on_a_loss():
    # A hides unseen (Hide 15 against Spot 5): +2 from the start. All without Orders (−2),
    # every margin under 5 so nobody's quality changes: A wins round 1 (now +3), then loses
    # round 2 (10 + 3 against 14): its Momentum is gone and B gains +1.
    d20s = [15, 5, 10, 10, 10, 14, 10, 10]
    result = fight([unit("A")], [unit("B")], d20s, rounds=3, surprise="attackers")
    rounds = pairings(result)
    assert [p["winner"] for p in rounds] == ["attackers", "defenders", "defenders"]
    assert [p["hits"] for p in rounds] == [0, 0, 0]
    assert [mods(p["attackers"]).get("Momentum") for p in rounds] == [2, 3, None]
    assert [mods(p["defenders"]).get("Momentum") for p in rounds] == [None, None, 1]


@pytest.mark.django_db
def test_a_characters_squad_tactics_cancel_outnumbered_in_an_engagement_fought_here(
    campaign, make_unit, enemy
):
    red = make_unit("Red 1")
    holt = character_create(campaign=campaign, name="Holt", hit_points=20,
                            feats=["squad_tactics"])  # fmt: skip
    leader_attach(unit=red, character=holt)
    blues = [make_unit("Blue 1", into=enemy), make_unit("Blue 2", into=enemy)]
    record = engagement_run(campaign=campaign, sides={"attackers": [red], "defenders": blues},
                            seed=4, round_limit=1)  # fmt: skip
    first = next(e for e in record.events if e["event"] == "pairing")
    got = mods(first["attackers"])
    assert got["Outnumbered 2 to 1"] == -2 and got["Squad/Squadron Tactics"] == 2
    assert got["leader's feats (Squad/Squadron Tactics)"] == 1


@pytest.mark.parametrize(
    ("quality", "equipment", "dc"),
    [(Q.RAW, Equipment.POOR, 6), (Q.EXPERIENCED, Equipment.EXCELLENT, 22)],
)
def test_the_requisition_dc_at_the_ends_of_the_ladders_is_met_exactly_or_missed_by_one(
    quality, equipment, dc
):
    # Base DCs Raw 10 to Experienced 18, plus the kit's modifier (Poor −4, Excellent +4).
    assert requisition_dc(quality, equipment) == dc
    assert requisition_check(2, quality, equipment, dice(dc - 2))["success"] is True
    assert requisition_check(2, quality, equipment, dice(dc - 3))["success"] is False
