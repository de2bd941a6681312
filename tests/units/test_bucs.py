"""The BUCS vocabulary: every table cell, every project choice, every helper."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from units.bucs import (
    DUG_IN,
    EQUIPMENT_TABLE,
    HIT_MARGIN,
    LEGENDARY_COMMAND_LIMIT,
    MOBILE_PER_STEP,
    MOMENTUM_PER_ROUND,
    OUTNUMBERED_TABLE,
    PINNED_DOWN_OPPONENT,
    QUALITY_TABLE,
    SPECIALTY_TABLE,
    STRENGTH_IN_NUMBERS_PER_UNIT,
    SURPRISE_MOMENTUM,
    TRAINING_CEILING,
    TRAINING_TARGETS,
    Equipment,
    Mobility,
    Quality,
    Specialty,
    battle_skill,
    effective_quality,
    equipment_for_task,
    hits_from_margin,
    ignores_first_morale_hit,
    kept_beyond_limit,
    mobile_modifier,
    mobility,
    momentum_after_round,
    outnumbered_modifier,
    quality_for_order,
    specials,
    split_damage,
    starting_momentum,
    strength_in_numbers,
    validate_specialties,
    with_requirements,
)

Q = Quality
qualities = st.sampled_from(list(Quality))

# ---------------------------------------------------------------------------------------------
# Quality
# ---------------------------------------------------------------------------------------------

# step, label, alone under Orders, alone without Orders, assisting, specialties — bucs.md
QUALITY_ROWS = [
    (Q.RAW, 0, "Raw", -6, None, -2, 0),
    (Q.GREEN, 1, "Green", -4, None, +1, 1),
    (Q.INEXPERIENCED, 2, "Inexperienced", -2, -4, +2, 1),
    (Q.AVERAGE, 3, "Average", 0, -2, +3, 2),
    (Q.EXPERIENCED, 4, "Experienced", +2, 0, +4, 2),
    (Q.ELITE, 5, "Elite", +4, +4, +4, 3),
    (Q.LEGENDARY, 6, "Legendary", +6, +6, +6, 4),
]


@pytest.mark.parametrize(
    ("quality", "step", "label", "under_orders", "without_orders", "assisting", "specialties"),
    QUALITY_ROWS,
)
def test_it_holds_every_cell_of_the_quality_table(
    quality, step, label, under_orders, without_orders, assisting, specialties
):
    assert int(quality) == step
    assert quality.label == label
    assert quality.alone_under_orders == under_orders
    assert quality.alone_without_orders == without_orders
    assert quality.assisting == assisting
    assert quality.specialty_limit == specialties
    assert quality.row is QUALITY_TABLE[quality]


@pytest.mark.parametrize(("word", "quality"), [("raw", Q.RAW), ("elite", Q.ELITE)])
def test_it_reads_a_quality_from_the_word_data_stores(word, quality):
    assert Quality.of_word(word) is quality
    assert quality.word == word


@pytest.mark.parametrize("word", ["Average", "veteran", ""])
def test_it_refuses_a_quality_word_data_does_not_store(word):
    with pytest.raises(ValueError):
        Quality.of_word(word)


def test_it_has_seven_steps_lowest_first():
    assert [q.label for q in Quality] == [row[2] for row in QUALITY_ROWS]
    assert list(Quality) == sorted(Quality)


@pytest.mark.parametrize(("quality", "can"), [(q, q >= Q.INEXPERIENCED) for q in Quality])
def test_it_knows_raw_and_green_cannot_act_alone(quality, can):
    assert quality.can_act_alone is can


@pytest.mark.parametrize("quality", list(Quality))
def test_it_survives_one_hit_per_step_plus_one(quality):
    assert quality.hits_survived == int(quality) + 1


def test_it_lets_legendary_take_seven_hits_and_raw_one():
    assert Q.LEGENDARY.hits_survived == 7
    assert Q.RAW.hits_survived == 1


def test_it_lets_a_legendary_unit_command_six_lesser_units():
    assert LEGENDARY_COMMAND_LIMIT == 6


@pytest.mark.parametrize(
    ("quality", "n", "raised", "lowered"),
    [
        (Q.AVERAGE, 1, Q.EXPERIENCED, Q.INEXPERIENCED),
        (Q.AVERAGE, 0, Q.AVERAGE, Q.AVERAGE),
        (Q.AVERAGE, 3, Q.LEGENDARY, Q.RAW),
        (Q.AVERAGE, 10, Q.LEGENDARY, Q.RAW),
        (Q.LEGENDARY, 1, Q.LEGENDARY, Q.ELITE),
        (Q.RAW, 1, Q.GREEN, Q.RAW),
    ],
)
def test_it_raises_and_lowers_quality_clamped(quality, n, raised, lowered):
    assert quality.raised(n) is raised
    assert quality.lowered(n) is lowered


def test_it_raises_and_lowers_one_step_by_default():
    assert Q.GREEN.raised() is Q.INEXPERIENCED
    assert Q.GREEN.lowered() is Q.RAW


@pytest.mark.parametrize("method", ["raised", "lowered"])
def test_it_refuses_a_negative_number_of_steps(method):
    with pytest.raises(ValueError, match="non-negative"):
        getattr(Q.AVERAGE, method)(-1)


@given(qualities, st.integers(0, 20), st.integers(0, 20))
def test_it_never_leaves_the_ladder(quality, up, down):
    assert Q.RAW <= quality.raised(up).lowered(down) <= Q.LEGENDARY
    assert Q.RAW <= quality.lowered(down).raised(up) <= Q.LEGENDARY


# ---------------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------------


def test_it_trains_to_experienced_at_most():
    assert TRAINING_CEILING is Q.EXPERIENCED
    assert max(TRAINING_TARGETS) is TRAINING_CEILING
    assert sorted(TRAINING_TARGETS) == [Q.INEXPERIENCED, Q.AVERAGE, Q.EXPERIENCED]


@pytest.mark.parametrize(
    ("quality", "trained"),
    [
        (Q.RAW, None),  # Green is not a training target: the first battle makes it.
        (Q.GREEN, Q.INEXPERIENCED),
        (Q.INEXPERIENCED, Q.AVERAGE),
        (Q.AVERAGE, Q.EXPERIENCED),
        (Q.EXPERIENCED, None),  # Elite and Legendary come only from battle.
        (Q.ELITE, None),
        (Q.LEGENDARY, None),
    ],
)
def test_it_trains_one_step_into_inexperienced_average_or_experienced(quality, trained):
    assert quality.can_be_trained is (trained is not None)
    if trained is None:
        with pytest.raises(ValueError, match=r"(only from|by) battle"):
            quality.trained()
    else:
        assert quality.trained() is trained


# ---------------------------------------------------------------------------------------------
# Going into battle: effective quality and the Skill shift
# ---------------------------------------------------------------------------------------------

SKILL_SHIFTS = {
    Q.RAW: -2,
    Q.GREEN: -1,
    Q.INEXPERIENCED: -1,
    Q.AVERAGE: 0,
    Q.EXPERIENCED: +1,
    Q.ELITE: +1,
    Q.LEGENDARY: +2,
}


@pytest.mark.parametrize(("quality", "shift"), SKILL_SHIFTS.items())
def test_it_shifts_skill_per_quality_as_the_bridge_rules(quality, shift):
    assert quality.skill_shift == shift


@pytest.mark.parametrize("printed", [2, 3, 4, 5])
@pytest.mark.parametrize("quality", list(Quality))
def test_it_clamps_battle_skill_to_the_card_range(printed, quality):
    expected = min(5, max(2, printed + SKILL_SHIFTS[quality]))
    assert battle_skill(printed, quality) == expected


@pytest.mark.parametrize(
    ("printed", "quality", "skill"),
    [
        (4, Q.AVERAGE, 4),
        (4, Q.RAW, 2),
        (3, Q.RAW, 2),  # clamped up: a card never prints Skill 1
        (2, Q.GREEN, 2),
        (4, Q.LEGENDARY, 5),  # clamped down: a card never prints Skill 6
        (3, Q.LEGENDARY, 5),
        (3, Q.ELITE, 4),
        (5, Q.EXPERIENCED, 5),
    ],
)
def test_it_prints_these_battle_skills(printed, quality, skill):
    assert battle_skill(printed, quality) == skill


@pytest.mark.parametrize("printed", [1, 6, 0, -3])
def test_it_refuses_a_printed_skill_outside_the_card_range(printed):
    with pytest.raises(ValueError, match=r"2\.\.5"):
        battle_skill(printed, Q.AVERAGE)


@pytest.mark.parametrize(
    ("quality", "morale", "casualty", "effective"),
    [
        (Q.AVERAGE, 0, 0, Q.AVERAGE),
        (Q.AVERAGE, 1, 0, Q.INEXPERIENCED),
        (Q.AVERAGE, 0, 1, Q.INEXPERIENCED),
        (Q.ELITE, 2, 1, Q.INEXPERIENCED),
        (Q.GREEN, 3, 3, Q.RAW),  # never below Raw
        (Q.LEGENDARY, 0, 6, Q.RAW),
    ],
)
def test_it_takes_outstanding_hits_off_quality(quality, morale, casualty, effective):
    assert effective_quality(quality, morale, casualty) is effective


@pytest.mark.parametrize(("morale", "casualty"), [(-1, 0), (0, -1)])
def test_it_refuses_negative_hits(morale, casualty):
    with pytest.raises(ValueError, match="negative"):
        effective_quality(Q.AVERAGE, morale, casualty)


@pytest.mark.parametrize(("morale", "casualty"), [(-1, 2), (3, -1)])
def test_it_refuses_a_count_of_hits_below_zero_the_other_kind_would_make_up_for(morale, casualty):
    with pytest.raises(ValueError, match=rf"^hits cannot be negative: morale {morale}, "):
        effective_quality(Q.AVERAGE, morale, casualty)


@given(qualities, st.integers(0, 10), st.integers(0, 10), st.integers(2, 5))
def test_it_always_prints_a_card_skill(quality, morale, casualty, printed):
    effective = effective_quality(quality, morale, casualty)
    assert Q.RAW <= effective <= quality
    assert 2 <= battle_skill(printed, effective) <= 5


# ---------------------------------------------------------------------------------------------
# Equipment
# ---------------------------------------------------------------------------------------------

# rating, label, modifier, heavy loses extra hit, loses mobility, ignores 1st Morale hit, chosen
EQUIPMENT_ROWS = [
    (Equipment.POOR, "Poor", -4, True, True, False, False),
    (Equipment.BARELY_ADEQUATE, "Barely Adequate", -2, True, True, False, False),
    (Equipment.ADEQUATE, "Adequate", 0, False, False, False, False),
    (Equipment.GOOD, "Good", +2, False, False, False, True),
    (Equipment.EXCELLENT, "Excellent", +4, False, False, True, True),
]


@pytest.mark.parametrize(
    ("rating", "label", "modifier", "heavy", "mobility_lost", "morale", "chosen"), EQUIPMENT_ROWS
)
def test_it_holds_every_cell_of_the_equipment_table(
    rating, label, modifier, heavy, mobility_lost, morale, chosen
):
    row = EQUIPMENT_TABLE[rating]
    assert rating.row is row
    assert rating.label == label
    assert rating.modifier == modifier
    assert row.loses_heavy_extra_hit is heavy
    assert row.loses_mobility is mobility_lost
    assert row.ignores_first_morale_hit is morale
    assert row.chosen is chosen


def test_it_chose_good_plus_two_and_excellent_plus_four():
    assert Equipment.GOOD.modifier == 2
    assert Equipment.EXCELLENT.modifier == 4
    assert [e for e in Equipment if e.row.chosen] == [Equipment.GOOD, Equipment.EXCELLENT]


def test_it_stores_equipment_by_stable_names():
    assert [e.value for e in Equipment] == [
        "poor",
        "barely_adequate",
        "adequate",
        "good",
        "excellent",
    ]


def test_it_orders_equipment_by_modifier():
    ratings = list(Equipment)
    assert ratings == sorted(ratings, key=lambda e: e.modifier)
    assert Equipment.GOOD.is_better_than(Equipment.ADEQUATE)
    assert not Equipment.GOOD.is_better_than(Equipment.GOOD)


@pytest.mark.parametrize("own", list(Equipment))
@pytest.mark.parametrize("enemy", list(Equipment))
def test_it_ignores_the_first_morale_hit_only_with_excellent_against_worse(own, enemy):
    expected = own is Equipment.EXCELLENT and enemy is not Equipment.EXCELLENT
    assert ignores_first_morale_hit(own, enemy) is expected


@pytest.mark.parametrize("rating", list(Equipment))
def test_it_counts_equipment_as_poor_outside_the_specialties(rating):
    assert equipment_for_task(rating, within_specialties=True) is rating
    assert equipment_for_task(rating, within_specialties=False) is Equipment.POOR


# ---------------------------------------------------------------------------------------------
# Specialties and mobility
# ---------------------------------------------------------------------------------------------

S = Specialty


def test_it_names_every_specialty_in_the_copy():
    assert [s.label for s in Specialty] == [
        "Infantry",
        "Mechanized",
        "Armor",
        "Airborne",
        "Amphibious",
        "Arctic",
        "Aviation",
        "Combat Engineering",
        "Medical",
    ]
    assert all(SPECIALTY_TABLE[s].rule for s in Specialty)
    assert all(s.rule == s.row.rule for s in Specialty)


@pytest.mark.parametrize(
    ("specialty", "requires", "step", "ignores", "terrain", "modifier"),
    [
        (S.INFANTRY, set(), Mobility.FOOT, 0, None, 0),
        (S.MECHANIZED, set(), Mobility.MECHANIZED, 0, None, 0),
        (S.ARMOR, {S.MECHANIZED}, Mobility.ARMOR, 2, None, 0),
        (S.AIRBORNE, set(), Mobility.FOOT, 0, None, 0),
        (S.AMPHIBIOUS, set(), Mobility.FOOT, 0, "amphibious", 2),
        (S.ARCTIC, set(), Mobility.FOOT, 0, "arctic", 2),
        (S.AVIATION, set(), Mobility.FOOT, 0, None, 0),
        (S.COMBAT_ENGINEERING, set(), Mobility.FOOT, 0, None, 0),
        (S.MEDICAL, set(), Mobility.FOOT, 0, None, 0),
    ],
)
def test_it_holds_each_specialtys_rule_as_data(
    specialty, requires, step, ignores, terrain, modifier
):
    row = specialty.row
    assert row.requires == requires
    assert row.mobility is step
    assert row.ignores_casualty_hits == ignores
    assert row.terrain == terrain
    assert row.terrain_modifier == modifier


def test_it_steps_mobility_foot_mechanized_armor():
    assert [int(m) for m in Mobility] == [0, 1, 2]


@pytest.mark.parametrize(
    ("specialties", "equipment", "expected"),
    [
        ([], Equipment.ADEQUATE, Mobility.FOOT),
        ([S.INFANTRY], Equipment.EXCELLENT, Mobility.FOOT),
        ([S.MECHANIZED], Equipment.ADEQUATE, Mobility.MECHANIZED),
        ([S.MECHANIZED, S.ARMOR], Equipment.GOOD, Mobility.ARMOR),
        (["mechanized", "armor"], Equipment.ADEQUATE, Mobility.ARMOR),
        ([S.MECHANIZED, S.ARMOR], Equipment.BARELY_ADEQUATE, Mobility.FOOT),
        ([S.MECHANIZED], Equipment.POOR, Mobility.FOOT),
    ],
)
def test_it_works_out_mobility_and_loses_it_with_poor_equipment(specialties, equipment, expected):
    assert mobility(specialties, equipment) is expected


def test_it_defaults_mobility_to_adequate_equipment():
    assert mobility([S.MECHANIZED]) is Mobility.MECHANIZED


@pytest.mark.parametrize(
    ("specialties", "equipment", "phrases"),
    [
        (
            [S.MECHANIZED],
            Equipment.ADEQUATE,
            ["Mechanized: mobility step 1, Mobile +2 a step over its enemy"],
        ),
        (
            [S.ARMOR, S.MECHANIZED],
            Equipment.GOOD,
            [
                "Armor: mobility step 2, Mobile +2 a step over its enemy",
                "Armor: ignores the first two Casualty hits of each battle",
            ],
        ),
        (
            [S.MECHANIZED, S.ARMOR],
            Equipment.BARELY_ADEQUATE,
            [
                "Barely Adequate equipment: its vehicles lose their mobility",
                "Armor: ignores the first two Casualty hits of each battle",
            ],
        ),
        ([S.MECHANIZED], Equipment.POOR, ["Poor equipment: its vehicles lose their mobility"]),
        (
            [S.ARCTIC, S.INFANTRY, S.AMPHIBIOUS],
            Equipment.EXCELLENT,
            [
                "Amphibious: +2 in amphibious terrain, with double Momentum there",
                "Arctic: +2 in arctic terrain, with double Momentum there",
                "Excellent equipment: ignores the first Morale hit against a less well "
                "equipped unit",
            ],
        ),
        ([S.INFANTRY, S.MEDICAL], Equipment.GOOD, []),
    ],
)
def test_it_says_what_specialties_and_kit_do_against_units_in_the_copys_numbers(
    specialties, equipment, phrases
):
    # Mechanized is step 1 and Armor step 2, each worth Mobile +2 a step; Poor and Barely
    # Adequate kit lose it; Armor ignores two Casualty hits; Amphibious and Arctic give +2 and
    # double Momentum in their terrain; Excellent kit ignores the first Morale hit.
    assert specials(specialties, equipment) == phrases


@pytest.mark.parametrize("quality", list(Quality))
def test_it_allows_exactly_the_quality_limit_of_specialties(quality):
    # Pick specialties with no requirements, so only the limit is in play.
    free = [s for s in Specialty if not s.row.requires]
    limit = quality.specialty_limit
    assert validate_specialties(quality, free[:limit]) == []
    errors = validate_specialties(quality, free[: limit + 1])
    holds = f"at most {limit} specialt{'y' if limit == 1 else 'ies'}" if limit else "no specialties"
    a = {"Inexperienced": "An", "Average": "An", "Experienced": "An", "Elite": "An"}
    said = f"{a.get(quality.label, 'A')} {quality.label} unit"
    assert errors == [f"{said} holds {holds}; this one was given {limit + 1}."]


def test_a_unit_below_its_specialties_keeps_them_and_may_give_some_up_but_gains_none():
    """A unit whose quality fell below what it holds (Aid Post: Raw, Infantry and Medical)
    keeps them, and may give some up, but gains no new one beyond its quality's limit."""
    held = [S.INFANTRY, S.MEDICAL]
    assert validate_specialties(Q.RAW, held, "Aid Post", held=held) == []
    assert validate_specialties(Q.RAW, [S.MEDICAL], "Aid Post", held=held) == []
    names = ["infantry", "medical"]
    assert validate_specialties(Q.GREEN, names[::-1], held=names) == []
    assert validate_specialties(Q.RAW, [*held, S.AVIATION], "Aid Post", held=held) == [
        "A Raw unit holds no specialties; Aid Post may keep the Infantry and Medical it holds, "
        "but not gain Aviation."
    ]
    # A swap is a new one too; within the limit, any set the quality may hold is allowed.
    assert validate_specialties(Q.GREEN, [S.MEDICAL, S.AVIATION], "Aid Post", held=held) == [
        "A Green unit holds at most 1 specialty; Aid Post may keep the Infantry and Medical it "
        "holds, but not gain Aviation."
    ]
    assert validate_specialties(Q.GREEN, [S.AVIATION], held=held) == []
    # Giving up what another requires is still refused.
    assert validate_specialties(Q.RAW, [S.ARMOR], held=[S.MECHANIZED, S.ARMOR]) == [
        "Armor requires Mechanized"
    ]
    # A unit within its limit is refused beyond it as a new unit is.
    assert validate_specialties(Q.AVERAGE, [*held, S.AVIATION], "Doc", held=held) == [
        "An Average unit holds at most 2 specialties; Doc was given 3."
    ]


