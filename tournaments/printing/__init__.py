"""The PDFs of a tournament: scorecards, round packs and sheets, standings, the bracket
(DESIGN.md "Printing").

- `pdf`: the WeasyPrint plumbing: a template rendered to A4 PDF bytes (stylesheet inlined,
  system fonts, nothing fetched), progress, and `template_version`, the fingerprint of a
  template and its stylesheet.
- `scorecard`: the scorecard's drawing: the deal grid's geometry and shared image, the values
  over it, the rows (from `tournaments.match_sheet`), the legend and the QR code.
- `bracket`: the knockout bracket's geometry in mm (pure).
- `documents`: each kind as data -> a plain dataclass -> a template, and its `render_*`.
- `kinds`: the registry (`KINDS`), each kind's data version, `build` and `filename`.
- `jobs`: the print-job services (`print_job_request`, `print_job_build`) and the Celery task.

Speed (bench/print_bench.py): a scorecard is a form with fixed positions over one shared grid
image, so a page costs WeasyPrint little; a 32-match round pack builds in a second or two.
"""
