import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def playfield_bin() -> str:
    """The command-line binary: $PLAYFIELD_BIN, else the workspace's release or debug build."""
    candidates = [os.environ.get("PLAYFIELD_BIN")]
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    candidates += [str(target / "release" / "playfield"), str(target / "debug" / "playfield")]
    candidates.append(shutil.which("playfield"))
    for c in candidates:
        if c and Path(c).is_file():
            return c
    pytest.fail("the playfield binary is not built (cargo build --release -p playfield)")


@pytest.fixture(scope="session")
def nes_bench_command(playfield_bin) -> list[str]:
    """`playfield nes bench` (AI games), or `nes play` on builds from before its rename."""
    out = subprocess.run([playfield_bin, "nes", "--help"], capture_output=True, text=True).stdout
    sub = "bench" if any(line.strip().startswith("bench") for line in out.splitlines()) else "play"
    return [playfield_bin, "nes", sub]
