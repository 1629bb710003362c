"""The native vector environment against N single environments."""

import os
import select
import signal

import numpy as np
import pytest

import gymnasium as gym
import playfield  # noqa: F401
from playfield.envs import NesTetrisEnv, NesTetrisFramesEnv, StandardTetrisEnv
from playfield.vector import (
    NesTetrisFramesVectorEnv,
    NesTetrisVectorEnv,
    StandardTetrisVectorEnv,
)

CASES = [
    (NesTetrisVectorEnv, NesTetrisEnv, {"level": 19}, 30),
    (NesTetrisFramesVectorEnv, NesTetrisFramesEnv, {"level": 19}, 1500),
    (StandardTetrisVectorEnv, StandardTetrisEnv, {"height": 8}, 120),
]


@pytest.mark.parametrize("vector_cls,single_cls,options,steps", CASES)
def test_vector_equals_single_envs(vector_cls, single_cls, options, steps):
    n = 4
    vec = vector_cls(num_envs=n, num_threads=2, **options)
    singles = [single_cls(**options) for _ in range(n)]
    obs, _ = vec.reset(seed=100)
    single_obs = [env.reset(seed=100 + i)[0] for i, env in enumerate(singles)]
    rng = np.random.default_rng(0)
    pending_reset = [False] * n
    episodes_ended = 0
    for _ in range(steps):
        for i in range(n):
            for k in obs:
                assert np.array_equal(obs[k][i], single_obs[i][k]), (i, k)
        actions = np.zeros(n, dtype=np.int64)
        for i in range(n):
            if pending_reset[i]:
                actions[i] = 0  # ignored: this step resets the sub-environment
            elif "action_mask" in obs:
                actions[i] = rng.choice(np.flatnonzero(obs["action_mask"][i]))
            else:
                actions[i] = rng.integers(0, 256)
        obs, reward, terminated, truncated, _ = vec.step(actions)
        for i, env in enumerate(singles):
            if pending_reset[i]:
                single_obs[i], _ = env.reset()
                r, te, tr = 0.0, False, False
            else:
                single_obs[i], r, te, tr, _ = env.step(int(actions[i]))
            assert (reward[i], terminated[i], truncated[i]) == (r, te, tr), i
            pending_reset[i] = te or tr
            episodes_ended += te or tr
    assert episodes_ended > 0, "the run should cover autoreset"


def test_vector_env_api_and_errors():
    vec = gym.make_vec(
        "playfield/NesTetris-v0", num_envs=3, vectorization_mode="vector_entry_point",
        illegal_action="raise",
    )
    assert isinstance(vec.unwrapped, NesTetrisVectorEnv)
    obs, _ = vec.reset(seed=1)
    assert obs["board"].shape == (3, 20, 10) and obs["action_mask"].shape == (3, 3800)
    assert vec.observation_space.contains(obs)
    with pytest.raises(ValueError, match="shape"):
        vec.step(np.zeros(2, dtype=np.int64))
    bad = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    bad[1] = np.flatnonzero(obs["action_mask"][1] == 0)[0]
    with pytest.raises(ValueError, match="sub-environment 1"):
        vec.step(bad)
    with pytest.raises(TypeError):
        vec.step(np.zeros(3, dtype=np.float32))
    good = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    vec.step(good)
    vec.close()


def test_thread_counts_give_the_same_games():
    results = []
    for threads in (1, 2):
        vec = NesTetrisFramesVectorEnv(num_envs=6, num_threads=threads, level=18)
        assert vec.num_threads == threads
        vec.reset(seed=9)
        rng = np.random.default_rng(1)
        total = np.zeros(6)
        for _ in range(3000):
            obs, r, *_ = vec.step(rng.integers(0, 256, size=6))
            total += r
        results.append((obs["board"].copy(), obs["state"].copy(), total))
    assert all(np.array_equal(a, b) for a, b in zip(*results))


