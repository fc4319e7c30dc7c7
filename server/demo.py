"""The demo data that `make run` loads: a club, eight players, a finished round-robin
tournament (all seven rounds played), a live eight-player knockout with the
quarterfinals played and both semifinals under way, a finished club night and a season
covering them, so every page has something to show."""

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from club.models import Club, Player, Season
from club.services import player_for_name
from events import services
from events.models import Entry, Tournament
from formats.club_night import services as club_nights
from formats.knockout import services as knockout
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match

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
DEMO_KNOCKOUT = "Купа на клуба 2026"
DEMO_SEMIFINAL_DEALS = 3
DEMO_ORGANISER = "organiser"
DEMO_PASSWORD = "santase66"  # noqa: S105 - a published demo log-in for a local laptop
# Outcomes drawn for the demo deals: (game points, reason), plain wins most often.
DEMO_OUTCOMES = [(1, "won")] * 5 + [(2, "schneider")] * 3 + [(3, "capot")]
DEMO_CLUB_NIGHT = "Клубна вечер 27.11.2026"
DEMO_GUEST = "Петър Ангелов"
# (seat A, seat B, table), in the order they were paired; each is played to its end.
DEMO_CLUB_NIGHT_PAIRINGS = [
    ("Иван Петров", "Мария Георгиева", 1),
    ("Георги Димитров", "Елена Стоянова", 2),
    ("Светла Иванова", "Николай Тодоров", 3),
    (DEMO_GUEST, "Иван Петров", 1),
    ("Мария Георгиева", "Георги Димитров", 2),
    ("Елена Стоянова", "Светла Иванова", 3),
    ("Николай Тодоров", "Мария Георгиева", 1),
]
DEMO_SEASON = "Зима 2026/27"


@transaction.atomic
def load_demo() -> Tournament:
    """Create the demo club, players, organiser and tournament; running it again changes nothing.

    The organiser `DEMO_ORGANISER` gets `DEMO_PASSWORD` only when this creates the account: a
    password changed since is never reset. Only for a laptop or a demo site; the
    `load_demo` command refuses with DEBUG off unless told `--allow-demo-on-server`.
    """
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
    if tournament.status == Tournament.Status.DRAFT:
        rng = random.Random(66)
        services.tournament_start(tournament=tournament, rng=rng)
        for round_ in tournament.rounds.all():
            for pairing in round_.pairings.exclude(match=None).select_related("match"):
                _play_demo_match(pairing.match, organiser, rng, None)
    load_demo_knockout(club, organiser)
    load_demo_club_night_and_season(club=club, organiser=organiser)
    return tournament


def load_demo_club_night_and_season(*, club: Club, organiser) -> Tournament:
    """A closed club night (seven matches, one guest) and a season over it and the demo
    tournament; both found by name, so running it again changes nothing."""
    night = Tournament.objects.filter(
        name=DEMO_CLUB_NIGHT, format=Tournament.Format.CLUB_NIGHT
    ).first()
    if night is None:
        night = club_nights.club_night_create(
            club=club, date=datetime.date(2026, 11, 27), name=DEMO_CLUB_NIGHT,
            organiser=organiser, house_rules=rules.HouseRules(),
        )
        rng = random.Random(27)
        for name_a, name_b, table in DEMO_CLUB_NIGHT_PAIRINGS:
            player_a, player_b = (player_for_name(name=name, club=club)
                                  for name in (name_a, name_b))
            pairing = club_nights.club_night_pair(
                night=night, player_a=player_a, player_b=player_b, table=table, by=organiser
            )
            _play_demo_match(pairing.match, organiser, rng, None)
        club_nights.club_night_close(night=night)
    Season.objects.get_or_create(
        club=club, name=DEMO_SEASON,
        defaults={"starts": datetime.date(2026, 11, 1), "ends": datetime.date(2027, 2, 28)},
    )
    return night


def load_demo_knockout(club: Club, organiser) -> Tournament:
    """The club cup: the eight demo players seeded in list order, with a third-place match;
    the quarterfinals played, each semifinal three deals in. Created once, by name."""
    cup, _ = Tournament.objects.get_or_create(
        name=DEMO_KNOCKOUT,
        defaults={
            "date": datetime.date(2026, 12, 12),
            "venue": "Читалище „Славянска беседа“",
            "club": club,
            "format": Tournament.Format.KNOCKOUT,
            "third_place_match": True,
        },
    )
    cup.organisers.add(organiser)
    for seed, (name, _latin) in enumerate(DEMO_PLAYERS, start=1):
        player = Player.objects.get(club=club, name=name)
        Entry.objects.get_or_create(tournament=cup, player=player, defaults={"number": seed})
    if cup.status == Tournament.Status.DRAFT:
        rng = random.Random(2026)
        knockout.knockout_start(tournament=cup, rng=rng)
        for number, deals in ((1, None), (2, DEMO_SEMIFINAL_DEALS)):
            for pairing in cup.rounds.get(number=number).pairings.exclude(match=None).order_by(
                "bracket_index"
            ).select_related("match"):
                _play_demo_match(pairing.match, organiser, rng, deals)
    return cup


def _play_demo_match(match: Match, by, rng: random.Random, deals: int | None) -> None:
    """Enter random deals until the match ends (or `deals` of them)."""
    strength = rng.random()
    while not match.is_over and deals != 0:
        points, reason = rng.choice(DEMO_OUTCOMES)
        winner = "A" if rng.random() < strength else "B"
        scoring_services.deal_record(
            match=match, score=rules.quick_result(winner, points, reason), by=by
        )
        match.refresh_from_db()
        deals = None if deals is None else deals - 1
