"""The match library: a player's collection of matches in a database (SQLite or PostgreSQL),
added incrementally, analysed once, and read back as pandas frames for statistics over
time, the catalogue of errors and drills (``docs/library.md``).

:mod:`~bgtools.library.store` (schema, versions, migrations), :mod:`~bgtools.library.ingest`
(``library add``), :mod:`~bgtools.library.analyse` (``library analyse``) and
:mod:`~bgtools.library.api` (:class:`~bgtools.library.api.Library`).
"""
