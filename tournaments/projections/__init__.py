"""The championships' read models, each derived from the log and nothing else.

- ``event``: a championship's row (``Event``), its entries and its tables, from its stream.
- ``standings``: its standings, from its tables' games' streams and its corrections.
- ``seasons``: a season's leaderboard and rating history, from its championships' standings.
- ``rebuild``: all of them dropped and derived again from the log (``manage.py
  rebuild_standings``); it reads the log and appends nothing.
"""
