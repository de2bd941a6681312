"""Checks of the lines of an imported campaign's own story."""

from __future__ import annotations

from typing import Any

from campaign.models import STORY_TEXT, StoryEntry
from campaign.transfer.checker import Checker, check_text, check_whole, created_at_problem

STORY_KEYS = ("day", "kind", "text", "created_at")


def check_story(c: Checker, path: str, data: Any, *, day: int) -> list[dict[str, Any]]:
    """The lines of the campaign's own story (`StoryEntry`: its people's changes, the GM's
    notes), each a sentence of its kind on a day of the campaign."""

    def one(at: str, line: dict[str, Any]) -> None:
        check_whole(c, f"{at}.day", line["day"], 1, day)
        if not isinstance(line["kind"], str) or line["kind"] not in StoryEntry.Kind.values:
            c.error(f"{at}.kind", f"must be one of {', '.join(StoryEntry.Kind.values)}")
        check_text(c, f"{at}.text", line["text"], STORY_TEXT, empty=False)
        if problem := created_at_problem(line["created_at"]):
            c.error(f"{at}.created_at", problem)

    return c.records(path, data, STORY_KEYS, one)
