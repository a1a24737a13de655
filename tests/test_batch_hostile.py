"""``capsa batch`` and ``capsa review`` against hostile input and a failing disk.

A hostile line (a lone surrogate as an escape or as raw bytes, bytes that are not UTF-8, JSON
nested 1,000 deep, ``1e400``, ``NaN``, a huge integer, a line of 10 MB) is a bad line like any
other: it goes to the errors with a one-line reason and the other lines of its chunk are
written; every line written parses with a strict JSON parser. A file that cannot be written (a
full disk, a read-only folder) is one line on standard error and exit status 2, leaves no torn
line, and a rerun completes the output with every line exactly once.

The disk is made to fail by replacing ``os.write`` / ``os.open`` for the files under test (a
read-only folder does not stop root, and tests may run as root)."""

from __future__ import annotations

import errno
import io
import json
import os
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.batch.lines import MAX_LINE_BYTES, error_record, read_lines
from solver.cards import format_cards
from solver.cli import main as capsa

HAND = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"
# any code point, lone surrogates often
ANY_CHAR = st.one_of(st.characters(exclude_categories=()),
                     st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF))
ROWS = {"front": "5s 3c 2h", "middle": "As Ad Kh 7c 6d", "back": "Kd Qc Js Ts 9h"}
DEEP = b"[" * 1000 + b"]" * 1000


def hands(n: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(format_cards(np.sort(rng.permutation(52)[:13]))) for _ in range(n)]


def _refuse(name: str) -> object:
    raise ValueError(f"{name} in the output")


def strict(line: bytes) -> object:
    """A line of output: UTF-8, strict JSON (no NaN or Infinity), and re-encodable as UTF-8
    (no lone surrogate from an escape)."""
    value = json.loads(line.decode("utf-8"), parse_constant=_refuse)
    json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    return value


def records(path: Path) -> list[dict]:
    """Every record of a JSON lines output, each whole and strict."""
    if not path.exists():
        return []
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), "a torn last line"
    return [strict(s) for s in data.split(b"\n")[:-1]]


def obj(hand: str, ident: bytes) -> bytes:
    return b'{"id": ' + ident + b', "hand": "' + hand.encode() + b'"}'


