"""extrack.dask.prepare_many on a LocalCluster of two worker processes:
the scenes are byte-identical to `extrack import`, failures are reported."""

import os
import shutil

import pytest

from conftest import fixture

distributed = pytest.importorskip("dask.distributed")

import extrack.dask  # noqa: E402

NAMES = ["ellipsoid.step", "torus.brep.igs", "assembly.step"]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def test_prepare_many(client, cli_scene, tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    paths = []
    for n in NAMES:
        shutil.copy(fixture(n), inputs / n)
        paths.append(inputs / n)
    broken = inputs / "broken.step"
    broken.write_text("ISO-10303-21;\nnot really\n")
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(fixture("ellipsoid.step"), other / "ellipsoid.step")
    all_paths = paths + [broken, inputs / "missing.step", other / "ellipsoid.step"]
    out = tmp_path / "out"

    reports = extrack.dask.prepare_many(all_paths, out, client)
    assert [r["file"] for r in reports] == [os.fspath(p) for p in all_paths]
    # each scene ran on a worker and is byte-identical to the CLI's
    for n, r in zip(NAMES, reports):
        assert r["error"] is None, r
        assert r["up_to_date"] is False
        assert r["bodies"] >= 1 and r["pieces"] >= 1 and r["faces"] >= 1
        assert r["self_check"]["passed"] is True and r["self_check"]["failed_faces"] == []
        assert (out / f"{n}.exs").read_bytes() == cli_scene(n)
        assert r["output"] == os.fspath(out / f"{n}.exs")
    # failures are reported, never raised
    assert reports[3]["error"] and reports[3]["bodies"] is None
    assert "missing.step" in reports[4]["error"]
    assert "already used" in reports[5]["error"]
    assert not (out / "broken.step.exs").exists()

    # a second run finds the scenes up to date
    again = extrack.dask.prepare_many(paths, out, client)
    assert all(r["up_to_date"] and r["error"] is None for r in again)
    assert [r["key"] for r in again] == [r["key"] for r in reports[:3]]
    # other options: prepared again, forced: prepared again
    forced = extrack.dask.prepare_many(paths[:1], out, client, force=True)
    assert not forced[0]["up_to_date"]
    assert (out / "ellipsoid.step.exs").read_bytes() == cli_scene("ellipsoid.step")


def test_workers_are_processes(client):
    pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids
