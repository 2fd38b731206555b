"""One decision of one seat: :class:`Action`, the order as a player writes
it, with what the order page needs to show and pick it (site, label,
steps, mark)."""
from __future__ import annotations

from abc import ABC, abstractmethod


class Action(ABC):
    """One decision of one seat. Immutable and hashable.

    ``to_text()`` is the order as a player writes it, and
    ``game.parse_action(state, seat, action.to_text()) == action``.
    ``site`` is the board coordinate the order targets (``"F7"``), or
    ``None``; the order page highlights it and a click on it picks the order.
    ``label`` is the order without its site ("build farm"), used to group
    legal orders on the order page. ``steps`` are the choices an order makes
    beyond its label and site, for the order page to ask one at a time.
    """

    site: str | None = None

    @abstractmethod
    def to_text(self) -> str: ...

    @property
    def label(self) -> str:
        text = self.to_text()
        if self.site:
            text = " ".join(w for w in text.split() if w.upper() != self.site.upper())
        return text

    @property
    def steps(self) -> tuple[tuple[str, str], ...]:
        """The order's choices after its label and site, as ``(question,
        answer)`` pairs of player-facing text (``Msg``), for example
        ``(("Turn the tile", "90°"), ("Follower", "merchant at E"))``.

        The order page asks them in this order after a click on a site that
        several legal orders of one label share: each question whose answers
        differ among the orders still possible; a question with one possible
        answer is not asked. Orders of one label and site list the same
        questions. ``()`` (the default): the label and site say all.
        """
        return ()

    @property
    def mark(self) -> str | None:
        """Where on its site the order puts something, as a compass point of
        the site's square (``"N"``, ``"NE"``, ... ``"NW"``), for the order page
        to show while the player chooses (Die Stadt: the follower); ``None``
        (the default): the site as a whole."""
        return None

    def __str__(self) -> str:
        return self.to_text()