def test_the_page_says_a_unit_holds_more_specialties_than_its_quality_may():
    said = kept_beyond_limit(Q.RAW, ["infantry", "medical"])
    assert said == (
        "Holds 2 specialties, more than a Raw unit may: it keeps them, but gains no new one "
        "until it is Average."
    )
    assert kept_beyond_limit(Q.GREEN, [S.INFANTRY, S.MEDICAL, S.AVIATION]).endswith(
        "more than a Green unit may: it keeps them, but gains no new one until it is Elite."
    )
    assert kept_beyond_limit(Q.RAW, [S.MEDICAL]) == (
        "Holds 1 specialty, more than a Raw unit may: it keeps it, but gains no new one until "
        "it is Green."
    )
    assert kept_beyond_limit(Q.AVERAGE, [S.INFANTRY, S.MEDICAL]) == ""
    assert kept_beyond_limit(Q.RAW, []) == ""


def test_a_roster_says_in_a_few_words_a_unit_keeps_specialties_beyond_its_quality():
    """The roster's short form of the same rule: what it keeps, why, and until when ("Kept,
    more than a Raw unit may hold" left a reader on a phone asking what was kept)."""
    assert kept_beyond_limit(Q.RAW, ["infantry", "medical"], short=True) == (
        "2 specialties, more than a Raw unit may hold: kept, no new one until Average"
    )
    assert kept_beyond_limit(Q.RAW, [S.MEDICAL], short=True) == (
        "1 specialty, more than a Raw unit may hold: kept, no new one until Green"
    )
    assert kept_beyond_limit(Q.AVERAGE, [S.INFANTRY, S.MEDICAL], short=True) == ""


