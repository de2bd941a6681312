"""BUCS at its edges through the services, read from shared/design/bucs.md and the project's
choices (docs/bucs-choices.md), not from the code: a loser by exactly 10, a leader's death that
takes a unit exactly to Raw or one step past it, an Order reckoned to exactly its one-hour
minimum, the last Morale hit in the combat zone. Where a service rolls, its dice are scripted,
so each edge is met exactly."""

from __future__ import annotations

import pytest

from campaign.models import Engagement, Unit
from campaign.services import calendar_advance, leader_attach, unit_combat_zone_set, unit_edit
from campaign.services.characters import character_create
from campaign.services.engagements import engagement_run
from campaign.services.orders import order_give, order_working
from tests.campaign.helpers import dice
from units.bucs import Quality

pytestmark = pytest.mark.django_db

Q = Quality


@pytest.fixture
def scripted(monkeypatch):
    """``scripted(module, d20s=..., d6s=...)``: that service module's seeded dice give these
    results, in order, whatever the seed (and fail loudly when they run out)."""

    def script(module: str, d20s=(), d6s=()) -> None:
        d20, d6 = dice(*d20s), dice(*d6s)

        class Scripted:
            def __init__(self, seed):
                self.seed = seed
                self.d20, self.d6 = d20, d6

        monkeypatch.setattr(f"campaign.services.{module}.Dice", Scripted)

    return script


def pairings(record: Engagement) -> list[dict]:
    return [e for e in record.events if e["event"] == "pairing"]


def mods(roll: dict) -> dict[str, int]:
    return {name: value for name, value in roll["modifiers"]}


# ---------------------------------------------------------------------------------------------
# Driven Back: "lose by 10, −2 next round" (docs/bucs-choices.md)
# ---------------------------------------------------------------------------------------------


def test_a_loser_by_nine_is_not_driven_back_and_a_loser_by_ten_is_for_the_next_round_only(
    campaign, make_unit, enemy, scripted
):
    red = make_unit("Red", quality="legendary")
    blue = make_unit("Blue", quality="legendary", into=enemy)
    # Both Legendary without Orders (+6).
    # Round 1: Red 19 + 6 = 25 against Blue 10 + 6 = 16: a margin of 9, one (Morale) hit.
    # Round 2: Red 13 + 6 + Momentum 1 = 20 against Blue, Elite now (+4), 6 + 4 = 10: a margin
    #   of exactly 10, two hits (Morale, Casualty): Blue is Driven Back.
    # Round 3: Blue, Average now (−2), pays for it: 15 − 2 − 2 = 11 against Red 1 + 6 + 2 = 9.
    # Round 4: the Driven Back is two rounds old: Blue fights without it.
    scripted("engagements", d20s=[19, 10, 13, 6, 1, 15, 10, 10])
    record = engagement_run(campaign=campaign, sides={"attackers": [red], "defenders": [blue]},
                            round_limit=4, name="Mill ford")  # fmt: skip
    one, two, three, four = pairings(record)
    assert (one["margin"], one["hits"], one["driven_back"]) == (9, 1, None)
    assert "Driven Back last round" not in mods(two["defenders"])
    assert (two["margin"], two["hits"], two["driven_back"]) == (10, 2, str(blue.pk))
    assert mods(three["defenders"])["Driven Back last round"] == -2
    assert three["defenders"]["total"] == 11 and three["winner"] == "defenders"
    assert "Driven Back last round" not in mods(four["defenders"])
    assert four["defenders"]["total"] == 10 - 2 + 1  # Average, and Momentum from round 3
    assert "Driven Back last round" not in mods(one["attackers"]) | mods(four["attackers"])


