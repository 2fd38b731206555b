"""The new text of a reply: quoted history, quote headers, signatures and
phone footers removed; HTML-only replies turned into text first.

Two lines of defence:

1. :func:`read_reply` is given what pbem sent (the notice's plain and HTML
   text, its sender): it finds the quoted copy by its words
   (:mod:`pbem.mail.quotes`), drops the header lines above it whatever their
   language (:mod:`pbem.mail.quote_header`), separators and phone footers
   (:mod:`pbem.mail.clutter`), and sets the greeting and sign-off aside
   (:mod:`pbem.mail.reading`).
2. When no copy of the notice is found (the player deleted the quote, or
   answered another mail), :func:`extract_new_text` does it by patterns:
   mail-parser-reply, which knows quote headers in en, de, cs, da, es, fr,
   it, ja, ko, nl, pl, sv and zh, with entries added here for Finnish,
   Catalan, Portuguese, Norwegian, Russian, client variants, and the
   library's Spanish pattern repaired (it demanded two spaces before
   "escribió" and so never matched).
"""
from __future__ import annotations

import re

import html2text
from typing import Callable, Collection, Iterable, Sequence

from mailparser_reply.constants import MAIL_LANGUAGES, QUOTED_MATCH_INCLUDE as _Q
from mailparser_reply.parser import EmailMessage as _ReplyMessage

from . import clutter, quote_header, quotes
from .reading import Reading, holds_an_order, split_letter

__all__ = ["extract_new_text", "html_to_text", "new_lines", "read_reply", "Reading", "LANGUAGES"]


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

# The library's Spanish header needs two spaces before "escribió" (``\s escribió``)
# and never matches; "El lun., 23 nov. 2026 a las 16:44, pbem (<a@x>) escribió:".
MAIL_LANGUAGES["es"] = {**MAIL_LANGUAGES["es"],
                        "wrote_header": r"^(" + _Q + r"El\s[^\n]{0,300}?\s?escribi[óo]\s?:)$"}

MAIL_LANGUAGES.setdefault("pt", {
    # Gmail: "Em seg., 23 de nov. de 2026 às 16:44, Alice <a@x> escreveu:"
    "wrote_header": r"^(" + _Q + r"[^\n]{0,300}\bescreveu\s?:)$",
    "from_header": _from_header("De|Enviado|Enviada|Para|Assunto|Data|Cc"),
    "disclaimers": "", "signatures": [r"Atenciosamente", r"Cumprimentos", r"Abraços", r"Obrigad[oa],"],
    "sent_from": r"Enviado do(?= \w)",
})

MAIL_LANGUAGES.setdefault("no", {
    # Gmail: "man. 23. nov. 2026 kl. 16:44 skrev Alice <a@x>:"
    "wrote_header": r"^(" + _Q + r"[^\n]{0,300}\bskrev\b[^\n]{0,200}:)$",
    "from_header": _from_header("Fra|Sendt|Til|Emne|Dato|Kopi"),
    "disclaimers": "", "signatures": [r"Med vennlig hilsen", r"Mvh", r"Hilsen"],
    "sent_from": r"Sendt fra(?= \w)",
})

MAIL_LANGUAGES.setdefault("ru", {
    # Gmail: "пн, 23 нояб. 2026 г. в 16:44, Alice <a@x>:"; Thunderbird/Mail.ru: "... Alice пишет:"
    "wrote_header": r"^(" + _Q + r"[^\n]{0,300}(?:\bпишет|\bнаписал[а]?|\d{1,2}:\d{2}, [^\n]{0,200}<[^<>\s]+@[^<>\s]+>)\s?:)$",
    "from_header": _from_header("От|Отправлено|Кому|Тема|Дата|Копия"),
    "disclaimers": "", "signatures": [r"С уважением", r"Спасибо,"],
    "sent_from": r"Отправлено(?= [сиз])",
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
        r"|Missatge original|Original Message|Mensaje original|Messaggio originale|Oprindelig besked"
        r"|Oprindelig meddelelse|Message d'origine|Mensagem original|Oorspronkelijk bericht"
        r"|Ursprungligt meddelande|Opprinnelig melding|Исходное сообщение|Wiadomość oryginalna"
        r"|Message transféré|Mensaje reenviado|Messaggio inoltrato|Forwarded Message) ?-{5,}"
        # Italian Apple Mail / Outlook: "In data 23 nov 2026, alle ore 16:44, Alice <a@x> ha scritto:"
        r"|[^\n]{0,300}\bha scritto\s?:"
        r"))$"
    ),
    "from_header": "",
    "disclaimers": "",
    "signatures": "",
    "sent_from": (r"Von meinem(?= \w+ gesendet)|Odesláno z(?= \w)|Enviado desde(?= mi)"
                  r"|Sent from(?= \w)|Get Outlook for(?= \w)|Hanki Outlook(?= \w)"),
})

