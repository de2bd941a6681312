"""BUCS unit against unit at its edges, read from shared/design/bucs.md and the project's
choices (docs/bucs-choices.md), not from the code: every cell of the quality table in a fight,
a margin of exactly 5, the whole fight's first hits for Armor and Excellent kit, a leader at
exactly −10, a feat's cap on what it cancels. Fixed dice throughout."""

from __future__ import annotations

import pytest

from campaign.rules.command import Commandable, legendary_command
from campaign.rules.orders import OrderKind
from campaign.rules.state import LeaderState
from tests.campaign.test_engagement import fight, mods, pairings, unit
from units.bucs import Quality, Specialty

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
