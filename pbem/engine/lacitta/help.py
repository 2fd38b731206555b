"""La Città's order help ("how to write orders"), with every order and
order word in the reader's language.

The help is one :class:`Msg` (a catalog translates its prose as a whole,
keeping its two columns). Each example order in it is a parameter written
from an :class:`Order` by :func:`pbem.engine.lacitta.words.order_text` in
every language (:func:`pbem.engine.messages.said`), and each list of order
words (the small buildings, the wishes) from the language's words table;
so a Finnish reader sees ``rakenna maatila F6`` where an English one sees
``build farm F6``, and both read back as the same order. A translation pads
the examples to its own column (``{castle:<33}``): the widest example of
the language decides it (tests/engine/test_help_words.py).
"""
from __future__ import annotations

from pbem.engine.fold import LANGUAGES
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order, demolish, starve
from pbem.engine.lacitta.words import WORDS, first, order_text
from pbem.engine.messages import Msg, said_by

EXAMPLES: dict[str, Order] = {
    "castle": Order("castle", "F6"), "gold": Order("gold"), "build": Order("build", "F6", "farm"),
    "found": Order("found", "F6"), "found_from": Order("found", "F6", extra=("E3",)),
    "palazzo": Order("card", "F6", "palazzo"), "hospital": Order("card", "F6", "hospital"),
    "bathhouse": Order("card", "F6", "bathhouse"), "dom": Order("card", "F6", "dom"),
    "university": Order("card", "F6", "university"), "master": Order("master", "F6", "dom"),
    "bread": Order("bread", "F6", n=2), "bread_arches": Order("bread", "F6", n=2, extra=("education", "health")),
    "golden": Order("golden", "E3", n=3), "harvest": Order("harvest", "F6"),
    "citizens": Order("citizens", n=2), "citizens3": Order("citizens", n=3), "pass": Order("pass"),
    "wish": Order("wish", "E3", "culture"), "demolish": demolish("F6", "G6"),
    "starve": starve(("E3", 2), ("J9", 1)),
    "ex_build": Order("build", "D6", "market"), "ex_dom": Order("card", "F6", "dom"),
    "ex_golden": Order("golden", "E3", n=2), "ex_found": Order("found", "J9", extra=("E3",)),
}
"""Every order the help shows, by the name of its place in the help."""

def _say(name: str):
    return said_by(lambda lang: order_text(EXAMPLES[name], lang), LANGUAGES)


def _params() -> dict:
    p = {name: _say(name) for name in EXAMPLES if not name.startswith("ex_")}
    c2, c3 = p.pop("citizens"), p.pop("citizens3")
    p["citizens_2_3"] = said_by(lambda lang: f"{c2.params[lang]} / {c3.params[lang]}", LANGUAGES)
    p["small"] = said_by(lambda lang: ", ".join(first(WORDS[lang].buildings, k) for k in D.SMALL), LANGUAGES)
    p["wishes"] = said_by(lambda lang: ", ".join(first(WORDS[lang].wishes, k)
                                                 for k in ("culture", "education", "health")), LANGUAGES)
    p["examples"] = said_by(lambda lang: "   |   ".join(
        order_text(EXAMPLES[k], lang) for k in ("ex_build", "ex_dom", "ex_golden", "ex_found")), LANGUAGES)
    return p


ORDER_HELP = Msg("""\
La Città orders — one per line, upper or lower case.

Setup (experienced game)
  {castle:<29}  place a castle (at least 3 free sites from every other castle)

Action cards (3 a year)
  {gold:<29}  take 2 gold
  {build:<29}  a small building, free: {small}
                                 (German: Bauernhof, Steinbruch, Markt, Statue,
                                 Klosterschule, Brunnen)
  {found:<29}  a new city: castle at F6, one spare citizen from one of your castles
  {found_from:<29}  ... naming the castle that gives the citizen, when several could

Political cards (from the display of 7)
  {palazzo}    {hospital}    {bathhouse}    {dom}    {university}
                                 build that building (1, 1, 1, 3, 3 gold; Badhaus, Universität)
  {master:<29}  Großer Baumeister: any building, small 1 / medium 2 / large 4 gold
  {bread:<29}  Brot und Spiele: 1, 2 or 3 notables on the building at F6
                                 (0, 2 or 5 gold); on a hospital say each notable's arch:
  {bread_arches}
  {golden:<29}  Goldene Zeiten: 1, 2 or 3 citizens (0, 2 or 5 gold) into the
                                 city whose castle is at E3 (any site of the city works)
  {harvest:<29}  Reiche Ernte: double the farm at F6 this year (not in year 6)
  {citizens_2_3:<29}  Bürgernähe: look at 2 (free) or all 3 (2 gold) hidden Voice cards
  {pass:<29}  only when nothing else is legal (then the engine plays it
                                 for you): the top political card face down, no effect

End of the year (asked only when there is a real choice)
  {wish:<29}  two-wish year: the wish your city at E3 uses ({wishes};
                                 Kultur, Bildung, Gesundheit)
  {demolish:<29}  buildings without citizens that go (from the edge)
  {starve:<29}  famine: how many citizens leave which city

Examples:  {examples}
Sites are the coordinates printed on the board picture (column letter, row number).
""", **_params())
"""The order help: one message; its orders and order words are parameters
in every language (see the module)."""
