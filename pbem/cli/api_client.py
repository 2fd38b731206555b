"""A client of the public API that plays seats with random legal orders
(``pbem bot --api URL --token T``; issue 28, docs/api.md). It knows the
games only through the API: its games (``/api/v1/games``), the legal
orders of a seat that owes a decision (``.../legal``), and sending one
of them (``.../orders``, with the step it was chosen on and an
``Idempotency-Key``), one decision at a time, so it plays every game the
same way (Medina's second piece is the next decision after the first).

The choice is the random bot's rule (:class:`pbem.bots.RandomBot`: one of
the legal orders, uniformly); the engine bots read an engine state, which
a client of the API never has.
"""
from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Callable, Protocol


class Transport(Protocol):
    def __call__(self, method: str, path: str, headers: dict[str, str], body: dict | None) -> tuple[int, dict]:
        """Send a request; ``(status, JSON answer or {})``."""


def http_transport(base_url: str, timeout: float = 30.0) -> Transport:
    """Requests over HTTP(S) to ``base_url`` (``https://pbem.example``)."""
    base = base_url.rstrip("/")

    def send(method: str, path: str, headers: dict[str, str], body: dict | None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method,
                                     headers={**headers, **({"Content-Type": "application/json"} if data else {})})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw = resp.read()
                return resp.status, json.loads(raw) if raw else {}
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                return err.code, json.loads(raw) if raw else {}
            except ValueError:
                return err.code, {"detail": raw[:200].decode("utf-8", "replace")}

    return send


class ApiError(RuntimeError):
    """An answer the client cannot go on from (a 401, a 5xx...)."""


@dataclass
class ApiBot:
    """Plays every seat its token holds (``game``: in that game only)."""

    send: Transport
    token: str
    game: int | None = None
    rng: random.Random = field(default_factory=random.Random)
    say: Callable[[str], None] = lambda line: None
    decisions: int = 0

    def _call(self, method: str, path: str, body: dict | None = None, ok: tuple[int, ...] = (200,)) -> tuple[int, dict]:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if method == "POST":
            headers["Idempotency-Key"] = uuid.uuid4().hex
        for _attempt in range(5):
            status, answer = self.send(method, path, headers, body)
            if status == 429:   # the token's rate limit: wait as told
                time.sleep(min(60, int(answer.get("retry_after") or 2)))
                continue
            if status in ok:
                return status, answer
            raise ApiError(f"{method} {path}: {status} {answer.get('detail') or answer}")
        raise ApiError(f"{method} {path}: still rate limited")

    def games(self) -> list[dict]:
        games = self._call("GET", "/api/v1/games")[1]["games"]
        return [g for g in games if self.game is None or g["id"] == self.game]

    def play_once(self) -> int:
        """Make every decision owed now by a seat of the token; the number made."""
        made = 0
        for game in self.games():
            for seat in game["to_move"]:
                if seat in game["my_seats"]:
                    made += self.decide(game["id"], seat)
        return made

    def decide(self, game_id: int, seat: int) -> int:
        """One decision of ``seat``: a random legal order; 1 when sent."""
        base = f"/api/v1/games/{game_id}/seats/{seat}"
        legal = self._call("GET", f"{base}/legal")[1]
        if not legal["orders"]:
            return 0
        order = self.rng.choice(legal["orders"])["text"]
        status, answer = self._call("POST", f"{base}/orders", {"orders": order, "step": legal["step"]},
                                    ok=(200, 409))
        if status == 409:   # the game moved on meanwhile: the next round asks again
            return 0
        self.decisions += 1
        self.say(f"game {game_id} seat {seat}: {order} ({answer['message']})")
        return 1

    def run(self, *, poll: float = 10.0, until_over: bool = True, rounds: int | None = None) -> None:
        """Play until every game of the token is over (or ``rounds`` rounds
        without a decision), waiting ``poll`` seconds when nothing is owed."""
        idle = 0
        while True:
            made = self.play_once()
            games = self.games()
            if until_over and games and all(g["status"] in ("finished", "cancelled") for g in games):
                return
            if made:
                idle = 0
                continue
            idle += 1
            if rounds is not None and idle >= rounds:
                return
            time.sleep(poll)