# ---------------------------------------------------------------------------------------------
# "If the character dies, the unit takes 2 Morale hits at once"; each hit a step, and below Raw
# on a Morale hit the unit retreats in poor order
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "standing"),
    [(Q.EXPERIENCED, True), (Q.AVERAGE, False)],
)
def test_a_leaders_death_breaks_only_a_unit_it_takes_past_raw(
    campaign, make_unit, enemy, scripted, quality, standing
):
    # Red (Legendary, no Order: +6) rolls 18: 24. Blue assists its leader (Experienced +4,
    # Average +3) and rolls 10: a margin of 10 or 11, two hits, a Morale then a Casualty hit.
    # The Casualty hit costs Lt. Ash 3d6 of 6s: 18, from 5 to −13, dead: 2 Morale hits at once.
    # Four hits in all: an Experienced unit (four steps above Raw) is Raw and still stands; an
    # Average one (three) is taken below Raw by a Morale hit: it retreats in poor order.
    red = make_unit("Red", quality="legendary")
    blue = make_unit("Blue", quality=quality.value, into=enemy)
    ash = character_create(campaign=campaign, name="Lt. Ash", hit_points=5)
    leader_attach(unit=blue, character=ash)
    scripted("engagements", d20s=[18, 10], d6s=[6, 6, 6])
    record = engagement_run(campaign=campaign, sides={"attackers": [red], "defenders": [blue]},
                            round_limit=1, name="Mill ford")  # fmt: skip
    (pairing,) = pairings(record)
    assert pairing["hits"] == 2
    assert any(e["event"] == "leader_died" for e in record.events)
    blue = Unit.objects.get(pk=blue.pk)
    assert (blue.morale_hits, blue.casualty_hits) == (3, 1)
    if standing:
        assert blue.status == "ready" and blue.state.effective_quality == Q.RAW
        assert not any(e["event"] == "broken" for e in record.events)
    else:
        assert blue.status == "retreated"


# ---------------------------------------------------------------------------------------------
# Orders: "a unit subtracts half its quality step from it, minimum 1 hour"
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "feats", "listed", "working"),
    [
        # Reckoned to exactly 1 hour: no floor is needed, and the working names none.
        ("legendary", [], 4, "4 listed, less 3 for Legendary, half its step 6 rounded down"),
        ("elite", [], 3, "3 listed, less 2 for Elite, half its step 5 rounded down"),
        (
            "legendary",
            ["strategist"],
            5,
            "5 listed, less 3 for Legendary, half its step 6 "
            "rounded down, less 1 for a Strategist giving it",
        ),
        # One hour less listed: reckoned to 0, the minimum of 1 hour is what counts.
        (
            "legendary",
            [],
            3,
            "3 listed, less 3 for Legendary, half its step 6 rounded down, at least 1",
        ),
        ("elite", [], 2, "2 listed, less 2 for Elite, half its step 5 rounded down, at least 1"),
    ],
)
def test_an_order_reckoned_to_one_hour_takes_one_and_only_one_below_it_is_floored(
    campaign, make_unit, quality, feats, listed, working
):
    squad = make_unit(quality=quality)
    giver = character_create(campaign=campaign, name="Col. Varga", hit_points=9, feats=feats)
    order = order_give(giver=giver, unit=squad, kind="use_skill", listed_hours=listed)
    assert (order.hours, order.finishes_at - order.given_at) == (1, 1)
    assert order_working(order) == working


# ---------------------------------------------------------------------------------------------
# "Each day of R&R restores one. While a unit is under stress (still in the combat zone), its
# last Morale hit can only be healed by R&R" (out of the zone: rulings.md, second edition, 3)
# ---------------------------------------------------------------------------------------------


def test_rr_in_the_combat_zone_heals_one_a_day_down_to_the_last_which_heals_once_withdrawn(
    campaign, make_unit
):
    shaken = make_unit("Shaken", quality="elite")
    unit_edit(unit=shaken, changes={"morale_hits": 3, "in_combat_zone": True}, reason="shelled")
    healed = []
    for _ in range(3):
        calendar_advance(campaign=campaign, days=1)
        healed.append(Unit.objects.get(pk=shaken.pk).morale_hits)
    assert healed == [2, 1, 1]  # one a day, then the last is kept, however long the rest
    unit_combat_zone_set(unit=shaken, in_combat_zone=False, reason="to the rear")
    calendar_advance(campaign=campaign, days=1)
    assert Unit.objects.get(pk=shaken.pk).morale_hits == 0
