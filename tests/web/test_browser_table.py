"""The table's pages in a real browser: a GM creates a character and puts it at the head of a unit,
heals one, gives an Order and watches it finish on the clock, fights an engagement many against
many and reads its log (as does a player), reverts it, makes a skill check and a contest, raises
a unit by Requisition, sees an Order under way go into a Team Bravo battle's set-up, and
quick-resolves one unit against another into an engagement's log. Each flow also meets bad input
and shows its error, with nothing written (the page's tables are unchanged). Screenshots go to
test-artifacts/browser/ (``table-*``).
"""

from __future__ import annotations

import re

import pytest

from campaign.models import Character
from campaign.services import campaign_create, force_create, membership_set, unit_create
from campaign.services.characters import character_create
from tests.web.browser import PASSWORD, expect, shoot
from units.models import UnitType
from units.services import library_load

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cast(django_user_model):
    """Replaces test_browser's cast: this test's users and campaign, all made before
    Playwright starts (see the note on ``cast`` in tests/web/browser.py)."""
    users = {
        n: django_user_model.objects.create_user(n, password=PASSWORD)
        for n in ("gm", "alice", "bob")
    }
    library_load()
    campaign = campaign_create(name="Operation Anvil", gm=users["gm"], ruleset="combined_arms")
    for name in ("alice", "bob"):
        membership_set(campaign=campaign, user=users[name], role="player")
    card = UnitType.objects.get(name="Rifle Squad", ruleset="combined_arms")
    lantern = force_create(campaign=campaign, owner=users["alice"], name="Lantern Company")
    night = force_create(campaign=campaign, owner=users["bob"], name="Night Battalion")
    for force, name, specialties in (
        (lantern, "1st Squad", ["infantry"]),
        (lantern, "2nd Squad", ["infantry"]),
        (lantern, "Medics", ["infantry", "medical"]),
        (night, "Ghost Squad", ["infantry"]),
    ):
        unit_create(force=force, unit_type=card, name=name, specialties=specialties)
    rook = character_create(campaign=campaign, name="Sgt. Rook", hit_points=10)
    Character.objects.filter(pk=rook.pk).update(hit_points=4)  # wounded at the d20 table
    return campaign


def _submit(page, form: str) -> None:
    page.click(f"{form} button[type=submit]")


def _attack_refused_then_given(page, giver: str, unit: str, nothing_yet: str = "") -> None:
    """On the Orders page: an Attack with a skill's own hours is refused beside its field
    (with ``nothing_yet``, the list still says so), then sent again without them."""
    page.select_option("#order-form select[name=giver]", label=giver)
    page.select_option("#order-form select[name=unit]", label=unit)
    page.select_option("#order-form select[name=kind]", "attack")
    page.fill("#order-form input[name=listed_hours]", "5")
    _submit(page, "#order-form")
    page.wait_for_selector("#order-form .field-errors")
    assert "leave the hours empty, or choose Use Skill" in _errors(page, "#order-form")
    if nothing_yet:
        assert page.locator("#orders tbody tr").all_inner_texts() == [nothing_yet]
    page.fill("#order-form input[name=listed_hours]", "")
    _submit(page, "#order-form")


def _errors(page, form: str) -> str:
    """The form's errors, after a refusal: the form swapped in place under htmx (waited for
    here), or without it the page came back as a 400, which the browser notes in its console
    (and nothing else may be there)."""
    page.locator(f"{form} .form-errors, {form} .field-errors").first.wait_for()
    texts = " ".join(page.locator(f"{form} .form-errors, {form} .field-errors").all_inner_texts())
    note = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert all(error == note for error in page.errors), page.errors
    page.errors.clear()
    return texts


