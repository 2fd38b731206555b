"""Finding text that is not marked for translation (issue 16).

Templates: Jinja2's own lexer splits a template into its text (``data``
tokens) and its tags. The text outside ``{% trans %}...{% endtrans %}``
blocks is put back together, with every tag and expression replaced by a
neutral ``_`` (no letters) except the string literals an expression may
print (``{{ 'paused' if p else 'running' }}``, not inside a gettext
call), and read:

- an ``.html`` template with :class:`html.parser.HTMLParser`: the text
  between tags and the attributes a reader sees or hears (``title``,
  ``alt``, ``placeholder``, ``aria-label``...) must hold no words; the
  markup itself (tag and attribute names, classes, ids) is not text;
- a ``.txt`` template: all of its text.

A "word" is a run of letters that is not on :data:`ALLOWED`: the brand
name, board coordinates (``F7``, ``T20N``; they are the same in every
language), and the markup's own escapes.

Python (``pbem/web/*.py``): :func:`unmarked_python` walks the AST and
reports a string literal, f-string or string built with ``+``/``%`` where
a message reaches the player: the arguments of ``flash``, ``abort``,
``page``, ``ServiceError``, ``ControlCharacter``, ``SubmitResult(message=)``
and the host-action helper, the values of ``problem``/``note``/``title``,
what the message helpers return, and the message tables. Text there must
come from ``gettext``/``ngettext``/``lazy_gettext`` (or a translated
engine/service message, through ``said``/``translated``).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from jinja2 import Environment

#: letters that may stand outside the markers, with the reason
ALLOWED = [
    re.compile(r"^pbem$"),                          # the brand, the same in every language
    re.compile(r"^[A-Z]{1,2}\d{1,2}([NESW]{1,2})?$"),  # board coordinates: F7, T20N, U20NE
    re.compile(r"^(nbsp|lt|gt|amp|quot|hellip|mdash|ndash|middot)$"),  # HTML entities
]
#: attributes whose values a reader sees (tooltips, placeholders) or a screen reader speaks
VISIBLE_ATTRIBUTES = frozenset({"title", "alt", "placeholder", "aria-label", "aria-description",
                                "aria-roledescription", "label", "summary"})
#: a ``{% block ...class %}`` holds CSS class names (``{% block mainclass %}wide{% endblock %}``)
CLASS_BLOCK_SUFFIX = "class"
#: elements whose content is not text for a reader
SILENT_ELEMENTS = frozenset({"script", "style"})

@dataclass(frozen=True)
class Unmarked:
    """Text found outside the markers: ``where`` (file:line) and the text."""

    where: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text!r}"


def words(text: str) -> list[str]:
    """The words of ``text`` that are not on :data:`ALLOWED`."""
    found = []
    for m in re.finditer(r"[^\W_]+", text, re.UNICODE):
        token = m.group(0)
        if not any(ch.isalpha() for ch in token):
            continue
        if any(p.match(token) for p in ALLOWED):
            continue
        found.append(token)
    return found


_ENV = Environment(extensions=["jinja2.ext.i18n"])
#: calls whose string arguments are msgids or URLs, not printed text
_MARKED_CALLS = frozenset({"_", "gettext", "ngettext", "pgettext", "url_for"})
#: a string after one of these is compared, passed or a key, not printed
_NOT_PRINTED_AFTER = frozenset({"==", "!=", "<", ">", "<=", ">=", "(", ",", "{", "[", "in", "is", "~"})


def printed_literals(tokens: list[tuple[str, str]]) -> str:
    """The string literals a ``{{ }}`` expression may print, space-joined
    (``{{ 'paused' if p else 'running' }}``), so that the HTML reader sees
    them where they land: as text (flagged), or inside a tag (a class, an
    attribute name: not text). Expressions calling gettext print nothing
    unmarked; compared strings, arguments and keys are not printed."""
    tokens = [(k, v) for k, v in tokens if k != "whitespace"]
    if any(k == "name" and v in _MARKED_CALLS for k, v in tokens):
        return ""
    printed, before = [], None
    for kind, value in tokens:
        if kind == "string" and before not in _NOT_PRINTED_AFTER:
            printed.append(re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdifgx]", "", value[1:-1]))  # '%02d:00' is a format
        before = value
    return " ".join(printed)


def skeleton(source: str) -> str:
    """The template's text outside ``{% trans %}`` blocks, every tag,
    expression and comment replaced by ``_`` (its line breaks kept, so
    line numbers still match)."""
    out: list[str] = []
    in_block = False    # between {% and %}
    block_words: list[str] = []
    trans_depth = 0
    blocks: list[str] = []  # names of the open {% block %}s
    expression: list[tuple[str, str]] | None = None  # the tokens of an open {{ }}
    for _lineno, kind, value in _ENV.lexer.tokeniter(source, "template"):
        if kind == "variable_begin":
            expression = []
        elif kind == "variable_end" and expression is not None:
            printed = "" if trans_depth else printed_literals(expression)
            out.append("_" + printed + "_" + "\n" * sum(v.count("\n") for _k, v in expression))
            expression = None
            continue
        elif expression is not None:
            expression.append((kind, str(value)))
            continue
        if kind == "data" and not in_block:
            hidden = trans_depth or (blocks and blocks[-1].endswith(CLASS_BLOCK_SUFFIX))
            out.append("_" + "\n" * value.count("\n") if hidden else value)
            continue
        if kind == "block_begin":
            in_block, block_words = True, []
        elif kind == "name" and in_block:
            block_words.append(value)
        elif kind == "block_end" and in_block:
            in_block = False
            if block_words[:1] == ["trans"]:
                trans_depth += 1
            elif block_words[:1] == ["endtrans"]:
                trans_depth = max(0, trans_depth - 1)
            elif block_words[:1] == ["block"]:
                blocks.append(block_words[1] if len(block_words) > 1 else "")
            elif block_words[:1] == ["endblock"] and blocks:
                blocks.pop()
        out.append("_" + "\n" * str(value).count("\n"))
    return "".join(out)


class _Reader(HTMLParser):
    def __init__(self, name: str) -> None:
        super().__init__(convert_charrefs=True)
        self.name, self.found, self.silent = name, [], 0

    def _check(self, text: str) -> None:
        bad = words(text)
        if bad:
            self.found.append(Unmarked(f"{self.name}:{self.getpos()[0]}", " ".join(text.split())[:80]))

    def handle_starttag(self, tag, attrs):
        if tag in SILENT_ELEMENTS:
            self.silent += 1
        for attr, value in attrs:
            if attr in VISIBLE_ATTRIBUTES and value:
                self._check(value)

    def handle_startendtag(self, tag, attrs):
        for attr, value in attrs:
            if attr in VISIBLE_ATTRIBUTES and value:
                self._check(value)

    def handle_endtag(self, tag):
        if tag in SILENT_ELEMENTS and self.silent:
            self.silent -= 1

    def handle_data(self, data):
        if not self.silent:
            self._check(data)


def unmarked_template(source: str, name: str) -> list[Unmarked]:
    """Text of template ``source`` (called ``name``) outside the markers."""
    text = skeleton(source)
    if name.endswith(".html"):
        reader = _Reader(name)
        reader.feed(text)
        reader.close()
        return reader.found
    found = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if words(line):
            found.append(Unmarked(f"{name}:{lineno}", line.strip()[:80]))
    return found


def unmarked_templates(folder: Path) -> list[Unmarked]:
    """:func:`unmarked_template` over every ``.html``/``.txt`` under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".html", ".txt") and path.is_file():
            found += unmarked_template(path.read_text(encoding="utf-8"), str(path.relative_to(folder)))
    return found


