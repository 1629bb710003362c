"""The README's Python example runs as written."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_the_readme_python_example_runs(capsys):
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1, "the README has one Python example"
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert re.search(r"score \d+, lines \d+", out), out
