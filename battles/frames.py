"""Map replay frames: the table after deployment, after each activation, and at the end.

Built from the engine's ``replay_states`` — the same states the battle went through — so the
replay cannot drift from the log. A frame carries only what changed since the one before
(``replay.js`` rebuilds the rest), the lines of fire and paths of that activation, and the
sentences that say what happened. Coordinates are SVG coordinates (y flipped, as in
``battles.table``).

Unit state in a frame is ``[x, y, hits, skill, removed, concealed]``: ``removed`` is 0 (in
play), 1 (destroyed) or 2 (demoralised), said in the reader's words by the replay's ``left``;
``x``, ``y``, ``hits`` and ``skill`` are null while a viewer under fog of war cannot see the
unit: its state then is its side's secret, and so are the card facts (``size``, ``hits``) of a
unit the viewer never sees.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from battles.engine import Event, Scenario, replay_states
from battles.engine import events as ev
from battles.engine.geometry import nearest_point
from battles.names import Names, scenario_names
from battles.narration import (
    describe,
    describe_idle,
    end_scores,
    idle_activations,
    idle_reasons,
    in_sight_reveals,
    unseen_occupants,
)
from battles.table import unit_radius

_REMOVED = {removal: code for code, removal in enumerate(ev.Removal)}
"""A frame gives how a unit left the battle as a number: its place in ``Removal``."""
_BOUNDARIES = {"activation", "turn_start", "end"}
_NOTABLE = {"move", "attack", "damage", "suppress", "remove", "collapse", "reveal", "score", "end"}
"""Events worth a line under the map (the log has the rest)."""


def _r(x: float) -> float:
    return round(x, 3) + 0.0


def segments(events: Sequence[Event]) -> list[tuple[str, int, int]]:
    """(kind, first index, last index) runs of the log: deployment, opening (turn start and
    initiative), activation, end."""
    out = []
    kind, start = "deployment", 0
    for i, e in enumerate(events):
        if e.KIND in _BOUNDARIES and i > start:
            out.append((kind, start, i - 1))
            start = i
        if e.KIND in _BOUNDARIES:
            kind = {"activation": "activation", "turn_start": "opening", "end": "end"}[e.KIND]
    if events:
        out.append((kind, start, len(events) - 1))
    return out


def replay_frames(
    scenario: Scenario,
    events: Sequence[Event],
    *,
    viewer: str | None = None,
    hidden: Collection[int] = (),
    names: Names | None = None,
    turns: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """The replay as plain data for ``json_script``: the units' fixed facts, then the frames
    (with ``turns``, a first and a last turn, the deployment's and those turns' frames only:
    the first of them says where every unit stands then).

    ``viewer`` and ``hidden`` (from ``battles.fog``) apply fog of war: enemy units concealed at
    the end of a frame have no position, and hidden events draw nothing and say nothing.
    Captions and the words under the markers name every piece by ``names`` (by default as
    ``battles.names`` calls them; a campaign's report gives its units' own names and its words
    for how a unit left the battle), never by engine ids.
    """
    names = names or scenario_names(scenario)
    h = scenario.height
    side_index = {s.id: i for i, s in enumerate(scenario.sides)}
    units = {
        u.id: {
            "name": names.get(u.id),
            "tag": names.units[u.id],
            "side": side_index[u.side],
            "size": u.card.size,
            "hits": u.card.hits,
            "r": unit_radius(u.card.size),
        }
        for u in scenario.units()
    }
    frame_end = {last: (kind, first) for kind, first, last in segments(events) if kind != "opening"}
    frames: list[dict[str, Any]] = []
    last_units: dict[str, list] = {}
    last_buildings: dict[str, list] = {}
    fire: list[list] = []
    paths: list[list] = []
    notes: list[str] = []
    title = "Deployment"
    turn = 0
    active: str | None = None
    idle = idle_activations(events)
    why_idle = idle_reasons(events, names, hidden)
    at_end = end_scores(events, names)
    # The map shows a unit still in sight as it was: the log's line on it is enough.
    quiet = in_sight_reveals(events)

    def point(p) -> list[float]:
        return [_r(p[0]), _r(h - p[1])]

    for i, (e, state) in enumerate(replay_states(scenario, events)):
        if isinstance(e, ev.TurnStart):
            turn = e.turn
        if i not in hidden:
            if isinstance(e, ev.Activation):
                active = e.unit
                title = f"Turn {turn} · {names.side(e.side)}: {names.units[e.unit]}"
                if i in idle:
                    notes.append(describe_idle(e, names, why_idle.get(i, "")))
            elif isinstance(e, ev.End):
                active, title = None, "The end"
            if isinstance(e, ev.Move):
                paths.append([point(p) for p in e.path])
            elif isinstance(e, ev.Attack):
                fire.append(_fire_line(e, state, point))
            if e.KIND in _NOTABLE and i not in quiet:
                unseen = unseen_occupants(events, i, hidden)
                notes.append(describe(e, names, at_end=i in at_end, unseen=unseen))
        elif isinstance(e, ev.Activation):
            active = None
            title = f"Turn {turn} · {names.side(e.side)}: a unit out of sight"
        if i not in frame_end:
            continue
        if turns is not None and turn and not turns[0] <= turn <= turns[1]:
            fire, paths, notes = [], [], []
            continue
        snapshot = _units(state, viewer, point)
        snapshot_b = {b.id: [b.hits, int(b.collapsed)] for b in state.buildings.values()}
        frames.append(
            {
                "turn": turn,
                "title": title,
                "active": active,
                "units": {k: v for k, v in snapshot.items() if last_units.get(k) != v},
                "buildings": {k: v for k, v in snapshot_b.items() if last_buildings.get(k) != v},
                "fire": fire,
                "paths": paths,
                "notes": notes,
                "scores": [state.scores[s.id] for s in scenario.sides],
            }
        )
        last_units, last_buildings = snapshot, snapshot_b
        fire, paths, notes = [], [], []
    seen = {uid for f in frames for uid, at in f["units"].items() if at[0] is not None}
    for uid in units.keys() - seen:
        # Never placed for this viewer: its card is as hidden as the unit.
        units[uid].update(size=None, hits=None, r=None)
    return {
        "units": units,
        "sides": [s.name for s in scenario.sides],
        "buildings": {b.id: b.card.hits for b in scenario.buildings},
        "building_names": {b.id: names.buildings[b.id] for b in scenario.buildings},
        "left": [names.left[removal] for removal in ev.Removal],
        "frames": frames,
    }


def _units(state, viewer: str | None, point) -> dict[str, list]:
    out = {}
    for u in state.units.values():
        unseen = viewer is not None and u.side != viewer and u.concealed and u.active
        if unseen:
            # Nothing of it: its hits and Skill going down out of sight are its side's secret.
            out[u.id] = [None, None, None, None, _REMOVED[u.removed], 1]
        else:
            out[u.id] = [*point(u.position), u.hits, u.skill, _REMOVED[u.removed], int(u.concealed)]
    return out


def _fire_line(e: ev.Attack, state, point) -> list:
    """[x1, y1, x2, y2, outcome, kind] from the attacker to the target (a building's nearest
    wall)."""
    source = state.units[e.attacker].position
    if e.target in state.buildings:
        target = nearest_point(state.buildings[e.target].polygon, source)
    else:
        target = state.units[e.target].position
    return [*point(source), *point(target), e.outcome, e.attack]


def unseen_at_deployment(frames: dict[str, Any]) -> frozenset[str]:
    """The units the replay's first frame gives no position (hidden from its viewer)."""
    first = frames["frames"][0]["units"] if frames.get("frames") else {}
    return frozenset(uid for uid, (x, *_rest) in first.items() if x is None)
