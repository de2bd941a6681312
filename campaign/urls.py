"""URLs of the campaign pages (included under /campaigns/)."""

from __future__ import annotations

from django.urls import path

from campaign.views import actions, api, battles, pages, transfer

app_name = "campaign"

C = "<int:pk>/"

urlpatterns = [
    path("", pages.campaign_list, name="list"),
    path("new/", actions.campaign_create_view, name="create"),
    path("import/", transfer.campaign_import_view, name="import"),
    path(C, pages.campaign_dashboard, name="dashboard"),
    path(C + "settings/", actions.settings_view, name="settings"),
    path(C + "members/", actions.member_set_view, name="member-set"),
    path(C + "forces/new/", actions.force_create_view, name="force-create"),
    path(C + "advance/", actions.calendar_advance_view, name="advance"),
    path(C + "quick-resolve/", actions.quick_resolve_view, name="quick-resolve"),
    path(C + "forces/<int:force_pk>/", pages.force_detail, name="force"),
    path(C + "forces/<int:force_pk>/units/add/", actions.unit_add_view, name="unit-add"),
    path(C + "forces/<int:force_pk>/medical/", actions.medical_view, name="medical"),
    path(C + "units/<int:unit_pk>/", pages.unit_detail, name="unit"),
    path(C + "units/<int:unit_pk>/card/", pages.unit_card, name="unit-card"),
    path(C + "units/<int:unit_pk>/edit/", actions.unit_edit_view, name="unit-edit"),
    path(C + "units/<int:unit_pk>/train/", actions.unit_train_view, name="unit-train"),
    path(C + "battles/new/", battles.battle_setup, name="battle-setup"),
    path(C + "battles/new/check/", battles.battle_setup_check, name="battle-setup-check"),
    path(C + "battles/odds/<int:run_pk>/", battles.battle_odds, name="battle-odds"),
    path(C + "battles/record/", battles.battle_record, name="battle-record"),
    path(C + "maps/new/", battles.map_add, name="map-add"),
    path(C + "maps/check/", battles.map_check, name="map-check"),
    path(C + "battles/<int:battle_pk>/", battles.battle_detail, name="battle"),
    path(C + "battles/<int:battle_pk>/progress/", battles.battle_progress, name="battle-progress"),
    path(C + "battles/<int:battle_pk>/log.json", battles.battle_log_json, name="battle-log"),
    path(C + "battles/<int:battle_pk>/apply/", battles.battle_apply, name="battle-apply"),
    path(C + "battles/<int:battle_pk>/revert/", battles.battle_revert, name="battle-revert"),
    path(C + "campaign.json", api.campaign_json, name="campaign-json"),
    path(C + "export.json", transfer.campaign_export_view, name="export"),
    path(C + "forces/<int:force_pk>.csv", transfer.force_csv, name="force-csv"),
    path(C + "battles.json", api.battles_json, name="battles-json"),
    path(C + "forces/<int:force_pk>.json", api.force_json, name="force-json"),
    path(C + "units/<int:unit_pk>.json", api.unit_json, name="unit-json"),
]
