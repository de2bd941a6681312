"""The campaign pages speak the table's words, not the code's: no raw values ("none",
"defender", "Player"), no repository paths, no hit points below zero, and a line said once
where many units share it."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils.text import capfirst

from campaign.models import CampaignBattle, Force, Unit
from campaign.pages.changes import Change
from campaign.pages.orders import orders_going_in
from campaign.rules.orders import clock_text
from campaign.rules.state import CampaignUnitState, LeaderState
from campaign.services.characters import character_create
from campaign.services.leaders import leader_attach
from tests.web.campaign_world import login, raise_units
from units.bucs import Quality

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_a_dead_leader_is_dead_not_minus_23_hit_points(world):
    alive = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE,
                              leader=LeaderState("Capt. Mara Holt", 8))  # fmt: skip
    dead = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE,
                             leader=LeaderState("Capt. Mara Holt", -23, alive=False))  # fmt: skip
    leader = dict((what, (b, a)) for what, b, a, _ in Change(world.unit, alive, dead).cells())
    assert leader["Leader"] == ("Capt. Mara Holt, 8 hit points", "Capt. Mara Holt, dead")


def test_a_reviews_leader_column_gives_a_characters_hit_points_out_of_its_full_ones(world):
    """The unit's page says "Lt. Ada Reyes, 14 of 14 hit points"; the review tables (Apply,
    Revert, the clock's) said "14 hit points" of the same leader."""
    gm = world.users["gm"]
    reyes = character_create(campaign=world.campaign, name="Lt. Ada Reyes", hit_points=14,
                             actor=gm)  # fmt: skip
    leader_attach(unit=world.unit, character=reyes, actor=gm)
    unit = Unit.objects.get(pk=world.unit.pk)
    before = unit.state
    after = before.but(leader=LeaderState("Lt. Ada Reyes", 5))
    cells = {what: (b, a) for what, b, a, _ in Change(unit, before, after).cells()}
    assert cells["Leader"] == (
        "Lt. Ada Reyes, 14 of 14 hit points",
        "Lt. Ada Reyes, 5 of 14 hit points",
    )


def test_a_battles_changes_give_a_leader_since_replaced_out_of_their_full_hit_points(client, world):
    """A battle's changes gave "14 of 14 hit points" only while the leader in the row still
    led the unit: once another character took command, the one who fought there read "14 hit
    points", though their character records their full ones. The battle's entries keep them."""
    from campaign.services.battles import campaign_battle_apply, campaign_battle_record
    from campaign.services.leaders import leader_detach

    gm = world.users["gm"]
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    (squad,), (foe,) = (raise_units(f, card, 1, prefix=p) for f, p in
                        ((world.force, "Ford"), (world.enemy, "Mill")))  # fmt: skip
    reyes, rook = (
        character_create(campaign=world.campaign, name=name, hit_points=hp, actor=gm)
        for name, hp in (("Lt. Ada Reyes", 14), ("Sgt. Rook", 9))
    )
    leader_attach(unit=squad, character=reyes, actor=gm)
    battle = campaign_battle_record(
        campaign=world.campaign, name="Mill ford", sides={"attackers": [squad],
        "defenders": [foe]}, winner="attackers",
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (squad, foe)}, actor=gm,
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=gm)
    login(client, world, "gm")

    def leader_cell() -> str:
        page = client.get(_url("battle", world, battle.pk)).text
        table = page.split('<table class="changes')[1]
        row = table.split(f">{squad.name}</a>")[1].split("</tr>")[0]
        return unescape(re.sub(r"<[^>]+>", "", row.split('data-label="Leader"')[1]))

    assert "Lt. Ada Reyes, 14 of 14 hit points" in leader_cell()
    leader_detach(unit=Unit.objects.get(pk=squad.pk), reason="sent to the staff", actor=gm)
    leader_attach(unit=Unit.objects.get(pk=squad.pk), character=rook, actor=gm)
    assert Unit.objects.get(pk=squad.pk).leader.name == "Sgt. Rook"
    assert "Lt. Ada Reyes, 14 of 14 hit points" in leader_cell()


