"""The table's pages without a browser: an NPC needs no player, and a refused action is a 400
that writes nothing."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.urls import reverse

from campaign.models import Character, Engagement, Order
from campaign.services import leader_attach
from campaign.services.characters import character_create
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def test_the_gm_creates_an_npc_and_a_players_character(client, world):
    login(client, world, "gm")
    url = reverse("campaign:character-create", args=[world.campaign.pk])
    response = client.post(url, {"name": "Sgt. Rook", "hit_points": "9"})
    assert response.status_code == 302
    response = client.post(url, {"name": "Lt. Ash", "hit_points": "12", "player": "player",
                                 "feats": ["special_forces"]})  # fmt: skip
    assert response.status_code == 302
    found = {c.name: c for c in Character.objects.filter(campaign=world.campaign)}
    assert found["Sgt. Rook"].player is None and found["Lt. Ash"].player == world.users["player"]
    # Nobody by that name, or an account outside the campaign: refused in the same words.
    for name in ("nobody", "outsider"):
        response = client.post(url, {"name": "Ghost", "hit_points": "5", "player": name})
        assert response.status_code == 400
        assert f"No one in this campaign is called “{name}”" in response.text
    page = login(client, world, "player").get(
        reverse("campaign:characters", args=[world.campaign.pk])
    )
    assert "Lt. Ash" in page.text and "yours" in page.text


def test_the_characters_page_lists_every_leader_with_the_unit_it_leads(client, world):
    gm = world.users["gm"]
    # A leader named on the unit's page, and one of the campaign's characters who joined a unit.
    leader_attach(unit=world.unit, name="Capt. Mara Holt", hit_points=14, actor=gm)
    rook = character_create(campaign=world.campaign, name="Sgt. Rook", hit_points=9, actor=gm)
    leader_attach(unit=world.enemy_unit, character=rook, actor=gm)
    page = login(client, world, "player").get(
        reverse("campaign:characters", args=[world.campaign.pk])
    )
    assert "No characters yet" not in page.text
    rows = {
        re.sub(r"<[^>]+>|\s+", " ", row).split(" NPC ")[0].strip(): row
        for row in page.text.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    }
    assert set(rows) == {"Capt. Mara Holt", "Sgt. Rook"}
    assert (
        world.unit.name in rows["Capt. Mara Holt"]
        and "named with the unit" in rows["Capt. Mara Holt"]
    )
    assert ">14 hit points<" in rows["Capt. Mara Holt"]
    assert world.enemy_unit.name in rows["Sgt. Rook"] and "9 of 9" in rows["Sgt. Rook"]
    assert "without feats; it gives no Orders" in page.text


def test_an_engagement_without_defenders_is_refused_and_nothing_is_written(client, world):
    login(client, world, "gm")
    url = reverse("campaign:engagement-setup", args=[world.campaign.pk])
    page = client.get(url)
    assert page.status_code == 200
    ready = world.enemy_unit
    assert ready.status == "ready"
    response = client.post(url, {"terrain": "swamp", "round_limit": "3",
                                 f"side_{ready.pk}": "attackers"})  # fmt: skip
    assert response.status_code == 400
    assert "The defenders need at least one unit" in response.text
    assert not Engagement.objects.exists()


def test_a_unit_out_of_action_put_on_a_side_is_refused_by_name_and_nothing_is_written(
    client, world
):
    """A page drawn before the unit retreated still offers it: the form names it and why,
    rather than fighting without it."""
    login(client, world, "gm")
    url = reverse("campaign:engagement-setup", args=[world.campaign.pk])
    assert world.unit.status == "retreated"
    response = client.post(url, {"terrain": "swamp", "round_limit": "3",
                                 f"side_{world.unit.pk}": "attackers",
                                 f"side_{world.enemy_unit.pk}": "defenders"})  # fmt: skip
    assert response.status_code == 400
    named = f"{world.unit.name} ({world.force.name}) cannot fight: retreated in poor order"
    assert named in response.text
    assert not Engagement.objects.exists()


def _table_units(world):
    """Red Company's two squads and Blue Battalion's Iron Wolf, set as the test needs them: one
    destroyed, one retreated in poor order with Morale hits to rally, one ready and unhurt (and
    any reserves the world raised destroyed, out of the way)."""
    from campaign.models import Unit
    from campaign.services import unit_edit

    units = [world.unit, world.force.units.get(name="Squad 2"), world.enemy_unit]
    states = [
        {"status": "destroyed", "morale_hits": 0, "casualty_hits": 0},
        {"status": "retreated", "morale_hits": 2, "casualty_hits": 0},
        {"status": "ready", "morale_hits": 0, "casualty_hits": 0},
    ]
    others = Unit.objects.filter(force__campaign=world.campaign).exclude(
        pk__in=[u.pk for u in units]
    )
    for unit, changes in [*zip(units, states, strict=True), *((u, states[0]) for u in others)]:
        changes = {**changes, "in_combat_zone": False}
        unit_edit(unit=unit, changes=changes, reason="set", actor=world.users["gm"])
    return [Unit.objects.select_related("force").get(pk=u.pk) for u in units]


def _offered(page: str, form_id: str, field: str) -> list[str]:
    """The unit labels a form's field offers, as a select's options or as checkboxes."""
    form = page.split(f'id="{form_id}"')[1].split("</form>")[0]
    select = re.search(rf'<select name="{field}"[^>]*>(.*?)</select>', form, re.S)
    if select:
        return re.findall(r'<option value="\d+"[^>]*>([^<]*)</option>', select[1])
    return re.findall(rf'<input type="checkbox" name="{field}" value="\d+"[^>]*> ([^<]*)</label>',
                      form)  # fmt: skip


def test_the_table_offers_only_units_that_can_do_what_is_asked(client, world):
    destroyed, retreated, ready = (f"{u.name} ({u.force.name})" for u in _table_units(world))
    login(client, world, "gm")
    page = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    # A character may take command of a retreated unit in camp; a Strategist rallies its hits.
    assert _offered(page, "join-form", "unit") == [ready, retreated]
    assert _offered(page, "train-form", "unit") == [ready]
    assert _offered(page, "rally-form", "unit") == [retreated]
    # An Order goes to a unit in action only, as a check does; the others are named under it.
    orders = client.get(reverse("campaign:orders", args=[world.campaign.pk])).text
    assert _offered(orders, "order-form", "unit") == [ready]
    left_out = orders.split('id="order-form"')[1].split("</form>")[0]
    assert f"Retreated in poor order, out of action until R&amp;R rallies them: {retreated}" in (
        left_out
    )
    checks = client.get(reverse("campaign:checks", args=[world.campaign.pk])).text
    fields = [("skill-form", "lead"), ("skill-form", "helpers"), ("contest-form", "active"),
              ("contest-form", "resisting_helpers")]  # fmt: skip
    for form, field in fields:
        assert _offered(checks, form, field) == [ready], (form, field)
    # The Characters page names it only among the units its forms leave out, and why.
    assert destroyed not in re.sub(r'<div class="left-out small">.*?</div>', "", page, flags=re.S)
    assert f"{destroyed}.</li>" in page
    # The checks name it only under their forms, among the units they leave out and why.
    said = re.sub(r'<div class="left-out small">.*?</div>', "", checks, flags=re.S)
    assert destroyed not in said and destroyed in checks


def test_a_unit_no_longer_offered_is_refused_by_name_and_nothing_is_written(client, world):
    from campaign.models import HistoryEntry, Leader, TableRoll
    from campaign.services.characters import character_create

    destroyed, retreated, ready = _table_units(world)
    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            feats=["strategist"], actor=gm)  # fmt: skip
    login(client, world, "gm")
    entries = HistoryEntry.objects.count()

    def refused(name, data, field):
        response = client.post(reverse(f"campaign:{name}", args=[world.campaign.pk]), data)
        assert response.status_code == 400, name
        return re.search(rf'id="id_[a-z_]+_{field}_error">([^<]*)<', response.text)[1]

    join = {"character": holt.pk, "unit": destroyed.pk}
    assert refused("character-join", join, "unit") == (
        f"{destroyed.name} ({destroyed.force.name}) cannot take a leader: it is destroyed."
    )
    train = {"character": holt.pk, "unit": retreated.pk}
    assert refused("character-train", train, "unit") == (
        f"{retreated.name} ({retreated.force.name}) cannot train: a unit must be ready to train; "
        "this one is Retreated in poor order."
    )
    rally = {"character": holt.pk, "unit": ready.pk}
    assert refused("character-rally", rally, "unit") == (
        f"{ready.name} ({ready.force.name}) cannot have a Morale hit healed: it has no "
        "Morale hits; Casualty hits are the medics&#x27; work."
    )
    check = {"lead": ready.pk, "helpers": [retreated.pk], "dc": "10"}
    assert refused("skill-check", check, "helpers") == (
        f"{retreated.name} ({retreated.force.name}) cannot make a check: "
        "it is retreated in poor order."
    )
    contest = {"active": destroyed.pk, "resisting": ready.pk}
    assert refused("contest", contest, "active") == (
        f"{destroyed.name} ({destroyed.force.name}) cannot make a check: it is destroyed."
    )
    order = {"giver": holt.pk, "unit": retreated.pk, "kind": "attack"}
    assert refused("order-give", order, "unit") == (
        f"{retreated.name} ({retreated.force.name}) cannot be given an Order: "
        "it is retreated in poor order."
    )
    assert HistoryEntry.objects.count() == entries
    assert not Leader.objects.filter(character=holt).exists() and not TableRoll.objects.exists()
    assert not Order.objects.exists()


def test_a_destroyed_unit_takes_no_leader_on_its_page_nor_through_the_service(client, world):
    from django.core.exceptions import ValidationError

    from campaign.models import HistoryEntry, Leader
    from campaign.services import leader_attach

    destroyed, retreated, _ready = _table_units(world)
    login(client, world, "gm")
    page = client.get(reverse("campaign:unit", args=[world.campaign.pk, destroyed.pk])).text
    assert "Attach a leader" not in page
    other = client.get(reverse("campaign:unit", args=[world.campaign.pk, retreated.pk])).text
    assert "Attach a leader" in other  # a retreated unit may take a leader in camp
    entries = HistoryEntry.objects.count()
    url = reverse("campaign:leader-attach", args=[world.campaign.pk, destroyed.pk])
    response = client.post(url, {"name": "Sgt. Kay", "hit_points": "9"})
    assert response.status_code == 400
    assert f"{destroyed} is destroyed: there is no one left to lead" in response.text
    with pytest.raises(ValidationError, match="is destroyed: there is no one left to lead"):
        leader_attach(unit=destroyed, name="Sgt. Kay", hit_points=9, actor=world.users["gm"])
    assert HistoryEntry.objects.count() == entries and not Leader.objects.filter(unit=destroyed)


def test_the_table_offers_only_living_characters(client, world):
    from campaign.services.characters import character_create

    gm = world.users["gm"]
    for name in ("Capt. Holt", "Sgt. Vance"):
        character_create(campaign=world.campaign, name=name, hit_points=12, actor=gm)
    Character.objects.filter(name="Sgt. Vance").update(alive=False, hit_points=-10)
    login(client, world, "gm")
    for page in ("characters", "orders", "checks"):
        html = client.get(reverse(f"campaign:{page}", args=[world.campaign.pk])).text
        assert re.search(r">Capt. Holt[^<]*</option>", html), page
        assert not re.search(r">Sgt. Vance[^<]*</option>", html), page


def test_a_refused_engagement_or_contest_shows_its_reason_next_to_the_field_at_fault(client, world):
    from campaign.models import TableRoll
    from campaign.services import unit_create

    card = world.unit.unit_type
    tank = unit_create(force=world.force, unit_type=world.enemy_unit.unit_type, name="Tank",
                       specialties=["mechanized", "armor"])  # fmt: skip
    kids = unit_create(force=world.force, unit_type=card, name="Kids", quality="green",
                       specialties=["infantry"])  # fmt: skip
    foes = unit_create(force=world.enemy, unit_type=card, name="Foes", specialties=["infantry"])
    login(client, world, "gm")

    def refused(name, data, field):
        response = client.post(reverse(f"campaign:{name}", args=[world.campaign.pk]), data)
        assert response.status_code == 400, name
        return re.search(rf'id="id_[a-z_]+_{field}_error">([^<]*)<', response.text)[1]

    engagement = {"terrain": "swamp", "round_limit": "3", f"side_{tank.pk}": "attackers",
                  f"side_{foes.pk}": "defenders"}  # fmt: skip
    assert refused("engagement-setup", engagement, "terrain") == (
        "Tank is Armor: it cannot enter swamp terrain."
    )
    contest = {"active": kids.pk, "resisting": foes.pk}
    assert refused("contest", contest, "active") == (
        "Kids is Green: it cannot act alone; give it an Order."
    )
    # A helper that cannot act alone is named under the helpers, not under the unit it helps.
    check = {"lead": foes.pk, "helpers": [kids.pk], "dc": "10"}
    assert refused("skill-check", check, "helpers") == (
        "Kids is Green: it cannot act alone; give it an Order."
    )
    contest = {"active": foes.pk, "resisting": tank.pk, "resisting_helpers": [kids.pk]}
    assert refused("contest", contest, "resisting_helpers") == (
        "Kids is Green: it cannot act alone; give it an Order."
    )
    assert not Engagement.objects.exists() and not TableRoll.objects.exists()


def test_a_character_who_survived_its_units_destruction_is_free_to_join_another(client, world):
    from campaign.models import Leader
    from campaign.services import unit_edit

    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    leader_attach(unit=world.unit, character=holt, actor=gm)
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="overrun", actor=gm)
    login(client, world, "gm")
    page = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    row = page.split("Capt. Holt</th>")[1].split("</tr>")[0]
    assert (
        f'{world.unit.name}</a> of {world.force.name} <span class="small">(destroyed; free to lead '
        "another unit)" in row
    )
    join = {"character": holt.pk, "unit": world.enemy_unit.pk}
    response = client.post(reverse("campaign:character-join", args=[world.campaign.pk]), join)
    assert response.status_code == 302
    assert Leader.objects.get(character=holt).unit == world.enemy_unit


def test_a_refused_requisition_is_a_note_not_a_success(client, world):
    """A refused Requisition is a roll made and kept, but nothing was raised: the page says so
    as a note, never in the green "Done" box; one that raises its unit is done."""
    from campaign.models import TableRoll, Unit
    from campaign.rules.history import minus_signs

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    url = reverse("campaign:requisition", args=[world.campaign.pk])
    login(client, world, "gm")
    ask = {"force": world.force.pk, "unit_type": card.pk, "quality": "experienced",
           "equipment": "excellent", "specialties": ["infantry"], "seed": "1"}  # fmt: skip
    refused = client.post(url, {**ask, "name": "Heroes", "bonus": "-40"}, follow=True).text
    roll = TableRoll.objects.get(kind=TableRoll.Kind.REQUISITION)
    assert not roll.result["success"] and roll.summary.endswith("refused")
    notice = re.search(r'<p class="notice ([\w-]+)"><strong class="notice-word">([^<]*)</strong> '
                       r"([^<]*)</p>", refused)  # fmt: skip
    assert notice.group(1) == "notice-warning" and notice.group(2) == "Note:"
    assert notice.group(3) == (
        f"{minus_signs(roll.summary).replace(chr(39), '&#x27;')}. No unit was raised; the roll is "
        "kept with the others. The form keeps what was asked: roll again, or ask for less (a "
        "lower quality or poorer equipment lowers the DC)."
    )
    assert "Done:" not in refused
    raised = client.post(url, {**ask, "quality": "green", "equipment": "adequate",
                               "name": "Levy", "bonus": "40"}, follow=True).text  # fmt: skip
    assert '<p class="notice notice-success"><strong class="notice-word">Done:</strong>' in raised


def test_a_rolls_notice_names_the_unit_it_raised_and_a_minus_as_a_minus(world):
    """After a roll the checks page says its summary as a sentence, a hyphen standing as a
    minus printed as one; a Requisition that raised a unit links it by name and says where it
    joins, with the specialty its card needs, as raising it on its force's page says."""
    from django.contrib import messages

    from campaign.models import TableRoll, Unit
    from campaign.pages.raised import roll_notice

    unit = Unit.objects.select_related("unit_type").get(pk=world.unit.pk)
    summary = "Sappers: Engineering check, -1 against DC 10: fails (the ford)"
    check = TableRoll(kind=TableRoll.Kind.SKILL_CHECK, result={"success": False}, summary=summary)
    assert roll_notice(check) == (
        "Sappers: Engineering check, \u22121 against DC 10: fails (the ford).",
        messages.SUCCESS,
    )
    raised = TableRoll(kind=TableRoll.Kind.REQUISITION, result={"success": True, "unit": unit.pk},
                       summary="Requisition of a Green Rifle Squad: 14 against DC 12")  # fmt: skip
    said, level = roll_notice(raised)
    url = reverse("campaign:unit", args=[world.campaign.pk, unit.pk])
    needs = ", with the Infantry specialty its card needs." if unit.unit_type.specialty else "."
    assert level == messages.SUCCESS
    assert said == (
        f'Requisition of a Green Rifle Squad: 14 against DC 12. <a href="{url}">{unit.name}</a> '
        f"joins {world.force.name}{needs}"
    )


