"""`manage.py serve_club`: the environment it hands gunicorn, its refusals, and one real run."""

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from club.models import Club
from server.demo import DEMO_ORGANISER, DEMO_PASSWORD
from server.management.commands import serve_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(monkeypatch, tmp_path):
    """Run the command without collecting static files or starting gunicorn: returns what
    the server would have been started with."""
    calls = {}
    monkeypatch.setattr(serve_club, "collect_static", lambda env: calls.setdefault("static", env))
    monkeypatch.setattr(serve_club, "run_server",
                        lambda argv, env: calls.update(argv=argv, env=env))
    monkeypatch.setattr(serve_club, "SECRET_KEY_FILE", tmp_path / "secret_key")
    monkeypatch.delenv("SECRET_KEY", raising=False)
    return calls


def test_the_server_gets_the_lan_address_as_site_url(started, capsys):
    get_user_model().objects.create_superuser("maria", password="santase-66-pass")
    call_command("serve_club", "--port", "8123", "--address", "192.168.1.20", "--workers", "2")
    env, argv = started["env"], started["argv"]
    assert env["SITE_URL"] == "http://192.168.1.20:8123"
    assert env["DEBUG"] == "false" and env["HTTPS"] == "false"
    assert "192.168.1.20" in env["ALLOWED_HOSTS"].split(",")
    kept = (serve_club.SECRET_KEY_FILE).read_text().strip()
    assert env["SECRET_KEY"] == kept and len(kept) >= 50
    assert started["static"] == env  # static files collected with the server's settings
    assert argv[1:4] == ["-m", "gunicorn", "config.asgi:application"]
    assert argv[argv.index("--worker-class") + 1] == "uvicorn_worker.UvicornWorker"
    binds = [argv[i + 1] for i, part in enumerate(argv) if part == "--bind"]
    assert binds == ["192.168.1.20:8123", "127.0.0.1:8123"]  # not every interface
    assert argv[argv.index("--workers") + 1] == "2"
    out = capsys.readouterr().out
    assert "http://192.168.1.20:8123" in out
    assert "▄" in out or "█" in out  # the QR code


def test_all_interfaces_only_when_asked(started):
    get_user_model().objects.create_superuser("maria", password="santase-66-pass")
    call_command("serve_club", "--port", "8124", "--address", "10.0.0.7", "--all-interfaces")
    argv = started["argv"]
    assert [argv[i + 1] for i, part in enumerate(argv) if part == "--bind"] == ["0.0.0.0:8124"]
    assert started["env"]["SITE_URL"] == "http://10.0.0.7:8124"


def test_without_a_network_it_binds_the_laptop_alone(started, monkeypatch):
    get_user_model().objects.create_superuser("maria", password="santase-66-pass")
    monkeypatch.setattr(serve_club.network, "routed_address", lambda: None)
    monkeypatch.setattr(serve_club.network, "interface_addresses", lambda: ["127.0.0.1"])
    call_command("serve_club", "--port", "8125")
    argv = started["argv"]
    assert [argv[i + 1] for i, part in enumerate(argv) if part == "--bind"] == ["127.0.0.1:8125"]


def test_with_a_certificate_it_serves_https_and_the_links_say_so(started, tmp_path):
    get_user_model().objects.create_superuser("maria", password="santase-66-pass")
    cert, key = tmp_path / "club.pem", tmp_path / "club-key.pem"
    cert.write_text("certificate"), key.write_text("key")
    call_command("serve_club", "--port", "8443", "--address", "santase.club.lan",
                 "--certfile", str(cert), "--keyfile", str(key))
    env, argv = started["env"], started["argv"]
    assert env["SITE_URL"] == "https://santase.club.lan:8443"
    assert env["HTTPS"] == "true"
    assert argv[argv.index("--certfile") + 1] == str(cert)
    assert argv[argv.index("--keyfile") + 1] == str(key)


@pytest.mark.parametrize("files", [("cert",), ("key",), ("cert", "missing-key")])
def test_https_needs_both_files_and_they_must_exist(started, tmp_path, files):
    get_user_model().objects.create_superuser("maria", password="santase-66-pass")
    (tmp_path / "cert").write_text("certificate"), (tmp_path / "key").write_text("key")
    options = {"cert": "--certfile", "key": "--keyfile", "missing-key": "--keyfile"}
    argv = [part for name in files for part in (options[name], str(tmp_path / name))]
    with pytest.raises(CommandError):
        call_command("serve_club", "--address", "192.168.1.20", *argv)
    assert "argv" not in started


def test_a_club_organiser_is_enough_and_the_key_survives_a_restart(started):
    organiser = get_user_model().objects.create_user("ivan", password="santase-66-pass")
    Club.objects.create(name="Клуб").organisers.add(organiser)
    call_command("serve_club", "--address", "10.0.0.7")
    first = started["env"]["SECRET_KEY"]
    assert started["env"]["SITE_URL"] == "http://10.0.0.7:8000"
    call_command("serve_club", "--address", "10.0.0.7")
    assert started["env"]["SECRET_KEY"] == first


def test_refuses_while_the_demo_password_works(started):
    get_user_model().objects.create_superuser("maria", password="santase-66-pass")
    get_user_model().objects.create_user(DEMO_ORGANISER, password=DEMO_PASSWORD)
    with pytest.raises(CommandError, match=f"changepassword {DEMO_ORGANISER}"):
        call_command("serve_club", "--address", "192.168.1.20")
    assert "argv" not in started and "static" not in started


def test_the_demo_organiser_with_a_changed_password_may_serve(started):
    demo = get_user_model().objects.create_user(DEMO_ORGANISER, password="a-new-secret-66")
    Club.objects.create(name="Клуб").organisers.add(demo)
    call_command("serve_club", "--address", "192.168.1.20")
    assert "argv" in started


def test_refuses_without_any_organiser_and_says_how_to_make_one(started):
    get_user_model().objects.create_user("guest", password="santase-66-pass")
    with pytest.raises(CommandError, match="createsuperuser"):
        call_command("serve_club", "--address", "192.168.1.20")
    assert "argv" not in started


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.real_process
def test_a_real_run_serves_the_home_page(tmp_path):
    """gunicorn started by the command answers on 127.0.0.1 and prints the LAN address."""
    manage = str(settings.BASE_DIR / "manage.py")
    env = {
        **os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "MEDIA_ROOT": str(tmp_path / "media"), "SECRET_KEY": "a-real-club-key-" + "x" * 40,
        "DJANGO_SUPERUSER_PASSWORD": "santase-66-pass", "CI": "",
    }
    env.pop("DEBUG", None)
    # `migrate`, then `createsuperuser --noinput` (the password from the environment), in one
    # process.
    subprocess.run([sys.executable, manage, "shell", "-c",
                    "from django.core.management import call_command\n"
                    "call_command('migrate', '--noinput', verbosity=0)\n"
                    "call_command('createsuperuser', '--noinput', username='maria',"
                    " email='maria@example.org')"],
                   env=env, check=True)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, manage, "serve_club", "--port", str(port), "--workers", "1"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        status = None
        for _ in range(120):  # gunicorn needs a few seconds after migrate and collectstatic
            if server.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    status = answer.status
                    break
            except OSError:
                time.sleep(0.5)
        assert status == 200, server.stdout.read() if server.poll() is not None else status
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    from server import network

    address = network.pick_lan_address(network.routed_address(), network.interface_addresses())
    assert f"SITE_URL=http://{address}:{port}" in output
