"""The GM's Orders form: who may give an Order, and what a new Order does to the one under
way, said before it is given and after."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Character, Order, Unit
from campaign.services import leader_attach, unit_create, unit_edit
from campaign.services.characters import character_create
from campaign.services.orders import order_call_off, order_give
from tests.web.campaign_world import login
from units.models import UnitType

pytestmark = pytest.mark.django_db


def _orders(world) -> str:
    return reverse("campaign:orders", args=[world.campaign.pk])


def test_without_a_living_character_the_form_says_who_gives_an_order_and_where_to_make_one(
    client, world
):
    page = login(client, world, "gm").get(_orders(world)).text
    characters = reverse("campaign:characters", args=[world.campaign.pk])
    notice = page.split('id="no-givers"', 1)[1].split("</p>", 1)[0]
    assert "Only a living character of the campaign gives an Order, and it has none" in notice
    assert f'href="{characters}#character-form"' in notice
    # A leader named on a unit's page alone is listed on the Characters page, but is none.
    leader_attach(unit=world.force.units.filter(status="ready").first(), name="Sgt. Vance",
                  hit_points=9)  # fmt: skip
    notice = client.get(_orders(world)).text.split('id="no-givers"', 1)[1].split("</p>", 1)[0]
    assert "(Sgt. Vance leads a unit by name only, as no character)" in notice
    # Once there is one, the form just says who gives an Order.
    character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=world.users["gm"])
    page = client.get(_orders(world)).text
    assert 'id="no-givers"' not in page
    assert "A living character of the campaign gives an Order" in page


def test_a_second_order_says_before_and_after_that_it_replaces_the_one_under_way(client, world):
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit, other = (
        unit_create(force=world.force, unit_type=card, name=name, specialties=["infantry"])
        for name in ("1st Squad", "2nd Squad")
    )
    first = order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, actor=gm)
    login(client, world, "gm")
    page = client.get(_orders(world)).text
    form = page.split('id="order-form"', 1)[1]
    option = re.search(rf'<option value="{unit.pk}"[^>]*>([^<]*)</option>', form)[1]
    until = re.search(r"its Order to Use Skill, under way until (day \d+, \d\d:\d\d)$", option)
    assert until, f"the unit is offered with the Order it is under: {option}"
    assert re.search(rf'<option value="{other.pk}"[^>]*>2nd Squad \(Red Company\)</option>', form)
    assert "a new Order replaces the one under way" in page
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": ash.pk, "unit": unit.pk, "kind": "attack"},
        follow=True,
    )
    assert response.status_code == 200
    said = re.sub(r"\s+", " ", response.text)
    assert f"Lt. Ash ordered {unit.name} to Attack: " in said
    assert f"; its Order to Use Skill, under way until {until[1]}, is replaced." in said
    first.refresh_from_db()
    assert first.replaced
    # An Order to a unit under none replaces nothing, and says nothing of it.
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": ash.pk, "unit": other.pk, "kind": "attack"},
        follow=True,
    )
    assert f"Lt. Ash ordered {other.name} to Attack: " in response.text
    assert "is replaced" not in response.text


def test_the_gm_calls_off_an_order_under_way_once_and_players_see_it_called_off(client, world):
    """An Order lasts until done, replaced, or senseless: each Order under way has a Call off
    button for the GM; the Order is then called off, said in words, on the GM's page and the
    player's. Sent twice, it is called off once; a done Order, or a tampered one, is refused
    with the reason beside the list."""
    import uuid

    from campaign.models import Order

    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(
        force=world.force, unit_type=card, name="1st Squad", specialties=["infantry"]
    )
    order = order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, actor=gm)
    url = reverse("campaign:order-call-off", args=[world.campaign.pk])
    page = login(client, world, "gm").get(_orders(world)).text
    row = page.split(f'>{unit.name}</a> <span class="small">(', 1)[1].split("</tr>", 1)[0]
    # One tap only asks: the button leads to the question, which posts the form.
    assert f'href="{url}?order={order.pk}"' in row and "Call off…</a>" in row
    assert "<form" not in row
    asked = client.get(url, {"order": order.pk}).text
    question = asked.split('id="call-off-confirm"', 1)[1].split("</form>", 1)[0]
    assert f'action="{url}"' in question and f'name="order" value="{order.pk}"' in question
    assert "Call off the Order to Use Skill that Lt. Ash gave 1st Squad?" in question
    assert 'name="request_key"' in question and "Call it off</button>" in question
    order.refresh_from_db()
    assert order.called_off_at is None  # asking calls nothing off
    player = login(client, world, "player").get(_orders(world)).text
    assert "1st Squad" in player and url not in player  # the player sees it, no button
    assert "call-off-confirm" not in client.get(url, {"order": order.pk}, follow=True).text

    login(client, world, "gm")
    data = {"order": order.pk, "request_key": str(uuid.uuid4())}
    first = client.post(url, data, follow=True)
    said = "The Order to Use Skill that Lt. Ash gave 1st Squad is called off at day 1, 00:00."
    assert [str(m) for m in first.context["messages"]] == [said]
    again = client.post(url, data, follow=True)
    assert [str(m) for m in again.context["messages"]] == [said]  # said again, done once
    order.refresh_from_db()
    assert order.called_off_at == 0
    row = first.text.split(f'>{unit.name}</a> <span class="small">(', 1)[1].split("</tr>", 1)[0]
    assert "Called off at day 1, 00:00" in row and "Call off…" not in row
    player = login(client, world, "player").get(_orders(world)).text
    assert "Called off at day 1, 00:00" in player

    # Called off already (another page's button), or not this campaign's: refused, in words.
    login(client, world, "gm")
    refused = client.post(url, {"order": order.pk, "request_key": str(uuid.uuid4())})
    assert refused.status_code == 400
    assert (
        "The Order to Use Skill given to 1st Squad is called off already: only an Order under "
        "way is called off."
    ) in refused.text
    tampered = client.post(url, {"order": "999999", "request_key": str(uuid.uuid4())})
    assert tampered.status_code == 400
    assert "That Order is not one of this campaign&#x27;s." in tampered.text
    assert Order.objects.filter(called_off_at__isnull=False).count() == 1


def test_a_units_page_says_the_order_it_is_under(client, world):
    """A player checking a squad sees the Order it is under, who gave it and until when; none
    once it is called off (or done)."""
    from campaign.services.orders import clock_advance, order_call_off

    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(
        force=world.force, unit_type=card, name="1st Squad", specialties=["infantry"]
    )
    url = reverse("campaign:unit", args=[world.campaign.pk, unit.pk])

    def said(role):
        page = login(client, world, role).get(url).text
        return re.search(
            r'<dd id="unit-order">(.*?) · <a href="([^"]+)">'
            r"(?:See the campaign's Orders|Give it an Order)</a>[^<]*</dd>",
            page,
        )

    assert said("player")[1] == "none under way" and said("player")[2] == _orders(world)
    order = order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, note="the ford")
    shown = "Order to Use Skill, under way until day 1, 11:00, given by Lt. Ash: the ford"
    assert said("player")[1] == shown and said("gm")[1] == shown
    order_call_off(order=order)
    assert said("player")[1] == "none under way"
    # Done, as well as called off: none under way.
    order_give(giver=ash, unit=unit, kind="attack")
    assert said("player")[1].startswith("Order to Attack, under way until day 1, 01:00")
    clock_advance(campaign=world.campaign, hours=1)
    assert said("player")[1] == "none under way"


def test_the_orders_list_names_each_units_force_and_a_unit_out_of_action(client, world):
    """Two forces may each have a 1st Squad: the list says whose; and a unit destroyed or
    retreated since its Order was given is said to be, beside its name (a destroyed unit's
    Order ended with it)."""
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    ours = unit_create(
        force=world.force, unit_type=card, name="1st Squad", specialties=["infantry"]
    )
    theirs = unit_create(
        force=world.enemy_unit.force, unit_type=card, name="1st Squad", specialties=["infantry"]
    )
    for unit in (ours, theirs):
        order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, actor=gm)
    unit_edit(unit=theirs, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    page = login(client, world, "gm").get(_orders(world)).text
    rows = [row.split("</tr>", 1)[0] for row in page.split('<th scope="row">')[1:]]
    heads = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", row.split("</th>", 1)[0])).strip()
        for row in rows
    ]
    force, enemy = world.force.name, world.enemy_unit.force.name
    assert sorted(heads) == sorted([f"1st Squad ({force})", f"1st Squad ({enemy}) Destroyed"])
    # The destroyed unit's Order ended with it: said so, and no button calls it off.
    states = dict(zip(heads, rows, strict=True))
    ended = states[f"1st Squad ({enemy}) Destroyed"]
    assert "Ended at day 1, 00:00: 1st Squad was destroyed" in ended and "Call off" not in ended
    going = states[f"1st Squad ({force})"]
    assert "Under way, done at day 1, 11:00" in going and "Call off" in going


def test_a_unit_a_battle_not_yet_applied_holds_is_said_to_be_held_on_the_orders_page(client, world):
    """Its Order's row names the unit with a link to its page and its status as its roster line
    says it ("Awaiting review" of the battle); the form offers it, so named, for an Order is for
    what comes next, and the GM who gives one is told the battle it is still in."""
    from campaign.services.battles import campaign_battle_apply

    gm, battle = world.users["gm"], world.table_battle
    held = Unit.objects.get(pk=next(iter(battle.sides.values()))[0])
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    order_give(giver=ash, unit=held, kind="use_skill", listed_hours=12, actor=gm)
    page = login(client, world, "gm").get(_orders(world)).text
    row = page.split('<table id="orders"', 1)[1].split("<tbody>", 1)[1].split("</tr>", 1)[0]
    unit_page = reverse("campaign:unit", args=[world.campaign.pk, held.pk])
    link = reverse("campaign:battle", args=[world.campaign.pk, battle.pk])
    assert f'<a href="{unit_page}">{held.name}</a>' in row
    assert '"status status-awaiting">Awaiting review</span>' in row
    assert f'of <a href="{link}">{battle.name}</a>' in row
    form = page.split('id="order-form"', 1)[1]
    option = re.search(rf'<option value="{held.pk}"[^>]*>([^<]*)</option>', form)[1]
    assert f"({held.force.name}), awaiting review of {battle.name}: its Order" in option
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": ash.pk, "unit": held.pk, "kind": "attack"},
        follow=True,
    )
    said = re.sub(r"\s+", " ", response.text)
    assert (
        f"{held.name} is still in {battle.name}, whose outcome is not applied yet: the Order "
        "is for what follows." in said
    )
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    page = client.get(_orders(world)).text
    assert "Awaiting review</span>" not in page and link not in page


def test_the_roster_says_the_order_each_unit_is_under(client, world):
    """The roster prints its cards under an Order: it says which units are under one, who gave
    it and until when, as each unit's page does; none once it is done."""
    from campaign.services.orders import clock_advance

    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(
        force=world.force, unit_type=card, name="1st Squad", specialties=["infantry"]
    )
    roster = reverse("campaign:force", args=[world.campaign.pk, world.force.pk])

    def row(role):
        page = login(client, world, role).get(roster).text
        return page.split(f">{unit.name}</a>", 1)[1].split("</th>", 1)[0]

    assert "Order to" not in row("player")
    order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, note="the ford")
    shown = "Order to Use Skill, under way until day 1, 11:00, given by Lt. Ash: the ford"
    assert f"<br>{shown}</span>" in row("player") and shown in row("gm")
    # Only its own row says it: the force's other units are under no Order.
    page = login(client, world, "player").get(roster).text
    tbody = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = [row for row in tbody.split("<tr")[1:] if f">{unit.name}</a>" not in row]
    assert any(world.unit.name in row for row in rows)
    assert not any("Order to" in row for row in rows)
    clock_advance(campaign=world.campaign, hours=11)
    assert "Order to" not in row("player")


