"""The engine API shared by every game.

Shape (after OpenSpiel and python-chess): a :class:`Game` holds what never
changes (seat counts, components, the command language); a :class:`State`
holds one position and the seeded random generator, so a game replays exactly
from ``(seed, options, action log)``.

Seats are ``int`` indices ``0 .. seats-1`` in clockwise order ("left" is the
next seat). Players see them numbered from 1 ("seat 1" is index 0).

Nothing here does I/O or imports from the web, database or mail layers.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

from pbem.engine.messages import Msg


class OrderError(Exception):
    """An order a player wrote was refused; ``str(err)`` is for the player.

    ``message`` is a :class:`~pbem.engine.messages.Msg` (English, with its
    template for translation: ``pbem.i18n.translate(err.message, lang)``).

    ``text`` is the order as read; ``legal`` is a short list of orders that
    are legal now (to quote back in the refusal).
    """

    def __init__(self, message: str, *, text: str = "", legal: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.text = text
        self.legal = list(legal)


class OrderParseError(OrderError):
    """The text is not an order of this game's command language."""


class IllegalOrderError(OrderError):
    """The text parses, but the order is not legal in this state now."""


class NotYourTurnError(IllegalOrderError):
    """The seat owes no decision now."""


@dataclass(frozen=True)
class Event:
    """Something that happened, with one line for the game log.

    ``text`` is a :class:`~pbem.engine.messages.Msg` (its English text;
    the service keeps the template: ``pbem.i18n.stored_event_data``).

    ``seat`` is ``None`` for a public event, else the only seat that may see
    it (private events: a card looked at with Bürgernähe, a piece count
    behind a screen). ``kind`` is a short machine tag (``"build"``,
    ``"migration"``); ``data`` is JSON-serialisable detail.
    """

    text: str
    seat: int | None = None
    kind: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, seat: int | None) -> bool:
        """True when ``seat`` (``None`` = spectator) may see this event."""
        return self.seat is None or self.seat == seat

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "seat": self.seat, "kind": self.kind, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Event":
        return cls(d["text"], d.get("seat"), d.get("kind", ""), dict(d.get("data") or {}))


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


@dataclass(frozen=True)
class Score:
    """Final standing of one seat: ``points`` then ``tiebreak`` (La Città:
    gold) decide; ``rank`` is 1 for the winner(s), shared on a full tie."""

    seat: int
    points: int
    tiebreak: int
    rank: int
    detail: dict[str, int] = field(default_factory=dict)


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