def test_armor_brings_mechanized_and_specialties_come_in_the_tables_order():
    assert with_requirements([S.ARMOR]) == [S.MECHANIZED, S.ARMOR]
    assert with_requirements([S.MEDICAL, S.ARMOR, S.INFANTRY]) == [
        S.INFANTRY,
        S.MECHANIZED,
        S.ARMOR,
        S.MEDICAL,
    ]
    assert with_requirements([S.ARCTIC, S.AMPHIBIOUS]) == [S.AMPHIBIOUS, S.ARCTIC]


def test_it_requires_mechanized_for_armor():
    assert validate_specialties(Q.LEGENDARY, [S.ARMOR]) == ["Armor requires Mechanized"]
    assert validate_specialties(Q.AVERAGE, [S.MECHANIZED, S.ARMOR]) == []
    assert validate_specialties(Q.AVERAGE, [S.ARMOR, S.MECHANIZED]) == []


def test_it_refuses_duplicate_specialties():
    assert validate_specialties(Q.ELITE, [S.INFANTRY, S.INFANTRY]) == [
        "duplicate specialty Infantry"
    ]


def test_it_accepts_stable_names_and_refuses_unknown_ones():
    assert validate_specialties(Q.AVERAGE, ["infantry", "medical"]) == []
    assert validate_specialties(Q.AVERAGE, ["infantry", "cavalry"]) == [
        "unknown specialty “cavalry”"
    ]