# --- Python -----------------------------------------------------------------

#: function name -> which arguments carry a message (positions; "*" all; names of keywords)
SINKS: dict[str, tuple] = {
    "flash": (0,),
    "abort": (1, "description"),
    "page": (1, "message", "title"),
    "ServiceError": (0,),
    "ControlCharacter": (0,),
    "SubmitResult": ("message",),
    "_host_action": (2, "done"),
}
#: variables and attributes holding a message for the page
MESSAGE_NAMES = frozenset({"problem", "note", "title", "message", "done"})
#: functions whose return value is a message
MESSAGE_FUNCTIONS = frozenset({"_token_problem", "_describe", "_wait_text", "_after_sending", "time_left",
                               "_save", "deadline_text"})
#: module-level tables of messages
MESSAGE_TABLES = frozenset({"MESSAGES", "MODE_LABELS", "MODE_NAMES", "STATUS_NAMES"})
#: calls whose result is translated text
TRANSLATING = frozenset({"gettext", "ngettext", "lazy_gettext", "_", "pgettext", "said", "translated",
                         "format_deadline", "format_timedelta", "format_decimal", "str", "repr"})


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        f = node.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    return None


def _plain_text(node: ast.AST | None) -> bool:
    """Whether ``node`` builds player-facing text without gettext."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(words(node.value))
    if isinstance(node, ast.JoinedStr):
        return any(_plain_text(v) for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _plain_text(node.left) or _plain_text(node.right)
    if isinstance(node, ast.IfExp):
        return _plain_text(node.body) or _plain_text(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(_plain_text(v) for v in node.values)
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(_plain_text(v) for v in node.elts)
    if isinstance(node, ast.Dict):
        return any(_plain_text(v) for v in node.values)
    if isinstance(node, ast.Call):
        name = _call_name(node)
        if name in TRANSLATING:
            return False
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("join", "format"):
            return _plain_text(node.func.value) or any(_plain_text(a) for a in node.args)
        return False
    return False


def unmarked_python(source: str, name: str) -> list[Unmarked]:
    """Player-facing text in module ``source`` not built with gettext."""
    tree = ast.parse(source)
    found: list[Unmarked] = []

    def report(node: ast.AST, what: str) -> None:
        found.append(Unmarked(f"{name}:{node.lineno}", f"{what}: {ast.unparse(node)[:90]}"))

    def visit(node: ast.AST, function: str | None) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if isinstance(node, ast.Call):
            sink = SINKS.get(_call_name(node) or "")
            if sink:
                for i, arg in enumerate(node.args):
                    if i in sink and _plain_text(arg):
                        report(arg, f"{_call_name(node)}() argument")
                for kw in node.keywords:
                    if kw.arg in sink and _plain_text(kw.value):
                        report(kw.value, f"{_call_name(node)}({kw.arg}=)")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                label = t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else None
                if label in MESSAGE_NAMES | MESSAGE_TABLES and _plain_text(node.value):
                    report(node.value, f"{label} =")
        elif isinstance(node, ast.Return) and function in MESSAGE_FUNCTIONS and _plain_text(node.value):
            report(node.value, f"{function}() returns")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, None)
    return found
