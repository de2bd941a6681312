"""The demo: known logins and a campaign under way, so a new user can look around at once.

`demo_load()` is what `manage.py serve` and `manage.py demo` call. It is idempotent: users that
exist are left alone, the library is refreshed, and the demo campaign is built only once, by the
same services a GM would use (so every unit's history explains it).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from battles.selectors import reference_scenarios
from battles.services import battle_resolve
from campaign.models import Campaign, Force, Unit
from campaign.services import (
    calendar_advance,
    campaign_create,
    force_create,
    leader_attach,
    medical_apply,
    membership_set,
    quick_resolve_run,
    unit_create,
)
from campaign.services.battles import (
    Deployment,
    campaign_battle_apply,
    campaign_battle_launch,
    campaign_battle_record,
    campaign_battle_settle,
)
from campaign.services.characters import character_create
from campaign.services.orders import order_give
from units.models import Ruleset, UnitType
from units.services import library_load

DEMO_LOGINS = (
    ("gm", "bridgehead-gm", True),
    ("alice", "bridgehead-alice", False),
    ("bob", "bridgehead-bob", False),
    ("carol", "bridgehead-carol", False),
)
"""(username, password, staff): the GM first, then the two players and a spectator."""
DEMO_SPECTATOR = "carol"
DEMO_CAMPAIGN = "Operation Millrace (demo)"

# (force, owner, [(unit name, card, quality, equipment, specialties, leader)])
DEMO_FORCES = (
    ("Red Company", "alice", [
        ("1st Squad", "Rifle Squad", "average", "adequate", ["infantry"], None),
        ("2nd Squad", "Rifle Squad", "green", "adequate", ["infantry"], None),
        ("Aid Post", "Rifle Squad", "average", "good", ["infantry", "medical"], None),
        ("Atlas", "Mech", "average", "adequate", ["mechanized"], ("Capt. Mara Holt", 18)),
        ("Tiger One", "Medium Tank", "experienced", "excellent", ["mechanized", "armor"], None),
    ]),
    ("Blue Battalion", "bob", [
        ("Blue Rifles", "Rifle Squad", "average", "adequate", ["infantry"], None),
        ("Sappers", "Assault Engineers", "average", "adequate",
         ["infantry", "combat_engineering"], None),
        ("Old Faithful", "Expendable Mech", "green", "barely_adequate", ["mechanized"], None),
        ("Iron Wolf", "Mech", "elite", "good", ["mechanized", "armor"], ("Maj. Odo Brandt", 22)),
        ("Scout Car", "Recon Vehicle", "inexperienced", "adequate", ["mechanized"], None),
    ]),
)  # fmt: skip

DEMO_CHARACTER = (
    "Lt. Ada Reyes",
    14,
    ["leadership", "squad_tactics"],
    "alice",
    "1st Squad",
    "attack",
    "retake the ford",
)
"""Alice's character: (name, hit points, feats, player, the unit she leads, the Order she gives
it on day 2, its note)."""

# The first battle, fought on day 1: (unit name, hits lost, Skill lost, removed).
# Each is possible on the card the unit fought with (`damage.outcome_problems`): a mech has 2
# Hits, a tank and a squad 1, so only losing every Hit is "destroyed"; no unit had an Order,
# so an Average squad fought its card (Skill 3) at Skill 2, where one Skill lost demoralises.
MILL_OUTCOMES = (
    ("1st Squad", 0, 0, "none"),
    ("Atlas", 1, 0, "none"),
    ("Tiger One", 0, 1, "none"),
    ("Blue Rifles", 1, 0, "destroyed"),
    ("Sappers", 0, 1, "demoralised"),
    ("Old Faithful", 1, 0, "none"),
    ("Iron Wolf", 1, 0, "none"),
)

# The battle the engine fights on day 2, once Lt. Ada Reyes has sent 1st Squad to attack: a
# reference scenario, each force's units on the scenario's side, and a fixed seed, so that every
# demo shows the same battle. It is left awaiting the GM's review (the campaign reviews each
# outcome first): the GM's dashboard has an outcome to review, and Apply to press.
CROSSROADS = (
    "Battle of the Crossroads",
    "crossroads",
    {"blue": ["1st Squad", "Tiger One"], "red": ["Old Faithful", "Sappers"]},
    1,
)
"""(name, reference scenario, scenario side → unit names, seed): two units a side keep it
quick, and leave Atlas, Aid Post, Iron Wolf and Scout Car free for the next battle."""


def _users() -> dict[str, object]:
    User = get_user_model()
    users = {}
    for username, password, is_staff in DEMO_LOGINS:
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(
                username=username, password=password, is_staff=is_staff, is_superuser=is_staff
            )
        users[username] = user
    return users


def _build_campaign(users: dict[str, object]) -> Campaign:
    gm = users["gm"]
    campaign = campaign_create(
        name=DEMO_CAMPAIGN,
        gm=gm,
        ruleset=Ruleset.COMBINED_ARMS,
        apply_mode=Campaign.ApplyMode.REVIEW,
    )
    # Someone who watches: the campaign as a member with no force sees it.
    membership_set(campaign=campaign, user=users[DEMO_SPECTATOR], role="spectator")
    units: dict[str, Unit] = {}
    forces: dict[str, Force] = {}
    for force_name, owner, roster in DEMO_FORCES:
        membership_set(campaign=campaign, user=users[owner], role="player")
        force = force_create(campaign=campaign, owner=users[owner], name=force_name)
        forces[force_name] = force
        for name, card, quality, equipment, specialties, leader in roster:
            units[name] = unit_create(
                force=force,
                unit_type=UnitType.objects.get(ruleset=campaign.ruleset, name=card),
                name=name,
                quality=quality,
                equipment=equipment,
                specialties=specialties,
                leader=None if leader is None else {"name": leader[0], "hit_points": leader[1]},
            )
    # The first battle is recorded as a table result, as a GM would, so it is on the
    # campaign's pages (its battles, the timeline) as well as in its units' histories.
    fought = {name for name, *_ in MILL_OUTCOMES}
    sides = {
        force_name: [units[name] for name, *_ in roster if name in fought]
        for force_name, _, roster in DEMO_FORCES
    }
    mill = campaign_battle_record(
        campaign=campaign,
        name="Battle of the Millrace",
        sides=sides,
        winner="Red Company",
        outcomes={
            units[name].pk: {"hits_lost": h, "skill_lost": s, "removed": r}
            for name, h, s, r in MILL_OUTCOMES
        },
    )
    campaign_battle_apply(campaign_battle=mill)
    medical_apply(force=forces["Red Company"], reason="field hospital at the mill")
    calendar_advance(campaign=campaign, days=1, reason="the front goes quiet")
    quick_resolve_run(
        campaign=campaign,
        attacker=units["2nd Squad"],
        defender=units["Scout Car"],
        defender_stance={"dug_in": True},
        round_limit=5,
        seed=7,
        reason="Patrol clash at the ford",
    )
    # A player's character leads a unit and gives it an Order, as the d20 table would.
    name, hit_points, feats, player, led, order, note = DEMO_CHARACTER
    character = character_create(
        campaign=campaign, name=name, hit_points=hit_points, feats=feats, player=users[player]
    )
    leader_attach(unit=units[led], character=character, reason="takes the squad to the ford")
    order_give(giver=character, unit=Unit.objects.get(pk=units[led].pk), kind=order, note=note)
    _fight_crossroads(campaign, gm)
    return campaign


def _fight_crossroads(campaign: Campaign, gm) -> None:
    """Launch the demo's engine battle and fight it here, as a worker would: the same services
    its tasks call (`battles.tasks.resolve_battle`, then `campaign.tasks.campaign_battle_finished`),
    so the demo is whole when it returns and needs no worker. Fought here, it is not sent to the
    workers (``queued=False``)."""
    name, scenario, sides, seed = CROSSROADS
    by_name = {unit.name: unit for unit in Unit.objects.filter(force__campaign=campaign)}
    launched = campaign_battle_launch(
        campaign=campaign,
        # The scenario as the set-up page offers it.
        base=next(s.data for s in reference_scenarios() if s.slug == scenario),
        # Each on the first free spot of its side; 1st Squad goes in under Ada's Order.
        deployments=[
            Deployment(unit=by_name[unit], side=side, position=None)
            for side, names in sides.items()
            for unit in names
        ],
        name=name,
        seed=seed,
        actor=gm,
        queued=False,
    )
    battle_resolve(battle_id=launched.battle_id)
    campaign_battle_settle(battle_id=launched.battle_id)


@transaction.atomic
def demo_load() -> list[tuple[str, str]]:
    """Create the demo users, library and campaign if missing; list the logins, GM first."""
    users = _users()
    library_load()
    if not Campaign.objects.filter(name=DEMO_CAMPAIGN, gm=users["gm"]).exists():
        _build_campaign(users)
    return [(username, password) for username, password, _ in DEMO_LOGINS]
