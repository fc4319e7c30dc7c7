"""`manage.py serve_club`: the site for the phones on the club's wifi, from the organiser's
laptop, with gunicorn and uvicorn workers (ASGI: the live pages' streams), README "A club night
with phones"."""

import os
import subprocess
import sys

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from server import network
from server.demo import DEMO_ORGANISER, DEMO_PASSWORD

SECRET_KEY_FILE = settings.VAR_DIR / "secret_key"


def run_server(argv: list[str], env: dict[str, str]) -> None:
    """Replace this process by the server `argv` with environment `env` (tests replace this
    function; the real one never returns)."""
    os.execvpe(argv[0], argv, env)  # noqa: S606 - our own interpreter, arguments built here


def collect_static(env: dict[str, str]) -> None:
    """`collectstatic` in a child process with the server's settings (DEBUG off: the
    whitenoise manifest the server's pages need)."""
    subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "collectstatic", "--noinput",
         "--verbosity", "0"],
        env=env, check=True,
    )


def organisers_exist() -> bool:
    """Whether some active account can run the night: a superuser or an organiser of a club or
    a tournament."""
    return get_user_model().objects.filter(
        Q(is_superuser=True) | Q(organised_clubs__isnull=False)
        | Q(organised_tournaments__isnull=False),
        is_active=True,
    ).exists()


def demo_login_open() -> bool:
    """Whether the demo organiser still logs in with the published demo password."""
    demo = get_user_model().objects.filter(username=DEMO_ORGANISER, is_active=True).first()
    return demo is not None and demo.check_password(DEMO_PASSWORD)


def tls_files(certfile: str | None, keyfile: str | None) -> list[str]:
    """gunicorn's arguments for HTTPS with `certfile` and `keyfile` (both, or neither: []).
    Raises `CommandError` when one is missing or is not a readable file."""
    if not certfile and not keyfile:
        return []
    if not (certfile and keyfile):
        raise CommandError("HTTPS needs both --certfile and --keyfile.")
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if not os.path.isfile(path) or not os.access(path, os.R_OK):
            raise CommandError(f"{option}: no readable file at {path}.")
    return ["--certfile", certfile, "--keyfile", keyfile]


def binds(address: str, port: int, *, all_interfaces: bool = False) -> list[str]:
    """gunicorn's `--bind` arguments: the address the phones are told to open and 127.0.0.1
    (the laptop itself), so the site is not offered on the laptop's other networks (a wired
    office network, a VPN); every interface only when asked (`all_interfaces`)."""
    if all_interfaces:
        return ["--bind", f"0.0.0.0:{port}"]
    hosts = [f"[{address}]" if ":" in address else address]
    if address != network.LOOPBACK:
        hosts.append(network.LOOPBACK)
    return [part for host in hosts for part in ("--bind", f"{host}:{port}")]


class Command(BaseCommand):
    help = (
        "Serve the site to the phones on the club's network with gunicorn: works out the "
        "laptop's address, migrates, collects static files and prints the address and its QR code."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
        parser.add_argument(
            "--address",
            help="the address the phones open (default: the laptop's address on the network)",
        )
        parser.add_argument("--workers", type=int, default=2,
                            help="server processes (default 2: one per core of a laptop)")
        parser.add_argument(
            "--certfile", help="serve HTTPS with this certificate (PEM) for --address, a name "
            "the phones trust: then the site installs as an app and reopens offline")
        parser.add_argument("--keyfile", help="the certificate's private key (PEM)")
        parser.add_argument(
            "--all-interfaces", action="store_true",
            help="listen on every network interface of the laptop (default: only the address "
            "announced and 127.0.0.1)")

    def handle(self, *args, port: int, address: str | None, workers: int,
               certfile: str | None = None, keyfile: str | None = None,
               all_interfaces: bool = False, **options):
        if not 0 < port < 65536:
            raise CommandError(f"--port must be between 1 and 65535, not {port}.")
        if workers < 1:
            raise CommandError(f"--workers must be at least 1, not {workers}.")
        tls = tls_files(certfile, keyfile)
        address = address or network.pick_lan_address(
            network.routed_address(), network.interface_addresses())
        call_command("migrate", "--noinput", verbosity=0)
        if demo_login_open():
            raise CommandError(
                f"The demo organiser «{DEMO_ORGANISER}» still logs in with the published demo "
                f"password, and every phone on the network could use it. Change its password "
                f"(`manage.py changepassword {DEMO_ORGANISER}`) or delete the account in the "
                f"admin, then start again."
            )
        if not organisers_exist():
            raise CommandError(
                "No organiser can log in yet. Create the first one with "
                "`manage.py createsuperuser` (it asks for the password), then start again."
            )
        env = network.club_environment(
            os.environ, address=address, port=port, secret_key=self.secret_key(), tls=bool(tls))
        collect_static(env)
        url = env["SITE_URL"]
        self.stdout.write(f"The club's site: {url}  (SITE_URL={url})")
        self.stdout.write("Phones on the club's network open it, or scan:")
        self.stdout.write(self.terminal_qr(url))
        if address == network.LOOPBACK:
            self.stderr.write(
                "No network found: only this laptop reaches the site. Join the club's wifi, "
                "or give the address with --address.")
        self.stdout.flush()
        self.stderr.flush()
        run_server([
            sys.executable, "-m", "gunicorn", "config.asgi:application",
            "--worker-class", "uvicorn_worker.UvicornWorker", "--chdir", str(settings.BASE_DIR),
            "--workers", str(workers), *binds(address, port, all_interfaces=all_interfaces),
            # The live pages' streams never end by themselves: a restart closes them at once,
            # and the phones reconnect and catch up.
            "--graceful-timeout", "2", *tls,
        ], env)

    @staticmethod
    def secret_key() -> str:
        """The SECRET_KEY from the environment if one was set, else the one kept in
        var/secret_key (made the first time)."""
        given = os.environ.get("SECRET_KEY", "")
        if given and given != settings.DEVELOPMENT_SECRET_KEY:
            return given
        return network.kept_secret_key(SECRET_KEY_FILE)

    @staticmethod
    def terminal_qr(url: str) -> str:
        """`url` as a QR code drawn with block characters, for the terminal and the projector."""
        from io import StringIO

        out = StringIO()
        segno.make(url, micro=False).terminal(out=out, compact=True)
        return out.getvalue()
