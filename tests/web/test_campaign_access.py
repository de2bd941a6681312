"""Every campaign URL — pages, htmx partials, JSON, POST actions — as every role.

Anonymous users are sent to log in; outsiders get 404 for everything in the campaign (they
cannot learn it exists); members read; only the GM and co-GMs act (403 for the rest); a force's
owner directs its medics, and a player gives their own units Orders; only the GM, not a co-GM,
deletes the campaign; a unit of a force shown only in summary is a 404 to other players and
spectators. The walk runs under both settings of ``other_forces_visible``.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.urls import resolve, reverse

from campaign import urls as campaign_urls
from campaign.models import Campaign
from campaign.services import unit_create
from campaign.services.engagements import engagement_run
from campaign.services.maps import saved_map_create
from tests.web.campaign_world import CROSSROADS, ROLES, World, login
from units.models import UnitType

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
MANAGERS = {"gm", "co_gm"}
MEMBERS = {"player", "rival", "spectator", *MANAGERS}


@dataclass(frozen=True)
class Route:
    """One URL to knock on, and what a member who may use it gets back."""

    label: str
    url: Callable[[World], str]
    method: str = "get"
    data: dict[str, Any] | None = None
    headers: dict[str, str] | None = None
    ok: int = 200
    """The answer for someone allowed (a POST here carries bad input: 400, or 200 under htmx)."""
    manage: bool = False
    """Only the GM and co-GMs."""
    gm_only: bool = False
    """Only the campaign's own GM, not a co-GM: deleting it, handing it on."""
    owner_of: str | None = None
    """``force`` or ``enemy``: the owner of that force may use it too (the medics)."""
    players: bool = False
    """A player with a force of their own may use it too (their own units' Orders)."""
    unit_of: str | None = None
    """``force`` or ``enemy``: a unit page of that force (hidden when shown in summary)."""
    anyone: bool = False
    """Not inside a campaign: open to every logged-in user."""
    public: bool = False
    """Open to everyone, logged in or not: an invitation's link, made to be opened by someone
    with no account yet."""
    says_summary: bool = False
    """The unit's own page: a member who sees its force in summary is told so (403), where every
    other page of the unit does not exist for them (404)."""
    fought_in: bool = False
    """Only for whoever fought in the engine battle or sees every force of it in full (its log's
    download and its card sheet: anyone else reads its outcome only)."""


def _c(name: str, *args: Callable[[World], Any]) -> Callable[[World], str]:
    return lambda w: reverse(f"campaign:{name}", args=[w.campaign.pk, *(a(w) for a in args)])


FORCE = lambda w: w.force.pk  # noqa: E731
ENEMY = lambda w: w.enemy.pk  # noqa: E731
UNIT = lambda w: w.unit.pk  # noqa: E731
ENEMY_UNIT = lambda w: w.enemy_unit.pk  # noqa: E731
LATEST = lambda w: w.unit.history.order_by("pk").last().pk  # noqa: E731
TABLE = lambda w: w.table_battle.pk  # noqa: E731
ENGINE = lambda w: w.engine_battle.pk  # noqa: E731


def ENGAGEMENT(w: World) -> int:
    """An engagement of the world's campaign, fought on first use by two fresh squads."""
    if not hasattr(w, "engagement"):
        card = UnitType.objects.get(name="Rifle Squad")
        red, blue = (
            unit_create(force=f, unit_type=card, name=f"Walk {f.pk}", specialties=["infantry"])
            for f in (w.force, w.enemy)
        )
        sides = {"attackers": [red], "defenders": [blue]}
        w.engagement = engagement_run(campaign=w.campaign, sides=sides, seed=1)
    return w.engagement.pk


def SAVED_MAP(w: World) -> int:
    """A saved map of the world's campaign (the Crossroads table), kept on first use."""
    if not hasattr(w, "saved_map"):
        w.saved_map = saved_map_create(
            campaign=w.campaign, name="Walk map", text=CROSSROADS.read_text()
        )
    return w.saved_map.pk


def AMBUSH(w: World) -> int:
    """The table's second engagement (`table_world`), or where there is none the first."""
    return w.ambush.pk if hasattr(w, "ambush") else ENGAGEMENT(w)


