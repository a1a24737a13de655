"""``capsa serve``: a buffering front (nginx, or the embedded waitress) before gunicorn's
preloaded, warmed workers, and a compute pool, on a loopback port."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver import cli

ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT_S = 120  # a cold numba cache compiles every kernel in the master first
HAND = "As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c"


def _nginx_installed() -> bool:
    from api.proxy import ProxyUnavailable, find_nginx

    try:
        find_nginx()
    except ProxyUnavailable:
        return False
    return True


# Every served-stack test runs with each front; nginx's are skipped only where it is missing
# and CI is not set (.ci/run installs it, so CI cannot pass by skipping them).
FRONTS = [pytest.param("nginx", marks=pytest.mark.skipif(
              not _nginx_installed() and not os.environ.get("CI"),
              reason="nginx is not installed (.ci/run installs it)")),
          "embedded"]
FRONT_PROCESSES = {"nginx": 2, "embedded": 1}  # nginx: master + 1 worker


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(port: int, method: str, path: str, body: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=payload, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _descendants(pid: int) -> list[int]:
    out = []
    for child in _children(pid):
        out += [child, *_descendants(child)]
    return out


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


class Server:
    """``python -m solver.cli serve`` as a child process, stopped with SIGTERM.

    ``front`` is passed as ``--front`` (nginx, embedded; None: the default choice).
    ``stderr_path`` keeps the server's standard error in a file (logs), else a pipe."""

    def __init__(self, workers: int, *extra: str, front: str | None = None,
                 stderr_path: Path | None = None):
        self.port = _free_port()
        self.log = open(os.devnull, "wb")
        self.stderr_file = open(stderr_path, "wb") if stderr_path else None
        fronts = ["--front", front] if front else []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--workers", str(workers), "--log-level", "warning",
             *fronts, *extra],
            cwd=ROOT, stdout=self.log, stderr=self.stderr_file or subprocess.PIPE)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = (self.proc.stderr.read().decode(errors="replace") if self.proc.stderr
                       else "(standard error kept in a file)")
                pytest.fail(f"capsa serve exited with {self.proc.returncode}: {err[-2000:]}")
            try:
                if _request(self.port, "GET", "/healthz") == (200, {"status": "ok"}):
                    return
            except OSError:
                pass
            time.sleep(0.2)
        pytest.fail(f"capsa serve did not answer /healthz within {STARTUP_TIMEOUT_S} s")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            if self.proc.stderr:
                self.proc.stderr.close()
            if self.stderr_file:
                self.stderr_file.close()
            self.log.close()


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("workers, compute", [(2, 2), (1, 1)])
def test_serve_answers_and_shuts_down_cleanly(workers, compute, front):
    server = Server(workers, "--compute-workers", str(compute), front=front)
    try:
        server.wait_ready()
        # gunicorn (master + workers), the pool (supervisor + processes), the front (nginx:
        # master + 1 worker; embedded: 1). The first worker may answer before the master has
        # forked the others.
        expected = (1 + workers) + (1 + compute) + FRONT_PROCESSES[front]
        deadline = time.monotonic() + 30
        while (len(kids := _descendants(server.proc.pid)) != expected
               and time.monotonic() < deadline):
            time.sleep(0.1)
        assert len(kids) == expected, f"expected {expected} processes, found {kids}"
        assert sum(_name(pid) == "nginx" for pid in kids) == (2 if front == "nginx" else 0)

        status, spec = _request(server.port, "GET", "/openapi.json")
        assert status == 200 and "/healthz" in spec["paths"]
        status, err = _request(server.port, "POST", "/v1/capsa/valid", {"hand": "As As"})
        has_capsa = status != 404
        if has_capsa:
            assert status == 400 and "duplicate" in err["error"]["message"]
            status, body = _request(server.port, "POST", "/v1/capsa/valid", {"hand": HAND})
            assert status == 200
            assert isinstance(body["valid_arrangements"], int)
            assert 0 < body["valid_arrangements"] <= 72_072
    finally:
        code = server.stop()
    assert code == 0
    assert not any(_alive(pid) for pid in kids), "processes outlived capsa serve"
    assert has_capsa, "/v1/capsa/valid is not served"


@pytest.mark.parametrize("front", FRONTS)
def test_serve_page_and_static_files(front):
    server = Server(1, front=front)
    try:
        server.wait_ready()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        for path, kind in (("/", "text/html"), ("/static/app.js", "javascript"),
                           ("/static/style.css", "text/css"), ("/docs", "text/html")):
            conn.request("GET", path)
            resp = conn.getresponse()
            resp.read()
            assert resp.status == 200 and kind in resp.getheader("Content-Type"), path
        conn.close()
    finally:
        code = server.stop()
    assert code == 0