def test_each_table_form_sent_twice_acts_once(client, world):
    """A double click, the page re-sent from the browser's history, a phone retrying: the form's
    one-time key makes the second sending go back where the first went, saying what it said,
    with nothing done twice — no second step of training, no second heal, no dice rolled again,
    no second Order. A new page (a new key) acts again."""
    import uuid

    from campaign.models import Character, CharacterEntry, HistoryEntry, TableRoll, Unit
    from campaign.services import unit_edit
    from units.bucs import Quality

    _, _, ready = _table_units(world)
    gm = world.users["gm"]
    unit_edit(unit=ready, changes={"quality": "green"}, reason="fresh", actor=gm)
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=10,
                            feats=["special_forces"], actor=gm)  # fmt: skip
    hurt = character_create(campaign=world.campaign, name="Hurt", hit_points=12, actor=gm)
    Character.objects.filter(pk=hurt.pk).update(hit_points=3)
    login(client, world, "gm")
    for page in ("characters", "checks", "orders"):
        shown = client.get(reverse(f"campaign:{page}", args=[world.campaign.pk])).text
        assert 'name="request_key"' in shown, page
    sendings = {
        "character-train": {"character": kane.pk, "unit": ready.pk},
        "character-heal": {"character": hurt.pk, "hit_points": "4", "reason": "rest"},
        "skill-check": {"lead": ready.pk, "dc": "12", "seed": ""},
        "requisition": {"force": world.force.pk, "unit_type": ready.unit_type.pk,
                        "name": "Levy", "quality": "green", "equipment": "adequate",
                        "specialties": ["infantry"], "bonus": "-40", "seed": ""},
        "order-give": {"giver": kane.pk, "unit": ready.pk, "kind": "attack"},
    }  # fmt: skip
    for name, data in sendings.items():
        url = reverse(f"campaign:{name}", args=[world.campaign.pk])
        data = {**data, "request_key": str(uuid.uuid4())}
        counts = [m.objects.count() for m in (HistoryEntry, CharacterEntry, TableRoll, Order)]
        first = client.post(url, data, follow=True)
        after = [m.objects.count() for m in (HistoryEntry, CharacterEntry, TableRoll, Order)]
        again = client.post(url, data, follow=True)
        assert first.redirect_chain == again.redirect_chain, name
        said = [str(m) for m in again.context["messages"]]
        assert said == [str(m) for m in first.context["messages"]] and said, name
        assert after != counts, name  # the first did something…
        assert [m.objects.count() for m in (HistoryEntry, CharacterEntry, TableRoll, Order)] == (
            after
        ), name  # …and the second nothing more
    assert Unit.objects.get(pk=ready.pk).quality == Quality.INEXPERIENCED  # Green, one step up
    assert Character.objects.get(pk=hurt.pk).hit_points == 7  # one heal of 4
    assert TableRoll.objects.filter(kind="requisition").count() == 1
    # Another GM's sending of the key finds nothing of theirs: refused, nothing written.
    login(client, world, "co_gm")
    order = {**sendings["order-give"], "request_key": data["request_key"]}
    stolen = client.post(reverse("campaign:order-give", args=[world.campaign.pk]), order)
    assert stolen.status_code == 400 and "This form is damaged" in stolen.text
    assert Order.objects.count() == after[3]