def test_it_reports_every_problem_at_once():
    errors = validate_specialties(Q.GREEN, [S.ARMOR, S.ARMOR, S.INFANTRY, "x"])
    assert errors == [
        "duplicate specialty Armor",
        "unknown specialty “x”",
        "A Green unit holds at most 1 specialty; this one was given 2.",
        "Armor requires Mechanized",
    ]


def test_it_lets_raw_hold_no_specialty():
    assert validate_specialties(Q.RAW, []) == []
    assert validate_specialties(Q.RAW, [S.INFANTRY]) == [
        "A Raw unit holds no specialties; this one was given 1."
    ]
    # Named, the sentence names the unit.
    assert validate_specialties(Q.RAW, [S.INFANTRY, S.MEDICAL, S.AVIATION], "Sappers") == [
        "A Raw unit holds no specialties; Sappers was given 3."
    ]
    # "an" before a vowel, in this sentence and the training's.
    assert validate_specialties(Q.EXPERIENCED, [S.INFANTRY, S.MEDICAL, S.AVIATION], "Recruits") == [
        "An Experienced unit holds at most 2 specialties; Recruits was given 3."
    ]
    with pytest.raises(ValueError, match=r"^training cannot raise an Experienced unit: "):
        Q.EXPERIENCED.trained()


