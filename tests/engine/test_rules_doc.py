"""docs/rules.md names real tests: every `file::test` it cites exists."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
RULES = HERE.parents[1] / "docs" / "rules.md"


def test_every_test_named_in_rules_md_exists():
    cited = set(re.findall(r"`(test_\w+\.py)::(test_\w+)`", RULES.read_text()))
    assert len(cited) > 150
    missing = []
    for file, name in sorted(cited):
        path = HERE / file
        if not path.exists() or not re.search(rf"^def {name}\b", path.read_text(), re.M):
            missing.append(f"{file}::{name}")
    assert not missing, missing
