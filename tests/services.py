"""Which outside services a test run can reach, and how to skip when one is absent.

On a laptop without PostgreSQL or Redis the tests that need them are skipped with a reason;
under CI (CI=true) a missing service is a failure, so CI can never pass by skipping them.
"""

import os
import shutil
import socket

import pytest
from django.db import connection

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def require(available: bool, reason: str) -> None:
    """Skip the calling test when `available` is false, or fail it under CI."""
    if available:
        return
    if in_ci():
        pytest.fail(f"CI needs this: {reason}")
    pytest.skip(reason)


def require_redis() -> None:
    require(port_open(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")


def require_chromium() -> None:
    require(
        bool(shutil.which(CHROMIUM)),
        f"{CHROMIUM} is missing (apt-get install chromium)",
    )


def require_postgresql() -> None:
    """PostgreSQL tests run in the suite's second pass, with DATABASE_URL=postgres://…."""
    if connection.vendor != "postgresql":
        pytest.skip("runs in the PostgreSQL pass (DATABASE_URL=postgres://…)")


def require_vendor(vendor: str) -> None:
    """For a test parametrised over "postgresql" and "sqlite": run the case of this pass's
    database, skip the other (the PostgreSQL case fails under CI without PostgreSQL)."""
    if vendor == "postgresql":
        require_postgresql()
    elif connection.vendor != vendor:
        pytest.skip(f"runs on {vendor} (this run uses {connection.vendor})")