# (name, line, words of its error); the hand of each is valid, only the hostile part is bad
BAD_LINES = [
    ("surrogate escape in the id", obj(HAND, b'"\\ud800"'), "lone surrogate U+D800"),
    ("low surrogate escape in the id", obj(HAND, b'"a\\udc00b"'), "lone surrogate U+DC00"),
    ("surrogate escape in the hand", b'{"hand": "\\ud800 Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"}',
     "lone surrogate"),
    ("raw encoded surrogate in the id", obj(HAND, b'"\xed\xa0\x80"'),
     "encoded surrogate (ED A0 80)"),
    ("raw encoded surrogate in a plain hand", b"As \xed\xa0\x80 Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s",
     "encoded surrogate"),
    ("invalid UTF-8 in the id", obj(HAND, b'"\xff\xfe"'), "not UTF-8 text: invalid start byte"),
    ("truncated UTF-8 in the id", obj(HAND, b'"\xc3"'), "not UTF-8 text"),
    ("id nested 1,000 deep", obj(HAND, DEEP), "nested more than 64 deep"),
    ("id nested 100 deep", obj(HAND, b"[" * 100 + b"]" * 100), "nested more than 64 deep"),
    ("objects nested 1,000 deep", obj(HAND, b'{"a": ' * 1000 + b"1" + b"}" * 1000), "nested"),
    ("a whole line nested 50,000 deep", b"[" * 50_000, "nested"),
    ("id 1e400", obj(HAND, b"1e400"), "1e400 is beyond the range of a double"),
    ("id -1e400", obj(HAND, b"-1e400"), "beyond the range"),
    ("id NaN", obj(HAND, b"NaN"), "NaN is not a JSON number"),
    ("id Infinity", obj(HAND, b"-Infinity"), "-Infinity is not a JSON number"),
    ("id of 5,000 digits", obj(HAND, b"9" * 5000), "5,000 digits"),
    ("a line of 10 MB", obj(HAND, b'"' + b"x" * 10_000_000 + b'"'), "a line may hold at most"),
    ("a plain line just over the limit", b"As " * (MAX_LINE_BYTES // 3 + 1), "at most 65,536"),
]
# valid if odd: solved, and the id echoed exactly
GOOD_IDS = [
    ("line separators", "a\u2028b\u2029c\x85d"),
    ("controls", "tab\there\x00nul\x1b"),
    ("astral, joined and right to left", "😀👩‍👩‍👧 שלום \u200b\ufeff"),
    ("a surrogate pair as escapes", "\U0001F600"),
    ("backslash u text", "\\ud800"),
    ("a big integer", 10 ** 300),
    ("a negative integer", -(2 ** 70)),
]


def batch_input(path: Path) -> tuple[dict[int, str], dict[int, object]]:
    """The hostile lines between good ones: {line: words of its error}, {line: id echoed}."""
    lines: list[bytes] = [b"# hostile lines"]
    bad: dict[int, str] = {}
    good: dict[int, object] = {}
    pool = iter(hands(len(BAD_LINES) + 2 * len(GOOD_IDS), seed=11))
    for _, line, words in BAD_LINES:
        lines.append(line)
        bad[len(lines)] = words
        lines.append(next(pool).encode())  # a good line right after: numbering holds
        good[len(lines)] = None
    lines.append(b"#" + b"x" * (MAX_LINE_BYTES * 2))  # an over-long comment is a comment
    lines.append(b" " * (MAX_LINE_BYTES * 2))  # an over-long blank line is blank
    for _, ident in GOOD_IDS:
        lines.append(json.dumps({"hand": next(pool), "id": ident}).encode())  # \\u escapes
        good[len(lines)] = ident
        lines.append(json.dumps({"hand": next(pool), "id": ident}, ensure_ascii=False)
                     .encode("utf-8", "surrogatepass"))
        good[len(lines)] = ident
    path.write_bytes(b"\n".join(lines) + b"\n")
    return bad, good


def run_batch_cli(capsys, tmp_path: Path, *extra: str) -> tuple[int, str]:
    code = capsa(["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out.jsonl"),
                  "--workers", "1", "--no-progress", *extra])
    return code, capsys.readouterr().err


# ---------------------------------------------------------------- hostile lines
def test_hostile_lines_go_to_the_errors_and_their_chunk_is_written(tmp_path, capsys):
    bad, good = batch_input(tmp_path / "in.jsonl")
    code, err = run_batch_cli(capsys, tmp_path, "--chunk-size", "1000")  # one chunk
    assert code == 0, err
    assert "Traceback" not in err
    out = records(tmp_path / "out.jsonl")
    errors = records(tmp_path / "out.jsonl.errors.jsonl")
    assert sorted(r["line"] for r in out) == sorted(good)
    assert sorted(e["line"] for e in errors) == sorted(bad)
    for r in out:
        assert r.get("id") == good[r["line"]], r["line"]
    for e in errors:
        assert bad[e["line"]] in e["error"], (e, bad[e["line"]])
        assert len(e["error"]) < 400  # one short line, whatever the input held
    # a rerun finds every line done: each is in exactly one of the two files
    code, err = run_batch_cli(capsys, tmp_path)
    assert code == 0 and f"{len(good) + len(bad)} skipped" in err
    assert len(records(tmp_path / "out.jsonl")) == len(out)


def test_a_hostile_line_in_every_chunk_on_local_processes(tmp_path, capsys):
    """The probe's case: a hostile line in a chunk used to stop the run and every rerun at
    that chunk. Here each chunk of 7 holds one, on two worker processes."""
    good = hands(60, seed=12)
    lines, bad_at = [], []
    hostile = [b for _, b, _ in BAD_LINES if len(b) < 100_000]
    for i, h in enumerate(good):
        if i % 6 == 3:
            lines.append(hostile[(i // 6) % len(hostile)])
            bad_at.append(len(lines))
        lines.append(h.encode())
    (tmp_path / "in.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    code = capsa(["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out.jsonl"),
                  "--workers", "2", "--chunk-size", "7", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 0 and "local processes" in err, err
    out = records(tmp_path / "out.jsonl")
    assert len(out) == len(good)
    assert sorted(e["line"] for e in records(tmp_path / "out.jsonl.errors.jsonl")) == bad_at


def test_hostile_lines_in_parquet(tmp_path, capsys):
    bad, good = batch_input(tmp_path / "in.jsonl")
    code = capsa(["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out.parquet"),
                  "--format", "parquet", "--workers", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 0 and "Traceback" not in err, err
    table = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert sorted(r["line"] for r in table) == sorted(good)
    for r in table:
        ident = good[r["line"]]
        assert r["id"] == (None if ident is None else str(ident))
    errors = records(tmp_path / "out.parquet.errors.jsonl")
    assert sorted(e["line"] for e in errors) == sorted(bad)


def test_review_reports_hostile_lines_and_reviews_the_rest(tmp_path, capsys):
    lines: list[bytes] = [json.dumps({**ROWS, "id": "first"}).encode()]
    bad: dict[int, str] = {}
    good: dict[int, object] = {1: "first"}
    for _, line, words in BAD_LINES:
        if line.startswith(obj(HAND, b"")[:7]):  # an id line: give it rows to review instead
            line = line.replace(b'"hand": "' + HAND.encode() + b'"',
                                json.dumps(ROWS)[1:-1].encode())
        lines.append(line)
        bad[len(lines)] = words
    for _, ident in GOOD_IDS + [("nested a little", [[{"a": [1, 2.5, None]}]])]:
        lines.append(json.dumps({**ROWS, "id": ident}, ensure_ascii=False)
                     .encode("utf-8", "surrogatepass"))
        good[len(lines)] = ident
    lines.append(b"\xef\xbb\xbf")  # not a byte-order mark here: neither rows nor JSON
    bad[len(lines)] = "front | middle | back (the cards of each row between bars) or a JSON"
    path = tmp_path / "played.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(lines) + b"\r\n")
    errors_file = tmp_path / "not-reviewed.jsonl"
    code = capsa(["review", str(path), "--json", "--no-progress", "--errors", str(errors_file)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    rep = strict(captured.out.encode())
    assert isinstance(rep, dict)
    assert {h["line"]: h.get("id") for h in rep["hands"]} == good
    assert sorted(e["line"] for e in rep["errors"]) == sorted(bad)
    for e in rep["errors"]:
        assert bad[e["line"]] in e["error"], (e, bad[e["line"]])
    # the batch errors file's shape: each line and its reason (the report adds its code)
    assert records(errors_file) == [{"line": e["line"], "error": e["error"]} for e in rep["errors"]]
    # the text report names the same lines, one line each
    assert capsa(["review", str(path), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert f"hands reviewed: {len(good)}" in text
    for n in sorted(bad)[:20]:
        assert sum(row.startswith(f"line {n}: ") for row in text.splitlines()) == 1


def test_review_of_python_objects_refuses_ids_it_could_not_write():
    from solver.games.capsa.coach import review

    deep: list = []
    for _ in range(5000):
        deep = [deep]
    ids = [float("nan"), float("-inf"), "\ud800", deep, {1: 2}, object(), ["ok", 1.5]]
    rep = review([{**ROWS, "id": ident} for ident in ids], opponents=1)
    assert [h.line for h in rep.hands] == [7]
    assert [e.line for e in rep.errors] == [1, 2, 3, 4, 5, 6]
    json.dumps(rep.to_dict(), ensure_ascii=False, allow_nan=False).encode("utf-8")
    # a U+2028 in a string does not end a line of text
    rep = review(json.dumps({**ROWS, "id": "a\u2028b"}, ensure_ascii=False) + "\n{", opponents=1)
    assert [h.line for h in rep.hands] == [1] and [e.line for e in rep.errors] == [2]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ANY_CHAR, max_size=400), st.integers(1, 10 ** 9))
def test_an_error_record_always_writes(message, line):
    rec = error_record(line, message)
    assert "\n" not in rec and "\r" not in rec and "\u2028" not in rec
    parsed = strict(rec.encode("utf-8"))
    assert isinstance(parsed, dict) and parsed["line"] == line
    if len(message) <= 300 and message.isprintable():
        assert parsed["error"] == message  # nothing to escape: kept as it is


def test_read_lines_counts_and_skips_over_long_lines():
    data = (b"\xef\xbb\xbf# bom\n" + b"x" * 100 + b"\n" + b"  " * 50 + b"\n" + b"#" * 100
            + b"\n\xff\n" + b"y" * 100)
    got = list(read_lines(io.BytesIO(data), limit=40))
    assert [n for n, _ in got] == [1, 2, 3, 4, 5, 6]
    assert got[0][1] is None and got[2][1] is None and got[3][1] is None
    assert "100 bytes long" in getattr(got[1][1], "reason")
    assert "not UTF-8" in getattr(got[4][1], "reason")
    assert "100 bytes long" in getattr(got[5][1], "reason")


# ---------------------------------------------------------------- arbitrary lines
def _content(line: bytes) -> bytes:
    """``line`` made one line that is neither blank nor a comment, for both commands."""
    line = line.replace(b"\n", b" ").replace(b"\r", b" ")
    try:
        text = line.decode("utf-8").strip()
    except UnicodeDecodeError:
        text = line.strip().decode("latin-1")
    if not text or text.startswith("#") or not line.strip() or line.startswith(b"\xef\xbb\xbf"):
        return b"x" + line
    return line


def _deep(d: int) -> bytes:
    return b"[" * d + b"]" * d


JSON_IDS = st.one_of(
    st.text(max_size=20).map(json.dumps),
    st.text(alphabet=ANY_CHAR, min_size=1, max_size=3).map(json.dumps),  # \ud800 escapes
    st.floats().map(lambda x: json.dumps(x)),  # NaN and Infinity included
    st.sampled_from(["1e400", "-1e999", "1E309", "0.0", "-0", "1.5"]),
    st.integers(0, 6000).map(lambda k: "9" * max(k, 1)),
    st.sampled_from([1, 63, 64, 65, 900, 999, 1000, 5000]).map(lambda d: _deep(d).decode()),
).map(str.encode)
HOSTILE = st.one_of(
    st.binary(max_size=120),
    st.text(max_size=60).map(str.encode),
    st.text(alphabet=ANY_CHAR, max_size=20).map(
        lambda t: t.encode("utf-8", "surrogatepass")),  # raw encoded surrogates
    st.tuples(st.sampled_from(hands(5, seed=13)), JSON_IDS).map(lambda p: obj(p[0], p[1])),
    st.tuples(st.binary(max_size=8), JSON_IDS).map(lambda p: b'{"hand": ' + p[1] + p[0] + b"}"),
    st.sampled_from([MAX_LINE_BYTES - 2, MAX_LINE_BYTES, MAX_LINE_BYTES + 1, 300_000]).map(
        lambda n: obj(HAND, b'"' + b"z" * n + b'"')),
)
GOOD = st.tuples(st.sampled_from(hands(20, seed=14)), st.one_of(
    st.none(), st.text(max_size=10), st.integers(-10 ** 20, 10 ** 20)), st.integers(0, 3))


def _good_line(p: tuple[str, object, int]) -> tuple[bytes, object]:
    """A valid line: plain text, a JSON list, or an object with an id (escaped or raw)."""
    hand, ident, form = p
    if form == 0 or ident is None and form > 1:
        return hand.encode(), None
    if form == 1:
        return json.dumps(hand.split()).encode(), None
    return json.dumps({"hand": hand, "id": ident}, ensure_ascii=form == 2).encode(), ident


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          deadline=None)
@given(st.lists(st.one_of(HOSTILE.map(lambda b: ("bad", b)), GOOD.map(lambda g: ("good", g))),
                min_size=1, max_size=12), st.integers(1, 5))
def test_arbitrary_lines_each_land_once_as_strict_json(tmp_path_factory, capsys, items, chunk):
    tmp = tmp_path_factory.mktemp("mix")
    lines: list[bytes] = []
    good: dict[int, object] = {}
    for kind, item in items:
        if kind == "good":
            line, ident = _good_line(item)
            good[len(lines) + 1] = ident
        else:
            line = _content(item)
        lines.append(line)
    (tmp / "in.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    code = capsa(["batch", str(tmp / "in.jsonl"), "-o", str(tmp / "out.jsonl"), "--workers",
                  "1", "--chunk-size", str(chunk), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 0, err  # bad lines never fail the run
    out = records(tmp / "out.jsonl")
    errors = records(tmp / "out.jsonl.errors.jsonl")
    numbers = [r["line"] for r in out] + [e["line"] for e in errors]
    assert sorted(numbers) == list(range(1, len(lines) + 1))  # each line exactly once
    solved = {r["line"]: r.get("id") for r in out}
    for n, ident in good.items():
        assert solved.get(n, "missing") == ident, (n, lines[n - 1])
    assert all(isinstance(e["error"], str) and e["error"] for e in errors)
    # the same lines, reviewed: each line once, as a hand or a line not reviewed
    code = capsa(["review", str(tmp / "in.jsonl"), "--json", "--no-progress", "--opponents",
                  "1"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    rep = strict(captured.out.encode())
    assert isinstance(rep, dict)
    reviewed = [h["line"] for h in rep["hands"]] + [e["line"] for e in rep["errors"]]
    assert sorted(reviewed) == list(range(1, len(lines) + 1))


# ---------------------------------------------------------------- a failing disk
class FailingDisk:
    """``os.write`` that fills the disk after ``room`` bytes to the files whose name ends with
    ``suffix``: the write that crosses the limit writes what fits (a torn line) and returns,
    the next one raises ENOSPC."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, suffix: str, room: int):
        self.suffix, self.room, self.fds = suffix, room, set()
        self.real_open, self.real_write, self.real_close = os.open, os.write, os.close
        monkeypatch.setattr(os, "open", self.open)
        monkeypatch.setattr(os, "write", self.write)
        monkeypatch.setattr(os, "close", self.close)

    def open(self, path, flags, mode=0o777, *, dir_fd=None):
        fd = self.real_open(path, flags, mode, dir_fd=dir_fd)
        if os.fspath(path).endswith(self.suffix):
            self.fds.add(fd)
        return fd

    def close(self, fd):
        self.fds.discard(fd)
        self.real_close(fd)

    def write(self, fd, data):
        if fd not in self.fds:
            return self.real_write(fd, data)
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = self.real_write(fd, bytes(data[:self.room]))
        self.room -= n
        return n


def one_error_line(err: str, *words: str) -> None:
    assert "Traceback" not in err
    assert err.startswith("capsa: error: cannot write ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, (w, err)


def write_hands(path: Path, n: int, bad_every: int = 0, seed: int = 15) -> int:
    lines = []
    for i, h in enumerate(hands(n, seed)):
        lines.append(h)
        if bad_every and i % bad_every == bad_every - 1:
            lines.append('{"id": "\\udfff", "hand": "' + h + '"}')
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


@pytest.mark.parametrize("target", ["out.jsonl", "out.jsonl.errors.jsonl"])
def test_a_full_disk_is_one_line_and_a_rerun_completes(tmp_path, capsys, monkeypatch, target):
    total = write_hands(tmp_path / "in.jsonl", 120, bad_every=10)
    out, errs = tmp_path / "out.jsonl", tmp_path / "out.jsonl.errors.jsonl"
    room = 9_000 if target == "out.jsonl" else 150  # the second chunk's writes tear
    disk = FailingDisk(monkeypatch, target, room)
    code, err = run_batch_cli(capsys, tmp_path, "--chunk-size", "20")
    assert code == 2 and disk.room == 0
    one_error_line(err, str(tmp_path / target), "No space left on device")
    first = records(out) + records(errs)  # whole records only: the torn write was cut
    assert len({r["line"] for r in first}) == len(first) < total
    monkeypatch.undo()
    code, err = run_batch_cli(capsys, tmp_path, "--chunk-size", "20")
    assert code == 0, err
    rows = records(out) + records(errs)
    assert sorted(r["line"] for r in rows) == list(range(1, total + 1))
    assert len(records(errs)) == 12


def test_a_full_disk_under_parquet(tmp_path, capsys, monkeypatch):
    total = write_hands(tmp_path / "in.jsonl", 60)
    part = tmp_path / "out.parquet"
    FailingDisk(monkeypatch, ".parquet.tmp", 10_000)
    argv = ["batch", str(tmp_path / "in.jsonl"), "-o", str(part), "--format", "parquet",
            "--workers", "1", "--chunk-size", "20", "--no-progress"]
    assert capsa(argv) == 2
    one_error_line(capsys.readouterr().err, str(part / "part-0000000"), "No space left")
    assert not [p for p in os.listdir(part) if p.endswith(".tmp")]
    monkeypatch.undo()
    assert capsa(argv) == 0
    lines = pq.read_table(part).column("line").to_pylist()
    assert sorted(lines) == list(range(1, total + 1))


def test_a_failing_fsync_is_cut_off_too(tmp_path, capsys, monkeypatch):
    total = write_hands(tmp_path / "in.jsonl", 50)
    out = tmp_path / "out.jsonl"
    real_fsync = os.fsync
    calls = []

    def fsync(fd):
        if out.exists() and os.fstat(fd).st_ino == out.stat().st_ino:
            calls.append(fd)
            if len(calls) == 2:  # the second chunk's
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    code, err = run_batch_cli(capsys, tmp_path, "--chunk-size", "10")
    assert code == 2
    one_error_line(err, "out.jsonl", os.strerror(errno.EIO))
    done = records(tmp_path / "out.jsonl")
    monkeypatch.undo()
    assert run_batch_cli(capsys, tmp_path, "--chunk-size", "10")[0] == 0
    rows = records(tmp_path / "out.jsonl")
    assert rows[:len(done)] == done
    assert sorted(r["line"] for r in rows) == list(range(1, total + 1))


def read_only(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make ``folder`` refuse new files: chmod, and where that does not stop this process
    (root), an ``os.open`` that refuses them as the file system would."""
    folder.chmod(0o555)
    probe = folder / ".probe"
    try:
        probe.touch()
    except PermissionError:
        return
    probe.unlink()
    real_open = os.open

    def refuse(path, flags, mode=0o777, *, dir_fd=None):
        if Path(os.path.abspath(path)).parent == folder and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", refuse)


def test_a_read_only_output_folder(tmp_path, capsys, monkeypatch):
    write_hands(tmp_path / "in.jsonl", 5)
    folder = tmp_path / "ro"
    folder.mkdir()
    try:
        read_only(monkeypatch, folder)
        code = capsa(["batch", str(tmp_path / "in.jsonl"), "-o", str(folder / "out.jsonl"),
                      "--workers", "1", "--no-progress"])
        assert code == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1
        assert f"cannot write {folder / 'out.jsonl'}: " in err and "ermission denied" in err
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o755)


def test_an_unwritable_errors_file_mid_run(tmp_path, capsys, monkeypatch):
    """The errors file is opened at the first bad line, chunks after the start."""
    total = write_hands(tmp_path / "in.jsonl", 60, bad_every=45)
    folder = tmp_path / "ro"
    folder.mkdir()
    errs = folder / "errors.jsonl"
    argv = ["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out.jsonl"), "--errors",
            str(errs), "--workers", "1", "--chunk-size", "10", "--no-progress"]
    try:
        read_only(monkeypatch, folder)
        assert capsa(argv) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1
        assert f"cannot write {errs}: " in err and "ermission denied" in err
    finally:
        folder.chmod(0o755)
    monkeypatch.undo()
    first = records(tmp_path / "out.jsonl")
    assert capsa(argv) == 0
    rows = records(tmp_path / "out.jsonl") + records(errs)
    assert rows[:len(first)] == first
    assert sorted(r["line"] for r in rows) == list(range(1, total + 1))


@pytest.mark.parametrize("where, words", [("dir", "is a directory"),
                                          ("under-file", "no directory")])
def test_an_output_that_cannot_be_a_file(tmp_path, capsys, where, words):
    write_hands(tmp_path / "in.jsonl", 3)
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("x")
    out = tmp_path / "dir" if where == "dir" else tmp_path / "file" / "out.jsonl"
    assert capsa(["batch", str(tmp_path / "in.jsonl"), "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


class FullStdout(io.StringIO):
    def write(self, s):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_standard_output_on_a_full_disk(tmp_path, capsys, monkeypatch):
    path = tmp_path / "played.jsonl"
    path.write_text(json.dumps(ROWS) + "\n")
    write_hands(tmp_path / "in.jsonl", 3)
    monkeypatch.setattr(sys, "stdout", FullStdout())
    for argv in (["review", str(path), "--no-progress"],
                 ["review", str(path), "--json", "--no-progress"],
                 ["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "o.jsonl"),
                  "--workers", "1", "--no-progress", "--json-summary"]):
        assert capsa(argv) == 2, argv
        err = capsys.readouterr().err.splitlines()[-1]
        assert err == "capsa: error: cannot write standard output: No space left on device"


def test_review_errors_file_on_a_full_disk(tmp_path, capsys, monkeypatch):
    path = tmp_path / "played.jsonl"
    path.write_text(json.dumps(ROWS) + "\n{bad\n")
    FailingDisk(monkeypatch, "e.jsonl.tmp", 10)
    assert capsa(["review", str(path), "--errors", str(tmp_path / "e.jsonl"),
                  "--no-progress"]) == 2
    one_error_line(capsys.readouterr().err, str(tmp_path / "e.jsonl"), "No space left")
    assert sorted(os.listdir(tmp_path)) == ["played.jsonl"]
    for bad, words in ((tmp_path, "is a directory"), (tmp_path / "x" / "e.jsonl", "no directory"),
                       (path, "is the input file")):
        assert capsa(["review", str(path), "--errors", str(bad), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1
