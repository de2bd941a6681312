"""Django's form renderer, with its plainest widgets written out in Python.

A battle set-up page holds four fields for each of up to a hundred and twenty units (side, x,
y, Order), and Django draws every input, select and option through a template of its own: an
include, a context and an ``attrs.html`` loop each, 60% of the page's time. Inputs, selects and
their options are written here exactly as Django's templates write them
(``tests/web/test_widgets.py`` compares the two on every form of the site's pages); every other
widget still goes through its template.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from django.forms.renderers import DjangoTemplates
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.functional import Promise
from django.utils.safestring import SafeData

WIDGETS = "django/forms/widgets/"
INPUTS = frozenset(
    WIDGETS + name
    for name in (
        "checkbox.html", "color.html", "date.html", "datetime.html", "email.html", "hidden.html",
        "number.html", "password.html", "search.html", "tel.html", "text.html", "time.html",
        "url.html",
    )
)  # fmt: skip
"""The widgets whose template is only ``{% include "django/forms/widgets/input.html" %}``."""

_CONTEXT = Context(autoescape=True)  # only read: how ``{{ value }}`` is drawn in a template


def _escaped(text: Any) -> str:
    """``conditional_escape``, without its lazy wrapper (called tens of thousands of times)."""
    if isinstance(text, Promise):
        text = str(text)
    if hasattr(text, "__html__"):
        return text.__html__()
    return html.escape(str(text))


def _value(value: Any) -> str:
    """``{{ value }}``: localised and escaped (a string is only escaped)."""
    if isinstance(value, str | Promise):
        return _escaped(value)
    return render_value_in_context(value, _CONTEXT)


def _formatted(value: Any) -> str:
    """``{{ value|stringformat:'s' }}``: no localisation; escaped unless already safe."""
    text = str(value)
    return text if isinstance(value, SafeData) else html.escape(text)


def _attrs(attrs: Mapping[str, Any]) -> str:
    """``attrs.html``: each attribute, a True one bare, a False one left out."""
    return "".join(
        f" {_value(name)}" if value is True else f' {_value(name)}="{_formatted(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def _input(widget: Mapping[str, Any]) -> str:
    value = "" if widget["value"] is None else f' value="{_formatted(widget["value"])}"'
    return (
        f'<input type="{_value(widget["type"])}" name="{_value(widget["name"])}"{value}'
        f"{_attrs(widget['attrs'])}>"
    )


def _option(widget: Mapping[str, Any]) -> str:
    return (
        f'<option value="{_formatted(widget["value"])}"{_attrs(widget["attrs"])}>'
        f"{_value(widget['label'])}</option>"
    )


class WidgetRenderer(DjangoTemplates):
    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if not self._drawn(template_name):
            return super().render(template_name, context, request)
        # Django strips what a widget's template gives (BaseRenderer.render).
        return self._text(template_name, context, request).strip()

    @staticmethod
    def _drawn(template_name: str) -> bool:
        return template_name in INPUTS or template_name in (
            WIDGETS + "input.html",
            WIDGETS + "select.html",
            WIDGETS + "select_option.html",
        )

    def _text(self, template_name: str, context: dict[str, Any], request: Any) -> str:
        """What the template gives, unstripped (as an include puts it in a page)."""
        widget = context["widget"]
        if template_name == WIDGETS + "input.html":
            return _input(widget) + "\n"
        if template_name in INPUTS:
            return _input(widget) + "\n\n"  # input.html's newline, then the includer's
        if template_name == WIDGETS + "select_option.html":
            return _option(widget) + "\n"
        if template_name == WIDGETS + "select.html":
            return self._select(widget, context, request)
        return self.get_template(template_name).render(context, request)

    def _select(self, widget: Mapping[str, Any], context: dict[str, Any], request: Any) -> str:
        parts = [f'<select name="{_value(widget["name"])}"{_attrs(widget["attrs"])}>']
        for group_name, group_choices, _index in widget["optgroups"]:
            if group_name:
                parts.append(f'\n  <optgroup label="{_value(group_name)}">')
            for option in group_choices:
                # ``{% include option.template_name with widget=option %}``
                option_context = {**context, "widget": option}
                parts.append("\n  " + self._text(option["template_name"], option_context, request))
            if group_name:
                parts.append("\n  </optgroup>")
        parts.append("\n</select>\n")
        return "".join(parts)
