"""Every campaign URL through the test client: random, garbage and mutated form values, posted
as the GM and as a player (an invitation's link also logged out), with and without htmx. No
500, and a refused POST writes nothing."""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
from django import forms
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.selectors import reference_scenarios
from campaign import forms as campaign_forms
from campaign import urls as campaign_urls
from campaign.battle_forms import BattleSetupForm, TableResultForm
from campaign.models import HistoryEntry, Unit
from campaign.services import invitation_send
from campaign.services.characters import character_create
from campaign.services.orders import LISTED_HOURS_MAX, order_give
from campaign.table_forms.characters import (
    CharacterForm,
    HealForm,
    JoinForm,
    RallyForm,
    TrainByForm,
    UnitTrainForm,
)
from campaign.table_forms.checks import ContestForm, SkillCheckForm
from campaign.table_forms.engagements import EngagementForm, QuickResolveForm, RevertEngagementForm
from campaign.table_forms.orders import CallOffForm, ClockForm, OrderForm
from campaign.table_forms.requisition import RequisitionForm
from tests.fuzz.conftest import FUZZ
from tests.fuzz.inputs import GARBAGE, JSON, base_value, form_data, near_valid
from tests.web.campaign_world import World, login

pytestmark = pytest.mark.django_db

CROSSROADS = json.loads(
    (Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json").read_text()
)
NAMES = [p.name for p in campaign_urls.urlpatterns]
TABLE_FORMS = {
    "character-create": CharacterForm,
    "character-join": JoinForm,
    "character-train": TrainByForm,
    "unit-train": UnitTrainForm,
    "character-rally": RallyForm,
    "character-heal": HealForm,
    "order-give": OrderForm,
    "order-call-off": CallOffForm,
    "clock-advance": ClockForm,
    "engagement-setup": EngagementForm,
    "engagement-revert": RevertEngagementForm,
    "skill-check": SkillCheckForm,
    "contest": ContestForm,
    "requisition": RequisitionForm,
}


def _ready(world: World) -> list[Unit]:
    return list(Unit.objects.filter(force__campaign=world.campaign, status="ready").order_by("pk"))


def _form_for(name: str, world: World) -> tuple[forms.Form, dict[str, Any], dict[str, list]]:
    """The form the view at ``name`` reads (an empty one if it reads none), a POST it would
    accept, and extra keys the view reads beside the form."""
    campaign = world.campaign
    units = _ready(world)
    extra: dict[str, list] = {}
    overrides: dict[str, Any] = {}
    simple = {
        "create": campaign_forms.CampaignForm,
        "invite": campaign_forms.InvitationForm,
        "advance": campaign_forms.AdvanceForm,
        "medical": campaign_forms.MedicalForm,
        "battle-revert": campaign_forms.RevertForm,
        "map-add": campaign_forms.SavedMapForm,
    }
    if name in simple:
        form = simple[name]()
    elif name == "settings":
        form = campaign_forms.SettingsForm.for_campaign(campaign)
    elif name == "force-create":
        form = campaign_forms.ForceForm(campaign=campaign)
    elif name == "join":
        form = campaign_forms.NewAccountForm()
        password = "river-crossing-42"
        overrides = {"username": "newcomer", "email": "", "password": password,
                     "password_again": password}  # fmt: skip
    elif name == "member-set":
        form = campaign_forms.MemberForm(campaign=campaign)
        overrides = {"username": "player"}
    elif name == "unit-edit":
        form = campaign_forms.UnitEditForm(
            initial=campaign_forms.UnitEditForm.initial_for(world.unit)
        )
    elif name == "quick-resolve":
        form = QuickResolveForm(campaign=campaign)
        attackers = [u for u in units if u.force_id == world.force.pk] or [world.unit]
        defenders = [u for u in units if u.force_id == world.enemy.pk] or [world.enemy_unit]
        overrides = {"attacker": str(attackers[0].pk), "defender": str(defenders[0].pk)}
    elif name in TABLE_FORMS:
        if not campaign.characters.exists():  # the forms choose among the campaign's characters
            character_create(campaign=campaign, name="Sgt. Fuzz", hit_points=10,
                             feats=["special_forces", "strategist"])  # fmt: skip
        form_class = TABLE_FORMS[name]
        plain = form_class in (ClockForm,
                               RevertEngagementForm)  # fmt: skip
        form = form_class() if plain else form_class(campaign=campaign)
        if name == "engagement-setup":
            overrides = {f"side_{world.unit.pk}": "attackers",
                         f"side_{world.enemy_unit.pk}": "defenders"}  # fmt: skip
        if name == "order-call-off" and not campaign.orders.exists():
            # An Order under way to call off (the form chooses among the campaign's Orders).
            order_give(giver=campaign.characters.first(), unit=units[0], kind="use_skill",
                       listed_hours=LISTED_HOURS_MAX)  # fmt: skip
    elif name == "unit-add":
        form = campaign_forms.UnitAddForm(campaign=campaign)
    elif name == "battle-setup":
        form = BattleSetupForm(units=units, scenario=CROSSROADS)
        extra = {"scenario": [s.slug for s in reference_scenarios()]}
        overrides = {"scenario": "crossroads"}
    elif name == "battle-record":
        form = TableResultForm(units=units, day=campaign.day)
        overrides = {"winner": "a"}
        overrides.update(
            {f"side_{u.pk}": "a" if u.force_id == world.force.pk else "b" for u in units}
        )
    else:
        form = forms.Form()
        extra = {"reason": ["because"], "name": ["Fuzz"]}
    base = {field: base_value(form, field) for field in form.fields}
    base.update(
        {
            "invitee": "outsider",
            "owner": "player",
            "reason": "fuzzing",
        }
    )
    base = {k: v for k, v in base.items() if k in form.fields or k in extra}
    base.update(overrides)
    return form, base, extra


def _mostly(real: st.SearchStrategy, rare: st.SearchStrategy) -> st.SearchStrategy:
    """``real`` seven times in eight, else ``rare``."""
    return st.integers(0, 7).flatmap(lambda i: rare if i == 0 else real)


def _arguments(world: World) -> dict[str, st.SearchStrategy[int]]:
    """Each URL argument: mostly the world's own objects (either side's), sometimes a guess."""
    guess = st.integers(0, 10**6)
    units = list(
        Unit.objects.filter(force__campaign=world.campaign)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    entries = list(
        HistoryEntry.objects.filter(unit__force__campaign=world.campaign)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return {
        "pk": _mostly(st.just(world.campaign.pk), guess),
        "force_pk": _mostly(st.sampled_from([world.force.pk, world.enemy.pk]), guess),
        "unit_pk": _mostly(st.sampled_from(units), guess),
        "battle_pk": _mostly(
            st.sampled_from([world.table_battle.pk, world.engine_battle.pk]), guess
        ),
        "entry_pk": _mostly(st.sampled_from(entries), guess) if entries else guess,
        "engagement_pk": guess,
        "run_pk": guess,
        "map_pk": guess,
        "note_pk": guess,
        "invitation_pk": guess,
        "link_key": _mostly(st.sampled_from(_link_keys(world)), st.text(URL_SAFE, min_size=1)),
    }


URL_SAFE = string.ascii_letters + string.digits + "-_"


def _link_keys(world: World) -> list[str]:
    """The link keys of invitations waiting in the world's campaign (one made if none waits)."""
    if not world.campaign.invitations.exists():
        invitation_send(campaign=world.campaign, invitee="newcomer", role="player")
    return list(world.campaign.invitations.values_list("link_key", flat=True))


def _url(data, world: World, name: str) -> str:
    pattern = next(p for p in campaign_urls.urlpatterns if p.name == name)
    needed = set(pattern.pattern.converters)
    strategies = _arguments(world)
    kwargs = {arg: data.draw(strategies[arg], label=arg) for arg in sorted(needed)}
    return reverse(f"campaign:{name}", kwargs=kwargs)


def _is_success(response) -> bool:
    """A POST that was carried out redirects (plainly, or by htmx's HX-Redirect)."""
    if "HX-Redirect" in response:
        return True
    return response.status_code == 302 and "/accounts/login/" not in response["Location"]


# Pages that only answer GET (a POST gets 405); every other campaign URL takes a POST.
GET_ONLY = {
    "list",
    "dashboard",
    "force",
    "unit",
    "unit-card",
    "battle",
    "battle-progress",
    "battle-log",
    "campaign-json",
    "battles-json",
    "force-json",
    "unit-json",
    "characters",
    "orders",
    "engagement",
    "checks",
    "export",
    "force-csv",
    "battle-odds",
}
POST_NAMES = [name for name in NAMES if name not in GET_ONLY]


POST_HALVES = (POST_NAMES[0::2], POST_NAMES[1::2])
"""The actions in two halves, fuzzed as two tests so that two test processes share the work."""


@pytest.mark.parametrize("half", [0, 1])
@settings(FUZZ, max_examples=30 * len(POST_HALVES[0]))
@given(data=st.data())
def test_post_garbage_to_every_campaign_action(probe, client, world, data, half):
    name = data.draw(st.sampled_from(POST_HALVES[half]), label="name")
    # An invitation's link is for someone with no account: it is fuzzed logged out too.
    roles = ["gm", "player", "anonymous"] if name == "join" else ["gm", "gm", "player"]
    role = data.draw(st.sampled_from(roles), label="role")
    htmx = data.draw(st.booleans(), label="htmx")
    form, base, extra = _form_for(name, world)
    post = data.draw(_mostly(near_valid(form, base), form_data(form, extra)), label="post")
    url = _url(data, world, name)
    login(client, world, role)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    p = probe(f"POST campaign:{name}")

    def run() -> bool:
        response = client.post(url, post, **headers)
        assert response.status_code < 500, response.status_code
        return _is_success(response)

    p.attempt(run, (role, htmx, url, post))
    p.check()


def test_every_campaign_url_is_fuzzed_with_its_own_form(world):
    """A POST view added later gets at least the generic fuzz; this lists what has its form."""
    assert set(POST_NAMES) >= {"advance", "unit-edit", "battle-setup", "battle-record"}


@FUZZ
@given(
    data=st.data(),
    query=st.dictionaries(
        st.sampled_from(["scenario", "unit", "kind", "as", "sort", "page", "x"]),
        GARBAGE | JSON.map(json.dumps),
        max_size=3,
    ),
)
def test_get_every_campaign_url_with_garbage_query_strings(probe, client, world, data, query):
    role = data.draw(st.sampled_from(["gm", "player", "rival", "spectator"]), label="role")
    name = data.draw(st.sampled_from(NAMES), label="name")
    htmx = data.draw(st.booleans(), label="htmx")
    url = _url(data, world, name)
    login(client, world, role)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    p = probe("GET campaign URLs, garbage query strings")

    def run() -> bool:
        response = client.get(url, query, **headers)
        assert response.status_code < 500, response.status_code
        return False  # a GET never writes

    p.attempt(run, (role, htmx, url, query))
    p.check()