#: Languages whose quote headers are recognised (order does not matter).
LANGUAGES = ["en", "de", "cs", "fi", "ca", "es", "fr", "it", "nl", "sv", "da", "pl", "pt", "no", "ru", "x-pbem"]

# A header a client wrapped over two lines ("On Tue, 24 Nov 2026 at 18:00, Alice <\na@x> wrote:")
_HEADER_START = re.compile(
    r"^(?:>\s?)*(?:On\s|Am\s|El\s|Em\s|Dne\s|Le\s|Il\s|In data\s|Op\s|Den\s|\d{4}-\d{2}-\d{2}\s"
    r"|(?:ma|ti|ke|to|pe|la|su)\s+\d|(?:po|út|st|čt|pá|so|ne)\s+\d"
    r"|\d{1,2}[./]\s?\d{1,2}[./])", re.IGNORECASE)
_HEADER_END = re.compile(
    r"(?:wrote|schrieb[^\n]*|kirjoitti[^\n]*|va escriure|ha escrit|napsal(?:\(a\)|a)?|escribió|escreveu|a écrit|ha scritto|schreef|skrev|geschreven|пишет)\s?:\s*$",
    re.IGNORECASE)

# Phone footers and signature lines the library may miss when the reply is
# only one line long (its signature rule never matches at the very start).
_FOOTER = re.compile(
    r"^(?:Sent from my \w.*|Get Outlook for \w.*|Von meinem \w+ gesendet.*|Gesendet von \w.*"
    r"|Lähetetty (?:iPhone|iPad|Android|Outlook|mobiili|puhelime|Samsung|Galaxy).*"
    r"|Odesláno z \w.*|Enviat des d.*|Enviado desde mi \w.*)$", re.IGNORECASE)

_QUOTED_SIG = re.compile(r"(?m)^[ \t]*>[ \t]?--[ \t]*$")
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


def _drop_header_above_quote(text: str) -> str:
    """The lines above the first ``>`` line that look like a quote header
    in any language (:func:`quote_header.header_start`: a date or time, an
    address, a trailing ``:``) removed, so the patterns below need not know
    the language."""
    lines = text.split("\n")
    first = next((i for i, l in enumerate(lines) if _is_quoted(l) and l.strip(" >")), None)
    if not first:
        return text
    top = quote_header.header_start(lines, first)
    return "\n".join(lines[:top] + lines[first:]) if top < first else text


def extract_new_text(text: str) -> str:
    """The part of a reply body the sender wrote now.

    Handles top-posting (new text above a quote header), bottom-posting and
    interleaving (unquoted lines between ``>`` lines after a header),
    Outlook header blocks with an unquoted original below, signatures after
    ``-- `` and common closings, and phone footers. Returns ``""`` when the
    sender wrote nothing. Never raises on any ``str``.
    """
    text = _drop_header_above_quote(_normalise(text))
    # a quoted signature marker is the quoted mail's, not the end of the reply
    text = _QUOTED_SIG.sub(">", text)
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
        if _FOOTER.match(line.strip()) or clutter.is_footer(line):
            break
        if clutter.is_signature_marker(line) or (clutter.is_separator(line) and any(k.strip() for k in kept)):
            break
        if clutter.is_separator(line):
            continue
        kept.append(line.strip())
    result = "\n".join(kept).strip()
    return re.sub(r"\n{3,}", "\n\n", result)


# --- the first line of defence: what pbem sent ---------------------------------

def _clean_block(lines: Sequence[str]) -> list[str]:
    """The player's lines of one block of new text: quoted lines dropped,
    cut at a signature marker, a phone footer or a separator."""
    kept: list[str] = []
    for line in lines:
        if _is_quoted(line):
            continue
        if clutter.is_signature_marker(line) or clutter.is_footer(line) or _FOOTER.match(line.strip()):
            break
        if clutter.is_separator(line):
            if any(k.strip() for k in kept):
                break
            continue
        kept.append(line.strip())
    return kept


