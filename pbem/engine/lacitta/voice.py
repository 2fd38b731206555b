"""The Voice of the People (la-citta.fi.txt "2. "Kansan ääni"-korttien
jako", "6. Kansan ääni valitaan"): four cards a year, the first face up;
after the political rounds they are revealed and the people wish for the
colour shown most (two colours on two pairs)."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.terms import WISH
from pbem.engine.messages import Msg
from pbem.engine.phrases import and_list, join

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def deal(s: "LaCittaState") -> list[Event]:
    """Phase 2: this year's four cards, the first face up."""
    s.voice = s.voice_deck[:D.VOICE_CARDS]
    del s.voice_deck[:D.VOICE_CARDS]
    s.revealed = False
    return [Event(Msg("Voice of the People: the face-up card is {wish}; three cards lie "
                      "face down.", wish=WISH[s.voice[0]]), kind="voice", data={"first": s.voice[0]})]


def wishes_of(cards: list[str]) -> list[str]:
    """The wish (or two wishes, on two pairs) that ``cards`` show most."""
    counts = Counter(cards)
    top = counts.most_common()
    if top[0][1] >= 3:
        return [top[0][0]]
    if len(top) == 2:              # two pairs
        return [w for w in D.WISHES if w in counts]
    return [top[0][0]]


def reveal(s: "LaCittaState") -> list[Event]:
    """Phase 6: turn the cards up; the people's wishes are set."""
    s.revealed = True
    wishes = s.wishes = wishes_of(s.voice)
    return [Event(Msg("The Voice of the People: {cards} — the people wish for {wishes}.",
                      cards=join([WISH[w] for w in s.voice]),
                      wishes=and_list([WISH[w] for w in wishes])),
                  kind="reveal", data={"cards": list(s.voice), "wishes": wishes})]
