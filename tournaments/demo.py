"""The demo data that `make run` loads: a club, eight players, a round-robin tournament."""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction

from club.models import Club, Player
from tournaments.models import Entry, Tournament

DEMO_CLUB = "Клуб „Сантасе“ София"
DEMO_PLAYERS = [
    ("Иван Петров", "Ivan Petrov"),
    ("Мария Георгиева", "Maria Georgieva"),
    ("Георги Димитров", "Georgi Dimitrov"),
    ("Елена Стоянова", "Elena Stoyanova"),
    ("Димитър Николов", "Dimitar Nikolov"),
    ("Светла Иванова", "Svetla Ivanova"),
    ("Николай Тодоров", "Nikolay Todorov"),
    ("Йорданка Христова", "Yordanka Hristova"),
]
DEMO_TOURNAMENT = "Зимен турнир 2026"
DEMO_ORGANISER = "organiser"
DEMO_PASSWORD = "santase66"  # noqa: S105 - a published demo log-in for a local laptop


@transaction.atomic
def load_demo() -> Tournament:
    """Create the demo club, players, organiser and tournament; running it again changes nothing."""
    club, _ = Club.objects.get_or_create(name=DEMO_CLUB, defaults={"city": "София"})
    organiser, created = get_user_model().objects.get_or_create(username=DEMO_ORGANISER)
    if created:
        organiser.set_password(DEMO_PASSWORD)
        organiser.save()
    club.organisers.add(organiser)
    tournament, _ = Tournament.objects.get_or_create(
        name=DEMO_TOURNAMENT,
        defaults={
            "date": datetime.date(2026, 12, 5),
            "venue": "Читалище „Славянска беседа“",
            "club": club,
            "format": Tournament.Format.ROUND_ROBIN,
        },
    )
    tournament.organisers.add(organiser)
    for number, (name, name_latin) in enumerate(DEMO_PLAYERS, start=1):
        player, _ = Player.objects.get_or_create(
            club=club, name=name, defaults={"name_latin": name_latin}
        )
        Entry.objects.get_or_create(
            tournament=tournament, player=player, defaults={"number": number}
        )
    return tournament
