"""Type stubs of the native module ``extrack._extrack`` (src/python/)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

PathLike = Union[str, "os.PathLike[str]"]
ArrayLike = npt.ArrayLike
#: None (identity), a 4×4 row-major homogeneous matrix, or (position, quaternion w x y z).
PoseLike = Union[None, ArrayLike, Tuple[ArrayLike, ArrayLike]]
#: None (at rest), 6 numbers (ωx, ωy, ωz, vx, vy, vz), or (angular, linear).
TwistLike = Union[None, ArrayLike, Tuple[ArrayLike, ArrayLike]]

class Error(Exception):
    """Base class of every error raised by extrack; ``str(e)`` is the
    library's message, ``e.status`` the C status name (e.g. ``"EXT_IO"``)."""

    status: str

def version() -> str:
    """The version of the library."""

class ClosestPoint:
    """The closest point of a body to a query point (world coordinates, mm)."""

    @property
    def distance(self) -> float: ...
    @property
    def signed_distance(self) -> float: ...
    @property
    def has_sign(self) -> bool: ...
    @property
    def point(self) -> npt.NDArray[np.float64]: ...
    @property
    def normal(self) -> npt.NDArray[np.float64]: ...
    @property
    def body(self) -> int: ...
    @property
    def face(self) -> int: ...
    @property
    def piece(self) -> Optional[int]: ...
    @property
    def feature(self) -> Tuple[str, int]:
        """``(kind, index)``: kind ``"piece"``, ``"edge"`` or ``"vertex"``."""
    @property
    def mode(self) -> str: ...
    @property
    def params(self) -> Tuple[float, float]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def status(self) -> List[str]:
        """Names of the answer's status bits: ``"checked"`` (the scene
        carries a self-check), ``"unverified_face"``, ``"shell_incomplete"``,
        ``"unconverged"`` (the solve hit its iteration cap: the distance may
        be too large)."""
    @property
    def verified(self) -> bool:
        """Checked, no face or body failure, and the solve converged."""

class PairResult:
    """The minimum distance (or penetration) between two bodies (mm)."""

    @property
    def distance(self) -> float: ...
    @property
    def signed_distance(self) -> float: ...
    @property
    def penetrating(self) -> bool: ...
    @property
    def point_a(self) -> npt.NDArray[np.float64]: ...
    @property
    def point_b(self) -> npt.NDArray[np.float64]: ...
    @property
    def normal(self) -> npt.NDArray[np.float64]: ...
    @property
    def face_a(self) -> int: ...
    @property
    def face_b(self) -> int: ...
    @property
    def feature_a(self) -> Tuple[str, int]: ...
    @property
    def feature_b(self) -> Tuple[str, int]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def status(self) -> List[str]:
        """Names of the answer's status bits: ``"checked"`` (the scene
        carries a self-check), ``"unverified_face"``, ``"shell_incomplete"``,
        ``"unconverged"`` (the solve hit its iteration cap: the distance may
        be too large)."""
    @property
    def verified(self) -> bool:
        """Checked, no face or body failure, and the solve converged."""

class Scene:
    """A prepared scene: immutable, shareable between threads."""

    @staticmethod
    def import_file(path: PathLike, *, max_cone_deg: float = 80.0, plain: bool = False) -> "Scene":
        """Imports a STEP/IGES file and prepares it (as ``extrack import``)."""
    @staticmethod
    def load(path: PathLike) -> "Scene":
        """Loads a scene file (``.exs``), validating it completely."""
    @staticmethod
    def from_bytes(data: bytes) -> "Scene":
        """A scene from the bytes of a scene file."""
    def save(self, path: PathLike) -> None:
        """Writes the scene file (the bytes ``extrack import`` writes)."""
    def to_bytes(self) -> bytes: ...
    @property
    def body_count(self) -> int: ...
    def __len__(self) -> int: ...
    @property
    def bodies(self) -> List[Dict[str, Any]]:
        """name, kind, pieces, edges, vertices, source_id, bbox, placement of every body."""
    def find_body(self, name: str) -> int: ...
    def closest_point(self, point: ArrayLike, body: Optional[int] = None, pose: PoseLike = None) -> ClosestPoint: ...
    def closest_points(
        self, points: ArrayLike, body: Optional[int] = None, pose: PoseLike = None
    ) -> Dict[str, npt.NDArray[Any]]:
        """Closest points of an (N, 3) array, in parallel without the GIL:
        ``distance``, ``signed_distance`` (N,), ``point``, ``normal`` (N, 3),
        ``face``, ``body``, ``piece``, ``has_sign`` (N,)."""
    def point_tracker(self, body: int = 0) -> "PointTracker": ...

class PointTracker:
    """Tracks the closest point of one body to a moving point."""

    def update(
        self,
        q: ArrayLike,
        q_dot: Optional[ArrayLike] = None,
        dt: float = 0.0,
        pose: PoseLike = None,
        twist: TwistLike = None,
    ) -> ClosestPoint: ...
    def reset(self) -> None: ...

class PairTracker:
    """Tracks the minimum distance (or penetration) between two bodies."""

    def __init__(self, scene_a: Scene, body_a: int, scene_b: Scene, body_b: int) -> None: ...
    def update(
        self,
        pose_a: PoseLike = None,
        pose_b: PoseLike = None,
        dt: float = 0.0,
        twist_a: TwistLike = None,
        twist_b: TwistLike = None,
    ) -> PairResult: ...
    def reset(self) -> None: ...

def pair_distance(
    scene_a: Scene,
    body_a: int,
    scene_b: Scene,
    body_b: int,
    pose_a: PoseLike = None,
    pose_b: PoseLike = None,
) -> PairResult:
    """The minimum distance (or penetration) between two bodies, from scratch."""

def prepare_file(
    path: PathLike, out_dir: PathLike, *, max_cone_deg: float = 80.0, plain: bool = False, force: bool = False
) -> str:
    """Prepares one file as ``extrack batch`` does; returns the report line (JSON)."""