def test_a_form_sent_twice_at_the_same_moment_acts_once(client, world, monkeypatch):
    """Both sendings find nothing done yet; the second's key meets the first's as it is written,
    and the second's action is undone with its transaction: one heal, and the second goes
    where the first went."""
    import uuid

    import campaign.views._common as common
    from campaign.models import Character, CharacterEntry

    gm = world.users["gm"]
    hurt = character_create(campaign=world.campaign, name="Hurt", hit_points=12, actor=gm)
    Character.objects.filter(pk=hurt.pk).update(hit_points=3)
    login(client, world, "gm")
    url = reverse("campaign:character-heal", args=[world.campaign.pk])
    data = {"character": hurt.pk, "hit_points": "4", "reason": "rest",
            "request_key": str(uuid.uuid4())}  # fmt: skip
    first = client.post(url, data)
    looked = []
    real = common.form_sent

    def missed_once(key):  # the second sending looks before the first has written its key
        looked.append(key)
        return None if len(looked) == 1 else real(key)

    monkeypatch.setattr(common, "form_sent", missed_once)
    again = client.post(url, data)
    assert len(looked) == 2, "it looked again after its key met the first's"
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Character.objects.get(pk=hurt.pk).hit_points == 7
    assert CharacterEntry.objects.filter(character=hurt).count() == 1  # one heal


