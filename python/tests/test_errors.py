"""Bad input raises extrack.Error with the library's message, never crashes."""

import numpy as np
import pytest

import extrack
from conftest import fixture


@pytest.fixture(scope="module")
def scene():
    return extrack.Scene.import_file(fixture("ellipsoid.step"))


def raises(status, match=None):
    class Ctx:
        def __enter__(self):
            self.cm = pytest.raises(extrack.Error, match=match)
            self.info = self.cm.__enter__()
            return self.info

        def __exit__(self, *exc):
            r = self.cm.__exit__(*exc)
            assert self.info.value.status == status, (self.info.value.status, str(self.info.value))
            return r

    return Ctx()


def test_error_is_an_exception_class():
    assert issubclass(extrack.Error, Exception)
    assert extrack.Error.__module__ == "extrack"


def test_missing_files(tmp_path):
    with raises("EXT_IO", "cannot read"):
        extrack.Scene.import_file(tmp_path / "missing.step")
    with raises("EXT_IO", "missing.exs"):
        extrack.Scene.load(tmp_path / "missing.exs")


def test_bad_files(tmp_path):
    junk = tmp_path / "junk.step"
    junk.write_text("hello")
    with raises("EXT_IMPORT"):
        extrack.Scene.import_file(junk)
    bad = tmp_path / "bad.exs"
    bad.write_bytes(b"EXS\0" + b"\0" * 100)
    with raises("EXT_INVALID_SCENE"):
        extrack.Scene.load(bad)
    with raises("EXT_INVALID_SCENE"):
        extrack.Scene.from_bytes(b"")
    # a truncated real scene
    good = extrack.Scene.import_file(fixture("ellipsoid.step")).to_bytes()
    with raises("EXT_INVALID_SCENE"):
        extrack.Scene.from_bytes(good[: len(good) // 2])


def test_bad_options():
    with raises("EXT_INVALID_ARGUMENT", "max_cone_angle"):
        extrack.Scene.import_file(fixture("ellipsoid.step"), max_cone_deg=95.0)
    with raises("EXT_INVALID_ARGUMENT"):
        extrack.Scene.import_file(fixture("ellipsoid.step"), max_cone_deg=float("nan"))


def test_nan_points(scene):
    pts = np.ones((10, 3)) * 20
    pts[7, 1] = np.nan
    with raises("EXT_INVALID_ARGUMENT", r"points\[7\]"):
        scene.closest_points(pts)
    pts[7, 1] = np.inf
    with raises("EXT_INVALID_ARGUMENT", r"points\[7\]"):
        scene.closest_points(pts)
    with raises("EXT_INVALID_ARGUMENT", "point"):
        scene.closest_point([np.nan, 0, 0])


@pytest.mark.parametrize(
    "points",
    [np.zeros(3), np.zeros((4, 2)), np.zeros((4, 4)), np.zeros((2, 3, 3)), np.float64(1.0), "abc", [[1, 2], [3]]],
)
def test_wrong_shapes(scene, points):
    with raises("EXT_INVALID_ARGUMENT", "points"):
        scene.closest_points(points)


def test_bad_bodies(scene):
    with raises("EXT_NO_SUCH_BODY"):
        scene.closest_points(np.zeros((1, 3)), body=3)
    with raises("EXT_NO_SUCH_BODY"):
        scene.point_tracker(body=1)
    with raises("EXT_NO_SUCH_BODY"):
        scene.point_tracker(body=-1)
    with raises("EXT_NO_SUCH_BODY"):
        extrack.pair_distance(scene, 0, scene, 2**40)
    with raises("EXT_NO_SUCH_BODY"):
        scene.find_body("no such body")


def test_bad_poses(scene):
    with raises("EXT_INVALID_ARGUMENT", "pose"):
        scene.closest_points(np.zeros((1, 3)), pose=np.zeros((4, 4)))
    with raises("EXT_INVALID_ARGUMENT", "pose"):
        scene.closest_points(np.zeros((1, 3)), pose=np.zeros((3, 3)))
    with raises("EXT_INVALID_ARGUMENT", "unit quaternion"):
        scene.closest_points(np.zeros((1, 3)), pose=([0, 0, 0], [2, 0, 0, 0]))
    with raises("EXT_INVALID_ARGUMENT", "pose_b"):
        extrack.pair_distance(scene, 0, scene, 0, pose_b=([0, 0, np.nan], [1, 0, 0, 0]))


def test_tracker_bad_updates_keep_state(scene):
    tr = scene.point_tracker(0)
    good = tr.update([20.0, 0.0, 0.0], [0.0, 0.0, 0.0], 0.001)
    with raises("EXT_INVALID_ARGUMENT"):
        tr.update([np.nan, 0.0, 0.0], None, 0.001)
    with raises("EXT_INVALID_ARGUMENT", "dt"):
        tr.update([20.0, 0.0, 0.0], None, -1.0)
    with raises("EXT_INVALID_ARGUMENT", "point"):
        tr.update([20.0, 0.0], None, 0.001)
    with raises("EXT_INVALID_ARGUMENT", "twist"):
        tr.update([20.0, 0.0, 0.0], None, 0.001, twist=[1, 2])
    again = tr.update([20.0, 0.0, 0.0], [0.0, 0.0, 0.0], 0.001)
    assert abs(again.distance - good.distance) < 1e-9
    pt = extrack.PairTracker(scene, 0, scene, 0)
    with raises("EXT_INVALID_ARGUMENT", "dt"):
        pt.update(None, None, float("nan"))


def test_prepare_file_never_raises_for_bad_inputs(tmp_path):
    import json

    r = json.loads(extrack.prepare_file(tmp_path / "missing.step", tmp_path / "out"))
    assert r["error"] and "missing.step" in r["error"] and r["bodies"] is None