ROUTES = [
    Route("my campaigns", lambda w: reverse("campaign:list"), anyone=True),
    Route("rules card", lambda w: reverse("campaign:rules-card"), anyone=True),
    Route("start a campaign", lambda w: reverse("campaign:create"), "post", {}, ok=400,
          anyone=True),
    Route("change a member's role", _c("member-set"), "post", {"username": "nobody"}, ok=400,
          manage=True),
    Route("invite", _c("invite"), "post", {}, ok=400, manage=True),
    Route("withdraw an invitation", _c("invitation-withdraw", lambda w: 999_999), "post", ok=404,
          manage=True),
    Route("accept an invitation", lambda w: reverse("campaign:invitation-accept", args=[999_999]),
          "post", ok=404, anyone=True),
    Route("decline an invitation",
          lambda w: reverse("campaign:invitation-decline", args=[999_999]), "post", ok=404,
          anyone=True),
    Route("join by a made-up link", lambda w: reverse("campaign:join", args=["made-up"]), ok=404,
          public=True),
    Route("join by a made-up link (post)", lambda w: reverse("campaign:join", args=["made-up"]),
          "post", ok=404, public=True),
    Route("email notices (no email address)", _c("notices"), "post", {"email_notices": "on"},
          ok=400),
    Route("raise a force", _c("force-create"), "post", {}, ok=400, manage=True),
    Route("settings", _c("settings"), "post", {"apply_mode": "never"}, ok=400, manage=True),
    Route("settings (htmx)", _c("settings"), "post", {}, HTMX, manage=True),
    Route("remove a member", _c("member-remove"), "post", {"username": "nobody"}, ok=400,
          manage=True),
    Route("leave, damaged", _c("leave"), "post", {"request_key": "damaged"}, ok=400),
    Route("force edit", _c("force-edit", FORCE), "post", {"name": ""}, ok=400, manage=True),
    Route("enemy force edit", _c("force-edit", ENEMY), "post", {"name": ""}, ok=400,
          manage=True),
    Route("delete review", _c("delete"), gm_only=True),
    Route("delete, misnamed", _c("delete"), "post", {"name": "Another"}, ok=400, gm_only=True),
    Route("hand over review", _c("hand-over"), gm_only=True),
    Route("hand over, to no one", _c("hand-over"), "post", {"stay_as": "co_gm"}, ok=400,
          gm_only=True),
    Route("dashboard", _c("dashboard")),
    Route("timeline", _c("timeline")),
    Route("write a note, empty", _c("story-note"), "post", {"text": ""}, ok=400, manage=True),
    Route("write a note (htmx)", _c("story-note"), "post", {}, HTMX, manage=True),
    # A note taken out already (none has this id): the timeline, saying so.
    Route("remove a note", _c("story-note-remove", lambda w: 999999), "post", ok=302,
          manage=True),
    Route("own force", _c("force", FORCE)),
    Route("enemy force", _c("force", ENEMY)),
    Route("own force's cards", _c("force-cards", FORCE), unit_of="force"),
    Route("enemy force's cards", _c("force-cards", ENEMY), unit_of="enemy"),
    Route("battle's cards", _c("battle-cards", ENGINE), fought_in=True),
    Route("roster sorted (htmx)", lambda w: _c("force", FORCE)(w) + "?sort=-quality", headers=HTMX),
    Route("campaign json", _c("campaign-json")),
    Route("battles json", _c("battles-json")),
    Route("force json", _c("force-json", FORCE)),
    Route("enemy force json", _c("force-json", ENEMY)),
    Route("table battle", _c("battle", TABLE)),
    Route("engine battle", _c("battle", ENGINE)),
    Route("engine battle log filter (htmx)", lambda w: _c("battle", ENGINE)(w) + "?kind=attack",
          headers=HTMX),
    Route("battle progress (htmx)", _c("battle-progress", ENGINE), headers=HTMX, ok=286),
    Route("battle log json", _c("battle-log", ENGINE), fought_in=True),
    Route("unit", _c("unit", UNIT), unit_of="force", says_summary=True),
    Route("unit card", _c("unit-card", UNIT), unit_of="force"),
    Route("unit json", _c("unit-json", UNIT), unit_of="force"),
    Route("enemy unit", _c("unit", ENEMY_UNIT), unit_of="enemy", says_summary=True),
    Route("enemy unit card", _c("unit-card", ENEMY_UNIT), unit_of="enemy"),
    Route("enemy unit json", _c("unit-json", ENEMY_UNIT), unit_of="enemy"),
    Route("battle set-up", _c("battle-setup"), manage=True),
    Route("battle set-up scenario (htmx)", lambda w: _c("battle-setup")(w) + "?scenario=landing",
          headers=HTMX, manage=True),
    Route("table result form", _c("battle-record"), manage=True),
    Route("save a map", _c("map-add"), "post", {"name": ""}, ok=400, manage=True),
    Route("map editor on a saved map", _c("map-edit", SAVED_MAP), manage=True),
    Route("edit a saved map, nameless", _c("map-edit", SAVED_MAP), "post", {"name": ""}, ok=400,
          manage=True),
    # A map removed already (none has this id): the set-up page, saying so.
    Route("remove a saved map", _c("map-remove", lambda w: 999999), "post", ok=302, manage=True),
    Route("advance", _c("advance"), "post", {"days": "0"}, ok=400, manage=True),
    Route("advance review", lambda w: _c("advance")(w) + "?days=1", manage=True),
    Route("advance summary",
          lambda w: _c("advance-summary")(w) + "?days=1&to=2&start=0&after=0&upto=0", manage=True),
    Route("apply review", _c("battle-apply", TABLE), manage=True),
    Route("revert review", _c("battle-revert", ENGINE), manage=True),
    Route("advance (htmx)", _c("advance"), "post", {"days": "x"}, HTMX, manage=True),
    Route("quick resolve", _c("quick-resolve"), "post", {}, ok=400, manage=True),
    Route("unit add", _c("unit-add", FORCE), "post", {"name": ""}, ok=400, manage=True),
    Route("unit edit", _c("unit-edit", UNIT), "post", {}, ok=400, manage=True, unit_of="force"),
    Route("unit moved", _c("unit-move", UNIT), "post", {}, ok=400, manage=True, unit_of="force"),
    Route("undo review", _c("unit-undo", UNIT, LATEST), manage=True, unit_of="force"),
    Route("undo", _c("unit-undo", UNIT, LATEST), "post", {}, ok=400, manage=True,
          unit_of="force"),
    Route("unit struck off, damaged", _c("unit-remove", UNIT), "post",
          {"request_key": "damaged"}, ok=400, manage=True, unit_of="force"),
    Route("enemy unit edit", _c("unit-edit", ENEMY_UNIT), "post", {}, ok=400, manage=True,
          unit_of="enemy"),
    Route("unit train", _c("unit-train", UNIT), "post", {}, ok=400, manage=True,
          unit_of="force"),
    Route("withdraw or send a unit", _c("unit-zone", UNIT), "post", {}, ok=400, manage=True,
          owner_of="force", unit_of="force"),
    Route("withdraw or send an enemy unit", _c("unit-zone", ENEMY_UNIT), "post", {}, ok=400,
          manage=True, owner_of="enemy", unit_of="enemy"),
    Route("attach a leader", _c("leader-attach", UNIT), "post", {}, ok=400, manage=True,
          unit_of="force"),
    Route("detach a leader", _c("leader-detach", UNIT), "post", {}, ok=400, manage=True,
          unit_of="force"),
    Route("battle launch", _c("battle-setup"), "post", {"scenario": "crossroads"}, ok=400,
          manage=True),
    Route("table result", _c("battle-record"), "post", {}, ok=400, manage=True),
    Route("revert", _c("battle-revert", ENGINE), "post", {}, ok=400, manage=True),
    Route("apply (unconfirmed: the review)", _c("battle-apply", TABLE), "post", {}, manage=True),
    Route("medics of own force", _c("medical", FORCE), "post", {}, ok=400, manage=True,
          owner_of="force"),
    Route("import a campaign", lambda w: reverse("campaign:import"), anyone=True),
    Route("export the campaign", _c("export"), manage=True),
    Route("own roster csv", _c("force-csv", FORCE), unit_of="force"),
    Route("enemy roster csv", _c("force-csv", ENEMY), unit_of="enemy"),
    Route("set-up check", _c("battle-setup-check"), "post", {"scenario": "crossroads"},
          manage=True),
    Route("map editor check", _c("map-check"), "post", {}, ok=400, manage=True),
    Route("set-up odds (no such run)",
          lambda w: reverse("campaign:battle-odds", args=[w.campaign.pk, 999_999]), ok=404,
          manage=True),
    Route("medics of enemy force", _c("medical", ENEMY), "post", {}, ok=400, manage=True,
          owner_of="enemy"),
    Route("characters", _c("characters")),
    Route("character create", _c("character-create"), "post", {}, ok=400, manage=True),
    Route("character join", _c("character-join"), "post", {}, ok=400, manage=True),
    Route("character train", _c("character-train"), "post", {}, ok=400, manage=True),
    Route("character rally", _c("character-rally"), "post", {}, ok=400, manage=True),
    Route("character heal", _c("character-heal"), "post", {}, ok=400, manage=True),
    Route("orders", _c("orders")),
    Route("order give", _c("order-give"), "post", {}, ok=400, manage=True, players=True),
    Route("order call off", _c("order-call-off"), "post", {}, ok=400, manage=True, players=True),
    Route("clock", _c("clock-advance"), "post", {"hours": "0"}, ok=400, manage=True),
    Route("engagements", _c("engagement-setup")),
    Route("every engagement", _c("engagements")),
    Route("every battle", _c("battles")),
    Route("find a unit", lambda w: _c("units")(w) + "?q=iron"),
    Route("engagement fight", _c("engagement-setup"), "post", {}, ok=400, manage=True),
    Route("engagement log", _c("engagement", ENGAGEMENT)),
    Route("second engagement log", _c("engagement", AMBUSH)),
    Route("engagement revert", _c("engagement-revert", ENGAGEMENT), "post", {}, ok=400,
          manage=True),
    Route("checks", _c("checks")),
    Route("skill check", _c("skill-check"), "post", {}, ok=400, manage=True),
    Route("contest", _c("contest"), "post", {}, ok=400, manage=True),
    Route("requisition", _c("requisition"), "post", {}, ok=400, manage=True),
]  # fmt: skip