@pytest.mark.parametrize("argv, message", [
    (["serve", "--workers", "0"], "workers must be between 1 and 64"),
    (["serve", "--port", "70000"], "port must be between 1 and 65535"),
    (["serve", "--deadline", "0"], "deadline must be between 0.1 and 600 seconds, got 0"),
    (["serve", "--compute-workers", "-1"], "compute-workers must be between 0 and 64"),
    (["serve", "--nginx", "/nonexistent/nginx"], "--nginx '/nonexistent/nginx' is not an executable"),
    (["serve", "--front", "caddy"], "argument --front: invalid choice: 'caddy'"),
    (["serve", "--port", "http"], "port must be an integer"),
])
def test_serve_rejects_bad_options(argv, message, capsys):
    assert cli.main(argv) == cli.EXIT_INPUT_ERROR
    err = capsys.readouterr().err
    assert err.startswith("capsa: error:") and message in err


def _hide_nginx(monkeypatch, tmp_path) -> None:
    import api.proxy

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(api.proxy, "NGINX_CANDIDATES", (str(tmp_path / "nginx"),))


def test_serve_front_nginx_refuses_without_nginx(capsys, monkeypatch, tmp_path):
    """``--front nginx`` with no nginx anywhere: one line naming what was looked for and the
    ways out."""
    _hide_nginx(monkeypatch, tmp_path)
    assert cli.main(["serve", "--front", "nginx", "--port", str(_free_port())]) == cli.EXIT_INPUT_ERROR
    err = capsys.readouterr().err
    assert err.startswith("capsa: error: nginx not found") and err.count("\n") == 1
    assert "--front embedded" in err and "apt-get install nginx-light" in err


def test_serve_chooses_the_embedded_front_without_nginx(monkeypatch, tmp_path):
    """The default (``auto``) takes nginx where installed and the embedded front elsewhere."""
    from api.server import ServeConfig, choose_front

    _hide_nginx(monkeypatch, tmp_path)
    chosen = choose_front(ServeConfig())
    assert (chosen.kind, chosen.nginx, chosen.note) == ("embedded", None, "nginx not found")
    fake = tmp_path / "nginx"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert choose_front(ServeConfig()) == choose_front(ServeConfig(front="nginx"))
    assert choose_front(ServeConfig()).nginx == str(fake)


def test_serve_without_proxy_is_plain_gunicorn():
    """``--no-proxy --compute-workers 0``: the stack before nginx (gunicorn on the port)."""
    server = Server(1, "--no-proxy", "--compute-workers", "0")
    try:
        server.wait_ready()
        kids = _descendants(server.proc.pid)
        assert len(kids) == 2 and not any(_name(pid) == "nginx" for pid in kids)
        assert _request(server.port, "POST", "/v1/capsa/valid", {"hand": HAND})[0] == 200
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("extra", [[], ["--no-proxy"]])
def test_serve_refuses_a_port_in_use_in_one_line(extra, capsys):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--port", str(port), *extra]) == cli.EXIT_INPUT_ERROR
    err = capsys.readouterr().err
    assert err == f"capsa: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


class SharedStacks:
    """The served stack behind each front (a gunicorn worker, no compute pool, its sessions in
    ``folder``), started on a test's first :meth:`get` of that front and then shared by every
    test of the process that asks for it (the ``served_stacks`` fixture in ``conftest.py``):
    for tests of what a front and the app answer, which need no stack of their own.
    :meth:`stop` stops them all cleanly."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.servers: dict[str, Server] = {}

    def get(self, front: str) -> Server:
        if front not in self.servers:
            # its log in a file: a pipe nobody reads while the stack serves would fill and
            # block it
            srv = Server(1, "--compute-workers", "0",
                         "--sessions-db", str(self.folder / f"{front}.sqlite3"), front=front,
                         stderr_path=self.folder / f"{front}.log")
            try:
                srv.wait_ready()
            except BaseException:
                srv.stop()
                raise
            self.servers[front] = srv
        return self.servers[front]

    def stop(self) -> None:
        codes = {front: srv.stop() for front, srv in self.servers.items()}
        self.servers.clear()
        assert all(code == 0 for code in codes.values()), f"exit status by front: {codes}"
