"""A registered game kind: :class:`Game`, the facts it declares (seats,
options, board), the command language, and the hooks a game may override
(held orders, position text, order text)."""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Mapping

from pbem.engine.action import Action
from pbem.engine.messages import Msg
from pbem.engine.state import State


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
    position text. How to add a game: ``docs/adding-a-game.md``.
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

        The variant depends only on what ``seat`` sees and on ``rng``: two
        states that differ only in what is hidden from ``seat`` give the same
        variant for equally seeded ``rng`` (shuffle a hidden pile in a
        canonical order, not in its present one). The bots rely on it: a
        bot that searches variants sees nothing hidden (``pbem/bots``).
        """

    #: the size of a clear lead in :meth:`evaluate`'s units (points): the
    #: search bots (``pbem/bots``) read a lead of this size as a likely win
    evaluation_scale: ClassVar[float] = 10.0

    def evaluate(self, state: "State") -> list[float]:
        """How good ``state`` looks for each seat, in points: the points now
        plus the expected value of what is still open, one float per seat
        (the game's ``evaluate.py``; used by the bots in ``pbem/bots``, which
        only call it on a state dealt again with :meth:`redeal_hidden`).
        Default: the points of :meth:`State.scores`."""
        return [float(s.points) for s in state.scores()]

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
