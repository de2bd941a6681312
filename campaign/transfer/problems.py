"""An import's problems as the import page and the command line tell them: each at its path, with
the names of the things along it.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

PATH_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _named(path: str, data: Any) -> str:
    """The names along ``path`` in ``data`` ("forces[1].units[0].quality" → "Blue Battalion ›
    Scout Car"): each thing in a list that has a name, so a problem reads by what it is about,
    not only by its place in the file."""
    names: list[str] = []
    here = data
    for key, index in PATH_STEP.findall(path):
        if index:
            if not isinstance(here, list) or int(index) >= len(here):
                break
            here = here[int(index)]
            # A thing in a list is told by its name; an invitation, by whom it invites.
            name = here.get("name", here.get("invitee")) if isinstance(here, dict) else None
            if isinstance(name, str) and name.strip():
                names.append(name.strip())
        elif isinstance(here, dict) and key in here:
            here = here[key]
        else:
            break
    return " › ".join(names)


def import_problems(error: ValidationError, data: Any) -> list[dict[str, str]]:
    """Each problem with where it is in the file (``path``, and the names along it); one about
    the whole file (that it is no export of ours at all) has no path: it is a sentence."""
    if not hasattr(error, "error_dict"):
        return [{"problem": problem} for problem in error.messages]
    return [
        {"problem": problem}
        if path == NON_FIELD_ERRORS
        else {"path": path, "named": _named(path, data), "problem": problem}
        for path, problems in error.message_dict.items()
        for problem in problems
    ]


def import_problem_text(problem: dict[str, str]) -> str:
    """One of `import_problems` as a line of text (the command line's; the import page marks the
    same parts up): "forces[0].units[1].experience (Red Company › 1st Squad): …"."""
    if "path" not in problem:
        return problem["problem"]
    named = f" ({problem['named']})" if problem["named"] else ""
    return f"{problem['path']}{named}: {problem['problem']}"
