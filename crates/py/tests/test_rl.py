"""The environments with the standard RL stacks: Gymnasium's checker and vectorisers,
Stable-Baselines3 (make_vec_env, MaskablePPO, the native VecEnv adapter), RecordVideo; options
and seeds; the learning-ready observations; the players."""

import json
import pickle
import subprocess

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import playfield
from playfield.envs import (
    AFTERSTATE_FEATURES,
    FEATURE_NAMES,
    NES_STATE_FIELDS,
    SEED_LIMIT,
    NesTetrisEnv,
)
from playfield.nes import Nes, NesState, Player, nes_game_seed
from playfield.vector import NesTetrisFramesVectorEnv, NesTetrisVectorEnv

IDS = ["playfield/NesTetris-v0", "playfield/NesTetrisFrames-v0", "playfield/StandardTetris-v0"]
STATE = {name: i for i, name in enumerate(NES_STATE_FIELDS)}
# Options that end episodes often, so a short run covers several autoresets.
SHORT = {
    "playfield/NesTetris-v0": {"level": 19},
    "playfield/NesTetrisFrames-v0": {"level": 19, "max_frames": 1500},
    "playfield/StandardTetris-v0": {"height": 6},
}


def random_actions(obs, rng, n):
    if "action_mask" not in obs:
        return rng.integers(0, 256, size=n)
    out = np.zeros(n, dtype=np.int64)
    for i, row in enumerate(obs["action_mask"]):
        allowed = np.flatnonzero(row)
        # An ended sub-environment's mask is empty; its action is ignored (next-step autoreset).
        out[i] = rng.choice(allowed) if len(allowed) else 0
    return out


def one_action(obs, rng):
    """A random allowed action of a single environment."""
    return int(random_actions({k: v[None] for k, v in obs.items()}, rng, 1)[0])


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_with_the_registered_defaults(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("mode", ["sync", "async", "vector_entry_point"])
@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_runs_through_autoresets(env_id, mode):
    vec = gym.make_vec(env_id, 3, vectorization_mode=mode, **SHORT[env_id])
    rng = np.random.default_rng(0)
    obs, info = vec.reset(seed=5)
    assert info["seed"].dtype == np.int64 and list(info["seed"]) == [5, 6, 7]
    ends = resets_seen = 0
    steps = 4000 if "Frames" in env_id else 300
    for _ in range(steps):
        obs, reward, terminated, truncated, info = vec.step(random_actions(obs, rng, 3))
        assert obs in vec.observation_space
        ends += int(np.sum(terminated | truncated))
        if "seed" in info:
            resets_seen += int(info["_seed"].sum())
            assert info["seed"].dtype == np.int64
            assert (info["seed"][info["_seed"]] >= 0).all()
        if ends >= 6:
            break
    assert ends >= 3, f"only {ends} episodes ended"
    if mode == "vector_entry_point":
        # The native vector env gives the seeds at reset (per step: vec.seeds(), as computing
        # them every step would cost the frame vector a third of its speed).
        assert len(vec.unwrapped.seeds()) == 3
    else:
        assert resets_seen >= 2
    vec.close()


def test_seeds_are_int64_and_checked():
    env = gym.make("playfield/NesTetris-v0", level=19)
    env.reset()  # no seed: drawn, then chained
    for _ in range(3):
        seed = env.reset()[1]["seed"]
        assert 0 <= seed < SEED_LIMIT
        assert np.array([seed], dtype=np.int64)[0] == seed
    for bad in (-1, 2**63, 2**64, 2**70):
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=bad)
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed="7")
    vec = NesTetrisVectorEnv(num_envs=2, level=19)
    with pytest.raises(ValueError, match="seed"):
        vec.reset(seed=2**63)
    assert vec.reset(seed=2**63 - 1)[1]["seed"].tolist() == [2**63 - 1, 0]


