"""Game sessions kept in SQLite (stdlib ``sqlite3``, WAL): a session outlives the process.

One row per session (its game, seats, seed, running score and the current hand's
``to_json`` document) and one row per finished hand. The row key is the SHA-256 of the
session's token, so the database alone does not let anyone play a session. Writes are
optimistic: a session row carries a ``version`` and an update that lost a race is refused
(:class:`Conflict`) instead of overwriting another worker's move.

Bounds: sessions expire ``ttl`` seconds after their last write; at most ``max_sessions``
live at once and together hold at most ``max_bytes`` of documents (the least recently used
go first); a session keeps its last ``max_hands`` hands; one document is at most
``max_doc_bytes``.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from solver.errors import InputError

DEFAULT_TTL = 7 * 24 * 3600
DEFAULT_MAX_SESSIONS = 2000
DEFAULT_MAX_HANDS = 200
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
DEFAULT_MAX_DOC_BYTES = 256 * 1024
TOKEN_BYTES = 24
PROBE_BYTES = 16 * 1024  # the room a check asks of the disk (more than most hands' records)

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    key TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    meta TEXT NOT NULL,
    state TEXT NOT NULL,
    version INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_updated ON sessions(updated);
CREATE INDEX IF NOT EXISTS sessions_expires ON sessions(expires);
CREATE TABLE IF NOT EXISTS probe (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    room BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    key TEXT NOT NULL REFERENCES sessions(key) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (key, n)
);
"""


class SessionNotFound(LookupError):
    """No live session has this token (never created, expired, or evicted)."""


class StorageUnavailable(RuntimeError):
    """The store cannot be read or written now (a read-only or full disk, a file that is not
    a database, a folder where the file should be, a lock held too long): nothing was
    written by the operation that met it, and it may work again later."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"the sessions store {path} cannot be used: {reason}")
        self.path, self.reason = path, reason


class Conflict(RuntimeError):
    """Another request changed the session first; reload and try again."""


class TooLarge(InputError):
    """A document over the size bound."""

    code = "too_large"


def token_key(token: str) -> str:
    """The stored key of a token (its SHA-256): tokens themselves are never stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Session:
    """One session as loaded: ``meta`` (game, seats, bots, seed, score, hand number...) and
    ``state`` (the current hand's document plus what the service keeps beside it)."""

    key: str
    game: str
    meta: dict[str, Any]
    state: dict[str, Any]
    version: int
    created: float
    updated: float
    expires: float
    token: str | None = field(default=None, repr=False)