def test_a_reviews_hits_column_names_only_the_kinds_of_hit_a_unit_carries(world):
    """The review tables' Hits column (the Apply and Revert reviews of battles and engagements,
    the clock's review: all are `Change.cells`) says a unit that carries nothing as the pages
    say it elsewhere, "none", not "0 Morale, 0 Casualty", and what it carries in its history's
    words ("now carries 1 Morale hit"), naming only the kinds it carries: "1 Morale hit", not
    "1 Morale, 0 Casualty"."""
    before = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE)
    after = before.but(morale_hits=1)
    cells = {what: (b, a) for what, b, a, _ in Change(world.unit, before, after).cells()}
    assert cells["Hits"] == ("none", "1 Morale hit")
    healed = {what: (b, a) for what, b, a, _ in Change(world.unit, after, before).cells()}
    assert healed["Hits"] == ("1 Morale hit", "none")
    wounded = after.but(morale_hits=2, casualty_hits=1)
    cells = {what: (b, a) for what, b, a, _ in Change(world.unit, before, wounded).cells()}
    assert cells["Hits"] == ("none", "2 Morale hits and 1 Casualty hit")
    cells = {
        what: (b, a)
        for what, b, a, _ in Change(world.unit, before, before.but(casualty_hits=5)).cells()
    }
    assert cells["Hits"] == ("none", "5 Casualty hits")


def test_a_step_lost_to_suppression_shows_the_skill_lost_beside_it(client, world):
    """Under Combined Arms a point of Skill lost to suppression is a step lost for good: the
    review says so beside the quality it took, where a unit with no hits fell a step unexplained."""
    before = CampaignUnitState(name="Tiger One", quality=Quality.EXPERIENCED)
    after = before.but(quality=Quality.AVERAGE, skill_lost=1)
    cells = {what: (b, a, changed) for what, b, a, changed in
             Change(world.unit, before, after).cells()}  # fmt: skip
    assert cells["Skill lost for good"] == ("0", "1", True)
    assert cells["Quality"] == ("Experienced", "Average", True)
    assert cells["Hits"][2] is False
    page = login(client, world, "player").get(_url("battle", world, world.engine_battle.pk)).text
    table = page.split('<table class="changes told">', 1)[1].split("</table>", 1)[0]
    assert '<th scope="col">Skill lost for good</th>' in table
    assert table.count('data-label="Skill lost for good"') == table.count('<tr class="change-')


def test_a_campaign_battles_report_says_taken_out_where_the_rules_say_destroyed(client, world):
    """On the table a unit is taken out or broken; whether it is destroyed is the bridge's to
    say, and the roster says it. The story, the units table and the replay's key say so."""
    page = login(client, world, "player").get(_url("battle", world, world.engine_battle.pk)).text
    assert "Squad 1 is taken out." in page or "Squad 1 (Red Company) is taken out." in page
    assert " is destroyed." not in page and "is demoralised" not in page
    assert '<td data-label="Outcome">taken out</td>' in page
    assert '<td data-label="Outcome">destroyed</td>' not in page
    assert "Faded: removed (taken out or broken)" in page
    assert '"left": ["still in the field", "taken out", "broken"]' in page  # the replay's


def test_orders_that_went_in_alike_are_said_of_each_unit_they_name():
    """Two units that went in without an Order shared a line that went on "It fights with the
    without-Orders column", and two Green ones "…: it holds in place": one "it" for several
    units. A shared line speaks of each; a unit alone keeps its "it"."""
    red, blue = Force(pk=1, name="Red Company"), Force(pk=2, name="Blue Battalion")
    a, b, c = (Unit(pk=pk, name=name, force=force) for pk, name, force in
               [(1, "Atlas", red), (2, "Iron Wolf", blue), (3, "Scout Car", blue)])  # fmt: skip
    alone = {"text": "No Order: it goes in without one. It fights with the without-Orders "
             "column and its own judgement."}  # fmt: skip
    green = {"text": "No Order: it goes in without one. Green units act alone only after an "
             "Order: it holds in place."}  # fmt: skip
    assert orders_going_in([a, b, c], {"1": alone, "2": alone, "3": green}) == [
        (
            "Atlas (Red Company) and Iron Wolf (Blue Battalion)",
            "went in without an Order. Each fights with the without-Orders column and its own "
            "judgement.",
        ),
        (
            "Scout Car (Blue Battalion)",
            "went in without an Order. Green units act alone only after an Order: it holds in "
            "place.",
        ),
    ]
    (line,) = orders_going_in([b, c], {"2": green, "3": green})
    assert line == (
        "Every unit of Blue Battalion",
        "went in without an Order. Green units act alone only after an Order: each holds in place.",
    )


