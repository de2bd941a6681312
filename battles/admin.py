"""Admin for battle records."""

from django.contrib import admin

from battles.models import Battle


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "status", "seed", "engine_version", "created_at")
    list_filter = ("status", "ruleset")
    search_fields = ("name",)
    readonly_fields = ("created_at", "started_at", "finished_at")
