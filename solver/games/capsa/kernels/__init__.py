"""Every numba kernel of Capsa Susun: arrays in, arrays out, no Python objects.

One module per concern: ``evaluate`` (row strengths), ``splits`` (the 72,072 splits and
foul filter), ``bits`` (popcount and pext), ``naturals``, ``table`` (the table strategy's
values, the full search), ``search`` (the branch-and-bound best-k search), ``removal`` (the
same under card removal), ``legacy`` (the previous search and
evaluation, kept for the benchmark and the equivalence tests),
``settle`` (exact settlement for Monte Carlo and known opponents), ``rules`` (scoring codes,
the single-royalty rule). Lookup tables come in as arguments (see
:mod:`solver.games.capsa.lookup`); hot loops stay flat (numba adds reference counting to
helpers that take arrays inside them).
"""

from solver.games.capsa.kernels.evaluate import (
                                               strength3,
                                               strength5,
                                               strengths5_all,
                                               subset_strengths,
)
from solver.games.capsa.kernels.naturals import natural_kind, natural_kinds
from solver.games.capsa.kernels.profile import removal_row_terms_many, structured_rows
from solver.games.capsa.kernels.removal import (
                                               removal_best_many,
                                               removal_odds,
                                               removal_tables,
                                               removal_top,
)
from solver.games.capsa.kernels.rules import BASIC, ONE_SIX, SCOOP_ONE, TWO_FOUR
from solver.games.capsa.kernels.search import table_top
from solver.games.capsa.kernels.settle import score_candidates
from solver.games.capsa.kernels.splits import (
                                               best_natural_split,
                                               count_tied_pairs,
                                               count_unfouled_pairs,
                                               count_valid,
                                               count_valid_hand,
                                               count_valid_many,
                                               naive_best_many,
                                               naive_rows_many,
                                               pareto_front,
                                               top_indices,
                                               valid_splits,
)
from solver.games.capsa.kernels.table import (
                                               table_best_many_full,
                                               table_valid_evs,
)

__all__ = ["BASIC", "ONE_SIX", "SCOOP_ONE", "TWO_FOUR", "best_natural_split", "count_tied_pairs",
           "count_unfouled_pairs", "count_valid", "count_valid_hand", "count_valid_many",
           "naive_best_many", "naive_rows_many", "natural_kind", "natural_kinds", "pareto_front", "removal_best_many",
           "removal_odds", "removal_row_terms_many", "removal_tables", "removal_top", "score_candidates", "strength3",
           "strength5", "strengths5_all", "structured_rows", "subset_strengths", "table_best_many_full", "table_top",
           "table_valid_evs", "top_indices", "valid_splits"]