def test_the_heal_forms_how_asks_for_words_that_read_after_the_name(client, world):
    """The heal's record puts what the GM wrote straight after the character's name, so the
    form's example is a verb ("rests a night"), never a noun that makes the record no sentence
    ("Hurt a night's rest: ..."), and the words given read so in the record."""
    from campaign.models import Character, CharacterEntry

    gm = world.users["gm"]
    hurt = character_create(campaign=world.campaign, name="Hurt", hit_points=12, actor=gm)
    Character.objects.filter(pk=hurt.pk).update(hit_points=3)
    login(client, world, "gm")
    page = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    form = page.split('id="heal-form"')[1].split("</form>")[0]
    assert "a night&#x27;s rest" not in form and "a night's rest" not in form
    assert "How, read after their name (rests a night, is treated by the medic…)" in form
    url = reverse("campaign:character-heal", args=[world.campaign.pk])
    client.post(url, {"character": hurt.pk, "hit_points": "4", "reason": "rests a night"})
    assert CharacterEntry.objects.get(character=hurt).text == (
        "Hurt rests a night: hit points 3 → 7 of 12"
    )


def test_the_heal_forms_example_names_a_character_of_the_campaign_or_none(client, world):
    """The heal form's example of the record it keeps names one of the campaign's own hurt
    characters, with its own hit points, never a name the campaign does not have ("Capt.
    Holt"); with nobody hurt it names nobody."""
    gm = world.users["gm"]
    character_create(campaign=world.campaign, name="Sgt. Whole", hit_points=10, actor=gm)
    login(client, world, "gm")
    url = reverse("campaign:characters", args=[world.campaign.pk])

    def example() -> str:
        form = client.get(url).text.split('id="heal-form"')[1].split("</form>")[0]
        return html.unescape(form.split("Kept ", 1)[1].split("</", 1)[0])

    assert example() == "after the character's name: “… rests a night: hit points 3 → 8 of 14.”"
    hurt = character_create(campaign=world.campaign, name="Lt. Hurt", hit_points=12, actor=gm)
    Character.objects.filter(pk=hurt.pk).update(hit_points=3)
    assert example() == "as “Lt. Hurt rests a night: hit points 3 → 8 of 12.”"
    assert "Holt" not in client.get(url).text.split('id="heal-form"')[1].split("</form>")[0]


