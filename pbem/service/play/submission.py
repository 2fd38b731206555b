"""A submission of orders as read and answered: each line
(:class:`LineResult`) and the whole (:class:`SubmitResult`), with the
answer written in a reader's language. Every sentence is an English
:class:`~pbem.engine.messages.Msg`, never formatted into a plain ``str``
here: :meth:`SubmitResult.message_in`, :meth:`LineResult.error_in`,
:meth:`SubmitResult.summary` ``(lang)`` or :func:`pbem.i18n.translate` give
it in a language.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.messages import Msg
from pbem.i18n import translate
from pbem.service.core.echo import order_in
from pbem.service.play import held as holding


@dataclass
class LineResult:
    """One line as read: ``order`` is its canonical form when it was
    accepted; ``error`` why it was refused (every line past the end of the
    seat's turn carries one: not read), a :class:`Msg` (or ``str``) in
    English: :meth:`error_in` gives it in a language; ``checked`` False for
    lines after a refused one (not looked at); ``held`` True for a line kept
    for a later decision (``order`` its canonical text, or ``cancel held``)."""

    text: str
    order: str | None = None
    error: Msg | str | None = None
    checked: bool = True
    #: kept for a later decision of the seat (:mod:`pbem.service.play.held`), not applied now
    held: bool = False

    def error_in(self, lang: str) -> str | None:
        """:attr:`error` in ``lang`` (``None`` when the line was not refused)."""
        return None if self.error is None else translate(self.error, lang)


@dataclass
class SubmitResult:
    """What happened to a submission.

    ``status``: ``"stored"`` (accepted, waiting for others or for the worker),
    ``"refused"`` (nothing kept), ``"stale"`` (made on an older step; nothing
    kept). ``ready``: every order the state waits for is in, so resolution has
    been started. ``resolved``: the turn was resolved with these orders, in
    the same transaction (``step`` is then the new step). ``legal``: orders
    legal now for the seat (on refusal), in the command language (the last
    may be a ``Msg`` "... and 12 more"). ``message``: the answer, a
    :class:`Msg` in English (:meth:`message_in` for another language).
    """

    status: str
    game_id: int
    seat_index: int
    step: int
    lines: list[LineResult] = field(default_factory=list)
    message: Msg | str = ""
    legal: list[str] = field(default_factory=list)
    ready: bool = False
    resolved: bool = False
    waiting_for: list[int] = field(default_factory=list)
    #: the turn resolved and the seat still owes a decision of the running
    #: game (Medina's second piece, a demolition after a famine); ``owes``:
    #: the engine's ``decision["owes"]`` of the seat's view then, if any
    goes_on: bool = False
    owes: Msg | str | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "stored"

    @property
    def orders(self) -> list[str]:
        return [line.order for line in self.lines if line.order]

    @property
    def applied(self) -> list[str]:
        """The accepted lines for the decision due now (not the held ones)."""
        return [line.order for line in self.lines if line.order and not line.held]

    @property
    def held(self) -> list[str]:
        """The lines kept for later decisions (without ``cancel held``)."""
        return [line.order for line in self.lines if line.held and line.order and line.order != holding.CANCEL]

    @property
    def holds(self) -> bool:
        """The submission replaces the seat's held orders (it holds lines or
        says ``cancel held``)."""
        return any(line.held for line in self.lines)

    def message_in(self, lang: str) -> str:
        """:attr:`message` in ``lang``."""
        return translate(self.message, lang)

    def reason(self) -> Msg | str:
        """The refusal in one sentence: :attr:`message`, then why the
        refused line was refused (a ``Msg`` when both are)."""
        failed = next((line.error for line in self.lines if line.error), None)
        return self.message if failed is None else Msg("{message} {why}", message=self.message,
                                                        why=failed)

    def summary(self, lang: str = "en") -> str:
        """Plain text for a page or a confirmation email, in ``lang``: each
        line read, what became of it, and (on refusal) what is legal now."""
        def tr(m) -> str:
            return translate(m, lang)

        def said(order) -> str:   # an order in the reader's words (pbem.service.core.echo)
            return order_in(order, lang)

        out = [tr(self.message), ""]
        for line in self.lines:
            if line.error:
                out.append(f"> {line.text}\n  " + tr(Msg("REFUSED: {why}", why=line.error)))
            elif line.held and self.status != "stored":
                out.append(f"> {line.text}\n  " + tr(Msg("not kept (the message was refused)")))
            elif line.held:
                out.append(f"> {line.text}\n  " + tr(Msg("held orders dropped") if line.order == holding.CANCEL
                                                     else Msg("held for a later decision: {order}",
                                                              order=said(line.order))))
            elif line.order is not None:
                out.append(f"> {line.text}\n  " + tr(Msg("accepted as: {order}", order=said(line.order))))
            elif not line.checked:
                out.append(f"> {line.text}\n  " + tr(Msg("not applied (an earlier line was refused)")))
        if self.legal:
            out += ["", tr(Msg("Legal orders now:"))] + [f"  {said(o)}" for o in self.legal]
        return "\n".join(out).strip() + "\n"


def split_lines(text: str) -> list[str]:
    """The order lines of a submission: stripped, blank lines and ``#``
    comments dropped."""
    lines = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