def test_orders_that_went_in_alike_are_said_once(client, world):
    red, blue = Force(pk=1, name="Red Company"), Force(pk=2, name="Blue Battalion")
    a, b, c, d, e = (Unit(pk=pk, name=name, force=force) for pk, name, force in
                     [(1, "Atlas", red), (2, "Aid Post", red), (3, "Iron Wolf", blue),
                      (4, "Blue Rifles", blue), (5, "Tiger One", red)])  # fmt: skip
    attack = {"text": "The set-up's standing Order: attacks."}
    hold = {"text": "The set-up's standing Order: holds."}
    orders = {"1": attack, "2": attack, "3": attack, "4": attack, "5": attack}
    # Every unit alike: one short line, the forces named once each.
    assert orders_going_in([a, b, c, d, e], orders) == [
        ("Every unit of Red Company and Blue Battalion", ATTACKED)
    ]
    # Some of a force's units otherwise: those by name, with their force.
    orders |= {"2": hold, "5": hold}
    # One plain sentence: the units named first, then the forces whole.
    assert orders_going_in([a, b, c, d, e], orders) == [
        ("Atlas (Red Company) and every unit of Blue Battalion", ATTACKED),
        (
            "Aid Post and Tiger One (Red Company)",
            "went in to hold, under the set-up's standing Order.",
        ),
    ]
    # A unit alone in its force is named; a unit the reader does not see is left out.
    assert orders_going_in([a, c], orders) == [
        ("Atlas (Red Company) and Iron Wolf (Blue Battalion)", ATTACKED)
    ]
    # A part that names several units is set off by a comma, so its "and" is its own.
    orders |= {"1": hold, "2": hold, "3": hold, "5": attack}
    assert orders_going_in([a, b, c, d, e], orders)[0] == (
        "Atlas and Aid Post (Red Company), and Iron Wolf (Blue Battalion)",
        "went in to hold, under the set-up's standing Order.",
    )
    assert ";" not in "".join(who for who, _ in orders_going_in([a, b, c, d, e], orders))
    cb = world.engine_battle
    page = login(client, world, "gm").get(_url("battle", world, cb.pk)).text
    texts = [going["text"] for going in CampaignBattle.objects.get(pk=cb.pk).orders.values()]
    assert len(texts) > len(set(texts)), "the world's units went in under the same Order"
    said = page.split('class="battle-orders"')[1].split("</ul>")[0]
    assert said.count("<li>") == len(set(texts))
    assert "every unit of" in said.lower()
    assert not any(";" in who for who in re.findall(r"<strong>(.*?)</strong>", said))
    # One sentence after the units it names: no capital after a colon, no second colon.
    assert "</strong> went in to " in said and "</strong>: " not in said


ATTACKED = "went in to attack, under the set-up's standing Order."


def test_a_table_result_says_how_each_unit_left_in_words(client, world):
    page = login(client, world, "gm").get(_url("battle", world, world.table_battle.pk)).text
    losses = page.split("Losses as entered")[1].split("</table>")[0]
    assert ">Still in the field</td>" in losses and ">none</td>" not in losses
    # Hits lost of the Hits the card has, as an engine battle's report says them.
    cb = CampaignBattle.objects.get(pk=world.table_battle.pk)
    for pk in cb.table_result["units"]:
        hits = Unit.objects.get(pk=pk).unit_type.card["hits"]
        assert f'<td class="num" data-label="Hits lost">0 of {hits}</td>' in losses
    # Skill lost says what its number counts, not a bare "0".
    assert '<td class="num" data-label="Skill lost">0 points</td>' in losses
    assert '<td class="num" data-label="Skill lost">0</td>' not in losses
    # A fresh unit in each force: the units of the battle still under review are not offered.
    for force in (world.force, world.enemy):
        raise_units(force, world.unit.unit_type, 1, "Fresh")
    form = client.get(_url("battle-record", world)).text
    assert '<option value="none" selected>Still in the field</option>' in form
    # Taken out or broken on the table, not "Destroyed": the bridge says what it costs the unit.
    assert '<option value="destroyed">Taken out (destroyed on the table)</option>' in form
    assert '<option value="demoralised">Broken (demoralised on the table)</option>' in form
    # The sides are named after the forces, not "attackers" and "defenders".
    sides = re.findall(r'name="side_[ab]"[^>]*value="([^"]*)"', form)
    assert sides == [world.enemy.name, world.force.name], sides
    assert ">None</option>" not in form


def test_a_table_result_left_half_filled_names_the_unit_of_each_empty_box(client, world):
    """A row's box left empty is named as the page labels it, by its unit, never by the
    unit's number in the database ("Fill in “Hits lost 12”."), and nothing is recorded."""
    [red] = raise_units(world.force, world.unit.unit_type, 1, "Fresh")
    [blue] = raise_units(world.enemy, world.unit.unit_type, 1, "Pickets")
    login(client, world, "gm")
    battles = CampaignBattle.objects.count()
    form = client.get(_url("battle-record", world)).text
    key = re.search(r'name="request_key" value="([^"]*)"', form)[1]
    refused = client.post(
        _url("battle-record", world),
        {"request_key": key, "name": "Mill", "day": 1, "side_a": world.enemy.name,
         "side_b": world.force.name, "winner": "a",
         f"side_{blue.pk}": "a", f"hits_lost_{blue.pk}": "0", f"skill_lost_{blue.pk}": "",
         f"removed_{blue.pk}": "none",
         f"side_{red.pk}": "b", f"hits_lost_{red.pk}": "", f"skill_lost_{red.pk}": "0",
         f"removed_{red.pk}": ""},
    )  # fmt: skip
    assert refused.status_code == 400
    page = unescape(refused.text)
    assert "Fill in “Hits lost by Fresh 1”." in page
    assert "Fill in “Skill lost by Pickets 1”." in page
    assert "Choose one for “How Fresh 1 left”." in page
    assert f"Hits lost {red.pk}" not in page and f"Skill lost {blue.pk}" not in page
    assert f'<label class="visually-hidden" for="id_table_result_hits_lost_{red.pk}">' in (
        refused.text
    )
    assert CampaignBattle.objects.count() == battles


