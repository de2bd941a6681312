"""The README's two set-up commands are the ones CI and users really run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _setup_commands() -> list[str]:
    section = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, re.S)


def test_the_readme_has_exactly_two_set_up_commands():
    commands = _setup_commands()
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)
    run, test = commands
    assert run.endswith("manage.py serve")
    assert test.endswith("pytest")


def test_ci_runs_the_readme_test_command_word_for_word():
    _, test = _setup_commands()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci


def test_the_readme_says_how_a_group_starts_its_own_empty_site():
    """A group running its own campaigns needs the site without the demo and a first account:
    the README said neither, only the demo's logins."""
    section = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert "`manage.py serve --no-demo` starts the site empty" in section
    assert "manage.py createsuperuser" in section
    assert "the Library page loads the sample cards" in section