def test_frame_vector_threads_more_than_games_and_bad_actions():
    """More threads than games (some threads get no game), and actions outside a buttons byte
    refused before any game moves."""
    results = []
    for threads in (1, 4):
        vec = NesTetrisFramesVectorEnv(num_envs=3, num_threads=threads, level=18)
        assert vec.num_threads == threads
        vec.reset(seed=5)
        rng = np.random.default_rng(2)
        total = np.zeros(3)
        ended = 0
        for step in range(2000):
            actions = rng.integers(0, 256, size=3)
            if step % 100 == 0:
                with pytest.raises(ValueError, match="sub-environment 2"):
                    vec.step(np.array([0, 255, 256]))
                with pytest.raises(ValueError, match="sub-environment 0"):
                    vec.step(np.array([-1, 0, 0]))
            obs, r, te, tr, _ = vec.step(actions)
            total += r
            ended += int(te.sum() + tr.sum())
        results.append((obs["board"].copy(), obs["state"].copy(), total, ended))
        vec.close()
    # The refused steps changed nothing: the games are those a single environment plays.
    singles = [NesTetrisFramesEnv(level=18) for _ in range(3)]
    single_obs = [env.reset(seed=5 + i)[0] for i, env in enumerate(singles)]
    rng = np.random.default_rng(2)
    pending = [False] * 3
    for step in range(2000):
        actions = rng.integers(0, 256, size=3)
        for i, env in enumerate(singles):
            if pending[i]:
                single_obs[i], _ = env.reset()
                pending[i] = False
            else:
                single_obs[i], _, te, tr, _ = env.step(int(actions[i]))
                pending[i] = te or tr
    (b1, s1, t1, e1), (b4, s4, t4, e4) = results
    assert np.array_equal(b1, b4) and np.array_equal(s1, s4) and np.array_equal(t1, t4)
    assert e1 == e4 and e1 > 0
    for i in range(3):
        assert np.array_equal(b1[i], single_obs[i]["board"])
        assert np.array_equal(s1[i], single_obs[i]["state"])


def test_frame_vector_step_before_reset_and_seeds():
    vec = NesTetrisFramesVectorEnv(num_envs=2, num_threads=2, level=18)
    with pytest.raises(RuntimeError):
        vec.step(np.zeros(2, dtype=np.int64))
    vec.reset(seed=11)
    assert vec.seeds() == [11, 12]


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_step_frames_equals_steps(threads):
    """K frames per call play the same games as K calls of step, autoresets included."""
    n, k, calls = 5, 37, 60
    rng = np.random.default_rng(3)
    actions = rng.integers(0, 256, size=(calls, k, n))
    one = NesTetrisFramesVectorEnv(num_envs=n, num_threads=threads, level=19)
    many = NesTetrisFramesVectorEnv(num_envs=n, num_threads=threads, level=19)
    one.reset(seed=40)
    many.reset(seed=40)
    ended = 0
    for c in range(calls):
        rewards, terms, truncs = [], [], []
        for f in range(k):
            obs1, r, te, tr, _ = one.step(actions[c, f])
            rewards.append(r)
            terms.append(te)
            truncs.append(tr)
        obs2, r2, te2, tr2, _ = many.step_frames(actions[c])
        assert r2.shape == (k, n) and te2.shape == (k, n) and tr2.shape == (k, n)
        assert np.array_equal(np.array(rewards), r2)
        assert np.array_equal(np.array(terms), te2)
        assert np.array_equal(np.array(truncs), tr2)
        for key in obs1:
            assert np.array_equal(obs1[key], obs2[key]), (c, key)
        ended += int(te2.sum() + tr2.sum())
    assert ended > 0, "the run should cover autoreset"
    assert one.seeds() == many.seeds()
    with pytest.raises(ValueError, match="sub-environment 3"):
        many.step_frames(np.array([[0] * n, [0, 0, 0, 256, 0]]))
    with pytest.raises(ValueError, match="shape"):
        many.step_frames(np.zeros((0, n), dtype=np.int64))
    with pytest.raises(ValueError, match="shape"):
        many.step_frames(np.zeros(n, dtype=np.int64))


def test_frame_vector_split_between_threads():
    """Enough games that every thread gets a run of them (a call gives a thread at least 64
    frames): 1, 2 and 3 threads play the same games, step by step."""
    n = 200
    rng = np.random.default_rng(4)
    actions = rng.integers(0, 256, size=(700, n))
    vecs = [NesTetrisFramesVectorEnv(num_envs=n, num_threads=t, level=19) for t in (1, 2, 3)]
    for vec in vecs:
        vec.reset(seed=70)
    ended = 0
    for a in actions:
        out = [vec.step(a) for vec in vecs]
        for obs, r, te, tr, _ in out[1:]:
            assert np.array_equal(obs["board"], out[0][0]["board"])
            assert np.array_equal(obs["state"], out[0][0]["state"])
            assert np.array_equal(r, out[0][1])
            assert np.array_equal(te, out[0][2]) and np.array_equal(tr, out[0][3])
        ended += int(out[0][2].sum())
    assert ended > 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_frame_vector_in_a_forked_child():
    """A child forked after the threads started has none of them: its calls run on the
    calling thread and play the same games."""
    n = 200
    vec = NesTetrisFramesVectorEnv(num_envs=n, num_threads=2, level=19)
    vec.reset(seed=3)
    actions = np.random.default_rng(5).integers(0, 256, size=(50, n))
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: step, send the last state, exit without pytest's teardown
        try:
            for a in actions:
                obs, *_ = vec.step(a)
            os.write(write, obs["state"].tobytes())
        finally:
            os._exit(0)
    os.close(write)
    # A child waiting for threads it does not have would hang: give it a minute.
    ready, _, _ = select.select([read], [], [], 60)
    if not ready:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    assert ready, "the forked child did not finish"
    with os.fdopen(read, "rb") as f:
        child_state = f.read()
    for a in actions:
        obs, *_ = vec.step(a)
    assert child_state == obs["state"].tobytes()


