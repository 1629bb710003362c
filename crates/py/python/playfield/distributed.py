"""AI benchmark games as Ray tasks: ``python -m playfield.distributed bench ...``.

Each game is one Ray task that plays the whole game in Rust (the same library call as
``playfield nes play``/``bench``, with the same per-game seed derivation), so the per-game results
equal the command line's for the same options and seed. Without ``--address`` Ray starts embedded
on this machine; with it, the run joins that cluster. A task whose worker dies is retried by Ray
and, if Ray gives up, submitted again by this driver (up to ``--max-retries`` times); each game is
counted once, by its index, whatever the number of attempts.

Output: the command line's format, one line per game in game order, then the summary (``--json``
gives one JSON object per game and ``{"summary": ...}``, as ``playfield nes play --json``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

from . import _playfield

#: Fault injection for the tests: when this variable names a directory, the first attempt of
#: game 1 kills its worker process (once per directory), to exercise the retry path.
CRASH_ONCE_ENV = "PLAYFIELD_DISTRIBUTED_CRASH_ONCE"


def _play(index: int, seed: int, options: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    crash_dir = os.environ.get(CRASH_ONCE_ENV)
    if crash_dir and index == 0:
        marker = os.path.join(crash_dir, "crashed")
        if not os.path.exists(marker):
            with open(marker, "w") as f:
                f.write(str(os.getpid()))
            os._exit(1)
    result = _playfield.play_nes_game(seed, index=index, **options)
    return index, result


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The command line's statistics, computed in the same order with the same formulas."""
    n = len(results)
    scores = [float(r["score"]) for r in results]
    mean = 0.0
    for s in scores:
        mean += s
    mean /= n
    var = 0.0
    if n > 1:
        for s in scores:
            var += (s - mean) ** 2
        var /= n - 1
    ordered = sorted(scores)
    median = ordered[n // 2] if n % 2 == 1 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2.0
    lines = 0.0
    for r in results:
        lines += float(r["lines"])
    return {
        "ci95_score": 1.96 * math.sqrt(var / n),
        "games": n,
        "max_score": max(r["score"] for r in results),
        "maxed_out": sum(1 for r in results if r["score"] >= 999_999),
        "mean_lines": lines / n,
        "mean_score": mean,
        "median_score": median,
        "reached_level_29": sum(1 for r in results if r["level"] >= 29),
    }


def end_text(end: Any) -> str:
    """The command line's words for a game's end (``end`` as its JSON value)."""
    if isinstance(end, str):
        return {
            "top_out": "top-out",
            "line_cap": "line cap",
            "frame_cap": "frame cap",
            "b_type_complete": "B-type complete",
        }.get(end, end)
    (kind, why), = end.items()
    prefix = {
        "unsupported": "engine stopped",
        "stopped": "stopped",
        "mismatch": "search/engine mismatch",
    }.get(kind, kind)
    return f"{prefix}: {why}"


def game_line(index: int, r: dict[str, Any], as_json: bool) -> str:
    """The game's line exactly as ``playfield nes bench`` prints it (made by the same Rust code)."""
    return r["json"] if as_json else r["text"]


def summary_line(s: dict[str, Any], as_json: bool) -> str | None:
    if as_json:
        return json.dumps({"summary": s}, separators=(",", ":"))
    if s["games"] <= 1:
        return None
    return (
        f"{s['games']} games: mean score {s['mean_score']:.0f} ± {s['ci95_score']:.0f} (95% CI), "
        f"median {s['median_score']:.0f}, max {s['max_score']}, mean lines {s['mean_lines']:.1f}, "
        f"reached level 29: {s['reached_level_29']}, maxed out (999,999): {s['maxed_out']}"
    )


def bench(args: argparse.Namespace, out=sys.stdout, err=sys.stderr) -> list[dict[str, Any]]:
    """Runs the benchmark; prints games in order as they complete and the summary."""
    import ray

    options = {
        "level": args.level,
        "game_type": 0 if args.type == "A" else 1,
        "height": args.height,
        "music": args.music,
        "input": args.input,
        "das": not args.no_das,
        "reaction": args.reaction,
        "max_lines": args.max_lines,
        "max_frames": args.max_frames,
    }
    # Bad options fail here, before any task is sent.
    _playfield.EnvCore.nes_placement(
        level=args.level, game_type=options["game_type"], height=args.height, music=args.music,
        input=args.input, das=options["das"], reaction=args.reaction,
    )
    started_here = False
    if not ray.is_initialized():
        init: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR"}
        if args.address:
            init["address"] = args.address
        elif args.num_cpus:
            init["num_cpus"] = args.num_cpus
        ray.init(**init)
        started_here = True
    try:
        remote = ray.remote(max_retries=args.max_retries, retry_exceptions=False)(_play)
        seeds = [_playfield.nes_game_seed(args.seed, i) for i in range(args.games)]
        pending: dict[Any, int] = {}
        attempts = [0] * args.games

        def submit(i: int) -> None:
            attempts[i] += 1
            pending[remote.remote(i, seeds[i], options)] = i

        for i in range(args.games):
            submit(i)
        results: dict[int, dict[str, Any]] = {}
        printed = 0
        t0 = time.monotonic()
        show_progress = err is not None and not args.quiet
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=5.0)
            for ref in done:
                i = pending.pop(ref)
                try:
                    index, r = ray.get(ref)
                except (ray.exceptions.WorkerCrashedError, ray.exceptions.RayTaskError,
                        ray.exceptions.NodeDiedError, ray.exceptions.ObjectLostError) as e:
                    if attempts[i] > args.max_retries:
                        raise RuntimeError(
                            f"game {i + 1} failed {attempts[i]} times; last error: {e}"
                        ) from e
                    if show_progress:
                        print(f"game {i + 1}: worker lost ({type(e).__name__}), retrying", file=err)
                    submit(i)
                    continue
                if index in results:
                    continue  # a duplicate attempt: each game is counted once
                results[index] = r
            while printed in results:
                print(game_line(printed, results[printed], args.json), file=out, flush=True)
                printed += 1
            if show_progress:
                rate = len(results) / max(time.monotonic() - t0, 1e-9)
                print(f"\r{len(results)}/{args.games} games  {rate:.2f} games/s", end="",
                      file=err, flush=True)
        if show_progress:
            print(file=err)
        ordered = [results[i] for i in range(args.games)]
        line = summary_line(summarize(ordered), args.json)
        if line is not None:
            print(line, file=out, flush=True)
        bad = [r for r in ordered if not r["clean"]]
        if bad:
            raise RuntimeError(f"a game did not finish cleanly: {end_text(json.loads(bad[0]['end']))}")
        return ordered
    finally:
        if started_here:
            ray.shutdown()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m playfield.distributed", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bench", help="NES AI benchmark games (Birken's player) as Ray tasks")
    b.add_argument("--level", type=int, default=18, help="start level 0-19")
    b.add_argument("--type", choices=["A", "B"], default="A", help="game type")
    b.add_argument("--height", type=int, default=0, help="B-type start height 0-5")
    b.add_argument("--music", type=int, default=3, help="music 0-3 (3 = off)")
    b.add_argument("--seed", type=int, default=0, help="run seed (per-game seeds as the CLI's)")
    b.add_argument("--games", type=int, default=1, help="number of games")
    b.add_argument("--input", default="X.", help="input timeline (X, X., X..., ...)")
    b.add_argument("--reaction", type=int, default=18, help="frames before the preview is seen")
    b.add_argument("--no-das", action="store_true", help="taps only")
    b.add_argument("--max-lines", type=int, default=None, help="stop a game at this many lines")
    b.add_argument("--max-frames", type=int, default=None, help="stop a game at this many frames")
    b.add_argument("--json", action="store_true", help="one JSON object per game, then a summary")
    b.add_argument("--address", default=None, help="Ray cluster address (default: start locally)")
    b.add_argument("--num-cpus", type=int, default=None, help="CPUs of the embedded local Ray")
    b.add_argument("--max-retries", type=int, default=3, help="attempts per game after a crash")
    b.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        bench(args)
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    # Run through the installed module so Ray ships `_play` by reference, not from `__main__`.
    from playfield.distributed import main as _main

    sys.exit(_main())
