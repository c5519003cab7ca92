"""extrack: exact real-time extremal-distance tracking on NURBS CAD models.

Import a STEP or IGES file (or load a prepared ``.exs`` scene), then query
closest points, signed distances and normals, track a moving point or a pair
of moving bodies::

    import numpy as np, extrack
    scene = extrack.Scene.import_file("part.step")
    scene.save("part.exs")
    r = scene.closest_points(np.random.rand(1000, 3) * 100)
    r["distance"], r["signed_distance"], r["point"], r["normal"], r["face"]

Every error raised by the library is an :class:`extrack.Error`. Units are
millimetres, seconds and radians. ``extrack.dask.prepare_many`` prepares
files on a Dask cluster (``pip install extrack[dask]``).
"""

from ._extrack import (
    ClosestPoint,
    Error,
    PairResult,
    PairTracker,
    PointTracker,
    Scene,
    __version__,
    pair_distance,
    prepare_file,
    version,
)

__all__ = [
    "ClosestPoint",
    "Error",
    "PairResult",
    "PairTracker",
    "PointTracker",
    "Scene",
    "__version__",
    "pair_distance",
    "prepare_file",
    "version",
]