@pytest.mark.parametrize("cls", [NesTetrisVectorEnv, NesTetrisFramesVectorEnv, StandardTetrisVectorEnv])
def test_num_threads_is_bounded(cls):
    for bad in (0, 257, 10**6):
        with pytest.raises(ValueError, match="num_threads must be 1-256"):
            cls(num_envs=2, num_threads=bad)
    assert cls(num_envs=2, num_threads=256).num_threads == 256


def test_num_threads_is_bounded_in_the_rust_classes_too():
    from playfield import _playfield

    placement = _playfield.EnvCore.standard()
    frames = _playfield.EnvCore.nes_frames()
    for core_class, template in ((_playfield.VectorCore, placement),
                                 (_playfield.FrameVectorCore, frames)):
        with pytest.raises(ValueError, match="num_threads must be 1-256, got 1000000"):
            core_class(template, 2, 10**6)


@pytest.mark.parametrize("vector_cls, single_cls, options", [
    (NesTetrisVectorEnv, NesTetrisEnv, {"level": 19}),
    (NesTetrisVectorEnv, NesTetrisEnv, {"level": 19, "observation": "afterstates"}),
    (StandardTetrisVectorEnv, StandardTetrisEnv, {"game_over_reward": -5.0}),
])
def test_an_illegal_action_ends_only_that_sub_environment(vector_cls, single_cls, options):
    vec = vector_cls(num_envs=2, num_threads=1, **options)
    obs, _ = vec.reset(seed=3)
    masks = vec.action_masks()
    legal = int(np.flatnonzero(masks[0])[0])
    illegal = int(np.flatnonzero(~masks[1])[0])
    obs, reward, terminated, truncated, info = vec.step(np.array([legal, illegal]))
    assert terminated.tolist() == [False, True] and not truncated.any()
    assert info["illegal_action"].tolist() == [False, True]
    assert reward[1] == options.get("game_over_reward", 0.0)
    # Sub-environment 0 played as a single environment does; 1 played nothing.
    single = single_cls(**options)
    single.reset(seed=3)
    expected, *_ = single.step(legal)
    assert all(np.array_equal(obs[k][0], expected[k]) for k in expected)
    first, _ = single_cls(**options).reset(seed=4)
    assert all(np.array_equal(obs[k][1], first[k]) for k in first)
    # It restarts on the next step (its action ignored), with its next episode's seed.
    seed_before = vec.seeds()[1]
    next_legal = int(np.flatnonzero(vec.action_masks()[0])[0])
    obs, reward, terminated, truncated, _ = vec.step(np.array([next_legal, 0]))
    assert not terminated[1] and reward[1] == 0.0 and vec.seeds()[1] != seed_before
    vec.close()


def test_illegal_action_raise_and_bad_options():
    vec = NesTetrisVectorEnv(num_envs=2, num_threads=1, illegal_action="raise")
    vec.reset(seed=0)
    illegal = int(np.flatnonzero(~vec.action_masks()[0])[0])
    with pytest.raises(ValueError, match="sub-environment 0.*not allowed"):
        vec.step(np.array([illegal, illegal]))
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        NesTetrisVectorEnv(num_envs=2, illegal_action="ignore")
    with pytest.raises(ValueError, match="info_placements is for the single environment"):
        NesTetrisVectorEnv(num_envs=2, info_placements=True)
    made = gym.make_vec("playfield/NesTetris-v0", 2, vectorization_mode="vector_entry_point",
                        illegal_action="end")
    assert made.unwrapped.illegal_action == "end"
    made.close()


