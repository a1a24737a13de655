"""The service's dependencies and retries: a sessions store that cannot be used stops the start
in one line, one that fails later answers 503 ``storage_unavailable`` (counted, and seen by
``/readyz``) without losing a player's data; a resent move is not played twice; the figures'
labels stay bounded."""

from __future__ import annotations

import re
import sqlite3
from contextlib import contextmanager

import pytest
from test_serve import _free_port

from api import create_app
from solver import cli
from solver.sessions.store import SessionStore, StorageUnavailable


def _app(path: str):
    return create_app({"TESTING": True, "WARMUP": False, "SESSIONS_DB": path})


def _read_only_connect(monkeypatch):
    """Every connection of the store opens the file read-only, as on a read-only filesystem
    (the tests may run as root, for whom a folder's mode does not stop a write)."""
    real = sqlite3.connect

    def connect(path, *args, **kwargs):
        return real(f"file:{path}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)


@pytest.fixture()
def bad_paths(tmp_path):
    (tmp_path / "folder.sqlite3").mkdir()
    (tmp_path / "text.sqlite3").write_text("these are not the pages of a database\n" * 100)
    (tmp_path / "file").write_text("x")
    return {"a folder": (tmp_path / "folder.sqlite3", "unable to open database file"),
            "not a database": (tmp_path / "text.sqlite3", "file is not a database"),
            "under a file": (tmp_path / "file" / "s.sqlite3", "a file stands where its folder")}


def test_an_unusable_store_refuses_the_start(bad_paths):
    for what, (path, reason) in bad_paths.items():
        with pytest.raises(StorageUnavailable, match=reason):
            _app(str(path))


def test_a_read_only_store_refuses_the_start(tmp_path, monkeypatch):
    SessionStore(str(tmp_path / "s.sqlite3"))  # exists, and can be read
    _read_only_connect(monkeypatch)
    with pytest.raises(StorageUnavailable, match="readonly"):
        _app(str(tmp_path / "s.sqlite3"))


def test_capsa_serve_refuses_an_unusable_store_in_one_line(bad_paths, capsys):
    path, reason = bad_paths["not a database"]
    port = str(_free_port())
    assert cli.main(["serve", "--port", port, "--front", "none", "--sessions-db", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("capsa: error: cannot start:") and reason in err


@contextmanager
def _full_disk(store: SessionStore):
    """The store's file may not grow (SQLite's ``max_page_count``) and every table's pages are
    filled to the brim first (rows of a filler table, and filler rows of the store's own
    tables, removed after): any write that needs room meets SQLite's own "database or disk is
    full", as on a full disk."""
    real = store._connect

    @contextmanager
    def connect():
        with real() as db:
            db.execute(f"PRAGMA max_page_count={limit}")
            yield db

    fill = {"filler": "INSERT INTO filler VALUES (zeroblob(?))",
            "sessions": "INSERT INTO sessions VALUES ('filler-' || hex(randomblob(8)), 'x', "
                        "'{}', hex(zeroblob(?)), 1, 0, 0, 0, 1e300)",
            "hands": "INSERT INTO hands VALUES ('filler', abs(random()), hex(zeroblob(?)))"}
    with real() as db:
        db.execute("CREATE TABLE filler (x BLOB)")
        db.execute("INSERT INTO sessions VALUES ('filler', 'x', '{}', '{}', 1, 0, 0, 0, 1e300)")
        limit = db.execute("PRAGMA page_count").fetchone()[0] + 4
        db.execute(f"PRAGMA max_page_count={limit}")
        for sql in fill.values():
            for size in (1000, 100, 10, 1):
                try:
                    while True:
                        db.execute(sql, (size,))
                except sqlite3.OperationalError as exc:
                    assert "full" in str(exc)
    store._connect = connect  # type: ignore[method-assign]
    try:
        yield
    finally:
        del store._connect
        with real() as db:
            db.execute("DROP TABLE filler")
            db.execute("DELETE FROM sessions WHERE key LIKE 'filler%'")


def _metric(client, name: str) -> float:
    text = client.get("/metrics").get_data(as_text=True)
    match = re.search(rf"^{name} ([0-9.e+]+)$", text, re.M)
    return float(match.group(1)) if match else 0.0


def test_a_full_disk_is_a_503_with_retry_after_and_nothing_is_lost(tmp_path):
    app = _app(str(tmp_path / "s.sqlite3"))
    c = app.test_client()
    store = app.extensions["sessions"].store
    view = c.post("/v1/sessions", json={"game": "capsa", "seed": 12}).get_json()
    token = view["token"]
    best = c.post("/v1/sessions/advice", json={"token": token}).get_json()["arrangements"][0]
    move = {row: best[row] for row in ("front", "middle", "back")}
    before = _metric(c, "capsa_storage_errors_total")
    with _full_disk(store):
        for path, body in (("/v1/sessions", {"game": "big-two", "seed": 1}),
                           ("/v1/sessions/move", {"token": token, "move": move}),
                           ("/v1/sessions/drill", {"seed": 2})):
            r = c.post(path, json=body)
            assert r.status_code == 503, (path, r.get_json())
            assert r.get_json()["error"]["code"] == "storage_unavailable"
            assert int(r.headers["Retry-After"]) > 0
        ready = c.get("/readyz")
        assert ready.status_code == 503 and ready.get_json()["error"]["code"] == "not_ready"
        assert "sessions" in ready.get_json()["error"]["message"]
        page = c.get("/metrics")  # the figures are still served
        assert page.status_code == 200
        assert "capsa_sessions_store_up 1.0" in page.get_data(as_text=True)  # reads still work
    assert _metric(c, "capsa_storage_errors_total") == before + 3
    # nothing half-written: the session is as it was, and plays on once there is room
    state = c.post("/v1/sessions/state", json={"token": token}).get_json()
    assert state["version"] == view["version"] and not state["terminal"]
    r = c.post("/v1/sessions/move", json={"token": token, "move": move})
    assert r.status_code == 200 and r.get_json()["terminal"]
    assert c.get("/readyz").status_code == 200
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_an_unreadable_store_keeps_metrics_up(tmp_path):
    app = _app(str(tmp_path / "s.sqlite3"))
    c = app.test_client()
    store = app.extensions["sessions"].store
    store.path = str(tmp_path / "gone" / "deeper" / "s.sqlite3")  # the folder went away
    page = c.get("/metrics")
    assert page.status_code == 200 and "capsa_sessions_store_up 0.0" in page.get_data(as_text=True)
    r = c.post("/v1/sessions/state", json={"token": "abc"})
    assert r.status_code == 503 and r.get_json()["error"]["code"] == "storage_unavailable"
    ready = c.get("/readyz").get_json()
    assert ready["error"]["problems"][0]["loc"] == ["sessions"]


def test_readyz_reports_each_dependency(client):
    body = client.get("/readyz").get_json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"sessions", "kernels", "compute"}
    assert all(c["ok"] for c in body["checks"].values())
    assert body["checks"]["kernels"]["detail"] == "warm"


# ------------------------------------------------------------------ resent requests
@pytest.fixture()
def capsa_session(tmp_path):
    c = _app(str(tmp_path / "s.sqlite3")).test_client()
    view = c.post("/v1/sessions", json={"game": "capsa", "seed": 12}).get_json()
    best = c.post("/v1/sessions/advice", json={"token": view["token"]}).get_json()
    arr = best["arrangements"][0]
    return c, view, {row: arr[row] for row in ("front", "middle", "back")}


def test_a_resent_move_is_answered_again_not_played_twice(capsa_session):
    c, view, move = capsa_session
    body = {"token": view["token"], "move": move, "version": view["version"]}
    first = c.post("/v1/sessions/move", json=body)
    again = c.post("/v1/sessions/move", json=body)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert first.get_json()["version"] == view["version"] + 1
    history = c.post("/v1/sessions/history", json={"token": view["token"]}).get_json()
    assert history["hands_played"] == 1 and len(history["hands"]) == 1


def test_a_stale_version_is_a_409_with_the_state_now(capsa_session):
    c, view, move = capsa_session
    token = view["token"]
    done = c.post("/v1/sessions/move", json={"token": token, "move": move,
                                             "version": view["version"]}).get_json()
    # another move from the old view (not the same move): refused, with the table now
    other = {"front": move["front"], "middle": move["back"], "back": move["middle"]}
    r = c.post("/v1/sessions/move", json={"token": token, "move": other,
                                          "version": view["version"]})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "stale_version"
    assert r.get_json()["state"] == done
    # /next: a resend deals one hand, not two; an older version is refused
    v = done["version"]
    nxt = c.post("/v1/sessions/next", json={"token": token, "version": v})
    again = c.post("/v1/sessions/next", json={"token": token, "version": v})
    assert nxt.status_code == again.status_code == 200 and nxt.get_json()["hand"] == 2
    assert again.get_json() == nxt.get_json()
    r = c.post("/v1/sessions/next", json={"token": token, "version": v - 1})
    assert r.status_code == 409 and r.get_json()["state"]["hand"] == 2
    # without a version nothing is checked (clients of before keep working)
    r = c.post("/v1/sessions/state", json={"token": token})
    assert r.status_code == 200 and r.get_json()["version"] == v + 1


def test_a_resent_replay_deals_once(capsa_session):
    c, view, move = capsa_session
    token = view["token"]
    done = c.post("/v1/sessions/move", json={"token": token, "move": move}).get_json()
    body = {"token": token, "n": 1, "version": done["version"]}
    a = c.post("/v1/sessions/replay", json=body)
    b = c.post("/v1/sessions/replay", json=body)
    assert a.status_code == b.status_code == 200 and a.get_json() == b.get_json()
    assert a.get_json()["hand"] == 2 and a.get_json()["replay_of"] == 1


# ------------------------------------------------------------------ figures
def test_metric_labels_stay_bounded(client):
    for i in range(20):
        client.open("/healthz", method=f"MADEUP{i}")
    text = client.get("/metrics").get_data(as_text=True)
    assert "MADEUP" not in text
    assert re.search(r'capsa_http_requests_total\{method="other",route="[^"]*",'
                     r'status="405"\} ([0-9.]+)', text)


def test_the_drill_takes_versions_too(tmp_path):
    c = _app(str(tmp_path / "s.sqlite3")).test_client()
    view = c.post("/v1/sessions/drill", json={"seed": 4}).get_json()
    token, hand = view["token"], view["own_cards"]
    rules = {k: v for k, v in view["rules"].items() if k != "players"}
    arr = c.post("/v1/capsa/arrange", json={"hand": hand, "rules": rules, "top": 1}
                 ).get_json()["arrangements"][0]
    body = {"token": token, "version": view["version"],
            "move": {row: arr[row] for row in ("front", "middle", "back")}}
    a, b = c.post("/v1/sessions/drill/move", json=body), c.post("/v1/sessions/drill/move", json=body)
    assert a.status_code == b.status_code == 200 and a.get_json() == b.get_json()
    assert a.get_json()["stats"]["hands"] == 1
    nxt = {"token": token, "version": a.get_json()["version"]}
    a, b = c.post("/v1/sessions/drill/next", json=nxt), c.post("/v1/sessions/drill/next", json=nxt)
    assert a.get_json() == b.get_json() and a.get_json()["hand"] == 2
    r = c.post("/v1/sessions/drill/next", json={**nxt, "version": 1})
    assert r.status_code == 409 and r.get_json()["state"]["hand"] == 2
