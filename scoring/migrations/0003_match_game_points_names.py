"""Match.points_a/points_b are game points: named so (the redesign's "Names")."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_a_match_unplayed"),
    ]

    operations = [
        migrations.RenameField("match", "points_a", "game_points_a"),
        migrations.RenameField("match", "points_b", "game_points_b"),
        migrations.RenameField("historicalmatch", "points_a", "game_points_a"),
        migrations.RenameField("historicalmatch", "points_b", "game_points_b"),
    ]
