"""The new text of a reply: quoted history, quote headers, signatures and
phone footers removed; HTML-only replies turned into text first.

Built on mail-parser-reply, which knows quote headers in en, de, cs, da, es,
fr, it, ja, ko, nl, pl, sv and zh. It lacks Finnish and Catalan and a few
client variants (Czech Gmail's "odesílatel ... napsal:", German/Czech phone
footers, forwarded-message separators), so those are registered here as
extra entries of its language table (additive: no existing entry changes).
"""
from __future__ import annotations

import re

import html2text
from mailparser_reply.constants import MAIL_LANGUAGES, QUOTED_MATCH_INCLUDE as _Q
from mailparser_reply.parser import EmailMessage as _ReplyMessage

__all__ = ["extract_new_text", "html_to_text", "LANGUAGES"]


def _from_header(names: str) -> str:
    # Same shape as the library's Outlook-style header block: two or more
    # "Name: value" lines in a row.
    return (r"((?:(?:^|\n|\n" + _Q + r")[* ]*(?:" + names
            + r"):[ *]*(?:\s{,2}).*){2,}(?:\n.*){,1})")


MAIL_LANGUAGES.setdefault("fi", {
    # Gmail: "ti 24.11.2026 klo 18.00 Alice <a@x> kirjoitti:"
    # Apple Mail: "Alice <a@x> kirjoitti 24.11.2026 kello 18.00:"
    # iPhone: "24.11.2026 kello 18.00, Alice <a@x> kirjoitti:"
    # Thunderbird: "Alice kirjoitti 24.11.2026 klo 18.00:"
    "wrote_header": r"^(" + _Q + r"[^\n]{0,300}\bkirjoitti\b[^\n]{0,80}:)$",
    "from_header": _from_header("Lähettäjä|Lähetetty|Vastaanottaja|Aihe|Kopio|Päivämäärä|Päiväys"),
    "disclaimers": [r"Huomautus:", r"Luottamuksellinen:", r"Luottamuksellista:"],
    "signatures": [r"Ystävällisin terveisin", r"Parhain terveisin", r"Terveisin", r"Terkuin",
                   r"Kiitos,", r"T\. "],
    "sent_from": r"Lähetetty(?= (?:iPhone|iPad|Android|Outlook|mobiili|puhelime|Samsung|Galaxy))",
})

MAIL_LANGUAGES.setdefault("ca", {
    # Gmail: "El dt., 24 de nov. 2026 a les 18:00, Alice (<a@x>) va escriure:"
    # Thunderbird: "El 24/11/26 a les 18:00, Alice ha escrit:"
    "wrote_header": r"^(" + _Q + r"[^\n]{0,300}\b(?:va escriure|ha escrit|escrigué)\s?:)$",
    "from_header": _from_header("De|Enviat|Enviada|Per a|A|Tema|Assumpte|Data|A/c|Cc"),
    "disclaimers": [r"Avís:", r"Confidencial:", r"Avís de confidencialitat:"],
    "signatures": [r"Salutacions", r"Atentament", r"Cordialment", r"Gràcies,", r"Una abraçada"],
    "sent_from": r"Enviat(?= des d)",
})

# Not a language: client patterns the library has in no language.
MAIL_LANGUAGES.setdefault("x-pbem", {
    "wrote_header": (
        r"^(" + _Q + r"(?:"
        # Czech Gmail: "út 24. 11. 2026 v 18:00 odesílatel Alice <a@x> napsal:"
        r"[^\n]{0,200}\bodesílatel\b[^\n]{0,200}\bnapsal[a]?:"
        # Forward / original separators in our five languages
        r"|-{5,} ?(?:Forwarded message|Välitetty viesti|Weitergeleitete Nachricht|Přeposlaná zpráva"
        r"|Missatge reenviat|Původní zpráva|Alkuperäinen viesti|Ursprüngliche Nachricht"
        r"|Missatge original|Original Message) ?-{5,}"
        r"))$"
    ),
    "from_header": "",
    "disclaimers": "",
    "signatures": "",
    "sent_from": (r"Von meinem(?= \w+ gesendet)|Odesláno z(?= \w)|Enviado desde(?= mi)"
                  r"|Sent from(?= \w)|Get Outlook for(?= \w)|Hanki Outlook(?= \w)"),
})

#: Languages whose quote headers are recognised (order does not matter).
LANGUAGES = ["en", "de", "cs", "fi", "ca", "es", "fr", "it", "nl", "sv", "da", "pl", "x-pbem"]

