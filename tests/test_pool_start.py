"""How a local pool's supervisor starts: forked from a warm caller with no other thread (no
second interpreter or warm-up), else through the fork server; either way its processes play
the process's default tables, not a ``tables_file`` block the caller was in."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import json, os, sys, threading, time
    from solver.executors.pool import LocalPool, call_function, can_fork_here
    from solver.games.capsa.strategy.tables import tables_digest, tables_file, without_removal
    from solver.games.capsa.strategy.tables import DATA_FILE
    from solver.warmup import warm_up

    if sys.argv[1] == "thread":
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
    plain = without_removal(DATA_FILE, sys.argv[2])
    forked = can_fork_here()
    with tables_file(plain):
        inside = tables_digest()
        pool = LocalPool(1, warm=warm_up)
    with open(f"/proc/{pool.pid}/stat") as fh:
        parent = int(fh.read().rsplit(")", 1)[1].split()[1])
    worker_tables = call_function(pool.path, None, tables_digest)
    print(json.dumps({"forked": forked, "parent_is_caller": parent == os.getpid(),
                      "alive": pool.alive, "workers": len(pool.worker_pids()),
                      "worker_tables": worker_tables, "default": tables_digest(),
                      "inside": inside}))
    pool.close()
    print(json.dumps({"alive_after_close": pool.alive}))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["alone", "thread"])
def test_the_supervisor_is_forked_only_from_a_single_threaded_caller(how, tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT, how, str(tmp_path / "plain.npz")],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    first, last = (json.loads(line) for line in out.strip().splitlines())
    assert first["forked"] is (how == "alone")
    assert first["parent_is_caller"] is (how == "alone")
    assert first["alive"] and first["workers"] == 1
    assert first["inside"] != first["default"]  # the block played other tables ...
    assert first["worker_tables"] == first["default"]  # ... which the pool does not inherit
    assert last == {"alive_after_close": False}
