"""A battle whose outcome cannot be reverted says so up front, once per unit, in words; a
revert's reason is asked for as required, and one left blank is refused in words."""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import pytest
from django.urls import reverse

from campaign.models import CampaignBattle, Engagement, HistoryEntry, Unit
from campaign.rules.experience import threshold
from campaign.rules.history import FIELD_LABELS
from campaign.services import calendar_advance, medical_apply, unit_create, unit_edit
from campaign.services.battles import campaign_battle_record
from campaign.services.engagements import engagement_run
from campaign.services.reverts import REVERT_REASON_NEEDED
from campaign.templatetags.sentences import as_sentence
from tests.web.campaign_world import login
from units.words import possessive

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _applied(client, world):
    """The world's table battle, its outcome applied by the GM (logged in), and its entries."""
    login(client, world, "gm")
    battle = world.table_battle
    assert (
        client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"}).status_code == 302
    )
    battle.refresh_from_db()
    return battle, HistoryEntry.objects.filter(pk__in=battle.applied_entries)


def test_a_revert_that_would_be_refused_says_why_per_unit_and_offers_no_button(client, world):
    battle, entries = _applied(client, world)
    assert battle.state == CampaignBattle.State.APPLIED
    unit = next(e.unit for e in entries if "in_combat_zone" in e.after)
    # A later correction of the unit: the outcome cannot go back over it.
    unit_edit(unit=unit, changes={"in_combat_zone": False}, reason="a sniper",
              actor=world.users["gm"])  # fmt: skip
    page = client.get(_url("battle-revert", world, battle.pk))
    assert page.status_code == 200
    text = page.text
    assert "The outcome cannot be reverted" in text
    assert "a unit it changed has changed again since" in text
    assert "Revert these changes" not in text and 'name="confirm"' not in text
    said = f"{unit.name} ({unit.force.name}) has changed since: GM correction on day"
    assert text.count(said) == 1 and "a sniper" in text
    for field in (f for f in FIELD_LABELS if "_" in f):
        assert field not in text, field
    refused = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    assert refused.status_code == 400 and refused.text.count(said) == 1
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED


def test_a_revert_refused_for_two_units_says_units_have_changed_again(client, world):
    battle, entries = _applied(client, world)
    units = {e.unit_id: e.unit for e in entries if "in_combat_zone" in e.after}
    assert len(units) >= 2
    for unit in list(units.values())[:2]:
        unit_edit(unit=unit, changes={"in_combat_zone": not unit.in_combat_zone},
                  reason="a sniper", actor=world.users["gm"])  # fmt: skip
    page = client.get(_url("battle-revert", world, battle.pk))
    assert page.status_code == 200
    assert "units it changed have changed again since" in page.text
    assert "a unit it changed has" not in page.text


def test_an_outcome_not_applied_is_not_offered_for_revert_and_says_why(client, world):
    login(client, world, "gm")
    battle = world.table_battle
    assert battle.state == CampaignBattle.State.AWAITING
    said = "Only an applied outcome can be reverted."
    page = client.get(_url("battle-revert", world, battle.pk), follow=True)
    assert page.redirect_chain == [(_url("battle", world, battle.pk), 302)]
    assert said in page.text
    # Sent with no reason, the refusal says the outcome is not applied, not only the reason.
    refused = client.post(_url("battle-revert", world, battle.pk), {})
    assert refused.status_code == 400 and said in refused.text
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.AWAITING


def _asks_for_the_reason_as_required(page: str) -> bool:
    """The reason's label says it is required, and so does its input (the browser's check)."""
    field = r'<label for="id_\w+_reason">Why \(required\)</label>\s*<input [^>]*name="reason"'
    return re.search(field + r"[^>]* required[ >]", page) is not None


def _engagement(world) -> tuple[Engagement, Unit]:
    """An engagement fought and applied, every unit of the campaign ready first: the record
    and the unit on our side."""
    gm = world.users["gm"]
    for unit in Unit.objects.filter(force__campaign=world.campaign):
        unit_edit(unit=unit, changes={"status": "ready"}, reason="fresh", actor=gm)
    ours = Unit.objects.filter(force=world.force).first()
    theirs = Unit.objects.filter(force=world.enemy).first()
    record = engagement_run(campaign=world.campaign, seed=1, actor=gm,
                            sides={"attackers": [ours], "defenders": [theirs]})  # fmt: skip
    return record, ours