def test_the_table_from_characters_to_requisition(cast, page_for, live_server):
    gm = page_for("gm")
    gm.click("text=Operation Anvil")
    dashboard = gm.url

    # Characters: create one, refuse a second of the same name, put it at the head of a unit.
    gm.click(".table-links >> text=Characters")
    for attempt in range(2):
        gm.fill("#character-form input[name=name]", "Capt. Holt")
        gm.fill("#character-form input[name=hit_points]", "14")
        gm.check("#character-form input[value=leadership]")
        gm.check("#character-form input[value=strategist]")
        gm.select_option("#character-form select[name=player]", "alice")
        _submit(gm, "#character-form")
        if attempt == 0:
            gm.wait_for_selector("text=Capt. Holt is a character of the campaign.")
    assert "already has a character called “Capt. Holt”; choose another name" in _errors(
        gm, "#character-form"
    )
    gm.goto(gm.url.split("characters")[0] + "characters/")
    assert gm.locator("#characters tbody tr").count() == 2
    gm.select_option("#join-form select[name=character]", label="Capt. Holt")
    gm.select_option("#join-form select[name=unit]", label="1st Squad (Lantern Company)")
    _submit(gm, "#join-form")
    gm.wait_for_selector("text=Capt. Holt leads 1st Squad.")
    expect(gm.locator("#characters tr:has-text('Capt. Holt')")).to_contain_text("1st Squad")
    expect(gm.locator("#characters tr:has-text('Capt. Holt')")).to_contain_text(
        "Leadership, Strategist"
    )

    # Healing: a character at full hit points is refused; a wounded one healed, never above full.
    gm.select_option("#heal-form select[name=character]", label="Capt. Holt (14 of 14 hit points)")
    gm.fill("#heal-form input[name=hit_points]", "3")
    _submit(gm, "#heal-form")
    gm.wait_for_selector("#heal-form .field-errors")
    assert "Capt. Holt is at full hit points already (14)" in _errors(gm, "#heal-form")
    expect(gm.locator("#character-entries")).to_have_text("Nobody healed yet.")
    gm.select_option("#heal-form select[name=character]", label="Sgt. Rook (4 of 10 hit points)")
    gm.fill("#heal-form input[name=hit_points]", "9")
    gm.fill("#heal-form input[name=reason]", "rests a night")
    _submit(gm, "#heal-form")
    lost = " (full: it lacked 6, so 3 of the 9 healed were lost)"
    gm.wait_for_selector(f"text=Sgt. Rook rests a night: hit points 4 → 10 of 10{lost}.")
    expect(gm.locator("#characters tr:has-text('Sgt. Rook') td.num")).to_have_text(
        "10 of 10 hit points"
    )
    expect(gm.locator("#character-entries li")).to_have_text(
        f"Day 1, 00:00: Sgt. Rook rests a night: hit points 4 → 10 of 10{lost}."
    )
    shoot(gm, "table-01-characters", full_page=True)

    # The player sees the character as theirs.
    alice = page_for("alice")
    alice.goto(gm.url)
    expect(alice.locator("#characters tr:has-text('Capt. Holt') .badge")).to_have_text("yours")
    assert alice.locator("#character-form").count() == 0

    # Orders and the clock: a bad Order is refused, a good one finishes on the clock.
    gm.click(".meta >> text=Orders and the clock")
    _attack_refused_then_given(
        gm, "Capt. Holt (alice's: orders Lantern Company)", "2nd Squad (Lantern Company)"
    )
    # Its hours with how they were reckoned (the rules' test reads the working itself).
    gm.wait_for_selector(
        r"text=/Capt\. Holt ordered 2nd Squad to Attack: 1 h \(.+\), done at day 1, 01:00\./"
    )
    assert gm.locator("#orders tbody tr").count() == 1
    expect(gm.locator("#orders .order-state")).to_have_text("Under way, done at day 1, 01:00")
    gm.fill("#clock-form input[name=hours]", "1")
    _submit(gm, "#clock-form")
    # The calendar's review first: what the hour does to the units, then the summary.
    gm.click("text=Move on to day 1, 01:00")
    expect(gm.locator("h1")).to_have_text("It is now day 1, 01:00")
    expect(gm.locator(".lede")).to_contain_text(
        "Orders done: 2nd Squad (Attack, given by Capt. Holt)."
    )
    gm.click("text=Back to Orders and the clock")
    expect(gm.locator("#orders .order-state")).to_have_text("Done at day 1, 01:00")
    expect(gm.locator("#clock")).to_have_text("day 1, 01:00")
    shoot(gm, "table-02-orders", full_page=True)

    # An engagement: nobody on a side is refused; then two against one, read round by round.
    gm.click(".meta >> text=Engagements")
    gm.fill("#engagement-form input[name=seed]", "7")
    _submit(gm, "#engagement-form")
    gm.wait_for_selector("#engagement-form .form-errors")
    assert "The attackers need at least one unit" in _errors(gm, "#engagement-form")
    assert gm.locator("#engagements li").all_inner_texts() == ["No engagement fought yet."]
    for name, side in (("1st Squad", "attackers"), ("2nd Squad", "attackers"),
                       ("Ghost Squad", "defenders")):  # fmt: skip
        row = gm.locator(f"#engagement-form tr:has-text('{name}')")
        row.locator("select").select_option(side)
    gm.locator("#engagement-form tr:has-text('Ghost Squad') input[name^=dug_in]").check()
    gm.fill("#engagement-form input[name=seed]", "7")
    gm.fill("#engagement-form input[name=name]", "Mill ford")
    _submit(gm, "#engagement-form")
    gm.wait_for_url(re.compile(r"/engagements/\d+/$"))
    engagement = gm.url
    expect(gm.locator("h1")).to_have_text("Mill ford")
    log = gm.inner_text("#log")
    assert "Round 1" in log and "Dug In: +2" in log and "Outnumbered 2 to 1: \u22122" in log
    assert "Average quality, assisting its leader (Capt. Holt): +3" in log
    assert "Leadership, Strategist" in log
    shoot(gm, "table-03-engagement", full_page=True)
    alice.goto(engagement)
    assert alice.inner_text("#log") == log  # the campaign's members read the same log
    assert alice.locator("#revert-form").count() == 0
    gm.fill("#revert-form input[name=reason]", "the GM rules it a feint")
    _submit(gm, "#revert-form")
    gm.wait_for_selector(".messages >> text=is reverted:")
    expect(gm.locator(".meta .status")).to_have_text("reverted")

    # Checks: a skill check, a contest refused against itself, then a Requisition.
    gm.click(".meta >> text=Checks and Requisition")
    gm.select_option("#skill-form select[name=lead]", label="Medics (Lantern Company)")
    gm.select_option("#skill-form select[name=skill]", "medical")
    gm.fill("#skill-form input[name=dc]", "10")
    gm.fill("#skill-form input[name=seed]", "3")
    _submit(gm, "#skill-form")
    gm.wait_for_selector("#rolls >> text=Medics: Medical check")
    gm.select_option("#contest-form select[name=active]", label="Ghost Squad (Night Battalion)")
    gm.select_option("#contest-form select[name=resisting]", label="Ghost Squad (Night Battalion)")
    _submit(gm, "#contest-form")
    gm.wait_for_selector("#contest-form .field-errors")
    said = (
        "Ghost Squad is on both sides: a unit cannot contest itself; choose a unit of another force"
    )
    assert said in _errors(gm, "#contest-form")
    assert gm.locator("#rolls li").count() == 1
    gm.select_option("#contest-form select[name=active]", label="1st Squad (Lantern Company)")
    gm.locator(
        "#contest-form label:has-text('2nd Squad (Lantern Company)') input[name=active_helpers]"
    ).check()
    gm.select_option("#contest-form select[name=active_skill]", "infantry")
    gm.select_option("#contest-form select[name=resisting_skill]", "infantry")
    gm.fill("#contest-form input[name=seed]", "5")
    _submit(gm, "#contest-form")
    gm.wait_for_selector("#rolls >> text=1st Squad (helped by 2nd Squad) (")
    expect(gm.locator("#rolls li").first).to_contain_text("Strength in numbers (2 units): +2")
    gm.select_option("#requisition-form select[name=force]", label="Lantern Company")
    # Each card is offered with the specialty it needs, as on its force's page.
    gm.select_option(
        "#requisition-form select[name=unit_type]", label="Rifle Squad (needs Infantry)"
    )
    gm.fill("#requisition-form input[name=name]", "1st Squad")
    gm.select_option("#requisition-form select[name=quality]", "green")
    gm.check("#requisition-form input[value=infantry]")
    gm.fill("#requisition-form input[name=bonus]", "20")
    _submit(gm, "#requisition-form")
    gm.wait_for_selector("#requisition-form .field-errors")
    assert "already has a unit called “1st Squad”; choose another name" in _errors(
        gm, "#requisition-form"
    )
    gm.fill("#requisition-form input[name=name]", "Levy")
    _submit(gm, "#requisition-form")
    gm.wait_for_selector("#rolls >> text=Requisition by the force for Green Rifle Squad “Levy”")
    expect(gm.locator("#rolls li").first).to_contain_text("raised")
    shoot(gm, "table-04-checks", full_page=True)
    gm.click(".messages a >> text=Levy")  # the message's link to the unit raised
    expect(gm.locator("h1")).to_contain_text("Levy")
    gm.goto(dashboard)
    gm.click("text=Lantern Company")
    gm.click("#roster >> text=Levy")
    expect(gm.locator("body")).to_contain_text("Raised in Lantern Company by Requisition")

    # The Order under way goes into the Team Bravo battle: the set-up says what it becomes.
    gm.goto(dashboard)
    gm.click(".table-links >> text=Orders and the clock")
    # An NPC of the GM's: alice's Capt. Holt orders no unit of bob's.
    gm.select_option("#order-form select[name=giver]", label="Sgt. Rook (NPC: orders any unit)")
    gm.select_option("#order-form select[name=unit]", label="Ghost Squad (Night Battalion)")
    gm.select_option("#order-form select[name=kind]", "use_skill")
    gm.fill("#order-form input[name=listed_hours]", "8")
    _submit(gm, "#order-form")
    gm.wait_for_selector("text=Sgt. Rook ordered Ghost Squad to Use Skill")
    gm.goto(dashboard)
    gm.click("text=Set up a battle")
    ghost = gm.locator("#setup-form tr:has-text('Ghost Squad')")
    expect(ghost.locator(".character-order")).to_have_text(
        "Order to Use Skill, given by Sgt. Rook: holds. The Order is under way until day 1, 08:00."
    )
    expect(ghost.locator(".character-order-kind")).to_have_text("Use Skill (Sgt. Rook)")
    assert ghost.locator("select[name^=order_]").count() == 0
    squad = gm.locator("#setup-form tr:has-text('2nd Squad')")  # its Attack is done
    expect(squad.locator("select[name^=order_] option")).to_contain_text(["No Order"])
    for size, (width, height) in {"wide": (1366, 900), "phone": (390, 844)}.items():
        gm.set_viewport_size({"width": width, "height": height})
        ghost.scroll_into_view_if_needed()
        shoot(gm, f"table-05-setup-order-{size}")

    # A quick resolve is a one-against-one engagement: the dashboard's form refuses two units of
    # one force, then leads to the engagement's round-by-round log.
    gm.set_viewport_size({"width": 1366, "height": 900})
    gm.goto(dashboard)
    gm.click("#quick-form-tool summary")
    gm.select_option("#quick-form select[name=attacker]", label="Levy (Lantern Company)")
    gm.select_option("#quick-form select[name=defender]", label="Medics (Lantern Company)")
    _submit(gm, "#quick-form")
    gm.wait_for_selector("#quick-form .field-errors")
    assert (
        "Lantern Company is on both sides: a force cannot fight itself; "
        "choose a unit of another force" in _errors(gm, "#quick-form")
    )
    gm.select_option("#quick-form select[name=defender]", label="Ghost Squad (Night Battalion)")
    gm.check("#quick-form input[name=defender_dug_in]")
    gm.fill("#quick-form input[name=seed]", "4")
    gm.fill("#quick-form input[name=reason]", "patrol at the well")
    _submit(gm, "#quick-form")
    gm.wait_for_url(re.compile(r"/engagements/\d+/$"))
    expect(gm.locator("h1")).to_have_text("Patrol at the well")  # its reason, capitalised
    quick_log = gm.inner_text("#log")
    assert "Round 1" in quick_log and "Dug In: +2" in quick_log
    expect(gm.locator("body")).to_contain_text("Ghost Squad (Average), Order: Use Skill")
    shoot(gm, "table-06-quick-resolve", full_page=True)
    assert not gm.errors, gm.errors
    assert not alice.errors, alice.errors


