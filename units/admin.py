"""Admin for the card library."""

from django.contrib import admin

from units.models import UnitType


@admin.register(UnitType)
class UnitTypeAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "ruleset")
    list_filter = ("kind", "ruleset")
    search_fields = ("name",)