def test_the_list_says_the_hours_an_order_takes_beside_the_hours_listed(client, world):
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(force=world.force, unit_type=card, name="1st Squad",
                       specialties=["infantry"])  # fmt: skip
    order = order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, actor=gm)
    page = login(client, world, "gm").get(_orders(world)).text
    # An Average unit takes its listed time less half its quality step (3 // 2 = 1 hour).
    assert order.hours == 11
    assert '<span>11 <span class="small">(12 listed)</span></span>' in page


def _options(page: str, field: str) -> list[str]:
    """The labels a field of the page's Order form offers (its empty choice left out)."""
    form = page.split('id="order-form"', 1)[1].split("</form>", 1)[0]
    select = form.split(f'name="{field}"', 1)[1].split("</select>", 1)[0]
    return [label for value, label in re.findall(r'<option value="(\d+)"[^>]*>([^<]*)<', select)]


def test_a_player_gives_their_own_units_orders_with_their_own_characters(client, world):
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9,
                           player=world.users["player"], actor=gm)  # fmt: skip
    character_create(campaign=world.campaign, name="Maj. Greaves", hit_points=9,
                     player=world.users["rival"], actor=gm)  # fmt: skip
    character_create(campaign=world.campaign, name="Sgt. Rook", hit_points=9, actor=gm)
    broken = world.enemy.units.first()
    unit_edit(unit=broken, changes={"status": "retreated"}, reason="broken", actor=gm)
    gm_page = login(client, world, "gm").get(_orders(world)).text
    assert f"{broken.name} (Blue Battalion)" in gm_page.split('id="order-form"', 1)[1]
    page = login(client, world, "player").get(_orders(world)).text
    assert 'id="give-h">Your Orders<' in page and 'id="clock-form"' not in page
    assert _options(page, "giver") == ["Lt. Ash"]
    ready = world.force.units.filter(status="ready").order_by("name")
    # A unit the world's table battle holds is named with it, as its status says it.
    held = {pk for pks in world.table_battle.sides.values() for pk in pks}
    awaiting = f", awaiting review of {world.table_battle.name}"
    assert _options(page, "unit") == [
        f"{u.name} (Red Company)" + (awaiting if u.pk in held else "") for u in ready
    ]
    assert "Your living characters give your units Orders." in page
    # Its units out of action are left out, said by name; the rival's are not named at all.
    left_out = page.split('id="order-form"', 1)[1].split("</form>", 1)[0].split("Not offered")[1]
    assert "Squad 1 (Red Company)" in left_out and broken.name not in left_out
    unit = ready.first()
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": ash.pk, "unit": unit.pk, "kind": "attack"},
        follow=True,
    )
    assert response.status_code == 200
    assert f"Lt. Ash ordered {unit.name} to Attack: " in response.text
    order = Order.objects.get()
    assert (order.giver, order.unit, order.actor) == (ash, unit, world.users["player"])