BAD_OPTIONS = [
    ("playfield/NesTetris-v0", {"level": -1}, ValueError, "level"),
    ("playfield/NesTetris-v0", {"level": 20}, ValueError, "level"),
    ("playfield/NesTetris-v0", {"level": 2.5}, TypeError, "level"),
    ("playfield/NesTetris-v0", {"level": "18"}, TypeError, "level"),
    ("playfield/NesTetris-v0", {"game_type": "C"}, ValueError, "game_type"),
    ("playfield/NesTetris-v0", {"game_type": 0}, TypeError, "game_type"),
    ("playfield/NesTetris-v0", {"height": 3}, ValueError, "height"),
    ("playfield/NesTetris-v0", {"game_type": "B", "height": 6}, ValueError, "height"),
    ("playfield/NesTetris-v0", {"music": 4}, ValueError, "music"),
    ("playfield/NesTetris-v0", {"input": "Y"}, ValueError, "timeline"),
    ("playfield/NesTetris-v0", {"input": 2}, TypeError, "input"),
    ("playfield/NesTetris-v0", {"das": "yes"}, TypeError, "das"),
    ("playfield/NesTetris-v0", {"reaction": -1}, ValueError, "reaction"),
    ("playfield/NesTetris-v0", {"soft_drop": 1}, TypeError, "soft_drop"),
    ("playfield/NesTetris-v0", {"reward": "fun"}, ValueError, "reward"),
    ("playfield/NesTetris-v0", {"max_lines": 0}, ValueError, "max_lines"),
    ("playfield/NesTetris-v0", {"max_frames": -5}, ValueError, "max_frames"),
    ("playfield/NesTetris-v0", {"observation": "pixels"}, ValueError, "observation"),
    ("playfield/NesTetris-v0", {"show_piece": None}, TypeError, "show_piece"),
    ("playfield/NesTetris-v0", {"survival_reward": "1"}, TypeError, "survival_reward"),
    ("playfield/NesTetris-v0", {"game_over_reward": float("nan")}, ValueError, "game_over"),
    ("playfield/NesTetris-v0", {"illegal_action": "ignore"}, ValueError, "illegal_action"),
    ("playfield/NesTetris-v0", {"render_mode": "pixels"}, ValueError, "render_mode"),
    ("playfield/NesTetris-v0", {"colour": 3}, ValueError, "colour"),
    ("playfield/NesTetrisFrames-v0", {"start_select": "no"}, TypeError, "start_select"),
    ("playfield/NesTetrisFrames-v0", {"observation": "afterstates"}, ValueError, "observation"),
    ("playfield/NesTetrisFrames-v0", {"reward": "fun"}, ValueError, "reward"),
    ("playfield/StandardTetris-v0", {"height": 2}, ValueError, "height"),
    ("playfield/StandardTetris-v0", {"level": 0}, ValueError, "level"),
    ("playfield/StandardTetris-v0", {"model": "sideways"}, ValueError, "model"),
    ("playfield/StandardTetris-v0", {"end_rule": "never"}, ValueError, "end_rule"),
    ("playfield/StandardTetris-v0", {"reward": "score_no_pushdown"}, ValueError, "reward"),
]


@pytest.mark.parametrize("env_id,options,error,name", BAD_OPTIONS)
def test_every_bad_option_names_itself(env_id, options, error, name):
    with pytest.raises(error, match=name):
        gym.make(env_id, **options)
    vector_options = {k: v for k, v in options.items() if k not in ("illegal_action",)}
    if "render_mode" not in options and "illegal_action" not in options:
        with pytest.raises(error, match=name):
            gym.make_vec(env_id, 2, vectorization_mode="vector_entry_point", **vector_options)


def test_bad_vector_options_name_themselves():
    with pytest.raises(ValueError, match="num_envs"):
        NesTetrisVectorEnv(num_envs=0)
    with pytest.raises(TypeError, match="num_threads"):
        NesTetrisVectorEnv(num_envs=2, num_threads="2")