def test_a_revert_says_its_reason_is_required_and_refuses_a_blank_one_in_words(client, world):
    login(client, world, "gm")
    battle = world.table_battle
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    review = client.get(_url("battle-revert", world, battle.pk)).text
    assert _asks_for_the_reason_as_required(review)
    assert "Goes into every unit&#x27;s history." in review
    # A refusal shown on its own starts with a capital (`templatetags.sentences`).
    said = as_sentence(REVERT_REASON_NEEDED).replace("'", "&#x27;")
    for blank in ("", "   "):
        refused = client.post(_url("battle-revert", world, battle.pk), {"reason": blank})
        assert refused.status_code == 400 and said in refused.text
        assert _asks_for_the_reason_as_required(refused.text)
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED
    # An engagement's revert, the same.
    record, _ = _engagement(world)
    url = _url("engagement", world, record.pk)
    assert _asks_for_the_reason_as_required(client.get(url).text)
    refused = client.post(_url("engagement-revert", world, record.pk), {"reason": " "})
    assert said in refused.text
    record.refresh_from_db()
    assert record.state == Engagement.State.APPLIED


def test_a_revert_sent_twice_says_it_is_undone_already_and_changes_nothing_more(client, world):
    # The first revert changed the units again: the second must not blame them (it said "units
    # it changed have changed again since … has been corrected since").
    login(client, world, "gm")
    battle = world.table_battle
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    first = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    assert first.status_code == 302
    entries = HistoryEntry.objects.count()
    again = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    assert again.status_code == 400
    assert f"{battle.name}&#x27;s outcome is undone already; it may be applied again." in again.text
    assert "cannot be reverted as the units stand now" not in again.text
    assert HistoryEntry.objects.count() == entries
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.REVERTED


def test_an_engagements_revert_sent_twice_reverts_once_and_says_so_again(client, world):
    # The revert form is drawn only for an applied engagement: the second sending could not show
    # a refusal on it. Its one-time key takes it where the first went, saying what it said.
    login(client, world, "gm")
    record, _ = _engagement(world)
    page = client.get(_url("engagement", world, record.pk)).text
    key = re.search(r'id="revert-form".*?name="request_key" value="([^"]+)"', page, re.S)[1]
    data = {"reason": "wrong dice", "request_key": key}
    first = client.post(_url("engagement-revert", world, record.pk), data, follow=True)
    entries = HistoryEntry.objects.count()
    again = client.post(_url("engagement-revert", world, record.pk), data, follow=True)
    assert again.redirect_chain == first.redirect_chain
    said = [str(m) for m in again.context["messages"]]
    assert said and said == [str(m) for m in first.context["messages"]]
    assert HistoryEntry.objects.count() == entries
    record.refresh_from_db()
    assert record.state == Engagement.State.REVERTED


def _another_count(unit) -> int:
    """Experience points other than the unit's, short of its next step, as a correction takes
    them."""
    return (unit.experience + 1) % threshold(unit.state.quality)


def test_a_revert_refused_for_a_unit_with_several_entries_says_so_once(client, world):
    # Each of a unit's entries that touched what changed since refuses the revert; the page
    # said so once per entry ("Squad 1 has changed since: undo that first" twice).
    gm = world.users["gm"]
    login(client, world, "gm")
    record, ours = _engagement(world)
    entries = HistoryEntry.objects.filter(pk__in=record.applied_entries, unit=ours)
    # One entry counts the battle, another the experience: a correction of both since.
    assert {"battles_fought", "experience"} <= {f for e in entries for f in e.after}
    unit = Unit.objects.get(pk=ours.pk)
    changes = {"battles_fought": unit.battles_fought + 1, "experience": _another_count(unit)}
    unit_edit(unit=unit, changes=changes, reason="drill", actor=gm)
    assert entries.count() > 1
    refused = client.post(_url("engagement-revert", world, record.pk), {"reason": "wrong dice"})
    assert refused.status_code == 400
    said = f"{unit.name} ({unit.force.name}) has changed since: GM correction on day"
    assert refused.text.count(said) == 1 and "drill" in refused.text


