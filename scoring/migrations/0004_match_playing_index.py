"""An index of the matches being played alone (`selectors.matches_in_play` counts them on
the standings page), so the count reads a few index entries, not every match of the event."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0004_r_plain_names"),
        ("scoring", "0003_match_game_points_names"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="match",
            index=models.Index(condition=models.Q(("status", "playing")), fields=["status"],
                               name="match_playing"),
        ),
    ]
