"""Batch solving on a real Dask LocalCluster (2 single-threaded worker processes): the same
results as one process, hand for hand, and none lost or doubled when a worker is killed."""

from __future__ import annotations

import json
import logging
import os
import signal
import time

import pytest
from test_batch import check_complete, random_hands, read_jsonl, write_input

from solver import arrange_many
from solver.batch.many import best_many

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def dask_client():
    from solver.warmup import warm_up

    warm_up()  # write the numba cache before the workers load it
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_cluster_matches_one_process(dask_client):
    hands = random_hands(4000, seed=11)
    got = arrange_many(hands, rules="indonesia", opponents=2, chunk_size=500, client=dask_client)
    assert got == best_many(hands, "indonesia", 2)
    # the kernels were warmed once per worker by the plugin, not in the tasks
    warm = dask_client.run(lambda dask_worker: getattr(dask_worker, "capsa_warm_up_seconds", None))
    assert len(warm) == 2 and all(v is not None for v in warm.values())


def test_killed_worker_loses_no_chunk(dask_client):
    from solver.batch.many import best_chunk, chunk_spec
    from solver.batch.schedule import windowed
    from solver.executors.dask import dask_executor
    from solver.warmup import warm_up

    hands = random_hands(6000, seed=12)
    chunks = [hands[i:i + 250].astype("uint8") for i in range(0, len(hands), 250)]
    executor = dask_executor(dask_client, warm=warm_up)
    results: dict[int, list] = {}
    killed = None
    for index, result in windowed(executor, best_chunk, chunks,
                                  chunk_spec("standard", 3, "table"), window=len(chunks)):
        assert index not in results
        results[index] = result
        if killed is None:
            busy = [addr for addr, keys in dask_client.processing().items() if keys]
            pids = dask_client.run(os.getpid)
            killed = busy[0] if busy else next(iter(pids))
            os.kill(pids[killed], signal.SIGKILL)
    assert sorted(results) == list(range(len(chunks)))
    assert [d for i in range(len(chunks)) for d in results[i]] == best_many(hands)
    deadline = time.monotonic() + 30
    while killed in dask_client.scheduler_info()["workers"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert killed not in dask_client.scheduler_info()["workers"]  # it really died
    dask_client.wait_for_workers(2, timeout=60)  # the nanny brought a new one


def test_cli_on_scheduler_then_rerun(dask_client, tmp_path):
    from solver.cli import main as capsa_main

    def main(argv):
        return capsa_main(["batch", *argv])

    hands = random_hands(1500, seed=13)
    where = write_input(tmp_path / "in.txt", hands, {4: "Ah Kh", 20: "[1, 2]"})
    argv = [str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.jsonl"), "--no-progress",
            "--scheduler", dask_client.scheduler.address, "--chunk-size", "200", "--ordered"]
    assert main(argv) == 0
    check_complete(tmp_path / "out.jsonl", where, best_many(hands))
    lines = [r["line"] for r in read_jsonl(tmp_path / "out.jsonl")]
    assert lines == sorted(lines)
    assert [e["line"] for e in read_jsonl(tmp_path / "out.jsonl.errors.jsonl")] == [4, 20]
    # cut the last chunk in half: the rerun solves just what is missing
    out = tmp_path / "out.jsonl"
    data = out.read_bytes()
    out.write_bytes(data[:len(data) - 5000])
    assert main(argv) == 0
    check_complete(tmp_path / "out.jsonl", where, best_many(hands))


def test_cli_local_cluster(tmp_path, capsys):
    from solver.cli import main as capsa_main

    def main(argv):
        return capsa_main(["batch", *argv])

    hands = random_hands(300, seed=14)
    where = write_input(tmp_path / "in.txt", hands)
    assert main([str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.jsonl"), "--no-progress",
                 "--cluster", "local", "--workers", "1", "--chunk-size", "100",
                 "--json-summary"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["backend"] == "dask local cluster" and summary["solved"] == 300
    check_complete(tmp_path / "out.jsonl", where, best_many(hands))
