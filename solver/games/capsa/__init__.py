"""Capsa Susun (13-card Chinese poker): setting 13 cards as front (3), middle (5), back (5).

- ``rules``: presets and options (scoring, royalties, naturals, wheel).
- ``lookup``: card words, rank keys, strength tables, the 36,036 split pairs.
- ``kernels/``: every numba kernel, one module per concern.
- ``evaluate``: row strengths and hand kinds; ``splits``: arrangements and fouls;
  ``naturals``: the 13-card naturals; ``referee``: settling a table.
- ``arrange``: ``arrange`` over the opponent models of ``methods/`` (``table``,
  ``montecarlo``, ``known`` and their shared exact scoring); ``results``: its answers;
  ``work``: Monte Carlo work limits; ``encoding``: packed splits and card ids (many hands
  at once live in :mod:`solver.batch`).
- ``strategy/``: the self-play tables, their training, duplicate matches.
- ``game``: Capsa behind the game contract (a table of 2-4 seats), with bots.

Importing a submodule loads numba; the package itself imports nothing.
"""
