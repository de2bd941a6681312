"""Export and import of a campaign's d20 side and the table's records: characters, their feats,
wounds and heals, Orders done, under way and called off, engagements, checks, contests and
Requisitions survive exactly; one bad field among them writes nothing and is named; and a force
export leaves the table's links behind."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Force, HistoryEntry, Leader, Unit
from campaign.selectors.entries import unit_history_explains
from campaign.services import campaign_import, unit_edit
from campaign.transfer.export import campaign_export, export_text, force_export
from tests.campaign.invited import accept_every_invitation
from tests.campaign.test_transfer_refusals import counts


@pytest.fixture
def at_the_table(campaign, make_unit, cast):
    """A campaign with its d20 side: a player's character leading a unit and healed, another
    who trained a unit, Orders done and under way, and the clock at 05:00."""
    from campaign.models import Character
    from campaign.services import leader_attach, unit_train
    from campaign.services.characters import character_create, character_heal
    from campaign.services.orders import clock_advance, order_give

    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14,
                            feats=["leadership", "strategist"], player=cast.player)  # fmt: skip
    vey = character_create(campaign=campaign, name="Lt. Vey", hit_points=9,
                           feats=["special_forces"])  # fmt: skip
    squad = make_unit("1st Squad")
    recruits = make_unit("Recruits", quality="green")
    leader_attach(unit=squad, character=holt)
    Character.objects.filter(pk=holt.pk).update(max_hit_points=20)  # wounded before
    character_heal(character=holt, hit_points=3, reason="rests an hour")  # 14 → 17 of 20
    unit_train(unit=recruits, character=vey)
    order_give(giver=vey, unit=recruits, kind="attack")
    clock_advance(campaign=campaign, hours=5)
    order_give(giver=holt, unit=squad, kind="use_skill", listed_hours=8, note="scout the ford")
    campaign.refresh_from_db()
    return campaign


def test_the_d20_side_survives_export_and_import_exactly(at_the_table, cast):
    from campaign.models import Order
    from campaign.services.orders import order_call_off

    order_call_off(order=Order.objects.get(campaign=at_the_table, giver__name="Capt. Holt"))
    exported = json.loads(export_text(campaign_export(campaign=at_the_table)))
    assert exported["campaign"]["hour"] == 5
    assert [o["called_off_at"] for o in exported["orders"]] == [None, 5]
    holt = next(c for c in exported["characters"] if c["name"] == "Capt. Holt")
    assert holt["leads"] == {"force": "Red Company", "unit": "1st Squad"}
    assert (holt["player"], holt["hit_points"], holt["max_hit_points"]) == ("player", 17, 20)
    assert holt["entries"][0]["text"] == "Capt. Holt rests an hour: hit points 14 → 17 of 20"
    assert [o["giver"] for o in exported["orders"]] == ["Lt. Vey", "Capt. Holt"]
    history = exported["forces"][0]["units"][1]["history"]
    trained = next(e for e in reversed(history) if e["kind"] == "training")
    assert trained["details"]["character"] == "Lt. Vey"  # named: ids do not travel
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert export_text(campaign_export(campaign=imported)) == export_text(exported)
    leader = Leader.objects.get(unit__force__campaign=imported, unit__name="1st Squad")
    assert leader.character.name == "Capt. Holt" and leader.character.campaign == imported
    entry = HistoryEntry.objects.filter(unit__force__campaign=imported, kind="training").get()
    assert entry.details["character"] == imported.characters.get(name="Lt. Vey").pk
    for unit in Unit.objects.filter(force__campaign=imported):
        assert unit_history_explains(unit=unit)


D20_BAD_FIELDS = [
    (("characters", 0, "feats"), ["luck"], "characters[0].feats"),
    (("characters", 0, "hit_points"), 99, "characters[0].hit_points"),
    (("characters", 0, "leads"), {"force": "Red Company", "unit": "Recruits"},
     "characters[0].leads"),
    (("characters", 1, "player"), "outsider", "characters[1].player"),
    (("orders", 0, "giver"), "Nobody", "orders[0].giver"),
    (("orders", 1, "kind"), "dance", "orders[1].kind"),
    (("orders", 1, "called_off_at"), 3, "orders[1].called_off_at"),  # before it was given
    (("orders", 1, "called_off_at"), 10, "orders[1].called_off_at"),  # after the clock, 05:00
    (("orders", 1, "ended_at"), 5, "orders[1].ended_at"),  # its unit, 1st Squad, stands
    (("campaign", "hour"), 24, "campaign.hour"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "value", "named"), D20_BAD_FIELDS, ids=[b[2] for b in D20_BAD_FIELDS]
)
def test_a_d20_import_with_one_bad_field_writes_nothing_and_names_it(
    at_the_table, path, value, named
):
    from campaign.models import Character, Order

    data = copy.deepcopy(campaign_export(campaign=at_the_table))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    before = (*counts(), Character.objects.count(), Order.objects.count())
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert named in refused.value.message_dict
    assert (*counts(), Character.objects.count(), Order.objects.count()) == before


def test_a_dead_character_and_the_hour_of_a_heal_survive_export_and_import(at_the_table):
    from campaign.models import Character, CharacterEntry
    from campaign.services.characters import character_heal

    holt = Character.objects.get(campaign=at_the_table, name="Capt. Holt")
    character_heal(character=holt, hit_points=1, reason="is patched up")  # at 05:00
    Character.objects.filter(campaign=at_the_table, name="Lt. Vey").update(
        alive=False, hit_points=-10
    )
    exported = json.loads(export_text(campaign_export(campaign=at_the_table)))
    holt_data, vey_data = exported["characters"]
    assert (vey_data["alive"], vey_data["hit_points"]) == (False, -10)
    assert [entry["hour"] for entry in holt_data["entries"]] == [0, 5]
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    vey = imported.characters.get(name="Lt. Vey")
    assert (vey.alive, vey.hit_points) == (False, -10)
    hours = CharacterEntry.objects.filter(character__campaign=imported).order_by("pk")
    assert list(hours.values_list("hour", flat=True)) == [0, 5]


def test_an_export_from_before_orders_were_called_off_imports_with_none_called_off(at_the_table):
    from campaign.models import Order

    data = copy.deepcopy(campaign_export(campaign=at_the_table))
    for order in data["orders"]:
        del order["called_off_at"], order["ended_at"]
    data["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=data)
    orders = Order.objects.filter(campaign=imported)
    assert orders.count() == 2 and not orders.filter(called_off_at__isnull=False).exists()
    assert not orders.filter(ended_at__isnull=False).exists()


def test_an_order_ended_with_its_unit_survives_export_and_import(at_the_table, cast):
    from campaign.models import Order

    squad = Unit.objects.get(force__campaign=at_the_table, name="1st Squad")
    unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled", actor=cast.gm)
    exported = json.loads(export_text(campaign_export(campaign=at_the_table)))
    assert [o["ended_at"] for o in exported["orders"]] == [None, 5]
    for hour, named in ((4, "orders[1].ended_at"), (6, "orders[1].ended_at")):
        bad = copy.deepcopy(exported)
        bad["orders"][1]["ended_at"] = hour  # before it was given; after the clock
        with pytest.raises(ValidationError) as refused:
            campaign_import(data=bad)
        assert named in refused.value.message_dict
    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert export_text(campaign_export(campaign=imported)) == export_text(exported)
    assert Order.objects.get(campaign=imported, ended_at__isnull=False).unit.name == "1st Squad"


@pytest.fixture
def table_records(at_the_table, make_unit, enemy, cards, cast):
    """The table's records on top of the d20 side: an engagement reverted and one applied (the
    leader's character in it), a skill check, a contest, a Requisition raised and one refused."""
    from campaign.services.checks import contest_run, requisition_run, skill_check_run
    from campaign.services.engagements import engagement_revert, engagement_run

    campaign = at_the_table
    squad, recruits = (Unit.objects.get(force__campaign=campaign, name=name)
                       for name in ("1st Squad", "Recruits"))  # fmt: skip
    rifles = make_unit("Blue Rifles", into=enemy)
    pickets = make_unit("Blue Pickets", into=enemy, specialties=("infantry", "combat_engineering"))
    first = engagement_run(
        campaign=campaign, sides={"attackers": [recruits], "defenders": [rifles]}, seed=5,
        situations={rifles.pk: {"dug_in": True}}, round_limit=3, name="Mill ford",
    )  # fmt: skip
    engagement_revert(engagement=first, reason="wrong ford")
    # A seed after which each force still has a ready unit for the checks below.
    engagement_run(
        campaign=campaign, sides={"attackers": [squad, recruits], "defenders": [rifles, pickets]},
        seed=12, terrain="open", surprise="attackers", round_limit=4, name="Hill 12",
    )  # fmt: skip
    ready = [u for u in Unit.objects.filter(force__campaign=campaign) if u.status == "ready"]
    red = [u for u in ready if u.force.name == "Red Company"]
    blue = [u for u in ready if u.force.name == "Blue Battalion"]
    skill_check_run(campaign=campaign, units=red, dc=12, seed=3, reason="ford the river")
    contest_run(campaign=campaign, active=blue, resisting=red[:1],
                active_skill="combat_engineering", seed=4, reason="find the camp")  # fmt: skip
    holt = campaign.characters.get(name="Capt. Holt")
    force = Force.objects.get(campaign=campaign, name="Red Company")
    requisition_run(force=force, unit_type=cards["Medium Tank"], name="Dozer",
                    specialties=["mechanized"], character=holt, bonus=40, seed=1)  # fmt: skip
    requisition_run(force=force, unit_type=cards["Mech"], name="Atlas", quality="experienced",
                    character=holt, bonus=-40, seed=2)  # fmt: skip
    campaign.refresh_from_db()
    return campaign