def test_a_player_is_refused_another_players_unit_or_character_and_nothing_is_written(
    client, world
):
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9,
                           player=world.users["player"], actor=gm)  # fmt: skip
    greaves = character_create(campaign=world.campaign, name="Maj. Greaves", hit_points=9,
                               player=world.users["rival"], actor=gm)  # fmt: skip
    login(client, world, "player")
    url = reverse("campaign:order-give", args=[world.campaign.pk])
    for giver, unit in ((ash, world.enemy_unit), (greaves, world.unit)):
        response = client.post(url, {"giver": giver.pk, "unit": unit.pk, "kind": "attack"})
        assert response.status_code == 400
        # Not offered, and not named: the rival's unit is none of the player's business.
        assert world.enemy_unit.name not in response.text.split('id="order-form"', 1)[1]
    # Nor the rival's character: refused without its name.
    assert "That character is not one of yours" in response.text
    assert "Greaves" not in response.text.split('id="order-form"', 1)[1]
    assert not Order.objects.exists()


def test_the_gm_is_refused_one_players_character_ordering_another_players_unit(client, world):
    gm = world.users["gm"]
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=9,
                            player=world.users["player"], actor=gm)  # fmt: skip
    card = UnitType.objects.get(name="Rifle Squad")
    sappers = unit_create(force=world.enemy, unit_type=card, name="Sappers",
                          specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    page = client.get(_orders(world)).text
    assert "a player&#x27;s character to the units of its player&#x27;s forces" in page
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": kane.pk, "unit": sappers.pk, "kind": "use_skill"},
    )
    assert response.status_code == 400
    beside = re.search(r'id="id_[a-z_]*giver_error">([^<]*)<', response.text)[1]
    assert beside == (
        "Sgt. Kane is player&#x27;s character: they order the units of player&#x27;s forces "
        "and the unit they lead, not Sappers of Blue Battalion."
    )
    assert not Order.objects.exists()


