"""The engine binding: stepping, typed state, save/restore, pickle, .fm2, RAM, players."""

import pickle
import re

import numpy as np
import pytest

from playfield import nes
from playfield.nes import Nes, Player


def to_play(n: Nes) -> None:
    """Presses Start through the legal and title screens and the menus until play begins."""
    for _ in range(5000):
        if n.game_mode == 4 and n.controllable:
            return
        n.step(nes.START if n.frame % 2 == 0 else 0)
    raise AssertionError("never reached play")


def test_power_on_and_step_many_equals_step():
    a, b = Nes(), Nes()
    rng = np.random.default_rng(1)
    buttons = rng.integers(0, 256, size=3000).astype(np.uint8)
    buttons &= ~np.uint8(nes.SELECT)
    a.step_many(buttons)
    for x in buttons:
        b.step(int(x))
    assert a.frame == b.frame == 3000
    assert a.ram() == b.ram()


def test_bad_buttons_are_python_errors():
    n = Nes()
    with pytest.raises(TypeError, match="one-dimensional numpy array of uint8"):
        n.step_many(np.zeros((3, 2), dtype=np.uint8))
    with pytest.raises(TypeError):
        n.step_many(np.zeros(4, dtype=np.float64))
    with pytest.raises(TypeError):
        n.step_many([1, 2, 3])
    for bad in (256, -1, 2**64, 2**200):
        with pytest.raises(ValueError, match="buttons must be 0-255"):
            n.step(bad)
    with pytest.raises(TypeError, match="buttons must be an int"):
        n.step(1.5)
    with pytest.raises(TypeError, match="buttons must be an int"):
        n.step(True)
    assert n.frame == 0


def test_typed_state_in_play():
    n = Nes()
    to_play(n)
    assert n.game_mode == 4
    piece, orientation, x, y = n.piece
    assert 0 <= piece < 7 and (x, y) == (5, 0)
    assert n.next_piece in range(7)
    assert (n.score, n.lines, n.level) == (0, 0, 0)
    board = n.board()
    assert board.shape == (20, 10) and board.dtype == np.uint8 and board.sum() == 0
    assert len(n.ram()) == 2048
    assert n.state_vector().shape == (14,)


def test_save_restore_and_pickle():
    n = Nes()
    to_play(n)
    saved = n.save()
    ram = n.ram()
    n.step_many(np.full(200, nes.DOWN, dtype=np.uint8))
    assert n.ram() != ram
    n.restore(saved)
    assert n.ram() == ram and n.frame == saved.frame
    copy = pickle.loads(pickle.dumps(n))
    assert copy.ram() == n.ram() and copy.frame == n.frame
    copy.step(nes.LEFT)
    n.step(nes.LEFT)
    assert copy.ram() == n.ram()


def test_from_ram_round_trip():
    n = Nes()
    to_play(n)
    m = Nes.from_ram(n.ram())
    for b in [0, nes.LEFT, 0, nes.A, 0, nes.DOWN] * 20:
        n.step(b)
        m.step(b)
    assert m.ram() == n.ram()
    with pytest.raises(ValueError, match="2048"):
        Nes.from_ram(b"short")


def test_fm2_round_trip(tmp_path):
    n = Nes()
    to_play(n)
    n.step_many(np.array([nes.LEFT, 0, nes.A, 0] * 30, dtype=np.uint8))
    text = n.to_fm2()
    assert text.startswith("version 3")
    movie = Nes.from_fm2(text, text=True)
    assert movie.frame == n.frame and movie.ram() == n.ram()
    path = tmp_path / "game.fm2"
    path.write_text(text)
    assert Nes.from_fm2(str(path)).ram() == n.ram()
    with pytest.raises(ValueError, match="bad .fm2 movie"):
        Nes.from_fm2("not a movie", text=True)
    with pytest.raises(ValueError, match="cannot read"):
        Nes.from_fm2("/nonexistent/movie.fm2")