def test_it_says_why_training_lifts_no_raw_unit_and_none_past_experienced():
    # A Raw unit is below the steps training reaches, not past them.
    with pytest.raises(ValueError) as raw:
        Q.RAW.trained()
    assert str(raw.value) == (
        "training cannot raise a Raw unit: it reaches only Inexperienced, Average or "
        "Experienced; a Raw unit is made Green by battle, not by training"
    )
    assert Q.RAW.untrainable_why == "a Raw unit is made Green by battle, not by training"
    assert Q.EXPERIENCED.untrainable_why == "Elite and Legendary come only from battle"
    assert Q.GREEN.untrainable_why == ""


@pytest.mark.parametrize("quality", list(Quality))
def test_it_performs_orders_outside_its_specialties_as_raw(quality):
    assert quality_for_order(quality, within_specialties=True) is quality
    assert quality_for_order(quality, within_specialties=False) is Q.RAW


# ---------------------------------------------------------------------------------------------
# Unit versus unit
# ---------------------------------------------------------------------------------------------


def test_it_holds_the_situational_modifiers_of_the_copy():
    assert DUG_IN == 2
    assert PINNED_DOWN_OPPONENT == 2
    assert MOMENTUM_PER_ROUND == 1
    assert SURPRISE_MOMENTUM == 2
    assert MOBILE_PER_STEP == 2
    assert STRENGTH_IN_NUMBERS_PER_UNIT == 2
    assert HIT_MARGIN == 5


