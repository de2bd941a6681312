"""What the commanders keep answers exactly what working it out afresh would.

The golden logs hold the DefaultCommander's decisions byte for byte; these tests pin what its
``Board`` keeps between decisions on their own, so a stale answer shows here first and by name.
"""

from __future__ import annotations

import math

from battles.engine import DefaultCommander, Dice, MoveStep, parse_scenario, run_battle
from battles.engine.battle import Battle
from battles.engine.cards import Keyword
from battles.engine.combat import collapse
from battles.engine.commander import BattleView
from battles.engine.commanders import goals, moves, threat, values
from battles.engine.commanders.attacks import bounded_attack, reach_here
from battles.engine.commanders.board import SQUARES, Board, square_centre
from battles.engine.commanders.board import square as square_of
from battles.engine.commanders.odds import at_least, harm_by_reach
from battles.engine.commanders.threat import danger
from battles.engine.commanders.values import attack_value, offers, opportunity
from battles.engine.events import TurnStart
from battles.engine.rulesets import COMBINED_ARMS
from battles.engine.scenarios import load_reference
from battles.engine.tables import card_shots

from .helpers import act, battle, building, scenario, square, unit

RIFLES = [{"name": "Rifles", "power": 2, "range": 12}]
CANNON = [{"name": "Cannon", "power": 5, "range": 18}]


def _sides():
    blue = [
        unit("rifles", (2, 2), skill=3, move=5, resistance=1, hits=1, size=1, weapons=RIFLES),
        unit("mech", (4, 8), skill=4, move=4, resistance=5, hits=2, size=4, weapons=CANNON),
    ]
    red = [
        unit("squad", (10, 2), skill=3, move=5, resistance=1, hits=1, size=1, weapons=RIFLES),
        unit("tank", (14, 8), skill=4, move=6, resistance=3, hits=1, size=3, weapons=CANNON),
    ]
    return blue, red


def test_a_view_hands_back_the_same_info_while_a_unit_stands_and_a_new_one_when_it_moves():
    b = battle(scenario(*_sides()))
    first = {u.id: u for u in BattleView(b, "blue").own_units()}
    again = {u.id: u for u in BattleView(b, "blue").own_units()}
    assert all(first[i] is again[i] for i in first)
    act(b, "rifles", MoveStep(((4.0, 2.0),)))
    moved = {u.id: u for u in BattleView(b, "blue").own_units()}
    assert moved["rifles"] is not first["rifles"]
    assert moved["rifles"].position == (4.0, 2.0) and moved["rifles"].activated
    assert moved["mech"] is first["mech"]
    # As the enemy sees it, a unit shows no order: its own and its enemy's infos never mix.
    seen = {u.id: u for u in BattleView(b, "red").enemies()}
    assert seen["rifles"].order is None and moved["rifles"].order is not None


def test_a_unit_s_info_is_a_named_tuple_built_in_one_step_and_never_changed():
    # A view builds an info at every change to a unit its side sees: a frozen dataclass would
    # set each field through object.__setattr__, several times the cost of the rest.
    b = battle(scenario(*_sides()))
    info = next(u for u in BattleView(b, "blue").own_units() if u.id == "mech")
    assert isinstance(info, tuple) and info.position == (4, 8) and info.hits == 2
    try:
        info.hits = 1  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("a unit's info changed in place")
    hit = info._replace(hits=1)
    assert hit != info and hit.hits == 1 and info.hits == 2
    assert hit._replace(hits=2) == info


