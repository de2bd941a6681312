"""Secrets come only from the environment: no password, key or token is written in the code,
except the documented development defaults (the development SECRET_KEY) and the demo logins."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from campaign.demo import DEMO_LOGINS
from config import settings as project_settings

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("config", "campaign", "battles", "units")
SECRET_NAME = re.compile(r"secret|passw|pwd|token|api_?key|private_?key|credential|auth_?key", re.I)
SECRET_TEXT = [
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # an AWS access key id
    re.compile(r"\b(?:ghp|gho|github_pat|xox[bap]|sk_live)_[A-Za-z0-9_]{16,}"),
    re.compile(r"[a-z][a-z0-9+.-]*://[^/\s:@'\"]+:[^@\s'\"{}]+@"),  # a URL with user:password@
]
ALLOWED = {
    # The development key: refused in production (config/settings.py; tests/test_production.py).
    ("config/settings.py", "DEVELOPMENT_SECRET_KEY"),
}
DEMO_FILE = "campaign/demo.py"
"""Holds the demo logins, which README.md lists for anyone to use."""


def _files() -> list[Path]:
    return sorted(
        path
        for folder in SCANNED
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".json", ".toml", ".yml", ".yaml", ".cfg", ".ini", ".txt"}
        and "migrations" not in path.parts
        and "__pycache__" not in path.parts
    )


def _literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(node.value)


def _name_of(target: ast.AST) -> str | None:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def secrets_in_python(source: str, relative: str) -> list[str]:
    """Names of secret-looking things given a literal value in ``source``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        pairs: list[tuple[str | None, ast.AST | None]] = []
        if isinstance(node, ast.Assign):
            pairs += [(_name_of(t), node.value) for t in node.targets]
        elif isinstance(node, ast.AnnAssign):
            pairs.append((_name_of(node.target), node.value))
        elif isinstance(node, ast.Call):
            pairs += [(k.arg, k.value) for k in node.keywords]
            # env.str("SECRET_KEY", default="...") reads the environment; its default is code.
            if node.args and _literal(node.args[0]):
                pairs += [
                    (node.args[0].value, k.value) for k in node.keywords if k.arg == "default"
                ]
        elif isinstance(node, ast.Dict):
            pairs += [
                (k.value if isinstance(k, ast.Constant) else None, v)
                for k, v in zip(node.keys, node.values, strict=True)
            ]
        for name, value in pairs:
            secret = isinstance(name, str) and SECRET_NAME.search(name) and _literal(value)
            if secret and (relative, name) not in ALLOWED:
                found.append(f"{relative}: {name} = {value.value!r}")
    return found


def secrets_in_text(text: str, relative: str) -> list[str]:
    return [f"{relative}: {m.group(0)[:40]}..." for p in SECRET_TEXT for m in p.finditer(text)]


def test_the_scanner_finds_planted_secrets():
    planted = (
        'API_TOKEN = "abc"\nconnect(password="hunter2")\nX = {"secret": "s"}\n'
        'URL = "postgres://app:hunter2@db/x"\n'
    )
    found = secrets_in_python(planted, "x.py") + secrets_in_text(planted, "x.py")
    assert len(found) == 4, found
    assert not secrets_in_python('SECRET_KEY = env.str("SECRET_KEY", default="")\n', "x.py")


def test_no_secret_is_written_in_the_code():
    found: list[str] = []
    for path in _files():
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        found += secrets_in_text(text, relative)
        if path.suffix == ".py" and relative != DEMO_FILE:
            found += secrets_in_python(text, relative)
    assert not found, "hard-coded secrets:\n" + "\n".join(found)


def test_the_demo_logins_are_the_documented_ones_and_only_in_the_demo():
    readme = (ROOT / "README.md").read_text()
    for username, password, _ in DEMO_LOGINS:
        assert f"`{username}` / `{password}`" in readme
        for path in _files():
            if path.relative_to(ROOT).as_posix() != DEMO_FILE:
                assert password not in path.read_text(encoding="utf-8", errors="replace"), path


def test_production_takes_the_secret_key_from_the_environment_only():
    source = (ROOT / "config" / "settings.py").read_text()
    assert 'SECRET_KEY = env.str("SECRET_KEY", default="")' in source
    assert project_settings.DEVELOPMENT_SECRET_KEY in source
