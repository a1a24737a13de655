"""One place that decides how numba compiles: ``nogil``, and ``cache`` when it can be written.

numba raises "no locator available" at import when ``cache=True`` and neither the package
directory nor a user cache directory is writable (a read-only install). We pick a writable
cache directory ourselves (``NUMBA_CACHE_DIR`` wins when set), and compile without a cache
when there is none.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=path, prefix=".probe", delete=True)
        probe.close()
        return True
    except OSError:
        return False


def _choose_cache_dir() -> str | None:
    explicit = os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        return explicit if _writable(Path(explicit)) else None
    package_cache = Path(__file__).resolve().parent / "__pycache__"
    if _writable(package_cache):
        return ""  # numba's own in-tree locator works
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "capsa-numba"
    if _writable(home):
        return str(home)
    tmp = Path(tempfile.gettempdir()) / f"capsa-numba-{os.getuid() if hasattr(os, 'getuid') else 0}"
    return str(tmp) if _writable(tmp) else None


_CACHE_DIR = _choose_cache_dir()
if _CACHE_DIR:
    os.environ["NUMBA_CACHE_DIR"] = _CACHE_DIR

import numba  # noqa: E402  (must follow the cache decision)

if _CACHE_DIR:
    numba.config.CACHE_DIR = _CACHE_DIR

CACHE_ENABLED = _CACHE_DIR is not None


def njit(*args, **kwargs):
    """``numba.njit`` with ``nogil=True`` and a cache when one is writable."""
    kwargs.setdefault("nogil", True)
    kwargs.setdefault("cache", CACHE_ENABLED)
    return numba.njit(*args, **kwargs)
