"""The loaded site is frozen out of the garbage collector's reach (`club.wsgi`): a worker
that imports it has its apps and every view loaded, and tens of thousands of objects in
the permanent generation, before it serves a request."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
import club.wsgi
print(json.dumps({"frozen": gc.get_freeze_count(),
                  "views": "tournaments.views.matches" in sys.modules}))
"""


def test_a_worker_s_site_is_loaded_and_frozen_at_import():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="club.settings")
    found = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, check=True,
                           capture_output=True, text=True, timeout=120)
    probe = json.loads(found.stdout.strip().splitlines()[-1])
    assert probe["views"] is True  # the URL patterns imported the views before the freeze
    assert probe["frozen"] > 50_000  # Django and the site: some 140,000 objects
