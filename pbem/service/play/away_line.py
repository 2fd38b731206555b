"""Reading an ``away`` line in a player's mail (issue 25), pure.

``away 2026-12-20 to 2026-12-27`` declares an absence for every game of the
player, from the start of the first day to the end of the last, in the
player's own time zone. The command word is pbem's own, not a game's, so
it is read here in every language's words (folded: no accents needed):

=====  ============================  ===========================
lang   command word                  "to"
=====  ============================  ===========================
en     away, absent                  to, until, till, -
fi     poissa, lomalla, loma,        -, asti, saakka (after the last day)
       matkalla, reissussa
cs     pryč, nepřítomen, nepřítomna, do, až, - ("včetně" after the
       nepřítomný, nepřítomnost,     last day)
       dovolená
ca     fora, absent, absenta,        a, al, fins, - ("ambdós inclosos"
       absència, vacances            after the last day)
de     weg, abwesend, Abwesenheit,   bis, bis zum, zwischen ... und, -
       Urlaub, verreist              ("einschließlich" after the last day)
=====  ============================  ===========================

Dates: ``2026-12-20``, ``20.12.2026``, ``20. 12. 2026`` (the Czech way, with
spaces) or ``20/12/2026`` (day first); without the year (``20.12.``,
``20. 12.``, ``20/12``) or, for the first day, the day alone
(``20.–27.12.``), read by :mod:`pbem.service.play.away_dates`; a time
may follow a date (``18:00`` or ``18.00``): then the absence starts or ends
at that time. Words like "from", "od", "des de", "von", "alkaen" ("alk."),
"lähtien" may stand anywhere, and so may "klo"/"kello" before a time and
"Uhr" after it; an hour may stand without its minutes (``18h``,
``18 Uhr``, ``klo 18``, ``a les 18``). A
line whose first word is a command word and which has a digit is read as
an away line: it is either an absence or a refusal that quotes
it (:class:`AwayLineError`), never an order.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from pbem.engine.fold import fold
from pbem.service.play.away_dates import read_day, resolve

#: the command word in every language, folded
COMMAND_WORDS = frozenset({"away", "absent", "poissa", "lomalla", "loma", "matkalla", "reissussa",
                           "pryc", "nepritomen", "nepritomna", "nepritomny", "nepritomnost", "dovolena",
                           "fora", "absenta", "absencia", "vacances", "weg", "abwesend",
                           "abwesenheit", "urlaub", "verreist"})
#: words that may stand between or around the dates, folded (the "to" words and fillers)
FILLERS = frozenset({"to", "until", "till", "from", "-", "..", "asti", "saakka", "alkaen", "alk", "lahtien",
                     "klo", "kello", "valilla", "od", "do", "a", "al", "del", "de", "des", "fins", "bis", "von",
                     "vom", "ab", "am", "el", "i", "and", "ja", "und", "az", "vcetne",
                     "els", "les", "dia", "dies", "entre", "ambdos", "inclosos", "inclos",
                     "zum", "zwischen", "uhr", "h", "hod", "hodin", "v", "ve", "einschliesslich", "einschl", "inkl", "inklusive"})
_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})[.,]?$")
#: an hour alone: 18, 18h (group 3: written with its h)
_HOUR = re.compile(r"^(\d{1,2})()(h)?[.,]?$")
#: words after an hour alone that make it one (folded): ``18 Uhr``, ``18 h``
_AFTER_HOUR = frozenset({"uhr", "h", "hod", "hodin"})
#: words after which ``18.00.`` is a time, not a day (folded)
_BEFORE_TIME = frozenset({"klo", "kello", "les", "at", "um", "v", "ve", "o"})
#: the longest line read as an away line
MAX_LINE = 200


@dataclass(frozen=True)
class Away:
    """An absence read from a line: ``start`` and ``end`` aware UTC, and
    the line as it was written."""

    start: dt.datetime
    end: dt.datetime
    line: str


class AwayLineError(ValueError):
    """An away line that could not be read: ``line`` (as written) and
    ``code``: ``dates`` (not two dates), ``date`` (no such day or time),
    ``word`` (a word not understood: ``word``)."""

    def __init__(self, line: str, code: str, word: str = ""):
        super().__init__(f"{code}: {line!r}")
        self.line, self.code, self.word = line, code, word


def is_away_line(line: str) -> bool:
    """Whether ``line`` is meant as an away line: its first word is a
    command word (any language, accents optional) and it has a digit."""
    words = fold(line.strip()).split()
    return bool(words) and words[0].rstrip(":") in COMMAND_WORDS and any(c.isdigit() for c in line)


def _tokens(line: str) -> list[str]:
    text = fold(line.strip()[:MAX_LINE]).replace("\u2013", " - ").replace("\u2014", " - ")
    # a dash between two dates written without spaces: 20.12.2026-27.12.2026
    text = re.sub(r"(\d{4})-(\d{1,2}[./])", r"\1 - \2", text)
    # ... and after a day's dot: 20.12.-27.12., 20.-27.12.
    text = re.sub(r"(\d\.)-(\d)", r"\1 - \2", text)
    # a date written with spaces after its dots (Czech: 20. 12. 2026) is one word
    text = re.sub(r"\b(\d{1,2})\.\s+(\d{1,2})\.\s+(\d{4})\b", r"\1.\2.\3", text)
    # ... and without its year (20. 12.), unless the second number is a time's (20. 18:00)
    text = re.sub(r"\b(\d{1,2})\.\s+(\d{1,2})\.(?=\s|$)", r"\1.\2.", text)
    return text.split()[1:]


def read_away(line: str, zone: str, *, now: dt.datetime | None = None) -> Away:
    """The absence ``line`` declares, its days read in time zone ``zone``
    (an IANA name); a day written without its year is read as of ``now``
    (aware; default the present) in that zone
    (:func:`pbem.service.play.away_dates.resolve`). Raises
    :class:`AwayLineError`."""
    tz = ZoneInfo(zone)  # an unknown zone raises here
    points: list[list] = []   # [Day, time or None]
    before = ""
    words = _tokens(line)
    for at, word in enumerate(words):
        after = words[at + 1].strip(",.:;") if at + 1 < len(words) else ""
        time = _TIME.match(word) or _hour_alone(word, before, after)
        if time is not None and points and points[-1][1] is None and (
                before in _BEFORE_TIME or not word.endswith(".")):
            try:
                points[-1][1] = dt.time(int(time[1]), int(time[2] or 0))
            except ValueError:
                raise AwayLineError(line, "date") from None
        elif (day := read_day(word)) is not None:
            points.append([day, None])
        elif word.strip(",.:;") not in FILLERS:
            raise AwayLineError(line, "word", word)
        before = word.strip(",.:;")
    if len(points) != 2:
        raise AwayLineError(line, "dates")
    (d1, t1), (d2, t2) = points
    today = (now or dt.datetime.now(dt.timezone.utc)).astimezone(tz).date()
    try:
        first, last = resolve(d1, d2, today)
        start, end = local_days(first, last, zone, t1, t2)
    except (ValueError, OverflowError):  # no such day; year 1 or 9999: past the calendar's ends
        raise AwayLineError(line, "date") from None
    return Away(start, end, line.strip()[:MAX_LINE])


def _hour_alone(word: str, before: str, after: str):
    """An hour without minutes, as a match with the hour in group 1
    (group 2 None): ``18h``, ``18 Uhr``, ``18 h``, or ``18`` after a word
    that comes before a time (``klo 18``, ``ab 18 Uhr``, ``a les 18``)."""
    found = _HOUR.match(word)
    if found is None or (not found[3] and before not in _BEFORE_TIME and after not in _AFTER_HOUR):
        return None
    return found


def local_days(first: dt.date, last: dt.date, zone: str, start_time: dt.time | None = None,
               end_time: dt.time | None = None) -> tuple[dt.datetime, dt.datetime]:
    """``(start, end)``, aware UTC, of an absence from day ``first`` to day
    ``last`` in time zone ``zone``: from the start of the first day (or
    ``start_time`` on it) to the end of the last (or ``end_time`` on it)."""
    tz = ZoneInfo(zone)
    start = dt.datetime.combine(first, start_time or dt.time(0), tz)
    end = (dt.datetime.combine(last, end_time, tz) if end_time is not None
           else dt.datetime.combine(last + dt.timedelta(days=1), dt.time(0), tz))
    return start.astimezone(dt.timezone.utc), end.astimezone(dt.timezone.utc)


def find_away_lines(text: str) -> list[str]:
    """The lines of ``text`` meant as away lines, in order."""
    return [line.strip() for line in text.splitlines() if is_away_line(line)]
