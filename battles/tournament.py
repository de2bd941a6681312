"""The commander tournament: is the default policy measurably stronger than the simple one?

For every reference scenario and each of its two sides, the challenger (``DefaultCommander``)
plays that side against the baseline (``SimpleCommander``) over a range of seeds; the same seeds
are then fought with the baseline on both sides. Draws count as not winning.

Two verdicts, both with 95% Wilson intervals:

- **per side**: clearly better when the lower bound of the challenger's win rate on that side
  lies above the baseline's win rate on the same side and seeds. Some scenarios favour one side
  so much that the baseline already wins nearly every battle there; no policy can clear that.
- **per scenario** (the head-to-head): the challenger's wins over both sides together, against
  the baseline's wins over both sides on the same seeds (the baseline against itself wins
  exactly the decided battles' share, at most half). This is the measure the project holds the
  default to: it must be clearly better on every reference scenario.

Plain Python, no Django; the ``manage.py tournament`` command prints ``render_table``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from battles.engine import Commander, Scenario, SimpleCommander, run_battle
from battles.engine.commanders import DefaultCommander
from battles.engine.scenarios import load_reference, reference_names
from battles.tally import wilson_interval

COMMANDERS: dict[str, Callable[[], Commander]] = {
    "default": DefaultCommander,
    "simple": SimpleCommander,
}
"""Policies by name; each battle gets fresh instances (the default remembers what it saw)."""


@dataclass(frozen=True, slots=True)
class Record:
    """Wins, draws and losses of one side over a run of seeds, and its mean score margin."""

    wins: int
    draws: int
    losses: int
    margin: float
    """Mean (own score − enemy score)."""

    @property
    def battles(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        """Win rate (draws are not wins)."""
        return self.wins / self.battles if self.battles else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.battles)


@dataclass(frozen=True, slots=True)
class Row:
    """One scenario, one side: the challenger's record there, and the baseline's."""

    scenario: str
    side: str
    challenger: Record
    """The challenger playing ``side`` against the baseline."""
    baseline: Record
    """The baseline playing ``side`` against itself, same seeds."""

    @property
    def clearly_better(self) -> bool:
        """The challenger's interval lies wholly above the baseline's win rate."""
        return self.challenger.interval[0] > self.baseline.rate


@dataclass(frozen=True, slots=True)
class Verdict:
    """One scenario, both sides pooled: the head-to-head."""

    scenario: str
    challenger: Record
    """The challenger's record over both sides."""
    baseline: Record
    """The baseline's record over both sides, same seeds."""

    @property
    def clearly_better(self) -> bool:
        return self.challenger.interval[0] > self.baseline.rate


def pooled(rows: Sequence[Row]) -> list[Verdict]:
    """Each scenario's sides added together, in the order the rows list the scenarios."""
    names = list(dict.fromkeys(r.scenario for r in rows))
    out = []
    for name in names:
        mine = [r for r in rows if r.scenario == name]
        out.append(
            Verdict(
                name,
                _sum([r.challenger for r in mine]),
                _sum([r.baseline for r in mine]),
            )
        )
    return out


def _sum(records: Sequence[Record]) -> Record:
    n = sum(r.battles for r in records)
    margin = sum(r.margin * r.battles for r in records) / n if n else 0.0
    return Record(
        sum(r.wins for r in records),
        sum(r.draws for r in records),
        sum(r.losses for r in records),
        margin,
    )


def play(
    scenario: Scenario,
    side: str,
    seeds: Iterable[int],
    player: Callable[[], Commander],
    opponent: Callable[[], Commander],
) -> Record:
    """``player`` fights ``side`` of the scenario against ``opponent``, once per seed."""
    wins = draws = losses = 0
    margin = 0.0
    for seed in seeds:
        commanders = {s.id: (player() if s.id == side else opponent()) for s in scenario.sides}
        result = run_battle(scenario, seed, commanders=commanders).result
        scores = {s.side: s.score for s in result.sides}
        enemy = next(s.id for s in scenario.sides if s.id != side)
        margin += scores[side] - scores[enemy]
        if result.winner is None:
            draws += 1
        elif result.winner == side:
            wins += 1
        else:
            losses += 1
    n = wins + draws + losses
    return Record(wins, draws, losses, margin / n if n else 0.0)


def tournament(
    names: Sequence[str] | None = None,
    seeds: Sequence[int] = range(100),
    challenger: str = "default",
    baseline: str = "simple",
    progress: Callable[[str], None] | None = None,
) -> list[Row]:
    """Every named scenario (default: the reference scenarios), both sides, every seed."""
    rows = []
    for name in names or reference_names():
        scenario = load_reference(name)
        for s in scenario.sides:
            if progress is not None:
                progress(f"{name}: {challenger} as {s.id}")
            mine = play(scenario, s.id, seeds, COMMANDERS[challenger], COMMANDERS[baseline])
            base = play(scenario, s.id, seeds, COMMANDERS[baseline], COMMANDERS[baseline])
            rows.append(Row(name, s.id, mine, base))
    return rows


def render_table(rows: Sequence[Row], challenger: str = "default", baseline: str = "simple") -> str:
    """The figures as a Markdown table, one row per scenario and side, and a verdict line."""
    head = (
        f"| scenario | side | battles | {challenger} W/D/L | {challenger} win rate (95% CI) | "
        f"{baseline} W/D/L | {baseline} win rate (95% CI) | margin {challenger} / {baseline} "
        "| clearly better |"
    )
    lines = [head, "|" + "---|" * 9]
    for r in rows:
        c, b = r.challenger, r.baseline
        lines.append(
            f"| {r.scenario} | {r.side} | {c.battles} | {c.wins}/{c.draws}/{c.losses} | "
            f"{_rate(c)} | {b.wins}/{b.draws}/{b.losses} | {_rate(b)} | "
            f"{c.margin:+.2f} / {b.margin:+.2f} | {'yes' if r.clearly_better else 'no'} |"
        )
    better = sum(r.clearly_better for r in rows)
    lines.append("")
    lines.append(f"{challenger} clearly better on {better} of {len(rows)} scenario sides.")
    lines.append("")
    lines.append(
        f"| scenario | battles | {challenger} wins, both sides (95% CI) | "
        f"{baseline} wins, both sides | clearly better |"
    )
    lines.append("|---|---|---|---|---|")
    verdicts = pooled(rows)
    for v in verdicts:
        mine, base = v.challenger, v.baseline
        lines.append(
            f"| {v.scenario} | {mine.battles} | {mine.wins} = {_rate(mine)} "
            f"| {base.wins} = {base.rate:.1%} | {'yes' if v.clearly_better else 'no'} |"
        )
    won = sum(v.clearly_better for v in verdicts)
    lines.append("")
    lines.append(f"{challenger} clearly better head-to-head on {won} of {len(verdicts)} scenarios.")
    return "\n".join(lines) + "\n"


def _rate(r: Record) -> str:
    low, high = r.interval
    return f"{r.rate:.1%} ({low:.1%}–{high:.1%})"