def expected(route: Route, role: str, world: World, visibility: str) -> int:
    if route.public:
        return route.ok
    if role == "anonymous":
        # Under htmx the login redirect is an HX-Redirect in a 200 (config/htmx.py).
        return 200 if route.headers else 302
    if route.anyone:
        return route.ok
    if role == "outsider":
        return 404
    owner = {"force": "player", "enemy": "rival"}
    # A unit of a force shown in summary does not exist for anyone but its owner and the GMs.
    sees_unit = role in MANAGERS or visibility == Campaign.Visibility.FULL
    if route.unit_of and not sees_unit and owner[route.unit_of] != role:
        return 403 if route.says_summary else 404
    owns = route.owner_of is not None and owner[route.owner_of] == role
    plays = route.players and role in owner.values()
    if route.manage and role not in MANAGERS and not owns and not plays:
        return 403
    if route.gm_only and role != "gm":
        return 403
    # The player's and the rival's units fought the engine battle; the spectator's none.
    if route.fought_in and not sees_unit and role == "spectator":
        return 403
    return route.ok


@pytest.mark.parametrize("visibility", [Campaign.Visibility.FULL, Campaign.Visibility.SUMMARY])
def test_it_gives_every_role_the_right_answer_at_every_url(client, world, visibility):
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible=visibility)
    wrong = []
    walked = {resolve(urlsplit(route.url(world)).path).url_name for route in ROUTES}
    assert walked == {p.name for p in campaign_urls.urlpatterns}
    for role in ROLES:
        login(client, world, role)
        for route in ROUTES:
            send = getattr(client, route.method)
            response = send(route.url(world), route.data or {}, **(route.headers or {}))
            want = expected(route, role, world, visibility)
            if response.status_code != want:
                wrong.append(f"{role} {route.label}: {response.status_code}, expected {want}")
            if role == "anonymous" and not route.public:
                where = response["HX-Redirect"] if route.headers else response["Location"]
                assert where.startswith(reverse("login")), route.label
    assert not wrong, "\n".join(wrong)