def test_it_chose_the_outnumbered_table():
    assert list(OUTNUMBERED_TABLE) == [
        (Fraction(3, 2), -1),
        (Fraction(2), -2),
        (Fraction(3), -4),
        (Fraction(4), -6),
    ]


@pytest.mark.parametrize(
    ("own", "enemy", "modifier"),
    [
        (1, 1, 0),
        (2, 1, 0),  # outnumbering the enemy is no penalty
        (3, 4, 0),  # 1.33 to 1: under the first line
        (2, 3, -1),  # exactly 1.5 to 1
        (3, 5, -1),  # 1.67 to 1
        (1, 2, -2),  # exactly 2 to 1
        (2, 5, -2),  # 2.5 to 1
        (1, 3, -4),  # exactly 3 to 1
        (2, 7, -4),  # 3.5 to 1
        (1, 4, -6),  # exactly 4 to 1
        (1, 9, -6),  # past the table: read as 4 to 1
    ],
)
def test_it_reads_the_outnumbered_table_by_ratio(own, enemy, modifier):
    assert outnumbered_modifier(own, enemy) == modifier


@pytest.mark.parametrize(("own", "enemy"), [(0, 1), (1, 0), (-1, 2)])
def test_it_refuses_a_side_without_units(own, enemy):
    with pytest.raises(ValueError, match="at least one unit"):
        outnumbered_modifier(own, enemy)


