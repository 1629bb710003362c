"""playfield/StandardTetris-v0: end rules, board heights and their pictures."""

import gymnasium as gym
import numpy as np
import pytest

import playfield  # noqa: F401  (registers the environments)
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
