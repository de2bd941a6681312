"""A unit raised, in words: where it joins and what its card needs, and what the checks page
says after a roll."""

from __future__ import annotations

from django.contrib import messages
from django.urls import reverse
from django.utils.html import format_html

from campaign.models import Force, TableRoll, Unit
from campaign.pages.cards import card_lacks_text
from campaign.rules.bridge import card_needs
from campaign.rules.history import minus_signs
from campaign.rules.state import ordered_specialties
from units.bucs import validate_specialties, with_requirements
from units.words import and_words


def unit_joins_text(units: list[Unit], force: Force) -> str:
    """Units raised alike, in a sentence: where they join, with the specialty their card needs,
    or, lacking it, that they fight as Raw with Poor kit on that card. One unit whose quality
    may hold that specialty beside those ticked (a crew raised with Medical alone, on a card
    that needs Infantry) is offered the way to give it, its correction on its page."""
    first = units[0]
    who = first.name if len(units) == 1 else f"{first.name} to {units[-1].name}"
    said = who + unit_joins_rest(units, force)
    needed = card_needs(first.unit_type)
    held = set(ordered_specialties(first.specialties))
    if len(units) > 1 or needed <= held:
        return said
    wanted = with_requirements(held | needed)
    if validate_specialties(first.quality, wanted, held=held):
        return said  # its quality may not hold them all: nothing to offer
    url = reverse("campaign:unit", args=[force.campaign_id, first.pk]) + "#edit-form"
    names = and_words([s.label for s in ordered_specialties(needed)])
    return format_html(
        '{} <a href="{}">Correct {}</a> to give it the {} specialty.', said, url, first.name, names
    )


def unit_joins_rest(units: list[Unit], force: Force) -> str:
    """`unit_joins_text` after the units' names (" joins Red Company."), for a sentence that
    names them its own way (as a link)."""
    first = units[0]
    needed = card_needs(first.unit_type)
    held = set(ordered_specialties(first.specialties))
    text = f" {'joins' if len(units) == 1 else 'join'} {force.name}"
    if not needed:
        return text + "."
    names = and_words([s.label for s in ordered_specialties(needed)])
    its = "its" if len(units) == 1 else "their"
    if needed <= held:
        # What the card's specialty requires comes with it (Armor brings Mechanized): said too.
        brought = [
            s.label for s in ordered_specialties(with_requirements(needed)) if s not in needed
        ]
        then = f", and {and_words(brought)}, which {names} requires" if brought else ""
        return f"{text}, with the {names} specialty {its} card needs{then}."
    return f"{text}. {card_lacks_text(needed, one=len(units) == 1)}"


def requisition_refused(roll: TableRoll) -> bool:
    """A Requisition rolled and failed: no unit raised."""
    return roll.kind == TableRoll.Kind.REQUISITION and not roll.result.get("success")


def roll_notice(roll: TableRoll) -> tuple[str, int]:
    """What the checks page says after a roll, and at what level: a refused Requisition is a
    roll made and kept, but no unit raised, so a warning that says so, never a "Done"; any other
    roll is done whatever it rolled; a unit raised is said as raising it on its force's page says
    it (where it joins, with its card's specialty or lacking it). The rules set no limit on
    asking again, so a refused one says that the form keeps what was asked
    (`views.checks.checks_page`), and what asks for less."""
    summary = minus_signs(roll.summary)
    if requisition_refused(roll):
        said = (
            f"{summary}. No unit was raised; the roll is kept with the others. The form keeps "
            "what was asked: roll again, or ask for less (a lower quality or poorer equipment "
            "lowers the DC)."
        )
        return said, messages.WARNING
    raised = roll.kind == TableRoll.Kind.REQUISITION and roll.result.get("unit")
    unit = raised and Unit.objects.select_related("force", "unit_type").filter(pk=raised).first()
    if unit:
        # Where the unit joins, and whether its specialties cover its card, as raising it on its
        # force's page says (`unit_joins_text`); its name a link to its page, to go on to it.
        joins = unit_joins_rest([unit], unit.force)
        url = reverse("campaign:unit", args=[unit.force.campaign_id, unit.pk])
        said = format_html('{}. <a href="{}">{}</a>{}', summary, url, unit.name, joins)
        return said, messages.SUCCESS
    return f"{summary}.", messages.SUCCESS
