"""Shared fixtures of the Python tests: the CAD fixtures of the repository and
the `extrack` command line (for byte-identity checks)."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def fixture(name: str) -> pathlib.Path:
    return FIXTURES / name


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    """The `extrack` binary: $EXTRACK_BIN, else target/release/extrack. Missing:
    the test is skipped, unless EXTRACK_REQUIRE_CLI=1 (set by .ci/run)."""
    exe = pathlib.Path(os.environ.get("EXTRACK_BIN", ROOT / "target" / "release" / "extrack"))
    if not exe.exists():
        if os.environ.get("EXTRACK_REQUIRE_CLI") == "1":
            pytest.fail(f"{exe} not built")
        pytest.skip(f"{exe} not built (cargo build --release)")
    return exe


@pytest.fixture(scope="session")
def cli_scene(cli, tmp_path_factory):
    """`cli_scene(name)`: the bytes `extrack import fixtures/NAME -o F.exs` writes."""
    cache = {}
    out_dir = tmp_path_factory.mktemp("cli")

    def make(name: str) -> bytes:
        if name not in cache:
            out = out_dir / f"{name}.exs"
            subprocess.run([str(cli), "import", str(fixture(name)), "-o", str(out)], check=True, capture_output=True)
            cache[name] = out.read_bytes()
        return cache[name]

    return make
