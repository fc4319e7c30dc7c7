"""Settings, read only from environment variables (docs/deployment.md "Configuration" lists
each one).

Every value goes through a typed django-environ helper, so a malformed value fails at start-up
with the variable's name instead of misbehaving later.
"""

import datetime
import ipaddress
import os
from pathlib import Path

import environ
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import log_links

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

# Files the site's processes make are their owner's alone: the SQLite database and its -wal and
# -shm, var/secret_key, the backups, the PDFs and uploads (0600; directories 0700). Every
# process loads these settings before it writes anything (manage.py and its commands, the ASGI
# server's workers, Celery), so one umask here covers them all (docs/deployment.md "Files").
PRIVATE_UMASK = 0o077
os.umask(PRIVATE_UMASK)

env = environ.Env()

DEVELOPMENT_SECRET_KEY = "development-only-secret-key-change-me"  # noqa: S105

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
# With DEBUG on, the development key only draws a warning, and that is a system check
# (core/checks.py) so each command shows it once: a warning here would print in every process
# that imports the settings (runserver's reloader and its child, each gunicorn worker).
if SECRET_KEY == DEVELOPMENT_SECRET_KEY and not DEBUG:
    raise ImproperlyConfigured(
        "SECRET_KEY is the development default while DEBUG is off. "
        "Set SECRET_KEY to a long random string before serving the site to anyone."
    )

# The address players' phones reach the site at: printed in the scorecards' QR codes.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The proxies in front of the web nodes (addresses or networks): a request from one of them is
# taken to come from the address it puts in X-Forwarded-For (`config.middleware.
# ForwardedForMiddleware`), so the login lock-out and the players' links' guess limit count each
# visitor, not the proxy. Empty: REMOTE_ADDR as the server sees it (no proxy).
try:
    TRUSTED_PROXIES = [ipaddress.ip_network(entry, strict=False)
                       for entry in env.list("TRUSTED_PROXIES", default=[])]
except ValueError as error:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: {error}") from None
# The admin (/admin/) answers only on the site's own machine (a loopback address, as
# `TRUSTED_PROXIES` lets the site see it); `true`: from any address that reaches the site
# (`config.middleware.AdminFromMachineMiddleware`).
ADMIN_FROM_NETWORK = env.bool("ADMIN_FROM_NETWORK", default=False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "simple_history",
    "axes",
    "csp",
    "core",
    "club",
    "scoring",
    "events",
    "standings",
    "ratings",
    "formats",
    "passes",
    "tableside",
    "live",
    "printing",
    "exchange",
    "feeds",
    "server",
]

MIDDLEWARE = [
    "config.middleware.ForwardedForMiddleware",
    "config.middleware.AdminFromMachineMiddleware",
    "config.middleware.CompressedPagesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.SessionMarkerMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.SiteLanguageMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "live.pages.LiveVersionMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: a SQLite file under var/ unless DATABASE_URL says otherwise.
# IMMEDIATE transactions, WAL and a busy timeout make concurrent writers wait their turn
# instead of failing with "database is locked".
SQLITE_PATH = VAR_DIR / "santase.sqlite3"
# The key the players' passes are derived from (passes/keys.py): kept apart from SECRET_KEY,
# so rotating that never kills a printed pass.
PASS_KEY_FILE = env.path("PASS_KEY_FILE", default=VAR_DIR / "pass_key")
DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{SQLITE_PATH}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters travel apart from the SQL, so psycopg prepares a statement run five times on a
    # connection and PostgreSQL stops re-planning it: most of a deal post's database time.
    # Under ASGI each request's database work runs in a thread of its own, so connections are
    # kept in a pool (psycopg_pool, Django's "pool" option), not per thread (a new PostgreSQL
    # connection costs milliseconds).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5, pool=True,
    )
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# No connection kept by a thread between requests (ASGI: threads come and go; PostgreSQL has
# its pool, and opening a SQLite file costs next to nothing).
DATABASES["default"]["CONN_MAX_AGE"] = 0
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=True)
# Each test run gets its own database, so runs side by side never share one.
TEST_DATABASE_SUFFIX = os.getpid()
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{TEST_DATABASE_SUFFIX}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {
        "NAME": f"test_{DATABASES['default']['NAME']}_{TEST_DATABASE_SUFFIX}"
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling: after AXES_FAILURE_LIMIT wrong passwords for one user name from one
# address, that pair is locked out for AXES_COOLOFF_MINUTES.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "events:home"
LOGOUT_REDIRECT_URL = "events:home"

# Internationalisation: Bulgarian first, English second. Catalogues are compiled and committed.
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="bg")
LANGUAGES = [("bg", _("Bulgarian")), ("en", _("English"))]
# The language switch's cookie lasts a year: a phone keeps its language from one club night to
# the next (Django's default ends it with the browser session).
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Sofia")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The pages name only the hashed files (`{% static %}`), so only those are kept and compressed:
# `serve_club` collects the files at each start, in half the time.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True

# Cache, and sessions kept in it: by default files under var/cache, which every gunicorn worker
# on this machine shares (a per-process memory cache would let one worker read a session another
# has since changed); several web nodes share Redis instead (CACHE_URL=redis://host:6379/1,
# docs/deployment.md "Several web nodes on one PostgreSQL"). Sessions are written through to
# the database as well (`cached_db`), so reading one costs no query and clearing the cache logs
# nobody out.
CACHE_URL = env.str("CACHE_URL", default="") or f"filecache://{VAR_DIR / 'cache'}"
CACHES = {"default": environ.Env.cache_url_config(CACHE_URL)}
# Template fragments keyed by everything they show (a match's quick-entry fields: its players'
# names, house rules and language): the same on every node, kept in each process's memory.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "fragments",
    "TIMEOUT": 3600, "OPTIONS": {"MAX_ENTRIES": 2000},
}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Celery: without a broker, tasks run eagerly in the web process (one laptop, no Redis).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE

# Behind HTTPS (the default once DEBUG is off): secure cookies, redirect to https, HSTS.
# HTTPS=false serves plain HTTP, e.g. on a club's closed network.
HTTPS = env.bool("HTTPS", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
if HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]  # preloading is the club's own decision

# Content-Security-Policy (django-csp 4): scripts, styles, images and requests from this site
# only; no inline script, style or event handler anywhere in the pages (the PDFs' templates,
# printing/templates/print/, are read by WeasyPrint, not a browser). The service worker
# (/sw.js) and the manifest are this site's too.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [csp.SELF],
        "img-src": [csp.SELF, "data:"],
        "font-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}
# Permissions-Policy (django-permissions-policy): the site uses no device feature.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media",
        "fullscreen", "geolocation", "gyroscope", "magnetometer", "microphone", "midi",
        "payment", "publickey-credentials-get", "screen-wake-lock", "usb", "xr-spatial-tracking",
    )
}

# No players' link reaches a log: every record's message and arguments have the token of
# /p/<token>/ masked (config/log_links.py), the servers' access lines included.
log_links.install()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_links": {"()": "config.log_links.MaskLinks"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_links"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
