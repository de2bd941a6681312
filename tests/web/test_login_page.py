"""The login page as a screen reader hears it: a refused login is said where the reader is.

The page puts the keyboard in the username field; a wrong name or password belongs to neither
field alone, so the refusal is an alert above the form and describes both fields, which are
marked invalid: a reader landing in the field hears why the login was refused.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("player", password=PASSWORD)


def _field(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)


def test_it_says_a_refused_login_in_the_fields_a_reader_is_in(client, player):
    page = client.post(reverse("login"), {"username": "player", "password": "wrong"}).text
    alert = re.search(r'<div id="(?P<id>[^"]+)">\s*<div class="form-errors" role="alert">', page)
    assert alert, "the refusal is an alert, in a box the fields can point to"
    assert (
        "No account has that username and password (capitals count in both)." in page[alert.end() :]
    )
    assert "Please enter a correct" not in page
    for name in ("username", "password"):
        field = _field(page, name)
        assert 'aria-invalid="true"' in field
        assert f'aria-describedby="{alert["id"]}"' in field
    assert "autofocus" in _field(page, "username")


def test_it_marks_nothing_before_a_login_is_tried(client, player):
    page = client.get(reverse("login")).text
    assert 'role="alert"' not in page
    for name in ("username", "password"):
        assert "aria-invalid" not in _field(page, name)
        assert "aria-describedby" not in _field(page, name)


def test_a_field_left_empty_is_named_by_its_label_as_on_every_form(client, player):
    """The login form says what every other form says of a field left empty
    (`battles.forms.required_message`), never Django's "This field is required."."""
    page = client.post(reverse("login"), {"username": "", "password": ""}).text
    assert "This field is required" not in page
    assert "Fill in \u201cUsername\u201d." in page
    assert "Fill in \u201cPassword\u201d." in page


def test_a_visitor_sent_to_log_in_from_a_page_is_told_why(client, player):
    """A logged-out reader following a link to a campaign's battle meets the login form with a
    sentence saying why it is there, and how a newcomer gets an account."""
    response = client.get("/campaigns/1/battles/2/", follow=True)
    assert response.redirect_chain and response.redirect_chain[-1][0].startswith(reverse("login"))
    page = html.unescape(response.content.decode())
    assert "That page is for those with an account: log in to see it." in page
    assert "the invitation's link your GM sends you" in page
    # The login page opened on its own has nothing to explain.
    assert "log in to see it" not in client.get(reverse("login")).content.decode()
