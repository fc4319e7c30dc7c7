"""The form of the players' link that takes free text: a dispute of the result."""

from django import forms

from core.text import PlainTextField
from tableside.table_entry import DISPUTE_LIMIT


class DisputeForm(forms.Form):
    """What is wrong with the result, in the player's words: plain text, several lines, at
    most `DISPUTE_LIMIT` characters (`core.text.clean_text`). Empty is the service's refusal
    (`dispute_text_missing`)."""

    text = PlainTextField(max_length=DISPUTE_LIMIT, multiline=True, required=False)
