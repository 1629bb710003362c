"""playfield/StandardTetris-v0: end rules, board heights and their pictures."""

import gymnasium as gym
import numpy as np
import pytest

import playfield  # noqa: F401  (registers the environments)
from playfield import render
from playfield.envs import StandardTetrisEnv


def first_allowed(obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize("end_rule", ["spawn-blocked", "no-placement"])
def test_episode_ends_exactly_when_the_mask_empties(end_rule):
    # Stacking every piece at the first allowed placement tops out within a few dozen pieces:
    # the episode must end on the step whose mask is empty, never leave an empty mask open.
    env = StandardTetrisEnv(end_rule=end_rule, model="simplified", illegal_action="raise")
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        for _ in range(500):
            obs, _, terminated, truncated, _ = env.step(first_allowed(obs))
            if terminated or truncated:
                break
            assert obs["action_mask"].any(), "an empty mask while the episode goes on"
        assert terminated and not truncated
        assert not obs["action_mask"].any()


def test_no_placement_plays_on_after_the_spawn_position_is_blocked():
    # The no-placement rule lets the game go on with pieces the spawn-blocked rule would end on:
    # its episodes are at least as long, and longer for some seed.
    lengths = {}
    for end_rule in ("spawn-blocked", "no-placement"):
        env = StandardTetrisEnv(end_rule=end_rule, model="simplified", illegal_action="raise")
        lengths[end_rule] = []
        for seed in range(4):
            obs, _ = env.reset(seed=seed)
            steps, done = 0, False
            while not done:
                obs, _, terminated, truncated, _ = env.step(first_allowed(obs))
                steps += 1
                done = terminated or truncated
            lengths[end_rule].append(steps)
    assert all(n >= b for n, b in zip(lengths["no-placement"], lengths["spawn-blocked"]))
    assert lengths["no-placement"] != lengths["spawn-blocked"]


def test_no_placement_with_the_standard_model_is_refused():
    with pytest.raises(ValueError, match="end_rule.*model='simplified'"):
        gym.make("playfield/StandardTetris-v0", end_rule="no-placement")
    with pytest.raises(ValueError, match="end_rule.*model='simplified'"):
        gym.make("playfield/StandardTetris-v0", end_rule="no-placement", model="standard")


@pytest.mark.parametrize("height", [4, 20, 24, 25, 32])
def test_a_block_in_the_bottom_row_shows_in_the_picture(height):
    env = StandardTetrisEnv(height=height, model="simplified", render_mode="rgb_array")
    obs, _ = env.reset(seed=0)
    empty = env.render()
    obs, *_ = env.step(first_allowed(obs))
    assert obs["board"][-1].any()
    picture = env.render()
    assert picture.shape == empty.shape == (render.HEIGHT, render.WIDTH, 3)
    # The placed piece is the only change: the bottom row's band of the field must show it.
    tile = render.field_tile(height)
    bottom = render.FIELD_Y + (height - 1) * tile
    assert bottom + tile <= render.HEIGHT
    changed = np.flatnonzero((picture != empty).any(axis=(1, 2)))
    assert ((changed >= bottom) & (changed < bottom + tile)).any()


@pytest.mark.parametrize("height", [3, 33, 100])
def test_heights_outside_4_to_32_are_refused_naming_height(height):
    with pytest.raises(ValueError, match="height must be 4-32"):
        gym.make("playfield/StandardTetris-v0", height=height)


def test_heights_4_and_32_are_accepted():
    for height in (4, 32):
        obs, _ = StandardTetrisEnv(height=height).reset(seed=0)
        assert obs["board"].shape == (height, 10)


@pytest.mark.parametrize("lookahead, error, message", [
    (0, ValueError, "lookahead must be 1-2, got 0"),
    (300, ValueError, "lookahead must be 1-2, got 300"),
    (2.0, TypeError, "lookahead must be an int, got float 2.0"),
])
def test_player_lookahead_is_named_with_its_range(lookahead, error, message):
    from playfield.standard import Player

    with pytest.raises(error, match=f"^{message}"):
        Player(lookahead=lookahead)
