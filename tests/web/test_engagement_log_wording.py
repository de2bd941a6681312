"""How an engagement's log tells a pairing's hits and a leader's wounds, in sentences."""

from html import unescape
from types import SimpleNamespace

from django.template.loader import render_to_string

from campaign.views.engagements import engagement_log

SIDES = {"attackers": "Red Company", "defenders": "Blue Battalion"}


def _unit(side, key, name, leader="Sgt Holt"):
    return {"event": "unit", "side": side, "unit": key, "name": name, "quality": "Average",
            "leader": leader, "order": None, "commanded_by": None}  # fmt: skip


def _roll(key, name, total):
    return {"unit": key, "name": name, "d20": total, "modifiers": [], "total": total}


def _log(*events, leader="Sgt Holt"):
    record = SimpleNamespace(
        campaign_id=1,
        events=[_unit("attackers", "a", "Iron Wolf"), _unit("defenders", "d", "Sappers", leader),
                {"event": "round", "round": 1, "pinned": {}}, *events],
    )  # fmt: skip
    html = render_to_string("campaign/_engagement_log.html", {"log": engagement_log(record, SIDES)})
    return unescape(" ".join(html.split()))


def _pairing(hits):
    return {"event": "pairing", "round": 1, "attackers": _roll("a", "Iron Wolf", 20),
            "defenders": _roll("d", "Sappers", 5), "margin": 15, "winner": "attackers",
            "hits": hits, "driven_back": None}  # fmt: skip


def _hit(kind="morale"):
    return {"event": "hit", "round": 1, "unit": "d", "kind": kind, "ignored": None}


def test_a_name_ending_in_s_takes_the_apostrophe_alone():
    from units.words import possessive

    assert possessive("Sappers") == "Sappers'"
    assert possessive("Iron Wolf") == "Iron Wolf's"
    text = _log(
        _pairing(1),
        _hit("casualty"),
        {"event": "leader", "round": 1, "unit": "d", "rolls": [3, 4, 5], "hit_points": 0,
         "died": True},
        {"event": "leader_died", "round": 1, "unit": "d", "morale_hits": 2},
        leader=None,  # a log that kept no leader's name says whose leader it was
    )  # fmt: skip
    assert "Sappers' leader took 3d6: 3, 4, 5 → dead." in text
    assert "Sappers' leader died" in text
    assert "Sappers's" not in text


def test_a_leaders_wounds_and_death_name_the_leader_and_the_unit_it_leads():
    """The GM reads whose hit points the dice took, by the character's name, as the line-up
    names it, not "Sappers' leader"."""
    text = _log(
        _pairing(1),
        _hit("casualty"),
        {"event": "leader", "round": 1, "unit": "d", "rolls": [3, 4, 5], "hit_points": 0,
         "died": True},
        {"event": "leader_died", "round": 1, "unit": "d", "morale_hits": 2},
    )  # fmt: skip
    assert "Sgt Holt, leading Sappers, took 3d6: 3, 4, 5 → dead." in text
    assert "Sgt Holt, leading Sappers, died: 2 Morale hits at once" in text


def test_hits_a_broken_unit_never_took_are_said_not_to_have_landed():
    """The damage split is each unit's, per round: a unit broken is out, so a pairing's hits
    after the one that broke it never land, and the log says so rather than drop them."""
    text = _log(
        _pairing(2), _hit(), {"event": "broken", "round": 1, "unit": "d", "removed": "retreated"}
    )
    assert "2 hits; the first broke Sappers, so the second never landed" in text
    assert "Sappers retreated in poor order." in text
    text = _log(
        _pairing(4),
        _hit(),
        _hit("casualty"),
        {"event": "broken", "round": 1, "unit": "d", "removed": "destroyed"},
    )
    assert "4 hits; the first 2 broke Sappers, so the other 2 never landed" in text
    # Every hit landed: nothing to say.
    text = _log(
        _pairing(1), _hit(), {"event": "broken", "round": 1, "unit": "d", "removed": "retreated"}
    )
    assert "never landed" not in text


def test_a_hit_kit_ignored_before_the_break_is_said_to_have_been_ignored():
    """A hit Armor or Excellent equipment ignores still takes its turn among a pairing's hits:
    the hits before the break count it, and say it was ignored rather than that it broke."""

    def ignored(kind, by):
        return {**_hit(kind), "ignored": by}

    broken = {"event": "broken", "round": 1, "unit": "d", "removed": "retreated"}
    text = _log(_pairing(4), _hit(), ignored("casualty", "armor"), _hit(), broken)
    assert "4 hits; the first 3 (Armor ignored one) broke Sappers, so the last never landed" in text
    assert "Sappers took a Casualty hit — ignored (Armor)." in text
    text = _log(
        _pairing(5),
        ignored("morale", "excellent"),
        ignored("casualty", "armor"),
        _hit(),
        _hit("casualty"),
        {**broken, "removed": "destroyed"},
    )
    assert (
        "5 hits; the first 4 (Excellent equipment ignored one, Armor one) broke Sappers, "
        "so the last never landed"
    ) in text
    assert "Sappers took a Morale hit — ignored (Excellent equipment)." in text


def test_a_round_that_happened_is_told_in_the_past_as_a_battles_story_is():
    """A round's pairing says it was "won by 3"; what followed is told in the same tense."""
    tie = {**_pairing(0), "winner": None, "margin": 0}
    text = _log(
        tie,
        _pairing(2),
        {**_hit(), "fights_as": "Inexperienced"},
        _hit("casualty"),
        {"event": "broken", "round": 1, "unit": "d", "removed": "destroyed"},
    )
    assert "a tie: nothing happened" in text
    assert "Sappers took a Morale hit: it then fought as Inexperienced." in text
    assert "Sappers was destroyed." in text
    for present in ("happens", "takes a", "now fights", "is destroyed", "retreats"):
        assert present not in text, present


def test_the_line_up_says_a_stated_situation_that_pins_nobody_and_why():
    """The GM who ticked "fire from several directions" for an Armor unit reads, beside it,
    that it did not pin it and why (`rules.engagement`'s ``unpinned``)."""
    record = SimpleNamespace(
        campaign_id=1,
        events=[
            _unit("attackers", "a", "Iron Wolf"),
            {**_unit("defenders", "d", "Sappers"),
             "unpinned": ["fire from several directions — Armor facing no enemy Armor"]},
        ],
    )  # fmt: skip
    html = render_to_string("campaign/_engagement_log.html", {"log": engagement_log(record, SIDES)})
    text = unescape(" ".join(html.split()))
    assert (
        "Sappers (Average), led by Sgt Holt; not Pinned Down by fire from several directions "
        "— Armor facing no enemy Armor" in text
    )
    assert text.count("not Pinned Down") == 1
