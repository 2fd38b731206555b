"""La Città orders (one :class:`Order` class for every form of the command
language; ``to_text`` is the canonical text, see docs/rules/lacitta.md).

Fields: ``verb`` says the form; ``site`` the targeted site (``None`` when
none); ``what`` a building kind or wish; ``n`` a count; ``extra`` further
parts (hospital notable colours, the 'from' castle, demolished sites,
``(city, n)`` pairs of a famine).
"""
from __future__ import annotations

from operator import itemgetter

from pbem.engine.api import Action


class Order(tuple, Action):
    """An order: a tuple ``(verb, site, what, n, extra)`` (fast to build,
    hash and compare — legal_actions makes many)."""

    __slots__ = ()

    def __new__(cls, verb: str, site: str | None = None, what: str = "", n: int = 0,
                extra: tuple = ()) -> "Order":
        return tuple.__new__(cls, (verb, site, what, n, extra))

    verb = property(itemgetter(0))
    site = property(itemgetter(1))        # type: ignore[assignment]
    what = property(itemgetter(2))
    n = property(itemgetter(3))
    extra = property(itemgetter(4))

    def key(self) -> tuple:
        return tuple(self)

    # equality and hash are the tuple's (C speed); an Order equals only an
    # Order or the same plain tuple.

    def __repr__(self) -> str:
        return f"Order({self.to_text()!r})"

    def __setattr__(self, name, value):
        raise AttributeError("Order is immutable")

    def __reduce__(self):
        return (Order, tuple(self))

    def to_text(self) -> str:
        return _text(self)


def _text(o: Order) -> str:
    v = o.verb
    if v == "castle":
        return f"castle {o.site}"
    if v == "gold":
        return "gold"
    if v == "build":
        return f"build {o.what} {o.site}"
    if v == "found":
        return f"found {o.site}" + (f" from {o.extra[0]}" if o.extra else "")
    if v == "card":
        return f"{o.what} {o.site}"
    if v == "master":
        return f"master builder {o.what} {o.site}"
    if v == "bread":
        return f"bread and games {o.site} x{o.n}" + "".join(f" {c}" for c in o.extra)
    if v == "golden":
        return f"golden age {o.site} x{o.n}"
    if v == "harvest":
        return f"rich harvest {o.site}"
    if v == "citizens":
        return f"citizens {o.n}"
    if v == "pass":
        return "pass"
    if v == "wish":
        return f"wish {o.site} {o.what}"
    if v == "demolish":
        return "demolish " + " ".join(o.extra)
    if v == "starve":
        return "starve " + ", ".join(f"{c} {n}" for c, n in o.extra)
    raise ValueError(v)


def demolish(*sites: str) -> Order:
    return Order("demolish", sites[0] if len(sites) == 1 else None, extra=tuple(sites))


def starve(*parts: tuple[str, int]) -> Order:
    return Order("starve", parts[0][0] if len(parts) == 1 else None, extra=tuple(parts))
