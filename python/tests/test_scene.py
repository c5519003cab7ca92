"""extrack.Scene, the trackers and pair_distance on the repository's fixtures."""

import threading

import numpy as np
import pytest

import extrack
from conftest import fixture


@pytest.fixture(scope="module")
def ellipsoid():
    return extrack.Scene.import_file(fixture("ellipsoid.step"))


@pytest.fixture(scope="module")
def assembly():
    return extrack.Scene.import_file(fixture("assembly.step"))


def ring(n, radius=20.0, seed=0):
    rng = np.random.default_rng(seed)
    d = rng.normal(size=(n, 3))
    return radius * d / np.linalg.norm(d, axis=1, keepdims=True)


@pytest.mark.parametrize("name", ["ellipsoid.step", "assembly.step", "torus.brep.igs"])
def test_save_is_byte_identical_to_the_cli(name, cli_scene, tmp_path):
    scene = extrack.Scene.import_file(fixture(name))
    out = tmp_path / "s.exs"
    scene.save(out)
    assert out.read_bytes() == cli_scene(name)
    assert scene.to_bytes() == cli_scene(name)


def test_load_round_trip(ellipsoid, tmp_path):
    path = tmp_path / "e.exs"
    ellipsoid.save(str(path))
    loaded = extrack.Scene.load(path)
    assert loaded.to_bytes() == ellipsoid.to_bytes()
    assert extrack.Scene.from_bytes(path.read_bytes()).body_count == 1
    pts = ring(50)
    a, b = ellipsoid.closest_points(pts), loaded.closest_points(pts)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    # the loaded file's own bytes are saved again
    again = tmp_path / "again.exs"
    loaded.save(again)
    assert again.read_bytes() == path.read_bytes()


def test_import_options(tmp_path):
    plain = extrack.Scene.import_file(fixture("ellipsoid.step"), plain=True)
    packed = extrack.Scene.import_file(fixture("ellipsoid.step"))
    assert plain.to_bytes() != packed.to_bytes()
    coarse = extrack.Scene.import_file(fixture("ellipsoid.step"), max_cone_deg=60.0)
    assert coarse.bodies[0]["pieces"] >= packed.bodies[0]["pieces"]


def test_bodies(assembly):
    bodies = assembly.bodies
    assert len(bodies) == assembly.body_count == len(assembly) >= 2
    for i, b in enumerate(bodies):
        assert b["kind"] in ("solid", "open_shell", "faces")
        assert b["pieces"] > 0
        lo, hi = b["bbox"]
        assert all(l <= h for l, h in zip(lo, hi))
        assert assembly.find_body(b["name"]) <= i
    assert "Scene" in repr(assembly)


def test_closest_points_shapes_and_values(ellipsoid):
    pts = ring(200)
    r = ellipsoid.closest_points(pts)
    assert r["distance"].shape == (200,) and r["distance"].dtype == np.float64
    assert r["signed_distance"].shape == (200,)
    assert r["point"].shape == (200, 3) and r["normal"].shape == (200, 3)
    assert r["face"].shape == (200,) and r["face"].dtype == np.uint64
    # the distance is the length of the offset, along the normal, outside the solid
    off = pts - r["point"]
    np.testing.assert_allclose(np.linalg.norm(off, axis=1), r["distance"], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(r["normal"], axis=1), 1.0, atol=1e-9)
    assert np.all(r["signed_distance"] > 0)
    assert np.all(np.einsum("ij,ij->i", off, r["normal"]) > 0)
    # one at a time gives the same answers
    for i in range(0, 200, 37):
        a = ellipsoid.closest_point(pts[i])
        assert a.distance == r["distance"][i]
        np.testing.assert_array_equal(a.point, r["point"][i])
        assert a.face == r["face"][i]
    # inside: negative signed distance
    inside = ellipsoid.closest_points(np.zeros((1, 3)))
    assert inside["signed_distance"][0] < 0 and inside["has_sign"][0]
    # empty input
    empty = ellipsoid.closest_points(np.zeros((0, 3)))
    assert empty["point"].shape == (0, 3) and empty["distance"].shape == (0,)