def test_a_character_who_fell_leading_a_unit_is_said_to_have_fallen_there(client, world):
    from campaign.models import Character

    gm = world.users["gm"]
    rook = character_create(campaign=world.campaign, name="Sgt. Rook", hit_points=9, actor=gm)
    leader_attach(unit=world.enemy_unit, character=rook, actor=gm)
    # Killed in the unit's fight (3d6 per Casualty hit the unit suffered): dead at its head.
    Character.objects.filter(pk=rook.pk).update(alive=False, hit_points=-12)
    page = login(client, world, "player").get(
        reverse("campaign:characters", args=[world.campaign.pk])
    )
    row = page.text.split("Sgt. Rook", 1)[1].split("</tr>", 1)[0]
    words = re.sub(r"<[^>]+>|\s+", " ", row)
    fell = f"{world.enemy_unit.name} of {world.enemy.name} (fell leading it)"
    assert fell in re.sub(r"\s+", " ", words)


def test_a_requisitions_dc_and_roll_are_told_before_and_after_with_their_parts(client, world):
    """A GM checks a Requisition against the book: the form gives each quality's DC and each
    kit's modifier to it before the roll, and the roll kept says the die, the bonus and how
    the DC was made (Experienced 18, Good kit +2: DC 20)."""
    from campaign.models import TableRoll, Unit
    from campaign.rules.dice import Dice

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    c = world.campaign.pk
    login(client, world, "gm")
    form = client.get(reverse("campaign:checks", args=[c])).text.split('id="requisition-form"')[1]
    assert ">Experienced (DC 18)</option>" in form and ">Raw (DC 10)</option>" in form
    assert ">Good (+2 to the DC)</option>" in form and ">Poor (\u22124 to the DC)</option>" in form
    ask = {"force": world.force.pk, "unit_type": card.pk, "name": "Heroes", "bonus": "5",
           "quality": "experienced", "equipment": "good", "specialties": ["infantry"],
           "seed": "11"}  # fmt: skip
    page = client.post(reverse("campaign:requisition", args=[c]), ask, follow=True).text
    die = Dice(11).d20()
    roll = TableRoll.objects.get(kind=TableRoll.Kind.REQUISITION)
    said = f"d20 {die} + 5 = {die + 5} against DC 20 (Experienced 18, Good equipment +2)"
    assert said in roll.summary and said in page


