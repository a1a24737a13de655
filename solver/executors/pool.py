"""The project's one process pool: warm processes that take jobs from a unix socket, each
job under an optional hard deadline. The HTTP service runs its costly requests on it, and
every local run of work in processes its calls (:class:`PoolExecutor`, a
``concurrent.futures.Executor``; :func:`local_executor` for a caller's ``workers``: this
process for one, else the pool): ``capsa batch`` / ``arrange_many`` chunks, self-play
training of the Capsa tables and of the value networks, the card-removal pass, duplicate
matches and the benchmarks.

Why this design:

- The pool's processes share ONE listening unix socket and each calls ``accept()`` only
  when it is idle, so the kernel's accept queue is the shared queue and a job goes to
  whichever process is free, whoever sent it (several gunicorn workers, or one batch).
- A deadline is enforced by the kernel: before a job runs, its process arms
  ``ITIMER_REAL`` for the time left with ``SIGALRM`` at its default action, which ends the
  process. That stops a numba kernel in the middle of a call (there is no Python frame to
  interrupt there), where a Python-level timeout could not. The supervisor then forks a
  fresh process from its warm image (kernels compiled, no start-up cost); a process that
  dies for any other reason is replaced the same way, and :class:`PoolExecutor` sends the
  job it lost again.
- A job is ``(deadline or None, target, args, kwargs)``, pickled with a 4-byte length
  prefix; ``target`` is ``(module, name)`` or a picklable callable. The socket lives in a
  private (0700) directory, so only this user can reach it.
- How the supervisor starts is chosen here, never left to multiprocessing's default (which
  changes: Python 3.14 makes it the fork server on Linux): it is forked from the caller when
  the caller is warm and single-threaded (``capsa serve`` before gunicorn starts, a batch or
  ``arrange_many`` called from a program with no other thread), else started through
  multiprocessing's fork server (spawn where there is none), warms itself once, and forks its
  processes from that image (safe after threads); ``start`` asks for one way. A job must not
  depend on what its process inherited from the caller (a started pool serves later calls
  too): everything it needs travels in its arguments, or is loaded by ``warm``.
- The pool knows no game: what "warm" means is the caller's ``warm`` callable (for the
  solver, :func:`solver.warmup.warm_up`, which compiles every game's kernels or loads them
  from the numba cache). It must pickle by reference (a module-level function): the fork
  server's supervisor receives it pickled.
"""

from __future__ import annotations

import atexit
import ctypes
import importlib
import logging
import multiprocessing as mp
import os
import pickle
import shutil
import signal
import socket
import struct
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from solver.errors import InputError
from solver.executors.inline import InlineExecutor

log = logging.getLogger("capsa.pool")
T = TypeVar("T")
# What makes a process warm (compiles the kernels, or loads them from the cache); its
# answer is ignored. A module-level function, so that it pickles by reference.
Warm = Callable[[], object]
# a call lost with a dying process this many times fails
MAX_POOL_RESTARTS = 4

_LEN = struct.Struct("!I")
MAX_MESSAGE = 64 * 1024 * 1024
GRACE_S = 0.5  # how long past the deadline a caller waits for the kill to be noticed
_PR_SET_PDEATHSIG = 1
_IN_WORKER = False


class DeadlineExceeded(Exception):
    """The job did not finish before its deadline (its process was stopped)."""


class ComputeUnavailable(Exception):
    """No compute pool answers on the socket, or a process died for another reason."""


def in_worker() -> bool:
    """True inside a pool process: work runs here instead of being sent on."""
    return _IN_WORKER


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux to send ``sig`` to this process when its parent exits (no orphans)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: best effort
            pass