def test_it_lists_only_my_campaigns(client, world):
    url = reverse("campaign:list")
    assert client.get(url).status_code == 302
    for role in ROLES[1:]:
        response = login(client, world, role).get(url)
        assert response.status_code == 200
        assert (world.campaign.name in response.text) == (role in MEMBERS), role


def test_it_answers_404_for_objects_of_another_campaign(client, world, django_user_model):
    from campaign.services import campaign_create

    elsewhere = campaign_create(name="Elsewhere", gm=world.users["gm"], ruleset="combined_arms")
    login(client, world, "gm")
    for name, pk in (
        ("force", world.force.pk),
        ("unit", world.unit.pk),
        ("battle", world.table_battle.pk),
        ("unit-json", world.unit.pk),
    ):
        url = reverse(f"campaign:{name}", args=[elsewhere.pk, pk])
        assert client.get(url).status_code == 404, name
    assert client.get(reverse("campaign:dashboard", args=[999999])).status_code == 404


# -- what each member reads: the table's records under "Force names and unit counts only" ------

SECRETS = {
    "force": ("Dig in by the mill", "Patrol the west road", "Lt. Rowan", "of 13 hit points",
              "feats (Squad/Squadron Tactics", "Red Scouts took a"),
    "enemy": ("Hold the ford at dusk", "Scout the east bank", "Maj. Greaves", "Ghost Lancers",
              "Field dressing at the ford", "Blue Pickets' leader", "is outside its specialties",
              "Blue Pickets took a"),
    "vane": (", led by Capt. Vane",),
    "npc": ("Sgt. Ferris",),
    "both": ("Race to the bridge", "Skirmish in the orchard"),
    "all": ("seed <code>106</code>", "commanded by Old Guard"),
    "battle": ("seed <code>12</code>", "rules, seed 12)", '"seed":12'),
}  # fmt: skip
"""What the table records about each force's units (the Orders and the GM's notes on them, its
checks and their reasons, its Requisition, the characters at their head and their hit points
and heals, and in the engagement between them: the leader's feats and wounds on a unit's rolls,
an Order performed outside its specialties, the hits it took), what about neither (a GM's NPC
leading no unit), what about the player's own character at the head of the GM's unit in a
second engagement, what about both (a contest between them, the GM's reason for a quick
resolve of one against the other), what only whoever sees both reads (the engagement's seed,
which would roll every hidden die again, and the name of the rival's Legendary unit on the
rolls of the player's unit it commanded in the second engagement), and that only through no
fog of war (the engine battle's seed, on its page, in its log and in the log's download)."""


