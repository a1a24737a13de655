"""``prepare``: one Prepared per rules and tables file, process-wide; tables made any other way
(a copy with other arrays included) are prepared from their own arrays."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.search import search_best
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import (
    DATA_FILE,
    plain_tables,
    tables_file,
    tables_for,
    without_removal,
)


def test_file_tables_are_prepared_once_per_rules_and_file(tmp_path):
    r, other = resolve_rules("standard"), resolve_rules("two-four")
    prep = prepare(r)
    assert prepare(r, tables_for(r)) is prep and prep.tables is tables_for(r)
    assert prep.plain is prepare(r, tables_for(r, card_removal=False))
    assert prep.plain is prepare(r, plain_tables(tables_for(r)))
    assert not prep.plain.card_removal and prep.card_removal
    assert prepare(other) is not prep and prepare(other).rules == other
    plain_file = without_removal(DATA_FILE, tmp_path / "plain.npz")
    with tables_file(plain_file):  # another file in use: its own tables, its own Prepared
        assert prepare(r) is not prep and not prepare(r).card_removal
    assert prepare(r) is prep


def test_a_copy_with_other_arrays_is_searched_with_its_own_arrays():
    r = resolve_rules("two-four")
    st = tables_for(r, card_removal=False)
    worse = replace(st, pw=np.ascontiguousarray(st.pw[:, ::-1]))  # keeps the source field
    prep = prepare(r, worse)
    assert prep.tables is worse and prep is not prepare(r, st)
    hands = deal(np.random.default_rng(5), 30, 1)[:, 0]
    assert not np.array_equal(search_best(hands, prep)[1], search_best(hands, prepare(r, st))[1])


def test_tables_read_again_are_prepared_again_and_kept():
    """When the tables' own cache has let them go and read them again, the next prepare builds
    from the new object and keeps it (not a fresh build on every call)."""
    from solver.games.capsa.strategy import tables as tables_mod

    r = resolve_rules({"preset": "standard", "royalty_mode": "net"})
    before = prepare(r)
    tables_mod._tables_for.cache_clear()
    again = prepare(r)
    assert again is not before and again.tables is tables_for(r) and prepare(r) is again
