"""The scenarios that ship with the engine, loadable by name.

The five reference scenarios are the ones the tournament and the benchmark play, each with
terrain that matters and an objective, all built from the sample library's cards
(``units/library/``) so they play with the numbers the balance table proves. ``crossroads`` and
``landing`` are the older worked examples of the scenario format.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ScenarioError
from ..loader import load_scenario
from ..scenario import Scenario

HERE = Path(__file__).resolve().parent
"""Where the bundled scenario files live."""

REFERENCE_NAMES = ("factory-hold", "mech-duel", "river-crossing", "chopper-raid", "big-battle")
"""The reference scenarios, in the order reports list them."""


def reference_names() -> tuple[str, ...]:
    """Names of the reference scenarios."""
    return REFERENCE_NAMES


def bundled_names() -> list[str]:
    """Names of every scenario shipped with the engine (reference scenarios and examples)."""
    return sorted(p.stem for p in HERE.glob("*.json"))


def reference_path(name: str) -> Path:
    """The file of a bundled scenario; ``ScenarioError`` naming the choices if there is none."""
    names = bundled_names()
    if name not in names:
        shown = repr(name) if len(name) <= 60 else repr(name[:60]) + "…"
        raise ScenarioError([("", f"no bundled scenario {shown} (choose from {', '.join(names)})")])
    return HERE / f"{name}.json"


def load_reference(name: str) -> Scenario:
    """Load and validate a bundled scenario by name, e.g. ``load_reference("factory-hold")``."""
    return load_scenario(reference_path(name))


def resolve(name_or_path: str | Path) -> Scenario:
    """A scenario from a file path, or else from a bundled name (``simulate`` takes either)."""
    path = Path(name_or_path)
    if path.suffix == ".json" or _is_file(path):
        return load_scenario(path)
    return load_reference(str(name_or_path))


def _is_file(path: Path) -> bool:
    """Whether ``path`` names a file; a name the system cannot even look up (too long, say) is
    none, and is then looked for among the bundled names."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False
