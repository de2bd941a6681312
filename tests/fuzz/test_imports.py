"""Force and campaign import: any JSON, and mutated real exports, are imported whole or refused
with a ValidationError that writes nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.services.transfer import campaign_import, force_import
from campaign.transfer.export import campaign_export, force_export
from tests.fuzz.conftest import FUZZ
from tests.fuzz.inputs import JSON, mutated

pytestmark = pytest.mark.django_db


def _judged(call):
    def run() -> bool:
        try:
            call()
        except ValidationError as error:
            assert error.messages, "a refusal says what is wrong"
            return False
        return True

    return run


@FUZZ
@given(data=JSON)
def test_any_json_as_a_campaign_or_force(probe, world, data):
    p = probe("import: arbitrary JSON (campaign_import and force_import)")
    p.attempt(_judged(lambda: campaign_import(data=data)), data)
    p.attempt(
        _judged(lambda: force_import(campaign=world.campaign, data=data, actor=world.users["gm"])),
        data,
    )
    p.check()


@settings(FUZZ, max_examples=80)
@given(data=st.data())
def test_mutated_campaign_exports(probe, world, data):
    export = campaign_export(campaign=world.campaign)
    export["campaign"]["name"] = "Op. Imported"
    document = data.draw(mutated(export), label="document")
    p = probe("import: campaign_import of mutated exports")
    p.attempt(_judged(lambda: campaign_import(data=document)), document)
    p.check()


@settings(FUZZ, max_examples=80)
@given(data=st.data(), owner=st.sampled_from([None, "player", "rival", "spectator", "gm"]))
def test_mutated_force_exports(probe, world, data, owner):
    export = force_export(force=world.force)
    export["force"]["name"] = "Imported Company"
    document = data.draw(mutated(export), label="document")
    user = world.users[owner] if owner else None
    p = probe("import: force_import of mutated exports")
    p.attempt(
        _judged(
            lambda: force_import(
                campaign=world.campaign, data=document, owner=user, actor=world.users["gm"]
            )
        ),
        (owner, document),
    )
    p.check()
