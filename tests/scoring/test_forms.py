"""The deal forms without a database (scoring.forms): what they accept and refuse."""

from django.utils import translation

from scoring.forms import DealCorrectionForm, DealQuickForm, DealUndoForm


def test_the_draw_button_with_a_winner_is_refused_not_taken_for_a_draw():
    form = DealQuickForm({"number": "1", "winner": "A", "reason": "won", "draw": "1"})
    with translation.override("en"):
        assert not form.is_valid()
        assert form.errors["winner"] == [
            "A draw has no winner, but seat A was chosen as the winner too; nothing was saved. "
            "Tap the draw button again for a draw, or choose the winner and save."
        ]
    assert form.score is None
    # Drawn again, the form checks no winner, so the draw button works the second time.
    assert [button["checked"] for button in form.winner_buttons()] == [False, False]


def test_the_refusal_speaks_bulgarian():
    form = DealQuickForm({"number": "1", "winner": "B", "draw": "1"})
    with translation.override("bg"):
        assert not form.is_valid()
        assert form.errors["winner"] == [
            "Равенството няма победител, а е избран и победител: място B; нищо не е записано. "
            "Натиснете отново бутона за равенство или изберете победителя и запишете."
        ]


def test_the_draw_button_alone_is_a_draw():
    form = DealQuickForm({"number": "1", "draw": "1"})
    assert form.is_valid()
    assert (form.score.winner, form.score.game_points, form.score.reason) == (None, 0, "draw")


def test_a_corrections_draw_button_replaces_the_winner_it_was_filled_with():
    form = DealCorrectionForm({"winner": "B", "reason": "schneider", "draw": "1",
                               "correction_reason": "it was 65:65"})
    assert form.is_valid()
    assert (form.score.winner, form.score.game_points, form.score.reason) == (None, 0, "draw")


def test_the_undo_form_needs_a_whole_deal_number():
    assert DealUndoForm({"number": "7"}).is_valid()
    for data in ({}, {"number": ""}, {"number": "x"}, {"number": "2.5"}):
        assert not DealUndoForm(data).is_valid()
