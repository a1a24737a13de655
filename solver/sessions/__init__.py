"""Game sessions: a human seat against the project's bots, kept in SQLite (see
:mod:`solver.sessions.store` and :mod:`solver.sessions.service`), and the solo Capsa drill
(:mod:`solver.sessions.drill`)."""

from solver.sessions.drill import DrillService
from solver.sessions.service import SessionService
from solver.sessions.store import Conflict, SessionNotFound, SessionStore

__all__ = ["Conflict", "DrillService", "SessionNotFound", "SessionService", "SessionStore"]
