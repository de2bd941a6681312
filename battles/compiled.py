"""Whether the battle engine runs compiled, and the guard that keeps a stale build from running.

``build_engine.py`` compiles ``battles/engine/`` with mypyc: the compiled modules sit beside the
source, and Python imports a compiled module before its source. The build records a digest of
the source it compiled (``DIGEST_FILE``). On import of ``battles`` the digest is checked: when a
source file has changed since the build, the compiled modules are passed over for the source,
so an edit is never run stale. ``BRIDGEHEAD_ENGINE=source`` runs the source always.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ENGINE = "battles.engine"
ENGINE_DIR = Path(__file__).resolve().parent / "engine"
DIGEST_FILE = "compiled-from.sha256"
"""Beside the engine's source: the digest of the source the compiled modules were built from."""

log = logging.getLogger(__name__)


def source_digest(engine_dir: Path = ENGINE_DIR) -> str:
    """SHA-256 over the engine's Python files: their paths (relative) and contents, in order."""
    h = hashlib.sha256()
    for path in sorted(engine_dir.rglob("*.py")):
        h.update(path.relative_to(engine_dir).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def is_stale(engine_dir: Path = ENGINE_DIR) -> bool:
    """Whether the engine was compiled from source that has changed since."""
    recorded = engine_dir / DIGEST_FILE
    return recorded.exists() and recorded.read_text().strip() != source_digest(engine_dir)


class _SourceOnly(importlib.abc.MetaPathFinder):
    """Finds the engine's modules among their ``.py`` files only, passing over compiled ones."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != ENGINE and not fullname.startswith(ENGINE + "."):
            return None
        source = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path or ():
            spec = importlib.machinery.FileFinder(entry, source).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def guard() -> None:
    """Run the engine from source when asked to, or when its compiled modules are stale."""
    if any(isinstance(f, _SourceOnly) for f in sys.meta_path):
        return
    if os.environ.get("BRIDGEHEAD_ENGINE", "") != "source":
        if not is_stale():
            return
        log.warning(
            "battle engine: its source has changed since it was compiled, so the source runs "
            "(build_engine.py compiles it again)"
        )
    sys.meta_path.insert(0, _SourceOnly())


def engine_is_compiled() -> bool:
    """Whether the engine now imported runs compiled."""
    from battles.engine import battle

    return not (battle.__file__ or "").endswith(".py")
