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


def test_a_byte_order_mark_is_read_past_as_text_or_as_bytes():
    assert read_json('\ufeff{"a": 1}') == {"a": 1}
    assert read_json('\ufeff{"a": 1}'.encode()) == {"a": 1}