def test_an_engagement_that_cannot_be_reverted_says_what_changed_since_up_front(client, world):
    # "Iron Wolf has changed since: undo that first" did not say what changed, nor how to put it
    # right: the GM at the table had to go through the unit's history to find out. The page
    # says it as a battle's does, before any button, and offers no Revert to be refused.
    gm = world.users["gm"]
    login(client, world, "gm")
    record, ours = _engagement(world)
    unit = Unit.objects.get(pk=ours.pk)
    unit_edit(unit=unit, changes={"experience": _another_count(unit)}, reason="drill", actor=gm)
    page = html.unescape(client.get(_url("engagement", world, record.pk)).text)
    said = (
        f"{unit.name} ({unit.force.name}) has changed since: GM correction on day "
        f"{world.campaign.day} — GM correction: drill. Undo it on {possessive(unit.name)} page "
        "or correct the unit, then revert this engagement."
    )
    assert said in page
    assert 'action="' + _url("engagement-revert", world, record.pk) + '"' not in page


def test_a_revert_blocked_by_the_medics_says_to_undo_them_on_the_units_page(client, world):
    """The medics' work is the unit's latest change: its own Undo takes it back, or a correction
    does. Once the clock has given it a day of R&R, which does not go back, only a correction."""
    gm = world.users["gm"]
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    ours = unit_create(force=world.force, unit_type=card, name="MG Nest")
    theirs = unit_create(force=world.enemy, unit_type=card, name="Lucky")
    unit_create(force=world.force, unit_type=card, name="Doc Crew", specialties=["medical"])
    battle = campaign_battle_record(
        campaign=world.campaign, name="Last stand", winner="defenders", actor=gm,
        sides={"attackers": [ours], "defenders": [theirs]},
        outcomes={ours.pk: {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"},
                  theirs.pk: {"hits_lost": 0, "skill_lost": 0}},
    )  # fmt: skip
    login(client, world, "gm")
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    # Taken out, out of the combat zone, with a hit or more: the medics save a Casualty hit
    # of it if the battle dealt one, else heal a Morale hit.
    hurt = Unit.objects.get(pk=ours.pk)
    chosen = {"allocation": {ours.pk: 1}} if hurt.casualty_hits else {"morale": {ours.pk: 1}}
    (medical,) = medical_apply(force=world.force, actor=gm, **chosen)
    text = html.unescape(client.get(_url("battle-revert", world, battle.pk)).text)
    said = f"MG Nest (Red Company) has changed since: Medical on day {medical.day} — Medical crews"
    assert said in text
    assert "Undo it on MG Nest's page or correct the unit, then revert this battle." in text
    unit_edit(unit=Unit.objects.get(pk=ours.pk), changes={"morale_hits": 1}, reason="shelled",
              actor=gm)  # fmt: skip
    text = html.unescape(client.get(_url("battle-revert", world, battle.pk)).text)
    assert "GM correction: shelled. Undo them on MG Nest's page, newest first, or correct " in text
    calendar_advance(campaign=world.campaign, actor=gm)
    text = html.unescape(client.get(_url("battle-revert", world, battle.pk)).text)
    assert "cannot be undone: correct the unit, then revert this battle." in text
    assert "Undo" not in text


def test_a_revert_blocked_by_an_engagement_says_to_revert_the_engagement(client, world):
    login(client, world, "gm")
    battle = world.table_battle
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    battle.refresh_from_db()
    sides = _applied_sides(world, battle)
    record = engagement_run(campaign=world.campaign, seed=1, actor=world.users["gm"], sides=sides)
    text = client.get(_url("battle-revert", world, battle.pk)).text
    assert "has changed since: Engagement on day" in text
    assert f"Revert {record.name} or correct the unit, then revert this battle." in text
    assert "cannot be undone" not in text


def test_a_revert_refusal_names_what_changed_since_without_brackets_in_brackets():
    """What changed a unit since is told after a dash: its reason may hold brackets of its own
    ("a day of R&R (a day)"), which a bracket around it would nest."""
    from types import SimpleNamespace

    from campaign.pages.reverts import revert_blocked_lines

    unit = SimpleNamespace(name="Sappers", force=SimpleNamespace(name="Blue Battalion"))
    rest = HistoryEntry(pk=7, kind="recovery", day=3, text="a day of R&R (a day)", after={})
    (line,) = revert_blocked_lines([(unit, [rest])], {}, "engagement")
    assert line == (
        "Sappers (Blue Battalion) has changed since: R&R on day 3 — a day of R&R (a day). That "
        "cannot be undone: correct the unit, then revert this engagement."
    )


def test_an_engagements_revert_says_by_name_which_units_are_as_they_were(client, world):
    # It said "Engagement reverted.": not which one, nor what it gave back.
    login(client, world, "gm")
    record, ours = _engagement(world)
    theirs = Unit.objects.filter(force=world.enemy).first()
    done = client.post(
        _url("engagement-revert", world, record.pk), {"reason": "wrong dice"}, follow=True
    )
    said = [str(m) for m in done.context["messages"]]
    name = record.name[:1].upper() + record.name[1:]
    assert said == [
        f"{name} is reverted: {ours.name} and {theirs.name} are as they were before it."
    ]


def test_a_reverted_engagements_page_says_what_happened_and_what_the_gm_may_do(client, world):
    # It showed only "reverted" in the line under its name: not who reverted it, when or why,
    # what its units are back to, nor that it is not applied again.
    from campaign.models import Campaign

    login(client, world, "gm")
    record, ours = _engagement(world)
    theirs = Unit.objects.filter(force=world.enemy).first()
    client.post(_url("engagement-revert", world, record.pk), {"reason": "wrong dice"})
    page = client.get(_url("engagement", world, record.pk)).text
    name = record.name[:1].upper() + record.name[1:]
    said = html.unescape(re.sub(r"<[^>]+>", "", page.split('id="reverted"', 1)[1]))
    said = " ".join(said.split())
    assert (
        f"{name} is reverted: {ours.name} and {theirs.name} are as they were before it. "
        f"Reverted by gm on day {world.campaign.day} (in real time, "
    ) in said
    assert "), giving as the reason “wrong dice”. The log below is kept as it was fought" in said
    assert "; it counts for no unit now. What the revert gave back:" in said
    assert "A reverted engagement is not applied again. To fight it again, fight a new " in said
    assert _url("engagement-setup", world) in page
    assert 'id="revert-form"' not in page
    # A player reads what happened to the units they see in full; the next step is the GM's.
    Campaign.objects.filter(pk=world.campaign.pk).update(
        other_forces_visible=Campaign.Visibility.SUMMARY
    )
    login(client, world, "player")
    page = client.get(_url("engagement", world, record.pk)).text
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert f"{name} is reverted: {ours.name} is as it was before it. Reverted by gm" in said
    assert "1 unit of forces you see only in summary is left out." in said
    assert "fight a new engagement" not in said


def _review_said(page: str) -> str:
    """A battle's outcome section (``#review``) as its reader reads it, tags taken out."""
    section = page.split('id="review"', 1)[1].split("</section>", 1)[0]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", section.split(">", 1)[1])).split())


def test_a_reverted_battles_page_says_what_happened_and_what_the_gm_may_do(client, world):
    # It said "The outcome was reverted; it may be applied again", and to the others "The GM
    # reverted the outcome": not who reverted it, when or why, nor which units are back.
    from campaign.models import Campaign

    battle = world.engine_battle
    applied = HistoryEntry.objects.filter(pk__in=battle.applied_entries).order_by("pk")
    forces = {e.unit.name: e.unit.force_id for e in applied.select_related("unit")}
    lined_up = list(forces)
    ours = [n for n in lined_up if forces[n] == world.force.pk]
    assert ours and len(ours) < len(lined_up)
    login(client, world, "gm")
    client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    url = _url("battle", world, battle.pk)
    page = client.get(url).text
    said = _review_said(page)
    outcome = f"{possessive(battle.name)} outcome is undone"
    all_back = " and ".join(filter(None, (", ".join(lined_up[:-1]), lined_up[-1])))
    assert said.startswith(
        f"Review {outcome}: {all_back} are as they were before it. "
        f"Reverted by gm on day {world.campaign.day} (in real time, "
    )
    assert "), giving as the reason “wrong map”. The outcome counts for no unit until it " in said
    assert "is applied again. What the revert gave back:" in said
    assert "The outcome may be applied again: applying it writes each unit" in said
    assert said.endswith("Review and apply the outcome again")
    assert f'href="{_url("battle-apply", world, battle.pk)}"' in page
    assert _url("battle-revert", world, battle.pk) not in page
    # A player reads what happened to the units they see in full, those of the others unnamed;
    # a spectator, seeing every force in summary, reads who reverted it, when and why.
    Campaign.objects.filter(pk=world.campaign.pk).update(
        other_forces_visible=Campaign.Visibility.SUMMARY
    )
    theirs = len(lined_up) - len(ours)
    login(client, world, "player")
    said = _review_said(client.get(url).text)
    mine = " and ".join(ours)
    stand = "is as it was" if len(ours) == 1 else "are as they were"
    assert said.startswith(
        f"What it did to the units {outcome}: {mine} {stand} before it. Reverted by gm on day"
    )
    assert "giving as the reason “wrong map”" in said and "What the revert gave back:" in said
    left = "1 unit" if theirs == 1 else f"{theirs} units"
    left += f" of forces you see only in summary {'is' if theirs == 1 else 'are'} left out."
    assert left in said
    assert not [n for n in lined_up if n not in ours and n in said]
    assert "Review and apply" not in said
    login(client, world, "spectator")
    said = _review_said(client.get(url).text)
    assert said == (
        f"What it did to the units {outcome}. Reverted by gm on day {world.campaign.day} "
        f"(in real time, {said.split('(in real time, ', 1)[1].split(')', 1)[0]}), giving as the "
        "reason “wrong map”. The outcome counts for no unit until it is applied again. What the "
        f"revert gave back to its {len(lined_up)} units is not shown: the GM shows spectators "
        "every force in summary only."
    )


def test_a_reverted_table_battle_tells_apart_two_units_of_one_name(client, world):
    # A unit on each side called the same: the sentence said "Reserve 1 is as it was before
    # it" of the two.
    battle = world.table_battle
    first, second = Unit.objects.filter(pk__in=[pks[0] for pks in battle.sides.values()])
    Unit.objects.filter(pk=second.pk).update(name=first.name)
    login(client, world, "gm")
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong table"})
    said = _review_said(client.get(_url("battle", world, battle.pk)).text)
    battle.refresh_from_db()
    lined_up = [
        f"{e.unit.name} ({e.unit.force.name})"
        for e in HistoryEntry.objects.filter(pk__in=battle.applied_entries).order_by("pk")
    ]
    both = " and ".join(dict.fromkeys(lined_up))
    assert (
        f"{possessive(battle.name)} outcome is undone: {both} are as they were before it." in said
    )


def test_a_revert_refusal_leads_to_the_page_of_each_unit_it_names(client, world):
    # "Undo it on Iron Wolf's page" named a page and gave no way there: the GM went looking
    # for the unit through the force's roster or the unit search. Each unit's line now ends
    # with a link to its page, on a battle's refusal and on an engagement's alike.
    gm = world.users["gm"]
    login(client, world, "gm")
    battle = world.table_battle
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    battle.refresh_from_db()
    entries = HistoryEntry.objects.filter(pk__in=battle.applied_entries)
    unit = next(e.unit for e in entries if "in_combat_zone" in e.after)
    unit_edit(unit=unit, changes={"in_combat_zone": False}, reason="a sniper", actor=gm)
    back = f"?next={quote(_url('battle-revert', world, battle.pk), safe='')}"  # once undone
    link = f'<a href="{_url("unit", world, unit.pk)}{back}">Go to {possessive(unit.name)} page</a>'
    page = html.unescape(client.get(_url("battle-revert", world, battle.pk)).text)
    assert "has changed since" in page and page.count(link) == 1

    record, ours = _engagement(world)
    ours = Unit.objects.get(pk=ours.pk)
    unit_edit(unit=ours, changes={"experience": _another_count(ours)}, reason="drill", actor=gm)
    back = f"?next={quote(_url('engagement', world, record.pk), safe='')}"
    link = f'<a href="{_url("unit", world, ours.pk)}{back}">Go to {possessive(ours.name)} page</a>'
    page = html.unescape(client.get(_url("engagement", world, record.pk)).text)
    assert "has changed since" in page and page.count(link) == 1


def test_a_reverted_table_battle_offers_to_enter_its_result_again(client, world):
    # Reverted because its losses were entered wrongly, a table battle offered only to apply
    # them again, which gives the same hits: the GM was left to find the form that records a
    # table result. Its page says so and leads there; an engine battle's, which the engine
    # fought, does not.
    login(client, world, "gm")
    record = f'<a href="{_url("battle-record", world)}">enter the table result again</a>'
    battle = world.table_battle
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    assert record not in client.get(_url("battle", world, battle.pk)).text
    client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong losses"})
    said = _review_said(client.get(_url("battle", world, battle.pk)).text)
    assert said.endswith(
        "Were the losses entered wrongly? Applied again, they give the same hits: enter the "
        "table result again, as a battle of its own, and leave this one reverted."
    )
    assert record in client.get(_url("battle", world, battle.pk)).text
    engine = world.engine_battle
    client.post(_url("battle-revert", world, engine.pk), {"reason": "wrong map"})
    page = client.get(_url("battle", world, engine.pk)).text
    assert "outcome is undone" in page and record not in page


def test_an_undo_done_from_a_refused_revert_brings_the_gm_back_to_the_revert(client, world):
    """The refusal sends the GM to the unit's page to undo its change: once undone, the GM is
    back at the battle's revert, not left on the unit's page to find the battle again."""
    login(client, world, "gm")
    battle = world.table_battle
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    battle.refresh_from_db()
    entries = HistoryEntry.objects.filter(pk__in=battle.applied_entries)
    unit = next(e.unit for e in entries if "in_combat_zone" in e.after)
    unit_edit(unit=unit, changes={"in_combat_zone": False}, reason="a sniper",
              actor=world.users["gm"])  # fmt: skip
    revert = _url("battle-revert", world, battle.pk)
    refused = client.get(revert).text
    to_unit = f"{_url('unit', world, unit.pk)}?next={quote(revert, safe='')}"
    assert f'<a href="{to_unit}">Go to' in refused
    page = client.get(to_unit).text
    correction = unit.history.latest("pk")
    undo = _url("unit-undo", world, unit.pk, correction.pk)
    assert f'href="{undo}?next={quote(revert, safe="")}"' in page
    confirm = client.get(f"{undo}?next={revert}").text
    assert f'<input type="hidden" name="next" value="{revert}">' in confirm
    # A next that leads off the campaign is not followed.
    assert 'name="next"' not in client.get(f"{undo}?next=https://example.com/").text
    elsewhere = client.get(f"{_url('unit', world, unit.pk)}?next=//example.com/").text
    assert f'href="{undo}"' in elsewhere and "example.com" not in elsewhere
    done = client.post(undo, {"confirm": "yes", "reason": "no sniper", "next": revert})
    assert done.status_code == 302 and done["Location"] == revert
    assert "Revert these changes" in client.get(revert).text


def test_an_engagements_revert_tells_each_unit_in_the_words_it_then_writes_before_the_rounds(
    client, world
):
    """The engagement's page offers its Revert before its rounds, saying what it gives back in
    the sentences a battle's revert review uses (`reverts.revert_review`): each unit's line is
    the one its history then keeps, but for the reason still to be given."""
    login(client, world, "gm")
    record, _ = _engagement(world)
    page = client.get(_url("engagement", world, record.pk))
    text = page.text
    assert 'href="#revert"' in text
    assert text.index('id="revert-form"') < text.index('id="log"')
    assert "What the revert gives back" in text
    told = {c.unit.pk: c.lines for c in page.context["revert_changes"]}
    assert told and all(told.values())
    assert all(" is undone" in line for lines in told.values() for line in lines)
    done = client.post(_url("engagement-revert", world, record.pk), {"reason": "wrong dice"})
    assert done.status_code == 302
    page = client.get(_url("engagement", world, record.pk))
    assert "What the revert gave back" in page.text and 'id="revert"' not in page.text
    written = {c.unit.pk: c.lines for c in page.context["changes"]}
    assert written == {
        pk: tuple(f"Wrong dice: {line[0].lower()}{line[1:]}" for line in lines)
        for pk, lines in told.items()
    }


def test_a_revert_held_up_by_an_engagement_held_up_in_turn_says_the_whole_chain(client, world):
    """The battle's revert waits on an engagement's, which waits on a correction of one of its
    units since: the page says the whole way, newest first, each step by what, which unit and
    which day, not "Revert the engagement" alone, to be refused there in turn. A unit's Undo
    held up by that engagement says it the same way."""
    gm = world.users["gm"]
    login(client, world, "gm")
    battle = world.table_battle
    first = Unit.objects.get(pk=battle.sides["attackers"][0])
    fixed = unit_edit(unit=first, changes={"experience": _another_count(first)},
                      reason="checked again", actor=gm)  # fmt: skip
    client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    battle.refresh_from_db()
    sides = _applied_sides(world, battle)
    ours = Unit.objects.get(pk=sides["attackers"][0].pk)
    # Between the two fights, a change of the unit's own: its Undo is on the way too.
    mid = unit_edit(unit=ours, changes={"experience": _another_count(ours)}, reason="a sniper",
                    actor=gm)  # fmt: skip
    record = engagement_run(campaign=world.campaign, seed=1, actor=gm, sides=sides)
    ours = Unit.objects.get(pk=ours.pk)
    edit = unit_edit(unit=ours, changes={"battles_fought": ours.battles_fought + 1},
                     reason="a raid", actor=gm)  # fmt: skip
    name = record.name[:1].upper() + record.name[1:]
    undo = f"undo the GM's correction of day {edit.day} on {possessive(ours.name)} page"
    chain = (
        f"{name} cannot be reverted yet either: in order, newest first, {undo}, then revert "
        f"{record.name}, of day {record.day}"
    )
    text = html.unescape(client.get(_url("battle-revert", world, battle.pk)).text)
    assert f"{chain}, then revert this battle." in text
    mine = f"undo the GM's correction of day {mid.day} on {possessive(ours.name)} page"
    assert f"{chain}, then {mine}, then revert this battle." in text
    # The way back is said once, in order: not first a Revert that would be refused.
    assert f"Revert {record.name} or correct the unit" not in text
    assert (
        f"{chain}, then revert this battle. Or correct the unit, then revert this battle." in text
    )
    assert fixed is not None and fixed.unit_id == ours.pk
    page = client.get(_url("unit-undo", world, ours.pk, fixed.pk), follow=True)
    assert (
        f"{name} and {battle.name} cannot be reverted yet either: in order, newest first, {undo}, "
        f"then revert {record.name}, of day {record.day}, then {mine}, then revert {battle.name}, "
        f"of day {battle.day}, then undo this one."
    ) in html.unescape(page.text)
    # Straight after what changed it since: not first the Undos and Reverts, then again.
    assert (
        f"GM correction: a raid. {name} and {battle.name} cannot be reverted yet either"
        in html.unescape(page.text)
    )


def _applied_sides(world, battle):
    """The units of each side a battle's applied outcome changed, as an engagement takes them."""
    return {
        side: [e.unit for e in HistoryEntry.objects.filter(pk__in=battle.applied_entries,
                                                          kind="battle", unit__force=force)]
        for side, force in (("attackers", world.force), ("defenders", world.enemy))
    }  # fmt: skip