@given(st.integers(1, 50), st.integers(1, 50), st.integers(1, 50))
def test_it_never_eases_the_outnumbered_penalty_as_the_enemy_grows(own, enemy, more):
    assert outnumbered_modifier(own, enemy + more) <= outnumbered_modifier(own, enemy) <= 0


@pytest.mark.parametrize(("units", "bonus"), [(1, 0), (2, 2), (3, 4), (5, 8)])
def test_it_adds_strength_in_numbers_per_extra_unit(units, bonus):
    assert strength_in_numbers(units) == bonus


def test_it_refuses_strength_in_numbers_without_a_unit():
    with pytest.raises(ValueError):
        strength_in_numbers(0)


@pytest.mark.parametrize(
    ("own", "enemy", "bonus"),
    [
        (Mobility.FOOT, Mobility.FOOT, 0),
        (Mobility.MECHANIZED, Mobility.FOOT, 2),
        (Mobility.ARMOR, Mobility.FOOT, 4),
        (Mobility.ARMOR, Mobility.MECHANIZED, 2),
        (Mobility.FOOT, Mobility.ARMOR, 0),
    ],
)
def test_it_adds_mobile_per_step_of_advantage(own, enemy, bonus):
    assert mobile_modifier(own, enemy) == bonus


def test_it_starts_a_surprise_with_two_momentum():
    assert starting_momentum(surprise=True) == 2
    assert starting_momentum(surprise=False) == 0


