"""``capsa batch``: input formats, errors file, durable output, resume after a torn write or a
Ctrl-C, a dying local worker. The reference is :func:`solver.batch.many.best_many` run in one
process on the same hands; "exactly once" is checked on the line numbers of the output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.batch import BatchConfig, LineSet, parse_line, run_batch, scan_lines
from solver.batch.many import best_many
from solver.cards import format_cards, parse_cards
from solver.cli import main as capsa_main
from solver.errors import InputError


def main(argv):
    return capsa_main(["batch", *argv])


ROOT = Path(__file__).resolve().parents[1]


def random_hands(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.int64)


def write_input(path: Path, hands: np.ndarray, bad: dict[int, str] | None = None) -> dict[int, int]:
    """Write hands in the three formats, with a comment, blank lines and ``bad`` lines placed
    at the given (1-based) line numbers. Returns {line number: index of the hand}."""
    bad = dict(bad or {})
    lines: list[str] = []
    where: dict[int, int] = {}
    i = 0
    while i < len(hands) or bad:
        n = len(lines) + 1
        if n in bad:
            lines.append(bad.pop(n))
        elif n == 1:
            lines.append("# hands for the batch test")
        elif n % 17 == 0:
            lines.append("   ")
        elif i < len(hands):
            cards = format_cards(hands[i])
            lines.append([" ".join(cards), json.dumps(cards),
                          json.dumps({"hand": " ".join(cards), "id": i})][i % 3])
            where[n] = i
            i += 1
        else:
            lines.append("")
    path.write_text("\n".join(lines) + "\n")
    return where


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(s) for s in path.read_text().splitlines()]


def check_complete(out: Path, where: dict[int, int], reference: list[dict]) -> None:
    """Every solved line exactly once, each equal to the single-process result."""
    rows = read_jsonl(out)
    lines = [r["line"] for r in rows]
    assert len(lines) == len(set(lines)), "a line was written twice"
    assert set(lines) == set(where)
    for r in rows:
        ref = reference[where[r["line"]]]
        assert {k: r[k] for k in ("hand", "front", "middle", "back", "ev")} == ref
        if where[r["line"]] % 3 == 2:
            assert r["id"] == where[r["line"]]
        else:
            assert "id" not in r


def config(tmp_path: Path, **kw) -> BatchConfig:
    kw.setdefault("workers", 1)
    kw.setdefault("progress", False)
    return BatchConfig(input=str(tmp_path / "in.txt"), output=str(tmp_path / "out.jsonl"), **kw)


# ---------------------------------------------------------------- parsing
def test_parse_line_formats_agree():
    cards = ["As", "Kd", "10h", "9c", "8s", "7d", "6h", "5c", "4s", "3d", "2h", "Qc", "Jd"]
    text = " ".join(cards)
    expected = np.sort(parse_cards(text))
    for line in (text, json.dumps(text), json.dumps(cards), json.dumps({"hand": cards}),
                 json.dumps({"hand": text, "id": "x"})):
        hand, _ = parse_line(line)
        assert hand.tolist() == expected.tolist()
    assert parse_line(json.dumps({"hand": text, "id": "x"}))[1] == "x"


@pytest.mark.parametrize("line, words", [
    ("As Kd", "expected 13 cards"),
    ("As Kd Qh Jc Tc 9c 8c 7c 6c 5c 4c 3c Zz", "unknown card 'Zz'"),
    ("As As Qh Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c", "duplicate card"),
    ('{"hand": "As"', "bad JSON"),
    ('{"cards": "As"}', "unknown field 'cards'"),
    ('{"id": 3}', 'no "hand"'),
    ('{"hand": "As", "id": [1]}', "id must be"),
    ("12", "unknown card '12'"),
    ('[1.5]', "card must be a string"),
    ('{"hand": 7}', "a hand is a string"),
])
def test_parse_line_errors(line, words):
    with pytest.raises(InputError, match=words.replace("(", r"\(")):
        parse_line(line)


# ---------------------------------------------------------------- runs
def test_batch_matches_best_many_and_records_bad_lines(tmp_path):
    hands = random_hands(700, seed=1)
    bad = {5: "As Kd Qh", 9: "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s Xx", 30: '{"hand": ',
           31: '{"hand": "As", "colour": 1}'}
    where = write_input(tmp_path / "in.txt", hands, bad)
    summary = run_batch(config(tmp_path, chunk_size=64, rules="two-four", opponents=2))
    assert (summary.solved, summary.errors, summary.skipped, summary.interrupted) == (700, 4, 0, False)
    check_complete(tmp_path / "out.jsonl", where, best_many(hands, "two-four", 2))
    errors = read_jsonl(tmp_path / "out.jsonl.errors.jsonl")
    assert [e["line"] for e in errors] == [5, 9, 30, 31]
    assert "expected 13 cards" in errors[0]["error"] and "'Xx'" in errors[1]["error"]
    assert "bad JSON" in errors[2]["error"] and "colour" in errors[3]["error"]
    # a rerun has nothing left to do and duplicates nothing
    again = run_batch(config(tmp_path, chunk_size=64, rules="two-four", opponents=2))
    assert (again.solved, again.errors, again.skipped) == (0, 0, 704)
    check_complete(tmp_path / "out.jsonl", where, best_many(hands, "two-four", 2))
    assert len(read_jsonl(tmp_path / "out.jsonl.errors.jsonl")) == 4


def test_local_processes_ordered(tmp_path):
    hands = random_hands(900, seed=2)
    where = write_input(tmp_path / "in.txt", hands)
    summary = run_batch(config(tmp_path, workers=2, chunk_size=50, ordered=True))
    assert summary.solved == 900 and summary.backend == "local processes"
    check_complete(tmp_path / "out.jsonl", where, best_many(hands))
    lines = [r["line"] for r in read_jsonl(tmp_path / "out.jsonl")]
    assert lines == sorted(lines)
    assert not (tmp_path / "out.jsonl.errors.jsonl").exists()


def test_montecarlo_does_not_depend_on_chunking(tmp_path):
    hands = random_hands(12, seed=3)
    where = write_input(tmp_path / "in.txt", hands)
    run_batch(config(tmp_path, method="montecarlo", samples=20, seed=5, opponents=1, chunk_size=5))
    check_complete(tmp_path / "out.jsonl", where,
                   best_many(hands, opponents=1, method="montecarlo", samples=20, seed=5))


@pytest.mark.parametrize("rules", ["two-four", {"preset": "standard", "scoring": "two-four"}])
def test_a_run_resolves_its_rules_once_and_sends_every_chunk_one_spec(tmp_path, monkeypatch,
                                                                     rules):
    import pickle

    from solver.batch import many, run
    from solver.games.capsa.rules import Rules, resolve_rules

    resolved: list[object] = []
    specs: list[many.ChunkSpec] = []

    def counting(spec):
        resolved.append(spec)
        return resolve_rules(spec)

    def solve(items, spec):
        specs.append(spec)
        return real_solve(items, spec)

    real_solve = run.solve_lines
    monkeypatch.setattr(run, "resolve_rules", counting)
    monkeypatch.setattr(many, "resolve_rules", counting)
    monkeypatch.setattr(run, "solve_lines", solve)
    hands = random_hands(30, seed=8)
    where = write_input(tmp_path / "in.txt", hands)
    run_batch(config(tmp_path, rules=rules, opponents=2, chunk_size=7))
    assert resolved == [rules]  # once, by the configuration's check
    assert len(specs) == 5 and all(s is specs[0] for s in specs)
    spec = specs[0]
    assert isinstance(spec.rules, Rules) and spec.rules == resolve_rules(rules)
    assert (spec.opponents, spec.method, spec.format, spec.tables) == (2, "table", "jsonl", None)
    assert pickle.loads(pickle.dumps(spec)) == spec
    with pytest.raises(AttributeError):
        spec.seed = 1  # frozen
    check_complete(tmp_path / "out.jsonl", where, best_many(hands, rules, 2))


def test_dying_local_worker_loses_nothing(tmp_path):
    from solver.executors.pool import local_pool

    # the killed process may be idle or hold a chunk: either way nothing may be lost (that a
    # lost call is redone is checked deterministically in test_batch_schedule.py)
    hands = random_hands(3000, seed=4)
    where = write_input(tmp_path / "in.txt", hands)
    killed: list[int] = []

    def kill_one(written: int) -> None:
        if not killed:
            pid = local_pool(2).worker_pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    summary = run_batch(config(tmp_path, workers=2, chunk_size=20, on_chunk=kill_one))
    assert killed and summary.solved == 3000
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(local_pool(2).worker_pids()) < 2:
        time.sleep(0.05)
    pids = local_pool(2).worker_pids()
    assert killed[0] not in pids and len(pids) == 2  # the supervisor replaced it
    check_complete(tmp_path / "out.jsonl", where, best_many(hands))


@settings(max_examples=25)
@given(st.data())
def test_torn_output_is_cut_and_resumed(tmp_path_factory, data):
    tmp_path = tmp_path_factory.mktemp("torn")
    hands = random_hands(40, seed=5)
    where = write_input(tmp_path / "in.txt", hands, {3: "As"})
    run_batch(config(tmp_path, chunk_size=7))
    out = tmp_path / "out.jsonl"
    err = tmp_path / "out.jsonl.errors.jsonl"
    full = out.read_bytes()
    # an interrupted write: any prefix of the file, maybe followed by zeros (a crash after
    # the size was extended but before the data reached the disk)
    cut = data.draw(st.integers(0, len(full)), label="cut")
    zeros = data.draw(st.sampled_from([0, 0, 5]), label="zeros")
    out.write_bytes(full[:cut] + b"\0" * zeros)
    if data.draw(st.booleans(), label="errors file torn"):
        err.write_bytes(err.read_bytes()[:-3])
    summary = run_batch(config(tmp_path, chunk_size=7))
    assert summary.torn_bytes_dropped >= (0 if full[:cut].endswith(b"\n") or cut == 0 else 1)
    check_complete(out, where, best_many(hands))
    assert [e["line"] for e in read_jsonl(err)] == [3]


def test_damaged_output_is_refused(tmp_path):
    write_input(tmp_path / "in.txt", random_hands(3))
    out = tmp_path / "out.jsonl"
    out.write_text('{"line": 2, "ev": 1}\nnot a record\n{"line": 3, "ev": 1}\n')
    assert main([str(tmp_path / "in.txt"), "-o", str(out), "--no-progress"]) == 2
    assert scan_lines(str(tmp_path / "in.txt"), LineSet()) == (0, 0)


def test_cli_errors_create_nothing(tmp_path, capsys):
    write_input(tmp_path / "in.txt", random_hands(3))
    out = tmp_path / "out.jsonl"
    cases = [
        ([str(tmp_path / "missing.txt"), "-o", str(out)], "cannot read"),
        ([str(tmp_path / "in.txt"), "-o", str(out), "--rules", "nope"], "unknown rules preset"),
        ([str(tmp_path / "in.txt"), "-o", str(out), "--rules", "{bad"], "not valid JSON"),
        ([str(tmp_path / "in.txt"), "-o", str(out), "--opponents", "4"], "--opponents"),
        ([str(tmp_path / "in.txt"), "-o", str(out), "--chunk-size", "0"], "--chunk-size"),
        ([str(tmp_path / "in.txt"), "-o", str(out), "--workers", "x"], "integer"),
        ([str(tmp_path / "in.txt"), "-o", str(out), "--method", "known"], "invalid choice"),
        ([str(tmp_path / "in.txt"), "-o", str(tmp_path / "no" / "out.jsonl")], "no directory"),
        ([str(tmp_path / "in.txt"), "-o", str(tmp_path)], "is a directory"),
        ([str(tmp_path / "in.txt"), "-o", str(out), "--scheduler", "tcp://x:1",
          "--cluster", "local"], "not allowed with"),
        ([str(tmp_path / "in.txt")], "required"),
    ]
    for argv, words in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("capsa: error: ") and words in err and err.count("\n") == 1, err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_stdin_and_json_summary(tmp_path):
    hands = random_hands(30, seed=6)
    where = write_input(tmp_path / "in.txt", hands)
    proc = subprocess.run([sys.executable, "-m", "solver.cli", "batch", "-", "-o", "out.jsonl",
                           "--json-summary", "--workers", "1"],
                          input=(tmp_path / "in.txt").read_bytes(), cwd=tmp_path,
                          capture_output=True, timeout=120, env=_env())
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["solved"] == 30 and summary["errors"] == 0 and not summary["interrupted"]
    assert b"30 hands solved" in proc.stderr
    check_complete(tmp_path / "out.jsonl", where, best_many(hands))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.parametrize("workers, group", [(1, False), (2, True)], ids=["in-process", "pool"])
def test_ctrl_c_then_rerun_gives_every_line_once(tmp_path, workers, group):
    """SIGINT once the first chunk is written: to the command alone, or (like Ctrl-C in a
    terminal) to its whole process group, local pool workers included."""
    hands = random_hands(300, seed=7)
    where = write_input(tmp_path / "in.txt", hands, {40: "2c 2c"})
    out = tmp_path / "out.jsonl"
    argv = [sys.executable, "-m", "solver.cli", "batch", "in.txt", "-o", "out.jsonl",
            "--workers", str(workers), "--method", "montecarlo", "--samples", "20",
            "--opponents", "1", "--chunk-size", "15", "--no-progress"]
    # a shell runs background jobs with SIGINT ignored, and a child inherits that: give the
    # command the default disposition, as a terminal would, whatever launched the tests
    proc = subprocess.Popen(argv, cwd=tmp_path, stderr=subprocess.PIPE, env=_env(),
                            start_new_session=group,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.01)
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"interrupted" in err
    first = read_jsonl(out)  # whole records only
    assert 0 < len(first) < 300
    summary = run_batch(config(tmp_path, method="montecarlo", samples=20, opponents=1,
                               chunk_size=15))
    assert summary.skipped + summary.solved + summary.errors == 301
    rows = read_jsonl(out)
    lines = [r["line"] for r in rows]
    assert len(lines) == len(set(lines)) and set(lines) == set(where)
    assert [e["line"] for e in read_jsonl(tmp_path / "out.jsonl.errors.jsonl")] == [40]
    # the results are the per-hand seeded ones, whichever run wrote them
    by_line = {r["line"]: r for r in rows}
    sample = sorted(where)[::30]
    ref = best_many(hands[[where[n] for n in sample]], opponents=1, method="montecarlo",
                    samples=20)
    for n, r in zip(sample, ref):
        assert {k: by_line[n][k] for k in r} == r


def test_line_set_and_scan(tmp_path):
    s = LineSet()
    assert s.add(3) and not s.add(3) and 3 in s and 2 not in s and 10**7 not in s
    f = tmp_path / "r.jsonl"
    f.write_bytes(b'{"line": 4, "x": 1}\n{"line": 9}\n{"line": 1')
    done = LineSet()
    assert scan_lines(str(f), done) == (2, 32)
    assert 4 in done and 9 in done and 1 not in done


def test_capsa_batch_command(tmp_path, capsys):
    """``capsa batch`` once the lead has added :func:`add_batch_command` to the CLI."""
    from solver import cli

    hands = random_hands(20, seed=8)
    where = write_input(tmp_path / "in.txt", hands, {6: "Qs"})
    assert cli.main(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "o.jsonl"),
                     "--no-progress", "--workers", "1"]) == 0
    assert "20 hands solved" in capsys.readouterr().err
    check_complete(tmp_path / "o.jsonl", where, best_many(hands))
    assert cli.main(["batch", str(tmp_path / "nope"), "-o", str(tmp_path / "x")]) == 2