class Game(ABC):
    """A registered game kind: what never changes, and the command language.

    A game declares its facts as class attributes, read by the service, the
    web pages and the board pictures, which never name a game:

    - ``name`` (registry key, ``"lacitta"``), ``title`` (``"La Città"``);
    - ``min_seats`` .. ``max_seats``: the seat counts it is played with;
    - ``options``: option name -> allowed values, the first being the default
      (``{"setup": ("beginner", "experienced")}``; ``{}`` for none). Values are
      text, so a form or an email can carry them;
    - ``option_words``: each option name and value as players read it, a
      :class:`~pbem.engine.messages.Msg` the pages translate
      (``{"setup": Msg("set-up"), "beginner": Msg("beginner's game")}``);
      a word missing from it is shown as it is (:meth:`option_word`);
    - ``board``: the dotted name of the module drawing its board picture
      (``"pbem.boards.lacitta"``; see :mod:`pbem.boards`), or ``None`` when the
      text view is all there is. A name only: the engine imports nothing of it;
    - ``previewable``: see below.

    :meth:`check_settings` validates new-game settings against these facts;
    :meth:`redeal_hidden` declares what the game hides (the conformance test,
    ``tests/engine/test_conformance.py``, holds every view to it);
    :meth:`load_position` / :meth:`dump_position` read and write the game's
    position text. How to add a game: ``docs/architecture.md``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    option_words: ClassVar[Mapping[str, Any]] = {}
    board: ClassVar[str | None] = None
    #: True when applying a seat's own orders reveals nothing that seat does
    #: not already know (no dice, draws or hidden cards): the order page may
    #: then show the position after the first orders of a turn, before they
    #: are sent, and offer the next decision (Medina). False (the default)
    #: keeps a dry run from being a free peek at a draw.
    previewable: ClassVar[bool] = False

    def option_word(self, word: str) -> Any:
        """An option's name or value as players read it: its entry in
        :attr:`option_words` (a ``Msg``), else ``word`` itself."""
        return self.option_words.get(word, word)

    def default_options(self) -> dict[str, str]:
        """Every option at its default (the first allowed value)."""
        return {name: allowed[0] for name, allowed in self.options.items()}

    def check_settings(self, seats: int, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """Validate the settings of a new game: ``seats`` players and the
        chosen ``options`` (a subset of :attr:`options`). Returns every option,
        defaults filled in (``{"setup": "beginner"}``).

        Raises ``ValueError`` with a sentence for the host (a ``Msg``): a seat count
        outside ``min_seats..max_seats``, an unknown option (naming the known
        ones) or a value not allowed (naming the allowed ones).
        """
        if isinstance(seats, bool) or not isinstance(seats, int) \
                or not self.min_seats <= seats <= self.max_seats:
            span = (f"{self.min_seats}" if self.min_seats == self.max_seats
                    else f"{self.min_seats}-{self.max_seats}")
            raise ValueError(Msg("{game} is for {span} seats, not {seats}.", game=self.title, span=span,
                                 seats=repr(seats)))
        chosen = dict(options or {})
        unknown = sorted(set(chosen) - set(self.options))
        if unknown:
            known = ", ".join(self.options) if self.options else Msg("none")
            raise ValueError(Msg("{game} has no option {option} (its options: {known}).",
                                 game=self.title, option=repr(unknown[0]), known=known))
        settings = self.default_options()
        for option, value in chosen.items():
            allowed = self.options[option]
            if value not in allowed:
                raise ValueError(Msg("The {game} option {option} must be one of {allowed}, not "
                                     "{value}.", game=self.title, option=option,
                                     allowed=", ".join(allowed), value=repr(value)))
            settings[option] = value
        return settings

    @abstractmethod
    def redeal_hidden(self, state: "State", seat: int | None, rng: random.Random) -> "State":
        """What this game hides from ``seat`` (``None``: a spectator), declared
        by example: a new state that differs from ``state`` only in things
        ``seat`` may not see, dealt again at random with ``rng`` (La Città:
        the deck orders, the Voice cards it has not looked at, the random
        generator; Medina: the other seats' pieces behind their screens).
        ``state`` is not changed.

        The contract: ``state.view(seat)`` equals the variant's view, and
        ``seat``'s legal orders are the same in both. A variant need not be a
        position reachable in play, only one :meth:`State.to_json` and
        :meth:`state_from_json` carry; it must differ from ``state`` whenever
        anything is hidden from ``seat`` (the conformance test wants the
        spectator's variant to differ at least once in a game).
        """

    def load_position(self, text: str) -> "State":
        """A position from the game's position text (``<game>/position.py``:
        one fact per line, ``#`` comments), for scenario tests and for
        setting up a position by hand. Raises ``ValueError`` naming the line
        it cannot read. Every game provides it (the conformance test checks)."""
        raise NotImplementedError(f"{self.title} has no position text (Game.load_position)")

    def dump_position(self, state: "State") -> str:
        """``state`` as position text. :meth:`load_position` of it gives a
        state in the same phase with the same legal orders and scores for
        every seat, which writes back the same text (the conformance test
        checks this; La Città's text also keeps every view)."""
        raise NotImplementedError(f"{self.title} has no position text (Game.dump_position)")

    def hold_order(self, text: str) -> str | None:
        """Whether order line ``text`` may be held for a later decision of
        its seat (the service keeps such lines and applies them when that
        decision comes due: Die Stadt's ``wall cw guard``, design 6.4 "early
        orders"). Returns the line's canonical text, or ``None`` when it is
        not holdable (the default: a game holds nothing).

        Judged on the text alone, never on a state: whether a held line is
        taken must not depend on anything hidden (undrawn tiles), nor on a
        position the seat has not seen. A holdable line means the same in
        every position its decision can come up in; :meth:`parse_held_action`
        on the state where it comes due reads it (raising :class:`OrderError`
        when it has become impossible: the service then drops it and tells
        the seat)."""
        return None

    def parse_held_action(self, state: State, seat: int, text: str) -> Action:
        """Read a held line (as :meth:`hold_order` returned it) on the state
        where it is due. A game may read it more leniently than a line sent
        for that decision, since the seat wrote it without seeing the
        position (Die Stadt: a guard barred by then is left out); the action
        returned must read back from its ``to_text`` with
        :meth:`parse_action`, so the game replays. Default: :meth:`parse_action`."""
        return self.parse_action(state, seat, text)

    def held_text(self, text: str, lang: str = "en") -> str:
        """A held line ``text`` (as :meth:`hold_order` returned it: canonical,
        English, with no action until it comes due) in language ``lang``'s
        words, for the pages and mails that show it (Die Stadt: ``wall cw
        guard`` in ``fi`` -> ``muuri myötä vartija``). Default: ``text``.
        Never raises for an unknown language."""
        return text

    def held_order_due(self, state: State, seat: int, text: str) -> bool:
        """Whether the held line ``text`` (as :meth:`hold_order` returned it)
        answers the decision ``seat`` owes now in ``state`` (Die Stadt: a
        ``wall`` line when the seat is to build a wall piece). ``False``
        leaves it held for a later decision. Default: never."""
        return False

    @abstractmethod
    def new_state(self, seats: int, seed: int, **options: Any) -> State:
        """A new game after setup. Raises ``ValueError`` for a bad seat count
        or option: begin with ``options = self.check_settings(seats, options)``."""

    @abstractmethod
    def parse_action(self, state: State, seat: int, text: str) -> Action:
        """Read one order line (case-insensitive). Raises
        :class:`OrderParseError` when it does not parse and
        :class:`IllegalOrderError` when it is not legal now."""

    @abstractmethod
    def state_from_json(self, text: str) -> State: ...

    @abstractmethod
    def view_text(self, view: dict[str, Any], tr: Callable[[Any], str] = str) -> str:
        """Plain-text rendering of a :meth:`State.view` (for emails and the
        order page): the seat's private information, then the public state.
        Each sentence is a :class:`~pbem.engine.messages.Msg` put through
        ``tr``: ``str`` gives English; the service passes
        ``lambda m: pbem.i18n.translate(m, lang)`` for the reader's language."""

    @abstractmethod
    def order_help(self) -> str:
        """The command language with examples, plain text (a
        :class:`~pbem.engine.messages.Msg`: ``pbem.i18n.translate`` gives
        the reader's language)."""

    def order_words(self) -> frozenset[str]:
        """Every word of the command language in every language, folded
        (:func:`pbem.engine.fold.fold`; ``{"build", "farm", "rakenna",
        "statek", ...}``), fillers (``please``, ``bitte``) and numbers left
        out: the mail reader tells a chatty line ("Thanks for the game!")
        from an order that failed by them (:mod:`pbem.mail.reading`). The
        default, no words, makes every line an order."""
        return frozenset()

    def order_text(self, action: Action, lang: str = "en") -> str:
        """``action`` as an order line in language ``lang`` (``"fi"``,
        ``"cs"``, ...: the words a player of that language writes, which
        :meth:`parse_action` reads back as the same order). A game with no
        words for ``lang`` writes English: the default is
        :meth:`Action.to_text`. Never raises for an unknown language."""
        return action.to_text()