def test_closest_points_accepts_array_likes(ellipsoid):
    pts = ring(30)
    ref = ellipsoid.closest_points(pts)["distance"]
    # lists, float32, Fortran order and strided views are converted
    np.testing.assert_array_equal(ellipsoid.closest_points(pts.tolist())["distance"], ref)
    np.testing.assert_array_equal(ellipsoid.closest_points(np.asfortranarray(pts))["distance"], ref)
    wide = np.zeros((30, 6))
    wide[:, ::2] = pts
    np.testing.assert_array_equal(ellipsoid.closest_points(wide[:, ::2])["distance"], ref)
    assert ellipsoid.closest_points(pts.astype(np.float32))["distance"].shape == (30,)


def test_body_selection_and_pose(assembly):
    pts = ring(40, radius=200.0)
    all_ = assembly.closest_points(pts)
    per = [assembly.closest_points(pts, body=b)["distance"] for b in range(assembly.body_count)]
    np.testing.assert_allclose(all_["distance"], np.min(per, axis=0), rtol=1e-9)
    # moving body 0 by t moves its answers by t
    t = np.array([5.0, -3.0, 2.0])
    m = np.eye(4)
    m[:3, 3] = t
    moved = assembly.closest_points(pts + t, body=0, pose=m)
    np.testing.assert_allclose(moved["distance"], per[0], rtol=1e-7, atol=1e-7)
    quat = assembly.closest_points(pts + t, body=0, pose=(t, (1.0, 0.0, 0.0, 0.0)))
    np.testing.assert_allclose(quat["distance"], moved["distance"], rtol=1e-12)


def test_queries_run_in_parallel_threads(ellipsoid):
    pts = ring(2000, seed=3)
    ref = ellipsoid.closest_points(pts)["distance"]
    out = [None] * 4

    def work(i):
        out[i] = ellipsoid.closest_points(pts)["distance"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for o in out:
        np.testing.assert_array_equal(o, ref)


def test_point_tracker_follows_a_moving_point(ellipsoid):
    tr = ellipsoid.point_tracker(body=0)
    dt, w, r = 0.001, 2.0, 15.0
    for i in range(300):
        t = i * dt
        q = np.array([r * np.cos(w * t), r * np.sin(w * t), 1.0])
        q_dot = np.array([-r * w * np.sin(w * t), r * w * np.cos(w * t), 0.0])
        a = tr.update(q, q_dot, dt)
        if i % 50 == 49:
            cold = ellipsoid.closest_point(q, body=0)
            assert abs(a.distance - cold.distance) < 1e-6
            assert abs(a.signed_distance - cold.signed_distance) < 1e-6
    assert a.point.shape == (3,) and a.normal.shape == (3,)
    kind, index = a.feature
    assert kind in ("piece", "edge", "vertex") and index >= 0
    assert a.has_sign and a.body == 0
    tr.reset()
    b = tr.update(q, None, 0.0)
    assert abs(b.distance - a.distance) < 1e-6


def test_pair_distance_and_tracker(ellipsoid, assembly):
    far = extrack.pair_distance(ellipsoid, 0, ellipsoid, 0, pose_b=([40.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]))
    assert not far.penetrating and far.distance > 0
    np.testing.assert_allclose(np.linalg.norm(far.point_b - far.point_a), far.distance, rtol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(far.normal), 1.0, rtol=1e-9)
    same = extrack.pair_distance(ellipsoid, 0, ellipsoid, 0)
    assert same.penetrating and same.signed_distance < 0
    m = np.eye(4)
    m[0, 3] = 40.0
    tr = extrack.PairTracker(ellipsoid, 0, ellipsoid, 0)
    for i in range(20):
        p = tr.update(None, m, 0.001 if i else 0.0)
    assert abs(p.distance - far.distance) < 1e-6
    tr.reset()
    # two bodies of an assembly
    p = extrack.pair_distance(assembly, 0, assembly, 1)
    assert p.distance >= 0


def test_version():
    assert extrack.__version__ == extrack.version()


def test_answers_carry_their_status(ellipsoid):
    """Answers carry their status bits (``status`` names them, ``verified``
    sums them up): the fixture passes its self-check and every solve
    converges, so point, tracked and pair answers are checked and nothing
    else."""
    q = np.array([0.0, 0.0, 30.0])
    cold = ellipsoid.closest_point(q, body=0)
    assert cold.status == ["checked"] and cold.verified
    tracked = ellipsoid.point_tracker(body=0).update(q, None, 0.0)
    assert tracked.status == ["checked"] and tracked.verified
    pair = extrack.pair_distance(ellipsoid, 0, ellipsoid, 0, pose_b=([40.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]))
    assert pair.status == ["checked"] and pair.verified