def test_the_scenario_s_tables_agree_with_the_cards():
    blue, red = _sides()
    b = battle(scenario(blue, red))
    tables = b.scenario.tables
    units = list(b.state.units.values())
    # Equal cards share a number: the rifles and the squad carry the same card.
    assert len(tables.cards) == 3
    assert tables.card_no["rifles"] == tables.card_no["squad"] != tables.card_no["mech"]
    board = Board(BattleView(b, "blue"))
    board.sync(BattleView(b, "blue"))
    for a in units:
        attacker = a.card
        no = tables.card_no[a.id]
        reach = max(max((w.range for w in attacker.weapons), default=0.0), 1.0)
        assert tables.reach[no] == reach
        if a.side == "blue":  # the board's pieces read their figures off the tables and card
            piece = board.pieces[a.id]
            mobile = attacker.has(Keyword.MOVE_AND_FIRE) or attacker.has(Keyword.SPLIT_MOVEMENT)
            assert piece.reach == reach
            assert (piece.mobile, piece.fixed, piece.aerial) == (
                mobile,
                attacker.has(Keyword.FIXED_MOUNT),
                attacker.has(Keyword.AERIAL),
            )
        for t in units:
            for skill in (2, 3, 4):
                direct = card_shots(attacker, skill, t.card, COMBINED_ARMS)
                assert tables.card_shots(no, skill, tables.card_no[t.id]) == direct
                damages = any(s.damage > 0 for s in direct)
                assert tables.can_damage(no, skill, tables.card_no[t.id]) is damages
                best = max((s.damage for s in direct), default=0.0)
                assert tables.best_damage(no, skill, tables.card_no[t.id]) == best


def test_units_with_equal_cards_share_one_card_number():
    twins = [unit(f"r{i}", (2 + i, 2), weapons=RIFLES) for i in range(3)]
    b = battle(scenario(twins, [unit("squad", (10, 2), weapons=RIFLES)]))
    numbers = b.scenario.tables.card_no
    assert numbers["r0"] == numbers["r1"] == numbers["r2"] == numbers["squad"]


def _fresh(view: BattleView, kept: Board) -> Board:
    """A board worked out afresh for this decision, on the turn's kept weights: each enemy's
    danger and each building's worth are kept for the turn while they stand (``threat.danger``,
    ``values.building_worth``), so a fresh board takes the kept board's; everything else is
    reckoned anew."""
    fresh = Board(view)
    fresh.sync(view)
    fresh.worths = dict(kept.worths)
    fresh.finishes = dict(kept.finishes)
    for pid, piece in kept.pieces.items():
        if pid in fresh.pieces and piece.danger is not None:
            fresh.pieces[pid].danger = piece.danger
    return fresh


def test_attack_offers_kept_in_the_tables_equal_those_worked_out_afresh_and_run_best_first():
    sc = parse_scenario(scenario(*_sides()))
    run_battle(sc, 1, commanders={"blue": DefaultCommander(), "red": DefaultCommander()})
    assert sc.tables.offers  # the battle before filled the scenario's offers
    b = Battle(sc, Dice.fixed(()), {})
    b.start()
    b.emit(TurnStart(1))
    commander = DefaultCommander()
    commander.choose(BattleView(b, "blue"))
    kept = commander._board
    assert kept is not None
    for u in kept.own:
        for e in kept.foes:
            found = offers(kept, u, e)
            shots = kept.tables.card_shots(u.no, u.skill, e.no)
            values = [attack_value(kept, u, e, s, danger(kept, e)) for s in shots]
            again = [
                (v, s.range, s.weapon)
                for v, s in zip(values, shots, strict=True)
                if s.damage + s.suppress > 0 and v > 0
            ]
            assert found == sorted(again, key=lambda o: -o[0]), (u.id, e.id)
            assert all(o[0] > 0 for o in found)


class _CheckingReaches:
    """Plays as the default does and, after each decision, checks every ready unit's kept
    ``Reach`` against one worked out afresh (on the same turn's enemy dangers)."""

    checked = 0

    def __init__(self):
        self.plays = DefaultCommander()

    def choose(self, view: BattleView):
        action = self.plays.choose(view)
        kept = self.plays._board
        assert kept is not None
        fresh = _fresh(view, kept)
        for u in kept.own:
            if u.info.activated:
                continue
            f = fresh.pieces[u.id]
            a, b = reach_here(kept, u), reach_here(fresh, f)
            assert a.bound == b.bound, u.id
            assert [p.offer for p in a.pairs(kept)] == [p.offer for p in b.pairs(fresh)], u.id
            found = bounded_attack(fresh, f, b.pairs(fresh))
            assert bounded_attack(kept, u, a.pairs(kept)) == found
            assert a.best(kept, u) == found  # as kept while the pairs stand
            _CheckingReaches.checked += 1
        return action