# A header a client wrapped over two lines ("On Tue, 24 Nov 2026 at 18:00, Alice <\na@x> wrote:")
_HEADER_START = re.compile(
    r"^(?:>\s?)*(?:On\s|Am\s|El\s|Dne\s|Le\s|Il\s|Op\s|Den\s"
    r"|(?:ma|ti|ke|to|pe|la|su)\s+\d|(?:po|út|st|čt|pá|so|ne)\s+\d"
    r"|\d{1,2}[./]\s?\d{1,2}[./])", re.IGNORECASE)
_HEADER_END = re.compile(
    r"(?:wrote|schrieb[^\n]*|kirjoitti[^\n]*|va escriure|ha escrit|napsal(?:\(a\)|a)?|escribió|a écrit|ha scritto|schreef|skrev)\s?:\s*$",
    re.IGNORECASE)

# Phone footers and signature lines the library may miss when the reply is
# only one line long (its signature rule never matches at the very start).
_FOOTER = re.compile(
    r"^(?:Sent from my \w.*|Get Outlook for \w.*|Von meinem \w+ gesendet.*|Gesendet von \w.*"
    r"|Lähetetty (?:iPhone|iPad|Android|Outlook|mobiili|puhelime|Samsung|Galaxy).*"
    r"|Odesláno z \w.*|Enviat des d.*|Enviado desde mi \w.*)$", re.IGNORECASE)

_DEEP_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?){2,}")
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")


def html_to_text(html: str) -> str:
    """Plain text of an HTML mail body: quoted blocks become ``> `` lines,
    links and images are dropped, nothing is wrapped."""
    h = html2text.HTML2Text()
    h.body_width = 0
    h.ignore_images = True
    h.ignore_links = True
    h.ignore_emphasis = True
    h.ignore_tables = True
    h.unicode_snob = True
    h.single_line_break = True
    try:
        out = h.handle(html)
    except Exception:  # html2text on hostile markup: fall back to crude tag removal
        out = re.sub(r"<[^>]*>", " ", html)
    # A horizontal rule (Outlook puts one above its quote header) is no text.
    out = re.sub(r"(?m)^\s*(?:\* \* \*|- - -|_{3,}|-{3,})\s*$", "", out)
    # html2text escapes Markdown characters ("1\. pass"); orders want them plain.
    return _MD_ESCAPE.sub(r"\1", out)


#: Longer lines are cut before quote stripping: the stripper's patterns are
#: superlinear on very long lines, and no order line is that long (the
#: inbound parser refuses order lines over 1000 characters anyway).
MAX_LINE_CHARS = 2000


def _normalise(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_ZERO_WIDTH)
    text = text.replace("\xa0", " ")
    # Quote depth does not matter here, and deep ">>>>" runs make the
    # stripper's patterns backtrack: one level is kept.
    lines = [_DEEP_QUOTE.sub("> ", line[:MAX_LINE_CHARS]).rstrip() for line in text.split("\n")]
    # Re-join quote headers wrapped over two lines so the one-line patterns see them.
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if (i + 1 < len(lines) and _HEADER_START.match(line.strip()) and not line.rstrip().endswith(":")
                and _HEADER_END.search(lines[i + 1]) and len(line) + len(lines[i + 1]) < 400):
            out.append(line.rstrip() + " " + lines[i + 1].strip())
            i += 2
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def extract_new_text(text: str) -> str:
    """The part of a reply body the sender wrote now.

    Handles top-posting (new text above a quote header), bottom-posting and
    interleaving (unquoted lines between ``>`` lines after a header),
    Outlook header blocks with an unquoted original below, signatures after
    ``-- `` and common closings, and phone footers. Returns ``""`` when the
    sender wrote nothing. Never raises on any ``str``.
    """
    text = _normalise(text)
    if not text.strip():
        return ""
    msg = _ReplyMessage(text=text, languages=list(LANGUAGES), keep_hyphen_lists=True).read()
    if not msg.replies:
        return ""
    first = msg.replies[0]
    body = first.body
    if first.headers:
        # Nothing above the first quote header: the sender bottom-posted or
        # interleaved. Keep unquoted lines only when they follow quoted lines;
        # an Outlook-style header with an unquoted original below means the
        # sender wrote nothing.
        lines = body.split("\n")
        if not any(_is_quoted(l) for l in lines):
            return ""
    lines = [l for l in body.split("\n") if not _is_quoted(l)]
    kept: list[str] = []
    for line in lines:
        if _FOOTER.match(line.strip()):
            break
        if line.strip() in ("--", "-- ", "__"):
            break
        kept.append(line.strip())
    result = "\n".join(kept).strip()
    return re.sub(r"\n{3,}", "\n\n", result)
