"""Writing ``.npz`` files whole: the one writer of the shipped data files (Capsa tables, the
Big Two and Da San networks) and of training checkpoints."""

from __future__ import annotations

import io
import json
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

#: What reading a damaged or foreign ``.npz`` may raise (a truncated or empty file, a
#: missing member, a member of the wrong type).
BAD_FILE_ERRORS = (OSError, EOFError, zipfile.BadZipFile, LookupError, ValueError, TypeError,
                   AttributeError)


def write_arrays(path: Path, arrays: dict[str, np.ndarray], meta: dict) -> None:
    """Write an ``.npz`` file atomically (a temporary file renamed into place), with fixed
    member dates (the same arrays make the same bytes, so the same digest) and a JSON
    ``meta`` record beside the arrays."""
    arrays = {"meta": np.array(json.dumps(meta, sort_keys=True)), **arrays}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz")
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, value in arrays.items():
                buf = io.BytesIO()
                np.lib.format.write_array(buf, np.asanyarray(value), allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, buf.getvalue())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
