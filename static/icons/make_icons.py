"""Draws the app's icons, icon-192.png and icon-512.png (the web app manifest,
`core.views.manifest`): a white spade and "66" on the site's accent red, inside
the middle 80 % so a round or squircle mask leaves them whole.

Run from the project: `.venv/bin/python static/icons/make_icons.py` (Pillow, the DejaVu fonts).
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ACCENT = (155, 28, 28)  # --accent in static/css/site.css
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
HERE = Path(__file__).resolve().parent


def icon(size: int) -> Image.Image:
    """One square icon of `size` pixels."""
    image = Image.new("RGB", (size, size), ACCENT)
    draw = ImageDraw.Draw(image)
    spade = ImageFont.truetype(FONT, int(size * 0.34))
    digits = ImageFont.truetype(FONT, int(size * 0.30))
    draw.text((size / 2, size * 0.36), "♠", font=spade, fill="white", anchor="mm")
    draw.text((size / 2, size * 0.68), "66", font=digits, fill="white", anchor="mm")
    return image


if __name__ == "__main__":
    for size in (192, 512):
        icon(size).save(HERE / f"icon-{size}.png", optimize=True)