def test_reset_options_set_the_episode_level_and_game_type():
    env = gym.make("playfield/NesTetris-v0")
    obs, _ = env.reset(seed=1, options={"level": 12})
    assert obs["state"][STATE["level"]] == 12
    obs, _ = env.reset()  # the episode options stay until changed
    assert obs["state"][STATE["level"]] == 12
    obs, _ = env.reset(options={"game_type": "B", "height": 3})
    assert obs["state"][STATE["level"]] == 12 and env.unwrapped.nes().game_type == 1
    assert obs["board"].sum() > 0  # B-type garbage at height 3
    obs, _ = env.reset(options={"game_type": "A", "level": 18})
    assert obs["state"][STATE["level"]] == 18 and env.unwrapped.nes().game_type == 0
    with pytest.raises(ValueError, match="reward"):
        env.reset(options={"reward": "lines"})
    with pytest.raises(ValueError, match="height"):
        env.reset(options={"height": 3, "game_type": "A"})
    std = gym.make("playfield/StandardTetris-v0")
    assert std.reset(seed=0, options={"level": 7})[0]["state"][2] == 7
    vec = NesTetrisFramesVectorEnv(num_envs=2)
    obs, _ = vec.reset(seed=0, options={"level": 5})
    assert (obs["state"][:, STATE["level"]] == 5).all()


def test_nes_state_equality_and_pickle():
    env = NesTetrisEnv(level=18)
    env.reset(seed=3)
    nes = env.nes()
    a, b = nes.save(), nes.copy().save()
    assert a == b and hash(a) == hash(b)
    nes.step(0)
    c = nes.save()
    assert c != a and c.frame == a.frame + 1
    copy = pickle.loads(pickle.dumps(c))
    assert isinstance(copy, NesState) and copy == c
    fresh = Nes()
    fresh.restore(copy)
    assert fresh.save() == c and fresh.frame == c.frame


def test_env_save_and_restore():
    env = NesTetrisEnv(level=19)
    obs, _ = env.reset(seed=9)
    saved = env.save()
    action = int(np.flatnonzero(obs["action_mask"])[-1])
    first, r1, *_ = env.step(action)
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    env.restore(saved)
    again, r2, *_ = env.step(action)
    assert r1 == r2 and all(np.array_equal(first[k], again[k]) for k in first)


def test_line_point_reward_is_the_score_without_push_down():
    # Without soft drop no push-down points are scored: the two rewards agree step by step
    # (which also checks that a clear's points use the level after its level-up).
    runs = []
    for reward in ("score", "score_no_pushdown"):
        env = NesTetrisEnv(level=9, soft_drop=False, reward=reward, max_lines=40)
        player = Player.birken(soft_drop=False)
        env.reset(seed=2)
        rewards = []
        for _ in range(400):
            _, r, te, tr, _ = env.step(player.best(env.nes(), env.decision_frame).action)
            rewards.append(r)
            if te or tr:
                break
        runs.append(rewards)
    assert runs[0] == runs[1] and sum(runs[0]) > 0
    # With soft drop the line points leave out the push-down points.
    env = NesTetrisEnv(level=9, reward="score_no_pushdown", max_lines=10)
    env.reset(seed=2)
    player = Player.birken()
    total = 0.0
    for _ in range(400):
        _, r, te, tr, _ = env.step(player.best(env.nes(), env.decision_frame).action)
        total += r
        assert r in {0, 40 * 10, 100 * 10, 300 * 10, 1200 * 10, 40 * 11, 100 * 11, 300 * 11, 1200 * 11}
        if te or tr:
            break
    assert 0 < total < env.nes().score


def test_survival_and_game_over_rewards():
    env = NesTetrisEnv(level=19, reward="lines", survival_reward=0.5, game_over_reward=-10.0)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(500):
        obs, r, te, tr, _ = env.step(one_action(obs, rng))
        if te:
            assert r <= -10.0 + 4
            break
        assert r >= 0.5
    assert te


def test_feature_observation():
    env = gym.make("playfield/NesTetris-v0", observation="features", level=19)
    obs, _ = env.reset(seed=4)
    assert set(obs) == {"features", "action_mask"}
    assert obs["features"].shape == (len(FEATURE_NAMES),) and obs["features"].dtype == np.float32
    f = dict(zip(FEATURE_NAMES, obs["features"]))
    state = env.unwrapped._core.observe()[1]
    assert f[f"piece_{state[0]}"] == 1 and f[f"next_{state[4]}"] == 1
    assert f["level"] == pytest.approx(19 / 29)
    check_env(env.unwrapped)


