"""Invariants of engagements over any line-up, situation and seed: the same inputs give the same
engagement, every d20 rolled is in the log, a broken unit takes no more hits, and the winner is
the side left standing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules.characters import Feat
from campaign.rules.dice import Dice
from campaign.rules.engagement import TERRAINS, Engaged, engagement_fight
from campaign.rules.orders import OrderKind
from campaign.rules.state import CampaignUnitState, LeaderState
from units.bucs import Equipment, Quality, Specialty

S = Specialty
KITS = [(S.INFANTRY,), (S.INFANTRY, S.AMPHIBIOUS), (S.INFANTRY, S.ARCTIC), (S.MEDICAL,),
        (S.INFANTRY, S.MECHANIZED)]  # fmt: skip


@st.composite
def engaged(draw, key: str) -> Engaged:
    quality = draw(st.sampled_from(list(Quality)[1:]))
    kit = draw(st.sampled_from(KITS[:2] if quality == Quality.GREEN else KITS))
    leader = draw(st.none() | st.builds(LeaderState, st.just("Kay"), st.integers(1, 20)))
    return Engaged(
        key=key,
        state=CampaignUnitState(
            name=key, quality=quality, equipment=draw(st.sampled_from(list(Equipment))),
            specialties=kit[: quality.specialty_limit], leader=leader,
            morale_hits=draw(st.integers(0, int(quality))),
        ),
        leader_feats=draw(st.frozensets(st.sampled_from(list(Feat)))) if leader else frozenset(),
        order=draw(st.none() | st.sampled_from(list(OrderKind))),
        order_repeated=draw(st.booleans()),
        dug_in=draw(st.booleans()),
        several_directions=draw(st.booleans()),
        cramped=draw(st.booleans()),
        landing=draw(st.booleans()),
    )  # fmt: skip


@st.composite
def line_ups(draw):
    a = draw(st.integers(1, 4))
    d = draw(st.integers(1, 4))
    return {
        "attackers": [draw(engaged(f"a{i}")) for i in range(a)],
        "defenders": [draw(engaged(f"d{i}")) for i in range(d)],
    }


@settings(max_examples=150, deadline=None)
@given(line_ups(), st.sampled_from(TERRAINS[:3]), st.sampled_from([None, "attackers",
       "defenders"]), st.integers(1, 12), st.integers(0, 2**32))  # fmt: skip
def test_engagements_are_replayable_and_keep_their_invariants(
    sides, terrain, surprise, limit, seed
):
    def fight():
        dice = Dice(seed)
        result = engagement_fight(sides, terrain=terrain, surprise=surprise, round_limit=limit,
                                  d20=dice.d20, d6=dice.d6)  # fmt: skip
        return result, dice.rolled

    (result, rolled), (again, rolled_again) = fight(), fight()
    assert result == again and rolled == rolled_again
    logged = [r["d20"] for e in result.events if e["event"] == "pairing"
              for r in (e["attackers"], e["defenders"])]  # fmt: skip
    logged += [e[k]["d20"] for e in result.events if e["event"] == "surprise" for k in ("hide",
               "spot")]  # fmt: skip
    assert sorted(logged) == sorted(r for kind, r in rolled if kind == "d20")
    assert sum(len(e["rolls"]) for e in result.events if e["event"] == "leader") == len(
        [r for kind, r in rolled if kind == "d6"]
    )
    assert 1 <= result.rounds <= limit
    broken_at = {}
    for index, event in enumerate(result.events):
        if event["event"] == "broken":
            broken_at[event["unit"]] = index
        if event["event"] == "hit":
            assert event["unit"] not in broken_at, "a broken unit takes no more hits"
    by_key = {u.key: u for side in sides.values() for u in side}
    for key, taken in result.damage.items():
        unit = by_key[key]
        hits = unit.state.hits + taken.morale_hits + taken.casualty_hits
        assert (taken.removed != "none") == (key in broken_at)
        if taken.removed != "none":
            assert hits > int(unit.state.quality)
        else:
            assert hits <= int(unit.state.quality)
    standing = {s for s, units in sides.items() if any(
        result.damage[u.key].removed == "none" for u in units)}  # fmt: skip
    if result.winner is not None:
        assert standing == {result.winner}
    else:
        assert standing == {"attackers", "defenders"} or not standing