def test_a_player_with_no_character_is_told_who_makes_one(client, world):
    page = login(client, world, "player").get(_orders(world)).text
    notice = page.split('id="no-givers"', 1)[1].split("</p>", 1)[0]
    assert "Your characters give your units Orders, and you have no living character" in notice
    assert "the GM creates characters, each with the player who plays it" in notice
    assert 'id="order-form"' not in page  # nothing to choose from: no form
    # A spectator owns no force: no form at all.
    page = login(client, world, "spectator").get(_orders(world)).text
    assert 'id="order-form"' not in page and 'id="give-h"' not in page


def test_a_units_page_leads_whoever_may_order_it_to_the_form_with_the_unit_chosen(client, world):
    campaign = world.campaign
    ready = world.force.units.filter(status="ready").first()
    orders = reverse("campaign:orders", args=[campaign.pk])
    gm = world.users["gm"]
    for role in ("player", "rival"):
        character_create(campaign=campaign, name=f"Lt. {role}", hit_points=9,
                         player=world.users[role], actor=gm)  # fmt: skip
    give = f"{orders}?unit={ready.pk}#order-form"

    def link(role: str, unit) -> str:
        page = login(client, world, role).get(reverse("campaign:unit", args=[campaign.pk, unit.pk]))
        return page.text.split('id="unit-order"', 1)[1].split("</dd>", 1)[0]

    for role in ("gm", "player"):
        assert f'href="{give}">Give it an Order</a>' in link(role, ready), role
    # Not the rival's to order, nor the spectator's, nor a unit out of action: the Orders page,
    # to read, saying why to whoever gives the unit's force Orders.
    see = f'href="{orders}">See the campaign\'s Orders</a>'
    assert link("rival", ready).endswith(f" · <a {see}")
    assert link("spectator", ready).endswith(f" · <a {see}")
    for role in ("player", "gm"):
        said = f" · <a {see} (it takes none while retreated in poor order)"
        assert link(role, world.unit).endswith(said), role
    # The form starts on the unit; an address naming no unit it offers starts on none.
    page = login(client, world, "player").get(f"{orders}?unit={ready.pk}").text
    assert re.search(rf'<option value="{ready.pk}" selected>', page)
    assert _options(page, "giver") == ["Lt. player"]  # theirs, and so chosen already
    assert re.search(r'<option value="\d+" selected>Lt. player</option>', page)
    for junk in ("abc", str(world.enemy_unit.pk), "9" * 30):
        page = client.get(f"{orders}?unit={junk}")
        unit_field = page.text.split('name="unit"')[1].split("</select>")[0]
        assert page.status_code == 200 and not re.search(r'value="\d+" selected>', unit_field)
    # A player with no living character of their own is not led to a form they cannot use.
    Character.objects.filter(player=world.users["player"]).update(alive=False)
    said = f" · <a {see} (you have no living character to give it one)"
    assert link("player", ready).endswith(said)


