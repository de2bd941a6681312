"""What an action did ("Done: …"), said at the top of the page it goes back to, is heard as
well as seen: the message is there as the page loads, which a live region never says, so it
takes the keyboard's focus (bridgehead/messages.js), on every page, htmx or not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
SCRIPT = Path(settings.BASE_DIR) / "campaign" / "static" / "bridgehead" / "messages.js"


def _invite(client, world, **headers):
    url = reverse("campaign:invite", args=[world.campaign.pk])
    return client.post(url, {"invitee": "outsider", "role": "player"}, **headers)


def test_the_message_after_an_action_takes_the_focus_as_the_page_loads(client, world):
    login(client, world, "gm")
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        answer = _invite(client, world, **headers)
        back = answer["HX-Redirect"] if headers else answer["Location"]
        page = client.get(back).text
        said = re.search(r'<div class="messages"([^>]*)>\s*<p class="notice', page)
        assert said, headers
        # Focusable by script, not a stop for Tab; and still a live region.
        assert 'tabindex="-1"' in said[1] and 'role="status"' in said[1]
        assert re.search(r'<script src="[^"]*bridgehead/messages\.js" defer>', page)
    script = SCRIPT.read_text()
    assert 'querySelector(".messages[tabindex]")' in script and ".focus(" in script
    assert "http" not in script  # nothing fetched from elsewhere


def test_every_page_says_its_messages_with_the_one_template():
    showing = [
        str(p.relative_to(TEMPLATES))
        for p in TEMPLATES.rglob("*.html")
        if re.search(r"{% for \w+ in messages %}", p.read_text())
    ]
    assert showing == ["campaign/_messages.html"]
    base = (TEMPLATES / "base.html").read_text()
    assert "bridgehead/messages.js" in base  # the script, on every page
