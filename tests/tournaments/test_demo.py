"""The demo `make run` loads: every kind of event, filled, and loading it twice changes nothing."""

import pytest
from django.core.management import call_command

from scoring.models import Deal
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_demo_has_a_finished_round_robin_a_live_knockout_and_a_club_night():
    call_command("load_demo", verbosity=0)
    events = {t.format: t.status for t in Tournament.objects.all()}
    assert events == {
        Tournament.Format.ROUND_ROBIN: Tournament.Status.FINISHED,
        Tournament.Format.KNOCKOUT: Tournament.Status.RUNNING,
        Tournament.Format.CLUB_NIGHT: Tournament.Status.FINISHED,
    }
    deals = Deal.objects.count()
    call_command("load_demo", verbosity=0)
    assert Deal.objects.count() == deals
    assert Tournament.objects.count() == 3
