"""The bridge coming out of a battle: a unit's outcome there becomes BUCS damage, as pure
functions.

A battle's outcome for a unit (`UnitOutcome`, the same whether the engine resolved the battle or
a table of players did, `TableResult`) becomes BUCS damage (`outcome_damage`): the BUCS hits
its blows are worth, each Morale or Casualty by a d6 (`CASUALTY_FROM`), what its Armor or
Excellent equipment stops, its leader's wounds, Skill lost and given back by the ruleset. Going
in is `campaign.rules.bridge`. The rules are `shared/design/rulings.md`, "The bridge, second
edition"; docs/campaign.md lists each with its test. Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from battles.engine.events import Removal
from battles.engine.rulesets import RULESETS
from campaign.rules.bridge import BridgeError
from campaign.rules.experience import with_quality
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import window_after_battle
from campaign.rules.state import (
    LEADER_DEATH_HIT_POINTS,
    CampaignUnitState,
    LeaderState,
    Status,
    WindowFight,
)
from units.bucs import Equipment, Specialty, ignores_first_morale_hit
from units.words import or_words, plural, value_shown

LEFT_THE_TABLE = {
    Removal.NONE: "Still in the field",
    Removal.DESTROYED: "Taken out",
    Removal.DEMORALISED: "Broken",
}
"""How a unit left a Team Bravo table, in the campaign's words: taken out or broken there is not
yet what it costs the unit (the bridge makes that BUCS damage), so not "destroyed"."""


def battle_fate_text(reason: str, removed: str) -> str:
    """How a unit left a battle, in words: "taken out at Second Crossing", "at the Ford"."""
    if removed == Removal.DESTROYED:
        return f"taken out at {reason}"
    if removed == Removal.DEMORALISED:
        return f"broken at {reason}"
    return f"at {reason}"


LEADER_DEATH_MORALE_HITS = 2
"""Morale hits a unit takes at once when its leader dies."""

LEADER_DIED = f"died: {LEADER_DEATH_MORALE_HITS} Morale hits at once"
"""What a history entry says of a leader's death and what it cost the unit, after the leader's
name (`leader_died_text`); an entry written before said "the leader died: …". Said once: the
story of an entry of a kind whose reason tells it leaves the leader's death out
(`HistoryEntry.death_told`)."""


def leader_died_text(name: str) -> str:
    """A leader's death in an entry's working, and what it cost the unit: "Capt. Mara Holt died:
    2 Morale hits at once"."""
    return f"{name} {LEADER_DIED}"


def kit_stopped_text(armor_ignored: int, excellent_ignored: int) -> list[str]:
    """The hits a unit's Armor or Excellent equipment stopped in a fight, in the words of its
    entry's working: "Armor ignored 2 Casualty hits", "Excellent equipment ignored the first
    Morale hit". A battle's entry and an engagement's say them alike."""
    parts = []
    if armor_ignored:
        parts.append(f"Armor ignored {plural(armor_ignored, 'Casualty hit')}")
    if excellent_ignored:
        parts.append("Excellent equipment ignored the first Morale hit")
    return parts


LEADER_DICE_PER_CASUALTY_HIT = 3
"""A leader takes 3d6 damage per Casualty hit its unit suffers."""

Roll = Callable[[], int]
"""A die: each call returns the next result (1..6 for a d6)."""


