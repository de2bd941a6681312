"""The reference scenarios play with the sample library's cards: the numbers the balance
table proves are the numbers the tournament fights with."""

from __future__ import annotations

import pytest

from battles.engine.scenarios import load_reference, reference_names
from battles.library import load_library


@pytest.fixture(scope="module")
def library():
    return load_library()


@pytest.mark.parametrize("name", reference_names())
def test_every_unit_card_is_a_sample_library_card(name, library):
    scenario = load_reference(name)
    cards = {c.name: c for c in library.units[scenario.ruleset.name].values()}
    for unit in scenario.units():
        assert unit.card == cards[unit.card.name], unit.id


@pytest.mark.parametrize("name", reference_names())
def test_every_building_card_is_a_sample_library_card(name, library):
    cards = {c.name: c for c in library.buildings.values()}
    for building in load_reference(name).buildings:
        assert building.card == cards[building.card.name], building.id
