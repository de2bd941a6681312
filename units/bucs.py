"""The BUCS vocabulary as data: quality, equipment, specialties, unit-versus-unit modifiers.

"Blood and Guts: Battlefield Unit Combat System" runs a squad of about ten as one unit. This
module holds its tables (as far as `shared/design/bucs.md` records them) and the project's
choices for the cells the copy is missing, documented in `docs/bucs-choices.md`. It imports
nothing from Django, so the campaign layer, the battle bridge and the tests share one source.

Tables are data (frozen dataclasses keyed by enum member); the functions only look things up.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum
from fractions import Fraction

from battles.engine.scenario import Quality as Ladder
from units.words import a_or_an, and_words, given

# ---------------------------------------------------------------------------------------------
# Quality: the experience ladder
# ---------------------------------------------------------------------------------------------

SKILL_MIN = 2
"""Lowest Skill a Team Bravo card may print."""
SKILL_MAX = 5
"""Highest Skill a Team Bravo card may print."""


@dataclass(frozen=True)
class QualityRow:
    """One line of the quality table."""

    label: str
    """The name players use."""
    alone_under_orders: int
    """Modifier when the unit acts alone under an Order."""
    alone_without_orders: int | None
    """Modifier when the unit acts alone without an Order; None: it cannot act alone at all."""
    assisting: int
    """Modifier the unit lends when assisting a character."""
    specialty_limit: int
    """How many Unit Specialties a unit of this quality may hold."""


class _QualityRules(IntEnum):
    """What BUCS says of a quality step; `Quality` holds the steps themselves."""

    @property
    def word(self) -> str:
        """The step's name in data (a scenario, a unit's history): "average"."""
        return Ladder[self.name].value

    @classmethod
    def of_word(cls, word: str) -> Quality:
        """The step a `word` names; `ValueError` for anything else."""
        return Quality[Ladder(word).name]

    @property
    def row(self) -> QualityRow:
        return QUALITY_TABLE[self]

    @property
    def label(self) -> str:
        return self.row.label

    @property
    def article(self) -> str:
        """The article a sentence puts before the label: "a Green unit", "an Elite unit"."""
        return a_or_an(self.label)

    @property
    def alone_under_orders(self) -> int:
        return self.row.alone_under_orders

    @property
    def alone_without_orders(self) -> int | None:
        return self.row.alone_without_orders

    @property
    def can_act_alone(self) -> bool:
        """Raw needs an Order every round and Green only acts after one: neither acts alone."""
        return self.row.alone_without_orders is not None

    @property
    def assisting(self) -> int:
        return self.row.assisting

    @property
    def specialty_limit(self) -> int:
        return self.row.specialty_limit

    @property
    def skill_shift(self) -> int:
        """The Skill shift of this quality under Orders with Adequate kit (`skill_shift`)."""
        return skill_shift(self.alone_under_orders)

    def alone(self, *, under_orders: bool) -> int:
        """Its modifier acting alone, under an Order or without one.

        Raw and Green cannot act alone without an Order: when they fight at all (fired on, a
        table's GM says so) they fight at `CANNOT_ACT_ALONE`, the table's worst value, and the
        battle makes them hold in place (rulings.md, "The automated commander"). So an Order
        given to a Green unit is worth its −4 against −6, at the bridge as in an engagement.
        """
        row = self.row
        if under_orders:
            return row.alone_under_orders
        if row.alone_without_orders is None:
            return CANNOT_ACT_ALONE
        return row.alone_without_orders

    @property
    def hits_survived(self) -> int:
        """Each hit takes one step; the unit is gone on the hit that takes it below Raw."""
        return int(self) + 1

    def raised(self, n: int = 1) -> Quality:
        """This quality `n` steps up, never above Legendary."""
        if n < 0:
            raise ValueError(f"raise by a non-negative number of steps, got {n}")
        return Quality(min(int(self) + n, Quality.LEGENDARY))

    def lowered(self, n: int = 1) -> Quality:
        """This quality `n` steps down, never below Raw."""
        if n < 0:
            raise ValueError(f"lower by a non-negative number of steps, got {n}")
        return Quality(max(int(self) - n, Quality.RAW))

    @property
    def can_be_trained(self) -> bool:
        """Training lifts one step, and only into Inexperienced, Average or Experienced."""
        return self < Quality.LEGENDARY and Quality(self + 1) in TRAINING_TARGETS

    @property
    def untrainable_why(self) -> str:
        """Why training cannot lift a unit of this quality ("" when it can): below the steps
        training reaches, a Raw unit's next step, Green, comes only from battle; from its
        ceiling up, Elite and Legendary do."""
        if self.can_be_trained:
            return ""
        if self < TRAINING_CEILING:
            raised = self.raised().label
            return f"{self.article} {self.label} unit is made {raised} by battle, not by training"
        return "Elite and Legendary come only from battle"

    def trained(self) -> Quality:
        """The quality after one successful course of training."""
        if not self.can_be_trained:
            raise ValueError(
                f"training cannot raise {self.article} {self.label} unit: it reaches only "
                f"Inexperienced, Average or Experienced; {self.untrainable_why}"
            )
        return Quality(self + 1)


Quality = _QualityRules("Quality", [(step.name, step.step) for step in Ladder], module=__name__)
"""The seven steps of unit quality, lowest first (RAW 0 … LEGENDARY 6); each hit takes one step
off. The steps are the battle engine's quality ladder, the one list of them."""


QUALITY_TABLE: dict[Quality, QualityRow] = {
    Quality.RAW: QualityRow("Raw", -6, None, -2, 0),
    Quality.GREEN: QualityRow("Green", -4, None, +1, 1),
    Quality.INEXPERIENCED: QualityRow("Inexperienced", -2, -4, +2, 1),
    Quality.AVERAGE: QualityRow("Average", 0, -2, +3, 2),
    Quality.EXPERIENCED: QualityRow("Experienced", +2, 0, +4, 2),
    Quality.ELITE: QualityRow("Elite", +4, +4, +4, 3),
    Quality.LEGENDARY: QualityRow("Legendary", +6, +6, +6, 4),
}

CANNOT_ACT_ALONE = min(row.alone_under_orders for row in QUALITY_TABLE.values())
"""What a unit that cannot act alone (Raw or Green without an Order) rolls with when it must fight
all the same: the table's worst value, Raw's −6 (chosen, docs/bucs-choices.md)."""

TRAINING_TARGETS: frozenset[Quality] = frozenset(
    {Quality.INEXPERIENCED, Quality.AVERAGE, Quality.EXPERIENCED}
)
"""The qualities training (by Special Forces or Strategist characters) can raise a unit to."""

TRAINING_CEILING = Quality.EXPERIENCED
"""Training never raises a unit above this; Elite and Legendary come only from battle."""

LEGENDARY_COMMAND_LIMIT = 6
"""A Legendary unit may command up to this many lesser units not commanded by a character."""


def effective_quality(quality: Quality, morale_hits: int, casualty_hits: int) -> Quality:
    """Quality step less every outstanding Morale and Casualty hit, not below Raw."""
    if morale_hits < 0 or casualty_hits < 0:
        raise ValueError(f"hits cannot be negative: morale {morale_hits}, casualty {casualty_hits}")
    return Quality(quality).lowered(morale_hits + casualty_hits)


MODIFIER_PER_SKILL = 4
"""BUCS modifier points per point of Team Bravo Skill: Raw's −6 is −2, Legendary's +6 is +2."""


def skill_shift(modifier: int) -> int:
    """A BUCS modifier as a shift to a card's Skill: modifier ÷ 4, rounded half away from zero.

    On Adequate kit under Orders this is the first edition's table (Raw −6 → −2, Green −4 → −1,
    Inexperienced −2 → −1, Average 0, Experienced +2 → +1, Elite +4 → +1, Legendary +6 → +2).
    """
    steps = (2 * abs(modifier) + MODIFIER_PER_SKILL) // (2 * MODIFIER_PER_SKILL)
    return steps if modifier >= 0 else -steps


def shifted_skill(printed_skill: int, shift: int) -> int:
    """Printed Skill plus a shift, clamped to the card range 2..5 (a card prints nothing else)."""
    if not SKILL_MIN <= printed_skill <= SKILL_MAX:
        raise ValueError(f"printed Skill must be {SKILL_MIN}..{SKILL_MAX}, got {printed_skill}")
    return max(SKILL_MIN, min(SKILL_MAX, printed_skill + shift))


def battle_skill(printed_skill: int, effective: Quality) -> int:
    """The Skill of a unit of this quality under Orders with Adequate kit, clamped 2..5."""
    return shifted_skill(printed_skill, Quality(effective).skill_shift)


# ---------------------------------------------------------------------------------------------
# Equipment
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EquipmentRow:
    """One line of the equipment table."""

    label: str
    modifier: int
    """Added to attack rolls and skill checks within the unit's specialties (and Requisition)."""
    loses_heavy_extra_hit: bool
    """A heavy unit loses its extra hit."""
    loses_mobility: bool
    """Mechanized and Armor units lose their mobility: they move and fight as Foot."""
    ignores_first_morale_hit: bool
    """Ignores the first Morale hit suffered against a less well equipped enemy."""
    chosen: bool
    """True where the copy is missing the value and the project chose it."""


class Equipment(Enum):
    """Equipment ratings, worst first; the value is the stable name used in data."""

    POOR = "poor"
    BARELY_ADEQUATE = "barely_adequate"
    ADEQUATE = "adequate"
    GOOD = "good"
    EXCELLENT = "excellent"

    @property
    def row(self) -> EquipmentRow:
        return EQUIPMENT_TABLE[self]

    @property
    def label(self) -> str:
        return self.row.label

    @property
    def modifier(self) -> int:
        return self.row.modifier

    def is_better_than(self, other: Equipment) -> bool:
        return self.modifier > other.modifier


EQUIPMENT_TABLE: dict[Equipment, EquipmentRow] = {
    Equipment.POOR: EquipmentRow("Poor", -4, True, True, False, chosen=False),
    Equipment.BARELY_ADEQUATE: EquipmentRow("Barely Adequate", -2, True, True, False, chosen=False),
    Equipment.ADEQUATE: EquipmentRow("Adequate", 0, False, False, False, chosen=False),
    # Good and Excellent are missing from the copy: the ladder steps by 2, so continue it.
    Equipment.GOOD: EquipmentRow("Good", +2, False, False, False, chosen=True),
    Equipment.EXCELLENT: EquipmentRow("Excellent", +4, False, False, True, chosen=True),
}


def ignores_first_morale_hit(equipment: Equipment, enemy_equipment: Equipment) -> bool:
    """Whether the unit shrugs off its first Morale hit from this enemy."""
    return equipment.row.ignores_first_morale_hit and equipment.is_better_than(enemy_equipment)


def equipment_for_task(equipment: Equipment, *, within_specialties: bool) -> Equipment:
    """A unit pressed into a task outside its specialties counts as Poor."""
    return equipment if within_specialties else Equipment.POOR


# ---------------------------------------------------------------------------------------------
# Specialties and mobility
# ---------------------------------------------------------------------------------------------


class Mobility(IntEnum):
    """Mobility steps; each step of advantage is worth the Mobile modifier."""

    FOOT = 0
    MECHANIZED = 1
    ARMOR = 2


class Specialty(Enum):
    """Unit Specialties; the value is the stable name used in data."""

    INFANTRY = "infantry"
    MECHANIZED = "mechanized"
    ARMOR = "armor"
    AIRBORNE = "airborne"
    AMPHIBIOUS = "amphibious"
    ARCTIC = "arctic"
    AVIATION = "aviation"
    COMBAT_ENGINEERING = "combat_engineering"
    MEDICAL = "medical"

    @property
    def row(self) -> SpecialtyRow:
        return SPECIALTY_TABLE[self]

    @property
    def label(self) -> str:
        return self.row.label

    @property
    def rule(self) -> str:
        return self.row.rule


@dataclass(frozen=True)
class SpecialtyRow:
    """What a specialty is and what it does."""

    label: str
    rule: str
    """The rule in one or two sentences, for rosters and tooltips."""
    requires: frozenset[Specialty] = frozenset()
    """Specialties a unit must also hold to take this one."""
    mobility: Mobility = Mobility.FOOT
    """The mobility step this specialty gives."""
    ignores_casualty_hits: int = 0
    """Casualty hits ignored in each engagement."""
    terrain: str | None = None
    """The terrain where the specialty's bonus applies."""
    terrain_modifier: int = 0
    """The bonus in that terrain (Momentum is also doubled there)."""


SPECIALTY_TABLE: dict[Specialty, SpecialtyRow] = {
    Specialty.INFANTRY: SpecialtyRow(
        "Infantry",
        "Fights on foot at its quality. A unit with none of Infantry, Mechanized and Armor fights "
        "as Raw, with Poor kit.",
    ),
    Specialty.MECHANIZED: SpecialtyRow(
        "Mechanized",
        "Vehicles: fights at its quality; mobility step 1 (Mobile bonus against Foot).",
        mobility=Mobility.MECHANIZED,
    ),
    Specialty.ARMOR: SpecialtyRow(
        "Armor",
        "Requires Mechanized; mobility step 2. Ignores the first two Casualty hits. Never Pinned "
        "Down by Infantry or Mechanized except in cramped quarters. Cannot enter amphibious, "
        "arctic, jungle or swamp terrain unless also Amphibious.",
        requires=frozenset({Specialty.MECHANIZED}),
        mobility=Mobility.ARMOR,
        ignores_casualty_hits=2,
    ),
    Specialty.AIRBORNE: SpecialtyRow(
        "Airborne",
        "May be placed anywhere (paradrop): in a battle set up here it deploys outside its "
        "side's deployment zone too.",
    ),
    Specialty.AMPHIBIOUS: SpecialtyRow(
        "Amphibious",
        "+2 in amphibious and beach terrain, with double Momentum there. Lands without being "
        "Pinned Down, where other units landing start Pinned Down. May Establish Beachhead "
        "(1 hour).",
        terrain="amphibious",
        terrain_modifier=2,
    ),
    Specialty.ARCTIC: SpecialtyRow(
        "Arctic",
        "+2 in arctic and sub-zero terrain, with double Momentum there; no cold movement penalty.",
        terrain="arctic",
        terrain_modifier=2,
    ),
    Specialty.AVIATION: SpecialtyRow("Aviation", "Ground crew for air support."),
    Specialty.COMBAT_ENGINEERING: SpecialtyRow(
        "Combat Engineering", "Builds facilities, and works faster at it."
    ),
    Specialty.MEDICAL: SpecialtyRow(
        "Medical",
        "A Medical crew: saves its force's Casualty hits within 24 hours of a battle, and heals "
        "Morale hits with what it has left.",
    ),
}


def _as_specialty(value: Specialty | str) -> Specialty | None:
    if isinstance(value, Specialty):
        return value
    try:
        return Specialty(value)
    except ValueError:
        return None


def validate_specialties(
    quality: Quality,
    specialties: Iterable[Specialty | str],
    name: str = "",
    *,
    held: Iterable[Specialty | str] = (),
) -> list[str]:
    """Every reason this set of specialties is not allowed for a unit of this quality (called
    ``name`` in the sentences, when given) that holds ``held`` now (nothing, when raised).

    The limit is what a unit of the quality *may hold*: one whose quality fell below its
    specialties keeps them, and may give some up, but gains no new one beyond the limit
    (`kept_beyond_limit`). Accepts members or their stable names (as stored or imported); an
    empty list means valid.
    """
    quality = Quality(quality)
    errors: list[str] = []
    wanted: list[Specialty] = []
    for value in specialties:
        specialty = _as_specialty(value)
        if specialty is None:
            errors.append(f"unknown specialty {given(value)}")
        elif specialty in wanted:
            errors.append(f"duplicate specialty {specialty.label}")
        else:
            wanted.append(specialty)
    kept = {s for s in map(_as_specialty, held) if s is not None}
    if len(wanted) > (limit := quality.specialty_limit) and not set(wanted) <= kept:
        words = f"specialt{'y' if limit == 1 else 'ies'}"
        holds = f"at most {limit} {words}" if limit else f"no {words}"
        who = name or "this one"
        if len(kept) > limit:
            new = _named(s for s in wanted if s not in kept)
            errors.append(
                f"{quality.article.capitalize()} {quality.label} unit holds {holds}; {who} "
                f"may keep the {_named(kept)} it holds, but not gain {new}."
            )
        else:
            errors.append(
                f"{quality.article.capitalize()} {quality.label} unit holds {holds}; "
                f"{who} was given {len(wanted)}."
            )
    for specialty in wanted:
        for needed in sorted(specialty.row.requires, key=_specialty_order):
            if needed not in wanted:
                errors.append(f"{specialty.label} requires {needed.label}")
    return errors


def kept_beyond_limit(
    quality: Quality, held: Iterable[Specialty | str], *, short: bool = False
) -> str:
    """A unit holding more specialties than its quality may hold (its quality fell since it
    took them), in a sentence: it keeps them, but gains no new one until its quality may hold
    them all (`validate_specialties`); "" when it is within its limit. ``short``: the same in
    a few words, for a roster line under the specialties it names, saying what it keeps ("2
    specialties, more than a Raw unit may hold: kept, no new one until Average")."""
    quality = Quality(quality)
    count = len({s for s in map(_as_specialty, held) if s is not None})
    if count <= quality.specialty_limit:
        return ""
    until = next((q for q in Quality if q.specialty_limit >= count), None)
    held_words, them = ("1 specialty", "it") if count == 1 else (f"{count} specialties", "them")
    if short:
        when = f", no new one until {until.label}" if until else ", no new one"
        return (
            f"{held_words.capitalize()}, more than {quality.article} {quality.label} unit may "
            f"hold: kept{when}"
        )
    when = f" until it is {until.label}" if until else ""
    return (
        f"Holds {held_words}, more than {quality.article} {quality.label} unit may: it keeps "
        f"{them}, but gains no new one{when}."
    )


def _named(specialties: Iterable[Specialty]) -> str:
    return and_words([s.label for s in sorted(specialties, key=_specialty_order)])


def with_requirements(specialties: Iterable[Specialty]) -> list[Specialty]:
    """``specialties`` and those they require (Armor brings Mechanized), in table order."""
    wanted = set(specialties)
    for specialty in list(wanted):
        wanted |= specialty.row.requires
    return sorted(wanted, key=_specialty_order)


def _specialty_order(specialty: Specialty) -> int:
    return list(Specialty).index(specialty)


def mobility(
    specialties: Iterable[Specialty], equipment: Equipment = Equipment.ADEQUATE
) -> Mobility:
    """The unit's mobility step: Foot, Mechanized or Armor.

    Poor and Barely Adequate equipment strip mechanized and armoured units of their mobility,
    which leaves them on Foot.
    """
    if equipment.row.loses_mobility:
        return Mobility.FOOT
    return max((Specialty(s).row.mobility for s in specialties), default=Mobility.FOOT)


_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def specials(specialties: Iterable[Specialty], equipment: Equipment) -> list[str]:
    """What a unit's specialties and kit do in unit-against-unit combat, a phrase each, read
    from the tables: the mobility it has (none on Poor or Barely Adequate kit), the Casualty
    hits Armor ignores, a terrain's bonus, Excellent kit's ignored Morale hit. Pass the kit it
    fights with (`fielded`): a unit counting as Poor has none of its own kit's specials."""
    held = sorted(set(specialties), key=_specialty_order)
    phrases: list[str] = []
    step = mobility(held, equipment)
    if step > Mobility.FOOT:
        phrases.append(
            f"{step.name.capitalize()}: mobility step {int(step)}, Mobile +{MOBILE_PER_STEP} "
            "a step over its enemy"
        )
    elif mobility(held) > Mobility.FOOT:
        phrases.append(f"{equipment.label} equipment: its vehicles lose their mobility")
    for specialty in held:
        row = specialty.row
        if ignored := row.ignores_casualty_hits:
            phrases.append(
                f"{row.label}: ignores the first {_COUNT_WORDS[ignored]} Casualty hits of each "
                "battle"
            )
        if row.terrain:
            phrases.append(
                f"{row.label}: +{row.terrain_modifier} in {row.terrain} terrain, with double "
                "Momentum there"
            )
    if equipment.row.ignores_first_morale_hit:
        phrases.append(
            f"{equipment.label} equipment: ignores the first Morale hit against a less well "
            "equipped unit"
        )
    return phrases


@dataclass(frozen=True)
class Fielded:
    """The quality and kit a unit fights with on a task, and whether its specialties cover it."""

    quality: Quality
    equipment: Equipment
    covered: bool


def fielded(
    quality: Quality,
    equipment: Equipment,
    specialties: Iterable[Specialty],
    needed: Iterable[Specialty],
) -> Fielded:
    """How a unit fights on a task that needs one of `needed` (nothing needed: any unit may).

    Outside its specialties a unit fights as Raw with Poor kit ("units without the Infantry
    specialty fight as Raw"; "a unit pressed into a task outside its specialties counts as
    Poor"), whatever its quality and kit. A unit raised Raw, which may hold no specialty, is
    outside them on every task that needs one: Raw it is already, and its kit counts as Poor
    there; one fallen to Raw keeps those it held (`validate_specialties`), and they cover it.
    """
    needed = frozenset(needed)
    covered = not needed or bool(needed & set(specialties))
    quality = Quality(quality)
    if covered:
        return Fielded(quality, equipment, covered)
    return Fielded(Quality.RAW, equipment_for_task(equipment, within_specialties=False), False)


def quality_for_order(quality: Quality, *, within_specialties: bool) -> Quality:
    """A unit doing an Order outside its specialties performs as Raw."""
    return Quality(quality) if within_specialties else Quality.RAW


# ---------------------------------------------------------------------------------------------
# Unit versus unit: situational modifiers and damage
# ---------------------------------------------------------------------------------------------

DUG_IN = 2
"""On the dug-in unit's combat rolls; it is also immune to Momentum, for and against."""
PINNED_DOWN_OPPONENT = 2
"""Against an opponent that is Pinned Down."""
MOMENTUM_PER_ROUND = 1
"""Per consecutive round won; lost on losing a round, when the winner gains it instead."""
SURPRISE_MOMENTUM = 2
"""Momentum a unit starts with when it surprises the other (Hide against Spot)."""
MOBILE_PER_STEP = 2
"""Per step of mobility advantage (Foot, Mechanized, Armor)."""
STRENGTH_IN_NUMBERS_PER_UNIT = 2
"""Per extra unit cooperating on a skill check."""
HIT_MARGIN = 5
"""One hit per full 5 points of margin in unit combat."""

OUTNUMBERED_TABLE: tuple[tuple[Fraction, int], ...] = (
    # (enemy units per own unit at least, modifier) — missing from the copy, chosen to match
    # the quality ladder's 2-point steps: two to one costs a full step, four to one three.
    (Fraction(3, 2), -1),
    (Fraction(2), -2),
    (Fraction(3), -4),
    (Fraction(4), -6),
)


def outnumbered_modifier(own_units: int, enemy_units: int) -> int:
    """The Outnumbered penalty for a side facing `enemy_units` with `own_units`.

    The ratio is counted in BUCS units; anything past four to one reads as four to one, where
    the copy's table ends.
    """
    if own_units < 1 or enemy_units < 1:
        raise ValueError(f"each side needs at least one unit, got {own_units} and {enemy_units}")
    ratio = Fraction(enemy_units, own_units)
    modifier = 0
    for at_least, value in OUTNUMBERED_TABLE:
        if ratio >= at_least:
            modifier = value
    return modifier


def strength_in_numbers(units: int) -> int:
    """Bonus on a skill check when `units` units work on it together."""
    if units < 1:
        raise ValueError(f"at least one unit makes the check, got {units}")
    return STRENGTH_IN_NUMBERS_PER_UNIT * (units - 1)


def mobile_modifier(own: Mobility, enemy: Mobility) -> int:
    """Mobile: +2 per step of mobility the unit has over its enemy; nothing when behind."""
    return MOBILE_PER_STEP * max(0, int(own) - int(enemy))


def starting_momentum(*, surprise: bool) -> int:
    return SURPRISE_MOMENTUM if surprise else 0


def momentum_after_round(winner_momentum: int, loser_momentum: int) -> tuple[int, int]:
    """(winner, loser) Momentum after a round: the winner gains, the loser loses all of it."""
    del loser_momentum  # Momentum is lost outright, whatever its size.
    return winner_momentum + MOMENTUM_PER_ROUND, 0


def hits_from_margin(margin: int) -> int:
    """Hits the winner of an opposed roll inflicts: one per full 5 points of margin."""
    return max(0, margin) // HIT_MARGIN


def split_damage(hits: int) -> tuple[int, int]:
    """(Morale, Casualty): half rounded up is shock, half rounded down is dead and wounded."""
    if hits < 0:
        raise ValueError(f"hits cannot be negative, got {hits}")
    return (hits + 1) // 2, hits // 2