def test_a_table_result_asks_for_its_winner_and_takes_no_forgotten_one_for_a_draw(client, world):
    """The winner starts unchosen: a result sent without one is refused in words, nothing
    recorded; a draw is said so by choosing Neither, and records no winner."""
    [red] = raise_units(world.force, world.unit.unit_type, 1, "Fresh")
    [blue] = raise_units(world.enemy, world.unit.unit_type, 1, "Pickets")
    login(client, world, "gm")
    form = client.get(_url("battle-record", world)).text
    winner = form.split('name="winner"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected>Choose the winner</option>' in winner
    assert '<option value="draw">Neither (a draw)</option>' in winner
    battles = CampaignBattle.objects.count()
    data = {"name": "Mill", "day": 1, "side_a": world.enemy.name, "side_b": world.force.name}
    for pk in re.findall(r'name="hits_lost_(\d+)"', form):
        side = {blue.pk: "a", red.pk: "b"}.get(int(pk), "")
        data.update({f"side_{pk}": side, f"hits_lost_{pk}": "0", f"skill_lost_{pk}": "0",
                     f"removed_{pk}": "none"})  # fmt: skip
    for winner in ({}, {"winner": ""}):
        key = re.search(r'name="request_key" value="([^"]*)"', form)[1]
        refused = client.post(_url("battle-record", world), {**data, **winner, "request_key": key})
        assert refused.status_code == 400
        assert "Choose the side that won, or Neither (a draw)." in unescape(refused.text)
        assert CampaignBattle.objects.count() == battles
    key = re.search(r'name="request_key" value="([^"]*)"', form)[1]
    drawn = client.post(
        _url("battle-record", world), {**data, "winner": "draw", "request_key": key}
    )
    assert drawn.status_code == 302
    battle = CampaignBattle.objects.latest("pk")
    assert battle.name == "Mill" and battle.table_result["winner"] is None


def test_the_dashboard_names_a_members_part_in_plain_words(client, world):
    expected = {"gm": "you are the GM", "player": "you are a player",
                "spectator": "you are a spectator"}  # fmt: skip
    for role, words in expected.items():
        assert words in login(client, world, role).get(_url("dashboard", world)).text, role


def test_the_characters_page_says_what_each_feat_does_without_a_repository_path(client, world):
    page = login(client, world, "player").get(_url("characters", world)).text
    assert "docs/" not in page
    assert "<dt>Strategist</dt><dd>" in page and "rallies Morale hits; trains units" in page
    assert "<dt>Leadership</dt><dd>+1 to the unit&#x27;s combat rolls; +1 to its skill" in page


def test_the_engagements_page_says_not_fighting_and_no_engagement_yet(client, world):
    page = login(client, world, "gm").get(_url("engagement-setup", world)).text
    assert "No engagement fought yet." in page and "None yet." not in page
    assert '<option value="" selected>Not fighting</option>' in page


def test_a_revert_gives_quality_back_and_undoes_a_promotion_rather_than_promoting(world):
    from django.template.loader import render_to_string

    average = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE)
    green = CampaignUnitState(name="Atlas", quality=Quality.GREEN)
    rows = [Change(world.unit, green, average), Change(world.enemy_unit, average, green)]

    def words(**context):
        html = render_to_string(
            "campaign/_changes.html", {"changes": rows, "campaign": world.campaign, **context}
        )
        return [part.split("</strong>")[0] for part in html.split('class="change-word">')[1:]]

    assert words() == ["promoted", "reduced"]
    assert words(reverting=True) == ["quality given back", "promotion undone"]


def test_a_role_reads_as_a_sentence_says_it(client, world):
    from campaign.models import role_phrase

    assert [role_phrase(r) for r in ("co_gm", "player", "spectator")] == [
        "a co-GM",
        "a player",
        "a spectator",
    ]
    login(client, world, "gm")
    members = reverse("campaign:member-set", args=[world.campaign.pk])
    done = client.post(members, {"username": "spectator", "role": "co_gm"}, follow=True)
    assert "spectator is a co-GM now." in done.text