@pytest.fixture
def holt(cast):
    """Alice's character, made before Playwright starts."""
    return character_create(
        campaign=cast,
        name="Capt. Holt",
        hit_points=14,
        player=cast.forces.get(name="Lantern Company").owner,
    )


def test_a_player_gives_their_own_unit_an_order(cast, holt, page_for, live_server):
    # Alice gives an Order with her own character to a unit of her own force, and calls it off;
    # Bob, who has no character, is told who makes one. Neither may move the clock.
    alice = page_for("alice")
    alice.click("text=Operation Anvil")
    alice.click(".table-links >> text=Orders and the clock")
    expect(alice.locator("#give-h")).to_have_text("Your Orders")
    givers = alice.locator("#order-form select[name=giver] option").all_inner_texts()
    assert givers[1:] == ["Capt. Holt"]
    units = alice.locator("#order-form select[name=unit] option").all_inner_texts()
    assert units[1:] == [f"{n} (Lantern Company)" for n in ("1st Squad", "2nd Squad", "Medics")]
    _attack_refused_then_given(
        alice, "Capt. Holt", "1st Squad (Lantern Company)", nothing_yet="No Orders given yet."
    )
    alice.wait_for_selector("text=Capt. Holt ordered 1st Squad to Attack")
    expect(alice.locator("#orders tr:has-text('1st Squad') .order-state")).to_contain_text(
        "Under way"
    )
    assert alice.locator("#clock-form").count() == 0
    shoot(alice, "table-02b-player-orders", full_page=True)
    # Her character's Order, hers to call off.
    # Asked first, on the page; then called off.
    alice.click("#orders tr:has-text('1st Squad') a:has-text('Call off')")
    alice.click("button:has-text('Call it off')")
    alice.wait_for_selector("text=that Capt. Holt gave 1st Squad is called off at day 1, 00:00.")
    expect(alice.locator("#orders tr:has-text('1st Squad') .order-state")).to_have_text(
        "Called off at day 1, 00:00"
    )
    bob = page_for("bob")
    bob.goto(alice.url)
    expect(bob.locator("#no-givers")).to_contain_text("you have no living character")
    assert bob.locator("#clock-form").count() == 0
