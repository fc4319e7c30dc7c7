"""Glicko-2 ratings of the players over the club's public events."""