class SessionStore:
    """Sessions in one SQLite file; safe across threads and processes (one connection per
    operation, WAL journal, busy timeout)."""

    def __init__(self, path: str, *, ttl: float = DEFAULT_TTL,
                 max_sessions: int = DEFAULT_MAX_SESSIONS, max_hands: int = DEFAULT_MAX_HANDS,
                 max_bytes: int = DEFAULT_MAX_BYTES, max_doc_bytes: int = DEFAULT_MAX_DOC_BYTES,
                 clock: Callable[[], float] = time.time):
        self.path = path
        self.ttl, self.max_sessions, self.max_hands = float(ttl), int(max_sessions), int(max_hands)
        self.max_bytes, self.max_doc_bytes = int(max_bytes), int(max_doc_bytes)
        self.clock = clock
        folder = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(folder, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StorageUnavailable(path, "a file stands where its folder should be") from None
        except OSError as exc:
            raise StorageUnavailable(path, f"its folder cannot be made: {exc.strerror or exc}"
                                     ) from None
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
        self.check()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """One connection for one operation; any failure of the database or the disk under it
        is :class:`StorageUnavailable` (SQLite rolls the operation back whole)."""
        try:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise StorageUnavailable(self.path, str(exc)) from None
        try:
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA synchronous=NORMAL")
            yield db
        except (sqlite3.Error, OSError) as exc:
            raise StorageUnavailable(self.path, str(exc)) from None
        finally:
            db.close()

    def check(self) -> None:
        """Read the store and write :data:`PROBE_BYTES` into it, rolled back (a file that is
        read-only, or a disk with no room for a hand's record, fails here): what the service
        checks at start and ``/readyz`` on each call. :class:`StorageUnavailable` if not."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("SELECT count(*) FROM sessions").fetchone()
                db.execute("INSERT INTO probe VALUES (NULL, ?, zeroblob(?))",
                           (self.clock(), PROBE_BYTES))
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _encode(self, doc: Any, what: str) -> str:
        text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
        if len(text.encode()) > self.max_doc_bytes:
            raise TooLarge(f"{what} is {len(text.encode())} bytes; at most "
                           f"{self.max_doc_bytes} are kept")
        return text

    # ------------------------------------------------------------------ sessions
    def create(self, game: str, meta: dict[str, Any], state: dict[str, Any]) -> Session:
        """A new session with a fresh unguessable token (returned once, in ``token``)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        key = token_key(token)
        now = self.clock()
        meta_text, state_text = self._encode(meta, "the session"), self._encode(state, "the hand")
        with self._write() as db:
            self._purge_expired(db, now)
            db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)",
                       (key, game, meta_text, state_text, len(meta_text) + len(state_text),
                        now, now, now + self.ttl))
            self._enforce_bounds(db, keep=key)
        return Session(key, game, meta, state, 1, now, now, now + self.ttl, token)

    def load(self, token: str) -> Session:
        """The live session of ``token``; :class:`SessionNotFound` if there is none (an
        expired session is deleted on sight)."""
        if not isinstance(token, str) or not token:
            raise SessionNotFound(token)
        key = token_key(token)
        with self._connect() as db:
            row = db.execute("SELECT game, meta, state, version, created, updated, expires "
                             "FROM sessions WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise SessionNotFound(token)
        if row[6] <= self.clock():
            with self._write() as db:
                db.execute("DELETE FROM sessions WHERE key = ? AND expires <= ?",
                           (key, self.clock()))
            raise SessionNotFound(token)
        return Session(key, row[0], json.loads(row[1]), json.loads(row[2]), row[3], row[4],
                       row[5], row[6], token)

    def save(self, session: Session, finished_hand: dict[str, Any] | None = None) -> Session:
        """Write ``session`` back (and a finished hand's record, numbered ``meta['hands']``);
        :class:`Conflict` if it changed since it was loaded, :class:`SessionNotFound` if it
        is gone."""
        now = self.clock()
        meta_text = self._encode(session.meta, "the session")
        state_text = self._encode(session.state, "the hand")
        hand_text = None if finished_hand is None else self._encode(finished_hand, "the hand record")
        with self._write() as db:
            cur = db.execute(
                "UPDATE sessions SET meta = ?, state = ?, version = version + 1, updated = ?, "
                "expires = ? WHERE key = ? AND version = ? AND expires > ?",
                (meta_text, state_text, now, now + self.ttl, session.key, session.version, now))
            if cur.rowcount != 1:
                exists = db.execute("SELECT 1 FROM sessions WHERE key = ? AND expires > ?",
                                    (session.key, now)).fetchone()
                if exists:
                    raise Conflict("the session changed meanwhile; reload it")
                raise SessionNotFound(session.token)
            if hand_text is not None:
                n = int(finished_hand["n"])  # type: ignore[index]
                db.execute("INSERT OR REPLACE INTO hands VALUES (?, ?, ?)",
                           (session.key, n, hand_text))
                db.execute("DELETE FROM hands WHERE key = ? AND n <= ?",
                           (session.key, n - self.max_hands))
            size = db.execute("SELECT coalesce(sum(length(record)), 0) FROM hands WHERE key = ?",
                              (session.key,)).fetchone()[0]
            db.execute("UPDATE sessions SET bytes = ? WHERE key = ?",
                       (len(meta_text) + len(state_text) + size, session.key))
            self._enforce_bounds(db, keep=session.key)
        session.version += 1
        session.updated, session.expires = now, now + self.ttl
        return session

    def delete(self, token: str) -> bool:
        with self._write() as db:
            return db.execute("DELETE FROM sessions WHERE key = ?",
                              (token_key(token),)).rowcount == 1

    # ------------------------------------------------------------------ hands
    def hands(self, session: Session) -> list[dict[str, Any]]:
        """Every kept hand record of a session, oldest first."""
        with self._connect() as db:
            rows = db.execute("SELECT record FROM hands WHERE key = ? ORDER BY n",
                              (session.key,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def hand(self, session: Session, n: int) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute("SELECT record FROM hands WHERE key = ? AND n = ?",
                             (session.key, n)).fetchone()
        return None if row is None else json.loads(row[0])

    # ------------------------------------------------------------------ bounds
    def _purge_expired(self, db: sqlite3.Connection, now: float) -> int:
        return db.execute("DELETE FROM sessions WHERE expires <= ?", (now,)).rowcount

    def _enforce_bounds(self, db: sqlite3.Connection, keep: str) -> None:
        """Drop the least recently used sessions (never ``keep``) until both bounds hold."""
        count, total = db.execute("SELECT count(*), coalesce(sum(bytes), 0) FROM sessions"
                                  ).fetchone()
        while count > self.max_sessions or (total > self.max_bytes and count > 1):
            row = db.execute("SELECT key, bytes FROM sessions WHERE key != ? "
                             "ORDER BY updated, rowid LIMIT 1", (keep,)).fetchone()
            if row is None:
                break
            db.execute("DELETE FROM sessions WHERE key = ?", (row[0],))
            count, total = count - 1, total - row[1]

    def purge_expired(self) -> int:
        """Delete every expired session now; how many went."""
        with self._write() as db:
            return self._purge_expired(db, self.clock())

    def stats(self) -> dict[str, int]:
        """Sessions, hands, document bytes and the file's pages (for the bounds tests)."""
        with self._connect() as db:
            sessions, total = db.execute(
                "SELECT count(*), coalesce(sum(bytes), 0) FROM sessions").fetchone()
            hands = db.execute("SELECT count(*) FROM hands").fetchone()[0]
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            page_size = db.execute("PRAGMA page_size").fetchone()[0]
        return {"sessions": sessions, "hands": hands, "bytes": total,
                "file_bytes": pages * page_size}
