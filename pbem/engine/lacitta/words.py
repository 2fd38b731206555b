"""The La Città command language's words, one table per language.

Each :class:`Words` maps what a player may write to the English grammar of
:mod:`pbem.engine.lacitta.parse` (``rakenna maatila J6`` = ``build farm J6``).
The first phrase listed for a meaning is the one :func:`order_text` writes;
the others are accepted too. Terms and their sources (the Finnish, Czech and
Catalan rule texts, the German card names) are in ``docs/i18n/<lang>.md``;
words marked *ours* there are ours where a rule text has none. Case and
diacritics do not matter (:mod:`pbem.engine.fold`). Adding a language is
adding a table to :data:`WORDS` (docs/i18n/README.md); the tables may not
give one phrase two meanings (tests/engine/lacitta/test_words.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.fold import LANGUAGES
from pbem.engine.lacitta.actions import Order
from pbem.engine.messages import Msg, said_by


@dataclass(frozen=True)
class Words:
    """One language's words. ``verbs``, ``buildings``, ``cards`` and
    ``wishes`` map a phrase to the English verb, building kind, card or
    wish; ``objects`` are buildings in the object case a language writes
    after its verb for "build" (Czech ``postav sochu F6``; read anywhere a
    building is, written after the verb; empty where the case is the
    nominative); ``joins`` are the words for "from" in ``found F6 from E3``;
    ``fillers`` are glue words skipped anywhere (``please``, ``na``,
    articles)."""

    lang: str
    verbs: dict[str, str]
    buildings: dict[str, str]
    cards: dict[str, str]
    wishes: dict[str, str]
    joins: tuple[str, ...]
    fillers: tuple[str, ...] = ()
    objects: dict[str, str] = field(default_factory=dict)


EN = Words(
    "en",
    verbs={"castle": "castle", "place castle": "castle",
           "gold": "gold", "take 2 gold": "gold", "take gold": "gold", "2 gold": "gold", "gold 2": "gold",
           "build": "build",
           "found": "found", "found new city": "found", "found city": "found", "new city": "found",
           "pass": "pass", "wish": "wish", "demolish": "demolish", "starve": "starve", "famine": "starve"},
    buildings={"farm": "farm", "quarry": "quarry", "market": "market", "marketplace": "market",
               "statue": "statue", "school": "school", "monastery school": "school",
               "fountain": "fountain", "well": "fountain", "palazzo": "palazzo", "palace": "palazzo",
               "hospital": "hospital", "bathhouse": "bathhouse", "baths": "bathhouse",
               "bath house": "bathhouse", "dom": "dom", "cathedral": "dom",
               "university": "university", "uni": "university"},
    cards={"master builder": "master builder", "bread and games": "bread and games",
           "bread & games": "bread and games", "golden age": "golden age", "golden times": "golden age",
           "rich harvest": "rich harvest", "citizens": "citizens"},
    wishes={"culture": "culture", "education": "education", "health": "health",
            "white": "culture", "black": "education", "blue": "health"},
    joins=("from",),
    fillers=("a", "an", "the", "at", "on", "in", "into", "please", "i", "play", "plays"),
)

DE = Words(
    "de",
    verbs={"Castello": "castle", "Burg": "castle", "Gold": "gold", "Geld": "gold", "baue": "build", "bauen": "build",
           "gründe": "found", "gründen": "found", "neue Stadt": "found",
           "passe": "pass", "passen": "pass", "Wunsch": "wish",
           "abreißen": "demolish", "reiße ab": "demolish", "Hungersnot": "starve"},
    buildings={"Bauernhof": "farm", "Hof": "farm", "Steinbruch": "quarry",
               "Marktplatz": "market", "Markt": "market", "Statue": "statue",
               "Klosterschule": "school", "Brunnen": "fountain",
               "Palazzo": "palazzo", "Palast": "palazzo", "Hospital": "hospital",
               "Krankenhaus": "hospital", "Badhaus": "bathhouse", "Dom": "dom",
               "Universität": "university", "Universitat": "university"},
    cards={"Großer Baumeister": "master builder", "Baumeister": "master builder",
           "Brot und Spiele": "bread and games", "Goldene Zeiten": "golden age",
           "Reiche Ernte": "rich harvest", "Bürgernähe": "citizens"},
    wishes={"Kultur": "culture", "Bildung": "education", "Gesundheit": "health",
            "weiß": "culture", "schwarz": "education", "blau": "health"},
    joins=("von", "aus"),
    fillers=("bitte", "auf", "ich", "ein", "eine", "einen", "der", "die", "das", "den"),
)

FI = Words(
    "fi",
    verbs={"linna": "castle", "aseta linna": "castle",
           "kulta": "gold", "kultaa": "gold", "ota kulta": "gold", "ota kultaa": "gold",
           "ota 2 kultaa": "gold", "2 kultaa": "gold",
           "rakenna": "build",
           "perusta": "found", "perusta kaupunki": "found", "perusta uusi kaupunki": "found",
           "uusi kaupunki": "found",
           "ohita": "pass", "passaan": "pass", "toive": "wish",
           "pura": "demolish", "tuhoa": "demolish", "nälkä": "starve", "nälänhätä": "starve"},
    buildings={"maatila": "farm", "louhos": "quarry", "louhimo": "quarry", "tori": "market",
               "patsas": "statue", "luostarikoulu": "school", "koulu": "school",
               "vesilähde": "fountain", "lähde": "fountain", "palatsi": "palazzo",
               "sairaala": "hospital", "kylpylä": "bathhouse", "katedraali": "dom",
               "korkeakoulu": "university", "yliopisto": "university"},
    cards={"mestarirakentaja": "master builder", "mestari rakentaja": "master builder",
           "leipä ja pelit": "bread and games", "hyvät ajat": "golden age",
           "runsas sato": "rich harvest", "ihmisläheisyys": "citizens"},
    wishes={"kulttuuri": "culture", "kulttuuria": "culture", "koulutus": "education",
            "koulutusta": "education", "terveys": "health", "terveyttä": "health",
            "valkoinen": "culture", "musta": "education", "sininen": "health"},
    joins=("linnasta", "kaupungista"),
    fillers=("pelaan", "ruutuun", "paikalle"),
)

CS = Words(
    "cs",
    verbs={"hrad": "castle", "castello": "castle", "postav hrad": "castle",
           "zlato": "gold", "vezmi zlato": "gold", "vezmi 2 zlata": "gold", "2 zlata": "gold",
           "postav": "build",
           "založ": "found", "založ město": "found", "založ nové město": "found", "nové město": "found",
           "pas": "pass", "passuji": "pass", "přání": "wish",
           "strhni": "demolish", "strhnout": "demolish", "hladomor": "starve"},
    buildings={"statek": "farm", "kamenolom": "quarry", "lom": "quarry", "tržiště": "market",
               "socha": "statue", "klášterní škola": "school", "škola": "school",
               "kašna": "fountain", "palác": "palazzo", "nemocnice": "hospital",
               "lázně": "bathhouse", "katedrála": "dom", "univerzita": "university"},
    cards={"velký stavitel": "master builder", "stavitel": "master builder",
           "chléb a hry": "bread and games", "zlaté časy": "golden age",
           "bohatá úroda": "rich harvest", "šeptanda": "citizens"},
    wishes={"kultura": "culture", "kulturu": "culture", "vzdělání": "education",
            "zdraví": "health", "bílá": "culture", "černá": "education", "modrá": "health"},
    joins=("z", "ze"),
    fillers=("na", "prosím", "hraji", "hraju"),
    objects={"statek": "farm", "kamenolom": "quarry", "lom": "quarry", "tržiště": "market",
             "sochu": "statue", "klášterní školu": "school", "školu": "school", "kašnu": "fountain",
             "palác": "palazzo", "nemocnici": "hospital", "lázně": "bathhouse",
             "katedrálu": "dom", "univerzitu": "university"},
)

CA = Words(
    "ca",
    verbs={"castell": "castle", "posa castell": "castle",
           "or": "gold", "agafa or": "gold", "agafa 2 or": "gold", "2 or": "gold",
           "construeix": "build", "construir": "build",
           "funda": "found", "fundar": "found", "funda ciutat": "found", "nova ciutat": "found",
           "crea ciutat": "found",
           "passo": "pass", "passar": "pass", "desig": "wish",
           "enderroca": "demolish", "enderrocar": "demolish", "fam": "starve"},
    buildings={"granja": "farm", "pedrera": "quarry", "cantera": "quarry", "mercat": "market",
               "estàtua": "statue", "monestir": "school", "escola": "school",
               "font": "fountain", "palau": "palazzo", "hospital": "hospital",
               "banys": "bathhouse", "banyes": "bathhouse", "catedral": "dom",
               "universitat": "university"},
    cards={"gran arquitecte": "master builder", "arquitecte": "master builder",
           "pa i circ": "bread and games", "edat d'or": "golden age", "l'edat d'or": "golden age",
           "collita miraculosa": "rich harvest", "sondeig": "citizens"},
    wishes={"cultura": "culture", "educació": "education", "salut": "health",
            "blanc": "culture", "negre": "education", "blau": "health"},
    joins=("de", "des"),
    fillers=("si", "us", "plau", "jugo", "un", "una", "uns", "unes", "el", "la", "els", "les"),
)

WORDS: dict[str, Words] = {w.lang: w for w in (EN, FI, CS, CA, DE)}
"""Every language orders may be written in; ``en`` is the canonical text."""


def first(table: dict[str, str], meaning: str) -> str:
    """The phrase a table writes for ``meaning`` (its first listed)."""
    return next(k for k, v in table.items() if v == meaning)


def order_text(o: Order, lang: str = "en") -> str:
    """``o`` written in ``lang`` with that language's first-listed words
    (``Order("build", "J6", "farm")`` in ``fi`` -> ``rakenna maatila J6``);
    ``en`` is :meth:`Order.to_text`. Raises ``KeyError`` for an unknown
    language."""
    if lang == "en":
        return o.to_text()
    w = WORDS[lang]
    verb, site, what, n, extra = o
    say = lambda v: first(w.verbs, v)    # noqa: E731
    if verb in ("castle", "pass", "gold"):
        return say(verb) + (f" {site}" if site else "")
    if verb == "found":
        return f"{say('found')} {site}" + (f" {w.joins[0]} {extra[0]}" if extra else "")
    if verb == "build":
        return f"{say('build')} {first(w.objects or w.buildings, what)} {site}"
    if verb == "card":
        return f"{first(w.buildings, what)} {site}"
    if verb == "wish":
        return f"{say('wish')} {site} {first(w.wishes, what)}"
    if verb == "demolish":
        return say("demolish") + " " + " ".join(extra)
    if verb == "starve":
        return say("starve") + " " + ", ".join(f"{c} {k}" for c, k in extra)
    card = {"master": "master builder", "bread": "bread and games", "golden": "golden age",
            "harvest": "rich harvest", "citizens": "citizens"}[verb]
    name = first(w.cards, card)
    if verb == "master":
        return f"{name} {first(w.buildings, what)} {site}"
    if verb == "bread":
        return f"{name} {site} x{n}" + "".join(f" {first(w.wishes, c)}" for c in extra)
    if verb == "golden":
        return f"{name} {site} x{n}"
    if verb == "harvest":
        return f"{name} {site}"
    return f"{name} {n}"


def say(o: Order, quoted: bool = False) -> Msg:
    """``o`` as a message that is its order line in each language's words
    (:func:`pbem.engine.messages.said`): what a refusal or an example shows
    a player (``'rakenna maatila F6'`` in Finnish); ``quoted`` puts it in
    quotes (``repr``)."""
    return said_by(lambda lang: repr(order_text(o, lang)) if quoted else order_text(o, lang), LANGUAGES)
