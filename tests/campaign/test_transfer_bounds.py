"""An import is bounded: counts past `IMPORT_MOST`, a force past its units, a campaign past its
forces, members or characters, a log past what the engine writes are refused in a sentence
before the rest is read; a long history is written in batches; a name given as a list or an
object is refused by its path; a form sent twice imports or starts one campaign."""

from __future__ import annotations

import copy
import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Character, Engagement, Force, Order, TableRoll
from campaign.rules.values import (
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_FORCES_PER_CAMPAIGN,
    MAX_MEMBERS_PER_CAMPAIGN,
)
from campaign.services import campaign_create, campaign_import, force_import
from campaign.transfer.bounds import IMPORT_MOST, import_counts
from campaign.transfer.export import campaign_export, force_export
from tests.campaign import test_transfer_battles, test_transfer_table
from tests.campaign.test_transfer_refusals import counts

# The campaigns the transfer tests build, shared.
at_the_table = test_transfer_table.at_the_table
table_records = test_transfer_table.table_records
fought = test_transfer_battles.fought


def _all_counts():
    models = (Character, Order, Engagement, TableRoll)
    return (*counts(), *(model.objects.count() for model in models))


def test_an_export_past_the_import_counts_is_refused_in_a_sentence_writing_nothing(
    played, monkeypatch
):
    monkeypatch.setitem(IMPORT_MOST, "history entries", 3)
    data = campaign_export(campaign=played)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    said = refused.value.message_dict[NON_FIELD_ERRORS]
    assert (
        said
        and said[0].startswith("This export holds ")
        and said[0].endswith(" history entries; an import takes at most 3.")
    )
    assert counts() == before


def test_an_export_holding_exactly_the_import_counts_is_imported(played, monkeypatch):
    data = campaign_export(campaign=played)
    held = import_counts(data)
    for what, count in held.items():
        monkeypatch.setitem(IMPORT_MOST, what, count)
    data["campaign"]["name"] = "Op. Test, at the counts"
    imported = campaign_import(data=data)
    assert imported.name == "Op. Test, at the counts"
    assert import_counts(campaign_export(campaign=imported)) == held


def test_a_force_past_the_units_a_force_holds_is_refused_by_its_path(played):
    data = copy.deepcopy(campaign_export(campaign=played))
    units = data["forces"][0]["units"]
    units.extend(copy.deepcopy(units[0]) for _ in range(101 - len(units)))
    before = counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict["forces[0].units"] == [
        "holds 101 units; a force holds at most 100"
    ]
    assert counts() == before


def test_an_export_past_what_a_campaign_holds_is_refused_whole_by_its_paths(played):
    data = copy.deepcopy(campaign_export(campaign=played))
    owner = data["forces"][0]["owner"]
    data["forces"] = [
        {"name": f"Company {n}", "owner": owner, "units": []}
        for n in range(MAX_FORCES_PER_CAMPAIGN + 1)
    ]
    data["campaign"]["members"] = [
        {"user": f"onlooker-{n}", "role": "spectator"} for n in range(MAX_MEMBERS_PER_CAMPAIGN + 1)
    ]
    data["characters"] = [{} for _ in range(MAX_CHARACTERS_PER_CAMPAIGN + 1)]
    before = _all_counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    said = refused.value.message_dict
    assert said["forces"] == ["holds 51 forces; a campaign holds at most 50"]
    assert said["campaign.members"] == ["holds 101 members; a campaign holds at most 100"]
    assert said["characters"] == ["holds 501 characters; a campaign holds at most 500"]
    assert _all_counts() == before


def test_members_kept_with_the_files_gm_as_a_co_gm_past_what_a_campaign_holds_are_refused(
    played,
):
    # The file's GM is no member there: run here by someone else, they become one more.
    data = copy.deepcopy(campaign_export(campaign=played))
    members = data["campaign"]["members"]
    User = get_user_model()
    User.objects.bulk_create(
        User(username=f"onlooker-{n}") for n in range(len(members), MAX_MEMBERS_PER_CAMPAIGN)
    )
    members += [
        {"user": f"onlooker-{n}", "role": "spectator"}
        for n in range(len(members), MAX_MEMBERS_PER_CAMPAIGN)
    ]
    before = _all_counts()
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, gm=User.objects.create_user("newcomer"), keep_members=True)
    assert refused.value.message_dict["campaign.members"] == [
        f"holds {MAX_MEMBERS_PER_CAMPAIGN + 1} members with {data['campaign']['gm']}, the file's "
        f"GM, a co-GM here; a campaign holds at most {MAX_MEMBERS_PER_CAMPAIGN}"
    ]
    assert _all_counts() == before


def test_an_export_with_as_many_forces_as_a_campaign_holds_is_imported(played):
    data = copy.deepcopy(campaign_export(campaign=played))
    owner = data["forces"][0]["owner"]
    data["forces"] += [
        {"name": f"Company {n}", "owner": owner, "units": []}
        for n in range(MAX_FORCES_PER_CAMPAIGN - len(data["forces"]))
    ]
    assert campaign_import(data=data).forces.count() == MAX_FORCES_PER_CAMPAIGN


def test_a_force_moving_into_a_full_campaign_is_refused_writing_nothing(played):
    exported = force_export(force=played.forces.get(name="Red Company"))
    exported["force"]["name"] = "Red Company, again"
    held = played.forces.count()
    Force.objects.bulk_create(
        Force(campaign=played, owner=played.gm, name=f"Company {n}")
        for n in range(held, MAX_FORCES_PER_CAMPAIGN)
    )
    before = _all_counts()
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=played, data=exported)
    assert refused.value.messages == [
        f"{played.name} already has 50 forces, the most a campaign may have"
    ]
    assert _all_counts() == before


