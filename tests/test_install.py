"""The package works from a read-only install directory, with or without a writable cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ("from solver.games.capsa.splits import valid_arrangements; import solver._jit as j; "
          "print(valid_arrangements('As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h'), j.CACHE_ENABLED)")


def _read_only_runner() -> list[str] | None:
    """A command prefix that runs its argument with the copy mounted read-only."""
    if os.geteuid() == 0 and shutil.which("unshare") and subprocess.run(
            ["unshare", "-m", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-m", "sh", "-c"]
    return None


@pytest.mark.parametrize("cache_writable", [True, False])
def test_read_only_install(tmp_path, cache_writable):
    """Read-only package and home: the cache goes to a temporary directory; when the chosen
    cache directory (NUMBA_CACHE_DIR) is read-only too, kernels compile without a cache."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "solver", site / "solver",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    home = site / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    env.update(PYTHONPATH=str(site), HOME=str(home), PYTHONDONTWRITEBYTECODE="1")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env["TMPDIR"] = str(scratch)
    if not cache_writable:
        env["NUMBA_CACHE_DIR"] = str(home)
    runner = _read_only_runner()
    cmd = f'"{sys.executable}" -c "{SCRIPT}"'
    if runner is not None:
        mount = f"mount --bind '{site}' '{site}' && mount -o remount,bind,ro '{site}' && "
        proc = subprocess.run(runner + [mount + cmd], env=env, capture_output=True, text=True)
    elif os.geteuid() != 0:
        for p in [site, *site.rglob("*")]:
            p.chmod(p.stat().st_mode & ~0o222)
        proc = subprocess.run(cmd, shell=True, env=env, capture_output=True, text=True)
    else:
        pytest.skip("cannot make a read-only directory here (root without unshare)")
    assert proc.returncode == 0, proc.stderr
    count, cached = proc.stdout.split()
    assert count == "17541"
    assert cached == str(cache_writable)
