"""Export and import of a campaign's battles: the engine's battle behind each, with its scenario,
result and log, and the campaign's side of it (who fought, the outcome, the history it wrote)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.engine import BattleResult, log_from_dict, parse_scenario, replay
from battles.fog import seed_withheld_json
from battles.models import Battle, BattleLog
from battles.services import battle_resolve
from campaign.models import Campaign, CampaignBattle, HistoryEntry, Unit
from campaign.selectors.entries import entry_battles
from campaign.services import campaign_import, campaign_update
from campaign.services.battles import (
    Deployment,
    campaign_battle_apply,
    campaign_battle_launch,
    campaign_battle_record,
    campaign_battle_revert,
    campaign_battle_settle,
)
from campaign.transfer.export import campaign_export, export_text
from tests.campaign.invited import accept_every_invitation

CROSSROADS = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"
pytestmark = pytest.mark.django_db


def _launch(campaign, gm, name: str, blue: list[Unit], red: list[Unit]) -> CampaignBattle:
    spots = {"blue": [(6, 3), (10, 2)], "red": [(20, 20), (16, 20)]}
    deployments = [
        Deployment(unit=unit, side=side, position=spots[side][i])
        for side, units in (("blue", blue), ("red", red))
        for i, unit in enumerate(units)
    ]
    with mock.patch("battles.tasks.resolve_battle.delay"):
        return campaign_battle_launch(
            campaign=campaign, base=json.loads(CROSSROADS.read_text()), deployments=deployments,
            name=name, seed=12, actor=gm,
        )  # fmt: skip


def _settled(campaign_battle: CampaignBattle) -> CampaignBattle:
    with mock.patch("celery.current_app.send_task"):
        return campaign_battle_settle(battle_id=campaign_battle.battle_id)


@pytest.fixture
def fought(campaign, make_unit, enemy, cast):
    """A campaign's battles in every state an import meets: one the engine fought, applied,
    reverted and applied again; one whose worker failed; one fought at a real table, awaiting
    the GM's review."""
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.REVIEW)
    squads = [make_unit("1st Squad", quality="experienced"), make_unit("2nd Squad")]
    mech = make_unit("Iron Wolf", "Mech", specialties=("mechanized",), into=enemy)
    crossroads = _launch(campaign, cast.gm, "Crossroads", squads, [mech])
    battle_resolve(battle_id=crossroads.battle_id)
    crossroads = _settled(crossroads)
    campaign_battle_apply(campaign_battle=crossroads, actor=cast.gm)
    campaign_battle_revert(campaign_battle=crossroads, reason="wrong ford", actor=cast.gm)
    campaign_battle_apply(campaign_battle=crossroads, actor=cast.gm)

    lost = _launch(campaign, cast.gm, "Lost signal", [make_unit("3rd Squad")],
                   [make_unit("Blue Rifles", into=enemy)])  # fmt: skip
    Battle.objects.filter(pk=lost.battle_id).update(
        status=Battle.Status.FAILED, error="The worker was stopped."
    )
    _settled(lost)

    campaign_battle_record(
        campaign=campaign, name="Skirmish at the mill",
        sides={"attackers": [make_unit("Pickets")], "defenders": [make_unit("Blue Scouts",
                                                                            into=enemy)]},
        winner="attackers",
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0}
                  for u in Unit.objects.filter(name__in=["Pickets", "Blue Scouts"])},
        actor=cast.gm,
    )  # fmt: skip
    campaign.refresh_from_db()
    return campaign


def counts() -> tuple[int, ...]:
    models = (Campaign, CampaignBattle, Battle, BattleLog, HistoryEntry, Unit)
    return tuple(model.objects.count() for model in models)


def _restored(data: dict) -> Campaign:
    """The campaign imported, its people joined (each invited, and accepting)."""
    data = copy.deepcopy(data)
    data["campaign"]["name"] = "Op. Test, restored"
    imported = campaign_import(data=data)
    accept_every_invitation(imported)
    return imported


