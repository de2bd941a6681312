"""The checks page in a real browser: the unit chosen to make a check, or to lead a contest's
side, is not offered as helping itself. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import pytest

from campaign.models import Unit
from tests.web.browser import expect, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def squads(browser_world):
    """Two ready units, read before Playwright starts (see ``cast`` in tests/web/browser.py)."""
    ready = Unit.objects.filter(force__campaign=browser_world.campaign, status="ready")
    return list(ready.order_by("pk")[:2])


def test_the_unit_making_a_check_is_not_offered_as_its_own_helper(
    browser_world, squads, page_for, live_server
):
    squad, second = squads
    page = page_for("gm")
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/checks/")

    def box(form: str, field: str, unit) -> object:
        return page.locator(f"#{form} input[name={field}][value='{unit.pk}']")

    expect(box("skill-form", "helpers", squad)).to_be_visible()
    box("skill-form", "helpers", squad).check()
    page.select_option("#skill-form select[name=lead]", str(squad.pk))
    # Chosen to make the check, it is no longer offered to help it, nor left ticked.
    expect(box("skill-form", "helpers", squad)).to_be_hidden()
    expect(box("skill-form", "helpers", squad)).not_to_be_checked()
    expect(box("skill-form", "helpers", second)).to_be_visible()
    page.select_option("#skill-form select[name=lead]", str(second.pk))
    expect(box("skill-form", "helpers", squad)).to_be_visible()
    expect(box("skill-form", "helpers", second)).to_be_hidden()
    # A contest's sides: each leading unit is left out of its own side's helpers only.
    page.select_option("#contest-form select[name=active]", str(squad.pk))
    expect(box("contest-form", "active_helpers", squad)).to_be_hidden()
    expect(box("contest-form", "active_helpers", second)).to_be_visible()
    expect(box("contest-form", "resisting_helpers", squad)).to_be_visible()
    page.select_option("#contest-form select[name=resisting]", str(second.pk))
    expect(box("contest-form", "resisting_helpers", second)).to_be_hidden()
    expect(box("contest-form", "active_helpers", second)).to_be_visible()
    shoot(page, "check-helpers", full_page=True)
    expect(page.locator("#rolls li")).to_have_text(["No rolls yet."])
    assert not page.errors, page.errors
