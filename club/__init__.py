"""Clubs and players: the register every event draws from, and their public pages."""
