"""A roll's working reads as the quality table's column, each value signed with a real minus;
a unit ticked as helping its own check is told so."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import TableRoll
from campaign.services import unit_create
from campaign.services.leaders import leader_attach
from campaign.templatetags.working import modifier, signed
from tests.web.campaign_world import login
from units.bucs import Equipment

pytestmark = pytest.mark.django_db


def test_a_modifier_reads_as_the_tables_column():
    assert modifier(["quality: Raw, assisting its leader", -2]) == (
        "Raw quality, assisting its leader: \u22122"
    )
    assert modifier(["equipment: Good", 2]) == "Good equipment: +2"
    # Every rating by the equipment table's own names, two words as well as one.
    assert modifier(["equipment: Barely Adequate", -2]) == "Barely Adequate equipment: \u22122"
    for rating in Equipment:
        assert modifier([f"equipment: {rating.label}", 0]) == f"{rating.label} equipment: 0"
    assert modifier(["quality: Raw without Orders cannot act alone", -6]) == (
        "Raw quality, without Orders (it cannot act alone): \u22126"
    )
    assert modifier(["Dug In", 2]) == "Dug In: +2"
    assert [signed(v) for v in (3, 0, -4)] == ["+3", "0", "\u22124"]
    # The total too: "= −1", never "= -1".
    from django.template.loader import render_to_string

    working = {"name": "Sappers", "d20": 5, "total": -1,
               "modifiers": [["equipment: Barely Adequate", -2]]}  # fmt: skip
    html = render_to_string("campaign/_roll_working.html", {"w": working})
    assert "Sappers: d20 5; Barely Adequate equipment: \u22122 = \u22121</span>" in html


def test_the_checks_page_shows_the_working_in_words(client, world):
    card = world.unit.unit_type
    raw = unit_create(force=world.force, unit_type=card, name="Recruits", quality="raw")
    leader_attach(unit=raw, name="Sgt. Vale", hit_points=9, actor=world.users["gm"])
    login(client, world, "gm")
    url = reverse("campaign:skill-check", args=[world.campaign.pk])
    response = client.post(url, {"lead": raw.pk, "dc": "10", "seed": "7"}, follow=True)
    assert response.status_code == 200
    print(re.findall(r"roll-working.*?</span>|notice[^>]*>[^<]*", response.text))
    # The leader is named, as an engagement's rolls name it.
    assert (
        "Raw quality, assisting its leader (Sgt. Vale): \u22122; Adequate equipment: 0 ="
        in response.text
    )
    assert "quality: Raw" not in response.text


def test_a_unit_ticked_as_helping_its_own_check_is_told_so(client, world):
    card = world.unit.unit_type
    squad = unit_create(force=world.force, unit_type=card, name="Squad Nine",
                        specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    url = reverse("campaign:skill-check", args=[world.campaign.pk])
    response = client.post(url, {"lead": squad.pk, "helpers": [squad.pk], "dc": "10"})
    assert response.status_code == 400
    error = re.search(r'id="id_[a-z_]+_helpers_error">([^<]*)<', response.text)[1]
    assert error == "Squad Nine makes the check itself, so it cannot also help it: untick it here."
    assert not TableRoll.objects.filter(campaign=world.campaign).exists()  # nothing written


def test_a_kept_roll_summary_reads_with_a_real_minus_wherever_it_is_shown(client, world):
    card = world.unit.unit_type
    raw = unit_create(force=world.force, unit_type=card, name="Recruits", quality="raw")
    leader_attach(unit=raw, name="Sgt. Vale", hit_points=9, actor=world.users["gm"])
    login(client, world, "gm")
    c = world.campaign.pk
    url = reverse("campaign:skill-check", args=[c])
    # Seed 31 rolls a 1: d20 1, Raw assisting its leader −2, a total of −1.
    done = client.post(url, {"lead": raw.pk, "dc": "10", "seed": "31"}, follow=True)
    roll = TableRoll.objects.get(campaign=world.campaign, seed=31)
    assert roll.result["total"] == -1
    assert "-1 against DC 10" in roll.summary  # kept as it was written: nothing is rewritten
    said = "Recruits: a general skill check, \u22121 against DC 10: fails"
    pages = {
        "notice": done.text,
        "checks": client.get(reverse("campaign:checks", args=[c])).text,
        "unit": client.get(reverse("campaign:unit", args=[c, raw.pk])).text,
    }
    for name, page in pages.items():
        assert said in page, name
        assert "-1 against" not in page, name
    # A contest's totals, kept the same way, read the same way.
    TableRoll.objects.create(
        campaign=world.campaign, kind=TableRoll.Kind.CONTEST, day=1, hour=0, seed=5, setup={},
        result={}, summary="Recruits (-3) against Iron Wolf (12): Iron Wolf wins",
    )  # fmt: skip
    checks = client.get(reverse("campaign:checks", args=[c])).text
    assert "Recruits (\u22123) against Iron Wolf (12): Iron Wolf wins" in checks


def test_a_check_done_is_said_as_a_sentence_ending_in_a_full_stop(client, world):
    # The notice stopped short: "Done: Recruits: a general skill check, −1 against DC 10: fails".
    raw = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Recruits",
                      quality="raw")  # fmt: skip
    leader_attach(unit=raw, name="Sgt. Vale", hit_points=9, actor=world.users["gm"])
    login(client, world, "gm")
    url = reverse("campaign:skill-check", args=[world.campaign.pk])
    data = {"lead": raw.pk, "dc": "10", "seed": "31", "reason": "crossing the ford"}
    done = client.post(url, data, follow=True)
    said = [str(m) for m in done.context["messages"]]
    assert said == [
        "Recruits: a general skill check, \u22121 against DC 10: fails (crossing the ford)."
    ]
