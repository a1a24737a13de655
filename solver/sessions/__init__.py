"""Game sessions: a human seat against the project's bots, kept in SQLite (see
:mod:`solver.sessions.store` and :mod:`solver.sessions.service`)."""

from solver.sessions.service import SessionService
from solver.sessions.store import Conflict, SessionNotFound, SessionStore

__all__ = ["Conflict", "SessionNotFound", "SessionService", "SessionStore"]
