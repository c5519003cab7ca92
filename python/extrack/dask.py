"""Preparing many CAD files on a Dask distributed cluster.

``prepare_many(paths, out_dir, client)`` runs, on the workers of ``client``,
the very step of ``extrack batch``: each input file becomes
``out_dir/<input file name>.exs`` (byte-identical to ``extrack import``),
with its report ``out_dir/<input file name>.exs.json`` beside it; a scene that
is up to date (same input content, options and extrack version) is not
prepared again. The paths and ``out_dir`` must be readable and writable by
the workers under the same names (a shared file system, or object storage
mounted on every machine).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Union

__all__ = ["prepare_many", "prepare_one"]

PathLike = Union[str, "os.PathLike[str]"]


def prepare_one(
    path: str, out_dir: str, max_cone_deg: float = 80.0, plain: bool = False, force: bool = False
) -> Dict[str, Any]:
    """Prepares one file into ``out_dir`` (the task run on a worker) and
    returns its report: a dict with ``file``, ``output``, ``bodies``,
    ``faces``, ``pieces``, ``warnings``, ``self_check``, ``seconds``,
    ``error``, ``up_to_date``, ``output_bytes`` and ``key``."""
    from . import _extrack

    return json.loads(
        _extrack.prepare_file(path, out_dir, max_cone_deg=max_cone_deg, plain=plain, force=force)
    )


def _collision(path: str, out_dir: str, first: str) -> Dict[str, Any]:
    output = os.path.join(out_dir, os.path.basename(path) + ".exs")
    return {
        "file": path,
        "output": output,
        "bodies": None,
        "faces": None,
        "pieces": None,
        "warnings": [],
        "self_check": None,
        "seconds": 0.0,
        "error": f"{output}: output name already used by {first} in this batch",
        "up_to_date": False,
        "output_bytes": None,
        "key": None,
    }


def prepare_many(
    paths: Iterable[PathLike],
    out_dir: PathLike,
    client: Any,
    *,
    max_cone_deg: float = 80.0,
    plain: bool = False,
    force: bool = False,
) -> List[Dict[str, Any]]:
    """Prepares ``paths`` on the Dask cluster of ``client`` (any
    ``dask.distributed.Client``) into ``out_dir/<input file name>.exs``, one
    task per file, and returns the per-file reports in the order of
    ``paths``. A failing file is reported (its ``error``), never raised; two
    inputs with the same file name are an error for the later one. Options
    as for ``extrack batch``: ``max_cone_deg``, ``plain``, ``force``."""
    paths = [os.fspath(p) for p in paths]
    out_dir = os.fspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    first_of: Dict[str, str] = {}
    reports: List[Any] = [None] * len(paths)
    todo = []
    for i, p in enumerate(paths):
        name = os.path.basename(p)
        if name in first_of:
            reports[i] = _collision(p, out_dir, first_of[name])
        else:
            first_of[name] = p
            todo.append(i)
    futures = client.map(
        prepare_one,
        [paths[i] for i in todo],
        out_dir=out_dir,
        max_cone_deg=max_cone_deg,
        plain=plain,
        force=force,
        pure=False,
    )
    for i, r in zip(todo, client.gather(futures)):
        reports[i] = r
    return reports
