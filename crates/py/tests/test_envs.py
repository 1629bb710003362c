"""The Gymnasium environments: checker, determinism, pickle, masks, errors."""

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import playfield  # noqa: F401  (registers the environments)
from playfield.envs import NES_STATE_FIELDS, NesTetrisEnv
from playfield.nes import Player

IDS = ["playfield/NesTetris-v0", "playfield/NesTetrisFrames-v0", "playfield/StandardTetris-v0"]
STATE = {name: i for i, name in enumerate(NES_STATE_FIELDS)}


def masked_random_action(obs, rng):
    if "action_mask" in obs:
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))
    return int(rng.integers(0, 256))


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_with_illegal_actions_raising(env_id):
    # The checker steps random actions of the whole space: with illegal_action="raise" the
    # masked environments raise on them, so it runs on the frame environment only; the
    # defaults are checked in test_rl.
    if not env_id.endswith("Frames-v0"):
        with pytest.raises(ValueError, match="not allowed"):
            env = gym.make(env_id, illegal_action="raise")
            check_env(env.unwrapped)
        return
    check_env(gym.make(env_id, illegal_action="raise").unwrapped)


def play(env, seed, steps, action_seed=0):
    rng = np.random.default_rng(action_seed)
    obs, _ = env.reset(seed=seed)
    trace = [obs]
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(masked_random_action(obs, rng))
        trace.append((obs, reward, terminated, truncated))
        if terminated or truncated:
            obs, _ = env.reset()
            trace.append(obs)
    return trace


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


@pytest.mark.parametrize("env_id", IDS)
def test_episodes_are_deterministic_for_a_seed(env_id):
    steps = 400 if "Frames" in env_id else 40
    a = play(gym.make(env_id), 7, steps)
    b = play(gym.make(env_id), 7, steps)
    assert same(a, b)
    c = play(gym.make(env_id), 8, steps)
    assert not same(a, c)


@pytest.mark.parametrize("env_id", IDS)
def test_pickle_resumes_the_same_episode(env_id):
    env = gym.make(env_id)
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=11)
    for _ in range(10):
        obs, *_ = env.step(masked_random_action(obs, rng))
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(10):
        action = masked_random_action(obs, rng)
        o1, r1, te1, tr1, _ = env.step(action)
        o2, r2, te2, tr2, _ = copy.step(action)
        assert same(o1, o2) and (r1, te1, tr1) == (r2, te2, tr2)
        obs = o1
        if te1 or tr1:
            break