@pytest.mark.parametrize(
    ("winner", "loser", "after"), [(0, 0, (1, 0)), (2, 0, (3, 0)), (0, 3, (1, 0))]
)
def test_it_passes_momentum_to_the_winner_of_a_round(winner, loser, after):
    assert momentum_after_round(winner, loser) == after


@pytest.mark.parametrize(
    ("margin", "hits"),
    [(-7, 0), (0, 0), (1, 0), (4, 0), (5, 1), (9, 1), (10, 2), (14, 2), (15, 3), (23, 4)],
)
def test_it_inflicts_one_hit_per_full_five_points_of_margin(margin, hits):
    assert hits_from_margin(margin) == hits


@given(st.integers(0, 1000))
def test_it_never_inflicts_more_than_the_margin_pays_for(margin):
    hits = hits_from_margin(margin)
    assert hits * 5 <= margin < (hits + 1) * 5


@pytest.mark.parametrize(
    ("hits", "morale", "casualty"),
    [(0, 0, 0), (1, 1, 0), (2, 1, 1), (3, 2, 1), (4, 2, 2), (5, 3, 2), (7, 4, 3)],
)
def test_it_splits_damage_half_up_morale_half_down_casualty(hits, morale, casualty):
    assert split_damage(hits) == (morale, casualty)


def test_it_refuses_to_split_negative_damage():
    with pytest.raises(ValueError, match="negative"):
        split_damage(-1)


@given(st.integers(0, 1000))
def test_it_splits_all_damage_and_morale_is_never_the_smaller_half(hits):
    morale, casualty = split_damage(hits)
    assert morale + casualty == hits
    assert morale - casualty in (0, 1)


@pytest.mark.parametrize(
    ("modifier", "shift"),
    [(0, 0), (1, 0), (-1, 0), (2, 1), (-2, -1), (4, 1), (5, 1), (6, 2), (-6, -2), (10, 3),
     (-10, -3), (7, 2), (-7, -2)],
)  # fmt: skip
def test_it_turns_a_modifier_into_a_skill_shift_rounding_half_away_from_zero(modifier, shift):
    from units.bucs import skill_shift

    assert skill_shift(modifier) == shift
