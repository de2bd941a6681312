"""What every campaign view shares: the shape of an action, its htmx answers, page context."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeData
from django_htmx.http import HttpResponseClientRedirect

from battles.forms import focus_first_error
from campaign.access import FULL, Viewer
from campaign.forms import add_service_errors
from campaign.models import FormSent
from campaign.pages.changes import changes
from campaign.pages.names import unit_label
from campaign.selectors.reviews import entries_changes, revert_entries
from units.words import and_words

CLASHED = (
    "Something saved at that very moment clashed with this, so nothing of it was written. "
    "Send it again: if it still cannot be done, the form will say why."
)


def form_action(
    request: HttpRequest,
    form: Any,
    act: Callable[[dict[str, Any]], tuple[str, str] | tuple[str, str, int]],
    *,
    page: str,
    partial: str,
    context: Callable[[], dict[str, Any]],
) -> HttpResponse:
    """Every action's shape: a valid form's data goes to ``act``, which does the work through
    a service and returns where to go back to and what to say there (and, for something done
    that is no success, the level to say it at: ``messages.WARNING``). A service's
    ``ValidationError`` lands next to the field it names; a form with errors is shown again in
    ``page#partial`` (``context`` draws the rest of the page around it).

    A form with a one-time ``request_key`` acts once: sent again, it goes back where the first
    sending went and says what it said (`FormSent`, written in the action's own transaction),
    before the form is read — the units it named may be out of action by now.
    """
    key = _form_key(request, form)
    if key is not None and (sent := form_sent(key)):
        if sent.user_id == request.user.pk:
            return action_done(request, sent.url, sent.said(), sent.level)
        form.is_valid()
        form.add_error("request_key", "This form is damaged; reload the page and try again.")
    elif form.is_valid():
        try:
            with transaction.atomic():
                url, message, *level = act(form.cleaned_data)
                level = level or [messages.SUCCESS]
                if key is not None:
                    FormSent.objects.create(
                        request_key=key, user=request.user, url=url, message=message,
                        html=isinstance(message, SafeData), level=level[0],
                    )  # fmt: skip
        except ValidationError as error:
            add_service_errors(form, error)
        except IntegrityError:
            # Something saved at the same moment clashed with this action, which was undone
            # with its transaction. The same form sent twice: its first sending stands.
            sent = form_sent(key)
            if sent is not None and sent.user_id == request.user.pk:
                return action_done(request, sent.url, sent.said(), sent.level)
            # Another request (another tab, another person) took the name, say, between this
            # one's checks and its write: nothing of it was written, and sent again the
            # service's checks see what is there now and say why by name.
            form.add_error(None, CLASHED)
        else:
            return action_done(request, url, message, *level)
    return form_invalid(request, page, partial, context())


def sent_already(request: HttpRequest, form: Any) -> HttpResponse | None:
    """The answer to a one-time form its sender sent again once it was done (a double click,
    the browser's history): what the first sending said. For an action that takes away the
    page it was sent from (a campaign deleted, or left), asked before the campaign is looked
    up, which would be a 404 by then."""
    key = _form_key(request, form)
    if key is not None and (sent := form_sent(key)) and sent.user_id == request.user.pk:
        return action_done(request, sent.url, sent.said(), sent.level)
    return None


def form_sent(key: uuid.UUID) -> FormSent | None:
    """What the form with this one-time key did already, if it did."""
    return FormSent.objects.filter(request_key=key).first()


def _form_key(request: HttpRequest, form: Any) -> uuid.UUID | None:
    """The form's one-time key as sent, if the form has one and it is a key."""
    if "request_key" not in getattr(form, "fields", {}):
        return None
    try:
        return uuid.UUID(request.POST.get("request_key", ""))
    except ValueError:
        return None


def action_done(
    request: HttpRequest, url: str, message: str, level: int = messages.SUCCESS
) -> HttpResponse:
    """After a successful POST: back to the page, which now shows the change, and says what
    was done at ``level`` (a warning for something done that is no success).

    Without JavaScript that is a plain redirect (post/redirect/get); under htmx the page is
    loaded again whole, because one action changes several parts of it (roster, history,
    dashboard), and redrawing them all is simpler and safer than guessing which.
    """
    messages.add_message(request, level, message)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def said_on_top(url: str, refusal: ValidationError) -> tuple[str, str, int]:
    """A one-button form's refusal, as ``form_action``'s ``act`` returns it: said at the top of
    the page it goes back to, where that page opens, not beside a button far down it."""
    return url, refusal.messages[0], messages.ERROR


def form_invalid(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    """A form with errors: under htmx just the form (swapped in place), else the whole page.

    htmx swaps only 2xx answers by default, so the partial goes back as 200; the full page
    says 400, which is what it is. Either way the form's first field at fault takes the focus
    (`focus_first_error`), so a page drawn again from its top opens on the form and its error,
    not wherever the form sits down the page.
    """
    for form in context.values():
        if isinstance(form, forms.BaseForm) and form.is_bound and form.errors:
            focus_first_error(form)
    if request.htmx:
        return render(request, f"{template}#{partial}", context)
    return render(request, template, context, status=400)


def return_path(request: HttpRequest, pk: int) -> str:
    """The page of campaign ``pk`` a GM came from to do something on the way (``next``, a
    revert refused until a unit's change is undone), to go back to once it is done: a path on
    this site, inside the campaign, never an address elsewhere; "" for none."""
    path = request.POST.get("next") or request.GET.get("next") or ""
    home = reverse("campaign:dashboard", args=[pk])
    safe = url_has_allowed_host_and_scheme(path, allowed_hosts=None)
    return path if safe and path.startswith(home) else ""


def base_context(viewer: Viewer, **extra: Any) -> dict[str, Any]:
    return {"viewer": viewer, "campaign": viewer.campaign, **extra}


def changes_for_reader(viewer: Viewer, rows: list[Any]) -> tuple[list[Any], int]:
    """What a battle or an engagement did to its units (`pages.changes.changes`) as ``viewer`` reads
    it, with how many units are left out: a member reads the forces they see in full, as on the
    rosters, a player their own force's units first, the others in the outcome's order (a unit's
    changes fill a phone's screen); the GMs read every unit in that order."""
    if viewer.manages:
        return rows, 0
    shown = [c for c in rows if viewer.sight(c.unit.force) == FULL]
    shown.sort(key=lambda c: not viewer.owns(c.unit.force))
    return shown, len(rows) - len(shown)


def reverted_context(viewer: Viewer, *, applied: list[int], said: str) -> dict[str, Any]:
    """What reverting a fight (a battle's outcome, an engagement) did, for its page, from the
    entries that undid its ``applied`` ones: what its units are back to, told in the words of
    those entries, for the forces the reader sees in full (`changes_for_reader`); ``said``
    ("Skirmish at the mill is reverted") with those units named, as they were before it
    (`as_before_text`), the others left unnamed; and the first revert entry, which keeps who
    reverted it, on which day and why (none: a fight that changed no unit)."""
    entries = revert_entries(applied=applied)
    shown, hidden = changes_for_reader(viewer, changes(entries_changes(entries), entries))
    # Its units named in the line-up's order, as the message of the revert names them.
    lined_up = {}
    for entry in sorted(entries, key=lambda e: e.reverts_id or 0):
        lined_up.setdefault(entry.unit_id, entry.unit)
    seen = {c.unit.pk for c in shown}
    return {
        "changes": shown,
        "changes_hidden": hidden,
        "reverted_text": as_before_text(said, [u for pk, u in lined_up.items() if pk in seen]),
        "revert": entries[0] if entries else None,
    }


def as_before_text(said: str, units: list[Any]) -> str:
    """What a revert did, in a sentence: ``said`` and the units, by name, it left as they were
    before the fight: "Skirmish at the mill is reverted: Iron Wolf and Aid Post are as they
    were before it." Two units of one name are told apart by their forces, as every page names
    a unit (`pages.names.unit_label`): "Reserve 1 (Red Company) and Reserve 1 (Blue Battalion)"."""
    units = list({unit.pk: unit for unit in units}.values())
    twice = Counter(unit.name for unit in units)
    names = [unit_label(u) if twice[u.name] > 1 else u.name for u in units]
    if not names:
        return f"{said}."
    stand = "is as it was" if len(names) == 1 else "are as they were"
    return f"{said}: {and_words(names)} {stand} before it."


def destroyed_context(rows) -> dict[str, list[str]]:
    return {"destroyed": [unit_label(c.unit) for c in changes(rows) if c.destroyed]}
