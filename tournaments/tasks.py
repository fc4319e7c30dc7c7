"""Celery tasks of the tournaments app: adapters that take ids and call one service.

Each task lives beside its service (`printing.jobs.build_print_job`,
`rating_services.recompute_ratings`, `import_jobs.run_import_job`); this module imports them
so that Celery's autodiscovery (`app.autodiscover_tasks()` in `club/celery.py` imports each
app's `tasks`) registers them under their "tournaments.tasks.…" names.
"""

from tournaments.import_jobs import run_import_job
from tournaments.printing.jobs import build_print_job
from tournaments.rating_services import recompute_ratings

__all__ = ["build_print_job", "recompute_ratings", "run_import_job"]
