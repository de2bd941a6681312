from django.db import migrations, models

import campaign.models


def give_each_its_key(apps, schema_editor):
    """Invitations sent before links existed get a key each (a column's default is one value)."""
    Invitation = apps.get_model("campaign", "Invitation")
    for invitation in Invitation.objects.filter(link_key__isnull=True):
        invitation.link_key = campaign.models.new_link_key()
        invitation.save(update_fields=["link_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0024_table_battle_earlier_entries"),
    ]

    operations = [
        migrations.AddField(
            model_name="invitation",
            name="link_key",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(give_each_its_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="invitation",
            name="link_key",
            field=models.CharField(
                default=campaign.models.new_link_key,
                editable=False,
                help_text="The secret in the invitation's link: whoever opens the link may join by it.",
                max_length=64,
                unique=True,
            ),
        ),
    ]
