"""The campaign lab: seeded campaigns through the real services and the engine, rolled back.

Small seeded runs of `campaign.lab.lab_run` (the code behind `manage.py campaign_lab`), each a
few campaigns of engine battles, check the second edition's properties in whole campaigns, on
the shipped library, in both rulesets; `test_second_edition.py` proves them exactly per outcome.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from campaign.lab import lab_run
from campaign.models import Campaign, HistoryEntry, Unit
from units.bucs import Quality

pytestmark = pytest.mark.django_db
RULESETS = ["combined_arms", "one_year_war"]


@pytest.fixture(scope="module")
def runs(django_db_setup, django_db_blocker):
    """One small seeded run per ruleset, with medics and without (same seeds). Four campaigns:
    with two, a Medical force's 22 quality steps were too few to tell medics from none."""
    with django_db_blocker.unblock():
        return {
            (ruleset, medics): lab_run(
                ruleset=ruleset, campaigns=4, battles=10, medics=medics, seed=3
            )
            for ruleset in RULESETS
            for medics in (True, False)
        }


def test_the_lab_plays_its_battles_and_leaves_the_database_as_it_was():
    before = [model.objects.count() for model in (Campaign, Unit, HistoryEntry)]
    report = lab_run(campaigns=1, battles=2, seed=1)
    assert report.battles_fought == 2
    assert sum(t.unit_battles for t in report.by_quality.values()) > 0
    assert [model.objects.count() for model in (Campaign, Unit, HistoryEntry)] == before


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("medics", [True, False], ids=["medics", "no_medics"])
def test_in_the_lab_taken_out_is_not_dead(runs, ruleset, medics):
    report = runs[ruleset, medics]
    taken = sum(t.taken_out for t in report.by_quality.values())
    lost = sum(t.lost_for_good for t in report.by_quality.values())
    assert taken > 0 and lost < taken  # the first edition: every one of them lost
    assert report.by_quality[Quality.LEGENDARY].lost_for_good == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_in_the_lab_most_units_that_lose_a_hit_carry_casualty_hits_to_the_medics(runs, ruleset):
    report = runs[ruleset, True]
    assert report.battles_with_casualty_hits > report.battles_with_hit_lost / 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_in_the_lab_a_force_with_medics_keeps_more_quality_than_without(runs, ruleset):
    with_medics, without = runs[ruleset, True], runs[ruleset, False]
    assert sum(t.saved for t in with_medics.by_quality.values()) > 0
    assert sum(t.saved for t in without.by_quality.values()) == 0
    assert with_medics.medical_force_started == without.medical_force_started > 0
    assert with_medics.medical_force_kept > without.medical_force_kept


@pytest.mark.parametrize("ruleset", RULESETS)
def test_in_the_lab_shock_shows_as_morale_hits_that_rr_heals(runs, ruleset):
    # In both rulesets the Morale hits are the blows', the leaders' and the shock's (each point
    # of Skill lost to suppression).
    report = runs[ruleset, True]
    assert sum(t.morale_hits for t in report.by_quality.values()) > 0
    out = [t for t in report.by_quality.values() if t.out_of_action]
    assert out and all(t.days_out >= t.out_of_action for t in out)  # at least a day each


def test_the_lab_command_prints_a_row_per_quality_step(capsys):
    call_command("campaign_lab", campaigns=1, battles=2, ruleset="combined_arms", medics="with")
    out = capsys.readouterr().out
    assert "Combined Arms, with medics: 1 campaigns × 2 battles" in out
    for quality in Quality:
        assert f"| {quality.label} |" in out
