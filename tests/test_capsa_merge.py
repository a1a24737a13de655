"""Merging tables files preset by preset (what retraining a few presets ships)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.games.capsa.strategy.merge import main as merge_main
from solver.games.capsa.strategy.tables import DATA_FILE, TRAINED_PRESETS, load_raw


def test_merge_takes_the_new_presets_and_keeps_the_rest(tmp_path):
    from solver.games.capsa.strategy.train import main as train

    new = tmp_path / "basic.npz"
    assert train(["--hands", "400", "--rounds", "1", "--seed", "5", "--presets", "basic",
                  "-o", str(new)]) == 0
    out = tmp_path / "merged.npz"
    assert merge_main([str(DATA_FILE), str(new), "-o", str(out)]) == 0
    merged, shipped, fresh = load_raw(str(out)), load_raw(str(DATA_FILE)), load_raw(str(new))
    assert np.array_equal(merged["basic"]["hist"], fresh["basic"]["hist"])
    assert "removal" not in merged["basic"]  # the new file had no card-removal pass
    for preset in (p for p in TRAINED_PRESETS if p != "basic"):
        for name, value in shipped[preset].items():
            assert np.allclose(merged[preset][name], value), (preset, name)
    meta = merged["meta"]
    assert meta["presets"] == list(TRAINED_PRESETS)
    assert "--seed 5" in meta["by_preset"]["basic"]["train"]
    assert "--presets basic" in meta["by_preset"]["basic"]["train"]
    assert meta["by_preset"]["basic"]["removal"] is None
    assert "basic" not in meta["by_preset"]["standard"]["train"].split("--presets")[1].split("-o")[0]
    assert meta["by_preset"]["standard"]["removal"] and "--seed" in meta["command"]


def test_merge_refuses_a_file_without_presets(tmp_path, capsys):
    from solver.games.capsa.strategy.tables import write_arrays

    empty = tmp_path / "empty.npz"
    write_arrays(empty, {}, {"format": 1})
    assert merge_main([str(DATA_FILE), str(empty), "-o", str(tmp_path / "out.npz")]) == 2
    assert "holds no trained preset" in capsys.readouterr().err
    assert not (tmp_path / "out.npz").exists()
    with pytest.raises(SystemExit):
        merge_main([str(DATA_FILE)])