def test_an_elite_requisition_sent_all_the_same_is_refused_with_the_rules_reason(client, world):
    """The form offers Raw to Experienced; an Elite or Legendary quality sent all the same (a
    page of an older form, a hand-made request) is refused beside the quality with the rule's
    reason, not as an unknown choice, and nothing is rolled or raised."""
    from campaign.models import TableRoll, Unit

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    units = Unit.objects.count()
    url = reverse("campaign:requisition", args=[world.campaign.pk])
    login(client, world, "gm")
    for quality in ("elite", "legendary"):
        ask = {"force": world.force.pk, "unit_type": card.pk, "name": "Aces", "bonus": "40",
               "quality": quality, "equipment": "adequate", "seed": "1"}  # fmt: skip
        refused = client.post(url, ask)
        assert refused.status_code == 400
        said = refused.text.split('id="id_requisition_quality_error"')[1].split("</span>")[0]
        assert "Elite and Legendary come only from combat" in said
        assert "not one of the available choices" not in refused.text
    assert not TableRoll.objects.exists() and Unit.objects.count() == units


def test_a_strategists_form_says_it_heals_a_morale_hit_as_the_rules_do(client, world):
    """The copy's verb for a Strategist's part is "heal" (docs/bucs-choices.md): the form
    and its button say so, and "rally" is left to a unit's return to action after R&R."""
    from campaign.services.characters import character_create

    character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                     feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    page = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    form = page[page.index('id="rally-form"') :]
    form = form[: form.index("</form>")]
    assert "<h3>A Strategist heals a Morale hit</h3>" in page
    assert '<button type="submit" class="primary">Heal a Morale hit</button>' in form
    assert "Heals a Morale hit of" in form
    assert "rall" not in re.sub(r'(id|name|action|hx-[a-z]+|for)="[^"]*"', "", form).lower()


def test_the_rally_form_leaves_out_a_unit_rallied_today_and_says_why(client, world):
    """A Strategist rallies a unit once a day: once rallied, the unit is not offered again that
    day (it would be refused: a page drawn before says why), and the next day it is."""
    from campaign.services.characters import character_create, character_rally

    _, retreated, _ = _table_units(world)
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    label = f"{retreated.name} ({retreated.force.name})"
    url = reverse("campaign:characters", args=[world.campaign.pk])
    login(client, world, "gm")
    assert _offered(client.get(url).text, "rally-form", "unit") == [label]
    character_rally(character=holt, unit=retreated, actor=world.users["gm"])
    assert _offered(client.get(url).text, "rally-form", "unit") == []
    # Sent from a page drawn before the rally, it is refused by name, and says why.
    rally = reverse("campaign:character-rally", args=[world.campaign.pk])
    refused = client.post(rally, {"character": holt.pk, "unit": retreated.pk})
    assert refused.status_code == 400
    assert (
        f"{label} cannot have a Morale hit healed: a Strategist healed one of its Morale hits "
        "today already"
    ) in refused.text
    world.campaign.day += 1
    world.campaign.save(update_fields=["day"])
    assert _offered(client.get(url).text, "rally-form", "unit") == [label]


def test_the_engagement_form_says_what_each_round_and_situation_does_before_the_fight(
    client, world
):
    """Before a GM fights an engagement, its form says the rule each choice brings: the opposed
    roll and its hits, Driven Back, Momentum, each situation, the terrain and surprise, with
    the numbers the project chose (docs/bucs-choices.md, "Engagements")."""
    page = login(client, world, "gm").get(
        reverse("campaign:engagement-setup", args=[world.campaign.pk])
    )
    said = re.sub(r"\s+", " ", page.text.split('id="engagement-form"')[1].split("</form>")[0])
    for words in (
        "Each round every unit rolls d20 + its modifiers against the enemy it is paired with: "
        "the higher deals 1 hit per full 5 points of margin",
        "a loser by 10 or more is Driven Back (\u22122 next round)",
        "Momentum: +1 for each round in a row a unit won",
        "Outnumbered: \u22121 at 3 to 2, \u22122 at 2 to 1, \u22124 at 3 to 1 (and Pinned Down), "
        "\u22126 at 4 to 1",
        "<dt>dug in</dt><dd>+2 on its rolls; no Momentum nor Driven Back, for it or against it;",
        "<dt>fire from several directions</dt><dd>Pinned Down (its enemy +2) for the whole "
        "engagement, dug in or not (Armor facing no Armor is not).",
        # Who is never pinned, so a GM ticking a box for an Armor unit knows it does nothing.
        "Never Pinned Down: an Armor unit facing no enemy Armor, by anything, except in cramped "
        "quarters; by numbers, a unit faster than every enemy, except in cramped quarters.",
        "<dt>cramped quarters</dt><dd>Pinned Down (its enemy +2) until it wins a pairing.",
        "<dt>landing</dt><dd>Pinned Down (its enemy +2) until it has won 2 pairings; an "
        "Amphibious unit lands unpinned.",
        "Amphibious, Arctic: +2 and double Momentum for a unit with that specialty",
        "the side that hides unseen starts with +2 Momentum",
    ):
        assert words in said, words