def _unit_references(data):
    """Every unit a log or a result names, as `campaign.transfer.export.refs_translate` finds
    them."""
    from campaign.transfer.export import refs_translate

    found = []
    refs_translate(data, lambda key: found.append(key) or key)
    return found


def test_the_tables_records_survive_export_and_import_exactly(table_records):
    from campaign.models import Engagement, TableRoll
    from campaign.services.engagements import engagement_revert

    exported = json.loads(export_text(campaign_export(campaign=table_records)))
    mill, hill = exported["engagements"]
    assert (mill["name"], mill["state"], hill["state"]) == ("Mill ford", "reverted", "applied")
    # Units by the export's own keys, not database ids, in the set-up, the log and the rolls.
    assert mill["setup"]["sides"] == {"attackers": ["forces[1].units[1]"],
                                      "defenders": ["forces[0].units[0]"]}  # fmt: skip
    assert mill["setup"]["situations"] == {
        "forces[0].units[0]": {
            "dug_in": True,
            "several_directions": False,
            "cramped": False,
            "landing": False,
        }
    }
    assert {e["unit"] for e in hill["events"] if e["event"] == "unit"} == {
        "forces[1].units[0]",
        "forces[1].units[1]",
        "forces[0].units[0]",
        "forces[0].units[1]",
    }
    assert all(key.startswith("forces[") for key in hill["applied_entries"])
    kinds = [roll["kind"] for roll in exported["table_rolls"]]
    assert kinds == ["skill_check", "contest", "requisition", "requisition"]
    raised, refused = exported["table_rolls"][2:]
    assert (raised["setup"]["force"], raised["setup"]["character"]) == ("Red Company", "Capt. Holt")
    assert raised["setup"]["unit_type"] == "Medium Tank"
    assert raised["result"]["unit"].startswith("forces[1].units[")
    assert "unit" not in refused["result"]
    named = _unit_references(
        [mill["events"], hill["events"], *(roll["result"] for roll in exported["table_rolls"])]
    )
    assert len(named) > 20 and {key for key in named if key is not None} <= {
        f"forces[{i}].units[{j}]" for i in range(2) for j in range(3)
    }  # keys, not ids
    histories = [e for f in exported["forces"] for u in f["units"] for e in u["history"]]
    assert {e["details"].get("engagement") for e in histories} == {None, 0, 1}
    assert {e["details"].get("table_roll") for e in histories} == {None, 0, 1, 2}

    exported["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=exported)
    accept_every_invitation(imported)
    assert export_text(campaign_export(campaign=imported)) == export_text(exported)
    mill_now, hill_now = imported.engagements.order_by("id")
    assert mill_now.state == "reverted" and hill_now.state == "applied"
    with pytest.raises(ValidationError, match="reverted already"):
        engagement_revert(engagement=mill_now, reason="again")
    engagement_revert(engagement=hill_now, reason="the other hill")  # revertible as before
    hill_now.refresh_from_db()
    assert hill_now.state == "reverted"
    undone = HistoryEntry.objects.filter(unit__force__campaign=imported, kind="revert",
                                         reverts__pk__in=hill_now.applied_entries)  # fmt: skip
    assert undone.count() == len(hill_now.applied_entries)
    units = {u.pk for u in Unit.objects.filter(force__campaign=imported)}
    assert {int(pk) for side in hill_now.setup["sides"].values() for pk in side} <= units
    raised_now = TableRoll.objects.get(
        campaign=imported,
        kind="requisition",
        pk__in=[r.pk for r in imported.table_rolls.all() if "unit" in r.result],
    )
    assert Unit.objects.get(pk=raised_now.result["unit"]).name == "Dozer"
    created = Unit.objects.get(pk=raised_now.result["unit"]).history.order_by("id").first()
    assert created.details["table_roll"] == raised_now.pk
    assert Engagement.objects.filter(campaign=imported).count() == 2


def test_a_contests_entries_are_contests_even_from_an_export_that_called_them_skill_checks(
    table_records,
):
    exported = json.loads(export_text(campaign_export(campaign=table_records)))
    entries = [e for f in exported["forces"] for u in f["units"] for e in u["history"]]
    by_roll = {
        e["details"]["table_roll"]: e["kind"] for e in entries if "table_roll" in e["details"]
    }
    assert (by_roll[0], by_roll[1]) == ("skill_check", "contest")
    # An older site wrote a contest's entries as skill checks: they come in as contests.
    for entry in entries:
        if entry["kind"] == "contest":
            entry["kind"] = "skill_check"
    exported["campaign"]["name"] = "Op. Test, from before"
    imported = campaign_import(data=exported)
    kinds = {e.details["table_roll"]: e.kind
             for e in HistoryEntry.objects.filter(unit__force__campaign=imported,
                                                  details__has_key="table_roll")}  # fmt: skip
    rolls = {r.pk: r.kind for r in imported.table_rolls.all()}
    assert {rolls[pk]: kind for pk, kind in kinds.items() if rolls[pk] != "requisition"} == {
        "skill_check": "skill_check",
        "contest": "contest",
    }


def test_a_force_export_leaves_the_tables_links_behind(table_records, cast):
    force = Force.objects.get(campaign=table_records, name="Red Company")
    data = force_export(force=force)
    details = [e["details"] for u in data["force"]["units"] for e in u["history"]]
    assert {d["engagement"] for d in details if "engagement" in d} == {None}
    assert {d["table_roll"] for d in details if "table_roll" in d} == {None}


TABLE_BAD_FIELDS = [
    (("engagements", 0, "setup", "sides", "attackers", 0), "forces[9].units[0]",
     "engagements[0].setup.sides.attackers[0]"),
    (("engagements", 1, "state"), "lost", "engagements[1].state"),
    (("engagements", 1, "applied_entries", 0), "forces[0].units[0].history[99]",
     "engagements[1].applied_entries[0]"),
    (("engagements", 1, "applied_entries", 0), ["forces[0].units[0].history[0]"],
     "engagements[1].applied_entries[0]"),
    (("engagements", 0, "setup", "sides", "defenders", 0), ["forces[0].units[0]"],
     "engagements[0].setup.sides.defenders[0]"),
    (("engagements", 0, "setup", "sides", "defenders", 0), None,
     "engagements[0].setup.sides.defenders[0]"),
    (("table_rolls", 0, "setup", "units", 0), None, "table_rolls[0].setup.units[0]"),
    (("engagements", 0, "rounds"), 51, "engagements[0].rounds"),
    (("engagements", 0, "seed"), -1, "engagements[0].seed"),
    (("table_rolls", 0, "setup", "units", 0), 7, "table_rolls[0].setup.units[0]"),
    (("table_rolls", 2, "setup", "force"), "Green Army", "table_rolls[2].setup.force"),
    (("table_rolls", 2, "setup", "unit_type"), "Zeppelin", "table_rolls[2].setup.unit_type"),
    (("table_rolls", 2, "setup", "character"), "Nobody", "table_rolls[2].setup.character"),
    (("table_rolls", 1, "kind"), "poker", "table_rolls[1].kind"),
    (("table_rolls", 0, "day"), 99, "table_rolls[0].day"),
    (("forces", 0, "units", 0, "history", 1, "details", "engagement"), 5,
     "forces[0].units[0].history[1].details.engagement"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "value", "named"), TABLE_BAD_FIELDS, ids=[b[2] for b in TABLE_BAD_FIELDS]
)
def test_an_import_of_the_tables_records_with_one_bad_field_writes_nothing_and_names_it(
    table_records, path, value, named
):
    from campaign.models import Engagement, TableRoll

    data = copy.deepcopy(campaign_export(campaign=table_records))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    before = (*counts(), Engagement.objects.count(), TableRoll.objects.count())
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert named in refused.value.message_dict
    assert (*counts(), Engagement.objects.count(), TableRoll.objects.count()) == before


def test_an_export_from_before_the_tables_records_imports_without_their_links(table_records):
    data = copy.deepcopy(campaign_export(campaign=table_records))
    del data["engagements"], data["table_rolls"]
    imported = campaign_import(data={**data, "campaign": {**data["campaign"], "name": "Old"}})
    assert not imported.engagements.exists() and not imported.table_rolls.exists()
    details = HistoryEntry.objects.filter(unit__force__campaign=imported).values_list(
        "details", flat=True
    )
    assert {d.get("engagement") for d in details} == {None}