def test_a_log_longer_than_the_engine_writes_is_refused_before_its_events_are_read(
    fought, monkeypatch
):
    import campaign.transfer.battles as transfer_battles

    data = campaign_export(campaign=fought)
    events = len(json.loads(data["battles"][0]["engine"]["log"])["events"])
    monkeypatch.setattr(transfer_battles, "LOG_EVENTS_MOST", events - 1)
    read = []
    monkeypatch.setattr(transfer_battles, "log_problems", lambda log: read.append(log) or iter(()))
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data)
    assert refused.value.message_dict["battles[0].engine.log"] == [
        f"holds {events:,} events; a battle's log holds at most {events - 1:,}"
    ]
    assert read == []


def test_a_log_as_long_as_a_battles_log_may_be_is_imported(fought, monkeypatch):
    import campaign.transfer.battles as transfer_battles

    data = campaign_export(campaign=fought)
    logs = [battle["engine"]["log"] for battle in data["battles"] if battle["engine"]]
    longest = max(len(json.loads(log)["events"]) for log in logs if log)
    monkeypatch.setattr(transfer_battles, "LOG_EVENTS_MOST", longest)
    data["campaign"]["name"] = "Op. Test, restored"
    assert campaign_import(data=data).battles.count() == len(data["battles"])


def test_a_long_history_is_written_in_a_few_statements(played):
    data = copy.deepcopy(campaign_export(campaign=played))
    history = data["forces"][0]["units"][0]["history"]
    history.extend({"day": 1, "kind": "gm_edit", "text": "", "before": {}, "after": {}}
                   for _ in range(500))  # fmt: skip
    data["campaign"]["name"] = "Long history"
    with CaptureQueriesContext(connection) as queries:
        imported = campaign_import(data=data)
    assert len(queries) < 200  # one INSERT an entry would be over 500
    unit = imported.forces.get(name=data["forces"][0]["name"]).units.get(
        name=data["forces"][0]["units"][0]["name"]
    )
    assert unit.history.count() == len(history)


FREE_FORM = {"details", "before", "after", "events", "result", "scenario", "situations"}
"""Where an export holds what it carries as it is (an entry's working, a log, a result), not a
name an import reads."""


def _name_paths(data, path=()):
    """Every text in the export an import reads as a name or a word (not free-form)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in FREE_FORM:
                yield from _name_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _name_paths(value, (*path, index))
    elif isinstance(data, str):
        yield path


def _dotted(path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def test_a_list_or_an_object_in_place_of_any_name_is_refused_by_its_path(table_records):
    """Fuzz-ish and deterministic: every text the export holds, in turn a list and an object
    (JSON's unhashable values): the import says where, and writes nothing."""
    exported = campaign_export(campaign=table_records)
    paths = [path for path in _name_paths(exported) if path[0] not in ("format",)]
    assert len(paths) > 50 and any(path[-1] == "giver" for path in paths)
    before = _all_counts()
    for number, path in enumerate(paths):
        data = copy.deepcopy(exported)
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = [] if number % 2 else {"name": "x"}
        with pytest.raises(ValidationError) as refused:
            campaign_import(data=data)
        named = _dotted(path)
        where = refused.value.message_dict
        assert any(named.startswith(at) for at in where) or NON_FIELD_ERRORS in where, (
            named,
            where,
        )
    assert _all_counts() == before


def test_the_same_import_sent_twice_makes_one_campaign(played, cast):
    data = copy.deepcopy(campaign_export(campaign=played))
    data["campaign"]["name"] = "Sent twice"
    key = uuid.uuid4()
    first = campaign_import(data=data, gm=cast.gm, request_key=key)
    again = campaign_import(data=data, gm=cast.gm, request_key=key)
    assert again == first and Campaign.objects.filter(name="Sent twice").count() == 1
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, gm=cast.player, request_key=key)
    assert "request_key" in refused.value.message_dict
    other = campaign_import(data=data, gm=cast.gm, request_key=uuid.uuid4())
    assert other != first


def test_the_same_new_campaign_sent_twice_makes_one(cast):
    key = uuid.uuid4()
    first = campaign_create(name="Twice", gm=cast.gm, ruleset="combined_arms", request_key=key)
    again = campaign_create(name="Twice", gm=cast.gm, ruleset="combined_arms", request_key=key)
    assert again == first and Campaign.objects.filter(name="Twice").count() == 1


def test_a_new_campaign_racing_its_own_key_finds_the_first(cast, monkeypatch):
    """Two requests at the same moment: both find no campaign by the key, the second's insert
    meets the first's, and it gives back the first's campaign."""
    import campaign.services.campaigns as campaigns

    key = uuid.uuid4()
    first = campaign_create(name="Race", gm=cast.gm, ruleset="combined_arms", request_key=key)
    monkeypatch.setattr(campaigns, "campaign_made", lambda request_key, gm: None)
    again = campaign_create(name="Race", gm=cast.gm, ruleset="combined_arms", request_key=key)
    assert again == first and Campaign.objects.filter(name="Race").count() == 1


def test_the_start_and_import_forms_carry_a_key_and_a_resent_post_makes_one(client, cast):
    client.force_login(cast.gm)
    page = client.get(reverse("campaign:list")).content.decode()
    assert 'name="request_key"' in page and "Request key" not in page
    assert 'name="request_key"' in client.get(reverse("campaign:import")).content.decode()
    form = {"name": "Clicked twice", "ruleset": "combined_arms", "request_key": str(uuid.uuid4())}
    first = client.post(reverse("campaign:create"), form)
    again = client.post(reverse("campaign:create"), form)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Campaign.objects.filter(name="Clicked twice").count() == 1
