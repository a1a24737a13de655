"""``capsa batch --format parquet``: the same records as JSON lines, one whole part per chunk,
every line exactly once after an interruption, leftovers of a torn write removed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from test_batch import check_complete, random_hands, write_input

from solver.batch import BatchConfig, run_batch
from solver.batch.many import best_many
from solver.cli import main as capsa_main


def config(tmp_path: Path, **kw) -> BatchConfig:
    kw.setdefault("workers", 1)
    kw.setdefault("progress", False)
    kw.setdefault("format", "parquet")
    return BatchConfig(input=str(tmp_path / "in.txt"), output=str(tmp_path / "out.parquet"), **kw)


def as_jsonl(parquet_dir: Path, jsonl: Path) -> None:
    """The records of a Parquet output written as the JSON lines ``capsa batch`` writes."""
    rows = pq.read_table(parquet_dir).to_pylist()
    with open(jsonl, "w") as f:
        for r in rows:
            d = {"line": r["line"]}
            if r["id"] is not None:
                d["id"] = int(r["id"])  # the test input's ids are integers
            d.update({k: r[k] for k in ("hand", "front", "middle", "back")})
            d["ev"] = round(r["ev"], 6)
            f.write(json.dumps(d) + "\n")


def test_parquet_equals_json_lines(tmp_path):
    hands = random_hands(300, seed=2)
    where = write_input(tmp_path / "in.txt", hands, {6: "As Kd"})
    summary = run_batch(config(tmp_path, chunk_size=50))
    assert (summary.solved, summary.errors) == (300, 1)
    parts = sorted(p for p in os.listdir(tmp_path / "out.parquet") if p.endswith(".parquet"))
    assert len(parts) == 7  # 301 lines in chunks of 50
    as_jsonl(tmp_path / "out.parquet", tmp_path / "back.jsonl")
    check_complete(tmp_path / "back.jsonl", where, best_many(hands))
    jl = run_batch(BatchConfig(input=str(tmp_path / "in.txt"), output=str(tmp_path / "o.jsonl"),
                               workers=1, progress=False, chunk_size=50))
    assert jl.solved == 300
    assert sorted((tmp_path / "o.jsonl").read_text().splitlines()) == \
        sorted((tmp_path / "back.jsonl").read_text().splitlines())
    again = run_batch(config(tmp_path, chunk_size=50))
    assert (again.solved, again.errors, again.skipped) == (0, 0, 301)


def test_interrupted_parquet_run_resumes_every_line_once(tmp_path):
    hands = random_hands(200, seed=4)
    where = write_input(tmp_path / "in.txt", hands)

    def stop(written: int) -> None:
        if written == 2:
            raise KeyboardInterrupt

    first = run_batch(config(tmp_path, chunk_size=30, on_chunk=stop))
    assert first.interrupted and first.solved == 60
    # a write torn before its rename leaves only a temporary file: the rerun removes it
    torn = tmp_path / "out.parquet" / "part-00000002.parquet.tmp"
    torn.write_bytes(b"PAR1 half a part")
    second = run_batch(config(tmp_path, chunk_size=30))
    assert second.torn_bytes_dropped == len(b"PAR1 half a part") and not torn.exists()
    assert second.skipped == 60 and second.solved == 140
    as_jsonl(tmp_path / "out.parquet", tmp_path / "back.jsonl")
    check_complete(tmp_path / "back.jsonl", where, best_many(hands))


def test_damaged_part_is_refused(tmp_path):
    write_input(tmp_path / "in.txt", random_hands(5))
    (tmp_path / "out.parquet").mkdir()
    (tmp_path / "out.parquet" / "part-00000000.parquet").write_bytes(b"not parquet")
    with pytest.raises(Exception, match="not a readable Parquet part"):
        run_batch(config(tmp_path))


def test_cli_parquet(tmp_path, capsys):
    write_input(tmp_path / "in.txt", random_hands(40, seed=9))
    out = tmp_path / "res"
    assert capsa_main(["batch", str(tmp_path / "in.txt"), "-o", str(out), "--format",
                       "parquet", "--workers", "1", "--no-progress"]) == 0
    assert pq.read_table(out).num_rows == 40
    (tmp_path / "file.parquet").write_text("x")
    code = capsa_main(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "file.parquet"),
                       "--format", "parquet", "--no-progress"])
    assert code != 0
    assert "must be a directory" in capsys.readouterr().err
