"""The Checks and Requisition page as a GM uses it at the table: who cannot make a check alone
is said before the roll, a refusal keeps the page at its address, and a Requisition refused
keeps what was asked."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import TableRoll, Unit
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TABLE_FORMS = {
    "checks": ("skill-form", "contest-form", "requisition-form"),
    "characters": ("character-form", "join-form", "train-form", "heal-form", "rally-form"),
    "orders": ("order-form", "clock-form"),
}


def _form(page: str, form_id: str) -> str:
    return page.split(f'id="{form_id}"')[1].split("</form>")[0]


def test_every_table_form_is_sent_by_htmx_so_a_refusal_stays_at_the_pages_address(client, world):
    """A refused check drawn whole at /checks/contest/ left the GM at that address, where a
    reload asks to send the form again: each table form is sent as the site's other forms are
    (htmx), and a refusal comes back as the form alone, swapped in place on the page."""
    login(client, world, "gm")
    c = world.campaign.pk
    for page, forms in TABLE_FORMS.items():
        html = client.get(reverse(f"campaign:{page}", args=[c])).text
        for form_id in forms:
            tag = re.search(rf'<form id="{form_id}"[^>]*>', html).group(0)
            action = re.search(r' action="([^"]+)"', tag).group(1)
            assert f'hx-post="{action}"' in tag, form_id
            assert 'hx-target="this"' in tag and 'hx-swap="outerHTML"' in tag, form_id
    unit = world.enemy_unit
    refused = client.post(
        reverse("campaign:contest", args=[c]),
        {"active": unit.pk, "resisting": unit.pk, "seed": ""},
        **HTMX,
    )
    assert refused.status_code == 200
    assert refused.text.lstrip().startswith('<form id="contest-form"')
    assert f"{unit.name} is on both sides" in refused.text
    assert not TableRoll.objects.exists()


def _requisition(world) -> dict[str, object]:
    from campaign.services.characters import character_create

    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            actor=world.users["gm"])  # fmt: skip
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    return {"force": world.force.pk, "unit_type": card.pk, "name": "Heroes",
            "quality": "experienced", "equipment": "good", "specialties": ["infantry", "medical"],
            "character": holt.pk, "bonus": "-40", "seed": "1"}  # fmt: skip


def _filled(form: str) -> dict[str, object]:
    """What a Requisition form holds: each field's value, the boxes ticked."""

    def chosen(name):
        select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', form, re.S).group(1)
        found = re.search(r'<option value="([^"]*)"[^>]*selected', select)
        return found and found.group(1)

    def typed(name):
        found = re.search(rf'<input type="[a-z]+" name="{name}" (?:value="([^"]*)")?', form)
        return found and found.group(1)

    ticked = re.findall(r'name="specialties" value="(\w+)"[^>]*checked', form)
    return {"force": chosen("force"), "unit_type": chosen("unit_type"), "name": typed("name"),
            "quality": chosen("quality"), "equipment": chosen("equipment"),
            "specialties": ticked, "character": chosen("character"), "bonus": typed("bonus"),
            "seed": typed("seed")}  # fmt: skip


def test_a_requisition_refused_keeps_what_was_asked(client, world):
    """A GM re-entered nine fields after a refused Requisition. Refused for bad input, the form
    comes back as it was sent, the fault beside its field; rolled and failed, the page goes back
    to the form filled with what was asked (a new seed only: the old one would roll the same
    die) and says so, and that a lower quality or poorer kit lowers the DC."""
    ask = _requisition(world)
    login(client, world, "gm")
    url = reverse("campaign:requisition", args=[world.campaign.pk])
    wanted = {k: str(v) if not isinstance(v, list) else v for k, v in ask.items()}
    bad = client.post(url, {**ask, "name": ""})
    assert bad.status_code == 400 and not TableRoll.objects.exists()
    assert _filled(_form(bad.text, "requisition-form")) == {**wanted, "name": None}
    page = client.post(url, ask, follow=True)
    roll = TableRoll.objects.get()
    assert not roll.result["success"]
    assert page.redirect_chain[-1][0].endswith(f"/checks/?again={roll.pk}#requisition-form")
    assert _filled(_form(page.text, "requisition-form")) == {**wanted, "seed": None}
    assert "The form keeps what was asked: roll again, or ask for less" in page.text
    # The kept asking is the GM's, for that campaign's refused roll only: anything else, and
    # the form is empty as ever.
    for again in (str(roll.pk + 1), "x", ""):
        html = client.get(reverse("campaign:checks", args=[world.campaign.pk]), {"again": again})
        assert _filled(_form(html.text, "requisition-form"))["name"] is None, again


def _alone(page: str, form_id: str) -> list[str]:
    """The lines under a check's form naming the units it offers that cannot check alone."""
    found = re.search(rf'id="{form_id}-alone"><p>[^<]*</p><ul>(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def test_the_check_forms_say_before_the_roll_which_units_cannot_check_alone(client, world):
    """A GM chose Scout Car, Green with no Order, and learnt only on Roll that it cannot act
    alone. Under the skill check and the contest the page says which ready units cannot check
    on their own and why — Green or Raw with no Order, or (any unit with no Order) outside its
    specialties — by the rule's own test; a unit led or under an Order is not named. With more
    than 20 ready units, typed by name, it says the same."""
    from campaign.services import leader_attach, unit_create
    from campaign.services.checks import skill_check_run
    from tests.web.campaign_world import raise_units
    from tests.web.test_table_pages import _table_units

    gm = world.users["gm"]
    _, _, wolf = _table_units(world)
    card = wolf.unit_type
    scout = unit_create(force=world.enemy, unit_type=card, name="Scout Car", quality="green",
                        specialties=["mechanized"])  # fmt: skip
    led = unit_create(force=world.force, unit_type=card, name="Led", quality="green")
    leader_attach(unit=led, name="Sgt. Vance", hit_points=10, actor=gm)
    login(client, world, "gm")
    url = reverse("campaign:checks", args=[world.campaign.pk])
    green = (
        "Green with no Order, so they cannot act alone and make no check until given one: "
        f"Scout Car ({world.enemy.name})."
    )
    outside = (
        "With no Order, outside their specialties they perform as Raw and make no check (a "
        f"general skill or one of their own specialties they may): Iron Wolf ({world.enemy.name})."
    )
    html = client.get(url).text
    for form in ("skill-form", "contest-form"):
        assert sorted(_alone(html, form)) == sorted([green, outside]), form
    assert "-alone" not in _form(html, "requisition-form")
    # The roll refuses what the page said, in the rule's words.
    with pytest.raises(Exception, match="Scout Car is Green: it cannot act alone"):
        skill_check_run(campaign=world.campaign, units=[scout], dc=10, actor=gm)
    # A big campaign's check asks its units by name: the page says the same under its forms.
    raise_units(world.force, card, 20, "Line")
    html = client.get(url).text
    assert 'name="lead" ' in html and '<select name="lead"' not in html
    lines = _alone(html, "skill-form")
    assert green in lines and len(lines) == 2
    assert lines[1 - lines.index(green)].endswith(
        f"21 units (1 of {world.enemy.name} and 20 of {world.force.name})."
    )
