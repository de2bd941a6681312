"""Admin for campaigns."""

from django.contrib import admin

from campaign.models import Campaign


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "gm", "day", "created_at")
    list_filter = ("ruleset",)
    search_fields = ("name", "gm__username")
