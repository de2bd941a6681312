"""Admin for the card library."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html

from units.models import UnitType


@admin.register(UnitType)
class UnitTypeAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "ruleset", "skill", "size", "source")
    list_filter = ("kind", "ruleset")
    search_fields = ("name", "source")
    readonly_fields = ("card_text",)
    fields = ("name", "kind", "ruleset", "card", "card_text", "source")

    @admin.display(description="Skill")
    def skill(self, obj: UnitType) -> int | None:
        return obj.card.get("skill") if isinstance(obj.card, dict) else None

    @admin.display(description="Size")
    def size(self, obj: UnitType) -> int | None:
        return obj.card.get("size") if isinstance(obj.card, dict) else None

    @admin.display(description="As written on a card")
    def card_text(self, obj: UnitType) -> str:
        if obj.pk is None or obj.kind == UnitType.Kind.TERRAIN:
            return "—"
        return format_html("<pre>{}</pre>", obj.text)
