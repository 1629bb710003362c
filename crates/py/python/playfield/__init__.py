"""playfield for Python: frame-exact NES Tetris, Fahey's Standard Tetris and their AI players.

- ``playfield.nes``: the engine (:class:`playfield.nes.Nes`) and the AI players.
- ``playfield.standard``: the Standard Tetris players.
- ``playfield.envs``: Gymnasium environments, registered as ``playfield/NesTetris-v0``,
  ``playfield/NesTetrisFrames-v0`` and ``playfield/StandardTetris-v0``.
- ``playfield.vector``: native vector environments (N games stepped in Rust in parallel).
- ``playfield.distributed``: AI benchmark games as Ray tasks (``python -m playfield.distributed``).
- ``playfield.sb3``: Stable-Baselines3's ``VecEnv`` over the native vector environments.
- ``playfield.render``: the pictures of ``render_mode="rgb_array"``.
"""

from importlib.metadata import PackageNotFoundError, version

from . import nes, standard  # noqa: F401

try:
    __version__ = version("playfield")
except PackageNotFoundError:  # pragma: no cover (imported from a source tree)
    __version__ = "0+unknown"

__all__ = ["nes", "standard", "envs", "vector", "render", "__version__"]


def _register() -> None:
    import gymnasium

    specs = [
        ("playfield/NesTetris-v0", "NesTetrisEnv", "NesTetrisVectorEnv"),
        ("playfield/NesTetrisFrames-v0", "NesTetrisFramesEnv", "NesTetrisFramesVectorEnv"),
        ("playfield/StandardTetris-v0", "StandardTetrisEnv", "StandardTetrisVectorEnv"),
    ]
    for env_id, cls, vector_cls in specs:
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=f"playfield.envs:{cls}",
            vector_entry_point=f"playfield.vector:{vector_cls}",
        )


_register()

from . import envs, vector  # noqa: E402,F401
