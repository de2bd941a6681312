"""One seed range for every battle, engagement and roll: a seed read off a page can be typed back
in, and every seed column holds it."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from battles.engine.scenarios import reference_path
from battles.models import Battle
from battles.refusals import BattleInputError
from battles.services import SEED_LIMIT, battle_launch
from campaign.battle_forms import BattleSetupForm
from campaign.models import Engagement, HistoryEntry, TableRoll, Unit
from campaign.services import quick_resolve_run
from campaign.services.checks import contest_run, requisition_run, skill_check_run
from campaign.services.engagements import engagement_run

pytestmark = pytest.mark.django_db


def test_every_random_seed_is_one_a_person_can_type_back_into_the_set_up_form():
    scenario = json.loads(reference_path("crossroads").read_text())
    seeds = [battle_launch(name="", scenario=scenario).seed for _ in range(20)]
    field = BattleSetupForm.base_fields["seed"]
    for seed in seeds:
        assert 0 <= seed <= SEED_LIMIT == 2**53 - 1
        assert field.clean(str(seed)) == seed


def test_a_quick_resolve_refuses_a_seed_outside_the_range(campaign, make_unit, enemy):
    # A reproducible engagement needs a seed that can be written down and typed in again.
    attacker, defender = make_unit("1st Squad"), make_unit("Iron Wolf", into=enemy)
    with pytest.raises(ValidationError, match="between 0 and"):
        quick_resolve_run(
            campaign=campaign,
            attacker=attacker,
            defender=defender,
            seed=SEED_LIMIT + 1,
            actor=campaign.gm,
        )


@pytest.mark.parametrize("seed", [SEED_LIMIT + 1, 2**63, 2**64, -1, 2.5, True, "7"])
def test_every_roll_refuses_a_seed_outside_the_range_by_one_check_and_writes_nothing(
    campaign, make_unit, enemy, force, cards, seed
):
    # Above the range a seed could not be typed back in, and from 2**63 no seed column holds it.
    squad, wolf = make_unit("1st Squad"), make_unit("Iron Wolf", into=enemy)
    runs = {
        "engagement": lambda: engagement_run(
            campaign=campaign, sides={"attackers": [squad], "defenders": [wolf]}, seed=seed
        ),
        "quick resolve": lambda: quick_resolve_run(
            campaign=campaign, attacker=squad, defender=wolf, seed=seed
        ),
        "skill check": lambda: skill_check_run(campaign=campaign, units=[squad], dc=10, seed=seed),
        "contest": lambda: contest_run(
            campaign=campaign, active=[squad], resisting=[wolf], seed=seed
        ),
        "requisition": lambda: requisition_run(
            force=force, unit_type=cards["Rifle Squad"], name="2nd Squad", seed=seed
        ),
    }
    before = written()
    why = f"must be a whole number between 0 and {SEED_LIMIT}, got {seed!r}"
    for run in runs.values():
        with pytest.raises(ValidationError) as refused:
            run()
        assert refused.value.message_dict == {"seed": [why]}
    scenario = json.loads(reference_path("crossroads").read_text())
    with pytest.raises(BattleInputError) as refused:
        battle_launch(name="", scenario=scenario, seed=seed)
    assert refused.value.errors == [("seed", why)]
    assert written() == before


def test_the_largest_seed_is_taken(campaign, make_unit):
    roll = skill_check_run(campaign=campaign, units=[make_unit()], dc=10, seed=SEED_LIMIT)
    assert roll.seed == SEED_LIMIT


def written() -> tuple[int, ...]:
    return tuple(
        model.objects.count() for model in (Battle, Engagement, TableRoll, HistoryEntry, Unit)
    )
