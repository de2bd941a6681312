import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0003_battle_and_odds_run_cost"),
        ("campaign", "0007_characters_orders_engagements"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaignbattle",
            name="odds",
            field=models.ForeignKey(
                blank=True,
                help_text="The odds the GM asked for this very set-up before launching it.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="battles.oddsrun",
            ),
        ),
    ]
