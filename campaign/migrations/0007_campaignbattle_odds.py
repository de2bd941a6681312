import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0002_battle_notify_task"),
        ("campaign", "0006_versions"),
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
