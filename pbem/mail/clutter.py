"""Lines a mail client adds that are never orders, in any language:
separator lines (``____``, ``-----``, ``-----Mensaje original-----``,
``-------- Oprindelig besked --------``) and phone/app footers ("Sent from
my iPhone", "Envoyé à partir de Outlook pour iOS", "Lähetetty iPhonesta").

The separator test is by shape, not by language: a run of rule characters,
optionally with a few words between two runs. The footer test is a list of
"sent from" openings in the languages pbem has met (en de fr es it nl pt da
no sv fi cs ca ru pl), kept short enough (at most 100 characters) that an
order line never matches.
"""
from __future__ import annotations

import re

__all__ = ["is_separator", "is_footer", "is_signature_marker"]

# "____", "-----", "=====", "* * *", and "-----Mensaje original-----",
# "-------- Oprindelig besked --------", "----- Forwarded Message -----"
_SEPARATOR = re.compile(
    r"^\s*(?:[-_=*~\u2014\u2013](?:\s?[-_=*~\u2014\u2013]){2,}"
    r"(?:\s*[^\W\d_][^\n]{0,60}?\s*[-_=*~\u2014\u2013](?:\s?[-_=*~\u2014\u2013]){1,})?)\s*$")

_FOOTER = re.compile(
    r"^\s*(?:"
    r"sent (?:from|with|via|using)|get outlook|download outlook"                    # en
    r"|von meinem|gesendet (?:von|mit|vom|aus)|outlook für"                       # de
    r"|envoy[ée] (?:de|depuis|à partir|a partir|avec|par)|obtenir outlook"         # fr
    r"|enviado (?:desde|do|da|de|com|con)|obtener outlook|obter o outlook"        # es pt
    r"|enviat (?:des|amb|de)"                                                     # ca
    r"|inviato (?:da|dal|dalla|con)|scarica outlook|ottieni outlook"              # it
    r"|verzonden (?:vanaf|met|van|via)|verstuurd (?:vanaf|met|van|via)|download outlook"  # nl
    r"|sendt (?:fra|från|med)|hent outlook|få outlook"                            # da no
    r"|skickat (?:från|med)|skickades från|hämta outlook"                         # sv
    r"|lähetetty (?:iphone|ipad|android|outlook|mobiili|puhelime|samsung|galaxy|\w+sta\b|\w+stä\b)"
    r"|hanki outlook"                                                             # fi
    r"|odesláno z|odesláno ze|odeslano z|stáhněte si outlook"                     # cs
    r"|отправлено (?:с|из|со)|получите outlook"                                   # ru
    r"|wysłane z|wysłano z|wysłane przy|pobierz outlook"                          # pl
    r")(?:\s|$)", re.IGNORECASE)


def is_separator(line: str) -> bool:
    """A line that only separates: rule characters, or a few words between
    two runs of them (``-----Messaggio originale-----``)."""
    return len(line) <= 120 and _SEPARATOR.match(line) is not None


def is_footer(line: str) -> bool:
    """A phone or mail-app footer line ("Sent from my iPhone",
    "Von meinem iPhone gesendet", "Odesláno z iPhonu")."""
    return len(line.strip()) <= 100 and _FOOTER.match(line) is not None


def is_signature_marker(line: str) -> bool:
    """The signature separator ``-- `` (RFC 3676 §4.3), also when a client
    dropped its trailing space, and Outlook's ``__``."""
    return line.strip() in ("--", "__")
