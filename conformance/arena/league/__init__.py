"""``holdem-cert league``: duplicate-deck tournaments over every table of a roster, played by
local processes or Ray tasks, streamed into a SQLite store, rated from the placements.

- :mod:`.schedule`: which tournaments (tables, sets, rotations) and their seeds.
- :mod:`.store`: the SQLite results store (one row per tournament, the league's identity).
- :mod:`.backends`: playing tasks in local processes or on Ray.
- :mod:`.ratings`: Plackett–Luce ratings with bootstrap intervals, head-to-head shares.
- :mod:`.standings`: the league report computed from the store in a canonical order.
- :mod:`conformance.report.league_page`: the terminal table and the HTML page (a report, so it lives there).

docs/league.md explains the command and the choices the issue left open (L1–L4 there).
"""