def test_a_one_time_form_drawn_anew_by_back_is_not_filled_with_what_was_sent(client, world):
    """Sent, a one-time form's page goes elsewhere; Back draws it anew (its own URL's copy in
    the browser's cache went with the POST to it), with a new key, and the browser fills it with
    what was typed into the one already sent: Record again recorded the battle twice. Its fields
    are marked ``autocomplete="off"``, which keeps the browser from filling them again."""
    login(client, world, "gm")
    pages = ["battle-record", "characters", "checks", "orders", "engagement-setup"]
    for page in pages:
        shown = client.get(reverse(f"campaign:{page}", args=[world.campaign.pk])).text
        forms = re.findall(r"<form\b.*?</form>", shown, flags=re.S)
        one_time = [form for form in forms if 'name="request_key"' in form]
        assert one_time, page
        for form in one_time:
            for control in re.findall(r"<(?:input|select|textarea)\b[^>]*>", form):
                if 'type="hidden"' in control or 'type="submit"' in control:
                    continue
                assert 'autocomplete="off"' in control, (page, control)


def test_a_rally_that_leaves_a_unit_retreated_says_so_and_when_it_rallies(client, world):
    """A Strategist's rally heals a Morale hit; it does not bring a unit retreated in poor
    order back into action. "Rallied Squad 2: one Morale hit healed" read as if it did: the GM
    at the table sent it back to fight. The answer says it is still out of action, and when
    R&R rallies it, as the dashboard does."""
    from campaign.services.characters import character_create

    _, retreated, _ = _table_units(world)
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    rally = reverse("campaign:character-rally", args=[world.campaign.pk])
    done = client.post(rally, {"character": holt.pk, "unit": retreated.pk}, follow=True)
    said = [str(m) for m in done.context["messages"]]
    assert len(said) == 1
    assert said[0].startswith(
        "Capt. Holt healed one Morale hit of Squad 2; Squad 2 is still retreated in poor order: "
    )
    assert "R&R" in said[0] and said[0].endswith(".")
    # "Rallied" names one thing only, the unit's return to action (which this was not).
    assert "rallied" not in said[0]


def test_a_character_renamed_by_a_plain_save_is_named_so_on_its_units_pages(client, world):
    gm = world.users["gm"]
    rook = character_create(campaign=world.campaign, name="Sgt. Rook", hit_points=9, actor=gm)
    leader_attach(unit=world.unit, character=rook, actor=gm)
    login(client, world, "gm")
    pk = world.campaign.pk
    unit = reverse("campaign:unit", args=[pk, world.unit.pk])
    pages = [
        reverse("campaign:force", args=[pk, world.force.pk]),
        reverse("campaign:units", args=[pk]),
    ]
    for url in pages:
        assert "led by Sgt. Rook" in client.get(url).text, url  # drawn, and kept, before
    assert "<dt>Leader</dt><dd>Sgt. Rook, " in client.get(unit).text
    rook.name = "Lt. Rook"
    rook.save()
    for url in pages:
        text = client.get(url).text
        assert "led by Lt. Rook" in text and "Sgt. Rook" not in text, url
    text = client.get(unit).text  # its history says what was written then, under the old name
    assert "<dt>Leader</dt><dd>Lt. Rook, " in text and "Detach Lt. Rook</button>" in text


def test_a_unit_requisitioned_with_no_specialty_ticked_takes_the_one_its_card_needs(client, world):
    """Requisition raises a unit as its force's page does: the form names beside each card the
    specialty it needs, a unit asked with none ticked takes it (it does not fight as Raw with
    Poor kit on its own card), and the page says where it joined and with what."""
    from campaign.models import Unit

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    card.specialty = "infantry"
    card.save()
    c = world.campaign.pk
    login(client, world, "gm")
    form = client.get(reverse("campaign:checks", args=[c])).text.split('id="requisition-form"')[1]
    assert f">{card.name} (needs Infantry)</option>" in form
    ask = {"force": world.force.pk, "unit_type": card.pk, "name": "Fresh Rifles", "bonus": "40",
           "quality": "average", "equipment": "adequate", "seed": "3"}  # fmt: skip
    ask["request_key"] = str(uuid.uuid4())
    page = client.post(reverse("campaign:requisition", args=[c]), ask, follow=True).text
    raised = Unit.objects.get(name="Fresh Rifles")
    assert raised.specialties == ["infantry"]
    # The new unit's name is a link to its page, to go on to it from the message.
    link = f'<a href="{reverse("campaign:unit", args=[c, raised.pk])}">Fresh Rifles</a>'
    said = f"raised. {link} joins {world.force.name}, with the Infantry specialty its card needs."
    assert said in page
    # The form sent again says the same, its link still a link (`FormSent.said`).
    again = client.post(reverse("campaign:requisition", args=[c]), ask, follow=True).text
    assert said in again and Unit.objects.filter(name="Fresh Rifles").count() == 1


def test_the_heal_form_offers_each_character_with_its_hit_points(client, world):
    # The GM chooses whom to heal by their wounds: the list gave names only, so at the table
    # the hit points had to be read off the list of characters far above the form.
    gm = world.users["gm"]
    for name in ("Hurt", "Whole", "Dying"):
        character_create(campaign=world.campaign, name=name, hit_points=12, actor=gm)
    Character.objects.filter(name="Hurt").update(hit_points=5)
    Character.objects.filter(name="Dying").update(hit_points=-3)
    login(client, world, "gm")
    page = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    form = page.split('id="heal-form"')[1].split("</form>")[0]
    assert ">Hurt (5 of 12 hit points)</option>" in form
    assert ">Whole (12 of 12 hit points)</option>" in form
    assert ">Dying (−3 of 12 hit points, dying)</option>" in form
    # The other forms name them only.
    join = page.split('id="join-form"')[1].split("</form>")[0]
    assert ">Hurt</option>" in join


