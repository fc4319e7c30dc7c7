"""What a commit does after it, in a test whose own transaction never commits."""

from contextlib import contextmanager

from django.test import TestCase


@contextmanager
def committed():
    """Run the block, then the work its transactions left for their commit (`on_commit`: the
    live pages' versions move on, `events.versions`), as a commit on the site would."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield
