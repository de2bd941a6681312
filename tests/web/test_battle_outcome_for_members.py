"""A battle's page tells every member what its outcome did to the units, or who acts next."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import HistoryEntry
from campaign.selectors.reviews import applied_changes
from campaign.services import entry_undo, leader_attach, unit_create, unit_edit, unit_move
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


@pytest.mark.parametrize("role", ["player", "rival", "spectator"])
def test_members_see_what_an_applied_outcome_changed(client, world, role):
    battle = world.engine_battle
    changed = {
        e.unit.name
        for e in HistoryEntry.objects.filter(pk__in=battle.applied_entries).select_related("unit")
    }
    assert changed
    page = login(client, world, role).get(_url("battle", world, battle.pk)).text
    assert "What it did to the units" in page and "What it changed:" in page
    assert '<table class="changes told">' in page
    for name in changed:
        assert f">{name}</a>" in page, name
    assert "Review and revert the outcome" not in page


def test_a_player_is_told_the_gm_reviews_an_outcome_first(client, world):
    page = login(client, world, "player").get(_url("battle", world, world.table_battle.pk)).text
    assert "The GM reviews the outcome before it reaches the units" in page
    assert "Review and apply the outcome" not in page


def _changes_table(page: str) -> str:
    start = page.index('<table class="changes told">')
    return page[start : page.index("</table>", start)]


@pytest.mark.parametrize("later", ["destroyed", "promoted", "led"])
def test_what_an_outcome_changed_stays_as_it_was_whatever_befalls_the_units_after(
    client, world, later
):
    # The summary tells each unit as the outcome left it: a unit destroyed, promoted or given
    # a leader since is not shown so in the battle's summary.
    battle = world.engine_battle
    url = _url("battle", world, battle.pk)
    first = _changes_table(login(client, world, "player").get(url).text)
    entry = HistoryEntry.objects.filter(pk__in=battle.applied_entries).select_related("unit")[0]
    unit, gm = entry.unit, world.users["gm"]
    if later == "destroyed":
        unit_edit(unit=unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    elif later == "promoted":
        unit_edit(unit=unit, changes={"quality": "legendary"}, reason="citation", actor=gm)
    else:
        leader_attach(unit=unit, name="Sgt. Later", hit_points=9, actor=gm)
    assert unit.history.order_by("-pk")[0].pk > max(battle.applied_entries)
    assert _changes_table(client.get(url).text) == first
    summary = {u.pk: after for u, _, after in applied_changes(campaign_battle=battle)}
    unit.refresh_from_db()
    assert summary[unit.pk] != unit.state  # what it is now is not what the outcome left


def _changed_units(response) -> list[str]:
    return [c.unit.name for c in response.context["changes"]]


def _changes_row(page, name):
    """The head of a unit's row in the table of what the outcome changed."""
    table = page.split('<table class="changes')[1].split("</table>")[0]
    return table.split(f">{name}</a>")[1].split("</th>")[0]


def test_a_unit_moved_since_is_under_the_force_it_fought_for_and_the_one_it_is_in_now(
    client, world
):
    gm = world.users["gm"]
    moved = unit_move(unit=world.unit, force=world.enemy, reason="detached", actor=gm)
    page = login(client, world, "gm").get(_url("battle", world, world.engine_battle.pk)).text
    row = _changes_row(page, world.unit.name)
    assert '<span class="small">Red Company, now in Blue Battalion</span>' in row
    # Moved back by its Undo, it is where it fought again.
    entry_undo(entry=moved, reason="it stays", actor=gm)
    page = client.get(_url("battle", world, world.engine_battle.pk)).text
    row = _changes_row(page, world.unit.name)
    assert '<span class="small">Red Company</span>' in row


def test_a_player_reads_their_own_units_first_marked_as_theirs(client, world):
    # On a phone each unit's changes fill a screen: a player's own units come first, marked
    # "yours", the others after them in the outcome's order, which the GM and a spectator keep.
    url = _url("battle", world, world.engine_battle.pk)
    neutral = _changed_units(login(client, world, "gm").get(url))
    spectator = login(client, world, "spectator").get(url)
    assert _changed_units(spectator) == neutral
    assert "yours" not in _changes_table(spectator.text)
    for role, force in (("player", world.force), ("rival", world.enemy)):
        own = [n for n in neutral if world.campaign.forces.get(units__name=n) == force]
        assert own and len(own) < len(neutral), (role, neutral)
        response = login(client, world, role).get(url)
        assert _changed_units(response) == own + [n for n in neutral if n not in own], role
        rows = _changes_table(response.text).split("<tr ")[1:]
        marked = ['class="badge">yours</span>' in row for row in rows]
        assert marked == [True] * len(own) + [False] * (len(rows) - len(own)), role


def _raid(world):
    """An engagement of Red Company's Raiders against Blue Battalion's Pickets, and the
    Raiders."""
    from campaign.services.engagements import engagement_run

    card = world.unit.unit_type
    raiders = unit_create(force=world.force, unit_type=card, name="Raiders", quality="legendary",
                          equipment="excellent", specialties=["infantry"])  # fmt: skip
    pickets = unit_create(force=world.enemy, unit_type=card, name="Pickets",
                          quality="experienced", specialties=["infantry"])  # fmt: skip
    engagement = engagement_run(
        campaign=world.campaign, sides={"attackers": [raiders], "defenders": [pickets]},
        name="Raid on the pickets", round_limit=1, seed=2, actor=world.users["gm"],
    )  # fmt: skip
    return engagement, raiders


