"""A dying leader (−1 to −9 hit points: unconscious in d20 Modern) leads nobody until healed:
one rule (`state.can_act`) for every place a leader's part counts."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Leader, Unit
from campaign.pages.at_the_table import at_the_table
from campaign.rules.command import Command
from campaign.rules.state import can_act, hit_point_state
from campaign.services import leader_attach, unit_train
from campaign.services.characters import character_create, character_heal, character_rally
from campaign.services.checks import check_units, requisition_run
from campaign.services.engagements import engagement_revert, engagement_run
from campaign.services.going_in import led_units
from campaign.services.orders import order_give

pytestmark = pytest.mark.django_db


def test_a_character_acts_at_0_hit_points_and_not_from_minus_1_until_healed():
    assert [can_act(hp) for hp in (5, 0, -1, -9, -10)] == [True, True, False, False, False]
    assert not can_act(3, alive=False)
    # d20 Modern's words for each: dead at −10 or lower, whether or not yet marked dead.
    said = [hit_point_state(hp) for hp in (5, 0, -1, -9, -10, -11)]
    assert said == ["", "disabled", "dying", "dying", "dead", "dead"]


def knocked_out(unit, hit_points=-3):
    leader = Leader.objects.get(unit=unit)
    leader.hit_points = hit_points
    leader.save()  # the character's own hit points follow
    return Unit.objects.select_related("leader__character").get(pk=unit.pk)


def first_quality(record, unit):
    pairing = next(
        e for e in record.events
        if e["event"] == "pairing" and e["attackers"]["unit"] == str(unit.pk)
    )  # fmt: skip
    return dict(map(tuple, pairing["attackers"]["modifiers"]))


def test_a_dying_leaders_unit_fights_checks_and_reads_as_if_nobody_led_it(
    campaign, make_unit, enemy
):
    vance = character_create(campaign=campaign, name="Sgt Vance", hit_points=12,
                             feats=["leadership", "strategist"])  # fmt: skip
    squad = make_unit("Squad 1")
    leader_attach(unit=squad, character=vance)
    foe = make_unit("Blue 1", into=enemy)
    squad = knocked_out(squad)
    assert led_units([squad]) == set()
    record = engagement_run(campaign=campaign, sides={"attackers": [squad], "defenders": [foe]},
                            seed=4, round_limit=1)  # fmt: skip
    mods = first_quality(record, squad)
    assert mods["quality: Average, alone without Orders"] == -2
    assert "leader's feats (Leadership)" not in mods
    engagement_revert(engagement=record, reason="again")
    (checking,) = check_units(campaign, [Unit.objects.get(pk=squad.pk)])
    assert checking.command == Command.WITHOUT_ORDERS
    table = at_the_table(squad, "")
    assert [c.command for c in table.columns if c.now] == [Command.WITHOUT_ORDERS]
    assert squad.leader.leads_nobody == "Sgt Vance is dying (−3 hp) and leads nobody until healed"
    # Healed to 0, disabled, Vance acts again: the unit assists its leader once more.
    character_heal(character=vance, hit_points=3)
    squad = Unit.objects.select_related("leader__character").get(pk=squad.pk)
    assert squad.leader.leads and not squad.leader.leads_nobody
    record = engagement_run(campaign=campaign, sides={"attackers": [squad], "defenders": [foe]},
                            seed=4, round_limit=1)  # fmt: skip
    assert first_quality(record, squad)["quality: Average, assisting its leader (Sgt Vance)"] == 3


def test_a_dying_character_gives_no_order_trains_rallies_and_requisitions_nothing(
    campaign, make_unit, force, cards
):
    vance = character_create(campaign=campaign, name="Sgt Vance", hit_points=12,
                             feats=["strategist"])  # fmt: skip
    squad = make_unit("Squad 1", quality="green")
    other = make_unit("Squad 2", quality="green")
    leader_attach(unit=squad, character=vance)
    knocked_out(squad, -4)
    vance.refresh_from_db()
    dying = "Sgt Vance is dying (−4 hp) and"
    with pytest.raises(ValidationError) as refused:
        order_give(giver=vance, unit=other, kind="attack")
    assert refused.value.message_dict["giver"] == [f"{dying} gives no Orders until healed"]
    with pytest.raises(ValidationError) as refused:
        unit_train(unit=other, character=vance)
    assert refused.value.message_dict["character"] == [f"{dying} trains nobody until healed"]
    with pytest.raises(ValidationError) as refused:
        character_rally(character=vance, unit=other)
    assert refused.value.message_dict["character"] == [f"{dying} heals no Morale hits until healed"]
    with pytest.raises(ValidationError) as refused:
        requisition_run(
            force=force, unit_type=cards["Rifle Squad"], name="New", quality="green",
            specialties=["infantry"], character=vance, seed=1,
        )  # fmt: skip
    assert refused.value.message_dict["character"] == [f"{dying} requisitions nothing until healed"]
    assert not other.orders.exists() and other.history.count() == 1


def test_a_dying_giver_no_longer_repeats_a_raw_units_order(campaign, make_unit, enemy):
    vance = character_create(campaign=campaign, name="Sgt Vance", hit_points=20)
    raw = make_unit("Raw", quality="raw", specialties=())
    vet = make_unit("Vet")
    leader_attach(unit=vet, character=vance)
    order_give(giver=vance, unit=raw, kind="attack")
    foes = [make_unit(f"Blue {i}", into=enemy, quality="green") for i in (1, 2)]
    knocked_out(vet)
    record = engagement_run(campaign=campaign, sides={"attackers": [raw, vet], "defenders": foes},
                            seed=0, round_limit=2)  # fmt: skip
    (pairing,) = (p for p in record.events if p["event"] == "pairing" and p["round"] == 2
                  and p["attackers"]["unit"] == str(raw.pk))  # fmt: skip
    quality = next(n for n, _ in pairing["attackers"]["modifiers"] if n.startswith("quality"))
    assert quality == (
        "quality: Raw, its Order not repeated (its giver leads no unit on its side, or is dying "
        "or dead), so without Orders it cannot act alone"
    )
