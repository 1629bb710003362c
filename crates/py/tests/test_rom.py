"""The ROM's program for the lag model (``rom=`` or ``$PLAYFIELD_ROM``): checked, kept through
save, restore and pickling, and reported (``lag_modelled``). The tests that need the ROM skip
without it, and fail instead with ``PLAYFIELD_REQUIRE_ROM=1``."""

import os
import pickle

import gymnasium as gym
import pytest

import playfield  # noqa: F401  (registers the environments)
from playfield.nes import EVENT_CRASH, EVENT_LAG, Nes, play_nes_game

ENVS = ["playfield/NesTetris-v0", "playfield/NesTetrisFrames-v0"]


@pytest.fixture
def rom() -> str:
    path = os.environ.get("PLAYFIELD_ROM", "")
    if not path:
        if os.environ.get("PLAYFIELD_REQUIRE_ROM") == "1":
            pytest.fail("PLAYFIELD_REQUIRE_ROM=1 but PLAYFIELD_ROM is not set")
        print("skipped: no ROM (set PLAYFIELD_ROM)")
        pytest.skip("no ROM (set PLAYFIELD_ROM)")
    return path


def test_without_a_rom_lag_is_not_modelled():
    assert not Nes(rom="").lag_modelled()
    for env_id in ENVS:
        _, info = gym.make(env_id, rom="").reset(seed=1)
        assert info["lag_modelled"] is False, env_id


def test_a_wrong_file_is_refused_naming_rom(tmp_path):
    wrong = tmp_path / "not-tetris.nes"
    wrong.write_bytes(b"abc")
    for make in (
        lambda: Nes(rom=str(wrong)),
        lambda: gym.make("playfield/NesTetris-v0", rom=str(wrong)),
        lambda: play_nes_game(1, rom=str(wrong)),
    ):
        with pytest.raises(ValueError, match=r"^rom: .*not Tetris \(USA\)"):
            make()
    with pytest.raises(ValueError, match=r"^rom: cannot read .*missing\.nes"):
        Nes(rom=str(tmp_path / "missing.nes"))


def test_with_the_rom_lag_is_modelled_and_kept_through_pickling(rom):
    nes = Nes(rom=rom)
    assert nes.lag_modelled()
    nes.step_many(bytes(100))
    saved = nes.save()
    again = pickle.loads(pickle.dumps(nes))
    assert again.lag_modelled() and again.save() == saved
    plain = Nes(rom="")
    plain.restore(saved)
    assert plain.lag_modelled(), "the saved engine carries its ROM"
    for env_id in ENVS:
        env = gym.make(env_id, rom=rom)
        _, info = env.reset(seed=1)
        assert info["lag_modelled"] is True, env_id
        assert env.unwrapped.nes().lag_modelled(), env_id
        clone = pickle.loads(pickle.dumps(env.unwrapped))
        assert clone.options.rom == rom
        assert clone.nes().lag_modelled(), env_id
    vec = playfield.vector.NesTetrisVectorEnv(num_envs=2, rom=rom)
    _, info = vec.reset(seed=1)
    assert info["lag_modelled"].tolist() == [True, True]


def _before_a_tetris_at_level_255(rom: str) -> Nes:
    """An engine in play at level 255 with 1,550 lines, a vertical I above a well in column 0
    that clears four rows when it drops: the frame that adds the points lags (the ROM's score
    loop runs 256 times)."""
    env = gym.make("playfield/NesTetrisFrames-v0", level=19, rom=rom)
    env.reset(seed=1)
    ram = bytearray(env.unwrapped.nes().ram())
    for cell in range(200):
        full = cell >= 160 and cell % 10 != 0
        ram[0x400 + cell] = 0x7B if full else 0xEF
    for player in (0x40, 0x60):
        ram[player + 0x00] = 0  # tetriminoX
        ram[player + 0x01] = 2  # tetriminoY
        ram[player + 0x02] = 0x11  # vertical I
        ram[player + 0x04] = 255  # levelNumber
        ram[player + 0x05] = 0  # fallTimer
        ram[player + 0x0E] = 0  # autorepeatY
        ram[player + 0x0F] = 0  # holdDownPoints
        ram[player + 0x10 : player + 0x12] = bytes([0x50, 0x15])  # 1,550 lines (BCD)
        ram[player + 0x13 : player + 0x16] = bytes([0x00, 0x00, 0x50])  # 500,000
    return Nes.from_ram(bytes(ram), rom=rom)


def _lag_and_crash_events(nes: Nes, frames: int) -> int:
    seen = 0
    for _ in range(frames):
        seen |= nes.step(0) & (EVENT_LAG | EVENT_CRASH)
    return seen


def test_a_tetris_at_level_255_lags_only_with_the_rom(rom):
    nes = _before_a_tetris_at_level_255(rom)
    assert nes.lag_modelled()
    assert _lag_and_crash_events(nes, 70) != 0
    plain = Nes.from_ram(_before_a_tetris_at_level_255(rom).ram(), rom="")
    assert not plain.lag_modelled()
    assert _lag_and_crash_events(plain, 70) == 0
    assert plain.lines == 1554, "the Tetris scored as an ordinary frame"
