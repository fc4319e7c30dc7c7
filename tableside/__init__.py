"""Entering a match where it is played: the organiser's match page, the players' link, seats and
signatures, the control room and the offline queue."""
