"""The rule of `tournaments/pure/`: no module there imports Django (tournaments.pure's
docstring). Checked in a fresh interpreter, where nothing else has imported Django yet."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import tournaments.pure

ROOT = Path(__file__).resolve().parents[3]


def pure_modules() -> list[str]:
    return [f"tournaments.pure.{module.name}"
            for module in pkgutil.iter_modules(tournaments.pure.__path__)]


def test_the_pure_folder_holds_the_algorithms():
    assert {
        "tournaments.pure.berger", "tournaments.pure.bracket", "tournaments.pure.fingerprints",
        "tournaments.pure.ladder", "tournaments.pure.standings",
    } <= set(pure_modules())


@pytest.mark.real_process
def test_importing_every_pure_module_imports_no_django():
    code = (
        "import importlib, sys\n"
        f"for name in {pure_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == "[]"
