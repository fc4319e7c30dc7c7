"""The demo `make run` loads: every kind of event, filled, and loading it twice changes nothing."""

import io
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from events.models import Tournament
from scoring.models import Deal


@pytest.mark.django_db
def test_demo_has_a_finished_round_robin_a_live_knockout_and_a_club_night():
    call_command("load_demo", "--allow-demo-on-server", verbosity=0)
    events = {t.format: t.status for t in Tournament.objects.all()}
    assert events == {
        Tournament.Format.ROUND_ROBIN: Tournament.Status.FINISHED,
        Tournament.Format.KNOCKOUT: Tournament.Status.RUNNING,
        Tournament.Format.CLUB_NIGHT: Tournament.Status.FINISHED,
    }
    deals = Deal.objects.count()
    call_command("load_demo", "--allow-demo-on-server", verbosity=0)
    assert Deal.objects.count() == deals
    assert Tournament.objects.count() == 3


@pytest.mark.django_db
def test_the_demo_is_refused_with_debug_off(settings):
    """DEBUG off means a server: the demo organiser with its published password never
    appears there unless asked for by name."""
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--allow-demo-on-server"):
        call_command("load_demo", verbosity=0)
    assert not get_user_model().objects.exists()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_loading_the_demo_again_keeps_a_changed_password(settings):
    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.check_password("santase66")
    organiser.set_password("a-club-secret-77")
    organiser.save()
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    organiser.refresh_from_db()
    assert organiser.check_password("a-club-secret-77")
    assert "santase66" not in out.getvalue()


ROOT = Path(__file__).resolve().parents[2]


def make_dry_run(target: str) -> str:
    """The commands `make TARGET` would run, without running them."""
    result = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, check=True)
    return result.stdout


@pytest.mark.parametrize(("target", "loads_demo"),
                         [("setup", False), ("test", False), ("run", True)])
@pytest.mark.real_process
def test_only_make_run_loads_the_demo(target, loads_demo):
    assert ("load_demo" in make_dry_run(target)) is loads_demo
