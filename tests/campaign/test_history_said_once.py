"""A unit's history says each fact once: what a fight did to the unit, then the working (the
dice) after it, briefly; and the hits a fight dealt in the same words wherever they are told."""

from __future__ import annotations

from campaign.pages.history_words import entry_line
from campaign.rules.damage import UnitOutcome
from campaign.rules.history import told_why
from campaign.services import outcome_apply
from campaign.services.outcomes import split_text


def test_a_battle_entry_says_the_hits_it_took_once(campaign, make_unit):
    """Seed 1: 2 Hits lost by the 4-Hit Mech card make 3 BUCS hits, split 5, 2 and 3: 2 Morale
    and 1 Casualty. The entry opened "took 2 Morale hits and 1 Casualty hit", the dice ended
    with the split in the same words, and the history added "now carries" them once more."""
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    (entry,) = outcome_apply(
        campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, reason="Weir", seed=1
    )[:1]
    mech.refresh_from_db()
    line = entry_line(entry, mech.state.to_json())
    assert line.startswith(
        "Weir: took 2 Morale hits and 1 Casualty hit; is in the combat zone — 2 of 4 Hits lost; "
    )
    assert line.count("2 Morale hits and 1 Casualty hit") == 1
    assert line.endswith("a d6 each rolled 5, 2 and 3 (Casualty on 4 or more)")


def test_a_battle_entry_says_what_the_unit_carries_when_it_carried_hits_before(campaign, make_unit):
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, reason="Weir", seed=1)
    (entry,) = outcome_apply(
        campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, reason="Ford", seed=1
    )[:1]
    mech.refresh_from_db()
    line = entry_line(entry, mech.state.to_json())
    assert f"now carries {mech.morale_hits} Morale hits" in line


def test_the_split_of_bucs_hits_is_said_only_where_it_differs_from_the_hits_taken():
    """Armor ignored the Casualty hit the die of 4 made: the split is said, the hits taken
    differ from it. Where they do not, the dice alone say it."""
    assert split_text((4, 1), (1, 1), (1, 0)) == (
        "2 BUCS hits, a d6 each rolled 4 and 1 (Casualty on 4 or more): 1 Morale hit and 1 "
        "Casualty hit"
    )
    assert split_text((4, 1), (1, 1), (1, 1)) == (
        "2 BUCS hits, a d6 each rolled 4 and 1 (Casualty on 4 or more)"
    )
    assert split_text((), (1, 2), (1, 2)) == "3 BUCS hits"
    assert split_text((), (1, 2), (0, 2)) == "3 BUCS hits (1 Morale hit and 2 Casualty hits)"


def test_the_medics_story_saved_in_short_words_reads_as_a_fights_entry_says_hits():
    saved = (
        "at A; 5 Casualty; at B; 1 Morale; GM correction: a recount; 3 Morale, 2 Casualty; "
        "medics saved 0; 5 Casualty hits not saved within 24 hours died"
    )
    assert told_why(saved, {}, {}) == (
        "at A; 5 Casualty hits; at B; 1 Morale hit; GM correction: a recount; 3 Morale hits "
        "and 2 Casualty hits; medics saved 0; 5 Casualty hits not saved within 24 hours died"
    )
