"""The garbage collector is held off while a PDF is built and runs again after
(`collector.paused`), also when pauses overlap or the build fails."""

import gc

import pytest

from printing import collector, pdf


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_holds_the_collector_off_and_turns_it_back_on(collector_on):
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_pauses_resume_only_when_the_last_ends(collector_on):
    outer = collector.paused()
    inner = collector.paused()
    outer.__enter__()
    inner.__enter__()
    outer.__exit__(None, None, None)  # the first ends while the second goes on
    assert not gc.isenabled()
    inner.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off(collector_on):
    gc.disable()
    with collector.paused():
        pass
    assert not gc.isenabled()


def test_an_error_in_the_block_turns_the_collector_back_on(collector_on):
    with pytest.raises(RuntimeError), collector.paused():
        raise RuntimeError("a failed build")
    assert gc.isenabled()


def test_a_pdf_build_leaves_the_collector_on(collector_on):
    data = pdf.render_html(["<p>Кръг 1</p>"])
    assert data.startswith(b"%PDF")
    assert gc.isenabled()