def test_a_player_reads_their_own_units_first_on_an_engagements_page(client, world):
    # An engagement's page tells what it did to each unit as a battle's does, and so in the
    # same order: a player's own units first, marked "yours"; the GM and a spectator keep the
    # order its entries were written in.
    engagement, _ = _raid(world)
    url = _url("engagement", world, engagement.pk)
    neutral = _changed_units(login(client, world, "gm").get(url))
    assert sorted(neutral) == ["Pickets", "Raiders"]
    assert _changed_units(login(client, world, "spectator").get(url)) == neutral
    for role, own in (("player", "Raiders"), ("rival", "Pickets")):
        response = login(client, world, role).get(url)
        assert _changed_units(response) == [own] + [n for n in neutral if n != own], role
        first = response.text.split('id="aftermath"', 1)[1].split(own, 1)[1].split("</p>", 1)[0]
        assert 'class="badge">yours</span>' in first, role


def test_an_applied_outcome_is_dated_in_the_campaigns_time_the_real_time_in_small_print(
    client, world
):
    """The page says when an outcome counts from as the campaign does, the day and hour the
    battle was fought (its units' history has it then), not "6 Dec 2026, 03:19": the real time
    the GM applied it is small print for the GM and a tooltip for the players."""
    battle = world.engine_battle
    battle.refresh_from_db()
    assert battle.applied_at is not None
    real = battle.applied_at.strftime("%-d %b %Y")
    when = f"day {battle.day}, {battle.hour:02d}:00"
    player = login(client, world, "player").get(_url("battle", world, battle.pk)).text
    said = player.split("The GM applied the outcome, as of ")[1].split("</p>")[0]
    assert said.startswith(f'<time datetime="{battle.applied_at.isoformat()}"')
    assert f'title="Applied in real time on {real}, ' in said
    assert said.endswith(f">{when}</time>, when it was fought. What it changed:")
    gm = login(client, world, "gm").get(_url("battle", world, battle.pk)).text
    said = gm.split("<p>Applied, as of ")[1].split("</p>")[0]
    assert said.startswith(f"{when}, when it was fought ")
    assert '<span class="small">(in real time, <time class="nowrap" datetime=' in said
    assert f">{real}, " in said


def _sides(page: str) -> str:
    start = page.index('<ul class="battle-sides">')
    return page[start : page.index("</ul>", start)]


def _battles_data(client, world) -> tuple[list[dict], list[dict]]:
    """The battles' JSON: each battle without its sides' units, and those units."""
    battles = client.get(_url("battles-json", world)).json()["battles"]
    units = [unit for b in battles for side in b["sides"] for unit in side.pop("units")]
    return battles, units


def test_a_battle_names_its_sides_by_the_forces_that_fought_it_after_a_unit_moves(client, world):
    # The story of a battle stays as it was fought: a unit moved to the other force since is
    # named on its page, in the lists of battles and in the data for programs under the force
    # it fought for, and its side is not "Blue Battalion and Red Company".
    gm, battle = world.users["gm"], world.engine_battle
    login(client, world, "gm")
    pages = (_url("battle", world, battle.pk), _url("dashboard", world), _url("battles", world))
    before = [client.get(page).text for page in pages]
    battles, units = _battles_data(client, world)
    unit_move(unit=world.unit, force=world.enemy, reason="detached", actor=gm)
    after = [client.get(page).text for page in pages]
    for mixed in ("Red Company and Blue Battalion", "Blue Battalion and Red Company"):
        assert mixed not in "".join(before + after)
    assert _sides(after[0]) == _sides(before[0])
    moved_battles, moved_units = _battles_data(client, world)
    assert moved_battles == battles
    assert [u["force"] for u in moved_units] == [u["force"] for u in units]
    assert {u["now_in"] for u in moved_units if u["id"] == world.unit.pk} == {"Blue Battalion"}


def test_an_engagement_names_its_sides_by_the_forces_that_fought_it_after_a_unit_moves(
    client, world
):
    from campaign.pages.sides import engagement_sides

    gm = world.users["gm"]
    engagement, raiders = _raid(world)
    fought = {"attackers": "Red Company", "defenders": "Blue Battalion"}
    assert engagement_sides([engagement])[engagement.pk] == fought
    moved = unit_move(unit=raiders, force=world.enemy, reason="detached", actor=gm)
    assert engagement_sides([engagement])[engagement.pk] == fought
    page = login(client, world, "gm").get(_url("engagements", world)).text
    assert "Blue Battalion against Blue Battalion" not in page
    # A unit moved back and forth fought for the force the first move after the fight left.
    entry_undo(entry=moved, reason="it stays", actor=gm)
    unit_move(unit=raiders, force=world.enemy, reason="detached after all", actor=gm)
    assert engagement_sides([engagement])[engagement.pk] == fought
