"""docs/campaign.md names real tests: every `file::test` it cites exists."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "campaign.md"


def test_every_test_named_in_campaign_md_exists():
    cited = set(re.findall(r"`((?:units/)?test_\w+\.py)::(test_\w+)`", DOC.read_text()))
    assert len(cited) > 80
    missing = []
    for file, name in sorted(cited):
        path = HERE.parent / file if file.startswith("units/") else HERE / file
        if not path.exists() or not re.search(rf"^def {name}\b", path.read_text(), re.M):
            missing.append(f"{file}::{name}")
    assert not missing, missing
