"""A pool of compute processes for expensive requests, each job under a hard deadline.

Why a pool: a Monte Carlo decision or a batch can take seconds of CPU. Run inside the web
workers it would hold their threads, let one worker queue work while another idles, and
push cheap requests past their latency target. Here the web workers hand such jobs to a
few separate processes, run at a lower CPU priority (``nice``), so a table request never
waits behind one.

Why this design:

- The pool's processes share ONE listening unix socket and each calls ``accept()`` only
  when it is idle, so the kernel's accept queue is the shared queue and a job goes to
  whichever process is free.
- The deadline is enforced by the kernel: before a job runs, its process arms
  ``ITIMER_REAL`` for the time left with ``SIGALRM`` at its default action, which ends the
  process. That stops a numba kernel in the middle of a call (there is no Python frame to
  interrupt there), where a Python-level timeout could not. The supervisor then forks a
  fresh process from its warm image (kernels compiled, no start-up cost).
- A job is ``(deadline, module, name, args, kwargs)``, pickled with a 4-byte length prefix.
  The socket lives in a private (0700) directory, so only this user can reach it.
"""

from __future__ import annotations

import ctypes
import importlib
import logging
import os
import pickle
import signal
import socket
import struct
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from solver.errors import InputError

log = logging.getLogger("capsa.compute")

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
def call(path: str, deadline: float, module: str, name: str, *args: Any, **kwargs: Any) -> Any:
    """Run ``module.name(*args, **kwargs)`` in the pool at ``path``; ``deadline`` is a
    ``time.time()`` instant. Re-raises the job's :class:`InputError`; raises
    :class:`DeadlineExceeded` or :class:`ComputeUnavailable`."""
    left = deadline - time.time()
    if left <= 0:
        raise DeadlineExceeded("deadline passed before the job was sent")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(left + GRACE_S)
    try:
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise ComputeUnavailable(f"no compute pool at the socket ({exc.strerror})") from None
        _send(sock, (deadline, module, name, args, kwargs))
        status, value = _recv(sock)
    except socket.timeout:
        raise DeadlineExceeded("no answer before the deadline") from None
    except (EOFError, ConnectionError) as exc:
        if time.time() >= deadline - 0.01:
            raise DeadlineExceeded("the job was stopped at its deadline") from None
        raise ComputeUnavailable(f"a compute process ended early: {exc}") from None
    finally:
        sock.close()
    if status == "ok":
        return value
    if status == "input_error":
        raise value
    if status == "expired":
        raise DeadlineExceeded("the job waited in the queue past its deadline")
    raise RuntimeError(f"compute job {module}.{name} failed: {value}")


# ---------------------------------------------------------------- pool side
def _resolve(module: str, name: str) -> Callable[..., Any]:
    fn: Any = importlib.import_module(module)
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


def _handle(conn: socket.socket) -> None:
    conn.settimeout(10)  # the caller sends its job in one write
    try:
        deadline, module, name, args, kwargs = _recv(conn)
    except (EOFError, OSError, pickle.UnpicklingError, ValueError):
        return
    left = deadline - time.time()
    if left <= 0:
        reply: tuple[str, Any] = ("expired", None)
    else:
        signal.setitimer(signal.ITIMER_REAL, left)
        try:
            reply = ("ok", _resolve(module, name)(*args, **kwargs))
        except InputError as exc:
            reply = ("input_error", exc)
        except Exception as exc:  # noqa: BLE001 - reported to the caller, logged here
            log.error("compute job %s.%s failed:\n%s", module, name, traceback.format_exc())
            reply = ("error", f"{type(exc).__name__}: {exc}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        _send(conn, reply)
    except (OSError, pickle.PicklingError):
        pass


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


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: Any) -> None:
    raise _Stop


def run_pool(path: str, size: int, niceness: int = 10, ready_fd: int | None = None) -> None:
    """Supervise ``size`` pool processes on a unix socket at ``path`` until SIGTERM/SIGINT.

    Call it in a warm process (kernels compiled): every pool process is a fork of it. A
    process that ends (a job hit its deadline) is replaced at once. ``ready_fd``, when given,
    gets one byte once the socket accepts and is closed.
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

    signal.signal(signal.SIGTERM, _raise_stop)
    signal.signal(signal.SIGINT, _raise_stop)
    try:
        for _ in range(size):
            spawn()
        if ready_fd is not None:
            os.write(ready_fd, b"1")
            os.close(ready_fd)
        while True:
            pid, status = os.wait()
            if pid in children:
                children.discard(pid)
                if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
                    log.warning("compute process %d stopped at a job's deadline", pid)
                else:
                    log.warning("compute process %d ended (status %d); replacing it", pid, status)
                spawn()
    except _Stop:
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


def start_pool(path: str, size: int, niceness: int = 10, timeout: float = 30.0) -> int:
    """Fork a supervisor running :func:`run_pool`; return its pid once the socket accepts.

    Fork it from a warm, single-threaded process (``capsa serve`` before gunicorn starts).
    """
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        code = 0
        try:
            os.setpgid(0, 0)  # a terminal's Ctrl-C reaches the supervisor only: it stops us last
            die_with_parent(signal.SIGTERM)
            run_pool(path, size, niceness, ready_fd=w)
        except BaseException:  # noqa: BLE001
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
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
    while time.monotonic() < end:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if done:
            return
        time.sleep(0.02)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def stop_pool(pid: int, timeout: float = 10.0) -> None:
    """SIGTERM the supervisor (it kills its processes) and reap it."""
    terminate(pid, signal.SIGTERM, timeout)
