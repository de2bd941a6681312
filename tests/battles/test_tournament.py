"""The tournament: the default commander measured against the simple one, with intervals."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from battles.engine import SimpleCommander
from battles.engine.scenarios import load_reference
from battles.tally import wilson_interval
from battles.tournament import COMMANDERS, Record, Row, play, pooled, render_table, tournament

# Enough battles that the default's edge on Factory Hold (about 70% against the baseline's
# 50% over 400 battles) clears the interval: 80 battles, both sides.
SEEDS = range(40)


@pytest.fixture(scope="module")
def hold_rows():
    return tournament(["factory-hold"], SEEDS)


def test_it_plays_both_sides_of_each_scenario_on_the_same_seeds(hold_rows):
    assert [(r.scenario, r.side) for r in hold_rows] == [
        ("factory-hold", "infantry"),
        ("factory-hold", "armour"),
    ]
    for r in hold_rows:
        assert r.challenger.battles == r.baseline.battles == len(SEEDS)


def test_the_baseline_against_itself_wins_exactly_the_decided_battles(hold_rows):
    blue, red = hold_rows
    assert blue.baseline.wins == red.baseline.losses and blue.baseline.draws == red.baseline.draws


def test_a_small_tournament_shows_the_default_winning(hold_rows):
    (verdict,) = pooled(hold_rows)
    assert verdict.challenger.wins > verdict.baseline.wins
    assert verdict.clearly_better


def test_win_rates_carry_wilson_intervals():
    record = Record(wins=30, draws=2, losses=8, margin=1.5)
    assert record.battles == 40 and record.rate == 0.75
    assert record.interval == wilson_interval(30, 40)


def test_a_side_is_clearly_better_only_above_the_baselines_rate():
    base = Record(10, 0, 10, 0.0)
    assert Row("x", "a", Record(17, 0, 3, 1.0), base).clearly_better
    assert not Row("x", "a", Record(12, 0, 8, 1.0), base).clearly_better


def test_the_table_shows_both_policies_side_by_side(hold_rows):
    text = render_table(hold_rows)
    assert "| factory-hold | infantry | 40 |" in text and "default win rate (95% CI)" in text
    assert "clearly better head-to-head on" in text


def test_play_counts_every_seed():
    scenario = load_reference("chopper-raid")
    record = play(scenario, "raiders", range(3), COMMANDERS["simple"], SimpleCommander)
    assert record.battles == 3


def test_the_command_prints_the_table():
    out = StringIO()
    call_command("tournament", "mech-duel", "--seeds", "4", stdout=out, stderr=StringIO())
    text = out.getvalue()
    assert "Seeds 0–3" in text and "| mech-duel | red | 4 |" in text


def test_the_command_refuses_bad_input():
    with pytest.raises(CommandError):
        call_command("tournament", "--seeds", "0", stdout=StringIO(), stderr=StringIO())
    with pytest.raises(CommandError, match="no bundled scenario"):
        call_command("tournament", "atlantis", "--seeds", "1", stdout=StringIO(), stderr=StringIO())
