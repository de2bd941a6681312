"""The battle set-up and the map editor say their refusals plainly, one per line."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def test_a_bad_map_lists_each_problem_on_its_own_line(client, world):
    login(client, world, "gm")
    url = reverse("campaign:map-add", args=[world.campaign.pk])
    response = client.post(url, {"name": "Junk", "scenario": '{"table": {"width": -5}}'})
    assert response.status_code == 400
    errors = re.search(r'id="id_saved_map_scenario_error">(.*?)</span>', response.text, re.S)[1]
    lines = errors.split("<br>")
    assert len(lines) >= 3, errors
    assert all(line.strip() for line in lines)