def test_afterstates_describe_the_board_after_each_slot():
    env = gym.make("playfield/NesTetris-v0", observation="afterstates", level=18)
    board_env = gym.make("playfield/NesTetris-v0", level=18)
    obs, _ = env.reset(seed=6)
    board_env.reset(seed=6)
    assert obs["afterstates"].shape == (playfield.envs.AFTERSTATE_SLOTS, len(AFTERSTATE_FEATURES))
    column = {name: i for i, name in enumerate(AFTERSTATE_FEATURES)}
    rng = np.random.default_rng(2)
    for _ in range(30):
        allowed = np.flatnonzero(obs["action_mask"])
        assert len(allowed) > 0 and (obs["afterstates"][obs["action_mask"] == 0] == 0).all()
        slot = int(rng.choice(allowed))
        expected = obs["afterstates"][slot]
        action = env.unwrapped._slot_action(slot)
        obs, _, te, tr, _ = env.step(slot)
        board_obs, _, bte, btr, _ = board_env.step(action)
        assert (te, tr) == (bte, btr)
        if te or tr:
            break
        board = board_obs["board"]
        heights = np.where(board.any(0), 20 - board.argmax(0), 0)
        holes = int((np.maximum.accumulate(board, axis=0) & (board == 0)).sum())
        assert expected[column["max_height"]] == heights.max()
        assert expected[column["holes"]] == holes
        assert expected[column["bumpiness"]] == np.abs(np.diff(heights)).sum()
    check_env(env.unwrapped)


def test_show_piece_and_ansi_draw_the_falling_piece():
    env = gym.make("playfield/NesTetris-v0", show_piece=True, render_mode="ansi")
    obs, _ = env.reset(seed=1)
    assert (obs["board"] == 2).sum() == 4
    assert env.render().count("@") == 4
    frames = gym.make("playfield/NesTetrisFrames-v0", show_piece=True)
    obs, _ = frames.reset(seed=1)
    assert (obs["board"] == 2).sum() == 4


def test_rgb_array_and_record_video(tmp_path):
    pytest.importorskip("moviepy", reason="RecordVideo writes through moviepy (pip install moviepy)")
    env = gym.make("playfield/NesTetris-v0", render_mode="rgb_array", level=19)
    picture = env.reset(seed=0) and env.render()
    assert picture.shape == (240, 256, 3) and picture.dtype == np.uint8
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 4
    env = gym.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, _, te, tr, _ = env.step(one_action(obs, rng))
        if te or tr:
            break
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 1000
    vec = NesTetrisVectorEnv(num_envs=2, render_mode="rgb_array")
    vec.reset(seed=0)
    assert [p.shape for p in vec.render()] == [(240, 256, 3)] * 2


@pytest.mark.parametrize("cls", [NesTetrisVectorEnv, NesTetrisFramesVectorEnv])
def test_native_vector_env_pickles(cls):
    vec = cls(num_envs=3, level=19)
    obs, _ = vec.reset(seed=21)
    copy = pickle.loads(pickle.dumps(vec))
    assert copy.seeds() == vec.seeds() == [21, 22, 23]
    again = copy.observations()
    assert all(np.array_equal(obs[k], again[k]) for k in obs)
    unstarted = pickle.loads(pickle.dumps(cls(num_envs=2)))
    with pytest.raises(RuntimeError, match="reset"):
        unstarted.step(np.zeros(2, dtype=np.int64))


# -- Stable-Baselines3 ----------------------------------------------------------------------------


def _sb3():
    try:
        import sb3_contrib  # noqa: F401
        import stable_baselines3  # noqa: F401
    except ImportError:
        print("SKIP: stable-baselines3 / sb3-contrib are not installed (pip install sb3-contrib)")
        pytest.skip("stable-baselines3 / sb3-contrib are not installed (pip install sb3-contrib)")