def test_the_form_starts_on_the_character_leading_the_unit_it_starts_on(client, world):
    gm = world.users["gm"]
    ready = world.force.units.filter(status="ready").first()
    _, rook = (
        character_create(campaign=world.campaign, name=name, hit_points=9, actor=gm)
        for name in ("Lt. Ash", "Sgt. Rook")
    )
    leader_attach(unit=ready, character=rook, actor=gm)
    login(client, world, "gm")
    page = client.get(f"{_orders(world)}?unit={ready.pk}").text
    assert re.search(rf'<option value="{rook.pk}" selected>Sgt. Rook \(NPC[^<]*</option>', page)
    # Two characters and no unit chosen: the GM chooses.
    page = client.get(_orders(world)).text
    assert not re.search(r'<option value="\d+" selected>(Lt. Ash|Sgt. Rook)[^<]*</option>', page)


def test_a_player_calls_off_an_order_their_character_gave_not_the_gms(client, world):
    import uuid

    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9,
                           player=world.users["player"], actor=gm)  # fmt: skip
    rook = character_create(campaign=world.campaign, name="Sgt. Rook", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    first, second = (
        unit_create(force=world.force, unit_type=card, name=name, specialties=["infantry"])
        for name in ("1st Squad", "2nd Squad")
    )
    own = order_give(giver=ash, unit=first, kind="use_skill", actor=world.users["player"])
    gms = order_give(giver=rook, unit=second, kind="use_skill", actor=gm)
    url = reverse("campaign:order-call-off", args=[world.campaign.pk])
    page = login(client, world, "player").get(_orders(world)).text

    def row(unit):
        return page.split(f'>{unit.name}</a> <span class="small">(', 1)[1].split("</tr>", 1)[0]

    assert f'?order={own.pk}"' in row(first) and "Call off…</a>" in row(first)
    assert "Call off…" not in row(second)
    done = client.post(url, {"order": own.pk, "request_key": str(uuid.uuid4())}, follow=True)
    said = "The Order to Use Skill that Lt. Ash gave 1st Squad is called off at day 1, 00:00."
    assert [str(m) for m in done.context["messages"]] == [said]
    # The GM's Order, sent by hand: refused, and it stands.
    refused = client.post(url, {"order": gms.pk, "request_key": str(uuid.uuid4())})
    assert refused.status_code == 403
    gms.refresh_from_db()
    assert gms.called_off_at is None


def test_an_order_outside_the_units_specialties_says_on_giving_it_performs_as_raw_poor_kit(
    client, world
):
    """The confirmation says what the battle set-up says of the Order: outside the unit's
    specialties it performs as Raw, with Poor kit; an Order within them says nothing of it."""
    gm = world.users["gm"]
    rosa = character_create(campaign=world.campaign, name="Sgt. Rosa Diaz", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    rangers = unit_create(
        force=world.force, unit_type=card, name="Rangers 1", specialties=["infantry"]
    )
    login(client, world, "gm")
    # The form says beforehand which Order needs a specialty, and what lacking it does.
    form = re.sub(r"\s+", " ", client.get(_orders(world)).text.split('id="order-form"', 1)[1])
    assert ">Establish Beachhead (1 h listed; needs Amphibious)</option>" in form
    assert ">Attack (2 h listed)</option>" in form
    assert (
        "An Order that needs a specialty the unit lacks falls outside its specialties: it performs "
        "as Raw, with Poor kit." in form
    )
    give = reverse("campaign:order-give", args=[world.campaign.pk])
    response = client.post(
        give, {"giver": rosa.pk, "unit": rangers.pk, "kind": "establish_beachhead"}, follow=True
    )
    said = re.sub(r"\s+", " ", response.text)
    assert "Sgt. Rosa Diaz ordered Rangers 1 to Establish Beachhead: " in said
    assert (
        "Establish Beachhead is outside its specialties: it performs as Raw, with Poor kit." in said
    )
    response = client.post(give, {"giver": rosa.pk, "unit": rangers.pk, "kind": "attack"},
                           follow=True)  # fmt: skip
    said = re.sub(r"\s+", " ", response.text)
    assert "Sgt. Rosa Diaz ordered Rangers 1 to Attack: " in said
    assert "Attack is outside its specialties" not in said
    assert "no character leads it" not in said  # within its specialties, Average: no repeating


def test_an_order_a_unit_performs_as_raw_with_nobody_at_its_head_says_it_goes_into_battle_without(
    client, world
):
    """Performing it as Raw, the unit needs the Order repeated every round: the confirmation
    says so where no character leads it, as the battle set-up will; led, it says who repeats."""
    gm = world.users["gm"]
    rosa = character_create(campaign=world.campaign, name="Sgt. Rosa Diaz", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    rangers = unit_create(
        force=world.force, unit_type=card, name="Rangers 1", specialties=["infantry"]
    )
    login(client, world, "gm")
    give = reverse("campaign:order-give", args=[world.campaign.pk])
    response = client.post(
        give, {"giver": rosa.pk, "unit": rangers.pk, "kind": "establish_beachhead"}, follow=True
    )
    said = re.sub(r"\s+", " ", response.text)
    assert (
        "It performs it as Raw and no character leads it to repeat the Order every round, so it "
        "goes into battle without Orders and holds in place." in said
    )
    leader_attach(unit=rangers, character=rosa)
    response = client.post(
        give, {"giver": rosa.pk, "unit": rangers.pk, "kind": "establish_beachhead"}, follow=True
    )
    said = re.sub(r"\s+", " ", response.text)
    assert "Establish Beachhead is outside its specialties: it performs as Raw" in said
    assert "no character leads it" not in said


def test_an_order_ended_with_its_unit_retreated_is_told_on_the_roster_unit_page_and_orders_page(
    client, world
):
    """A unit retreated in poor order carries out no Order: the roster, the unit's page and the
    Orders page say its Order ended, and why, not that it is under way. An Order whose giver
    has died since stands, given to the unit; the Orders page says its giver was killed."""
    gm = world.users["gm"]
    reyes = character_create(campaign=world.campaign, name="Lt. Ada Reyes", hit_points=9,
                             actor=gm)  # fmt: skip
    card = UnitType.objects.get(name="Rifle Squad")
    squad = unit_create(force=world.force, unit_type=card, name="1st Squad",
                        specialties=["infantry"])  # fmt: skip
    scouts = unit_create(force=world.force, unit_type=card, name="Scouts",
                         specialties=["infantry"])  # fmt: skip
    order = order_give(giver=reyes, unit=squad, kind="attack", actor=gm)
    standing = order_give(giver=reyes, unit=scouts, kind="use_skill", listed_hours=8, actor=gm)
    unit_edit(unit=squad, changes={"status": "retreated"}, reason="routed", actor=gm)
    Character.objects.filter(pk=reyes.pk).update(hit_points=-12, alive=False)

    # The giver comes before why it ended: "…: 1st Squad retreated in poor order, given by
    # Lt. Ada Reyes" read as if she had ordered the retreat.
    ended = (
        "Order to Attack, given by Lt. Ada Reyes, ended at day 1, 00:00: 1st Squad retreated in "
        "poor order"
    )
    login(client, world, "player")
    roster = client.get(reverse("campaign:force", args=[world.campaign.pk, world.force.pk])).text
    unit_page = client.get(reverse("campaign:unit", args=[world.campaign.pk, squad.pk])).text
    for page in (roster, unit_page):
        assert ended in page and "under way until day 1, 01:00" not in page
    orders = client.get(_orders(world)).text
    row = orders.split('>1st Squad</a> <span class="small">(', 1)[1].split("</tr>", 1)[0]
    assert "Ended at day 1, 00:00: 1st Squad retreated in poor order" in row
    assert "Lt. Ada Reyes, since killed" in row
    row = orders.split('>Scouts</a> <span class="small">(', 1)[1].split("</tr>", 1)[0]
    assert "Under way, done at day 1, 07:00" in row and "Lt. Ada Reyes, since killed" in row
    order.refresh_from_db()
    standing.refresh_from_db()
    assert (order.ended_at, order.ended_as, standing.ended_at) == (0, "retreated", None)


def test_an_orders_hours_are_given_with_their_working_a_strategists_hour_included(client, world):
    """The hours an Order takes are checked against the book: the listed time, less half the
    unit's quality step rounded down, less the hour a Strategist's Order saves, at least 1.
    The page says every part, and giving one says how its hours were reckoned."""
    gm = world.users["gm"]
    varga = character_create(campaign=world.campaign, name="Col. Varga", hit_points=9,
                             feats=["strategist"], actor=gm)  # fmt: skip
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(force=world.force, unit_type=card, name="Lookouts", quality="average",
                       specialties=["infantry"])  # fmt: skip
    page = re.sub(r"\s+", " ", login(client, world, "gm").get(_orders(world)).text)
    assert (
        "An Order takes its listed time less half the unit's quality step (rounded down), "
        "and an hour less when a Strategist gives it, at least 1 hour" in page
    )
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": varga.pk, "unit": unit.pk, "kind": "use_skill", "listed_hours": 6},
        follow=True,
    )
    said = re.sub(r"\s+", " ", response.text)
    # 6 listed − 1 (Average is step 3: half, rounded down, is 1) − 1 (a Strategist's Order) = 4.
    assert (
        "Col. Varga ordered Lookouts to Use Skill: 4 h (6 listed, less 1 for Average, half its "
        "step 3 rounded down, less 1 for a Strategist giving it), done at" in said
    )
    # Where the floor of an hour is what counts, the working says so.
    from campaign.rules.orders import order_hours_working
    from units.bucs import Quality

    assert order_hours_working(2, Quality.LEGENDARY) == (
        "2 listed, less 3 for Legendary, half its step 6 rounded down, at least 1"
    )


def test_the_clocks_review_says_which_orders_the_hours_will_see_done(client, world):
    """Before the clock moves, its review says which Orders will be done by then, as its
    summary says after: the GM learns what the hours do before they pass."""
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(force=world.force, unit_type=card, name="Lookouts", quality="average",
                       specialties=["infantry"])  # fmt: skip
    order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=5, actor=gm)  # 4 h
    url = reverse("campaign:clock-advance", args=[world.campaign.pk])
    login(client, world, "gm")
    short = re.sub(r"\s+", " ", client.get(url, {"hours": 3}).text)
    assert "No Order is done by then." in short and "Orders done by then" not in short
    review = re.sub(r"\s+", " ", client.get(url, {"hours": 4}).text)
    assert "Orders done by then: Lookouts (Use Skill, given by Lt. Ash)." in review
    assert not Order.objects.get().replaced  # a review moves nothing


def test_the_units_to_choose_from_are_in_their_numbers_order(client, world):
    """Numbered squads are offered as the roster lists them: Squad 9 before Squad 10, each
    force's together."""
    card = UnitType.objects.get(name="Rifle Squad")
    for n in range(3, 12):  # Squads 1 and 2 are there already (out of action, not offered)
        unit_create(force=world.force, unit_type=card, name=f"Squad {n}", specialties=["infantry"])
    form = login(client, world, "gm").get(_orders(world)).context["order_form"]
    labels = [label for value, label in form.fields["unit"].choices if value]
    squads = [label for label in labels if label.startswith("Squad ")]
    numbers = [int(label.split()[1]) for label in squads]
    assert numbers == sorted(numbers) and set(range(3, 12)) <= set(numbers)
    assert labels.index(f"Squad 9 ({world.force.name})") < labels.index(
        f"Squad 10 ({world.force.name})"
    )
    forces = [label.split(", awaiting review of ")[0].rsplit(" (", 1)[1] for label in labels]
    assert forces == sorted(forces, key=lambda name: name.casefold())


def test_a_list_with_nothing_chosen_yet_says_choose_not_dashes(client, world):
    """The player's "To unit" list opened on "---------", Django's blank: it says what to
    choose ("Choose a unit")."""
    gm = world.users["gm"]
    character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9,
                     player=world.users["player"], actor=gm)  # fmt: skip
    character_create(campaign=world.campaign, name="Sgt. Rook", hit_points=9,
                     player=world.users["player"], actor=gm)  # fmt: skip
    page = login(client, world, "player").get(_orders(world)).text
    form = page.split('id="order-form"', 1)[1].split("</form>", 1)[0]
    for name in ("giver", "unit"):
        select = form.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
        assert re.search(r'<option value=""[^>]*>Choose a [a-z]+</option>', select), select
    for path in (_orders(world), reverse("campaign:characters", args=[world.campaign.pk])):
        assert "---------" not in client.get(path).text


