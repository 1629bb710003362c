"""AI benchmark games and weight tuning as Ray tasks: ``python -m playfield.distributed bench ...``
and ``python -m playfield.distributed tune --resume run.json ...``.

``tune`` continues a run of ``playfield nes tune`` from its checkpoint (start one with the command
line: ``playfield nes tune --segments positions.json ... --generations 1 --checkpoint run.json``),
with each generation's work, every player on every game or segment, spread over Ray workers. The
generations are planned and concluded by the same library as the command line's, and each value
is the same library call on the same seed, so the run is the one the command line would make: the
checkpoint it writes is the command line's, and either can resume a run the other began. The
position file must be at the path the checkpoint names on every node.

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
import tempfile
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


def _start_ray(args: argparse.Namespace) -> bool:
    """Starts Ray (joins ``--address``, else an embedded one) unless it runs; whether it did."""
    import ray

    if ray.is_initialized():
        return False
    init: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR"}
    if args.address:
        init["address"] = args.address
    elif args.num_cpus:
        init["num_cpus"] = args.num_cpus
    ray.init(**init)
    return True


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
        "player": args.player,
    }
    # Bad options fail here, before any task is sent.
    _playfield.EnvCore.nes_placement(
        level=args.level, game_type=options["game_type"], height=args.height, music=args.music,
        input=args.input, das=options["das"], reaction=args.reaction,
    )
    names = [name for name, _ in _playfield.PLAYERS]
    if args.player not in names:
        raise ValueError(f"--player {args.player!r}: known players are {', '.join(names)}")
    started_here = _start_ray(args)
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


#: The runs each worker process has opened, by the text of the checkpoint that opened them.
_RUNS: dict[str, Any] = {}


def _evaluate(setup_text: str, cwd: str, weights: str, generation: int, task: int) -> float:
    run = _RUNS.get(setup_text)
    if run is None:
        # The checkpoint may name its position file relative to the driver's directory.
        if os.path.isdir(cwd):
            os.chdir(cwd)
        run = _playfield.TuneRun(setup_text)
        _RUNS[setup_text] = run
    return run.evaluate(weights, generation, task)


def _write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".playfield-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def generation_line(g: dict[str, Any]) -> str:
    """A generation as ``playfield nes tune`` prints it (the record's floats are exact text)."""
    best, samples, mean, start, sigma = (
        float(g[k]) for k in ("best_fitness", "samples_fitness", "mean_fitness", "start_fitness",
                              "sigma")
    )
    return (
        f"generation {g['generation']}: best sample {best:.0f}, samples {samples:.0f}, mean "
        f"{mean:.0f}, start {start:.0f} (mean - start {mean - start:+.0f}), sigma {sigma:.3f}"
    )


def tune(args: argparse.Namespace, out=sys.stdout, err=sys.stderr,
         argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Continues a tuning run from its checkpoint for ``args.generations`` generations; writes the
    checkpoint (and ``--out``) after each. Returns the generations' records."""
    import ray

    try:
        with open(args.resume) as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"--resume {args.resume}: {e.strerror}") from e
    run = _playfield.TuneRun(text, what=f"--resume {args.resume}")
    words = sys.argv[1:] if argv is None else argv
    run.add_command(" ".join(["python -m playfield.distributed"] + list(words)))
    checkpoint_path = args.checkpoint or args.resume
    for option, path in (("--checkpoint", checkpoint_path), ("--out", args.out)):
        if path and not os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
            raise ValueError(f"{option} {path}: its directory cannot be written")
    started_here = _start_ray(args)
    records = []
    try:
        remote = ray.remote(max_retries=args.max_retries, retry_exceptions=False)(_evaluate)
        # Every worker opens the run once from the starting checkpoint: a value depends only on
        # the run's settings, the generation and the task.
        setup_ref = ray.put(text)
        cwd = os.getcwd()
        for _ in range(args.generations):
            plan = run.plan()
            players, tasks, generation = plan["players"], plan["tasks"], plan["generation"]
            pairs = [(p, t) for p in range(len(players)) for t in tasks]
            values: list[float | None] = [None] * len(pairs)
            attempts = [0] * len(pairs)
            pending: dict[Any, int] = {}

            def submit(i: int) -> None:
                attempts[i] += 1
                p, t = pairs[i]
                pending[remote.remote(setup_ref, cwd, players[p], generation, t)] = i

            for i in range(len(pairs)):
                submit(i)
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1, timeout=5.0)
                for ref in done:
                    i = pending.pop(ref)
                    try:
                        values[i] = ray.get(ref)
                    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                            ray.exceptions.ObjectLostError) as e:
                        if attempts[i] > args.max_retries:
                            raise RuntimeError(
                                f"generation {generation}: a value failed {attempts[i]} times; "
                                f"last error: {e}"
                            ) from e
                        submit(i)
                    except ray.exceptions.RayTaskError as e:
                        # The run itself refused (a position file missing on a node, ...).
                        raise RuntimeError(f"generation {generation}: {e.cause}") from e
            record = json.loads(run.conclude([float(v) for v in values]))
            records.append(record)
            print(generation_line(record), file=out, flush=True)
            _write_atomically(checkpoint_path, run.checkpoint_json())
            if args.out:
                _write_atomically(args.out, run.weights_json())
        print(f"{run.generation} generations, checkpoint {checkpoint_path}"
              + (f", weights {args.out}" if args.out else ""), file=out, flush=True)
        return records
    finally:
        if started_here:
            ray.shutdown()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m playfield.distributed", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bench", help="NES AI benchmark games as Ray tasks")
    b.add_argument("--player", default="score",
                   help="the AI: score (the default, as the command line's) or birken")
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
    t = sub.add_parser("tune", help="continue a `playfield nes tune` run with its work on Ray")
    t.add_argument("--resume", required=True,
                   help="the run's checkpoint (start one with `playfield nes tune --checkpoint`)")
    t.add_argument("--generations", type=int, default=1, help="generations to run, at least 1")
    t.add_argument("--checkpoint", default=None,
                   help="where to write the checkpoint (default: back to --resume)")
    t.add_argument("--out", default=None, help="where to write the mean weights")
    t.add_argument("--address", default=None, help="Ray cluster address (default: start locally)")
    t.add_argument("--num-cpus", type=int, default=None, help="CPUs of the embedded local Ray")
    t.add_argument("--max-retries", type=int, default=3, help="attempts per value after a crash")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "tune":
        if args.generations < 1:
            print("error: --generations must be at least 1", file=sys.stderr)
            return 2
        try:
            tune(args, argv=argv)
        except (ValueError, RuntimeError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        return 0
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