def _new_blocks(lines: Sequence[str], match: quotes.QuoteMatch, top: int) -> list[str]:
    """The new text around a located copy: the lines above its header, and
    the answer written between or under its lines (blank lines kept, so
    paragraphs stay apart)."""
    out = _clean_block(lines[:top])
    new = set(match.new_lines)
    below: list[str] = []
    for j in range(match.start, len(lines)):
        if j in new:
            below.append(lines[j])
        elif not lines[j].strip() and below and below[-1].strip():
            below.append("")
    below = _clean_block(below)
    if below:
        out = out + [""] + below
    return out


def _without_notice_lines(new: list[str], texts: Sequence[str],
                          is_order: Callable[[str], bool] | None) -> list[str]:
    """``new`` less the lines of pbem's own notice the game does not read
    as an order (a copy's line the finder left above it): pbem's own
    words are never a player's order. Without the game's predicate only
    lines of six words or more are dropped."""
    if not texts:
        return new
    mine = quotes.notice_lines(new, texts, min_words=4 if is_order else 6)
    return [l for i, l in enumerate(new) if i not in mine or (is_order is not None and holds_an_order(l, is_order))]


#: at most this many lines set aside are named back (each cut at 200 characters)
MAX_IGNORED = 8


def first_lines(text: str, limit: int = 8) -> list[str]:
    """The first ``limit`` non-blank lines of a mail body (what the answer
    quotes back when no orders were found)."""
    out = []
    for line in _normalise(text).split("\n"):
        if line.strip():
            out.append(line.strip()[:200])
            if len(out) >= limit:
                break
    return out


def read_reply(body: str, *, notice_texts: Iterable[str] = (), sender_tokens: Iterable[str] = (),
               is_order: Callable[[str], bool] | None = None, by_patterns: str | None = None,
               order_words: Collection[str] = ()) -> Reading:
    """Read a reply to a notice pbem sent.

    ``body``: the reply's decoded text (an HTML-only reply already turned
    into text). ``notice_texts``: the notice as sent (its plain part, and
    its HTML part as :func:`html_to_text` gives it). ``sender_tokens``:
    the notice's sender name and addresses (quote headers name them).
    ``is_order``: whether a line is in the game's command language (for
    the greeting and sign-off rule, :mod:`pbem.mail.reading`).
    ``order_words``: the game's command-language words, folded
    (:meth:`pbem.engine.api.Game.order_words`): with them a line of plain
    prose anywhere is set aside, not refused (:func:`reading.is_prose`).
    ``by_patterns``: :func:`extract_new_text` of ``body`` when the caller
    has it already (the inbound parser computed it), so it is not
    computed twice.

    The copy of the notice is looked for by its words first; without one,
    :func:`extract_new_text`'s patterns cut the quote. Returns a
    :class:`Reading` (``found`` tells which way was taken). Never raises on
    any ``str``."""
    new, found = new_lines(body, notice_texts=notice_texts, sender_tokens=sender_tokens, is_order=is_order,
                           by_patterns=by_patterns)
    orders, ignored = split_letter(new, is_order, order_words)
    return Reading(orders=orders, ignored=[l[:200] for l in ignored[:MAX_IGNORED]], found=found,
                   first_lines=first_lines(body))


def new_lines(body: str, *, notice_texts: Iterable[str] = (), sender_tokens: Iterable[str] = (),
              is_order: Callable[[str], bool] | None = None, by_patterns: str | None = None) -> tuple[list[str], bool]:
    """``(lines, found)``: the newly written lines of a reply (stripped, blank
    lines between paragraphs kept), the quoted copy of the notice, its
    header, signatures and footers removed, as :func:`read_reply` reads them
    before telling orders from prose (table talk reads a message from them,
    issue 26); ``found``: the copy was located by its words. Same
    arguments as :func:`read_reply`; never raises on any ``str``."""
    texts = [t for t in notice_texts if t]
    text = _normalise(body)
    lines = text.split("\n")
    texts = [_normalise(t) for t in texts]
    match = quotes.find_notice(lines, texts) if texts else None
    if match is not None:
        top = quote_header.header_start(lines, match.start, sender_tokens)
        if not quotes.depth(lines[match.start]):
            copy, above = quote_header.copy_start(lines, match.start, sender_tokens)
            # an older notice's opening is never an order the game reads
            if not (is_order and any(is_order(l.strip()) for l in lines[copy:match.start] if l.strip())):
                top = above
        new = _new_blocks(lines, match, top)
    else:
        new = _clean_block((extract_new_text(body) if by_patterns is None else by_patterns).split("\n"))
    return _without_notice_lines(new, texts, is_order), match is not None
