"""The pure algorithms of events: plain Python, no Django.

The rule of this folder: no module here imports Django (nor `club`, `scoring.models` or any
other module that does); values go in and out as frozen dataclasses or plain values (ints,
strings, tuples, lists, dicts); randomness and time are passed in by the caller, never read
here. So each function is tested in milliseconds without a database
(`tests/tournaments/pure/`, no `django_db` mark), and a test imports every module of this
folder in a fresh interpreter and checks that `django` was never imported.

- `berger`: FIDE Berger tables (round-robin schedules).
- `bracket`: knockout brackets (seeding, byes, where a winner moves on, round names).
- `standings`: standings from results, with the published tie-breaks.
- `ladder`: a season's ladder and head-to-head records.
- `fingerprints`: a short digest of the data a page or a file shows.
- `charts`: pictures as SVG strings (a match's running score, a rating over time, the race
  of a round robin); `crosstable`: the grid of who beat whom.

The Django side that turns these into rows lives beside: `tournaments.services`,
`tournaments.knockout`, `tournaments.selectors` and the format classes of
`tournaments.formats`.
"""
