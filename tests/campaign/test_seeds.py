"""One seed range for every battle and engagement: a seed read off a page can be typed back in."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from battles.engine.scenarios import reference_path
from battles.services import SEED_LIMIT, battle_launch
from campaign.battle_forms import BattleSetupForm
from campaign.services import quick_resolve_run

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