def test_each_unit_s_attacks_kept_across_decisions_equal_a_fresh_reckoning():
    sc = load_reference("big-battle")
    for seed in (0, 1):
        commanders = {s.id: _CheckingReaches() for s in sc.sides}
        run_battle(sc, seed, commanders=commanders)
    assert _CheckingReaches.checked > 1000


def test_lines_over_the_opening_table_are_the_scenario_s_and_each_equals_the_line_afresh():
    sc = load_reference("factory-hold")
    for seed in range(3):
        run_battle(sc, seed, commanders={s.id: DefaultCommander() for s in sc.sides})
    lines = sc.tables.opening_lines
    assert len(lines) > 10  # the battles reckoned their lines on the scenario's table
    fresh = Battle(sc, Dice.fixed(()), {})  # a battle not yet begun: the opening table
    board = Board(BattleView(fresh, sc.sides[0].id))
    board.sync(BattleView(fresh, sc.sides[0].id))
    assert board.lines is lines
    for key, clear in lines.items():
        a, b = divmod(key, SQUARES)
        assert fresh.sight.line_clear(square_centre(a), square_centre(b)) == clear, key
    again = load_reference("factory-hold")
    assert not again.tables.opening_lines  # another parse of it has its own


def test_once_a_building_falls_lines_are_the_battle_s_own():
    house = square(10, 0, 14, 4)
    sc = scenario(*_sides(), buildings=[building("h", house, hits=1)])
    b = battle(sc)
    board = Board(BattleView(b, "blue"))
    board.sync(BattleView(b, "blue"))
    assert board.lines is b.scenario.tables.opening_lines
    collapse(b, b.state.buildings["h"])
    board.sync(BattleView(b, "blue"))
    assert board.lines is not b.scenario.tables.opening_lines
    assert board.lines == {}


class _CheckingSources:
    """Plays as the default does and, before each decision, checks every own unit's threat
    sources and next shot against a full weighing of every enemy."""

    checked = 0

    def __init__(self):
        self.plays = DefaultCommander()

    def choose(self, view: BattleView):
        action = self.plays.choose(view)
        board = self.plays._board
        assert board is not None
        for u in board.own:
            assert threat.sources(board, u) == _all_weighed_sources(board, u), u.id
            for p in _around(u):
                assert opportunity(board, u, p) == _first_in_range(board, u, p), (u.id, p)
            _CheckingSources.checked += 1
        return action


def _all_weighed_sources(board: Board, u) -> list:
    """Every enemy that could reach a place within the unit's move, the ``SOURCES`` that could
    take the most off it kept in the enemies' order, then weighed in full."""
    pool = [(e, 1.0) for e in board.foes] + [(e, threat.LOST_SIGHT) for e in board.lost]
    near = []
    for i, (e, weight) in enumerate(pool):
        d = math.dist(u.position, e.position)
        reaches = harm_by_reach(board.tables, e, u)
        if not reaches or d > reaches[0][0] + e.move + u.stride:
            continue
        if e.info.activated and weight == 1.0:
            weight *= threat.ALREADY_ACTIVATED
        near.append((-weight * reaches[-1][1], i, e, weight, reaches))
    strongest = sorted(near, key=lambda w: (w[0], w[1]))[: threat.SOURCES]
    out = []
    for _, _, e, weight, reaches in sorted(strongest, key=lambda w: w[1]):
        weight /= 1 + threat.SHARED_FIRE * threat._exposed_to(board, e, u, reaches[0][0])
        weight *= threat.FAIR_FIGHT if threat.can_hurt(board, u, e) else threat.CANNOT_HURT_BACK
        x, y = e.position
        facing = e.info.facing if e.fixed else None
        out.append((x, y, e.square, weight, reaches, e.move, e.mobile, e.aerial, facing, e.cover))
    return out


def _around(u) -> list[tuple[float, float]]:
    """Where the unit stands and four places within its move (the places a plan weighs)."""
    (x, y), step = u.position, u.move / 2
    return [(x, y)] + [(x + dx, y + dy) for dx in (-step, step) for dy in (-step, step)]


