"""La Città rules engine (issue 2). ``GAME`` is the registered game."""
from __future__ import annotations

try:
    from pbem.engine.lacitta.game import GAME  # noqa: F401
except ModuleNotFoundError as _exc:  # game module still being written: stay unregistered
    if _exc.name != __name__ + ".game":
        raise

    def __getattr__(name: str):
        if name == "GAME":
            raise ModuleNotFoundError("La Città engine not built yet", name=__name__)
        raise AttributeError(name)
