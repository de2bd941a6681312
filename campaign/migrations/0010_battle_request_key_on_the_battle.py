# A campaign battle's request key now lives on its engine battle (battles.queue), where one-off
# battles and odds runs keep theirs: copied across, then dropped here.

from django.db import migrations


def keys_to_battles(apps, schema_editor):
    CampaignBattle = apps.get_model("campaign", "CampaignBattle")
    Battle = apps.get_model("battles", "Battle")
    launched = CampaignBattle.objects.exclude(request_key=None).exclude(battle=None)
    for battle_id, key in launched.values_list("battle_id", "request_key"):
        Battle.objects.filter(pk=battle_id).update(request_key=key)


def keys_to_campaign_battles(apps, schema_editor):
    CampaignBattle = apps.get_model("campaign", "CampaignBattle")
    Battle = apps.get_model("battles", "Battle")
    keyed = Battle.objects.exclude(request_key=None).values_list("pk", "request_key")
    for battle_id, key in keyed:
        CampaignBattle.objects.filter(battle_id=battle_id).update(request_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0009_invitations"),
        ("battles", "0004_queued_work_request_key_and_odds_precision"),
    ]

    operations = [
        migrations.RunPython(keys_to_battles, keys_to_campaign_battles),
        migrations.RemoveField(
            model_name="campaignbattle",
            name="request_key",
        ),
    ]
