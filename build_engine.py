"""Compile the battle engine (``battles/engine/``) with mypyc for the Docker image.

    python build_engine.py            # in the image's copy of the project (the Dockerfile)
    python build_engine.py --clean    # remove the compiled modules

It needs a C compiler and Python's headers, and builds only in a copy of the project that is
not a git working tree: the image, or the scratch copy CI tests it in (``.ci/run``). A working
tree always runs the engine from source, the one engine developers read and edit. The compiled
modules sit beside the source and Python imports them first; the build records a digest of the
source it compiled, and ``battles/compiled.py`` runs the source instead should a file change
since. The compiled engine plays the same battles, die for die (``tests/test_compiled_engine.py``).
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
(they subclass built-in types); the events stay source as they always have.
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
        return 0
    if (ROOT / ".git").exists():
        print(
            "build_engine.py: this is a git working tree, which runs the engine from source; "
            "the Docker image compiles it (and .ci/run, in a scratch copy)",
            file=sys.stderr,
        )
        return 2
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
