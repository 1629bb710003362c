"""docs/python.md's Python blocks run as written, in order, and the example scripts run."""

import importlib.util
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "crates" / "py" / "examples"


def _has_sb3() -> bool:
    return importlib.util.find_spec("sb3_contrib") is not None


def test_the_python_guide_runs():
    text = (REPO / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 6
    namespace: dict = {}
    ran = 0
    for block in blocks:
        if "sb3_contrib" in block and not _has_sb3():
            print("SKIP a guide block: stable-baselines3 / sb3-contrib are not installed")
            continue
        if "RecordVideo" in block and importlib.util.find_spec("moviepy") is None:
            print("SKIP a guide block: moviepy is not installed")
            continue
        exec(compile(block, "docs/python.md", "exec"), namespace)
        ran += 1
    assert ran >= 5


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cem_example_improves_on_its_first_generation(capsys):
    cem = _load("cem_afterstates")
    cem.main(["--minutes", "0.2", "--train-lines", "10", "--eval-games", "1", "--level", "18"])
    out = capsys.readouterr().out
    means = [float(m) for m in re.findall(r"lines mean ([0-9.]+)", out)]
    assert len(means) >= 2 and max(means[1:]) > means[0], out
    assert "evaluation:" in out


def test_maskable_ppo_example_runs():
    if not _has_sb3():
        print("SKIP: stable-baselines3 / sb3-contrib are not installed (pip install sb3-contrib)")
        pytest.skip("stable-baselines3 / sb3-contrib are not installed")
    ppo = _load("maskable_ppo")
    history = ppo.main(["--minutes", "0.15", "--envs", "4"])
    assert len(history) >= 1 and all(h >= 0 for h in history)
