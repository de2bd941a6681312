"""Admin for battle records."""

from django.contrib import admin

from battles.models import Battle


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    """A battle is a record of what the engine played: its scenario, seed and engine version
    reproduce it die for die, and its state is the queue's. Only its name may be changed here."""

    list_display = ("name", "ruleset", "status", "seed", "engine_version", "created_at")
    list_filter = ("status", "ruleset")
    search_fields = ("name",)

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Battle._meta.concrete_fields if f.name not in {"id", "name"}]