@dataclass(frozen=True)
class UnitOutcome:
    """How one persistent unit came out of a battle, as plain data."""

    hits_lost: int
    """Hits the unit lost in the battle."""
    skill_lost: int
    """Skill lost to suppression."""
    removed: Removal = Removal.NONE
    """Whether and how it left the battle (its word is accepted too: ``"destroyed"``)."""

    def __post_init__(self) -> None:
        for name in ("hits_lost", "skill_lost"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BridgeError(
                    f"{name} must be a whole number, 0 or more, got {value_shown(value)}"
                )
        try:
            object.__setattr__(self, "removed", Removal(self.removed))
        except ValueError:
            raise BridgeError(
                f"removed must be {or_words(list(Removal))}, got {value_shown(self.removed)}"
            ) from None

    def __repr__(self) -> str:
        # The dice of `outcome_apply` are seeded from this text: it names `removed` by its word,
        # as it did when the field held a plain string, so a battle applies with the same dice.
        return (
            f"UnitOutcome(hits_lost={self.hits_lost!r}, skill_lost={self.skill_lost!r}, "
            f"removed={self.removed.value!r})"
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UnitOutcome:
        """An outcome from its dict; one that gives no ``removed`` did not leave the battle."""
        return cls(data["hits_lost"], data["skill_lost"], data.get("removed", Removal.NONE))

    def to_dict(self) -> dict[str, Any]:
        return {"hits_lost": self.hits_lost, "skill_lost": self.skill_lost, "removed": self.removed}


@dataclass(frozen=True)
class TableResult:
    """A battle fought at a real table, as the GM entered it: the winner and each unit's outcome.

    Its own type, not a ``BattleResult``: a table reports no turns, scores or objectives, and
    knows the campaign's units (by pk), not the engine's.
    """

    winner: str | None
    """The winning side, ``None`` for a draw."""
    units: dict[int, UnitOutcome]
    """Each unit that fought, by its pk."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableResult:
        """The result ``to_dict`` wrote (a campaign battle's ``table_result``), read back."""
        return cls(
            data["winner"],
            {int(pk): UnitOutcome.from_dict(o) for pk, o in data["units"].items()},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "units": {str(pk): o.to_dict() for pk, o in self.units.items()},
        }


def outcome_problems(
    card: dict[str, Any], outcome: UnitOutcome, ruleset: str
) -> list[tuple[str, str]]:
    """What makes this outcome impossible for a unit that fought on `card` (the printed card),
    each as the field it is about (``hits_lost``, ``skill_lost`` or ``removed``) and a sentence.

    Hits lost at most the card's Hits; *destroyed* exactly when every Hit is lost; Skill lost
    at most down to the ruleset's demoralisation Skill; *demoralised* exactly when it got there
    (a unit brought down to it left the battle demoralised: it is neither still in the field nor
    destroyed). Said in the words the table result offers (`LEFT_THE_TABLE`): "taken out" and
    "broken", never "destroyed", which a GM reads as the unit lost to the campaign; where Skill
    came to is said with the card's Skill it was counted from ("… mark it Broken (its card's
    Skill 2, less the 1 lost, is 1)"), for that is the printed card's, which a caller may not
    expect.
    """
    try:
        rules = RULESETS[ruleset]
    except KeyError:
        return [("removed", f"unknown ruleset {ruleset!r}")]
    floor, hits, skill = rules.demoralise_at_skill, card["hits"], card["skill"]
    taken_out, broken = LEFT_THE_TABLE[Removal.DESTROYED], LEFT_THE_TABLE[Removal.DEMORALISED]
    problems = []
    if outcome.hits_lost > hits:
        problems.append(
            ("hits_lost", f"at most {plural(hits, 'Hit')} can be lost, as many as its card has")
        )
    if outcome.removed == Removal.DESTROYED and outcome.hits_lost < hits:
        problems.append((
            "removed",
            f"{taken_out.lower()} means every Hit lost, and its card has {plural(hits, 'Hit')}: "
            f"{outcome.hits_lost} {'is' if outcome.hits_lost == 1 else 'are'} marked lost",
        ))  # fmt: skip
    elif outcome.removed != Removal.DESTROYED and outcome.hits_lost == hits:
        problems.append(
            ("removed", f"every Hit lost means {taken_out.lower()}: mark it {taken_out}")
        )
    left = skill - outcome.skill_lost
    at_floor = rules.demoralised(left)
    # The Skill the bridge printed is not the library card's (quality, kit and specialties
    # shift it), so a refusal about where Skill came to says what it was counted from.
    counted = f"its card's Skill {skill}, less the {outcome.skill_lost} lost, is {left}"
    if outcome.skill_lost > skill - floor:
        problems.append((
            "skill_lost",
            f"at most {skill - floor} Skill can be lost: its card's Skill {skill} down to "
            f"{floor}, where it is {broken.lower()}",
        ))  # fmt: skip
    elif outcome.removed == Removal.DEMORALISED and not at_floor:
        problems.append((
            "removed",
            f"{broken.lower()} means Skill brought down to {floor}: {counted}",
        ))  # fmt: skip
    elif at_floor and outcome.removed == Removal.DESTROYED and outcome.hits_lost == hits:
        problems.append((
            "removed",
            f"a unit leaves a battle once: Skill brought down to {floor} means "
            f"{broken.lower()}, every Hit lost means {taken_out.lower()}; mark the one that "
            "came first, with the losses up to then",
        ))  # fmt: skip
    elif at_floor and outcome.removed != Removal.DEMORALISED:
        problems.append((
            "removed",
            f"Skill brought down to {floor} means {broken.lower()}: mark it {broken} ({counted})",
        ))  # fmt: skip
    return problems


CASUALTY_FROM = 4
"""A BUCS hit from a blow is Casualty on a d6 of 4 or more (half of them), else Morale."""


@dataclass(frozen=True)
class Damage:
    """The working of one unit's damage, kept in its history entry."""

    morale_hits: int = 0
    """Morale hits taken, after Excellent equipment and with any from the leader's death."""
    casualty_hits: int = 0
    """Casualty hits taken, after Armor."""
    split: tuple[int, int] = (0, 0)
    """(Morale, Casualty) as the blows' hits split, before anything was ignored."""
    shock: int = 0
    """Skill lost to suppression, each point a Morale hit in both rulesets. Under Combined Arms
    each point is also a quality step lost for good (`skill_lost_for_good`); under One Year War
    the Skill is restored (`skill_restored`): no step is lost."""
    blow_dice: tuple[int, ...] = ()
    """The d6 rolled for each Team Bravo Hit lost (each blow is the die ÷ the card's Hits,
    rounded up, in BUCS hits; together held to 6: `blows_held`)."""
    split_dice: tuple[int, ...] = ()
    """The d6 rolled for each BUCS hit: Casualty on 4+, else Morale."""
    armor_ignored: int = 0
    excellent_ignored: int = 0
    leader_rolls: tuple[int, ...] = ()
    """Every d6 rolled for the leader's damage, in order."""
    leader_died: bool = False
    quality_lost: int = 0
    """Quality steps lost for good to suppression (Combined Arms)."""
    skill_restored: int = 0
    """Skill lost to suppression and given back (One Year War)."""
    removed: Removal = Removal.NONE

    @property
    def skill_lost_for_good(self) -> int:
        """Skill lost to suppression and not restored: each point a quality step lost for good
        (Combined Arms); none under One Year War."""
        return self.shock - self.skill_restored

    def to_json(self) -> dict[str, Any]:
        return {
            "morale_hits": self.morale_hits,
            "casualty_hits": self.casualty_hits,
            "split": list(self.split),
            "shock": self.shock,
            "blow_dice": list(self.blow_dice),
            "split_dice": list(self.split_dice),
            "armor_ignored": self.armor_ignored,
            "excellent_ignored": self.excellent_ignored,
            "leader_rolls": list(self.leader_rolls),
            "leader_died": self.leader_died,
            "quality_lost": self.quality_lost,
            "skill_restored": self.skill_restored,
            "removed": self.removed,
        }


CARD_MOST_BUCS_HITS = 6
"""The most BUCS hits the blows of one battle deal a unit, however many Hits its card has: a
d6's worth, what a 1-Hit card taken out takes at most, and one fewer than a Legendary unit
survives (`blows_held`)."""


def blow_hits(die: int, card_hits: int) -> int:
    """BUCS hits dealt by one Team Bravo Hit lost: its d6 ÷ the card's Hits, rounded up.

    Losing all of a 1-Hit card is 1–6 BUCS hits; each Hit of a 2-Hit card 1–3, of a 3-Hit card
    1–2, of a 6-Hit card 1: at most 6 for the whole card, as 6 is a multiple of its Hits. A
    card whose Hits do not divide 6 would deal more (a 4-Hit card taken out up to 8, a 5-Hit one
    up to 10, a 9-Hit one 9), so the blows of one battle are held to `CARD_MOST_BUCS_HITS`
    (`blows_held`).
    """
    if card_hits < 1:
        raise BridgeError(f"a card has 1 Hit or more, got {card_hits}")
    return -(-die // card_hits)


def blows_dealt(blow_dice: Sequence[int], card_hits: int) -> int:
    """BUCS hits the blows would deal, each its d6 ÷ the card's Hits rounded up, before they are
    held to `CARD_MOST_BUCS_HITS`."""
    return sum(blow_hits(die, card_hits) for die in blow_dice)


def blows_held(blow_dice: Sequence[int], card_hits: int) -> int:
    """BUCS hits one battle's blows deal a unit: as many as they would (`blows_dealt`), but
    never more than `CARD_MOST_BUCS_HITS`. So however its card divides its Hits, a unit taken
    out takes no more than a 1-Hit card taken out can, and a Legendary unit (7 steps) is never
    lost for good to one battle's blows: the most they leave is 6 Casualty hits."""
    return min(blows_dealt(blow_dice, card_hits), CARD_MOST_BUCS_HITS)


def skill_restored_after(ruleset: str) -> bool:
    """Whether the ruleset gives back Skill lost to suppression (One Year War) or not."""
    try:
        return RULESETS[ruleset].skill_restored_after
    except KeyError:
        raise BridgeError(f"unknown ruleset {ruleset!r}") from None


def leader_wounds(
    leader: LeaderState | None, casualty_hits: int, d6: Roll
) -> tuple[LeaderState | None, tuple[int, ...], bool]:
    """(leader after, dice rolled, died): 3d6 damage per Casualty hit; dead at −10 hit points.

    Characters are immune to Morale hits, and a dead leader takes no more damage.
    """
    if leader is None or not leader.alive or casualty_hits == 0:
        return leader, (), False
    rolls = tuple(d6() for _ in range(LEADER_DICE_PER_CASUALTY_HIT * casualty_hits))
    hit_points = leader.hit_points - sum(rolls)
    died = hit_points <= LEADER_DEATH_HIT_POINTS
    return LeaderState(leader.name, hit_points, alive=not died), rolls, died


def damage_apply(
    state: CampaignUnitState,
    *,
    morale_hits: int,
    casualty_hits: int,
    removed: Removal,
    day: int,
    d6: Roll,
    hour: int = 0,
    damage: Damage | None = None,
    taken_out_retreats: bool = False,
    went_in: CampaignUnitState | None = None,
    won: bool = False,
    fight: str = "",
) -> tuple[CampaignUnitState, Damage]:
    """Hits taken in a battle (already split and reduced) applied to the unit, with its leader.

    Shared by battles and engagements (a quick resolve is one). An engagement is BUCS itself: a
    unit broken by a Casualty hit is destroyed utterly. From a Team Bravo table
    (`taken_out_retreats`), taken out is not dead: a unit removed, destroyed or demoralised,
    retreats in poor order with its hits, and the medics' 24 hours and the ladder decide whether
    it is lost for good (`recovery.casualties_die`). A unit whose hits take it below Raw retreats
    too. A unit that fought stays in the combat zone, unless it retreated out of it. Its medical
    window runs from the battle's hour (`day`, `hour`), unless Casualty hits of another battle
    still await the medics (`recovery.window_after_battle`). A fight that leaves hits awaiting
    the medics, its own or an earlier fight's, is kept in the window (`WindowFight`): how the
    unit went into it (`went_in`: before any step lost to suppression there; by default
    `state`), what it dealt, whether it was `won` and left the unit broken, its name as the
    unit's entry of it keeps it (``fight``), and its hour, from which its own hits await the
    medics 24 hours, for the closing of those hours to give its dead back to it and say which
    fight's suppression counted them (`window.window_settled`).
    """
    damage = damage or Damage()
    awaiting = state.casualty_hits > 0  # the window of an earlier fight's hits stays open
    fought = went_in or state
    if awaiting and state.window_experience is not None:
        window_experience: int | None = state.window_experience
    elif awaiting or casualty_hits:
        window_experience = state.experience
    else:
        window_experience = None
    leader, rolls, died = leader_wounds(state.leader, casualty_hits, d6)
    if died:
        morale_hits += LEADER_DEATH_MORALE_HITS
    # A fight that leaves no Casualty hits awaiting the medics opens no window: they are what
    # the medics' 24 hours are for. The window's bookkeeping stays as it was, never read
    # (`recovery.medical_window_closes`), until Casualty hits open the next window afresh.
    opens = awaiting or casualty_hits > 0
    window = {
        "window_from": window_after_battle(state, clock_hour(day, hour)),
        "window_quality_lost": (state.window_quality_lost if awaiting else 0) + damage.quality_lost,
        "window_quality_gained": state.window_quality_gained if awaiting else 0,
        "window_experience": window_experience,
    }
    state = state.but(
        morale_hits=state.morale_hits + morale_hits,
        casualty_hits=state.casualty_hits + casualty_hits,
        leader=leader,
        battles_fought=state.battles_fought + 1,
        # A battle entered late, fought before the unit's last one, leaves that one the last.
        last_battle_day=day if state.last_battle_day is None else max(state.last_battle_day, day),
        **(window if opens else {}),
    )
    if removed == Removal.DESTROYED and not taken_out_retreats:
        status = Status.DESTROYED
    elif removed != Removal.NONE or state.below_raw:
        status = Status.RETREATED
    else:
        status = Status.READY
    kept = WindowFight(
        quality=fought.quality,
        experience=fought.experience,
        casualty_hits=casualty_hits,
        skill_lost=damage.skill_lost_for_good,
        won=won,
        broken=status == Status.RETREATED,
        name=fight,
        at=clock_hour(day, hour),
    )
    fights = (*state.window_fights, kept) if awaiting else (kept,) if opens else state.window_fights
    state = state.but(status=status, in_combat_zone=status == Status.READY, window_fights=fights)
    damage = replace(
        damage,
        morale_hits=morale_hits,
        casualty_hits=casualty_hits,
        leader_rolls=rolls,
        leader_died=died,
        removed=removed,
    )
    return state, damage


def outcome_damage(
    state: CampaignUnitState,
    outcome: UnitOutcome,
    *,
    card_hits: int,
    skill_restored: bool,
    opposing_equipment: Equipment,
    day: int,
    d6: Roll,
    hour: int = 0,
    equipment: Equipment | None = None,
    won: bool = False,
    fight: str = "",
) -> tuple[CampaignUnitState, Damage]:
    """A battle's outcome for one unit, turned into BUCS damage (second edition, "Coming out").

    Each Team Bravo Hit lost is a blow of d6 ÷ the card's Hits (rounded up) BUCS hits, the blows
    together held to 6 (`blows_held`), and each of those is Casualty on a d6 of 4+, else Morale:
    half and half on average, with no count rounded, so no fate depends on a count coming out
    odd or even. Each point of Skill lost to suppression (shock) is a Morale hit, which R&R
    heals; under Combined Arms it is also a quality step lost for good ("lost Skill never
    returns"), while One Year War restores it for the next battle (``skill_restored``: the
    ruleset's `skill_restored_after`), so no step is lost. Armor ignores its first two Casualty
    hits; Excellent equipment its first Morale hit against a less well equipped enemy; the
    leader takes 3d6 per Casualty hit. Taken out is not dead: the unit retreats, and its fate
    waits for the medics. ``equipment``: the kit it fought with (`fought_kit`), when not its
    own. ``won``: its side won, and ``fight``: the battle's name as the unit's entry keeps it
    (both kept with the fight in its medical window, `damage_apply`).
    """
    if state.status != Status.READY:
        raise BridgeError(f"{state.name} is {state.status.label}: it could not have fought")
    went_in = state
    blow_dice = tuple(d6() for _ in range(outcome.hits_lost))
    hits = blows_held(blow_dice, card_hits)
    split_dice = tuple(d6() for _ in range(hits))
    casualty = sum(1 for die in split_dice if die >= CASUALTY_FROM)
    morale = hits - casualty
    armor = min(casualty, Specialty.ARMOR.row.ignores_casualty_hits)
    if Specialty.ARMOR not in state.specialties:
        armor = 0
    quality_lost = 0
    if skill_restored:
        restored = outcome.skill_lost
    else:
        restored = 0
        quality_lost = min(outcome.skill_lost, int(state.quality))
        state = with_quality(state, state.quality.lowered(outcome.skill_lost))
        state = state.but(skill_lost=state.skill_lost + outcome.skill_lost)
    working = Damage(
        split=(morale, casualty),
        shock=outcome.skill_lost,
        blow_dice=blow_dice,
        split_dice=split_dice,
        armor_ignored=armor,
        quality_lost=quality_lost,
        skill_restored=restored,
    )
    morale += working.shock
    kit = state.equipment if equipment is None else equipment
    excellent = 1 if morale and ignores_first_morale_hit(kit, opposing_equipment) else 0
    return damage_apply(
        state,
        went_in=went_in,
        won=won,
        fight=fight,
        morale_hits=morale - excellent,
        casualty_hits=casualty - armor,
        removed=outcome.removed,
        day=day,
        hour=hour,
        d6=d6,
        damage=replace(working, excellent_ignored=excellent),
        taken_out_retreats=True,
    )
