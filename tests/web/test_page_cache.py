"""Kept pages (``config.pagecache``): served as drawn until anything they show changes.

The proof is comparison: after each change a demanding GM or player could make, the roster as
served must equal the roster drawn afresh with the cache off, for every role that sees it.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse

from battles.services import battle_launch, battle_resolve
from campaign.models import Character, Force, Leader, Order
from campaign.services import (
    calendar_advance,
    campaign_hand_over,
    campaign_update,
    force_edit,
    leader_attach,
    membership_set,
    quick_resolve_run,
    unit_create,
    unit_edit,
    unit_move,
    unit_train,
)
from campaign.services.battles import campaign_battle_apply, campaign_battle_revert
from campaign.services.characters import character_create
from campaign.services.orders import order_call_off, order_give
from config.pagecache import CSRF_PLACEHOLDER
from tests.web.campaign_world import login
from tests.web.pages import without_tokens
from units.models import UnitType

pytestmark = pytest.mark.django_db

VIEWERS = ("player", "rival", "spectator", "gm", "co_gm")
HTMX = {"HTTP_HX_REQUEST": "true"}


def roster_url(world) -> str:
    return reverse("campaign:force", args=[world.campaign.pk, world.force.pk])


def served_and_fresh(client, world, role: str, url: str, **headers) -> tuple[str, str]:
    login(client, world, role)
    served = client.get(url, **headers)
    with override_settings(PAGE_CACHE_SECONDS=0):
        fresh = client.get(url, **headers)
    assert served.status_code == fresh.status_code == 200
    return without_tokens(served.text), without_tokens(fresh.text)


def assert_every_viewer_sees_it_fresh(client, world, *queries: str) -> None:
    for role in VIEWERS:
        for query in queries or ("",):
            url = roster_url(world) + query
            served, fresh = served_and_fresh(client, world, role, url)
            assert served == fresh, f"{role} was served a stale roster at {url}"


def test_a_roster_is_drawn_once_then_served_as_drawn(client, world, django_assert_num_queries):
    login(client, world, "player")
    first = client.get(roster_url(world))
    assert first.context is not None, "the first fetch draws the page"
    again = client.get(roster_url(world))
    assert again.context is None, "the second is served as it was drawn"
    assert without_tokens(again.text) == without_tokens(first.text)
    assert CSRF_PLACEHOLDER not in again.text
    # session, user, campaign, the player's membership, force, the roster's version
    with django_assert_num_queries(6):
        client.get(roster_url(world))


def test_every_change_to_what_a_roster_shows_shows_at_once(client, world):
    gm = world.users["gm"]
    assert_every_viewer_sees_it_fresh(client, world, "", "?sort=-quality")
    squad = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Fresh Squad")
    reyes = character_create(campaign=world.campaign, name="Sgt. Reyes", hit_points=10,
                             feats=["strategist"], actor=gm)  # fmt: skip
    assert_every_viewer_sees_it_fresh(client, world, "", "?sort=-quality")
    given = []
    changes = {
        "training": lambda: unit_train(unit=squad, character=reyes, actor=gm),
        "an Order given": lambda: given.append(
            order_give(giver=reyes, unit=squad, kind="attack", actor=gm)
        ),
        "the Order called off": lambda: order_call_off(order=given[0], actor=gm),
        "a GM's correction": lambda: unit_edit(
            unit=squad, changes={"morale_hits": 2}, reason="shelled", actor=gm
        ),
        "a leader attached": lambda: leader_attach(
            unit=squad, name="Lt. Vasquez", hit_points=12, actor=gm
        ),
        "the leader edited in the admin": lambda: _promote(Leader.objects.get(unit=squad)),
        "a day of R&R": lambda: calendar_advance(campaign=world.campaign, days=1, actor=gm),
        "a quick resolve": lambda: quick_resolve_run(
            campaign=world.campaign, attacker=squad, defender=world.enemy_unit, seed=3
        ),
        "a card reloaded in the library": lambda: _reprint(world.unit.unit_type),
        "the force renamed": lambda: Force.objects.filter(pk=world.force.pk).update(name="Red Co."),
        "other forces shown only in summary": lambda: campaign_update(
            campaign=world.campaign, other_forces_visible="summary", actor=gm
        ),
        "the co-GM made a player": lambda: membership_set(
            campaign=world.campaign, user=world.users["co_gm"], role="player", actor=gm
        ),
        "the player renamed": lambda: _rename(world.users["player"], "player-2"),
        "a unit moved to the other force": lambda: unit_move(
            unit=squad, force=world.enemy, reason="detached", actor=gm
        ),
        "the force given to the rival": lambda: force_edit(
            force=world.force, name="Red Co.", owner=world.users["rival"], actor=gm
        ),
        "the campaign handed to the co-GM": lambda: campaign_hand_over(
            campaign=world.campaign,
            to=world.users["co_gm"],
            stay_as="co_gm",
            with_forces=False,
            actor=gm,
        ),
    }
    for change, make in changes.items():
        make()
        squad.refresh_from_db()
        world.campaign.refresh_from_db()
        try:
            assert_every_viewer_sees_it_fresh(client, world, "", "?sort=-quality")
        except AssertionError as failure:
            raise AssertionError(f"after {change}: {failure}") from failure


def _under_orders(world) -> tuple[Character, Order]:
    """A fresh unit of the player's under an Order of Sgt. Reyes."""
    squad = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Fresh Squad")
    reyes = character_create(campaign=world.campaign, name="Sgt. Reyes", hit_points=10,
                             feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    order = order_give(giver=reyes, unit=squad, kind="attack", note="take the ford",
                       actor=world.users["gm"])  # fmt: skip
    return reyes, order


def test_a_character_renamed_by_a_plain_save_shows_on_the_roster_at_once(client, world, settings):
    """As the admin or a shell would rename them: the roster names the giver of each Order."""
    settings.PAGE_CACHE_SECONDS = 60
    reyes, _ = _under_orders(world)
    login(client, world, "player")
    assert "given by Sgt. Reyes" in client.get(roster_url(world)).text
    reyes.name = "Lt. Reyes"
    reyes.save()
    page = client.get(roster_url(world)).text
    assert "given by Lt. Reyes" in page and "Sgt. Reyes" not in page


def test_an_order_changed_by_a_plain_save_shows_on_the_roster_at_once(client, world, settings):
    settings.PAGE_CACHE_SECONDS = 60
    _, order = _under_orders(world)
    login(client, world, "player")
    assert "take the ford" in client.get(roster_url(world)).text
    order.note = "hold the bridge"
    order.save()
    page = client.get(roster_url(world)).text
    assert "hold the bridge" in page and "take the ford" not in page


def test_a_battle_outcome_applied_and_reverted_shows_at_once(client, world):
    gm = world.users["gm"]
    assert_every_viewer_sees_it_fresh(client, world)
    campaign_battle_apply(campaign_battle=world.table_battle, actor=gm)
    assert_every_viewer_sees_it_fresh(client, world)
    world.table_battle.refresh_from_db()
    campaign_battle_revert(campaign_battle=world.table_battle, reason="wrong table", actor=gm)
    assert_every_viewer_sees_it_fresh(client, world)


def test_the_sort_partial_under_htmx_is_kept_apart_from_the_page(client, world):
    login(client, world, "gm")
    url = roster_url(world) + "?sort=name"
    page = client.get(url)
    partial = client.get(url, **HTMX)
    assert "<html" in page.text and "<html" not in partial.text
    assert "<html" in client.get(url).text and "<html" not in client.get(url, **HTMX).text


def test_a_kept_page_is_never_served_to_another_user(client, world):
    login(client, world, "gm")
    gm_page = client.get(roster_url(world)).text
    assert "Add a unit from the library" in gm_page
    for role in ("player", "co_gm", "spectator", "rival"):
        page = login(client, world, role).get(roster_url(world)).text
        assert f'title="Your account">{role}</a>' in page
        assert ("Add a unit from the library" in page) == (role == "co_gm")


def _raise_unit(client, world, name: str, **extra):
    return client.post(
        reverse("campaign:unit-add", args=[world.campaign.pk, world.force.pk]),
        {
            "unit_type": world.unit.unit_type.pk,
            "name": name,
            "quality": "average",
            "equipment": "adequate",
            **extra,
        },
        follow=True,
    )


def test_the_csrf_token_of_a_kept_page_is_the_viewers_own_and_works(client, world):
    client = type(client)(enforce_csrf_checks=True)
    login(client, world, "gm")
    client.get(roster_url(world))
    page = client.get(roster_url(world))
    assert page.context is None, "served as kept"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = _raise_unit(client, world, "Kept Squad", csrfmiddlewaretoken=token)
    assert answer.status_code == 200 and "Kept Squad" in answer.text
    stranger = type(client)(enforce_csrf_checks=True)
    login(stranger, world, "co_gm")
    stranger.get(roster_url(world))  # their own CSRF cookie
    answer = _raise_unit(stranger, world, "Stolen Squad", csrfmiddlewaretoken=token)
    assert answer.status_code == 403, "another user's token is refused"


def test_a_kept_page_carries_fresh_one_time_keys_on_every_fetch(client, world):
    """Two fetches of a kept page must not share a form's one-time key: the second page's
    action would be taken for the first's, sent again, and do nothing."""
    login(client, world, "gm")
    client.get(roster_url(world))
    keys = []
    for _ in range(2):
        page = client.get(roster_url(world))
        assert page.context is None, "served as kept"
        keys.append(re.findall(r'name="request_key" value="([0-9a-f-]{36})"', page.text))
    assert keys[0] and len(set(keys[0] + keys[1])) == 2 * len(keys[0])


def test_a_message_waiting_shows_once_and_is_not_kept(client, world):
    login(client, world, "gm")
    client.get(roster_url(world))  # kept, without a message
    answer = _raise_unit(client, world, "Messenger Squad")
    assert answer.status_code == 200
    assert 'class="messages"' in answer.text, "the action's message shows after the redirect"
    assert "Messenger Squad" in answer.text
    assert 'class="messages"' not in client.get(roster_url(world)).text, "and only once"


def test_a_finished_report_is_kept_and_a_running_battle_never_is(client):
    owner = get_user_model().objects.create_user("owner")
    client.force_login(owner)
    scenario = _crossroads()
    battle = battle_launch(name="Skirmish", scenario=scenario, seed=1, created_by=owner)
    url = reverse("battles:detail", args=[battle.pk])
    assert "Queued: waiting for a worker" in client.get(url).text
    assert client.get(url).context is not None, "a battle in progress is drawn every time"
    battle_resolve(battle_id=battle.id)
    report = client.get(url)
    assert "Queued: waiting" not in report.text and report.context is not None
    again = client.get(url)
    assert again.context is None and without_tokens(again.text) == without_tokens(report.text)
    filtered = client.get(url + "?kind=attack")
    assert filtered.context is not None and filtered.text != report.text


def test_pages_are_drawn_afresh_when_the_cache_is_unreachable(client, world):
    unreachable = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
        }
    }
    with override_settings(CACHES=unreachable):
        served, fresh = served_and_fresh(client, world, "player", roster_url(world))
    assert served == fresh


def test_pages_are_kept_in_redis_when_redis_is_configured(client, world, redis_url):
    shared = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"test-pages-{world.campaign.created_at.timestamp()}",
        }
    }
    with override_settings(CACHES=shared, PAGE_CACHE_SECONDS=60):
        login(client, world, "player")
        first = client.get(roster_url(world))
        assert first.context is not None
        login(client, world, "player")  # a new session: only Redis can have kept the page
        again = client.get(roster_url(world))
        assert again.context is None
        assert without_tokens(again.text) == without_tokens(first.text)


def _promote(leader: Leader) -> None:
    leader.name = "Capt. Vasquez"
    leader.save()


def _reprint(card: UnitType) -> None:
    card.card = {**card.card, "move": card.card["move"] + 1}
    card.save()


def _rename(user, name: str) -> None:
    user.username = name
    user.save()


def _crossroads() -> dict:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"
    return json.loads(path.read_text())
