"""``capsa batch`` records what decides its answers with the output, and a rerun that differs
in any of it is refused before anything is written: one output never mixes answers of two
runs with other options (rules, opponents, method, card removal, tables, Monte Carlo's samples
and seed), in JSON lines or Parquet."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import solver.games.capsa.strategy.tables
from solver.batch import BatchConfig, run_batch
from solver.batch.output import read_record, record_path, write_record
from solver.batch.run import run_record
from solver.cards import format_cards
from solver.cli import main as capsa_main
from solver.errors import InputError
from solver.games.capsa.strategy.tables import tables_digest


def hands_file(path: Path, n: int, seed: int = 3) -> None:
    rng = np.random.default_rng(seed)
    hands = np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1)
    path.write_text("".join(" ".join(format_cards(h)) + "\n" for h in hands))


def config(tmp_path: Path, fmt: str = "jsonl", **kw) -> BatchConfig:
    kw.setdefault("workers", 1)
    kw.setdefault("progress", False)
    kw.setdefault("chunk_size", 5)
    out = tmp_path / ("out.parquet" if fmt == "parquet" else "out.jsonl")
    return BatchConfig(input=str(tmp_path / "in.txt"), output=str(out), format=fmt, **kw)


def snapshot(cfg: BatchConfig) -> dict[str, bytes]:
    """Every byte of the output (a file, or a directory of parts) and of its record."""
    paths = ([os.path.join(cfg.output, p) for p in sorted(os.listdir(cfg.output))]
             if os.path.isdir(cfg.output) else [cfg.output, cfg.output + ".run.json"])
    return {p: Path(p).read_bytes() for p in paths if os.path.isfile(p)}


def stop_after_first_chunk(done: int) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
@pytest.mark.parametrize("change, named", [
    ({"opponents": 1}, "opponents 3 (this run: 1)"),
    ({"rules": "two-four"}, "rules"),
    ({"method": "montecarlo", "samples": 10}, 'method "table" (this run: "montecarlo")'),
    ({"card_removal": False}, "card_removal true (this run: false)"),
])
def test_rerun_with_other_options_is_refused_untouched(tmp_path, fmt, change, named):
    hands_file(tmp_path / "in.txt", 12)
    cfg = config(tmp_path, fmt, on_chunk=stop_after_first_chunk)
    assert run_batch(cfg).interrupted
    before = snapshot(cfg)
    with pytest.raises(InputError, match=r"holds answers of a run with other options: .*"
                       + named.replace("(", r"\(").replace(")", r"\)")):
        run_batch(config(tmp_path, fmt, **change))
    assert snapshot(cfg) == before
    # the same options resume it, every line once
    summary = run_batch(config(tmp_path, fmt))
    assert summary.skipped == 5 and summary.solved == 7


def test_montecarlo_seed_and_samples_are_part_of_the_record(tmp_path):
    hands_file(tmp_path / "in.txt", 6)
    mc = {"method": "montecarlo", "opponents": 1, "samples": 8, "seed": 4}
    run_batch(config(tmp_path, on_chunk=stop_after_first_chunk, **mc))
    for other in ({"seed": 5}, {"samples": 9}):
        with pytest.raises(InputError, match=next(iter(other))):
            run_batch(config(tmp_path, **{**mc, **other}))
    # ``table`` answers depend on neither: they are not recorded for it
    assert "seed" not in run_record(config(tmp_path))
    assert run_batch(config(tmp_path, **mc)).solved == 1


def test_record_names_the_strategy_tables(tmp_path):
    hands_file(tmp_path / "in.txt", 6)
    cfg = config(tmp_path, on_chunk=stop_after_first_chunk)
    run_batch(cfg)
    path = record_path(cfg.output, parquet=False)
    record = read_record(path)
    # the tables in use are the shipped file: the record names its bytes, hashed here anew
    shipped = Path(solver.games.capsa.strategy.tables.__file__).parent.parent / "data" / "tables.npz"
    assert record["tables"] == hashlib.sha256(shipped.read_bytes()).hexdigest()[:16]
    assert record == run_record(cfg) and record["tables"] == tables_digest()
    assert record["rules"]["scoring"] == "one-six" and record["opponents"] == 3
    write_record(path, {**record, "tables": "0123456789abcdef"})  # as another version wrote it
    with pytest.raises(InputError, match='tables "0123456789abcdef"'):
        run_batch(config(tmp_path))


def test_an_output_without_answers_takes_the_new_record(tmp_path):
    hands_file(tmp_path / "in.txt", 6)
    cfg = config(tmp_path, on_chunk=stop_after_first_chunk)
    run_batch(cfg)
    os.unlink(cfg.output)  # the answers are gone; their record stays behind
    summary = run_batch(config(tmp_path, opponents=2))
    assert summary.solved == 6
    assert read_record(cfg.output + ".run.json")["opponents"] == 2


def test_an_output_from_before_records_adopts_the_rerun(tmp_path):
    hands_file(tmp_path / "in.txt", 6)
    cfg = config(tmp_path, on_chunk=stop_after_first_chunk)
    run_batch(cfg)
    os.unlink(cfg.output + ".run.json")
    assert run_batch(config(tmp_path)).skipped == 5
    assert read_record(cfg.output + ".run.json") == run_record(cfg)


def test_parquet_readers_skip_the_record(tmp_path):
    hands_file(tmp_path / "in.txt", 7)
    cfg = config(tmp_path, "parquet")
    run_batch(cfg)
    assert os.path.isfile(os.path.join(cfg.output, "_run.json"))
    table = pq.read_table(cfg.output)
    assert sorted(table.column("line").to_pylist()) == list(range(1, 8))


def test_a_damaged_record_is_a_clear_error(tmp_path):
    hands_file(tmp_path / "in.txt", 6)
    cfg = config(tmp_path, on_chunk=stop_after_first_chunk)
    run_batch(cfg)
    Path(cfg.output + ".run.json").write_text("{not json")
    with pytest.raises(InputError, match="is not a capsa batch run record"):
        run_batch(config(tmp_path))


def test_cli_refuses_in_one_line(tmp_path, capsys):
    hands_file(tmp_path / "in.txt", 6)
    run_batch(config(tmp_path, on_chunk=stop_after_first_chunk))
    before = Path(tmp_path / "out.jsonl").read_bytes()
    code = capsa_main(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.jsonl"),
                       "--no-progress", "--workers", "1", "--no-card-removal"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("capsa: error: ") and "card_removal" in err
    assert Path(tmp_path / "out.jsonl").read_bytes() == before
    assert json.loads(Path(tmp_path / "out.jsonl.run.json").read_text())["card_removal"] is True
