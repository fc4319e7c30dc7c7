"""The PDFs of a tournament: scorecards, round packs and sheets, standings, the bracket
(README "Printing", docs/architecture.md).

- `pdf`: the WeasyPrint plumbing: a template rendered to A4 PDF bytes (stylesheet inlined,
  system fonts, nothing fetched), progress, and `template_version`, the fingerprint of a
  template and its stylesheet.
- `scorecard`: the scorecard's drawing: the deal grid's geometry and shared image, the values
  over it, the rows (from `scoring.match_sheet`), the legend and the QR code.
- `bracket`: the knockout bracket's geometry in mm (pure).
- `documents`: each kind as data -> a plain dataclass -> a template, and its `render_*`.
- `kinds`: the registry (`KINDS`), each kind's data version, `build` and `filename`.
- `jobs`: the print-job services (`print_job_request`, `print_job_build`) and the Celery task.

Speed (bench/print_bench.py): a scorecard is a form with fixed positions over two images shared
by every card of a document (the deal grid and the legend of codes), with an 8-bit grey QR code
kept per link; the stylesheet is parsed and the fonts configured once per process and thread
(`pdf`). A scorecard page still costs about 6-7 trivial pages (the floor the bench measures):
its two dozen positioned text boxes are what is left.
"""