def test_the_battles_survive_export_and_import_exactly(fought):
    exported = json.loads(export_text(campaign_export(campaign=fought)))
    crossroads, lost, mill = exported["battles"]
    assert (crossroads["name"], crossroads["state"], crossroads["applications"]) == (
        "Crossroads", "applied", 2,
    )  # fmt: skip
    assert (lost["state"], lost["engine"]["status"], lost["engine"]["log"]) == (
        "failed", "failed", None,
    )  # fmt: skip
    assert (mill["state"], mill["engine"], mill["table_result"]["winner"]) == (
        "awaiting", None, "attackers",
    )  # fmt: skip
    # Units by the export's own keys wherever the campaign names them, not database ids.
    keys = {f"forces[{i}].units[{j}]" for i in range(2) for j in range(4)}
    assert set(crossroads["sides"]) == {"blue", "red"}
    assert {key for side in crossroads["sides"].values() for key in side} <= keys
    assert set(crossroads["engine_units"].values()) <= keys and set(crossroads["orders"]) <= keys
    assert set(mill["table_result"]["units"]) <= keys
    # Two applications and a revert: every entry that names the battle, the latest applied.
    assert set(crossroads["applied_entries"]) < set(crossroads["entries"])
    assert len(crossroads["entries"]) == HistoryEntry.objects.filter(battle__isnull=False).count()
    engine = crossroads["engine"]
    assert engine["log_sha256"] == hashlib.sha256(engine["log"].encode()).hexdigest()
    assert engine["status"] == "done" and engine["seed"] == 12

    imported = _restored(exported)
    again = json.loads(export_text(campaign_export(campaign=imported)))
    again["campaign"]["name"] = exported["campaign"]["name"]
    assert again == exported
    crossroads_now = imported.battles.get(name="Crossroads")
    old = fought.battles.get(name="Crossroads")
    assert crossroads_now.battle.log.events == old.battle.log.events
    assert crossroads_now.battle.cost == old.battle.cost
    linked = HistoryEntry.objects.filter(battle=crossroads_now.battle)
    assert linked.count() == len(crossroads["entries"])
    assert {e.unit.force.campaign_id for e in linked} == {imported.pk}
    # Applied stays applied, and can be reverted on the new site like on the old.
    assert campaign_battle_revert(campaign_battle=crossroads_now, reason="again")
    # The review waits here too, and applying it rolls the dice it would have rolled there.
    mill = fought.battles.get(name="Skirmish at the mill")
    mill_now = imported.battles.get(name="Skirmish at the mill")
    there = campaign_battle_apply(campaign_battle=mill)
    assert [e.text for e in campaign_battle_apply(campaign_battle=mill_now)] == [
        e.text for e in there
    ]


def test_a_table_battle_applied_again_keeps_every_applications_entries_across_an_import(
    fought, cast
):
    """A table battle's entries name no battle: its record lists them, and the export's
    ``entries`` carries every application's, so on the new site the earlier application's,
    reverted, are still the battle's. An export that lists none (older ones) imports too."""
    mill = fought.battles.get(name="Skirmish at the mill")
    first = [e.pk for e in campaign_battle_apply(campaign_battle=mill, actor=cast.gm)]
    campaign_battle_revert(campaign_battle=mill, reason="wrong table", actor=cast.gm)
    latest = [e.pk for e in campaign_battle_apply(campaign_battle=mill, actor=cast.gm)]
    mill.refresh_from_db()
    assert (mill.earlier_entries, mill.applied_entries) == (first, latest)

    exported = json.loads(export_text(campaign_export(campaign=fought)))
    listed = exported["battles"][2]
    assert len(listed["entries"]) == len(first) + len(latest)
    assert listed["entries"][len(first) :] == listed["applied_entries"]
    imported = _restored(exported)
    again = json.loads(export_text(campaign_export(campaign=imported)))
    again["campaign"]["name"] = exported["campaign"]["name"]
    assert again == exported
    mill_now = imported.battles.get(name="Skirmish at the mill")
    assert len(mill_now.earlier_entries) == len(first)
    entries = list(HistoryEntry.objects.filter(pk__in=mill_now.earlier_entries))
    homes, names = entry_battles(entries=entries)
    assert set(homes.values()) == {mill_now.pk} and len(homes) == len(first)
    assert names == {mill_now.pk: "Skirmish at the mill"}

    older = copy.deepcopy(exported)
    older["battles"][2]["entries"] = []
    older_mill = _restored(older).battles.get(name="Skirmish at the mill")
    assert older_mill.earlier_entries == [] and len(older_mill.applied_entries) == len(latest)


