"""Data in and out: deal logs imported from CSV, standings and deals exported."""
