"""A refusal a page shows is a sentence: a capital first and a stop last, however the service or
form wrote it. Services word refusals to be read after a field's name or a "Not done:" as much
as on their own, often with no stop ("…, not Scout Car of Blue Battalion"); the pages end them
(`sentences.as_sentence`, `sentences.full_stop`), so every refusal shown reads the same."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings

from campaign.templatetags.sentences import CLOSERS, SENTENCE_ENDS, as_sentence, full_stop
from tests.web.campaign_world import login
from tests.web.test_campaign_battles import _ready_all, _url


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("give the battle a name", "Give the battle a name."),
        ("At most 50 turns.", "At most 50 turns."),
        ("Is it yours?", "Is it yours?"),
        ("no Order “defend”", "No Order “defend”."),
        ("it is called “Hill 203.”", "It is called “Hill 203.”"),
        ("(as the rules say.)", "(as the rules say.)"),
        ("not a role: a list (one of Co-GM)", "Not a role: a list (one of Co-GM)."),
        ("sides[0].units[1].x: off the table", "sides[0].units[1].x: off the table."),
        ("", ""),
    ],
)
def test_a_refusal_is_shown_ending_with_one_stop_however_it_was_written(written, shown):
    assert as_sentence(written) == shown
    assert full_stop(full_stop(written)) == full_stop(written)


def _refusals(html: str) -> list[str]:
    """Each refusal the page shows beside a field or in an error summary, a line each."""
    found = re.findall(r'class="field-errors"[^>]*>(.*?)</span>', html, re.S)
    for summary in re.findall(r'class="form-errors"[^>]*>(.*?)</div>', html, re.S):
        found += re.findall(r"<(?:p|li)>(.*?)</(?:p|li)>", summary, re.S)
    lines = [line for said in found for line in re.split(r"<br>", said)]
    return [unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in lines]


def _ended(line: str) -> bool:
    return line.rstrip(CLOSERS).endswith(SENTENCE_ENDS)


@pytest.mark.django_db
def test_the_refusals_of_a_table_result_each_end_with_a_stop(client, world):
    """A table result refused for a unit's Hits beyond its card, then for its every Hit lost
    while it is said to have stayed: each refusal on the page ends a sentence."""
    units = _ready_all(world)
    red = next(u for u in units if u.force_id == world.force.pk)
    blue = next(u for u in units if u.force_id == world.enemy.pk)
    login(client, world, "gm")
    data = {"name": "Hill 203", "day": "1", "side_a": "Red", "side_b": "Blue", "winner": "b"}
    for unit in units:
        data.update({f"hits_lost_{unit.pk}": "0", f"skill_lost_{unit.pk}": "0",
                     f"removed_{unit.pk}": "none"})  # fmt: skip
    data.update({f"side_{red.pk}": "a", f"side_{blue.pk}": "b"})
    said = []
    for hits, why in (
        ("5", "at most 1 Hit can be lost, as many as its card has"),
        ("1", "every Hit lost means taken out: mark it Taken out"),
    ):
        refused = client.post(_url("battle-record", world), {**data, f"hits_lost_{red.pk}": hits})
        assert refused.status_code == 400
        shown = _refusals(refused.text)
        assert f"{red.name}: {why}." in shown
        said += shown
    assert [line for line in said if not _ended(line)] == []


TEMPLATES = Path(settings.BASE_DIR) / "templates"
ERRORS_LOOP = re.compile(r"\{% for (\w+) in [\w.]*errors\w*(?:\(\))? %\}(.*?)\{% endfor %\}", re.S)


def test_every_template_shows_a_forms_refusals_as_sentences():
    """A template that lists a form's errors ends each through the tag or the filter that do,
    and none prints a list of errors as Django draws it, with no stop of ours."""
    unended = []
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        if re.search(r"\{\{ [\w.]*errors(?:\|[\w:]+)? \}\}", text):
            unended.append(f"{template.name}: prints errors whole")
        for name, body in ERRORS_LOOP.findall(text):
            if f"{{% sentence {name} %}}" not in body and f"{name}|full_stop" not in body:
                unended.append(f"{template.name}: {name}")
    assert unended == []
