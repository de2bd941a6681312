"""A campaign in and out through the site and the commands: the export download, the import
page, ``manage.py campaign_export`` / ``campaign_import``, a force's roster as CSV."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import subprocess
import sys
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Force, HistoryEntry, Membership, SavedMap, Unit
from campaign.rules.damage import UnitOutcome
from campaign.services import (
    campaign_create,
    campaign_update,
    force_create,
    force_edit,
    invitation_send,
    membership_set,
    outcome_apply,
    unit_create,
)
from campaign.services.characters import character_create
from campaign.services.maps import saved_map_create
from campaign.transfer.export import force_export
from campaign.transfer.roster import csv_cell
from tests.campaign.invited import accept_every_invitation
from tests.web.campaign_world import CROSSROADS, login
from tests.workers import ROOT, project_env
from units.models import UnitType
from units.services import library_load

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, ...]:
    models = (Campaign, Membership, Force, Unit, HistoryEntry, SavedMap)
    return tuple(m.objects.count() for m in models)


def _download(client, world) -> bytes:
    response = client.get(reverse("campaign:export", args=[world.campaign.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return response.content


def _upload(client, content: bytes):
    upload = SimpleUploadedFile("export.json", content, content_type="application/json")
    return client.post(reverse("campaign:import"), {"file": upload})


def test_an_empty_file_is_said_to_be_empty_and_nothing_else(client, world):
    login(client, world, "gm")
    before = counts()
    response = _upload(client, b"")
    assert response.status_code == 400
    body = response.content.decode()
    assert "The file is empty" in body
    # The GM chose a file: nothing tells them to choose one, nor says it twice.
    assert "hoose an export file" not in body and "submitted file is empty" not in body
    assert counts() == before


def test_a_file_cut_short_is_said_to_be_and_nothing_is_written(client, world):
    login(client, world, "gm")
    before = counts()
    whole = client.get(reverse("campaign:export", args=[world.campaign.pk])).content
    response = _upload(client, whole[: len(whole) // 2])
    assert response.status_code == 400
    assert "The file is cut short: it stops at line" in response.content.decode()
    assert counts() == before


def test_a_backup_that_cannot_be_written_says_so_and_leaves_the_old_one_whole(world, tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=r"cannot write .*missing/backup.json: No such file"):
        call_command(
            "campaign_export", str(world.campaign.pk), output=tmp_path / "missing" / "backup.json"
        )
    # Written over last night's backup and failing before its end (a full disk): last night's
    # is still there, whole, and no half-written file is left beside it.
    backup = tmp_path / "backup.json"
    backup.write_text("last night's backup")
    with (
        mock.patch("os.replace", side_effect=OSError(28, "No space left on device")),
        pytest.raises(CommandError, match="No space left on device"),
    ):
        call_command("campaign_export", str(world.campaign.pk), output=backup)
    assert backup.read_text() == "last night's backup"
    assert [p.name for p in tmp_path.iterdir()] == ["backup.json"]
    call_command("campaign_export", str(world.campaign.pk), output=backup)
    assert json.loads(backup.read_text())["campaign"]["name"] == world.campaign.name


def test_only_the_gm_and_co_gms_download_the_whole_campaign(client, world):
    for role, status in (("gm", 200), ("co_gm", 200), ("player", 403), ("outsider", 404)):
        url = reverse("campaign:export", args=[world.campaign.pk])
        assert login(client, world, role).get(url).status_code == status, role
    page = login(client, world, "gm").get(reverse("campaign:dashboard", args=[world.campaign.pk]))
    assert reverse("campaign:export", args=[world.campaign.pk]).encode() in page.content


def test_export_then_import_through_the_site_gives_the_same_file(client, world):
    campaign_update(campaign=world.campaign, fog_of_war=True, actor=world.users["gm"])
    saved_map_create(
        campaign=world.campaign, name="My crossroads", text=CROSSROADS.read_text(),
        actor=world.users["gm"],
    )  # fmt: skip
    login(client, world, "gm")
    exported = _download(client, world)
    data = json.loads(exported)
    assert data["campaign"]["fog_of_war"] is True and data["maps"][0]["name"] == "My crossroads"
    assert sum(len(u["history"]) for f in data["forces"] for u in f["units"]) > 5
    assert [b["name"] for b in data["battles"]] == ["Crossroads", "Skirmish at the mill"]
    # The campaign goes, its users and cards stay: the import finds them by name.
    Campaign.objects.filter(pk=world.campaign.pk).delete()
    assert counts()[:5] == (0, 0, 0, 0, 0)
    response = _upload(client, exported)
    assert response.status_code == 302
    imported = Campaign.objects.get()
    assert response["Location"] == reverse("campaign:dashboard", args=[imported.pk])
    assert imported.gm == world.users["gm"] and imported.fog_of_war is True
    # Its people are invited: once each has accepted, the file comes back the same.
    assert not imported.memberships.exists()
    accept_every_invitation(imported)
    world.campaign = imported
    assert _download(client, world) == exported


def test_an_imported_campaign_tells_each_day_in_the_order_it_happened(client, world):
    # The timeline tells a day's entries newest first, across every force: the copy's lines
    # come in the order the campaign's did, not force by force.
    def told(campaign):
        entries = HistoryEntry.objects.filter(unit__force__campaign=campaign).order_by("-id")
        return [
            (e.unit.force.name, e.unit.name, e.text) for e in entries.select_related("unit__force")
        ]

    login(client, world, "gm")
    data = json.loads(_download(client, world))
    data["campaign"]["name"] = "Second copy"
    original = told(world.campaign)
    assert len({force for force, _, _ in original[:3]}) > 1  # the forces' lines interleave
    assert _upload(client, json.dumps(data).encode()).status_code == 302
    copy = Campaign.objects.get(name="Second copy")
    assert told(copy) == original

    def timeline_units(campaign):
        page = client.get(reverse("campaign:timeline", args=[campaign.pk])).text
        return re.findall(r"([\w ]+) \((?:Red Company|Blue Battalion)\)", page)

    lines = timeline_units(world.campaign)
    assert lines and timeline_units(copy) == lines


def test_a_malformed_import_writes_nothing_and_names_each_field(client, world):
    login(client, world, "gm")
    data = json.loads(_download(client, world))
    data["campaign"]["name"] = "Second copy"
    data["forces"][0]["units"][0]["quality"] = "veteran"
    data["forces"][1]["units"][0]["history"][0]["created_at"] = "0001-01-01T00:00:00+14:00"
    before = counts()
    response = _upload(client, json.dumps(data).encode())
    assert response.status_code == 400
    assert counts() == before
    problems = response.content.decode()
    assert "nothing was written" in problems
    # Each by its place in the file and the names along it.
    force, unit = data["forces"][0]["name"], data["forces"][0]["units"][0]["name"]
    assert f"<code>forces[0].units[0].quality</code> ({force} › {unit}): " in problems
    assert "forces[1].units[0].history[0].created_at" in problems


def test_an_import_refusal_says_the_value_and_what_is_allowed_by_the_things_name(
    client, world, tmp_path
):
    """ "must be 0..1000000, got -5" and a blank map name's "must be a name of 1..200
    characters" said neither the thing nor the value in words; the command line named only the
    path ("forces[0].units[0]…"), where the page names the things along it."""
    login(client, world, "gm")
    data = json.loads(_download(client, world))
    data["campaign"]["name"] = "Second copy"
    data["forces"][0]["units"][0]["experience"] = -5
    data["maps"] = [{"name": " ", "scenario": json.loads(CROSSROADS.read_text())}]
    force, unit = data["forces"][0]["name"], data["forces"][0]["units"][0]["name"]
    experience = f"{unit}'s experience must be a whole number from 0 to 1,000,000, not −5"
    no_name = "Saved map 1 has no name: give it one of 1 to 200 characters"
    before = counts()
    body = _upload(client, json.dumps(data).encode()).content.decode()
    at = f"<code>forces[0].units[0].experience</code> ({force} › {unit}): "
    assert at + html.escape(experience) in body
    assert f"<code>maps[0].name</code>: {no_name}" in body
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as refused:
        call_command("campaign_import", str(path))
    told = str(refused.value).splitlines()
    assert f"  forces[0].units[0].experience ({force} › {unit}): {experience}" in told
    assert f"  maps[0].name: {no_name}" in told
    assert counts() == before


def test_what_is_wrong_with_an_import_is_said_under_the_heading(client, world):
    # On a phone the page's help fills the screen: the problems come before it, not below.
    login(client, world, "gm")
    data = json.loads(_download(client, world))
    data["forces"][0]["units"][0]["quality"] = "veteran"
    body = _upload(client, json.dumps(data).encode()).content.decode()
    heading, problems = body.index("<h1>Import a campaign</h1>"), body.index('id="import-problems"')
    assert heading < problems < body.index('class="lede"')


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "the file is empty"),
        (b"campaign", "the file is not JSON: expecting value at line 1, column 1"),
        (b'{"format": "bridgehead.campaign"}', "<code>version</code>: missing"),
        (b"[" * 1100 + b"]" * 1100, "the file is nested far too deep to read"),
        (b'{"version": ' + b"9" * 4301 + b"}", "the file holds a number far too long to read"),
    ],
)
def test_a_file_that_is_no_export_is_refused_in_plain_words(client, world, content, says):
    login(client, world, "gm")
    before = counts()
    response = _upload(client, content) if content else client.post(reverse("campaign:import"))
    assert response.status_code == 400
    body = response.content.decode()
    # Each a sentence on its own above the form: a capital first.
    said = says if content else "choose an export file"
    assert said[0].upper() + said[1:] in body
    assert "Expecting value: line 1 column 1 (char 0)" not in body
    if not content:  # refused by the form as a whole: what it says takes the focus
        assert re.search(r'<div class="form-errors"[^>]*tabindex="-1" autofocus>', body)
        assert body.count("autofocus") == 1
    assert counts() == before


def test_an_import_over_its_limit_is_refused_unread_on_the_sites_page(client, world):
    from django.conf import settings
    from django.test.client import encode_multipart

    login(client, world, "gm")
    assert settings.IMPORT_FILE_LIMIT == 20_000_000
    body = encode_multipart("BoUnDaRy", {"file": SimpleUploadedFile("big.json", b" " * 21_450_000)})
    before = counts()
    response = client.post(
        reverse("campaign:import"), data=body, content_type="multipart/form-data; boundary=BoUnDaRy"
    )
    assert response.status_code == 413
    page = response.content.decode()
    assert "This file is 21.5 MB; a campaign import takes at most 20 MB." in page
    # The site's page: its header, who is logged in, and the way back to the import.
    assert 'class="site-header"' in page and 'title="Your account">gm</a>' in page
    assert f'href="{reverse("campaign:import")}">Import a campaign</a>' in page
    assert "bytes" not in page
    assert counts() == before


def test_an_export_over_a_megabyte_imports(client, world):
    from django.conf import settings

    login(client, world, "gm")
    exported = _download(client, world)
    Campaign.objects.filter(pk=world.campaign.pk).delete()
    # A long campaign's battle logs, as far as size goes: JSON may end in any amount of space.
    padded = exported + b"\n" * (settings.REQUEST_BODY_LIMIT + 200_000)
    response = _upload(client, padded)
    assert response.status_code == 302
    assert Campaign.objects.get().name == world.campaign.name


def test_a_json_file_that_is_no_export_says_so_in_one_sentence(client, world):
    login(client, world, "gm")
    before = counts()
    response = _upload(client, b'{"not": "an export"}')
    assert response.status_code == 400
    problems = response.content.decode().split('id="import-problems"')[1].split("</div>")[0]
    sentence = (
        "This is not a Bridgehead campaign export (it has no &quot;format&quot;: "
        "&quot;bridgehead.campaign&quot; field)."
    )
    assert problems.count("<li>") == 1 and sentence in problems
    assert "missing" not in problems and "unknown field" not in problems
    force = world.force
    response = _upload(client, json.dumps(force_export(force=force)).encode())
    assert "This is a Bridgehead force export, not a campaign export." in response.text
    assert counts() == before


def test_a_stranger_who_edits_the_files_gm_puts_no_one_in_their_campaign(
    client, world, django_user_model
):
    """The site walk's finding: an export, its GM edited to read "stranger", imported by them.
    They run it; everyone else it names is invited, and joins only by accepting."""
    data = json.loads(_download(login(client, world, "gm"), world))
    data["campaign"]["gm"] = "stranger"
    data["campaign"]["name"] = "Spam Campaign"
    stranger = django_user_model.objects.create_user("stranger")
    client.force_login(stranger)
    response = _upload(client, json.dumps(data).encode())
    assert response.status_code == 302
    spam = Campaign.objects.get(name="Spam Campaign")
    assert spam.gm == stranger and not spam.memberships.exists()
    assert set(spam.forces.values_list("owner__username", flat=True)) == {"stranger"}
    said = client.get(response["Location"]).content.decode()
    assert (
        "Imported Spam Campaign: 2 forces, 5 units, 2 battles; 1 co-GM, 2 players and 1 "
        "spectator invited. Each is invited in their role in the file: co_gm as a "
        "co-GM, player and rival as players, spectator as a spectator. If an account by that "
        "name exists, it has been invited; no one joins until they accept. Until player "
        "accepts, you hold their force Red Company. Until rival accepts, you hold their force "
        "Blue Battalion."
    ) in said
    assert "player, as a player, who takes over the force Red Company on joining" in said
    # Not on the player's "My campaigns": an invitation there, saying what comes with it.
    mine = login(client, world, "player").get(reverse("campaign:list"))
    assert spam not in [line.campaign for line in mine.context["campaigns"]]
    assert (
        "stranger invites you as a player. When you join, you take over the force Red Company."
    ) in mine.content.decode()
    invitation = spam.invitations.get(invitee="player")
    accepted = client.post(reverse("campaign:invitation-accept", args=[invitation.pk]))
    assert accepted.status_code == 302
    assert spam.forces.get(name="Red Company").owner == world.users["player"]
    mine = client.get(reverse("campaign:list"))
    assert spam in [line.campaign for line in mine.context["campaigns"]]
    # The rival declines: their force stays with the GM, and the campaign is not theirs.
    invitation = spam.invitations.get(invitee="rival")
    login(client, world, "rival").post(reverse("campaign:invitation-decline", args=[invitation.pk]))
    assert spam.forces.get(name="Blue Battalion").owner == stranger
    assert not spam.memberships.filter(user=world.users["rival"]).exists()


def test_an_invitation_brings_only_what_accepting_it_hands_over(client, world, django_user_model):
    """A force an invitation held that the GM has given someone since, or a character given a
    player, no longer waits for its invitee: the dashboard, "My campaigns" and the link's page
    leave it out, as accepting does (`access.invitation_holds`), reading what every
    invitation brings in the same few queries however many wait."""
    campaign, gm = world.campaign, world.users["gm"]
    zed = django_user_model.objects.create_user("zed")

    def invite(into: Campaign, forces: list[str], characters: list[str]):
        """An invitation to zed holding what an import would have held for them."""
        invitation_send(campaign=into, invitee="zed", role="player", actor=into.gm)
        invitation = into.invitations.get(invitee="zed")
        invitation.forces.add(
            *(force_create(campaign=into, owner=into.gm, name=name) for name in forces)
        )
        invitation.characters.add(
            *(character_create(campaign=into, name=name, hit_points=9) for name in characters)
        )
        return invitation

    invitation = invite(campaign, ["Green Horde", "Grey Guard"], ["Capt. Holt", "Lt. Vey"])
    grey = campaign.forces.get(name="Grey Guard")
    force_edit(force=grey, name=grey.name, owner=world.users["rival"], actor=gm)
    campaign.characters.filter(name="Capt. Holt").update(player=world.users["player"])
    brings = "the force Green Horde and the character Lt. Vey"
    dashboard = login(client, world, "gm").get(reverse("campaign:dashboard", args=[campaign.pk]))
    assert f"zed, as a player, who takes over {brings} on joining" in dashboard.text
    # The GM's Forces table and Characters page say it beside what is held, and only that.
    said = '<span class="small">(zed takes it over on joining)</span>'
    rows = re.findall(r"<tr>(.*?)</tr>", dashboard.text, re.S)
    assert [said in row for row in rows if "Green Horde</a>" in row] == [True]
    assert [said in row for row in rows if "Grey Guard</a>" in row] == [False]
    characters = client.get(reverse("campaign:characters", args=[campaign.pk])).text
    rows = re.findall(r"<tr>(.*?)</tr>", characters, re.S)
    assert [f"NPC {said}" in row for row in rows if "Lt. Vey" in row] == [True]
    assert [said in row for row in rows if "Capt. Holt" in row] == [False]
    # Whom an invitation is for is the GM's to know: a player's pages leave it out.
    login(client, world, "player")
    for page in ("campaign:dashboard", "campaign:characters"):
        assert "takes it over on joining" not in client.get(reverse(page, args=[campaign.pk])).text
    client.force_login(zed)
    joining = client.get(reverse("campaign:join", args=[invitation.link_key]))
    assert f"When you join, you take over {brings}." in joining.text
    with CaptureQueriesContext(connection) as one:
        mine = client.get(reverse("campaign:list"))
    assert f"invites you as a player. When you join, you take over {brings}." in mine.text
    other = campaign_create(name="Op. Other", gm=gm, ruleset=campaign.ruleset)
    invite(other, ["Black Watch"], ["Sgt. Ames"])
    with CaptureQueriesContext(connection) as two:
        mine = client.get(reverse("campaign:list"))
    assert "you take over the force Black Watch and the character Sgt. Ames." in mine.text
    assert len(two.captured_queries) == len(one.captured_queries)
    client.post(reverse("campaign:invitation-accept", args=[invitation.pk]))
    assert list(zed.forces.values_list("name", flat=True)) == ["Green Horde"]
    assert list(zed.characters.values_list("name", flat=True)) == ["Lt. Vey"]


def test_an_import_of_a_campaign_you_have_gets_a_name_of_its_own(client, world):
    login(client, world, "gm")
    response = _upload(client, _download(client, world))
    assert response.status_code == 302
    copy = Campaign.objects.exclude(pk=world.campaign.pk).get()
    today = timezone.localdate().isoformat()
    assert copy.name == f"Op. Pages (imported {today})"
    said = client.get(response["Location"]).content.decode()
    assert (
        f"Imported Op. Pages (imported {today}): 2 forces, 5 units, 2 battles; 1 co-GM, 2 "
        "players and 1 spectator invited. Its name tells it apart from Op. Pages, which you "
        "have already."
    ) in said
    names = [
        line.campaign.name for line in client.get(reverse("campaign:list")).context["campaigns"]
    ]
    assert sorted(names) == ["Op. Pages", f"Op. Pages (imported {today})"]


@pytest.mark.parametrize("first", ["=", "+", "-", "@", "\t", "\r"])
def test_a_csv_cell_starting_like_a_formula_is_quoted_as_text(first):
    assert csv_cell(f"{first}1+1") == f"'{first}1+1"
    assert csv_cell(f"Hill {first}1") == f"Hill {first}1"
    assert csv_cell(7) == 7


def test_a_roster_comes_as_csv_to_whoever_sees_it_in_full(client, world):
    unit = world.force.units.order_by("id").first()
    Unit.objects.filter(pk=unit.pk).update(name="=HYPERLINK(1)")
    url = reverse("campaign:force-csv", args=[world.campaign.pk, world.force.pk])
    response = login(client, world, "player").get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["name", "card", "quality"]
    names = [row[0] for row in rows[1:]]
    assert sorted(names) == sorted(["'=HYPERLINK(1)", *[u.name for u in world.force.units.all()
                                                        if u.pk != unit.pk]])  # fmt: skip
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    assert login(client, world, "rival").get(url).status_code == 404
    assert login(client, world, "outsider").get(url).status_code == 404


def _manage(env, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, input=stdin,
        capture_output=True, timeout=300,
    )  # fmt: skip


def test_the_commands_carry_a_campaign_into_an_empty_database_and_back(tmp_path, cast_of_two):
    gm, player = cast_of_two
    library_load()
    campaign = campaign_create(name="Op. Backup", gm=gm, ruleset="combined_arms")
    membership_set(campaign=campaign, user=player, role="player")
    force = force_create(campaign=campaign, owner=player, name="Lantern Company")
    card = UnitType.objects.get(name="Rifle Squad", ruleset="combined_arms")
    unit = unit_create(force=force, unit_type=card, name="1st Squad", specialties=["infantry"])
    outcome_apply(
        campaign=campaign, outcomes={unit.pk: UnitOutcome(1, 0, "destroyed")}, reason="Ford"
    )
    campaign_update(campaign=campaign, fog_of_war=True, actor=gm)
    # The table's records travel too: an engagement, a check and a unit raised by Requisition.
    from campaign.services.checks import requisition_run, skill_check_run
    from campaign.services.engagements import engagement_run

    second_squad = unit_create(force=force, unit_type=card, name="2nd Squad",
                               specialties=["infantry"])  # fmt: skip
    night = force_create(campaign=campaign, owner=gm, name="Night Battalion")
    ghost = unit_create(force=night, unit_type=card, name="Ghost Squad", specialties=["infantry"])
    engagement_run(campaign=campaign, sides={"attackers": [second_squad], "defenders": [ghost]},
                   seed=7, round_limit=2, name="Mill ford")  # fmt: skip
    requisition_run(force=night, unit_type=card, name="Levy", specialties=["infantry"],
                    bonus=30, seed=1)  # fmt: skip
    skill_check_run(campaign=campaign, units=[night.units.get(name="Levy")], dc=10, seed=3)
    first = tmp_path / "first.json"
    call_command("campaign_export", str(campaign.pk), output=first)

    # A site of its own: SQLite in a fresh folder, migrated, with the card library only.
    env = project_env(BRIDGEHEAD_VAR_DIR=str(tmp_path / "site"), DATABASE_URL=None, REDIS_URL=None)
    (tmp_path / "site").mkdir()
    for args in (("migrate", "--noinput"), ("library_load",)):
        ran = _manage(env, *args)
        assert ran.returncode == 0, ran.stderr.decode()
    refused = _manage(env, "campaign_import", str(first))
    assert refused.returncode != 0 and "no user “gm” on this site".encode() in refused.stderr
    broken = _manage(env, "campaign_import", "-", "--create-users", stdin=b'{"format": 1')
    assert broken.returncode != 0 and b"the file is cut short" in broken.stderr
    # A backup restored as it was: its members members again, with their forces.
    ran = _manage(env, "campaign_import", str(first), "--create-users", "--keep-members")
    assert ran.returncode == 0, ran.stderr.decode()
    assert "Members as in the file: p as a player." in ran.stderr.decode()
    new_pk = ran.stdout.decode().strip()
    second = tmp_path / "second.json"
    ran = _manage(env, "campaign_export", new_pk, "-o", str(second))
    assert ran.returncode == 0, ran.stderr.decode()
    assert second.read_bytes() == first.read_bytes()
    # By default, as on the import page: the members are invited, and told apart by name.
    ran = _manage(env, "campaign_import", str(first))
    assert ran.returncode == 0, ran.stderr.decode()
    told = ran.stderr.decode()
    assert "Imported Op. Backup (imported " in told
    assert "Its name tells it apart from Op. Backup, which gm has already." in told
    assert "Each is invited in their role in the file: p as a player." in told
    assert "Until p accepts, gm holds their force Lantern Company." in told
    exported = json.loads(first.read_text())
    assert [e["name"] for e in exported["engagements"]] == ["Mill ford"]
    assert "requisition" in [roll["kind"] for roll in exported["table_rolls"]]


@pytest.fixture
def cast_of_two(django_user_model):
    return django_user_model.objects.create_user("gm"), django_user_model.objects.create_user("p")


def test_a_rosters_csv_gives_the_printed_card_and_the_engines_skill_where_it_differs(client, world):
    """The CSV's "battle card" is the card the unit's page and printable card print; where a
    battle fought by the engine gives it another Skill, its own columns say so."""
    from campaign.services import unit_create

    unit_create(force=world.force, unit_type=world.unit.unit_type, name="Pickets",
                quality="average", specialties=["infantry"])  # fmt: skip
    url = reverse("campaign:force-csv", args=[world.campaign.pk, world.force.pk])
    response = login(client, world, "player").get(url)
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    pickets = next(row for row in rows if row["name"] == "Pickets")
    assert "Skill 2 · Move 5" in pickets["battle card"]
    assert pickets["engine skill"] == "3"
    assert pickets["engine card changes"] == "Skill 3, not 2"


def test_the_downloads_are_files_named_for_the_campaign_and_its_day_or_the_force(client, world):
    """The export downloads as a JSON file named for the campaign and its day, and a force's
    roster as a CSV file named for the force; a name that leaves nothing for a file name
    (only signs) is named "campaign" or "force"."""
    login(client, world, "gm")
    Campaign.objects.filter(pk=world.campaign.pk).update(day=4)
    export = reverse("campaign:export", args=[world.campaign.pk])
    roster = reverse("campaign:force-csv", args=[world.campaign.pk, world.force.pk])
    response = client.get(export)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        'attachment; filename="op-pages-day-4.bridgehead-campaign.json"'
    )
    assert client.get(roster)["Content-Disposition"] == 'attachment; filename="red-company.csv"'
    Campaign.objects.filter(pk=world.campaign.pk).update(name="!!!")
    Force.objects.filter(pk=world.force.pk).update(name="???")
    assert client.get(export)["Content-Disposition"] == (
        'attachment; filename="campaign-day-4.bridgehead-campaign.json"'
    )
    assert client.get(roster)["Content-Disposition"] == 'attachment; filename="force.csv"'


def test_an_import_with_many_problems_lists_the_first_fifty_and_counts_the_rest(client, world):
    """A file this broken is best mended from its first problems: the page lists 50, in the
    file's order, and says how many more there are."""
    login(client, world, "gm")
    data = json.loads(_download(client, world))
    units = data["forces"][0]["units"]
    for unit in units:
        unit["quality"] = "veteran"
    history = units[0]["history"]
    history += [{**history[-1], "kind": "rumour"} for _ in range(60)]
    body = _upload(client, json.dumps(data).encode()).content.decode()
    problems = body.split('id="import-problems"', 1)[1].split("</div>", 1)[0]
    listed = re.findall(r"<li>(.*?)</li>", problems)
    assert len(listed) == 50
    assert listed[0].startswith("<code>forces[0].units[0].quality</code>")
    more = len(units) + 60 - 50
    assert f"<p>…and {more} more.</p>" in problems


def test_the_import_page_says_how_large_a_file_it_takes_before_one_is_sent(client, world):
    """A long campaign's file is large: the page says its limit before the upload, as the
    refusal of a larger one does after it, and again beside a refused file's problems."""
    login(client, world, "gm")
    said = "this page takes files of up to 20 MB."
    assert said in client.get(reverse("campaign:import")).content.decode()
    assert said in _upload(client, b"").content.decode()


def test_an_import_sent_twice_from_one_page_makes_one_campaign(client, world):
    """A double click, or the page sent again: the same page's import is made once, and the
    second press is led to the campaign the first made."""
    import uuid

    login(client, world, "gm")
    content = _download(client, world)
    key = str(uuid.uuid4())
    pressed = []
    for _ in range(2):
        upload = SimpleUploadedFile("export.json", content, content_type="application/json")
        sent = {"file": upload, "request_key": key}
        pressed.append(client.post(reverse("campaign:import"), sent))
    copy = Campaign.objects.exclude(pk=world.campaign.pk).get()
    dashboard = reverse("campaign:dashboard", args=[copy.pk])
    assert [(r.status_code, r["Location"]) for r in pressed] == [(302, dashboard)] * 2
