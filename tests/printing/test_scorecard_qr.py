"""The scorecard PDF's QR code, read back with a QR reader (zxing-cpp): the players' link
while the players may enter the match, the public match page when they may not (or the match
is over)."""

import base64
import io

import pytest
import zxingcpp
from django.utils import translation
from PIL import Image, ImageOps
from pypdf import PdfReader

from events.models import EntryMode, Pairing
from printing import card_form
from printing.documents import render_scorecards, scorecards_document
from printing.scorecard import qr_image
from tableside import table_entry
from tests.printing.helpers import ELEVEN_NIL, first_match, play

pytestmark = pytest.mark.django_db


def qr_texts(pdf: bytes) -> list[str]:
    """Every QR code in the PDF's images, decoded (the codes are drawn one pixel per module
    with no margin: each is given its quiet zone and scaled up before reading)."""
    texts = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for image in page.images:
            picture = image.image.convert("L")
            if picture.width > 200 or picture.width != picture.height:
                continue  # the deal grid, not a QR code
            picture = ImageOps.expand(picture, border=4, fill=255)
            picture = picture.resize((picture.width * 8, picture.height * 8), Image.NEAREST)
            texts += [result.text for result in zxingcpp.read_barcodes(picture)]
    return texts


def pairing_of(match) -> Pairing:
    return Pairing.objects.select_related("round__tournament", "entry_a__player",
                                          "entry_b__player", "match").get(match=match)


def test_the_qr_code_is_the_players_link_when_they_enter(settings, started):
    settings.SITE_URL = "https://66.example.bg"
    match = first_match(started)
    assert started.entry_mode == EntryMode.PLAYERS_SIGN
    pdf = render_scorecards([pairing_of(match)], filled=False, language="en")
    token = table_entry.table_of(match).token
    assert qr_texts(pdf) == [f"https://66.example.bg/p/{token}/"]


def test_the_qr_code_is_the_public_page_when_only_organisers_enter(settings, started):
    settings.SITE_URL = "https://66.example.bg"
    started.entry_mode = EntryMode.ORGANISER
    started.save(update_fields=["entry_mode"])
    match = first_match(started)
    pdf = render_scorecards([pairing_of(match)], filled=False, language="en")
    assert qr_texts(pdf) == [f"https://66.example.bg/m/{match.pk}/"]


def test_a_finished_matchs_card_opens_the_public_page(settings, started):
    settings.SITE_URL = "https://66.example.bg"
    match = first_match(started)
    play(match, ELEVEN_NIL)
    pdf = render_scorecards([pairing_of(match)], filled=True, language="en")
    assert qr_texts(pdf) == [f"https://66.example.bg/m/{match.pk}/"]


@pytest.mark.parametrize(("mode", "words"), [
    (EntryMode.PLAYERS_SIGN, "Scan to enter the deals"),
    (EntryMode.ORGANISER, "Scan to follow the match"),
])
def test_the_cards_words_say_what_the_code_opens(started, mode, words):
    started.entry_mode = mode
    started.save(update_fields=["entry_mode"])
    pairing = pairing_of(first_match(started))
    card = scorecards_document([pairing], False, started, "en").cards[0]
    # The caption is drawn on the card's form (card_form), in the document's language.
    with translation.override("en"):
        assert card_form.form_texts(card.players_enter).caption == words


def test_the_code_is_one_grey_pixel_a_module_with_error_correction_m():
    """A 56-character link in byte mode with correction M needs version 4: 33 x 33 modules."""
    link = "https://66.example.bg/p/RxMu64Xi-mPaD4Vi7-j4pzgaUUvHC-_8/"
    picture = Image.open(io.BytesIO(base64.b64decode(qr_image(link).split(",", 1)[1])))
    assert (picture.mode, picture.size) == ("L", (33, 33))
    framed = ImageOps.expand(picture, border=4, fill=255).resize((41 * 8, 41 * 8), Image.NEAREST)
    [result] = zxingcpp.read_barcodes(framed)
    assert (result.text, result.ec_level) == (link, "M")
