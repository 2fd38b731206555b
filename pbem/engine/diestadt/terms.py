"""Die Stadt's game words as messages (issue 16): the names the text view
and the refusals put into their sentences, translated by the catalogs with
the glossaries' terms (``docs/i18n/<lang>.md``, "Carcassonne: Die Stadt").
The order words players write are :mod:`pbem.engine.diestadt.words`."""
from __future__ import annotations

from pbem.engine.messages import Msg, Msgc

ROLE = {"citizen": Msgc("Die Stadt", "citizen"), "merchant": Msgc("Die Stadt", "merchant"), "overseer": Msg("overseer"),
        "guard": Msg("guard")}
"""A follower's role (view ``followers[].role``) -> its name."""

SEAT_COLOUR = {"red": Msg("red"), "blue": Msg("blue"), "yellow": Msg("yellow"), "green": Msg("green")}
"""A seat's colour (view ``players[].colour``) -> its name."""

BUILDING = {"public": Msg("public building"), "historic": Msg("historic building")}
"""A tile's building (view ``drawn.building``) -> its name."""

KIND = {"public": Msgc("Die Stadt building", "public"), "historic": Msgc("Die Stadt building", "historic")}
"""A tile's building kind as a word that equals its code (view
``drawn.building``: ``KIND["public"] == "public"``) and translates as an
adjective ("julkinen", "öffentlich"): the order page's "with a public building"."""
