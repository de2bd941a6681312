"""The two rulesets as data: everything that differs between Combined Arms and One Year War.

Rules code asks the ruleset a question (``ruleset.demoralised(skill)``) instead of testing
which ruleset is in force, so a third ruleset is one more constant here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Keyword


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One ruleset: the few numbers and permissions that differ between the two texts."""

    name: str
    """Identifier used in scenarios and logs: ``combined_arms`` or ``one_year_war``."""
    title: str
    """Human title of the rule text."""
    label: str
    """Its short name, as a form's choice or a page names it: "Combined Arms"."""
    demoralise_at_skill: int
    """A unit whose current Skill drops to this value is demoralised and removed."""
    skill_restored_after: bool
    """Whether Skill lost to suppression returns for the next scenario (campaign uses this)."""
    aerial_only_aa: bool
    """Whether only weapons marked AA may attack an Aerial unit."""
    keywords: frozenset[Keyword]
    """Keywords a card may carry under this ruleset."""

    def demoralised(self, skill: int) -> bool:
        """True when a unit at this current Skill is demoralised."""
        return skill <= self.demoralise_at_skill


_SHARED = frozenset(
    {
        Keyword.AERIAL,
        Keyword.SPLIT_MOVEMENT,
        Keyword.FIXED_MOUNT,
        Keyword.BREACHING,
        Keyword.MOVE_AND_FIRE,
        Keyword.SURE_FOOTED,
        Keyword.DEMOLITION,
    }
)

COMBINED_ARMS = Ruleset(
    name="combined_arms",
    title="Team Bravo: Combined Arms",
    label="Combined Arms",
    demoralise_at_skill=1,
    skill_restored_after=False,
    aerial_only_aa=True,
    keywords=_SHARED,
)

ONE_YEAR_WAR = Ruleset(
    name="one_year_war",
    title="Team Bravo: The One Year War",
    label="One Year War",
    demoralise_at_skill=0,
    skill_restored_after=True,
    aerial_only_aa=False,
    keywords=_SHARED | {Keyword.SENSOR, Keyword.AMPHIBIOUS},
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (COMBINED_ARMS, ONE_YEAR_WAR)}