def test_placement_info_and_buttons_reach_the_placement():
    env = NesTetrisEnv(level=18, input="X.", info_placements=True)
    obs, info = env.reset(seed=5)
    placements = info["placements"]
    mask = obs["action_mask"]
    assert mask.sum() == len(placements) > 0
    assert np.array_equal(np.sort(placements[:, 0]), np.flatnonzero(mask))
    assert np.array_equal(env.action_masks(), mask.astype(bool))
    assert info["buttons"].shape[0] == len(placements)
    assert (info["buttons_length"] == placements[:, 4]).all()
    # Playing a placement's buttons on a copy of the engine locks the piece there.
    action, x, y, orientation, frames = placements[len(placements) // 2]
    nes = env.nes()
    for b in env.buttons(action):
        nes.step(int(b))
    _, o, px, py = nes.piece
    assert (px, py, o) == (x, y, orientation)


def test_bad_input_raises_python_errors():
    env = NesTetrisEnv(illegal_action="raise")
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not allowed"):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(10**6)
    with pytest.raises(TypeError):
        env.step("left")
    with pytest.raises(TypeError):
        env.step(np.zeros(3, dtype=np.int64))
    # Nothing was played: the same legal action still works.
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        gym.make("playfield/NesTetris-v0", colour=3)
    with pytest.raises(ValueError, match="level must be 0-19"):
        gym.make("playfield/NesTetris-v0", level=25)
    with pytest.raises(ValueError, match="timeline"):
        gym.make("playfield/NesTetris-v0", input="Y")
    with pytest.raises(ValueError, match="reward"):
        gym.make("playfield/NesTetrisFrames-v0", reward="fun")
    with pytest.raises(ValueError, match="model"):
        gym.make("playfield/StandardTetris-v0", model="sideways")
    with pytest.raises(ValueError, match="'music' is an option of the constructor"):
        env.reset(options={"music": 3})


def test_reaction_hides_the_preview_at_the_decision():
    for reaction, hidden in [(18, True), (0, False)]:
        env = NesTetrisEnv(reaction=reaction)
        obs, _ = env.reset(seed=2)
        # The first piece is decided after the opening delay, when the preview is known.
        assert obs["state"][STATE["next"]] in range(7)
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert (obs["state"][STATE["next"]] == 7) == hidden


def test_birken_plays_the_placement_env():
    env = NesTetrisEnv(level=19, max_lines=6)
    player = Player.birken(input="X.", reaction=0)
    obs, _ = env.reset(seed=4)
    total = 0.0
    for _ in range(200):
        d = player.best(env.nes())
        assert obs["action_mask"][d.action] == 1
        obs, reward, terminated, truncated, _ = env.step(d.action)
        total += reward
        if terminated or truncated:
            break
    assert truncated and obs["state"][STATE["lines"]] >= 6
    assert total == obs["state"][STATE["score"]] > 0


def test_frames_env_steps_one_frame():
    env = gym.make("playfield/NesTetrisFrames-v0", level=0)
    obs, _ = env.reset(seed=0)
    y = obs["state"][STATE["y"]]
    frame = env.unwrapped.nes().frame
    # The opening delay (96 frames) holds the piece; then Down drops it a row every other frame.
    for _ in range(110):
        obs, *_ = env.step(playfield.nes.DOWN)
    assert env.unwrapped.nes().frame == frame + 110
    assert obs["state"][STATE["y"]] > y


def test_standard_player_plays_the_standard_env():
    env = gym.make("playfield/StandardTetris-v0", max_lines=50)
    player = playfield.standard.Player("dellacherie")
    obs, _ = env.reset(seed=1)
    lines = 0.0
    for _ in range(10_000):
        action = player.best(obs["board"], int(obs["state"][0]))[0]
        obs, reward, terminated, truncated, _ = env.step(action)
        lines += reward
        if terminated or truncated:
            break
    assert truncated and lines >= 50


def test_restore_refuses_a_save_of_another_kind_of_environment():
    nes = gym.make("playfield/NesTetris-v0").unwrapped
    standard = gym.make("playfield/StandardTetris-v0").unwrapped
    nes.reset(seed=0)
    standard.reset(seed=0)
    before = nes.save()
    with pytest.raises(ValueError, match="save\\(\\) of a NesTetrisEnv.*StandardTetrisEnv"):
        nes.restore(standard.save())
    features = gym.make("playfield/NesTetris-v0", observation="features").unwrapped
    features.reset(seed=0)
    with pytest.raises(ValueError, match="observation='board'.*observation='features'"):
        nes.restore(features.save())
    tall = gym.make("playfield/StandardTetris-v0", height=24).unwrapped
    tall.reset(seed=0)
    with pytest.raises(ValueError, match="20-row board.*24-row board"):
        standard.restore(tall.save())
    for bad in (None, (1, 2, 3, 4), "save"):
        with pytest.raises(ValueError, match="restore\\(\\) takes what save\\(\\)"):
            nes.restore(bad)
    # Refused saves leave the environment as it was, and its own save still restores.
    assert same(nes.save().core.observe(), before.core.observe())
    nes.restore(before)
    assert nes.observation_space.contains(nes._observation())


def test_reaction_hides_the_preview_except_after_the_opening_delay():
    next_field = STATE["next"]
    env = NesTetrisEnv(level=18, reaction=20)
    obs, _ = env.reset(seed=0)
    # The first decision comes after the opening delay, longer than the reaction time.
    assert env.decision_frame >= 20
    assert obs["state"][next_field] != 7
    for _ in range(3):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not (terminated or truncated)
        assert env.decision_frame == 0 and obs["state"][next_field] == 7
    longer = NesTetrisEnv(level=18, reaction=1000)
    obs, _ = longer.reset(seed=0)
    assert obs["state"][next_field] == 7


@pytest.mark.parametrize("env_id, option, bound", [
    ("playfield/NesTetris-v0", "max_lines", "1-4294967295"),
    ("playfield/NesTetris-v0", "max_frames", "1-18446744073709551615"),
    ("playfield/NesTetrisFrames-v0", "max_lines", "1-4294967295"),
    ("playfield/StandardTetris-v0", "max_lines", "1-18446744073709551615"),
])
def test_huge_caps_are_refused_naming_the_option(env_id, option, bound):
    with pytest.raises(ValueError, match=f"{option} must be {bound}, got {2**64 + 1}"):
        gym.make(env_id, **{option: 2**64 + 1})


@pytest.mark.parametrize("env_id", IDS)
def test_huge_actions_are_outside_the_action_space(env_id):
    env = gym.make(env_id, illegal_action="raise").unwrapped if "Frames" not in env_id else (
        gym.make(env_id).unwrapped)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action 18446744073709551616 is outside the action"):
        env.step(2**64)
    if "Frames" not in env_id:
        # By default an action outside the mask ends the episode, however large.
        ending = gym.make(env_id).unwrapped
        ending.reset(seed=0)
        _, _, terminated, _, info = ending.step(2**64)
        assert terminated and info["illegal_action"]