def test_beside_the_clock_the_gm_sees_who_awaits_the_medics_and_till_when(client, world):
    """The Orders page moves the clock, and moving it past a unit's 24 hours kills the Casualty
    hits the medics have not saved: the page names each such unit with when they die, under its
    force, with the way to its medics, as the dashboard's "Needs doing" does; with none, it
    says nothing of them."""
    for unit in Unit.objects.filter(force__campaign=world.campaign, casualty_hits__gt=0):
        unit_edit(unit=unit, changes={"casualty_hits": 0}, reason="set up",
                  actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    assert 'id="medics-due"' not in client.get(_orders(world)).text
    unit = world.force.units.filter(status="ready").first()
    unit_edit(unit=unit, changes={"casualty_hits": 1, "last_battle_day": world.campaign.day},
              reason="set up", actor=world.users["gm"])  # fmt: skip
    page = client.get(_orders(world)).text
    due = page.split('id="medics-due"', 1)[1].split("</section>", 1)[0]
    assert (
        f"<strong>{world.force.name}</strong>: 1 unit with Casualty hits awaiting the medics" in due
    )
    assert f">{unit.name}</a>: 1 Casualty hit awaits the medics" in due
    assert "Unsaved, it dies after day " in due
    force = reverse("campaign:force", args=[world.campaign.pk, world.force.pk])
    assert f'href="{force}' in due
    # A player sees no GM's list: the medics are the GM's to send from here.
    assert 'id="medics-due"' not in login(client, world, "player").get(_orders(world)).text


def test_an_order_other_than_use_skill_given_hours_says_what_to_do_and_keeps_what_was_typed(
    client, world
):
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(force=world.force, unit_type=card, name="1st Squad",
                       specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": ash.pk, "unit": unit.pk, "kind": "attack", "listed_hours": "5",
         "note": "take the ridge"},
    )  # fmt: skip
    assert response.status_code == 400
    error = re.search(r'id="id_order_listed_hours_error">([^<]*)<', response.text)[1]
    assert error == (
        "Attack takes the Orders table&#x27;s time: leave the hours empty, or choose Use Skill "
        "for a skill&#x27;s own time."
    )
    form = response.text.split('id="order-form"', 1)[1]
    assert re.search(r'name="listed_hours" value="5"', form)
    assert re.search(r'<option value="attack" selected>', form)
    assert 'value="take the ridge"' in form
    assert not Order.objects.exists()


