"""Engagements through the services: commands read from the campaign, damage applied through
the same history as battles, seeded and replayable, revertible, bad input refused whole."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Campaign, Engagement, HistoryEntry, Leader, Unit
from campaign.rules.orders import OrderKind
from campaign.selectors.entries import unit_history_explains
from campaign.services import campaign_update, leader_attach
from campaign.services.battles import campaign_battle_apply, campaign_battle_record
from campaign.services.characters import character_create
from campaign.services.engagements import engaged_units, engagement_revert, engagement_run
from campaign.services.orders import clock_advance, order_call_off, order_give

pytestmark = pytest.mark.django_db


@pytest.fixture
def armies(make_unit, enemy):
    reds = [make_unit("Red 1"), make_unit("Red 2")]
    blues = [make_unit("Blue 1", into=enemy), make_unit("Blue 2", into=enemy, quality="elite")]
    return reds, blues


def first_roll(record, key):
    pairing = next(e for e in record.events if e["event"] == "pairing")
    side = "attackers" if pairing["attackers"]["unit"] == key else "defenders"
    return pairing[side]


def test_it_fights_many_against_many_and_applies_it_through_history(campaign, armies):
    reds, blues = armies
    record = engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues},
                            seed=11, round_limit=8, name="Mill ford")  # fmt: skip
    assert record.state == Engagement.State.APPLIED and record.rounds >= 1
    entries = HistoryEntry.objects.filter(pk__in=record.applied_entries)
    assert {e.unit_id for e in entries if e.kind == "engagement"} == {u.pk for u in reds + blues}
    for unit in reds + blues:
        unit.refresh_from_db()
        assert unit.battles_fought == 1 and unit.last_battle_day == campaign.day
        assert unit_history_explains(unit=unit)
        entry = unit.history.get(kind="engagement")
        assert entry.details["engagement"] == record.pk and entry.text.startswith("Mill ford")


def test_a_unit_an_engagement_did_nothing_to_came_through_it_unhurt(campaign, make_unit, enemy):
    red, blue = make_unit("Red 1"), make_unit("Blue 1", into=enemy, quality="elite")
    record = engagement_run(campaign=campaign, sides={"attackers": [red], "defenders": [blue]},
                            seed=0, round_limit=1, name="Mill ford")  # fmt: skip
    entry = blue.history.get(kind="engagement")
    assert entry.details["damage"]["morale_hits"] == entry.details["damage"]["casualty_hits"] == 0
    assert entry.text.startswith("Mill ford: came through unhurt; ") and "took" not in entry.text
    # The fight is still named by its entry, as a revert says.
    engagement_revert(engagement=record, reason="again")
    undone = [e.text for e in blue.history.filter(kind="revert")]
    assert any("the engagement of day 1, Mill ford, is undone" in text for text in undone)


def test_an_engagements_entry_keeps_the_fights_name_as_data_whatever_its_words(
    campaign, make_unit, enemy, monkeypatch
):
    """The name an engagement's entry gives its fight is kept with it (``name``): a revert of
    the entry alone names the fight by it even once the words its sentence was written with
    are worded otherwise (`history.fight_named`)."""
    from campaign.services.reverts import outcome_revert

    red, blue = make_unit("Red 1"), make_unit("Blue 1", into=enemy)
    engagement_run(campaign=campaign, sides={"attackers": [red], "defenders": [blue]},
                   seed=3, round_limit=4, name="Mill ford")  # fmt: skip
    entry = red.history.get(kind="engagement")
    monkeypatch.setattr("campaign.rules.history.TOOK", ": suffered ")
    monkeypatch.setattr("campaign.rules.history.UNHURT", ": was untouched")
    (revert,) = outcome_revert(entries=[entry], reason="misread", actor=None)
    assert revert.text.startswith("misread: the engagement of day 1, Mill ford, is undone")
    assert entry.details["name"] == "Mill ford"


def test_a_revert_names_an_engagement_by_its_units_only_when_the_gm_gave_it_no_name(
    campaign, make_unit, enemy
):
    """An engagement the GM did not name is named by its units in a revert, as its entries keep
    them (``by_units``): one the GM named "Engagement, the second" keeps its whole name, and so
    does a quick resolve named "Quick resolve, at dawn" (`history.undone_text`)."""
    from campaign.rules.history import undone_parts
    from campaign.services.quick import quick_resolve_run
    from campaign.services.reverts import outcome_revert

    def undone(name, red, blue, quick=False, whole=True):
        red, blue = make_unit(red), make_unit(blue, into=enemy)
        if quick:
            record = quick_resolve_run(campaign=campaign, attacker=red, defender=blue, seed=3,
                                       round_limit=1, reason=name)  # fmt: skip
        else:
            record = engagement_run(campaign=campaign, seed=3, round_limit=1, name=name,
                                    sides={"attackers": [red], "defenders": [blue]})  # fmt: skip
        fight = red.history.get(kind="engagement")
        if whole:
            engagement_revert(engagement=record, reason="misread")
            revert = red.history.get(reverts=fight)
        else:
            (revert,) = outcome_revert(entries=[fight], reason="misread")
        assert undone_parts(**revert.details["undid"])[1] in revert.text  # the page's link
        return revert.text.removeprefix("misread: ").split(" is undone")[0]

    assert undone("Engagement, the second", "Red 1", "Blue 1") == (
        "the engagement of day 1, Engagement, the second,"
    )
    assert undone("engagement, a third", "Red 2", "Blue 2", whole=False) == (
        "the engagement of day 1, engagement, a third,"
    )
    assert undone("Quick resolve, at dawn", "Red 3", "Blue 3", quick=True) == (
        "the engagement of day 1, Quick resolve, at dawn,"
    )
    # Named by nobody, it is named by its units, the default word left out.
    assert undone("", "Red 4", "Blue 4") == "the engagement of day 1, Red 4 against Blue 4,"
    assert undone("", "Red 5", "Blue 5", quick=True, whole=False) == (
        "the engagement of day 1, Red 5 against Blue 5,"
    )


def test_a_unit_whose_kit_stopped_every_hit_of_an_engagement_took_no_hits(
    campaign, make_unit, enemy
):
    """As a battle says it: hits struck but stopped by Excellent equipment (or Armor) are no
    "came through unhurt"; the entry says it took none, and why."""
    red = make_unit("Red 1", equipment="excellent")
    blue = make_unit("Blue 1", into=enemy)
    engagement_run(campaign=campaign, sides={"attackers": [red], "defenders": [blue]},
                   seed=14, round_limit=1, name="Mill ford")  # fmt: skip
    entry = red.history.get(kind="engagement")
    damage = entry.details["damage"]
    assert damage["morale_hits"] == damage["casualty_hits"] == 0 and damage["excellent_ignored"]
    assert entry.text.startswith(
        "Mill ford: took no hits — Excellent equipment ignored the first Morale hit; "
    )
    red.refresh_from_db()
    assert unit_history_explains(unit=red)


def test_an_engagement_says_a_leaders_death_and_the_units_end_once_each(campaign, make_unit, enemy):
    """The leader's death is the bridge's one sentence, as a battle's and a correction's say it,
    and the line a page reads says each thing once: the unit's end and the leader's name are
    the story's words, not the reason's again ("destroyed: was destroyed")."""
    from campaign.pages.history_words import entry_line

    red = make_unit("Squad 1", quality="green",
                    leader={"name": "Capt. Mara Holt", "hit_points": 1})  # fmt: skip
    blue = make_unit("Blue 1", into=enemy, quality="elite")
    engagement_run(campaign=campaign, sides={"attackers": [red], "defenders": [blue]},
                   seed=4, round_limit=3, name="Mill ford")  # fmt: skip
    entry = red.history.get(kind="engagement")
    assert entry.details["damage"]["leader_died"] and entry.details["damage"]["removed"] == (
        "destroyed"
    )
    red.refresh_from_db()
    assert entry_line(entry, red.state.to_json()) == (
        "Mill ford: took 3 Morale hits and 1 Casualty hit; was destroyed — Capt. Mara Holt died: "
        "2 Morale hits at once"
    )
    assert unit_history_explains(unit=red)


def test_the_same_inputs_give_the_same_engagement(campaign, armies):
    reds, blues = armies
    runs = []
    for _ in range(2):
        record = engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues},
                                seed=99, round_limit=6)  # fmt: skip
        runs.append(record.events)
        engagement_revert(engagement=record, reason="again")
    assert runs[0] == runs[1]


def test_the_units_orders_and_leaders_set_their_column(campaign, armies):
    reds, blues = armies
    holt = character_create(campaign=campaign, name="Holt", hit_points=12, feats=["leadership"])
    leader_attach(unit=reds[0], character=holt)
    order_give(giver=holt, unit=reds[1], kind="attack")
    record = engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues},
                            seed=4, round_limit=1)  # fmt: skip
    one = dict(map(tuple, first_roll(record, str(reds[0].pk))["modifiers"]))
    assert one["quality: Average, assisting its leader (Holt)"] == 3
    assert one["leader's feats (Leadership)"] == 1
    second = next(e for e in record.events if e["event"] == "pairing" and
                  e["attackers"]["unit"] == str(reds[1].pk))  # fmt: skip
    assert second["attackers"]["modifiers"][0] == ["quality: Average, alone under Orders", 0]
    engagement_revert(engagement=record, reason="again")
    clock_advance(campaign=campaign, hours=2)  # the Attack Order is done: without Orders now
    record = engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues},
                            seed=4, round_limit=1)  # fmt: skip
    second = next(e for e in record.events if e["event"] == "pairing" and
                  e["attackers"]["unit"] == str(reds[1].pk))  # fmt: skip
    assert second["attackers"]["modifiers"][0][0].endswith("alone without Orders")


def test_a_raw_units_order_is_repeated_only_by_a_living_giver_on_its_side(
    campaign, make_unit, enemy
):
    holt = character_create(campaign=campaign, name="Holt", hit_points=20, feats=["leadership"])
    raw = make_unit("Raw", quality="raw", specialties=())
    vet = make_unit("Vet")
    leader_attach(unit=vet, character=holt)
    order_give(giver=holt, unit=raw, kind="attack")
    foes = [make_unit(f"Blue {i}", into=enemy, quality="green") for i in (1, 2)]
    sides = {"attackers": [raw, vet], "defenders": foes}

    def raw_in_round_two():
        record = engagement_run(campaign=campaign, sides=sides, seed=0, round_limit=2)
        engagement_revert(engagement=record, reason="again")
        (pairing,) = (p for p in record.events if p["event"] == "pairing" and p["round"] == 2
                      and p["attackers"]["unit"] == str(raw.pk))  # fmt: skip
        return next(n for n, _ in pairing["attackers"]["modifiers"] if n.startswith("quality"))

    assert raw_in_round_two() == "quality: Raw, alone under Orders"
    # Holt dies at Vet's head: the character stays linked to the unit, but gives no Orders
    # (and lends Vet no feats).
    lead = Leader.objects.get(unit=vet)
    lead.hit_points, lead.alive = -12, False
    lead.save()
    assert raw_in_round_two() == (
        "quality: Raw, its Order not repeated (its giver leads no unit on its side, or is dying "
        "or dead), so without Orders it cannot act alone"
    )
    units = {"attackers": [Unit.objects.get(pk=raw.pk), Unit.objects.get(pk=vet.pk)],
             "defenders": foes}  # fmt: skip
    engaged = engaged_units(campaign, units, {}, "open")["attackers"]
    assert [(u.order_repeated, u.leader_feats) for u in engaged] == [
        (False, frozenset()), (False, frozenset())
    ]  # fmt: skip


def test_a_finished_beachhead_counts_as_dug_in_on_amphibious_ground(campaign, make_unit, enemy):
    marines = make_unit("Marines", specialties=("infantry", "amphibious"))
    holt = character_create(campaign=campaign, name="Holt", hit_points=12)
    order_give(giver=holt, unit=marines, kind="establish_beachhead")
    clock_advance(campaign=campaign, hours=1)
    record = engagement_run(campaign=campaign, sides={"attackers": [make_unit("Foe", into=enemy)],
                            "defenders": [marines]}, terrain="amphibious", seed=2,
                            round_limit=1)  # fmt: skip
    mods = dict(map(tuple, first_roll(record, str(marines.pk))["modifiers"]))
    assert mods["Establish Beachhead: dug in"] == 2 and mods["Amphibious in its terrain"] == 2


def test_an_order_called_off_is_no_order_in_an_engagement(campaign, make_unit, enemy):
    # An Attack called off leaves the unit without Orders; a Beachhead called off before it was
    # done is no beachhead once its time has passed.
    marines = make_unit("Marines", specialties=("infantry", "amphibious"))
    rifles = make_unit("Rifles")
    holt = character_create(campaign=campaign, name="Holt", hit_points=12)
    beachhead = order_give(giver=holt, unit=marines, kind="establish_beachhead")
    attack = order_give(giver=holt, unit=rifles, kind="attack")
    units = {"attackers": [marines, rifles], "defenders": [make_unit("Foe", into=enemy)]}

    def engaged():
        found = engaged_units(campaign, units, {}, "amphibious")["attackers"]
        return [(u.order, u.beachhead) for u in found]

    assert engaged() == [(OrderKind.ESTABLISH_BEACHHEAD, False), (OrderKind.ATTACK, False)]
    order_call_off(order=beachhead)
    order_call_off(order=attack)
    assert engaged() == [(None, False), (None, False)]
    clock_advance(campaign=campaign, hours=2)
    campaign.refresh_from_db()
    assert engaged() == [(None, False), (None, False)]  # a called-off Beachhead is never done


def test_an_engagement_reverts_like_a_battle(campaign, armies):
    reds, blues = armies
    before = {u.pk: u.state for u in reds + blues}
    record = engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues},
                            seed=5, round_limit=10)  # fmt: skip
    engagement_revert(engagement=record, reason="the GM rules it did not happen")
    record.refresh_from_db()
    assert record.state == Engagement.State.REVERTED
    for unit in reds + blues:
        unit.refresh_from_db()
        assert unit.state == before[unit.pk]
    with pytest.raises(ValidationError, match="reverted already"):
        engagement_revert(engagement=record, reason="twice")


def test_bad_set_ups_are_refused_whole_and_nothing_is_written(campaign, armies, make_unit):
    reds, blues = armies
    with pytest.raises(ValidationError) as error:
        engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": [reds[0]]},
                       terrain="moon", surprise="nobody", round_limit=0, seed=-1,
                       situations={blues[0].pk: {"dug_in": True}})  # fmt: skip
    assert set(error.value.message_dict) >= {
        "defenders", "terrain", "surprise", "round_limit", "seed", f"situation.{blues[0].pk}"
    }  # fmt: skip
    tank = make_unit("Tank", card="Medium Tank", specialties=("mechanized", "armor"))
    with pytest.raises(ValidationError) as error:
        engagement_run(campaign=campaign, sides={"attackers": [tank], "defenders": blues},
                       terrain="swamp")  # fmt: skip
    assert error.value.message_dict == {"terrain": ["Tank is Armor: it cannot enter swamp terrain"]}
    with pytest.raises(ValidationError) as error:
        engagement_run(campaign=campaign, sides={"attackers": [], "defenders": blues})
    assert error.value.message_dict == {"attackers": ["the attackers need at least one unit"]}
    # A unit under a key that is no side would be left out unseen: the key is refused.
    with pytest.raises(ValidationError) as error:
        engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues,
                                                 "reserve": [make_unit("Red 3")]})  # fmt: skip
    assert error.value.message_dict == {
        "reserve": ["not a side of an engagement: the sides are attackers and defenders"]
    }
    assert not Engagement.objects.exists()
    assert not HistoryEntry.objects.filter(kind="engagement").exists()


def test_a_force_on_both_sides_is_refused_naming_it_and_nothing_is_written(
    campaign, armies, make_unit
):
    reds, blues = armies
    turncoat = make_unit("Red 3")
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        engagement_run(
            campaign=campaign, sides={"attackers": reds, "defenders": [*blues, turncoat]}, seed=1
        )
    assert refused.value.message_dict == {
        "defenders": [
            "Red Company is on both sides: a force cannot fight itself; "
            "choose a unit of another force"
        ]
    }
    assert not Engagement.objects.exists() and HistoryEntry.objects.count() == entries


def test_a_unit_whose_battle_awaits_its_outcome_fights_no_engagement(campaign, make_unit, enemy):
    # A fights a table battle whose outcome waits for the GM; an engagement now would change A
    # under that outcome (a Destroyed A "could not have fought" it), so the engagement is
    # refused, by side, naming A and the battle, and nothing is written.
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.REVIEW)
    a = make_unit("A", quality="green")
    b = make_unit("B", into=enemy)
    c = make_unit("C", into=enemy, quality="legendary")
    untouched = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    battle = campaign_battle_record(
        campaign=campaign, name="Pending", sides={"x": [a], "y": [b]}, winner="y",
        outcomes={a.pk: untouched, b.pk: untouched},
    )  # fmt: skip
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        engagement_run(campaign=campaign, sides={"attackers": [a], "defenders": [c]}, seed=3,
                       round_limit=10)  # fmt: skip
    assert refused.value.message_dict == {
        "attackers": ["A is still in Pending, whose outcome is not applied yet"]
    }
    assert not Engagement.objects.exists() and HistoryEntry.objects.count() == entries
    a.refresh_from_db()
    assert (a.status, a.morale_hits, a.casualty_hits) == ("ready", 0, 0)
    # The battle's outcome still applies; then A may fight again.
    assert campaign_battle_apply(campaign_battle=battle)
    assert engagement_run(campaign=campaign, sides={"attackers": [a], "defenders": [c]}, seed=3)


@pytest.mark.parametrize(
    ("sides", "name", "field"),
    [
        (lambda reds, blues: [reds, blues], "", "sides"),
        (lambda reds, blues: {"attackers": [r.pk for r in reds], "defenders": blues}, "",
         "attackers"),
        (lambda reds, blues: {"attackers": reds[0], "defenders": blues}, "", "attackers"),
        (lambda reds, blues: {"attackers": reds, "defenders": blues}, None, "name"),
    ],
)  # fmt: skip
def test_malformed_sides_or_name_are_refused_by_field(campaign, armies, sides, name, field):
    with pytest.raises(ValidationError) as refused:
        engagement_run(campaign=campaign, sides=sides(*armies), name=name, seed=1)
    assert field in refused.value.message_dict
    assert not Engagement.objects.exists()
    assert not HistoryEntry.objects.filter(kind="engagement").exists()


def test_a_unit_out_of_action_fights_no_engagement_and_nothing_is_written(campaign, armies):
    from campaign.services import unit_edit

    reds, blues = armies
    unit_edit(unit=blues[0], changes={"status": "retreated"}, reason="ran")
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues}, seed=1)
    assert refused.value.message_dict == {
        "defenders": [f"{blues[0].name} is retreated in poor order: it cannot fight"]
    }
    assert not Engagement.objects.exists() and HistoryEntry.objects.count() == entries


def test_an_engagement_fights_the_campaigns_rounds_unless_told_and_is_reverted_once(
    campaign, armies
):
    reds, blues = armies
    campaign_update(campaign=campaign, quick_resolve_rounds=2)
    record = engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues},
                            seed=1)  # fmt: skip
    assert record.round_limit == 2
    engagement_revert(engagement=record, reason="the wrong hill")
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        engagement_revert(engagement=record, reason="again")
    assert refused.value.message_dict == {"engagement": ["this engagement is reverted already"]}
    assert HistoryEntry.objects.count() == entries


def test_a_revert_held_up_by_a_fight_held_up_in_turn_says_the_whole_chain_newest_first(
    campaign, armies, cast, django_assert_max_num_queries
):
    """Mill ford's revert waits on Night at the Ford's, which waits on Dawn patrol's, which waits
    on a correction of Blue 1 since: the chain is told whole, in the order the GM goes through
    it, each step by what, which unit and which day — not one step a refusal."""
    from campaign.pages.reverts import revert_blocked
    from campaign.selectors.reviews import revert_chain
    from campaign.services import unit_edit

    reds, blues = armies
    sides = {"attackers": reds[:1], "defenders": blues[:1]}
    fights = [
        engagement_run(campaign=campaign, sides=sides, seed=0, round_limit=1, name=name)
        for name in ("Mill ford", "Night at the Ford", "Dawn patrol")
    ]
    mill, night, dawn = fights
    blue = Unit.objects.get(pk=blues[0].pk)
    edit = unit_edit(unit=blue, changes={"battles_fought": blue.battles_fought + 1},
                     reason="a raid", actor=cast.gm)  # fmt: skip
    later = list(HistoryEntry.objects.filter(pk__in=night.applied_entries))
    with django_assert_max_num_queries(2 + 2 * 2):
        chains = revert_chain(campaign=campaign, entries=later)
    assert {step.text for entry in later for step in chains[entry.pk]} == {
        f"undo the GM's correction of day {edit.day} on Blue 1's page",
        f"revert Dawn patrol, of day {dawn.day}",
        f"revert Night at the Ford, of day {night.day}",
    }
    (chain,) = {tuple(s.text for s in chains[e.pk]) for e in later if e.unit_id == blue.pk}
    assert chain == (
        f"undo the GM's correction of day {edit.day} on Blue 1's page",
        f"revert Dawn patrol, of day {dawn.day}",
        f"revert Night at the Ford, of day {night.day}",
    )
    lines = [str(line) for line in revert_blocked(campaign, mill.applied_entries, "engagement")]
    assert lines and all(
        line.endswith(
            ". Dawn patrol and Night at the Ford cannot be reverted yet either: in order, newest "
            f"first, undo the GM's correction of day {edit.day} on Blue 1's page, then revert "
            f"Dawn patrol, of day {dawn.day}, then revert Night at the Ford, of day {night.day}, "
            "then revert this engagement. Or correct the unit, then revert this engagement."
        )
        for line in lines
    ), lines[0][-400:]
    # The way back is said once, in order: not first a Revert that would be refused, with
    # "or correct the unit", before the chain.
    assert all(
        line.index("cannot be reverted yet either") < line.index("correct the unit")
        for line in lines
    )


def test_a_revert_that_fails_at_its_last_write_leaves_the_units_as_they_were(
    campaign, armies, monkeypatch
):
    """An engagement's revert writes its units and its own state in one transaction: a failure
    marking the engagement reverted takes back every unit's revert with it."""
    reds, blues = armies
    record = engagement_run(campaign=campaign, sides={"attackers": reds, "defenders": blues},
                            seed=5, round_limit=10)  # fmt: skip
    after = {u.pk: Unit.objects.get(pk=u.pk).state for u in reds + blues}
    reverts = HistoryEntry.objects.filter(kind=HistoryEntry.Kind.REVERT).count()

    def fails(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Engagement, "save", fails)
    with pytest.raises(RuntimeError):
        engagement_revert(engagement=record, reason="the GM rules it did not happen")
    assert HistoryEntry.objects.filter(kind=HistoryEntry.Kind.REVERT).count() == reverts
    for unit in reds + blues:
        assert Unit.objects.get(pk=unit.pk).state == after[unit.pk]
