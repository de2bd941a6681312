"""A refusal as a page shows it: a sentence on its own starts with a capital letter.

Services and forms word their refusals to be read after a field's name or a "Not done:" as much
as on their own ("give the battle a name"), so the pages capitalise them and end them with a
full stop where they show them rather than every sentence being written twice. A refusal that
opens with a name is left as it is: a name is shown as given ("gm is this campaign's GM", a
unit called "recon 2").
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.contrib.auth import get_user_model
from django.db.models import Q

from campaign.models import Campaign, Character, Force, Leader, Unit

register = template.Library()


def campaign_names(campaign: Campaign) -> frozenset[str]:
    """The names a refusal about ``campaign`` may open with: its people's usernames, its
    forces', units', leaders' and characters'. Looked up once per campaign object (a page)."""
    known = campaign.__dict__.get("_sentence_names")
    if known is None:
        people = get_user_model().objects.filter(
            Q(pk=campaign.gm_id) | Q(memberships__campaign=campaign)
        )
        known = frozenset(
            name
            for names in (
                people.values_list(get_user_model().USERNAME_FIELD, flat=True),
                Force.objects.filter(campaign=campaign).values_list("name", flat=True),
                Unit.objects.filter(force__campaign=campaign).values_list("name", flat=True),
                Leader.objects.filter(unit__force__campaign=campaign).values_list(
                    "name", flat=True
                ),
                Character.objects.filter(campaign=campaign).values_list("name", flat=True),
            )
            for name in names
            if name
        )
        campaign.__dict__["_sentence_names"] = known
    return known


_PATH = re.compile(r"\w+[\[.]\S*:")
"""A refusal that opens with where it is, "sides[0].units[1].card.name: ...", a path as given."""


def _opens_with(text: str, name: str) -> bool:
    return text.startswith(name) and not text[len(name) : len(name) + 1].isalnum()


SENTENCE_ENDS = (".", "!", "?", "\u2026")
CLOSERS = "\u201d\u2019\"')]"
"""What may close a sentence after its stop: “… said so.” and (… as the rules say.)."""


@register.filter
def full_stop(text: Any) -> str:
    """``text`` ended as a sentence: a full stop added, unless it ends with one already (or
    with "!", "?" or "…", or one of them inside a closing quote or bracket), so a message
    written either way reads with one."""
    said = str(text).rstrip()
    return said if not said or said.rstrip(CLOSERS).endswith(SENTENCE_ENDS) else f"{said}."


def as_sentence(text: str, campaign: Campaign | None = None) -> str:
    """``text`` with its first letter a capital, unless it opens with a path into a document
    or with one of ``campaign``'s names (`campaign_names`); no campaign: only the capital. It
    ends with a full stop (`full_stop`), however the refusal was written."""
    text = full_stop(text)
    if not text[:1].islower() or _PATH.match(text):
        return text
    if campaign is not None and any(_opens_with(text, name) for name in campaign_names(campaign)):
        return text
    return text[0].upper() + text[1:]


@register.simple_tag(takes_context=True)
def sentence(context: template.Context, text: Any) -> str:
    """``{% sentence error %}``: the refusal as a sentence on its own (`as_sentence`), by the
    names of the page's ``campaign``, if it has one. Escaped like any other value."""
    campaign = context.get("campaign")
    return as_sentence(str(text), campaign if isinstance(campaign, Campaign) else None)