ENGAGEMENT_SEED = 106
"""A seed under which both squads take hits in the engagement and the enemy's leader is wounded."""


AMBUSH_SEED = 1
"""A seed under which the Legendary unit's command shows on the player's unit's rolls."""


def table_world(w: World) -> None:
    """The world's table: a character with a feat at the head of a fresh squad of each force,
    each given an Order with a note (the enemy's outside its squad's specialties), a check of
    each, a contest between them, a Requisition for the enemy, a heal, an NPC who leads nobody,
    an engagement between the squads, and a quick resolve between them kept from before
    engagements, with the GM's reason."""
    from campaign.models import Character, QuickResolve
    from campaign.services import force_create, leader_attach
    from campaign.services.characters import character_create, character_heal
    from campaign.services.checks import contest_run, requisition_run, skill_check_run
    from campaign.services.orders import order_give

    gm, campaign = w.users["gm"], w.campaign
    card = UnitType.objects.get(name="Rifle Squad")
    red, blue = (
        unit_create(force=f, unit_type=card, name=name, specialties=["infantry"])
        for f, name in ((w.force, "Red Scouts"), (w.enemy, "Blue Pickets"))
    )
    rowan = character_create(campaign=campaign, name="Lt. Rowan", hit_points=13,
                             feats=["squad_tactics"], player=w.users["player"],
                             actor=gm)  # fmt: skip
    greaves = character_create(campaign=campaign, name="Maj. Greaves", hit_points=17,
                               feats=["special_forces"], player=w.users["rival"],
                               actor=gm)  # fmt: skip
    character_create(campaign=campaign, name="Sgt. Ferris", hit_points=8, actor=gm)
    Character.objects.filter(pk=greaves.pk).update(max_hit_points=20)
    character_heal(character=greaves, hit_points=1, reason="Field dressing at the ford", actor=gm)
    leader_attach(unit=red, character=rowan, actor=gm)
    leader_attach(unit=blue, character=greaves, actor=gm)
    order_give(giver=rowan, unit=red, kind="attack", note="Dig in by the mill", actor=gm)
    order_give(giver=greaves, unit=blue, kind="establish_beachhead", note="Hold the ford at dusk",
               actor=gm)  # fmt: skip
    skill_check_run(campaign=campaign, units=[red], dc=10, seed=1, reason="Patrol the west road",
                    actor=gm)  # fmt: skip
    skill_check_run(campaign=campaign, units=[blue], dc=10, seed=2, reason="Scout the east bank",
                    actor=gm)  # fmt: skip
    contest_run(campaign=campaign, active=[red], resisting=[blue], seed=3,
                reason="Race to the bridge", actor=gm)  # fmt: skip
    requisition_run(force=w.enemy, unit_type=card, name="Ghost Lancers", specialties=["infantry"],
                    character=greaves, seed=4, actor=gm)  # fmt: skip
    w.engagement = engagement_run(
        campaign=campaign, sides={"attackers": [red], "defenders": [blue]}, surprise="defenders",
        seed=ENGAGEMENT_SEED, name="Clash at the weir", actor=gm,
    )  # fmt: skip
    # The player's character leads the GM's Grey Lancers; the rival's Legendary Old Guard
    # commands the player's Red Reserve, which no one leads, beside it against them.
    host = force_create(campaign=campaign, owner=gm, name="Grey Host", actor=gm)
    reserve, guard, lancers = (
        unit_create(force=f, unit_type=card, name=name, quality=quality, specialties=["infantry"])
        for f, name, quality in ((w.force, "Red Reserve", "average"),
                                 (w.enemy, "Old Guard", "legendary"),
                                 (host, "Grey Lancers", "average"))
    )  # fmt: skip
    vane = character_create(campaign=campaign, name="Capt. Vane", hit_points=30,
                            player=w.users["player"], actor=gm)  # fmt: skip
    leader_attach(unit=lancers, character=vane, actor=gm)
    w.ambush = engagement_run(
        campaign=campaign, sides={"attackers": [reserve, guard], "defenders": [lancers]},
        seed=AMBUSH_SEED, name="Ambush at the lock", actor=gm,
    )  # fmt: skip
    QuickResolve.objects.create(
        campaign=campaign, day=1, attacker=red, defender=blue, seed=5, round_limit=5, setup={},
        events=[{"event": "end", "rounds": 2, "winner": "attacker"}], rounds=2,
        winner="attacker", reason="Skirmish in the orchard",
    )  # fmt: skip


