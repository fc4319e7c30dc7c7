"""Standings and tie-breaks, races, cross-tables and season ladders."""