def test_an_engagement_named_by_its_units_reads_as_a_title(client, world):
    from campaign.models import Unit
    from campaign.services import unit_edit
    from campaign.services.engagements import engagement_run

    gm = world.users["gm"]
    fresh = {"status": "ready", "morale_hits": 0, "casualty_hits": 0}
    for unit in (world.unit, world.enemy_unit):
        unit_edit(unit=unit, changes=fresh, reason="fresh", actor=gm)
    attacker, defender = (Unit.objects.get(pk=u.pk) for u in (world.unit, world.enemy_unit))
    sides = {"attackers": [attacker], "defenders": [defender]}
    engagement = engagement_run(campaign=world.campaign, sides=sides, seed=3, actor=gm)
    assert engagement.name.startswith("engagement, ")  # the service's name, untouched
    page = login(client, world, "gm").get(_url("engagement", world, engagement.pk)).text
    assert f"<h1>Engagement, {attacker.name} against {defender.name}</h1>" in page
    listing = client.get(_url("engagement-setup", world)).text
    assert f">Engagement, {attacker.name} against {defender.name}</a>" in listing


def _fresh_units(world):
    """Red Company's unit and Blue Battalion's, both made ready and unhurt."""
    from campaign.models import Unit
    from campaign.services import unit_edit

    fresh = {"status": "ready", "morale_hits": 0, "casualty_hits": 0}
    for unit in (world.unit, world.enemy_unit):
        unit_edit(unit=unit, changes=fresh, reason="fresh", actor=world.users["gm"])
    return [Unit.objects.get(pk=u.pk) for u in (world.unit, world.enemy_unit)]


def _fresh_engagement(world, **options):
    """Red Company's unit against Blue Battalion's, fought through the service."""
    from campaign.services.engagements import engagement_run

    attacker, defender = _fresh_units(world)
    sides = {"attackers": [attacker], "defenders": [defender]}
    return engagement_run(campaign=world.campaign, sides=sides, actor=world.users["gm"], **options)


def test_a_dead_leader_is_said_to_be_dead_not_to_lead_in_an_engagement_and_the_roster(
    client, world
):
    from campaign.models import Character, Leader
    from campaign.services import leader_attach
    from campaign.services.characters import character_create

    gm = world.users["gm"]
    reyes = character_create(campaign=world.campaign, name="Lt. Ada Reyes", hit_points=9,
                             player=world.users["player"], actor=gm)  # fmt: skip
    leader_attach(unit=world.unit, character=reyes, actor=gm)
    # She fell in yesterday's battle: the unit keeps her at its head, dead, as the bridge does.
    Leader.objects.filter(character=reyes).update(hit_points=-12, alive=False)
    Character.objects.filter(pk=reyes.pk).update(hit_points=-12, alive=False)
    engagement = _fresh_engagement(world, seed=3)
    login(client, world, "gm")
    page = client.get(_url("engagement", world, engagement.pk)).text
    assert re.search(
        rf"<li><a href=\"[^\"]+\">{world.unit.name}</a> \([A-Za-z]+\), its leader Lt\. Ada Reyes "
        "is dead",
        page,
    )
    assert "led by Lt. Ada Reyes" not in page
    roster = client.get(_url("force", world, world.force.pk)).text
    assert "its leader Lt. Ada Reyes is dead" in roster
    assert "led by Lt. Ada Reyes" not in roster


def test_a_units_page_and_card_say_its_fallen_leader_is_dead_not_minus_22_hit_points(client, world):
    from campaign.models import Character, Leader
    from campaign.services import leader_attach
    from campaign.services.characters import character_create

    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Mara Holt", hit_points=18,
                            player=world.users["player"], actor=gm)  # fmt: skip
    leader_attach(unit=world.unit, character=holt, actor=gm)
    # She fell in the last battle: 25 damage left her at -22, and the unit keeps her, dead.
    Leader.objects.filter(character=holt).update(hit_points=-22, alive=False)
    Character.objects.filter(pk=holt.pk).update(hit_points=-22, alive=False)
    login(client, world, "player")
    page = client.get(_url("unit", world, world.unit.pk)).text
    assert "<dt>Leader</dt><dd>Capt. Mara Holt, dead</dd>" in page
    card = client.get(_url("unit-card", world, world.unit.pk)).text
    assert "<td>Capt. Mara Holt (dead)</td>" in card
    for text in (page, card):
        assert "22 hit points" not in text


