"""Capsa Susun's size limits, one source for the solver, the CLI and the HTTP schema.

Samples are bounded at three scopes, each with its own name: one Monte Carlo decision
anywhere (``MAX_SAMPLES_PER_DECISION``: Python, CLI, batch runs, strategy matches), one HTTP
request (``MAX_SAMPLES_PER_REQUEST``: a request at the cap under the most expensive rules
already takes seconds, and a service answers many clients at once), and the hands x samples
of one Monte Carlo batch request (``MAX_BATCH_SAMPLES``).
"""

from __future__ import annotations

MAX_SAMPLES_PER_DECISION = 20_000
MAX_SAMPLES = MAX_SAMPLES_PER_DECISION  # the name its importers know
MAX_SAMPLES_PER_REQUEST = 5_000
MAX_BATCH_HANDS = 1_000
MAX_BATCH_SAMPLES = 20_000  # hands x samples in one Monte Carlo batch request
MAX_TOP = 100
MAX_TOP_PER_REQUEST = 20  # arrangements listed in one HTTP answer
MAX_OPPONENTS = 3
HAND_SIZE = 13
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
MAX_PLAYERS = MAX_OPPONENTS + 1
MAX_SEED = 2**63 - 1
# Monte Carlo work units (samples x opponents x (candidate splits + cost of setting a hand)) in
# one HTTP request: about 3 s of one free core
MAX_WORK_PER_REQUEST = 120_000_000
