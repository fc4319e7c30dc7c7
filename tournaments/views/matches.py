"""Deal entry pages (being built)."""

from django.http import Http404


def match_entry(request, match_pk: int):
    raise Http404


deal_add = deal_undo = deal_correct = match_entry