def seen_in_full(role: str, visibility: str, fog: bool = False) -> set[str]:
    """Whose records a role reads: the GMs everything; under full rosters every force's (the
    engine battle's seed only where no fog of war hides any of the battle); in summary only a
    player's own force's (and what is both forces' business)."""
    if role in MANAGERS:
        return set(SECRETS)
    if visibility == Campaign.Visibility.FULL:
        return set(SECRETS) - ({"battle"} if fog else set())
    return {"player": {"force", "both", "vane"}, "rival": {"enemy", "both"}}.get(role, set())


@pytest.mark.parametrize(
    ("visibility", "fog"),
    [
        (Campaign.Visibility.FULL, False),
        (Campaign.Visibility.SUMMARY, False),
        (Campaign.Visibility.FULL, True),
    ],
)
def test_every_page_shows_a_member_only_the_table_records_their_sight_allows(
    client, world, visibility, fog
):
    table_world(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(
        other_forces_visible=visibility, fog_of_war=fog
    )
    readable = [r for r in ROUTES if r.method == "get" and not r.anyone]
    wrong = []
    for role in ("player", "rival", "spectator", "gm", "co_gm"):
        login(client, world, role)
        seen = seen_in_full(role, visibility, fog)
        found: set[str] = set()
        for route in readable:
            response = client.get(route.url(world), **(route.headers or {}))
            if response.status_code not in (200, 286):
                continue
            text = html.unescape(response.content.decode())
            for whose, secrets in SECRETS.items():
                for secret in secrets:
                    if secret in text:
                        found.add(secret)
                        if whose not in seen:
                            wrong.append(f"{role} reads {secret!r} at {route.label}")
        # And what they may read, they do read on the table's pages.
        missing = {s for whose in seen for s in SECRETS[whose]} - found
        wrong += [f"{role} never reads {secret!r}" for secret in sorted(missing)]
    assert not wrong, "\n".join(wrong)