def test_a_player_with_no_living_character_of_their_own_is_told_so_whoever_else_has_one(
    client, world
):
    """Another player's characters give the player's units no Order: a player with none of
    their own is told so, with no form to fill, though the campaign has living characters."""
    gm = world.users["gm"]
    character_create(campaign=world.campaign, name="Maj. Kite", hit_points=9,
                     player=world.users["rival"], actor=gm)  # fmt: skip
    page = login(client, world, "player").get(_orders(world)).text
    assert "you have no living character in this campaign" in page
    assert 'id="order-form"' not in page
    page = login(client, world, "rival").get(_orders(world)).text
    assert "you have no living character in this campaign" not in page
    assert 'id="order-form"' in page


def test_a_units_page_tells_the_orders_given_it_and_their_end_in_its_history(client, world):
    """The unit's history, on its page, tells each Order given it, by whom, at what hour and
    to be done when, with the giver's words, and its end: the GM and the unit's player read
    the same lines, newest first."""
    gm = world.users["gm"]
    reyes = character_create(campaign=world.campaign, name="Sgt. Reyes", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    squad = unit_create(force=world.force, unit_type=card, name="1st Squad",
                        specialties=["infantry"])  # fmt: skip
    order = order_give(giver=reyes, unit=squad, kind="use_skill", listed_hours=4,
                       note="hold the Mill", actor=gm)  # fmt: skip
    order_call_off(order=order, actor=gm)
    given = (
        "<strong>Day 1:</strong> Ordered to Use Skill by Sgt. Reyes at 00:00, to be done at "
        "day 1, 03:00: hold the Mill."
    )
    called_off = (
        "<strong>Day 1:</strong> The Order to Use Skill from Sgt. Reyes was called off at 00:00."
    )
    url = reverse("campaign:unit", args=[world.campaign.pk, squad.pk])
    for who in ("gm", "player"):
        history = login(client, world, who).get(url).text.split('id="story-h"', 1)[1]
        assert history.index(called_off) < history.index(given)
