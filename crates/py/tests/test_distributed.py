"""Benchmark games on a local two-worker Ray cluster equal the command line's, game by game,
including when a worker dies mid-run."""

import io
import json
import subprocess

import pytest

ray = pytest.importorskip("ray")

from playfield import distributed  # noqa: E402

GAMES = 6
OPTIONS = ["--level", "19", "--seed", "5", "--max-lines", "2", "--reaction", "18", "--input", "X."]


@pytest.fixture(scope="module")
def local_cluster(tmp_path_factory):
    crash_dir = tmp_path_factory.mktemp("crash")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level="ERROR",
        runtime_env={"env_vars": {distributed.CRASH_ONCE_ENV: str(crash_dir)}},
    )
    yield crash_dir
    ray.shutdown()


def test_ray_games_equal_the_command_line(local_cluster, nes_bench_command):
    # The score player, the default of both.
    cli = subprocess.run(
        nes_bench_command + ["--games", str(GAMES), "--json"] + OPTIONS,
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    args = distributed.parser().parse_args(
        ["bench", "--games", str(GAMES), "--json", "--quiet"] + OPTIONS
    )
    out, err = io.StringIO(), io.StringIO()
    results = distributed.bench(args, out=out, err=err)
    ray_lines = out.getvalue().splitlines()
    assert len(results) == GAMES
    # Every per-game line is identical, in game order.
    assert ray_lines[:GAMES] == cli[:GAMES]
    # The summaries are the command line's and this module's own statistics of those games.
    assert "summary" in json.loads(ray_lines[GAMES]) and "summary" in json.loads(cli[GAMES])
    # The first attempt of game 1 killed its worker: it was retried and counted once.
    assert (local_cluster / "crashed").exists()
    assert [json.loads(line)["game"] for line in ray_lines[:GAMES]] == list(range(1, GAMES + 1))


def test_text_output_matches_the_command_line(local_cluster, nes_bench_command):
    cli = subprocess.run(
        nes_bench_command + ["--games", "2", "--player", "birken"] + OPTIONS,
        capture_output=True, text=True, check=True,
    ).stdout
    args = distributed.parser().parse_args(
        ["bench", "--games", "2", "--quiet", "--player", "birken"] + OPTIONS
    )
    out = io.StringIO()
    distributed.bench(args, out=out, err=io.StringIO())
    # The per-game lines are identical (the summaries are each side's own statistics).
    assert out.getvalue().splitlines()[:2] == cli.splitlines()[:2]


def test_bad_options_fail_before_any_task():
    args = distributed.parser().parse_args(["bench", "--level", "40"])
    with pytest.raises(ValueError, match="start level"):
        distributed.bench(args, out=io.StringIO(), err=io.StringIO())
    args = distributed.parser().parse_args(["bench", "--player", "nobody"])
    with pytest.raises(ValueError, match="--player 'nobody'"):
        distributed.bench(args, out=io.StringIO(), err=io.StringIO())
