"""What the pages say to a member who sees other forces only in summary: a spectator is told
as a spectator, and nobody is told of "units you can see" when they see none."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Campaign, HistoryEntry
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _summary(world) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")


def test_a_spectator_who_sees_no_force_in_full_is_told_of_no_units_of_theirs(client, world):
    _summary(world)
    login(client, world, "spectator")
    client.get(_url("dashboard", world))  # a first visit: from now on, "since your last visit"
    page = client.get(_url("dashboard", world)).text
    assert "Since your last visit" not in page
    assert "the units you can see" not in page
    force = client.get(_url("force", world, world.force.pk)).text
    assert "The GM shows spectators only a summary of this force: " in force
    assert "other players" not in force
    # Under full rosters the spectator sees every force, and is told of them.
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="full")
    page = client.get(_url("dashboard", world)).text
    assert "Since your last visit" in page


def test_a_battle_page_says_what_it_leaves_out_without_saying_no_unit_changed(client, world):
    _summary(world)
    battle = world.engine_battle
    changed = HistoryEntry.objects.filter(pk__in=battle.applied_entries)
    units = len({e.unit_id for e in changed})
    assert units > 1
    page = login(client, world, "spectator").get(_url("battle", world, battle.pk)).text
    assert "No unit changes." not in page and '<table class="changes told">' not in page
    assert (
        f"What it did to its {units} units is not shown: the GM shows spectators every force "
        "in summary only." in page
    )
    # A player sees their own units' changes, and is told how many of the others' are left out.
    page = login(client, world, "player").get(_url("battle", world, battle.pk)).text
    assert '<table class="changes told">' in page and "What it changed:" in page
    assert "of forces you see only in summary" in page and "left out" in page


def test_the_timeline_links_a_quick_resolve_only_to_a_unit_the_reader_may_open(client, world):
    from campaign.models import QuickResolve

    _summary(world)
    QuickResolve.objects.create(
        campaign=world.campaign, day=1, attacker=world.enemy_unit, defender=world.unit, seed=3,
        round_limit=5, setup={}, events=[{"event": "end", "rounds": 2, "winner": "attacker"}],
        rounds=2, winner="attacker",
    )  # fmt: skip
    enemy_page = _url("unit", world, world.enemy_unit.pk)
    own_page = _url("unit", world, world.unit.pk)
    line = f"{world.enemy_unit.name} (Blue Battalion) engaged {world.unit.name} (Red Company)"
    page = login(client, world, "player").get(_url("timeline", world)).text
    assert f'<a href="{own_page}">{line}' in page and enemy_page not in page
    page = login(client, world, "spectator").get(_url("timeline", world)).text
    assert f"</span> {line}: " in page and "/units/" not in page
    page = login(client, world, "gm").get(_url("timeline", world)).text
    assert f'<a href="{enemy_page}">{line}' in page


def _forces_row(page: str, force: str) -> list[str]:
    """The cells of the dashboard's Forces row of ``force``, as their text."""
    import re

    table = page.split('id="forces-h"', 1)[1].split("</table>", 1)[0]
    row = next(r for r in table.split("<tr>") if f">{force}</a>" in r)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.split(r"</t[hd]>", row)][:4]


def test_the_forces_table_gives_no_ready_count_of_a_force_seen_in_summary(client, world):
    _summary(world)
    units = world.enemy.units.count()
    ready = world.enemy.units.filter(status="ready").count()
    assert ready > 0
    for role, told in (("player", "other players"), ("spectator", "spectators")):
        page = login(client, world, role).get(_url("dashboard", world)).text
        assert _forces_row(page, "Blue Battalion")[2:] == [str(units), "—not shown"]
        assert (
            "“—” for a force you see only in summary: the GM shows "
            f"{told} its name and unit count, not how many are ready." in page
        )
    own = world.force.units.filter(status="ready").count()
    page = login(client, world, "player").get(_url("dashboard", world)).text
    # The count first, then how many of them a battle not yet applied holds, if any.
    assert _forces_row(page, "Red Company")[3].split(" (")[0] == str(own)
    # The GM sees every force in full: the count, and no word of a summary.
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    seen = _forces_row(page, "Blue Battalion")
    assert [seen[2], seen[3].split(" (")[0]] == [str(units), str(ready)]
    assert "“—”" not in page


def test_a_forces_unit_count_says_how_many_of_its_units_are_destroyed(client, world):
    from campaign.models import Unit

    Unit.objects.filter(pk=world.unit.pk).update(status="destroyed")
    standing = Unit.objects.filter(force=world.force).exclude(status="destroyed").count()
    units = standing + 1
    page = login(client, world, "player").get(_url("dashboard", world)).text
    assert (
        f'<td class="num" data-label="Units"><span>{units} '
        '<span class="small nowrap">(1 destroyed)</span></span></td>'
    ) in page
    force = client.get(_url("force", world, world.force.pk)).text
    assert f'<p id="unit-count">{units} units (1 destroyed)</p>' in force
    # Seen in summary, a force's losses are not told: its name and unit count only.
    _summary(world)
    page = login(client, world, "rival").get(_url("dashboard", world)).text
    assert f'<td class="num" data-label="Units"><span>{units}</span></td>' in page
    assert "(1 destroyed)" not in page
    force = client.get(_url("force", world, world.force.pk)).text
    assert "destroyed" not in force
