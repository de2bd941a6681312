"""The rule documents name real tests: every `file::test` that docs/rules.md, docs/campaign.md,
docs/bucs-choices.md or docs/scenario.md cites is a test function in a file of that name under
tests/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
DOCS = {"rules.md": 30, "campaign.md": 30, "bucs-choices.md": 30, "scenario.md": 10}
"""Each document that cites tests, with fewer cites than it has (a check that the pattern still
finds them)."""
CITE = re.compile(r"`([\w/]*test_\w+\.py)::(test_\w+)`")


def _defines(path: Path, name: str) -> bool:
    return bool(re.search(rf"^\s*(async )?def {name}\b", path.read_text(), re.M))


@pytest.mark.parametrize("doc", DOCS)
def test_every_test_a_rule_document_names_exists(doc):
    cited = set(CITE.findall((ROOT / "docs" / doc).read_text()))
    assert len(cited) > DOCS[doc]
    tests = sorted((ROOT / "tests").rglob("test_*.py"))
    missing = []
    for file, name in sorted(cited):
        # A cite is a path from tests/ or from the file's own folder: match it as a suffix.
        found = [p for p in tests if f"/{p.relative_to(ROOT).as_posix()}".endswith(f"/{file}")]
        if not any(_defines(path, name) for path in found):
            missing.append(f"{file}::{name}")
    assert not missing, missing
