"""The joint distribution of the opponent's three rows, for the scoop.

The row tables give, per row, the chance that the opponent's row is below (above) mine. The
scoop needs all three at once, and the opponent's rows are far from independent: a strong back
takes the cards a strong middle would need. Measured on a pool of hands set by the strategy,
the product of the three chances overstates how often a split scoops (and is scooped); a best
response that sees the joint outcome gains most of its edge over ``table`` under the standard
scoring from that alone.

The model is the rows' copula. Each pool hand's row strength ``s`` becomes a uniform number
``U = P(row < s) + V * P(row = s)`` (``V`` uniform in [0, 1), spreading ties), so that the
opponent's row is below mine exactly when ``U < w`` (my win chance) and above mine exactly when
``U >= 1 - x`` (``x`` my loss chance). On a grid of ``n + 1`` points per row,

    joint[0, i, j, k] = P(U_front < i/n, U_middle < j/n, U_back < k/n)
    joint[1, i, j, k] = P(U_front >= 1 - i/n, U_middle >= 1 - j/n, U_back >= 1 - k/n)

and the search interpolates them multilinearly at (w_f, w_m, w_b) and (x_f, x_m, x_b)
(:func:`solver.games.capsa.kernels.table._scoop_odds`). Both grids grow with each argument,
so the value still grows with each row's win chance and falls with its loss chance, which the
search's bounds need; on independent rows the grids are the product ``u v w`` and the model
is exact.
"""

from __future__ import annotations

import numpy as np

GRID = 32  # points per row: 33^3 values per grid


def uniforms(rows: np.ndarray, hist: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The pool's rows (N, 3: front, middle, back strengths) as uniforms (N, 3), through the
    row distribution ``hist`` (3, S) of the same pool, ties spread by ``rng``."""
    p = hist / hist.sum(axis=1, keepdims=True)
    below = np.cumsum(p, axis=1) - p
    idx = np.arange(3)[None, :]
    return below[idx, rows] + rng.random(rows.shape) * p[idx, rows]


def orthant_grid(u: np.ndarray, n: int = GRID) -> np.ndarray:
    """``P(U_1 < i/n, U_2 < j/n, U_3 < k/n)`` on the grid (n + 1)^3, from samples (N, 3)."""
    cells = np.minimum((u * n).astype(np.int64), n - 1)
    flat = (cells[:, 0] * n + cells[:, 1]) * n + cells[:, 2]
    counts = np.bincount(flat, minlength=n ** 3).reshape(n, n, n).astype(np.float64)
    out = np.zeros((n + 1, n + 1, n + 1))
    out[1:, 1:, 1:] = counts.cumsum(0).cumsum(1).cumsum(2) / len(u)
    return out


def copula_grids(rows: np.ndarray, hist: np.ndarray, rng: np.random.Generator,
                 n: int = GRID) -> np.ndarray:
    """The ``joint`` grids (2, n + 1, n + 1, n + 1) of a pool's rows (see the module doc)."""
    u = uniforms(np.asarray(rows, dtype=np.int64), hist, rng)
    return np.stack([orthant_grid(u, n), orthant_grid(1.0 - u, n)])