def test_sb3_make_vec_env_and_maskable_ppo_learn():
    _sb3()
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    env = make_vec_env("playfield/NesTetris-v0", n_envs=2, seed=0,
                       env_kwargs={"level": 19, "observation": "features"})
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=128, n_epochs=1,
                        seed=0, device="cpu")
    model.learn(2_048)
    assert model.num_timesteps >= 2_048
    assert len(model.ep_info_buffer) > 0  # episodes ended and were counted


def test_sb3_adapter_over_the_native_vector_env():
    _sb3()
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import SubprocVecEnv  # noqa: F401
    from stable_baselines3.common.vec_env.util import obs_space_info  # noqa: F401

    from playfield.sb3 import SB3VecEnv

    env = SB3VecEnv.make("playfield/NesTetris-v0", num_envs=4, level=19, observation="features")
    env.seed(3)
    obs = env.reset()
    assert obs["features"].shape == (4, len(FEATURE_NAMES))
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        masks = env.env_method("action_masks")
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            ended += 1
            final = infos[i]["terminal_observation"]
            assert final["features"].shape == (len(FEATURE_NAMES),)
            assert infos[i]["episode"]["l"] > 0
            assert obs["action_mask"][i].any()  # already the next episode's first decision
        if ended >= 3:
            break
    assert ended >= 3
    copy = pickle.loads(pickle.dumps(env))
    assert copy.venv.seeds() == env.venv.seeds()
    model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=128, n_epochs=1,
                        seed=0, device="cpu")
    model.learn(512)
    assert model.num_timesteps >= 512


# -- players --------------------------------------------------------------------------------------


def test_players_come_from_the_registry():
    names = [name for name, _ in playfield.nes.PLAYERS]
    assert names[0] == "score" and "birken" in names
    assert all(description for _, description in playfield.nes.PLAYERS)
    for name in names:
        assert Player.by_name(name).name == name
    with pytest.raises(ValueError, match="unknown player `fastest`"):
        Player.by_name("fastest")


def test_player_defaults_are_the_envs():
    env_options = playfield.envs.NesOptions()
    for player in (Player.score(), Player.birken()):
        text = repr(player)
        assert f"reaction={env_options.reaction}" in text and 'input="X."' in text


def test_score_player_plays_the_command_lines_game(nes_bench_command):
    # The command line's score player at reaction 0 decides at spawn with the preview known, as
    # the placement environment does: driving the environment with Player.score must play the
    # same game, piece for piece, as `playfield nes bench --player score`.
    game_seed = nes_game_seed(3, 0) % SEED_LIMIT
    max_lines = 12
    out = subprocess.run(
        nes_bench_command + [
            "--player", "score", "--level", "18", "--input", "X.", "--reaction", "0",
            "--game-seed", str(game_seed), "--max-lines", str(max_lines), "--json",
        ],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    cli = json.loads(out[0])
    env = NesTetrisEnv(level=18, input="X.", max_lines=max_lines)
    player = Player.score()
    env.reset(seed=game_seed)
    pieces = 0
    while True:
        d = player.best(env.nes(), env.decision_frame, line_cap=max_lines)
        _, _, te, tr, _ = env.step(d.action)
        pieces += 1
        if te or tr:
            break
    nes = env.nes()
    assert (cli["score"], cli["lines"], cli["pieces"]) == (nes.score, nes.lines, pieces)


def test_sb3_subprocesses_started_by_spawn():
    _sb3()
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    # A spawned process starts afresh: "playfield:" makes gymnasium import the package (which
    # registers the ids) before making the environment.
    env = make_vec_env("playfield:playfield/NesTetris-v0", n_envs=2, seed=1,
                       vec_env_cls=SubprocVecEnv,
                       vec_env_kwargs={"start_method": "spawn"}, env_kwargs={"level": 19})
    obs = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        masks = np.stack(env.env_method("action_masks"))
        obs, _, dones, infos = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ended += int(dones.sum())
        for i in np.flatnonzero(dones):
            assert "terminal_observation" in infos[i] and "episode" in infos[i]
    env.close()
    assert ended >= 1
