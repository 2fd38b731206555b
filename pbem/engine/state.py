"""One position of one game: :class:`State`, what the service, pages and
mail ask of it (whose turn, legal orders, apply, views, scores, JSON)."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from pbem.engine.action import Action
from pbem.engine.records import Event, Score

if TYPE_CHECKING:
    from pbem.engine.game import Game


class State(ABC):
    """One position of one game. Mutable: :meth:`apply` changes it in place.

    Use :meth:`copy` (or ``to_json``/``state_from_json``) to try an order
    without touching the original.
    """

    game: "Game"

    @property
    @abstractmethod
    def seats(self) -> int:
        """Number of seats (2..5 for La Città)."""

    @property
    @abstractmethod
    def step(self) -> int:
        """How many actions have been applied since setup (0 at the start).
        Orders made on an older step are stale."""

    @abstractmethod
    def current_seats(self) -> list[int]:
        """Seats that owe a decision now, ascending. Several when the rules
        let players decide at once; empty only when the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (empty if it owes nothing), in
        the game's order. A list, or a read-only sequence that behaves like
        one (``len``, index, slice, ``in``, ``==`` with a list; a pickle or
        copy is a list) when a decision has many compound orders and most
        callers read one (Die Stadt's
        :class:`~pbem.engine.diestadt.tile_orders.TileOrders`). Callers must
        not change it."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` of ``seat``; return the events it caused,
        including everything the engine then resolved on its own (choices
        with one legal outcome, end-of-year phases) up to the next decision.

        Raises :class:`NotYourTurnError` or :class:`IllegalOrderError`; on an
        error the state is unchanged.
        """

    @abstractmethod
    def default_action(self, seat: int) -> Action:
        """The documented order applied when ``seat`` misses its deadline
        (a political round: pass). Always accepted by :meth:`apply` for a
        seat in :meth:`current_seats`, even when not in ``legal_actions``."""

    def turn_key(self) -> Any:
        """Which turn the decisions owed now belong to: a hashable,
        JSON-serialisable value that stays equal while one seat makes
        several decisions of one turn (Medina: both pieces; La Città: the
        famine, then the demolition it causes) and changes when a new turn
        begins (a new political round, the next Medina turn even of the
        same seat). The service uses it at a missed deadline: it keeps
        applying :meth:`default_action` while the seat still owes a decision
        and ``turn_key()`` is unchanged. Default: :meth:`phase`, which suits
        games whose phase label names the turn; override when the label
        changes within a turn."""
        return self.phase()

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-serialisable position as ``seat`` (``None``: a spectator) may
        see it: nothing hidden from that seat is in it."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[Score]:
        """Current standing per seat (final once :meth:`is_terminal`)."""

    def score_breakdown(self) -> list[tuple[Any, dict[int, int]]] | None:
        """Where each seat's points come from, as the rules score them: one
        ``(label, {seat: points})`` row per scoring rule, ``label`` a
        message (``Msg("stables")``), each seat's rows summing to its
        :meth:`scores` points; ``None`` (the default) when the game gives
        no breakdown. Mail and pages show it under the final scores."""
        return None

    @abstractmethod
    def phase(self) -> str:
        """Human label of where the game is ("Year 2, political round 3")."""

    @abstractmethod
    def to_json(self) -> str:
        """Complete state, random generator included, as JSON text."""

    def copy(self) -> "State":
        return self.game.state_from_json(self.to_json())
