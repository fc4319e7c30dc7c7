"""The passes' tests: each gets a pass key of its own in a temporary file."""

import pytest

from passes import keys


@pytest.fixture(autouse=True)
def pass_key_file(settings, tmp_path):
    settings.PASS_KEY_FILE = tmp_path / "pass_key"
    keys.forget()
    yield settings.PASS_KEY_FILE
    keys.forget()
