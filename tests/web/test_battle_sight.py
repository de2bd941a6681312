"""A battle's page and the battles' JSON under "Other players' forces: summary only": a unit of
a force the reader sees in summary is named, and no more — neither its card nor what the battle
did to it — with fog of war or without, and reads the battle's log, replay, map and download as
under fog of war; the GM and whoever sees every force read it all."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Campaign
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}

OWN_ROW = 'Squad 1 <span class="small">Rifle Squad</span>'
"""The player's unit's row in the units table (Red Company's, on the scenario's blue side)."""
RIVAL_ROW = 'Iron Wolf <span class="small">Mech</span>'
"""The rival's unit's row (Blue Battalion's, on the red side)."""


def _set(world, *, sight: str, fog: bool) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible=sight, fog_of_war=fog)


def _page(client, world, role: str) -> str:
    url = reverse("campaign:battle", args=[world.campaign.pk, world.engine_battle.pk])
    return html.unescape(login(client, world, role).get(url).text)


def _section(page: str, heading: str) -> str:
    """The report's section under ``heading`` (its id), up to the section's end."""
    start = page.index(f'id="{heading}"')
    return page[start : page.index("</section>", start)]


def _luck_sides(page: str) -> list[str]:
    """The sides the luck summary speaks of, one sentence each."""
    return re.findall(r"<li>(Red Company|Blue Battalion)(?: |'s )[^<]+\.</li>", page)


@pytest.mark.parametrize("fog", [False, True])
def test_a_player_reads_only_the_units_and_luck_of_the_forces_they_see_in_full(client, world, fog):
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=fog)
    page = _page(client, world, "player")
    units = _section(page, "units-heading")
    assert OWN_ROW in units and RIVAL_ROW not in units
    assert "Blue Battalion's 1 unit is left out: you see that force only in summary." in units
    assert _luck_sides(page) == ["Red Company"]
    assert "The luck of Blue Battalion is left out" in page
    # Under full rosters the same player reads every unit and both sides' luck.
    _set(world, sight=Campaign.Visibility.FULL, fog=fog)
    page = _page(client, world, "player")
    units = _section(page, "units-heading")
    assert OWN_ROW in units and RIVAL_ROW in units and "left out" not in units
    assert sorted(_luck_sides(page)) == ["Blue Battalion", "Red Company"]


@pytest.mark.parametrize("fog", [False, True])
def test_a_spectator_under_summary_reads_no_units_row_and_is_told_why(client, world, fog):
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=fog)
    page = _page(client, world, "spectator")
    units = _section(page, "units-heading")
    assert (
        OWN_ROW not in units
        and RIVAL_ROW not in units
        and "<table" not in units.split("Buildings")[0]
    )
    assert (
        "Red Company's 2 units and Blue Battalion's 1 unit are left out: the GM shows "
        "spectators every force in summary only." in units
    )
    assert _luck_sides(page) == []
    # The GM reads every unit still.
    units = _section(_page(client, world, "gm"), "units-heading")
    assert OWN_ROW in units and RIVAL_ROW in units and "left out" not in units


def _battle(client, world, role: str, name: str = "Crossroads") -> dict:
    login(client, world, role)
    url = reverse("campaign:battles-json", args=[world.campaign.pk])
    return next(b for b in client.get(url).json()["battles"] if b["name"] == name)


@pytest.mark.parametrize("fog", [False, True])
def test_the_battles_json_names_everything_and_gives_only_the_units_the_reader_sees(
    client, world, fog
):
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=fog)
    battle = _battle(client, world, "player")
    assert {s["name"] for s in battle["sides"]} == {"Red Company", "Blue Battalion"}
    named = {u["name"]: u["seen"] for s in battle["sides"] for u in s["units"]}
    assert named == {"Squad 1": "full", "Squad 2": "full", "Iron Wolf": "summary"}
    result = battle["engine_result"]
    assert {u["name"] for u in result["units"]} == {"Squad 1", "Squad 2"}
    assert {s["name"] for s in result["sides"]} == {"Red Company", "Blue Battalion"}
    said = {"turn_limit": "the turn limit", "side_eliminated": "a side was wiped out"}
    assert result["end_reason_text"] == said[result["end_reason"]]
    winner = battle["winner_name"]
    assert winner in ("Red Company", "Blue Battalion", None)
    assert battle["outcome"] == (f"{winner} won" if winner else "a draw")
    assert "Blue Army" not in str(battle) and "Red Army" not in str(battle)
    # The table's battle gives the losses of the reader's own units only.
    table = _battle(client, world, "player", "Skirmish at the mill")
    own = [u for s in table["sides"] for u in s["units"] if u["force"] == "Red Company"]
    assert set(table["table_result"]["units"]) == {str(u["id"]) for u in own}
    spectator = _battle(client, world, "spectator")
    assert spectator["engine_result"]["units"] == []
    assert spectator["engine_result"]["sides"] == result["sides"]
    everything = _battle(client, world, "gm")["engine_result"]["units"]
    assert {u["name"] for u in everything} == {"Squad 1", "Squad 2", "Iron Wolf"}
    assert {u["card"] for u in everything} == {"Rifle Squad", "Mech"}


def test_the_outcome_names_the_side_that_was_wiped_out(client, world):
    """The world's engine battle ended with Red Company's squads all destroyed: the verdict
    names it, so a draw or a win on points after it leaves nobody guessing whose side it was."""
    _set(world, sight=Campaign.Visibility.FULL, fog=False)
    verdict = re.sub(r"\s+", " ", _page(client, world, "player").split('class="verdict"')[1])
    verdict = verdict.split(">", 1)[1].split("</p>")[0]
    assert "(Red Company was wiped out)." in verdict and "a side was wiped out" not in verdict


def test_the_card_sheet_is_offered_only_to_whoever_would_get_cards_on_it(client, world):
    link = reverse("campaign:battle-cards", args=[world.campaign.pk, world.engine_battle.pk])
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=False)
    assert link not in _page(client, world, "spectator")
    for role in ("player", "rival", "gm"):
        assert link in _page(client, world, role), role
    _set(world, sight=Campaign.Visibility.FULL, fog=False)
    assert link in _page(client, world, "spectator")


LOG = "campaign:battle-log"
"""The battle's log download."""


def _battle_url(world, name: str = "campaign:battle") -> str:
    return reverse(name, args=[world.campaign.pk, world.engine_battle.pk])


def _notice(page: str) -> str:
    """The notice above the report saying how much of the battle the reader sees."""
    found = re.search(r'<p class="notice notice-warning" role="note">([^<]+)</p>', page)
    return found[1] if found else ""


def test_under_summary_without_fog_a_player_reads_the_battle_as_their_side_saw_it(client, world):
    """The full log, the replay, the map and the download would give the rival's unit's card,
    Skill, dice and hits: a player who sees the rival's force in summary reads every one of
    them as their side saw it, as fog of war would have them."""
    from battles.engine import parse_scenario
    from battles.frames import replay_frames, unseen_at_deployment
    from battles.selectors import log_events
    from tests.web.test_campaign_fog import _downloaded, _hidden, _log_count, _svg_units

    _set(world, sight=Campaign.Visibility.SUMMARY, fog=False)
    battle = world.engine_battle.battle
    scenario = parse_scenario(battle.scenario)
    total = len(log_events(battle.log))
    hidden = _hidden(world, "blue")
    frames = replay_frames(scenario, log_events(battle.log), viewer="blue", hidden=hidden)
    unseen = unseen_at_deployment(frames)
    # Iron Wolf, the rival's only unit, was concealed at deployment.
    assert unseen == {e for e, pk in world.engine_battle.engine_units.items()
                      if pk == world.enemy_unit.pk}  # fmt: skip
    page = _page(client, world, "player")
    assert _notice(page) == (
        "You see Blue Battalion only in summary: you see this battle as Red Company saw it — "
        "concealed enemy units and their dice stay hidden until revealed."
    )
    assert "Fog of war" not in page
    # The log: the rival's moves and dice out of sight are no events of hers.
    downloaded = len(_downloaded(client, world))
    assert downloaded == total - len(hidden)
    assert _log_count(page) == (downloaded, downloaded)
    assert "Blue Battalion activates a unit out of sight." in page
    # The map and its key draw no unit she could not see, so name no card or Skill of it.
    svg = page.split('<svg class="table-map', 1)[1].split("</svg>", 1)[0]
    assert _svg_units(page) == {u.id for u in scenario.units()} - unseen
    assert "Iron Wolf" not in svg and "Mech, Size 4" not in svg
    assert "Squad 1 (Red Company): Rifle Squad, Size 1, 1 Hit, Skill 3" in svg
    # The replay's frames, from which its notes and markers are drawn, are her side's.
    embedded = page.split('id="replay-frames"', 1)[1].split(">", 1)[1].split("</script>", 1)[0]
    assert [f["units"] for f in json.loads(embedded)["frames"]] == [
        f["units"] for f in json.loads(json.dumps(frames))["frames"]
    ]
    # The download is the log as her side saw it, without the seed or the
    # scenario's digest.
    stored = json.loads(battle.log.events)["events"]
    saw = [e for i, e in enumerate(stored) if i not in hidden]
    assert _downloaded(client, world) == [{**saw[0], "seed": None, "digest": None}, *saw[1:]]
    # The htmx log filter stays so too.
    part = login(client, world, "player").get(_battle_url(world) + "?kind=&as=", **HTMX).text
    assert "as Red Company saw them" in part
    # The rival reads it as Blue Battalion saw it.
    assert _notice(_page(client, world, "rival")).startswith(
        "You see Red Company only in summary: you see this battle as Blue Battalion saw it"
    )
    assert len(_downloaded(client, world)) == total - len(_hidden(world, "red"))
    # Under full rosters the same player reads the whole battle, as the GM does under summary.
    for sight, role in ((Campaign.Visibility.FULL, "player"), (Campaign.Visibility.SUMMARY, "gm")):
        _set(world, sight=sight, fog=False)
        page = _page(client, world, role)
        assert _notice(page) == "" and _log_count(page) == (total, total), role
        assert "Iron Wolf (Blue Battalion): Mech, Size 4" in page, role
        assert len(_downloaded(client, world)) == total, role


def test_under_summary_without_fog_a_member_with_no_units_in_it_reads_the_outcome_only(
    client, world
):
    from campaign.services import force_create, membership_set
    from tests.web.test_campaign_fog import _downloaded

    _set(world, sight=Campaign.Visibility.SUMMARY, fog=False)
    page = _page(client, world, "spectator")
    said = "The GM shows spectators every force in summary: you see this battle's outcome only."
    assert _notice(page) == said
    assert 'class="units-layer"' not in page and 'id="replay-frames"' not in page
    assert "activates" not in page and "Download the log" not in page
    assert _battle_url(world, LOG) not in page
    refused = client.get(_battle_url(world, LOG))
    assert refused.status_code == 403 and said in html.unescape(refused.text)
    # A player who sat it out is told the forces they see only in summary.
    User = get_user_model()
    third = User.objects.create_user("third")
    membership_set(campaign=world.campaign, user=third, role="player")
    force_create(campaign=world.campaign, owner=third, name="Green Guard")
    world.users["third"] = third
    page = _page(client, world, "third")
    assert _notice(page) == (
        "You see Blue Battalion and Red Company only in summary and had no units in this "
        "battle: you see this battle's outcome only."
    )
    assert client.get(_battle_url(world, LOG)).status_code == 403
    # Under full rosters both read and download the whole battle.
    _set(world, sight=Campaign.Visibility.FULL, fog=False)
    for role in ("spectator", "third"):
        page = _page(client, world, role)
        assert _notice(page) == "" and 'id="replay-frames"' in page, role
        assert _downloaded(client, world), role


@pytest.mark.parametrize(
    ("side_name", "fog_of_war", "spectator", "in_summary", "said"),
    [
        ("Red Company", True, False, (), "Fog of war: you see this battle as Red Company saw "
         "it — concealed enemy units and their dice stay hidden until revealed."),
        (None, True, False, (), "Fog of war: you had no units in this battle, so you see its "
         "outcome only; its log and replay are for the sides that fought."),
        (None, False, True, (), "The GM shows spectators every force in summary: you see this "
         "battle's outcome only."),
        (None, False, False, ("Blue Battalion",), "You see Blue Battalion only in summary and "
         "had no units in this battle: you see this battle's outcome only."),
        ("Red Company", False, False, ("Green Guards", "Blue Battalion", "Green Guards"),
         "You see Blue Battalion and Green Guards only in summary: you see this battle as Red "
         "Company saw it — concealed enemy units and their dice stay hidden until revealed."),
    ],
)  # fmt: skip
def test_a_battles_fog_notice_says_why_in_one_sentence(
    side_name, fog_of_war, spectator, in_summary, said
):
    """Each reason a battle's page shows a reader one side's view or its outcome only, in the
    sentence the page gives it: the forces seen in summary named once each, by name."""
    from campaign.pages.sight import fog_notice

    assert fog_notice(side_name=side_name, fog_of_war=fog_of_war, spectator=spectator,
                      in_summary=in_summary) == said  # fmt: skip
