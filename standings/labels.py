"""The names of the tie-breaks, as the pages and the printed standings show them."""

from django.utils.translation import gettext_lazy as _

TIE_BREAK_LABELS = {
    "buchholz": _("Buchholz (opponents' scores)"),
    "buchholz_cut_1": _("Buchholz cut 1 (without the lowest)"),
    "median_buchholz": _("median Buchholz (without the highest and the lowest)"),
    "progressive_score": _("progressive score (the running scores added up)"),
    "direct_encounter": _("direct encounter among the tied players"),
    "head_to_head": _("head-to-head among the tied players"),
    "game_point_difference": _("game-point difference"),
    "game_points_scored": _("game points scored"),
    "sonneborn_berger": _("Sonneborn–Berger"),
    "lots": _("drawing of lots"),
}


TIE_BREAK_SHORT_LABELS = {
    "buchholz": _("BH"),
    "buchholz_cut_1": _("BH-1"),
    "median_buchholz": _("Med. BH"),
    "progressive_score": _("Prog."),
    "direct_encounter": _("DE"),
    "head_to_head": _("H2H"),
    "game_point_difference": _("Diff."),
    "game_points_scored": _("Scored"),
    "sonneborn_berger": _("SB"),
    "lots": _("Lot"),
}
