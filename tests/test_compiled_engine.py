"""The compiled engine (``build_engine.py``): it plays the same battles as the source, and a
build older than its source never runs.

The tests that need a build skip where the engine is not compiled (a fresh clone); CI compiles
it and sets ``BRIDGEHEAD_REQUIRE_COMPILED=1``, and there they fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from battles.compiled import DIGEST_FILE, ENGINE_DIR, engine_is_compiled, is_stale, source_digest

ROOT = Path(__file__).resolve().parent.parent

# Each bundled scenario, a few seeds, both commanders: the log's digest per battle.
_DIGESTS = """
import hashlib, json, sys
from pathlib import Path
from battles.compiled import engine_is_compiled
from battles.engine import DefaultCommander, SimpleCommander, load_scenario, run_battle
out = {"compiled": engine_is_compiled(), "logs": {}}
for path in sorted(Path("battles/engine/scenarios").glob("*.json")):
    sc = load_scenario(path)
    for seed in range(4):
        for policy in (DefaultCommander, SimpleCommander):
            rec = run_battle(sc, seed, commanders={s.id: policy() for s in sc.sides})
            key = f"{path.stem}/{seed}/{policy.__name__}"
            out["logs"][key] = hashlib.sha256(rec.log_json().encode()).hexdigest()
print(json.dumps(out))
"""


def _python(code: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "BRIDGEHEAD_ENGINE"} | env
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=environ, capture_output=True, text=True
    )


def _needs_build() -> None:
    if engine_is_compiled():
        return
    message = "the engine does not run compiled here (build_engine.py compiles it)"
    if os.environ.get("BRIDGEHEAD_REQUIRE_COMPILED") == "1":
        pytest.fail(f"{message}, but BRIDGEHEAD_REQUIRE_COMPILED=1 demands it")
    pytest.skip(message)


def test_a_source_digest_changes_with_any_engine_file(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "sub" / "b.py").write_text("B = 2\n")
    first = source_digest(tmp_path)
    assert source_digest(tmp_path) == first
    (tmp_path / "sub" / "b.py").write_text("B = 3\n")
    assert source_digest(tmp_path) != first
    (tmp_path / "sub" / "b.py").write_text("B = 2\n")
    assert source_digest(tmp_path) == first
    (tmp_path / "sub" / "b.py").rename(tmp_path / "sub" / "c.py")
    assert source_digest(tmp_path) != first


def test_a_build_is_stale_once_its_source_has_changed(tmp_path):
    (tmp_path / "a.py").write_text("A = 1\n")
    assert not is_stale(tmp_path)  # never built
    (tmp_path / DIGEST_FILE).write_text(source_digest(tmp_path) + "\n")
    assert not is_stale(tmp_path)
    (tmp_path / "a.py").write_text("A = 2\n")
    assert is_stale(tmp_path)


def test_the_compiled_engine_plays_the_same_battles_as_the_source():
    _needs_build()
    compiled = _python(_DIGESTS)
    source = _python(_DIGESTS, BRIDGEHEAD_ENGINE="source")
    assert compiled.returncode == 0, compiled.stderr
    assert source.returncode == 0, source.stderr
    a, b = json.loads(compiled.stdout), json.loads(source.stdout)
    assert (a["compiled"], b["compiled"]) == (True, False)
    assert len(a["logs"]) >= 7 * 4 * 2
    assert a["logs"] == b["logs"]


def test_a_build_older_than_its_source_is_passed_over_for_the_source(tmp_path):
    _needs_build()
    shutil.copytree(ENGINE_DIR, tmp_path / "battles" / "engine")
    for name in ("__init__.py", "compiled.py"):
        shutil.copy(ENGINE_DIR.parent / name, tmp_path / "battles" / name)
    for shared in ROOT.glob("battles_engine__mypyc*"):
        shutil.copy(shared, tmp_path)
    where = "import battles.engine.battle as b; print(b.__file__)"

    fresh = _python(where, cwd=tmp_path)
    assert fresh.returncode == 0, fresh.stderr
    assert not fresh.stdout.strip().endswith(".py"), fresh.stdout

    dice = tmp_path / "battles" / "engine" / "dice.py"
    dice.write_text(dice.read_text() + "\n# edited since the build\n")
    stale = _python(where, cwd=tmp_path)
    assert stale.returncode == 0, stale.stderr
    assert stale.stdout.strip().endswith("battle.py"), stale.stdout
    assert "source has changed since it was compiled" in stale.stderr


def test_asked_for_the_source_the_engine_runs_from_source():
    _needs_build()
    found = _python(
        "import battles.engine.battle as b, battles.engine.commanders.default as d; "
        "print(b.__file__, d.__file__)",
        BRIDGEHEAD_ENGINE="source",
    )
    assert found.returncode == 0, found.stderr
    assert all(f.endswith(".py") for f in found.stdout.split()), found.stdout


def test_clean_removes_the_build_and_its_intermediate_files(tmp_path, monkeypatch):
    import build_engine

    engine = tmp_path / "battles" / "engine"
    (engine / "commanders").mkdir(parents=True)
    (tmp_path / "build" / "temp").mkdir(parents=True)
    planted = [
        engine / "dice.cpython-311-x86_64-linux-gnu.so",
        engine / "commanders" / "default.cpython-311-x86_64-linux-gnu.so",
        engine / DIGEST_FILE,
        tmp_path / f"{build_engine.SHARED}__mypyc.cpython-311-x86_64-linux-gnu.so",
        tmp_path / "build" / "temp" / "dice.o",
    ]
    for path in planted:
        path.write_text("built")
    (engine / "dice.py").write_text("# source\n")
    monkeypatch.setattr(build_engine, "ROOT", tmp_path)
    monkeypatch.setattr(build_engine, "ENGINE_DIR", engine)

    build_engine.clean()

    assert not any(path.exists() for path in planted)
    assert not (tmp_path / "build").exists()
    assert (engine / "dice.py").read_text() == "# source\n"
