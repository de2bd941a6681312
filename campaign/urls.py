"""URLs of the campaign pages (included under /campaigns/)."""

from __future__ import annotations

from django.urls import path

from campaign.views import actions, api, battles, pages, table, transfer

app_name = "campaign"

C = "<int:pk>/"

urlpatterns = [
    path("", pages.campaign_list, name="list"),
    path("new/", actions.campaign_create_view, name="create"),
    path("rules/", pages.rules_card, name="rules-card"),
    path("import/", transfer.campaign_import_view, name="import"),
    path(C, pages.campaign_dashboard, name="dashboard"),
    path(C + "timeline/", pages.campaign_timeline, name="timeline"),
    path(C + "settings/", actions.settings_view, name="settings"),
    path(C + "members/", actions.member_set_view, name="member-set"),
    path(C + "invitations/", actions.invitation_send_view, name="invite"),
    path(
        C + "invitations/<int:invitation_pk>/withdraw/",
        actions.invitation_withdraw_view,
        name="invitation-withdraw",
    ),
    path(
        "invitations/<int:invitation_pk>/accept/",
        actions.invitation_answer_view,
        {"answer": "accept"},
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_pk>/decline/",
        actions.invitation_answer_view,
        {"answer": "decline"},
        name="invitation-decline",
    ),
    path(C + "notices/", actions.notices_set_view, name="notices"),
    path(C + "forces/new/", actions.force_create_view, name="force-create"),
    path(C + "advance/", actions.calendar_advance_view, name="advance"),
    path(C + "advance/done/", actions.calendar_advance_summary, name="advance-summary"),
    path(C + "quick-resolve/", actions.quick_resolve_view, name="quick-resolve"),
    path(C + "forces/<int:force_pk>/", pages.force_detail, name="force"),
    path(C + "forces/<int:force_pk>/cards/", pages.force_cards, name="force-cards"),
    path(C + "forces/<int:force_pk>/units/add/", actions.unit_add_view, name="unit-add"),
    path(C + "forces/<int:force_pk>/medical/", actions.medical_view, name="medical"),
    path(C + "units/<int:unit_pk>/", pages.unit_detail, name="unit"),
    path(C + "units/<int:unit_pk>/card/", pages.unit_card, name="unit-card"),
    path(C + "units/<int:unit_pk>/edit/", actions.unit_edit_view, name="unit-edit"),
    path(C + "units/<int:unit_pk>/train/", actions.unit_train_view, name="unit-train"),
    path(C + "units/<int:unit_pk>/combat-zone/", actions.unit_combat_zone_view, name="unit-zone"),
    path(C + "units/<int:unit_pk>/leader/", actions.leader_attach_view, name="leader-attach"),
    path(
        C + "units/<int:unit_pk>/leader/detach/",
        actions.leader_detach_view,
        name="leader-detach",
    ),
    path(C + "battles/new/", battles.battle_setup, name="battle-setup"),
    path(C + "battles/new/check/", battles.battle_setup_check, name="battle-setup-check"),
    path(C + "battles/odds/<int:run_pk>/", battles.battle_odds, name="battle-odds"),
    path(C + "battles/record/", battles.battle_record, name="battle-record"),
    path(C + "maps/new/", battles.map_add, name="map-add"),
    path(C + "maps/check/", battles.map_check, name="map-check"),
    path(C + "battles/<int:battle_pk>/", battles.battle_detail, name="battle"),
    path(C + "battles/<int:battle_pk>/cards/", pages.battle_cards, name="battle-cards"),
    path(C + "battles/<int:battle_pk>/progress/", battles.battle_progress, name="battle-progress"),
    path(C + "battles/<int:battle_pk>/log.json", battles.battle_log_json, name="battle-log"),
    path(C + "battles/<int:battle_pk>/apply/", battles.battle_apply, name="battle-apply"),
    path(C + "battles/<int:battle_pk>/revert/", battles.battle_revert, name="battle-revert"),
    path(C + "characters/", table.characters_page, name="characters"),
    path(C + "characters/new/", table.character_create_view, name="character-create"),
    path(C + "characters/join/", table.character_join_view, name="character-join"),
    path(C + "characters/train/", table.character_train_view, name="character-train"),
    path(C + "characters/rally/", table.character_rally_view, name="character-rally"),
    path(C + "characters/heal/", table.character_heal_view, name="character-heal"),
    path(C + "orders/", table.orders_page, name="orders"),
    path(C + "orders/new/", table.order_give_view, name="order-give"),
    path(C + "orders/call-off/", table.order_call_off_view, name="order-call-off"),
    path(C + "clock/", table.clock_advance_view, name="clock-advance"),
    path(C + "engagements/new/", table.engagement_setup, name="engagement-setup"),
    path(C + "engagements/<int:engagement_pk>/", table.engagement_detail, name="engagement"),
    path(
        C + "engagements/<int:engagement_pk>/revert/",
        table.engagement_revert_view,
        name="engagement-revert",
    ),
    path(C + "checks/", table.checks_page, name="checks"),
    path(C + "checks/skill/", table.skill_check_view, name="skill-check"),
    path(C + "checks/contest/", table.contest_view, name="contest"),
    path(C + "checks/requisition/", table.requisition_view, name="requisition"),
    path(C + "campaign.json", api.campaign_json, name="campaign-json"),
    path(C + "export.json", transfer.campaign_export_view, name="export"),
    path(C + "forces/<int:force_pk>.csv", transfer.force_csv, name="force-csv"),
    path(C + "battles.json", api.battles_json, name="battles-json"),
    path(C + "forces/<int:force_pk>.json", api.force_json, name="force-json"),
    path(C + "units/<int:unit_pk>.json", api.unit_json, name="unit-json"),
]
