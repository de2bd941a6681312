"""The engine keeps nothing between battles in the process: what a scenario's battles share is
the scenario's own (``tables.py``), and it goes with the scenario."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import battles.engine
from battles.engine import DefaultCommander, SimpleCommander, run_battle
from battles.engine.scenarios import load_reference


def _engine_modules() -> list[Any]:
    names = [m.name for m in pkgutil.walk_packages(battles.engine.__path__, "battles.engine.")]
    return [importlib.import_module(n) for n in names if not n.endswith("__main__")]


def _sizes() -> dict[str, int]:
    """The size of every container and cached function held by an engine module or class."""
    sizes = {}

    def note(where: str, value: Any) -> None:
        if isinstance(value, dict | list | set | bytearray):
            sizes[where] = len(value)
        elif hasattr(value, "cache_info"):
            sizes[where] = value.cache_info().currsize

    for module in [battles.engine, *_engine_modules()]:
        for name, value in vars(module).items():
            note(f"{module.__name__}.{name}", value)
            if isinstance(value, type) and value.__module__ == module.__name__:
                for attr, held in vars(value).items():
                    note(f"{module.__name__}.{name}.{attr}", held)
    return sizes


def test_playing_battles_grows_no_state_in_the_engine_s_modules():
    load_reference("factory-hold")  # every module imported, every import-time table built
    before = _sizes()
    assert len(before) > 20  # the walk sees the engine's module-level tables
    for name in ("factory-hold", "chopper-raid"):
        sc = load_reference(name)
        for seed in range(2):
            run_battle(sc, seed, commanders={s.id: DefaultCommander() for s in sc.sides})
            run_battle(sc, seed, commanders={s.id: SimpleCommander() for s in sc.sides})
    after = _sizes()
    grown = {k: (before.get(k), n) for k, n in after.items() if n != before.get(k)}
    assert grown == {}


def test_a_scenario_s_battles_share_its_tables_and_another_scenario_has_its_own():
    sc = load_reference("factory-hold")
    again = load_reference("factory-hold")
    run_battle(sc, 0, commanders={s.id: DefaultCommander() for s in sc.sides})
    finders = dict(sc.tables.finders)
    assert finders and sc.tables.best  # the battle used the scenario's tables
    run_battle(sc, 1, commanders={s.id: DefaultCommander() for s in sc.sides})
    assert all(sc.tables.finders[k] is f for k, f in finders.items())
    assert again.tables is not sc.tables and not again.tables.finders and not again.tables.best


def test_a_finished_battle_leaves_nothing_for_the_garbage_collector():
    """Commanders, views and dice let the battle go when it ends, so everything a battle made
    is freed as soon as its record is dropped, not by the cyclic garbage collector later."""
    import gc

    sc = load_reference("chopper-raid")  # a building falls in some battles
    run_battle(sc, 0)  # the scenario's tables and path finders are built, and kept with it
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            run_battle(sc, seed, commanders={s.id: DefaultCommander() for s in sc.sides})
            run_battle(sc, seed, commanders={s.id: SimpleCommander() for s in sc.sides})
        assert gc.collect() == 0
    finally:
        gc.enable()