def test_an_engagements_hit_says_what_the_unit_fights_as_from_then_on(client, world):
    """Round 3 showed the Scout Car "Green" where round 2 had it "Inexperienced", and nothing
    said why: the Morale hit between them now says what it fights as from then on."""
    engagement = _fresh_engagement(world, seed=3)
    names = {str(u.pk): u.name for u in Unit.objects.filter(force__campaign=world.campaign)}
    stepped = [e for e in engagement.events if e["event"] == "hit" and e.get("fights_as")]
    assert stepped, "seed 3 lands a hit that does not break its unit"
    page = login(client, world, "player").get(_url("engagement", world, engagement.pk)).text
    for hit in stepped:
        kind = hit["kind"].capitalize()
        name, fights_as = names[hit["unit"]], hit["fights_as"]
        assert f"{name} took a {kind} hit: it then fought as {fights_as}.</p>" in page


def test_the_engagements_list_names_the_winners_force_and_counts_rounds_in_words(client, world):
    one = _fresh_engagement(world, seed=3, round_limit=1, name="the first clash")
    forces = {"attackers": world.force.name, "defenders": world.enemy.name}
    outcome = f"{forces[one.winner]} won" if one.winner else "no winner"
    page = login(client, world, "player").get(_url("engagement-setup", world)).text
    listed = page.split('<ul id="engagements">')[1].split("</ul>")[0]
    assert f"The first clash</a> — day {one.day}, {outcome} after 1 round<" in listed
    assert "1 rounds" not in listed
    assert "attackers" not in listed and "defenders" not in listed


def test_an_engagement_says_which_force_won_each_round_and_the_surprise(client, world):
    engagement = _fresh_engagement(world, seed=3, surprise="attackers")
    forces = {"attackers": world.force.name, "defenders": world.enemy.name}  # Red, Blue
    assert engagement.winner in forces, "the seed gives a winner"
    won = forces[engagement.winner]
    page = login(client, world, "player").get(_url("engagement", world, engagement.pk)).text
    assert f"<strong>{won} won</strong>" in page
    # The line-up heads each side by its role and its forces.
    assert f"<h2>Attackers: {world.force.name}</h2>" in page
    assert f"<h2>Defenders: {world.enemy.name}</h2>" in page
    # Seed 3: Red Company hides and is spotted, so nobody starts with Momentum.
    surprise = page.split('id="surprise">')[1].split("</p>")[0]
    assert surprise.startswith(f"Surprise: {world.force.name} hid — Hide d20")
    assert surprise.endswith(f": {world.enemy.name} spotted them: nobody started with Momentum.")
    # Hide and Spot are skill checks: their working names every term, as a check's does.
    hide = surprise.split(" against ")[0].split(" hid — ")[1]
    assert hide.startswith("Hide d20 ") and " quality, alone without Orders: " in hide
    assert " equipment: " in hide and hide.count(";") == 2
    captions = [c.split("</caption>")[0] for c in page.split('<caption class="small">')[1:]]
    assert captions and all(not c.startswith("the ") for c in captions), captions
    assert any(c.startswith(f"{won} won by ") for c in captions), captions
    # A round won by too little to hurt says so, not "0 hits".
    assert not any(c.endswith(": 0 hits") for c in captions), captions
    assert all(
        re.search(
            r": (no hits|[1-9]\d* hits?)(; the first .* never landed)?(; Driven Back)?$|a tie", c
        )
        for c in captions
    )
    for engine_words in ("the attackers", "the defenders"):
        assert engine_words not in page
    timeline = client.get(_url("timeline", world)).text
    rounds = f"{engagement.rounds} round{'s' if engagement.rounds != 1 else ''}"
    assert f"{capfirst(engagement.name)}: {won} won after {rounds} (applied)" in timeline
    assert "attackers won" not in timeline and "defenders won" not in timeline
    # An engagement fought before surprise was the hiders' alone gave the watch its Momentum,
    # and its events do not say whose it was: its log still says what that fight did.
    for event in engagement.events:
        event.pop("momentum", None)
    engagement.save(update_fields=["events"])
    page = client.get(_url("engagement", world, engagement.pk)).text
    surprise = page.split('id="surprise">')[1].split("</p>")[0]
    assert surprise.endswith(f": {world.enemy.name} started at +2 Momentum.")
    # One fought before Hide and Spot were skill checks kept only their sums; it still reads.
    for event in engagement.events:
        for role in ("hide", "spot") if event["event"] == "surprise" else ():
            check = event[role]
            value = sum(m[1] for m in check.pop("modifiers"))
            event[role] = {"d20": check["d20"], "quality": value, "feats": 0,
                           "total": check["total"]}  # fmt: skip
    engagement.save(update_fields=["events"])
    page = client.get(_url("engagement", world, engagement.pk)).text
    surprise = page.split('id="surprise">')[1].split("</p>")[0]
    assert " equipment" not in surprise and " = " in surprise.split(" against ")[0]
    # Seed 15: Red Company hides unseen, and starts at +2 Momentum.
    unseen = _fresh_engagement(world, seed=15, surprise="attackers")
    page = client.get(_url("engagement", world, unseen.pk)).text
    surprise = page.split('id="surprise">')[1].split("</p>")[0]
    assert surprise.startswith(f"Surprise: {world.force.name} hid — Hide d20")
    assert surprise.endswith(f": {world.force.name} started at +2 Momentum.")


