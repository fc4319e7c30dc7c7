"""Players of no club get one name each, like players of a club.

Before the constraint can be added, players of no club who share a name are told apart: the
oldest keeps the name, each later one is renamed "name (2)", "name (3)", ... (the first number
whose name is free among players of no club). Renaming, not merging: a merge would have to
move matches, entries and history between two people who may well be two people (two guests
called "Иван" on different evenings), and would fail where both played in one event. An
organiser can merge them by hand afterwards if they were one person.
"""

from django.db import migrations, models
from django.db.models import Count

MAX_NAME = 120


def _free_name(name: str, taken: set[str]) -> str:
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = name[: MAX_NAME - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        number += 1


def rename_same_name_players_without_club(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    no_club = Player.objects.filter(club__isnull=True)
    shared = (no_club.values("name").annotate(count=Count("pk")).filter(count__gt=1)
              .values_list("name", flat=True))
    taken = set(no_club.values_list("name", flat=True))
    for name in list(shared):
        for player in list(no_club.filter(name=name).order_by("pk"))[1:]:
            player.name = _free_name(name, taken)
            taken.add(player.name)
            player.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0002_season"),
    ]

    operations = [
        migrations.RunPython(rename_same_name_players_without_club, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("club__isnull", True)), fields=("name",),
                name="player_unique_name_without_club",
            ),
        ),
    ]