@pytest.mark.parametrize("cls", [NesTetrisVectorEnv, NesTetrisFramesVectorEnv, StandardTetrisVectorEnv])
def test_a_closed_vector_environment_says_so(cls):
    import pickle

    vec = cls(num_envs=2, num_threads=1, render_mode="rgb_array")
    vec.reset(seed=0)
    vec.close()
    calls = [lambda: vec.step(np.zeros(2, dtype=np.int64)), lambda: vec.reset(seed=0),
             vec.render, lambda: pickle.dumps(vec), vec.seeds]
    if cls is NesTetrisFramesVectorEnv:
        calls.append(lambda: vec.step_frames(np.zeros((2, 2), dtype=np.int64)))
    for call in calls:
        with pytest.raises(RuntimeError, match="the environment is closed"):
            call()


HUGE_FORMS = [
    pytest.param(lambda legal: [legal, 2**64], 2**64, id="python-int"),
    pytest.param(lambda legal: np.array([legal, 2**64], dtype=object), 2**64, id="object"),
    pytest.param(lambda legal: [legal, -(2**64)], -(2**64), id="negative"),
    pytest.param(lambda legal: [legal, 2**63], 2**63, id="list-beyond-int64"),
    pytest.param(lambda legal: np.array([legal, 2**64 - 1], dtype=np.uint64), 2**64 - 1,
                 id="uint64"),
]


@pytest.mark.parametrize("form, value", HUGE_FORMS)
@pytest.mark.parametrize("cls, options", [
    (NesTetrisVectorEnv, {"level": 19}),
    (StandardTetrisVectorEnv, {}),
])
def test_huge_actions_are_outside_the_action_space(cls, options, form, value):
    # As in the single environment: by default the episode ends, with "raise" a ValueError.
    vec = cls(num_envs=2, num_threads=1, **options)
    vec.reset(seed=3)
    legal = int(np.flatnonzero(vec.action_masks()[0])[0])
    _, _, terminated, _, info = vec.step(form(legal))
    assert terminated.tolist() == [False, True]
    assert info["illegal_action"].tolist() == [False, True]
    vec.close()
    raising = cls(num_envs=2, num_threads=1, illegal_action="raise", **options)
    raising.reset(seed=3)
    n = raising.single_action_space.n
    with pytest.raises(
        ValueError,
        match=f"^sub-environment 1: action {value} is outside the action space 0..{n}$",
    ):
        raising.step(form(legal))
    # Nothing was played: legal actions go on from the reset.
    legal_1 = int(np.flatnonzero(raising.action_masks()[1])[0])
    _, _, terminated, _, _ = raising.step(np.array([legal, legal_1]))
    assert not terminated.any()
    raising.close()


@pytest.mark.parametrize("form, value", HUGE_FORMS)
def test_huge_slots_end_or_are_refused(form, value):
    vec = NesTetrisVectorEnv(num_envs=2, num_threads=1, observation="afterstates")
    vec.reset(seed=3)
    slot = int(np.flatnonzero(vec.action_masks()[0])[0])
    _, _, terminated, _, info = vec.step(form(slot))
    assert terminated.tolist() == [False, True] and info["illegal_action"].tolist() == [False, True]
    raising = NesTetrisVectorEnv(num_envs=2, num_threads=1, observation="afterstates",
                                 illegal_action="raise")
    raising.reset(seed=3)
    with pytest.raises(ValueError, match=rf"^slots must be 0-189, got \[{slot}, {value}\]$"):
        raising.step(form(slot))


@pytest.mark.parametrize("form, value", HUGE_FORMS)
def test_huge_frame_actions_are_not_buttons_bytes(form, value):
    vec = NesTetrisFramesVectorEnv(num_envs=2, num_threads=1)
    vec.reset(seed=0)
    message = (f"^sub-environment 1: action {value} is outside the action space 0..256 "
               r"\(a buttons byte\)$")
    with pytest.raises(ValueError, match=message):
        vec.step(form(0))
    with pytest.raises(ValueError, match=message):
        vec.step_frames([form(0)])
    with pytest.raises(TypeError, match="actions must be integers, got dtype float64"):
        vec.step([0.5, 1])


@pytest.mark.parametrize("cls, options", [
    (NesTetrisVectorEnv, {"level": 19}),
    (StandardTetrisVectorEnv, {}),
])
def test_the_least_int64_action_is_refused_too(cls, options):
    # Not the mark of a sub-environment an illegal action ended: refused as any other.
    vec = cls(num_envs=2, num_threads=1, illegal_action="raise", **options)
    vec.reset(seed=3)
    legal = int(np.flatnonzero(vec.action_masks()[0])[0])
    with pytest.raises(ValueError, match=f"^sub-environment 1: action {-(2**63)} is outside"):
        vec.step(np.array([legal, -(2**63)]))