def test_every_roll_at_the_table_says_what_its_seed_does(client, world):
    # Each form that rolls asked a bare "Seed", saying neither that it may be left empty nor
    # what a seed does, as a battle's forms say it.
    login(client, world, "gm")
    said = "Optional. The same seed and set-up roll the same dice again; left empty, one is drawn."
    pk = world.campaign.pk
    checks = client.get(reverse("campaign:checks", args=[pk])).text
    for form in ("skill-form", "contest-form", "requisition-form"):
        html = checks.split(f'id="{form}"')[1].split("</form>")[0]
        assert re.search(r'name="seed"[^>]*>\s*<span class="help"[^>]*>' + re.escape(said), html), (
            form
        )
    for page in ("engagement-setup", "dashboard"):  # the dashboard's quick resolve
        html = client.get(reverse(f"campaign:{page}", args=[pk])).text
        assert said in html.split('name="seed"')[1].split("</div>")[0], page


def _chosen(page: str, form: str) -> str:
    """The option the character list of ``form`` starts on."""
    html = page.split(f'id="{form}"')[1].split("</form>")[0]
    select = html.split('name="character"')[1].split("</select>")[0]
    return re.search(r"<option [^>]*selected[^>]*>([^<]+)</option>", select)[1]


def test_a_characters_form_with_one_character_to_offer_starts_on_it(client, world):
    # The Orders form started on its one giver; the Characters page's forms opened on "Choose a
    # character" with the campaign's one Strategist the only other choice, a tap for nothing.
    gm = world.users["gm"]
    character_create(campaign=world.campaign, name="Col. Sage", hit_points=12,
                     feats=["strategist"], actor=gm)  # fmt: skip
    url = reverse("campaign:characters", args=[world.campaign.pk])
    page = login(client, world, "gm").get(url).text
    for form in ("join-form", "train-form", "rally-form", "heal-form"):
        assert _chosen(page, form).startswith("Col. Sage"), form
    character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    page = client.get(url).text
    for form in ("train-form", "rally-form"):  # still the only Strategist
        assert _chosen(page, form) == "Col. Sage", form
    for form in ("join-form", "heal-form"):  # two to choose from
        assert _chosen(page, form) == "Choose a character", form


def test_a_requisition_in_the_rolls_links_the_unit_it_raised_by_its_name(client, world):
    """The rolls list is where a Requisition is read again after its message is gone: the unit
    it raised is named after it as a link to its page, by the name it has now; a refused one
    links nothing."""
    from campaign.models import TableRoll, Unit

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    c = world.campaign.pk
    login(client, world, "gm")
    url = reverse("campaign:requisition", args=[c])
    ask = {"force": world.force.pk, "unit_type": card.pk, "name": "Fresh Rifles", "bonus": "40",
           "quality": "average", "equipment": "adequate", "seed": "3",
           "specialties": ["infantry"]}  # fmt: skip
    client.post(url, ask)
    client.post(url, {**ask, "name": "Hopeless", "bonus": "-40", "seed": "4"})
    raised = Unit.objects.get(name="Fresh Rifles")
    assert not Unit.objects.filter(name="Hopeless").exists()
    Unit.objects.filter(pk=raised.pk).update(name="Old Rifles")
    rolls = client.get(reverse("campaign:checks", args=[c])).text.split('id="rolls"', 1)[1]
    entries = re.findall(r"<li>(.*?)</li>", rolls.split("</ul>", 1)[0], re.S)
    assert len(entries) == 2 and "Hopeless" in entries[0] and "<a " not in entries[0]
    link = f'<a href="{reverse("campaign:unit", args=[c, raised.pk])}">Old Rifles</a>'
    assert f", raised: {link}" in entries[1]
    # A player reads the same link for their own force's unit.
    login(client, world, "player")
    assert link in client.get(reverse("campaign:checks", args=[c])).text
    assert TableRoll.objects.filter(campaign=world.campaign).count() == 2


def test_it_tells_a_player_and_a_spectator_with_no_rolls_yet_who_rolls_them(client, world):
    url = reverse("campaign:checks", args=[world.campaign.pk])
    said = "The GM rolls the campaign's checks, contests and Requisitions, and each shows here."
    for name in ("player", "spectator"):
        page = login(client, world, name).get(url).text
        assert "No rolls yet. " + said in page
    # The GM, with the forms beside the list, is told nothing more.
    page = login(client, world, "gm").get(url).text
    assert "No rolls yet." in page and said not in page


@pytest.mark.parametrize("name", ["characters", "orders", "checks", "engagement-setup"])
def test_a_table_pages_tab_is_named_as_its_heading_and_its_link(client, world, name):
    """The tabs read "Orders" and "Checks" over pages headed, and linked from every table page,
    as "Orders and the clock" and "Checks and Requisition"."""
    page = login(client, world, "player").get(reverse(f"campaign:{name}", args=[world.campaign.pk]))
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", page.text, re.S).group(1).strip()
    title = re.search(r"<title>(.*?)</title>", page.text, re.S).group(1)
    assert title.startswith(f"{heading} · "), (title, heading)
