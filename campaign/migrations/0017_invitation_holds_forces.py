# An imported campaign's people are invited, not made members: each invitation carries the forces
# and characters the export gave them, held by the GM until they accept. No data changes:
# invitations sent before carry none.
#
# Numbered 0019: 0017 and 0018 are other branches'. Whichever lands last points its dependency at
# the one before it.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0016_invitation_answers"),
    ]

    operations = [
        migrations.AddField(
            model_name="invitation",
            name="characters",
            field=models.ManyToManyField(
                blank=True,
                help_text="Characters an import gave the invitee to play: theirs once they join.",
                related_name="held_for",
                to="campaign.character",
            ),
        ),
        migrations.AddField(
            model_name="invitation",
            name="forces",
            field=models.ManyToManyField(
                blank=True,
                help_text=(
                    "Forces an import gave the invitee: the GM holds them until the invitee joins."
                ),
                related_name="held_for",
                to="campaign.force",
            ),
        ),
    ]
