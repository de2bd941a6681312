"""The hit boxes beside a unit's status say which hits they are by more than colour."""

from __future__ import annotations

from tests.web.test_dark_mode import STATIC, _rules


def test_the_hit_boxes_tell_morale_from_casualty_by_more_than_colour():
    """Brown and red are one colour to many colour-blind players: a Morale hit's box is
    hatched and a Casualty hit's solid, on the screen as on the printed cards."""

    def painted(sheet: str, selector: str) -> str:
        rules = _rules((STATIC / sheet).read_text())
        return next(d["background"] for m, s, d in rules if s == selector and m is None)

    for sheet, morale, casualty in [
        ("campaign/campaign.css", ".pip-morale", ".pip-casualty"),
        ("campaign/card.css", ".box-morale", ".box-casualty"),
    ]:
        assert "repeating-linear-gradient(45deg" in painted(sheet, morale), sheet
        assert "gradient" not in painted(sheet, casualty), sheet
