"""The campaign's view modules import one another one way: a helper two of them share lives in a
module both import, never in one that imports the other back."""

from __future__ import annotations

import ast
from pathlib import Path

VIEWS = Path(__file__).resolve().parents[1] / "campaign" / "views"


def _imports() -> dict[str, set[str]]:
    """Each view module and the view modules it imports, at its top or inside a function."""
    modules = {path.stem for path in VIEWS.glob("*.py")}
    imported: dict[str, set[str]] = {}
    for path in VIEWS.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("campaign.views."):
                    names.add(node.module.removeprefix("campaign.views."))
                elif node.module == "campaign.views":
                    names.update(alias.name for alias in node.names)
        imported[path.stem] = names & modules
    return imported


def _circle(imported: dict[str, set[str]]) -> list[str]:
    """A circle of imports, as the modules it goes through, or [] if there is none."""
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for other in sorted(imported.get(module, ())):
            if circle := walk(other, [*path, module]):
                return circle
        done.add(module)
        return []

    for module in sorted(imported):
        if circle := walk(module, []):
            return circle
    return []


def test_no_view_module_imports_one_that_imports_it_back():
    assert _circle(_imports()) == []


def test_a_circle_of_imports_is_found_however_long():
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