# ---------------------------------------------------------------- framing
def _send(sock: socket.socket, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(_LEN.pack(len(data)) + data)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise EOFError("connection closed")
        buf += chunk
    return bytes(buf)


def _recv(sock: socket.socket) -> Any:
    (n,) = _LEN.unpack(_recv_exact(sock, _LEN.size))
    if n > MAX_MESSAGE:
        raise EOFError(f"message of {n} bytes is over {MAX_MESSAGE}")
    return pickle.loads(_recv_exact(sock, n))


# ---------------------------------------------------------------- caller side
def timed(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """``fn(*args, **kwargs)`` and the seconds it took, measured where it ran (a job's own
    time, without its trip to and from the pool).

    >>> timed(sum, [1, 2])[0]
    3
    """
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def call(path: str, deadline: float, module: str, name: str, *args: Any, **kwargs: Any) -> Any:
    """Run ``module.name(*args, **kwargs)`` in the pool at ``path``; ``deadline`` is a
    ``time.time()`` instant. Re-raises the job's :class:`InputError`; raises
    :class:`DeadlineExceeded` or :class:`ComputeUnavailable`."""
    return _call(path, deadline, (module, name), args, kwargs)


def call_function(path: str, deadline: float | None, fn: Callable[..., Any], *args: Any,
                  **kwargs: Any) -> Any:
    """Run the picklable ``fn(*args, **kwargs)`` in the pool at ``path`` (no deadline when
    ``deadline`` is None); the job's own exception is raised again here."""
    return _call(path, deadline, fn, args, kwargs)


def _call(path: str, deadline: float | None, target: Any, args: tuple,
          kwargs: dict[str, Any]) -> Any:
    if deadline is not None and deadline - time.time() <= 0:
        raise DeadlineExceeded("deadline passed before the job was sent")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(None if deadline is None else deadline - time.time() + GRACE_S)
    try:
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise ComputeUnavailable(f"no compute pool at the socket ({exc.strerror})") from None
        _send(sock, (deadline, target, args, kwargs))
        status, value = _recv(sock)
    except socket.timeout:
        raise DeadlineExceeded("no answer before the deadline") from None
    except (EOFError, ConnectionError) as exc:
        if deadline is not None and time.time() >= deadline - 0.01:
            raise DeadlineExceeded("the job was stopped at its deadline") from None
        raise ComputeUnavailable(f"a compute process ended early: {exc}") from None
    finally:
        sock.close()
    if status == "ok":
        return value
    if status in ("input_error", "raised"):
        raise value
    if status == "expired":
        raise DeadlineExceeded("the job waited in the queue past its deadline")
    raise RuntimeError(f"compute job {_describe(target)} failed: {value}")


def _describe(target: Any) -> str:
    if isinstance(target, tuple):
        return ".".join(target)
    return getattr(target, "__qualname__", repr(target))


# ---------------------------------------------------------------- pool side
def _resolve(target: Any) -> Callable[..., Any]:
    if not isinstance(target, tuple):
        return target
    module, name = target
    fn: Any = importlib.import_module(module)
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


def _handle(conn: socket.socket) -> None:
    conn.settimeout(10)  # the caller sends its job in one write
    try:
        deadline, target, args, kwargs = _recv(conn)
    except (EOFError, OSError, pickle.UnpicklingError, ValueError, AttributeError,
            ImportError):
        return
    left = None if deadline is None else deadline - time.time()
    conn.settimeout(None)
    if left is not None and left <= 0:
        reply: tuple[str, Any] = ("expired", None)
    else:
        if left is not None:
            signal.setitimer(signal.ITIMER_REAL, left)
        try:
            reply = ("ok", _resolve(target)(*args, **kwargs))
        except InputError as exc:
            reply = ("input_error", exc)
        except Exception as exc:  # noqa: BLE001 - reported to the caller, logged here
            log.error("compute job %s failed:\n%s", _describe(target), traceback.format_exc())
            reply = _raised(exc)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        _send(conn, reply)
    except (OSError, pickle.PicklingError):
        pass


def _raised(exc: Exception) -> tuple[str, Any]:
    """The job's own exception when it survives pickling, else its text."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any exception that cannot travel is described
        return ("error", f"{type(exc).__name__}: {exc}")
    return ("raised", exc)


def _worker_main(listener: socket.socket, niceness: int) -> None:
    """One pool process: accept a job when idle, run it, answer, repeat."""
    global _IN_WORKER
    _IN_WORKER = True
    die_with_parent()
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the deadline ends this process
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the supervisor stops us
    if niceness:
        os.nice(niceness)
    while True:
        conn, _ = listener.accept()
        try:
            _handle(conn)
        finally:
            conn.close()


class StopSignal(BaseException):
    """Raised by :func:`raise_stop` when a supervisor is told to stop. A ``BaseException``,
    like ``KeyboardInterrupt``: a signal landing inside code that catches ``Exception`` (a
    logging handler's ``emit`` does) must still stop the supervisor, not be swallowed there
    and leave it waiting for children until it is killed, its socket left behind."""


def raise_stop(signum: int, frame: Any) -> None:
    """A signal handler: stop the supervisor (:class:`StopSignal`)."""
    raise StopSignal


def run_pool(path: str, size: int, niceness: int = 10, ready_fd: int | None = None,
             on_ready: Callable[[], None] | None = None, stop_on_sigint: bool = True) -> None:
    """Supervise ``size`` pool processes on a unix socket at ``path`` until SIGTERM (or
    SIGINT, unless ``stop_on_sigint`` is False: a batch's Ctrl-C belongs to its caller).

    Call it in a warm process (kernels compiled): every pool process is a fork of it. A
    process that ends (a job hit its deadline, or it died) is replaced at once. ``ready_fd``,
    when given, gets one byte once the socket accepts and is closed; ``on_ready`` is called
    then.
    """
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if os.path.exists(path):
        os.unlink(path)
    listener.bind(path)
    listener.listen(256)
    children: set[int] = set()

    def spawn() -> None:
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                _worker_main(listener, niceness)
            except BaseException:  # noqa: BLE001 - a child never returns into the parent's code
                code = 1
            finally:
                os._exit(code)
        children.add(pid)

    signal.signal(signal.SIGTERM, raise_stop)
    signal.signal(signal.SIGINT, raise_stop if stop_on_sigint else signal.SIG_IGN)
    try:
        for _ in range(size):
            spawn()
        if ready_fd is not None:
            os.write(ready_fd, b"1")
            os.close(ready_fd)
        if on_ready is not None:
            on_ready()
        while True:
            pid, status = os.wait()
            if pid in children:
                children.discard(pid)
                if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
                    log.warning("compute process %d stopped at a job's deadline", pid)
                else:
                    log.warning("compute process %d ended (status %d); replacing it", pid, status)
                spawn()
    except StopSignal:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        listener.close()
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def fork_child(run: Callable[[], None]) -> int:
    """Run ``run()`` in a forked child of its own process group (a terminal's Ctrl-C reaches
    the supervisor only, which stops its children in order), ending with this process; the
    child's exit status is 0, ``SystemExit``'s code, or 1 after printing what it raised."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.setpgid(0, 0)
            die_with_parent(signal.SIGTERM)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            run()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - reported, then the child ends
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    return pid


def start_pool(path: str, size: int, niceness: int = 10, timeout: float = 30.0,
               stop_on_sigint: bool = True) -> int:
    """Fork a supervisor running :func:`run_pool`; return its pid once the socket accepts.

    Fork it from a warm, single-threaded process (``capsa serve`` before gunicorn starts, a
    batch before its threads start).
    """
    r, w = os.pipe()

    def supervise() -> None:
        os.close(r)
        run_pool(path, size, niceness, ready_fd=w, stop_on_sigint=stop_on_sigint)

    pid = fork_child(supervise)
    os.close(w)
    import select

    ready, _, _ = select.select([r], [], [], timeout)
    ok = bool(ready) and os.read(r, 1) == b"1"
    os.close(r)
    if not ok:
        stop_pool(pid)
        raise ComputeUnavailable(f"the compute pool did not start within {timeout:g} s")
    return pid


def terminate(pid: int, sig: int = signal.SIGTERM, timeout: float = 10.0) -> None:
    """Send ``sig`` to a child and reap it; SIGKILL it if it is still there after ``timeout``."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    end = time.monotonic() + timeout
    pause = 0.001  # a supervisor ends in a millisecond or two: look soon, then less often
    while time.monotonic() < end:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if done:
            return
        time.sleep(pause)
        pause = min(2 * pause, 0.02)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def stop_pool(pid: int, timeout: float = 10.0) -> None:
    """SIGTERM the supervisor (it kills its processes) and reap it."""
    terminate(pid, signal.SIGTERM, timeout)


# ---------------------------------------------------------------- as an Executor
def _supervise(path: str, size: int, niceness: int, ready: Any, warm: Warm | None) -> None:
    """The supervisor of a pool started through multiprocessing: warm once (``warm``), then
    fork."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C belongs to the caller
    die_with_parent(signal.SIGTERM)
    if warm is not None:
        warm()
    run_pool(path, size, niceness, on_ready=ready.set, stop_on_sigint=False)


def can_fork_here() -> bool:
    """Whether this process may fork a pool's supervisor itself: Linux, and no Python thread
    but this one (a fork copies only the calling thread, so a lock another thread holds would
    stay held in the child)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


#: How a pool's supervisor may start: ``fork`` (a fork of the caller, see
#: :func:`can_fork_here`), or through multiprocessing's ``forkserver`` or ``spawn``.
START_METHODS = ("fork", "forkserver", "spawn")


def start_method(start: str | None = None) -> str:
    """How a pool's supervisor starts: ``start`` when given (``fork`` only where
    :func:`can_fork_here`, the others where multiprocessing has them: :class:`ValueError`
    otherwise), else ``fork`` where :func:`can_fork_here`, else ``forkserver`` (``spawn``
    where there is none)."""
    if start is None:
        if can_fork_here():
            return "fork"
        return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    if start not in START_METHODS:
        raise ValueError(f"start must be one of {', '.join(START_METHODS)}, got {start!r}")
    if start == "fork" and not can_fork_here():
        raise ValueError("a pool's supervisor is forked only from a process on Linux with "
                         "no other thread")
    if start != "fork" and start not in mp.get_all_start_methods():
        raise ValueError(f"multiprocessing has no {start!r} start method here")
    return start


class LocalPool:
    """A pool of ``workers`` processes on a private socket, warmed by ``warm`` (None: not
    warmed; each process then compiles or loads what its first jobs need). ``warm`` runs here
    first; the supervisor is then a fork of this process when :func:`can_fork_here` (already
    warm: no second interpreter, import or warm-up, about a second of a batch's cold start),
    else started through the fork server (safe whatever threads the caller runs; it runs
    ``warm`` itself once, loading what this process compiled). ``start`` asks for one of
    :data:`START_METHODS` (see :func:`start_method`); ``self.start`` is the one used."""

    def __init__(self, workers: int, niceness: int = 0, timeout: float = 300.0, *,
                 warm: Warm | None, start: str | None = None):
        if start is not None:
            start_method(start)  # a way that cannot be is refused before any warm-up
        if warm is not None:
            # compile and write the numba cache here first, once: the supervisor (and so
            # every process it forks) then only loads it
            warm()
        how = start_method(start)  # after the warm-up, as it may have started threads
        self.workers = workers
        self._dir = tempfile.mkdtemp(prefix="capsa-pool-")  # 0700: a private socket
        self.path = os.path.join(self._dir, "pool.sock")
        self._process: Any = None
        self._pid: int | None = None
        self._ended = False
        self.start = how
        if how == "fork":
            # its own process group (a terminal's Ctrl-C belongs to the caller, which closes
            # the pool), SIGTERM when this process ends
            self._pid = start_pool(self.path, workers, niceness, timeout, stop_on_sigint=False)
            return
        ctx: Any = mp.get_context(how)  # forkserver or spawn
        ready = ctx.Event()
        # daemonic: at exit multiprocessing ends it (SIGTERM: it stops its processes) rather
        # than waiting for it; it forks its processes itself, which a daemon may
        self._process = ctx.Process(target=_supervise,
                                    args=(self.path, workers, niceness, ready, warm),
                                    daemon=True, name="capsa-pool")
        self._process.start()
        if not ready.wait(timeout):
            self.close()
            raise ComputeUnavailable(f"the process pool did not start within {timeout:g} s")

    @property
    def pid(self) -> int:
        """The supervisor's pid."""
        return self._pid if self._pid is not None else int(self._process.pid)

    @property
    def alive(self) -> bool:
        if self._pid is None:
            return bool(self._process.is_alive())
        if not self._ended:
            try:
                done, _ = os.waitpid(self._pid, os.WNOHANG)
            except ChildProcessError:
                done = self._pid
            self._ended = done != 0
        return not self._ended

    def worker_pids(self) -> list[int]:
        """The pool's processes now (Linux; empty elsewhere)."""
        pid = self.pid
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as fh:
                return [int(p) for p in fh.read().split()]
        except OSError:
            return []

    def close(self) -> None:
        if self._pid is not None:
            if self.alive:
                stop_pool(self._pid)
                self._ended = True
        elif self._process.is_alive():
            self._process.terminate()
            self._process.join(10)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()
        shutil.rmtree(self._dir, ignore_errors=True)


# by (workers, start asked for)
_POOLS: dict[tuple[int, str | None], LocalPool] = {}
_POOLS_LOCK = threading.Lock()


def _forked() -> None:
    """In a forked child: the parent's pools are not its own, and the lock may have been
    held by the forking call (a pool's supervisor is forked inside :func:`local_pool`)."""
    global _POOLS_LOCK
    _POOLS.clear()
    _POOLS_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def local_pool(workers: int, warm: Warm | None = None, start: str | None = None) -> LocalPool:
    """The shared pool of ``workers`` processes (started on first use, replaced if it died);
    ``warm`` warms it when this call starts it, ``start`` asks how its supervisor starts (a
    pool asked for with ``start`` is not the one of the default; see :class:`LocalPool`)."""
    with _POOLS_LOCK:
        pool = _POOLS.get((workers, start))
        if pool is None or not pool.alive:
            if pool is not None:
                pool.close()
            pool = _POOLS[workers, start] = LocalPool(workers, warm=warm, start=start)
        return pool


@atexit.register
def _close_pools() -> None:
    with _POOLS_LOCK:
        for pool in _POOLS.values():
            pool.close()
        _POOLS.clear()


class PoolExecutor(Executor):
    """The shared local pool of ``workers`` processes (:func:`local_pool`) as an executor
    whose calls survive a process dying: the supervisor replaces the process, and the call
    it lost is sent again (the calls must be pure, as batch chunks are). A call lost this way
    :data:`MAX_POOL_RESTARTS` times fails with ``RuntimeError``; ``restarts`` counts the
    calls sent again. ``fn`` must pickle (a module-level function, or a partial of one).
    ``warm`` makes the pool's processes warm when it is started (or restarted) for this
    executor, ``start`` chooses how (see :class:`LocalPool`). ``map`` gives the results in
    input order.

    Shutting it down cancels (with ``cancel_futures``) or waits for its own calls only: the
    pool stays, for the next user."""

    def __init__(self, workers: int, *, warm: Warm | None, start: str | None = None):
        self.workers = workers
        self.warm = warm
        self.start = start
        self.restarts = 0
        self._lock = threading.Lock()
        local_pool(workers, warm, start)  # started here, not on the first call
        # two calls in flight per process: the next one waits in the socket's queue
        self._threads = ThreadPoolExecutor(max_workers=2 * workers,
                                           thread_name_prefix="capsa-pool")

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return self._threads.submit(self._run, fn, args, kwargs)

    def _run(self, fn: Callable[..., T], args: tuple, kwargs: dict[str, Any]) -> T:
        for _ in range(MAX_POOL_RESTARTS):
            pool = local_pool(self.workers, self.warm, self.start)
            try:
                return call_function(pool.path, None, fn, *args, **kwargs)
            except ComputeUnavailable:
                with self._lock:
                    self.restarts += 1
        raise RuntimeError(f"a task was lost with a dying worker {MAX_POOL_RESTARTS} times; "
                           "giving up")

    def worker_pids(self) -> list[int]:
        return local_pool(self.workers, self.warm, self.start).worker_pids()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._threads.shutdown(wait=wait, cancel_futures=cancel_futures)


@contextmanager
def local_executor(workers: int, *, warm: Warm | None = None,
                   start: str | None = None) -> Iterator[Executor]:
    """Where a caller's ``workers`` local processes run its calls: this process when
    ``workers`` is 1 or less (an :class:`~solver.executors.inline.InlineExecutor`: each call
    as it is submitted, ``map`` as its results are asked for; ``warm`` runs here first), else
    the shared pool of that many (a :class:`PoolExecutor`; ``warm`` and ``start`` as there:
    ``warm`` warms the pool when this call starts it). Either way ``map`` gives
    results in input order, so a caller that cuts its work into fixed pieces gets the same
    answer whatever the number of workers. The calls must pickle and depend on their
    arguments alone (a pool serves many callers).

    Leaving the block waits for the calls still running, or, when it raised, cancels those
    not started; the pool stays, for the next user.

    >>> with local_executor(1) as ex:
    ...     list(ex.map(divmod, [7, 9], [2, 4]))
    [(3, 1), (2, 1)]
    """
    executor: Executor
    if workers <= 1:
        if warm is not None:
            warm()
        executor = InlineExecutor()
    else:
        executor = PoolExecutor(workers, warm=warm, start=start)
    try:
        yield executor
    except BaseException:
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown(wait=True)

