"""Compile the battle engine (``battles/engine/``) with mypyc: battles play about twice as fast.

    .venv/bin/pip install -r requirements-build.txt   # mypy (with mypyc) and setuptools
    .venv/bin/python build_engine.py                   # compile in place (about a minute)
    .venv/bin/python build_engine.py --clean           # remove the compiled modules

It needs a C compiler and Python's headers. The engine stays the same Python source: the
compiled modules sit beside it, and Python imports them first. The build records a digest of
the source it compiled; ``battles/compiled.py`` checks it at import and runs the source instead
when a file has changed since, so an edit never runs stale. The compiled engine plays the same
battles, die for die (``tests/test_compiled_engine.py``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
ENGINE_DIR = ROOT / "battles" / "engine"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BRIDGEHEAD_ENGINE", "source")  # This process reads the source only.

from battles.compiled import DIGEST_FILE, source_digest  # noqa: E402

LEFT_AS_SOURCE = {
    "__main__.py",
    "cli.py",
    "errors.py",
    "events.py",
    "actions.py",
    "loader.py",
    "validation.py",
}
"""Modules left as Python, beside the compiled rest. Some mypyc cannot compile: the exceptions
(they subclass built-in types) and the events (their classes get a generated ``__init__``).
The rest take what the engine does not trust: the command line, the actions a commander returns
and the scenario JSON the loader checks. Compiled code enforces the types it declares, so
malformed input there would meet a TypeError instead of the error that says what is wrong."""

SHARED = "battles_engine"
"""The library the compiled modules share, at the project's top (mypyc finds the packages
relative to it)."""


def compiled_files() -> list[Path]:
    """The extension modules of a build: one per module, and the library they share."""
    shared = sorted(ROOT.glob(f"{SHARED}__mypyc*.so"))
    return sorted(ENGINE_DIR.rglob("*.so")) + shared


def clean() -> None:
    """Remove the compiled modules, their digest and mypyc's intermediate files."""
    for path in [*compiled_files(), ENGINE_DIR / DIGEST_FILE]:
        path.unlink(missing_ok=True)
    shutil.rmtree(ROOT / "build", ignore_errors=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    digest = source_digest(ENGINE_DIR)
    modules = [
        str(p.relative_to(ROOT))
        for p in sorted(ENGINE_DIR.rglob("*.py"))
        if p.name not in LEFT_AS_SOURCE
    ]
    setup(
        name="bridgehead-engine",
        packages=[],  # Only the extensions: no package discovery over the project.
        py_modules=[],
        ext_modules=mypycify(
            ["--ignore-missing-imports", *modules],
            group_name=SHARED,
            target_dir=str(ROOT / "build" / "engine"),
        ),
        script_args=[
            "--quiet",
            "build_ext",
            "--inplace",
            "--build-temp",
            str(ROOT / "build" / "temp"),
        ],
    )
    (ENGINE_DIR / DIGEST_FILE).write_text(digest + "\n")
    print(f"compiled {len(modules)} engine modules into {len(compiled_files())} extension files")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    os.chdir(ROOT)
    if args.clean:
        clean()
        print("removed the compiled engine modules: the engine runs from source")
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
