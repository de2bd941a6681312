"""Every place that takes JSON from a person reads it one way (`battles.jsontext.read_json`)
and refuses it in words they can act on, never with a crash."""

from __future__ import annotations

import pytest

from battles.jsontext import read_json


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the scenario is empty"),
        ("{oops", "the scenario is not JSON: expecting property name enclosed in double quotes"),
        ('{"a": NaN}', "NaN is not a number JSON allows"),
        (b"\xff\xfe", "the scenario is not UTF-8 text"),
        ("[" * 100_000 + "]" * 100_000, "the scenario is nested far too deep to read"),
        ('{"a": ' + "1" * 4301 + "}", "the scenario holds a number far too long to read"),
    ],
)
def test_what_is_not_json_we_can_read_is_refused_in_plain_words(text, message):
    with pytest.raises(ValueError) as refused:
        read_json(text, "the scenario")
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": [1, 2', "the file is cut short: it stops at line 1 before its JSON is closed"),
        ('{\n "a": "Blue Batt', "the file is cut short: it stops at line 2 before its JSON"),
        ('{\n "a": [1, \n\n', "the file is cut short: it stops at line 2 before its JSON"),
    ],
)
def test_a_file_cut_short_is_said_to_be(text, message):
    # A half-downloaded export, a paste cut off: json's own words name a place in the middle.
    with pytest.raises(ValueError) as refused:
        read_json(text)
    assert str(refused.value).startswith(message)


def test_json_s_reasons_ending_in_at_are_said_once():
    with pytest.raises(ValueError) as refused:
        read_json('{"a": "x\ny"}')
    said = "the file is not JSON: invalid control character at line 1, column 9"
    assert str(refused.value) == said


def test_a_byte_order_mark_is_read_past_as_text_or_as_bytes():
    assert read_json('\ufeff{"a": 1}') == {"a": 1}
    assert read_json('\ufeff{"a": 1}'.encode()) == {"a": 1}