def test_player_best_plays_its_inputs_to_the_planned_lock():
    n = Nes()
    to_play(n)
    while n.state_vector()[11] < -2:  # wait out the opening delay as the AI does
        n.step(0)
    p = Player.birken(input="X.", reaction=0)
    d = p.best(n)
    assert d is not None and len(d.inputs) == d.frames
    for b in d.inputs:
        n.step(int(b))
    _, orientation, x, y = n.piece
    assert (x, y, orientation) == (d.x, d.y, d.orientation)
    assert not n.controllable
    with pytest.raises(ValueError, match="under control"):
        p.best(n)
    with pytest.raises(ValueError, match="timeline"):
        Player.birken(input="Q")
    with pytest.raises(ValueError, match="unknown weight"):
        Player(weights={"nope": 1.0})


def test_one_player_per_thread_decides_as_one_thread_does():
    # docs/python.md: an object is used by one thread at a time; threads each with their own
    # player (and engine copy) run side by side and decide exactly as a single thread does.
    import threading

    import gymnasium as gym

    import playfield  # noqa: F401  (registers the environments)

    env = gym.make("playfield/NesTetris-v0", level=18).unwrapped
    env.reset(seed=5)
    engine, frame = env.nes(), env.decision_frame
    alone = Player.score().best(engine.copy(), frame).action
    results, errors = [], []

    def decide():
        try:
            player = Player.score()
            results.append(player.best(engine.copy(), frame).action)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=decide) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == [alone] * 3


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_weights_must_be_finite(value):
    with pytest.raises(ValueError, match="weights\\[\"column_holes\"\\] must be a finite number"):
        Player(weights={"column_holes": value})
    assert Player(weights={"column_holes": -1.5}).name == "custom"


def _in_play() -> Nes:
    n = Nes(rom="")
    to_play(n)
    return n


@pytest.mark.parametrize("call, error, message", [
    (lambda: Player.score(reaction=-1), ValueError, "reaction must be 0-10000, got -1"),
    (lambda: Player.score(reaction=2**64), ValueError,
     f"reaction must be 0-10000, got {2**64}"),
    (lambda: Player.score(reaction=1.5), TypeError, "reaction must be an int, got float 1.5"),
    (lambda: Player.score(das=1), TypeError, "das must be True or False, got int 1"),
    (lambda: Player.by_name("birken", soft_drop=0), TypeError,
     "soft_drop must be True or False, got int 0"),
    (lambda: Player(lookahead=3), ValueError, "lookahead must be 1-2, got 3"),
    (lambda: Player(lookahead=256), ValueError, "lookahead must be 1-2, got 256"),
    (lambda: Nes(pal=1), TypeError, "pal must be True or False, got int 1"),
    (lambda: Nes.from_ram(bytes(2048), pal="yes"), TypeError,
     "pal must be True or False, got str 'yes'"),
    (lambda: nes.level_colors(300), ValueError, "level must be 0-255, got 300"),
    (lambda: nes.level_colors(-1), ValueError, "level must be 0-255, got -1"),
    (lambda: Player.score().best(_in_play(), frame=-1), ValueError,
     "frame must be 0-4294967295, got -1"),
    (lambda: Player.score().best(_in_play(), line_cap=-1), ValueError,
     "line_cap must be 0-4294967295, got -1"),
    (lambda: Player.score().best(_in_play(), line_cap="10"), TypeError,
     "line_cap must be an int or None, got str '10'"),
    (lambda: nes.nes_game_seed(-1, 0), ValueError,
     "run_seed must be 0-18446744073709551615, got -1"),
    (lambda: nes.nes_game_seed(0, 2**32), ValueError,
     "index must be 0-4294967295, got 4294967296"),
    (lambda: nes.play_nes_game(-1), ValueError, "seed must be 0-18446744073709551615, got -1"),
    (lambda: nes.play_nes_game(0, level=300), ValueError, "level must be 0-19, got 300"),
    (lambda: nes.play_nes_game(0, max_lines=-1), ValueError,
     "max_lines must be 1-4294967295, got -1"),
])
def test_bad_arguments_name_the_argument_and_its_range(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()


def test_numpy_ints_and_bools_are_arguments_too():
    p = Player.score(das=np.bool_(False), reaction=np.int64(4))
    assert "das=false, reaction=4)" in repr(p)
    assert nes.level_colors(np.uint8(7)) == nes.level_colors(7)
    assert nes.nes_game_seed(np.uint64(2**64 - 1), 0) == nes.nes_game_seed(2**64 - 1, 0)