def test_the_gm_is_told_which_force_won_the_engagement_just_fought(client, world):
    from campaign.models import Engagement
    from campaign.services import campaign_update

    # Applied at once, so that the engagement page says what was just fought.
    campaign_update(campaign=world.campaign, apply_mode="auto", actor=world.users["gm"])
    attacker, defender = _fresh_units(world)
    data = {"terrain": "open", "round_limit": "5", "seed": "3", f"side_{attacker.pk}": "attackers",
            f"side_{defender.pk}": "defenders"}  # fmt: skip
    login(client, world, "gm")
    done = client.post(_url("engagement-setup", world), data, follow=True).text
    fought = Engagement.objects.get()
    won = {"attackers": world.force.name, "defenders": world.enemy.name}[fought.winner]
    rounds = f"{fought.rounds} round{'s' if fought.rounds != 1 else ''}"
    assert f": {won} won after {rounds}." in done
    assert "attackers won" not in done and "defenders won" not in done


def test_a_side_of_several_forces_is_named_by_them_all_and_by_its_role_only_when_none_is_left(
    world,
):
    from campaign.models import Engagement
    from campaign.pages.sides import engagement_sides

    mixed = Engagement(pk=1, setup={"sides": {"attackers": [world.unit.pk, world.enemy_unit.pk],
                                              "defenders": [10**9]}})  # fmt: skip
    assert engagement_sides([mixed])[1] == {
        "attackers": f"{world.force.name} and {world.enemy.name}",
        "defenders": "the defenders",  # no unit of the side is left to name
    }