def _first_in_range(board: Board, u, p) -> float:
    """The best attack on a visible enemy in range of ``p`` with a line, every attack scanned."""
    here = None if u.aerial else board.building_at(p)
    found = []
    for e in board.foes:
        inside = None if e.aerial else board.building_at(e.position)
        if inside is not None and inside != here:
            continue
        for s in board.tables.card_shots(u.no, u.skill, e.no):
            v = attack_value(board, u, e, s, danger(board, e)) if s.damage + s.suppress > 0 else 0
            d = math.dist(p, e.position)
            line = u.aerial or e.aerial or board.sees(square_of(p), e.square)
            if v > 0 and d <= s.range and line:
                found.append(v)
    return max(found, default=0.0)


def test_the_threat_s_strongest_sources_and_the_next_shot_equal_a_full_weighing():
    for name, seeds in (("big-battle", (0,)), ("chopper-raid", (0, 1)), ("factory-hold", (0, 1))):
        sc = load_reference(name)
        for seed in seeds:
            run_battle(sc, seed, commanders={s.id: _CheckingSources() for s in sc.sides})
    assert _CheckingSources.checked > 500


class _CheckingCover:
    """Plays as the default does and, after each decision, checks the cover kept within reach
    of every own unit against cover found afresh."""

    checked = 0

    def __init__(self):
        self.plays = DefaultCommander()

    def choose(self, view: BattleView):
        action = self.plays.choose(view)
        board = self.plays._board
        assert board is not None
        kept = board.cover_spots
        for u in board.own:
            found = moves._cover_spots(board, u)
            board.cover_spots = {}
            try:
                assert moves._cover_spots(board, u) == found, u.id
            finally:
                board.cover_spots = kept
            _CheckingCover.checked += 1
        return action


def test_the_cover_within_reach_kept_over_the_opening_table_equals_cover_found_afresh():
    for name, seeds in (("factory-hold", (0, 1, 2)), ("big-battle", (0,))):
        sc = load_reference(name)
        for seed in seeds:
            run_battle(sc, seed, commanders={s.id: _CheckingCover() for s in sc.sides})
        assert sc.tables.opening_cover_spots, name  # the scenario's, for every battle
    assert _CheckingCover.checked > 1000


def test_a_firing_spot_is_sought_nearest_square_first_over_offsets_kept_in_the_tables():
    sc = load_reference("big-battle")
    found = goals._offsets(sc.tables, 2)
    every = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if dx * dx + dy * dy <= 4]
    assert found == tuple(sorted(every, key=lambda o: (o[0] ** 2 + o[1] ** 2, o)))
    assert found[:5] == ((0, 0), (-1, 0), (0, -1), (0, 1), (1, 0))
    assert len(found) == 13  # the corners (±2, ±1) and (±1, ±2) are farther than two squares
    assert goals._offsets(sc.tables, 2) is found
    assert sc.tables.spot_offsets == {2: found}


class _CheckingFinishes:
    """Plays as the default does and, at each turn's first decision, checks the chance of
    bringing each standing building down against the sum worked out afresh."""

    checked = 0

    def __init__(self):
        self.plays = DefaultCommander()

    def choose(self, view: BattleView):
        action = self.plays.choose(view)
        board = self.plays._board
        assert board is not None
        if board.in_turn == 0:
            for b in board.buildings:
                target = board.tables.card_no[b.id]
                chances = []
                for o in board.own:
                    best = board.tables.best_damage(o.no, o.skill, target)
                    if best > 0:
                        chances += [best] * board.turns_left
                fresh = at_least(b.hits, chances) if chances else 0.0
                assert values._can_finish(board, b) == fresh, (b.id, board.turn)
                _CheckingFinishes.checked += 1
        return action


def test_the_chance_of_bringing_a_building_down_kept_in_the_tables_equals_the_sum_afresh():
    sc = load_reference("big-battle")
    for seed in (0, 1):
        run_battle(sc, seed, commanders={s.id: _CheckingFinishes() for s in sc.sides})
    assert sc.tables.finish_odds  # the scenario's, for every battle
    assert _CheckingFinishes.checked > 100
