"""The house's shape: no module of the site's code, nor of its tests, grows to a thousand lines;
the apps depend one way (`campaign → battles → battles.engine`, the engine on nothing of the
site's); and the modules of each package import one another one way — a piece two of them share
lives in a module both import, never in one that imports the other back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("battles", "campaign", "config", "units")
PACKAGES = (
    "battles/engine/commanders",
    "campaign/pages",
    "campaign/rules",
    "campaign/selectors",
    "campaign/services",
    "campaign/table_forms",
    "campaign/transfer",
    "campaign/views",
)
MOST_LINES = 1000
DEPENDS_ON = {
    "battles.engine": set(),
    "units": {"battles.engine"},  # the rule texts' words for a card (keywords, terrain)
    "battles": {"battles.engine", "units", "config"},
    # The BUCS rules are plain Python over the cards' words; the reads write nothing.
    "campaign.rules": {"battles.engine", "units"},
    "campaign.selectors": {"campaign", "campaign.rules", "battles", "battles.engine", "units"},
}
"""What each part of the site may import of the others: the rest of ``campaign`` (its writes, its
pages, its views) stands above them all, and ``config`` composes the site (its URLs route to
every app's pages). ``campaign`` alone is the rest of it: its models and the like."""
PARTS = (
    "battles.engine",
    *(f"campaign.{layer}" for layer in ("rules", "selectors", "services", "pages", "views")),
    *APPS,
)
"""The parts of the site, each before any it lies inside."""


def _code() -> list[Path]:
    return sorted(
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    )


def _tests() -> list[Path]:
    return sorted((ROOT / "tests").rglob("*.py"))


def _long(paths: list[Path]) -> dict[str, int]:
    """Each of ``paths`` of a thousand lines or more, with its lines."""
    return {
        str(path.relative_to(ROOT)): lines
        for path in paths
        if (lines := len(path.read_text().splitlines())) >= MOST_LINES
    }


def test_no_module_of_the_site_reaches_a_thousand_lines():
    code = _code()
    assert len(code) > 100  # the site's code itself, not an empty folder
    assert _long(code) == {}


def test_no_module_of_the_tests_reaches_a_thousand_lines():
    tests = _tests()
    assert len(tests) > 100  # the tests themselves, not an empty folder
    assert _long(tests) == {}


def _part(module: str) -> str:
    """The part of the site a dotted module belongs to (`PARTS`), or "" for a module from
    outside the site."""
    return next((part for part in PARTS if module == part or module.startswith(part + ".")), "")


def _runs(tree: ast.Module) -> ast.Module:
    """``tree`` without what is imported for type checking only (which runs nothing)."""
    for block in ast.walk(tree):
        if isinstance(block, ast.If) and ast.unparse(block.test).endswith("TYPE_CHECKING"):
            block.body = []
    return tree


def _parts_in(source: str, part: str) -> set[str]:
    """The other parts of the site a module of ``part`` whose text is ``source`` imports."""
    found = set()
    for node in ast.walk(_runs(ast.parse(source))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(_part(node.module))
        elif isinstance(node, ast.Import):
            found.update(_part(alias.name) for alias in node.names)
    return found - {"", part}


def _parts_imported(part: str) -> dict[str, set[str]]:
    """The other parts of the site each module of ``part`` imports when it runs, by module."""
    found = {}
    for path in _code():
        module = path.relative_to(ROOT)
        if _part(".".join(module.with_suffix("").parts)) == part:
            found[str(module)] = _parts_in(path.read_text(), part)
    return {module: others for module, others in found.items() if others}


@pytest.mark.parametrize("part", DEPENDS_ON)
def test_the_parts_of_the_site_depend_one_way(part):
    imported = _parts_imported(part)
    beyond = {module: others - DEPENDS_ON[part] for module, others in imported.items()}
    assert {module: others for module, others in beyond.items() if others} == {}
    # Each part that may import another does: the walk reads the code, not an empty folder.
    assert bool(imported) == bool(DEPENDS_ON[part])


def test_an_import_of_a_part_above_is_found():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from battles.engine import ENGINE_VERSION\n"
        "if TYPE_CHECKING:\n"
        "    from units.models import UnitType\n"
        "def home():\n"
        "    import campaign.services.battles\n"
    )
    # Imported inside a function it still runs; for type checking only, it does not.
    assert _parts_in(source, "battles") == {"battles.engine", "campaign.services"}
    assert _part("battles.views") == "battles" and _part("django.urls") == ""
    assert _part("campaign.selectors.roster") == "campaign.selectors"
    assert _part("campaign.models") == "campaign"


def _imports(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of it that it imports when it runs: at its top
    or inside a function (an import for type checking only runs nothing)."""
    dotted = ".".join(package.relative_to(ROOT).parts)
    modules = {path.stem for path in package.glob("*.py")} - {"__init__"}
    imported: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        names = set()
        for node in ast.walk(_runs(ast.parse(path.read_text()))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 1:  # from .x import y, from . import x
                target = node.module or ""
                names.add(target.split(".")[0])
                if not target:
                    names.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith(dotted + "."):
                names.add(node.module.removeprefix(dotted + ".").split(".")[0])
            elif node.module == dotted:
                names.update(alias.name for alias in node.names)
        imported[path.stem] = names & modules - {path.stem}
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


@pytest.mark.parametrize("package", PACKAGES)
def test_a_packages_modules_import_one_another_one_way(package):
    imported = _imports(ROOT / package)
    assert len(imported) > 2 and any(imported.values())  # modules that import one another
    assert _circle(imported) == []


def test_a_circle_is_found_where_there_is_one():
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) == []