def test_the_imported_battles_pages_show_it_in_the_campaigns_names(fought, client):
    imported = _restored(campaign_export(campaign=fought))
    crossroads = imported.battles.get(name="Crossroads")
    client.force_login(imported.gm)
    page = client.get(reverse("campaign:battle", args=[imported.pk, crossroads.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    for name in ("1st Squad (Red Company)", "Iron Wolf (Blue Battalion)", "Red Company"):
        assert name in body, name
    replay = page.context["report"].frames
    assert replay["frames"] and {u["name"] for u in replay["units"].values()} == {
        "1st Squad", "2nd Squad", "Iron Wolf",
    }, "the replay, in the units' own names"  # fmt: skip
    assert page.context["report"].table is not None, "the map"
    assert page.context["report"].log, "the round-by-round log"
    log = client.get(reverse("campaign:battle-log", args=[imported.pk, crossroads.pk]))
    assert log.status_code == 200 and log.content.decode() == crossroads.battle.log.events
    cards = client.get(reverse("campaign:battle-cards", args=[imported.pk, crossroads.pk]))
    assert cards.status_code == 200 and "Iron Wolf" in cards.content.decode()
    for name in ("Lost signal", "Skirmish at the mill"):
        other = imported.battles.get(name=name)
        url = reverse("campaign:battle", args=[imported.pk, other.pk])
        assert client.get(url).status_code == 200, name
    # A unit's history leads to the battle it fought, on the new site.
    squad = Unit.objects.get(force__campaign=imported, name="1st Squad")
    unit_page = client.get(reverse("campaign:unit", args=[imported.pk, squad.pk]))
    assert (
        reverse("campaign:battle", args=[imported.pk, crossroads.pk]) in unit_page.content.decode()
    )


def _tamper_log(change):
    """Change the log's data and write it back with a fresh sha256, as someone who knew how
    would: the schema, the first event and the replay still catch it."""

    def tamper(data):
        engine = data["battles"][0]["engine"]
        log = json.loads(engine["log"])
        change(log)
        engine["log"] = json.dumps(log, sort_keys=True, separators=(",", ":"))
        engine["log_sha256"] = hashlib.sha256(engine["log"].encode()).hexdigest()

    return tamper


def _set(*path_and_value):
    *path, value = path_and_value

    def tamper(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return tamper


def _first_damage(log):
    return next(e for e in log["events"] if e["kind"] == "damage")


TAMPERED = [
    (lambda d: d["battles"][0]["engine"].update(log=d["battles"][0]["engine"]["log"][:-2] + "}"),
     "battles[0].engine.log", "changed after the battle was fought"),
    (_tamper_log(lambda log: log["events"][1].update(turn="two")),
     "battles[0].engine.log.events[1]", "not allowed"),
    (_tamper_log(lambda log: log["events"][-1].update(kind="dance")),
     "battles[0].engine.log.events[{last}]", "not an event of the log"),
    (_tamper_log(lambda log: _first_damage(log).update(hits=_first_damage(log)["hits"] + 1)),
     "battles[0].engine.result", "is not what the battle's log comes to"),
    (_tamper_log(lambda log: _first_damage(log).update(unit="ghost-1")),
     "battles[0].engine.log", "cannot replay it"),
    (_set("battles", 0, "engine", "seed", 13), "battles[0].engine.log.events[0].seed",
     "must be the battle's seed, 13"),
    (_tamper_log(lambda log: log.update(seed_withheld_json(log))),
     "battles[0].engine.log.events[0].digest", "import the GM's export of the campaign"),
    (_set("battles", 0, "engine", "scenario", "name", "Elsewhere"),
     "battles[0].engine.log.events[0].digest", "the scenario, or the log, was changed"),
    (_set("battles", 0, "engine", "status", "lost"), "battles[0].engine.status", "must be done"),
    (_set("battles", 0, "engine", "ruleset", "one_year_war"), "battles[0].engine.ruleset",
     "the campaign's"),
    (_set("battles", 0, "sides", "blue", 0, "forces[7].units[0]"), "battles[0].sides.blue[0]",
     "not a unit of the export"),
    (_set("battles", 0, "sides", "blue", 1, None), "battles[0].sides.blue[1]",
     "not a unit of the export"),
    (_set("battles", 0, "engine_units", "ghost-1", "forces[0].units[0]"),
     "battles[0].engine_units", "not a unit of the battle's scenario"),
    (_set("battles", 0, "applied_entries", 0, "forces[0].units[0].history[99]"),
     "battles[0].applied_entries[0]", "not a history entry of the export"),
    (lambda d: d["battles"][1].update(entries=d["battles"][0]["entries"][:1]),
     "battles[1].entries[0]", "another battle names this entry"),
    (_set("battles", 1, "state", "applied"), "battles[1].state", "its battle failed"),
    (_set("battles", 0, "state", "failed"), "battles[0].state",
     "its battle was fought to the end: it did not fail"),
    (lambda d: next(iter(d["battles"][2]["table_result"]["units"].values())).update(
        hits_lost=-1), "battles[2].table_result.units.{mill}",
     "hits_lost must be a whole number"),
    (_set("battles", 2, "table_result", "winner", "blue"), "battles[2].table_result.winner",
     "one of the battle's sides"),
    (_set("battles", 0, "day", 99), "battles[0].day", "must be a whole number"),
    # The state line says from the count how often an outcome was applied and reverted.
    (_set("battles", 0, "applications", 0), "battles[0].applications",
     "the battle is applied: it was applied once at least"),
    (_set("battles", 2, "applications", 1), "battles[2].applications",
     "the battle is awaiting review: its outcome was never applied"),
    (lambda d: next(iter(d["battles"][0]["orders"].values())).update(quality="heroic"),
     "battles[0].orders.{order}.quality", 'must be a quality word, got the text "heroic"'),
]  # fmt: skip


@pytest.mark.parametrize(("tamper", "path", "says"), TAMPERED, ids=[t[1] for t in TAMPERED])
def test_a_tampered_battle_is_refused_by_its_path_and_nothing_is_written(
    fought, tamper, path, says
):
    data = copy.deepcopy(campaign_export(campaign=fought))
    last = len(json.loads(data["battles"][0]["engine"]["log"])["events"]) - 1
    order = next(iter(data["battles"][0]["orders"]))
    mill = next(iter(data["battles"][2]["table_result"]["units"]))
    tamper(data)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        _restored(data)
    problems = refused.value.message_dict
    named = path.format(last=last, order=order, mill=mill)
    assert named in problems, problems
    assert any(says in problem for problem in problems[named]), problems[named]
    assert counts() == before


def _drop_first(kind):
    def change(log):
        log["events"].remove(next(e for e in log["events"] if e["kind"] == kind))

    return change


def _cut_after_first_turn(engine):
    """The log ended after its first turn, with the result its replay comes to: a log and a
    result that agree, of a battle that went on."""
    log = json.loads(engine["log"])
    starts = [i for i, e in enumerate(log["events"]) if e["kind"] == "turn_start"]
    log["events"] = [*log["events"][: starts[1]], {**log["events"][-1], "turn": 1}]
    ended = replay(parse_scenario(engine["scenario"]), log_from_dict(log))
    engine["result"] = BattleResult.from_state(ended).to_dict()
    return log


REFOUGHT = [
    (_drop_first("roll"), "events[{roll}] was changed after the battle was fought"),
    (_drop_first("activation"), "events[{activation}] was changed after the battle was fought"),
    (None, "ends after turn 1, but the engine fights this battle on"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "says"), REFOUGHT, ids=["a roll", "an activation", "cut"])
def test_a_log_changed_where_its_replay_cannot_tell_is_refused_by_fighting_it_again(
    fought, change, says
):
    """A roll or a unit's turn taken out, or the battle cut short with its result to match:
    the log still replays to the battle's result, but it is not the battle the engine fights
    from the scenario and seed."""
    data = copy.deepcopy(campaign_export(campaign=fought))
    engine = data["battles"][0]["engine"]
    log = json.loads(engine["log"])
    first = {kind: next(i for i, e in enumerate(log["events"]) if e["kind"] == kind)
             for kind in ("roll", "activation")}  # fmt: skip
    if change is None:
        log = _cut_after_first_turn(engine)
    else:
        change(log)
    engine["log"] = json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    engine["log_sha256"] = hashlib.sha256(engine["log"].encode()).hexdigest()
    # What a replay reads of it stands: only fighting it again tells.
    assert (
        BattleResult.from_state(
            replay(parse_scenario(engine["scenario"]), log_from_dict(log))
        ).to_dict()
        == engine["result"]
    )
    before = counts()
    with pytest.raises(ValidationError) as refused:
        _restored(data)
    problems = refused.value.message_dict
    assert list(problems) == ["battles[0].engine.log"], problems
    (problem,) = problems["battles[0].engine.log"]
    assert says.format(**first) in problem
    assert counts() == before


def test_an_import_whose_battles_cost_too_much_to_fight_again_is_refused_in_a_sentence(fought):
    """The engine's work in checking the logs is bounded before any battle is fought again;
    whoever runs the site imports past it."""
    data = copy.deepcopy(campaign_export(campaign=fought))
    data["campaign"]["name"] = "Op. Test, restored"
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, refight_most=11)
    assert refused.value.messages == [
        "This export's battles would take the engine 12 unit-pair turns to fight again, to "
        "check that each log is the battle's own; an import here takes at most 11. Whoever runs "
        "the site can import it with manage.py campaign_import."
    ]
    assert counts() == before
    assert campaign_import(data=data, refight_most=12).battles.count() == 3  # just within
    assert campaign_import(data=data, refight_most=None).battles.count() == 3


def test_a_battle_still_being_fought_is_exported_but_not_imported(fought, make_unit, enemy, cast):
    queued = _launch(fought, cast.gm, "Night raid", [make_unit("4th Squad")],
                     [make_unit("Blue Guard", into=enemy)])  # fmt: skip
    data = campaign_export(campaign=fought)
    raid = data["battles"][3]
    assert (raid["name"], raid["state"], raid["engine"]["status"]) == ("Night raid", "fighting",
                                                                       "queued")  # fmt: skip
    before = counts()
    with pytest.raises(ValidationError) as refused:
        _restored(data)
    (problem,) = refused.value.message_dict["battles[3].engine.status"]
    assert "still queued when the file was written" in problem
    assert "cannot be carried over mid-fight" in problem
    assert counts() == before
    # Nothing else names it: taken out of the file, the rest comes across.
    del data["battles"][3]
    imported = _restored(data)
    assert imported.battles.count() == 3
    Battle.objects.filter(pk=queued.battle_id).update(status=Battle.Status.RUNNING)
    with pytest.raises(ValidationError, match="still running"):
        _restored(campaign_export(campaign=fought))


def test_an_export_from_before_battles_imports_without_them(fought):
    data = copy.deepcopy(campaign_export(campaign=fought))
    del data["battles"]
    imported = _restored(data)
    assert not imported.battles.exists()
    assert not HistoryEntry.objects.filter(unit__force__campaign=imported, battle__isnull=False)


def test_the_import_page_says_the_battles_come_across_and_how_large_a_file_it_takes(client, cast):
    client.force_login(cast.gm)
    page = client.get(reverse("campaign:import")).content.decode()
    assert "and its battles with their reports, logs and replays" in page
    assert "cannot be carried over mid-fight" in page
    assert "files of up to 20 MB. For a larger one, ask whoever runs the site" in page
