"""Pages for the sample card library and the rules documents, for any logged-in user.

Read-only and campaign-free: the library is the same for everyone, and the documents are the
project's own ``docs/*.md`` as a reader wants them (``units.reader`` leaves out the code and
the tests behind each rule), rendered by ``units.markdown`` (which escapes everything).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from units.carddata import CardError
from units.cardtext import render_card
from units.markdown import Document
from units.markdown import render as render_markdown
from units.models import Ruleset, UnitType
from units.reader import reader_view
from units.services import library_load, source_words
from units.terrain import terrain_text

DOCS = {
    "rules": ("rules.md", "The battle rules"),
    "campaign": ("campaign.md", "The campaign rules"),
}
"""The documents shown on the site: slug → (file under ``docs/``, link text)."""


def _card_text(unit_type: UnitType) -> str:
    """The card as the rule text prints it; terrain (not a card) as what it does, in words,
    then why."""
    if unit_type.kind == UnitType.Kind.TERRAIN:
        return "\n\n".join(filter(None, (terrain_text(unit_type.card), unit_type.card.get("why"))))
    try:
        return render_card(unit_type.card)
    except CardError as exc:
        # A card the loader accepted but this renderer refuses: say so rather than fail the page.
        return f"(this card cannot be printed: {exc})"


@login_required
@require_GET
def library_list(request: HttpRequest) -> HttpResponse:
    # Each ruleset's cards, in the order the rulesets are named; terrain, shared by both, last.
    groups: dict[str, list[tuple[UnitType, str]]] = {r.label: [] for r in Ruleset}
    groups["Terrain"] = []
    # Units before buildings: what a GM raises comes first.
    cards = sorted(UnitType.objects.all(), key=lambda t: (t.kind != UnitType.Kind.UNIT, t.name))
    for unit_type in cards:
        heading = Ruleset(unit_type.ruleset).label if unit_type.ruleset else "Terrain"
        groups[heading].append((unit_type, _card_text(unit_type)))
    groups = {heading: cards for heading, cards in groups.items() if cards}
    return render(request, "units/library.html", {"groups": list(groups.items())})


@login_required
@require_POST
def library_load_view(request: HttpRequest) -> HttpResponse:
    """The site's staff load the sample cards into an empty library, as ``manage.py
    library_load`` does, so that a new site's first GM may raise units without a shell."""
    if not request.user.is_staff:
        raise PermissionDenied("only the site's administrators load the sample cards")
    report = library_load()
    messages.success(request, f"The sample cards are loaded: {len(report.created)} new.")
    return redirect("library:list")


@login_required
@require_GET
def library_card(request: HttpRequest, pk: int) -> HttpResponse:
    unit_type = get_object_or_404(UnitType, pk=pk)
    context: dict[str, Any] = {
        "unit_type": unit_type,
        "ruleset": Ruleset(unit_type.ruleset).label if unit_type.ruleset else "every ruleset",
        "card_text": _card_text(unit_type),
        "source": source_words(unit_type.source),
    }
    return render(request, "units/card.html", context)


@lru_cache(maxsize=len(DOCS))
def _document(path: Path, mtime: float) -> Document:
    return render_markdown(reader_view(path.read_text(encoding="utf-8")))


@login_required
@require_GET
def document(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in DOCS:
        raise Http404("no such document")
    name, _ = DOCS[slug]
    path = Path(settings.BASE_DIR) / "docs" / name
    if not path.is_file():
        raise Http404("the document is not installed")
    doc = _document(path, path.stat().st_mtime)
    others = [(other, label) for other, (_, label) in DOCS.items() if other != slug]
    return render(request, "units/document.html", {"doc": doc, "slug": slug, "others": others})