class _WithoutJavaScript(HTMLParser):
    """What a page shows a reader whose browser runs no script: its text and its buttons'
    words, leaving out whatever is ``hidden`` until a script shows it."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}  # fmt: skip

    def __init__(self, page: str) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []
        self.words: list[str] = []
        self.buttons: list[str] = []
        self.feed(page)

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.words))

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        unseen = (self.open and self.open[-1][1]) or "hidden" in dict(attrs)
        self.open.append((tag, unseen or tag in ("script", "style")))
        if tag == "button" and not unseen:
            self.buttons.append("")

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if self.open and self.open[-1][1]:
            return
        self.words.append(data)
        if any(tag == "button" for tag, _ in self.open):
            self.buttons[-1] += data.strip()


def test_the_map_editor_without_javascript_speaks_of_numbers_and_one_save_for_each_way(
    client, world
):
    page = login(client, world, "gm").get(_url("map-add", world)).text
    shown = _WithoutJavaScript(page)
    assert "Give the map as numbers in the form below" in shown.text
    assert "drag" not in shown.text and "palette" not in shown.text
    assert shown.buttons.count("Save the map") == 1, shown.buttons
    assert "Or paste a scenario document" in shown.text and "Save the document" in shown.buttons
    # The editor's own words are on the page for map-editor.js to show once it runs.
    assert '<p class="lede" data-map-editor-text hidden>Set the table' in page
    assert "drag its corners" in page


def test_the_battle_set_up_without_javascript_says_to_type_positions_not_to_drag(client, world):
    page = login(client, world, "gm").get(_url("battle-setup", world)).text
    shown = _WithoutJavaScript(page).text
    assert "on its two sides: type their positions in the table." in shown
    assert "drag" not in shown
    assert "<span data-deploy-drag hidden>drag them on the map" in page
    # The map's unit marks are pictures until the script makes them controls: none says how
    # to drag it, nor is it a button one cannot press.
    marks = page.split('<g class="deploy-layer">')[1].split("</g>\n</svg>")[0]
    assert 'class="deploy-unit' in marks
    assert "arrow keys" not in marks and 'role="button"' not in marks


def test_the_import_page_tells_the_gm_what_to_do_on_the_page_not_at_a_command_line(client, world):
    page = login(client, world, "gm").get(reverse("campaign:import")).text
    assert "manage.py" not in page and "<code>" not in page.split("<h1>")[1].split("</form>")[0]
    assert '(from "Export the whole campaign" on its page)' in page
    assert "dashboard" not in page
    assert (
        "Choose the file, or paste what it holds: you become the new campaign's GM, whoever the "
        "file names as its GM."
    ) in page
    dashboard = client.get(_url("dashboard", world)).text
    assert ">Export the whole campaign</a>" in dashboard  # the link the page sends the GM to


def test_the_orders_form_says_what_its_hours_are(client, world):
    page = login(client, world, "gm").get(_url("orders", world)).text
    assert "Hours the skill takes (Use Skill only)" in page
    assert "Left empty: 2 hours, as the Orders table lists." in page
    assert "blank: the table" not in page


def test_a_replaced_order_says_when_it_was_replaced_not_when_it_would_have_been_done(client, world):
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    unit = world.force.units.filter(status="ready").first()  # an Order goes to a ready unit
    order_give(giver=holt, unit=unit, kind="use_skill", listed_hours=6, actor=gm)
    attack = order_give(giver=holt, unit=unit, kind="attack", actor=gm)
    page = login(client, world, "player").get(_url("orders", world)).text
    states = re.findall(r'<span class="order-state">([^<]*)</span>', page)
    assert states == [f"Under way, done at {clock_text(attack.finishes_at)}",
                      "Replaced at day 1, 00:00"]  # fmt: skip
    assert "Done at</th>" not in page


def test_a_refusal_on_its_own_starts_with_a_capital_and_a_name_stays_as_given(world):
    from campaign.templatetags.sentences import as_sentence

    assert as_sentence("give the battle a name") == "Give the battle a name."
    assert as_sentence("Squad 1 is still in Pending") == "Squad 1 is still in Pending."
    # A refusal that opens with one of the campaign's names keeps it as given.
    raise_units(world.force, world.unit.unit_type, 1, "recon")
    gm = world.users["gm"].get_username()
    assert as_sentence(f"{gm} is this campaign's GM", world.campaign).startswith(f"{gm} is")
    assert as_sentence("recon 1 cannot fight", world.campaign) == "recon 1 cannot fight."
    assert as_sentence("recontact the unit", world.campaign) == "Recontact the unit."


def test_the_dashboards_refusals_read_as_sentences(client, world):
    login(client, world, "gm")
    url = reverse("campaign:force-create", args=[world.campaign.pk])
    response = client.post(url, {"owner": "nobody", "name": "Ghosts"})
    assert response.status_code == 400
    assert "No one in this campaign is called “nobody”" in response.text
    engagement = client.post(
        reverse("campaign:engagement-setup", args=[world.campaign.pk]),
        {"terrain": "open", "round_limit": "3"},
    )
    errors = engagement.text.split('class="form-errors"')[1].split("</div>")[0]
    assert re.search(r"<p>[A-Z]", errors) and not re.search(r"<p>[a-z]", errors)


def test_a_refusal_quotes_a_name_one_way_whether_or_not_it_holds_an_apostrophe(client, world):
    """A refusal repeats the name it was given in curly quotes, “…”, the same for a name with an
    apostrophe and one without: never one in single quotes and the other in double."""
    login(client, world, "gm")
    forces = _url("force-create", world)
    characters = _url("character-create", world)
    for name in ("Green Guards", "Holt's Raiders"):
        assert client.post(forces, {"owner": "player", "name": name}).status_code == 302
        again = client.post(forces, {"owner": "player", "name": name})
        assert again.status_code == 400
        assert f"already has a force called “{name}”; choose another name" in unescape(again.text)
    for name in ("Lt. Ash", "Capt. O'Hara"):
        assert client.post(characters, {"name": name, "hit_points": "9"}).status_code == 302
        again = client.post(characters, {"name": name, "hit_points": "9"})
        assert again.status_code == 400
        assert f"already has a character called “{name}”; choose another name" in unescape(
            again.text
        )


def test_text_too_long_for_its_box_is_named_by_the_box_not_in_djangos_words(client, world):
    # A note or reason longer than its box takes (sent by a client that does not stop at the
    # box's length) read "Ensure this value has at most 300 characters (it has 400).", naming
    # no box of the form; nothing is given or moved.
    from campaign.models import Order
    from campaign.services.characters import character_create

    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, feats=[],
                            actor=gm)  # fmt: skip
    login(client, world, "gm")
    order = {"giver": holt.pk, "unit": world.unit.pk, "kind": "attack", "note": "x" * 400}
    refused = client.post(_url("order-give", world), order)
    assert refused.status_code == 400
    page = unescape(refused.text)
    assert "“Note” takes at most 300 characters; this one has 400." in page
    assert "Ensure this value" not in page
    assert not Order.objects.exists()
    refused = client.post(_url("unit-move", world, world.unit.pk),
                          {"force": world.enemy.pk, "reason": "r" * 301})  # fmt: skip
    assert "takes at most 300 characters; this one has 301." in unescape(refused.text)
    assert Unit.objects.get(pk=world.unit.pk).force_id == world.force.pk
