"""Every string a player reads is marked for translation (issue 16: "a test
fails when a template or Python message is not marked for translation").

- Templates: each template folder is one case (``web``: the page
  templates; ``mail``: the mail templates), so a failure names the folder
  and lists every file and line with text outside ``_()``/``{% trans %}``.
- Python: the web layer's messages (``flash``, ``abort``, error pages,
  refusals, message tables) are gettext calls (AST check over
  ``pbem/web/*.py``).
- The checks themselves: each catches what it is for and lets marked text
  through (:mod:`tests.i18n.marking`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n.marking import unmarked_python, unmarked_template, unmarked_templates

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_FOLDERS = {
    "web": ROOT / "pbem" / "web" / "templates",
    "mail": ROOT / "pbem" / "mail" / "templates",
}
#: template folders no player reads: the developer's mail viewer (/dev/mail,
#: only with DEV_MAIL on, as ``pbem demo`` sets it) stays English
DEVELOPER_ONLY = ("dev_mail/",)


@pytest.mark.parametrize("folder", sorted(TEMPLATE_FOLDERS), ids=sorted(TEMPLATE_FOLDERS))
def test_templates_have_no_text_outside_the_markers(folder):
    path = TEMPLATE_FOLDERS[folder]
    assert any(path.rglob("*.html")), f"no templates under {path}"
    found = [f for f in unmarked_templates(path) if not f.where.startswith(DEVELOPER_ONLY)]
    assert not found, (f"{len(found)} unmarked text(s) in the {folder} templates "
                       "(wrap them in _() or {% trans %}):\n" + "\n".join(map(str, found)))


@pytest.mark.parametrize("module", sorted(p.name for p in (ROOT / "pbem" / "web").glob("*.py")))
def test_web_messages_are_gettext_calls(module):
    path = ROOT / "pbem" / "web" / module
    found = unmarked_python(path.read_text(encoding="utf-8"), f"pbem/web/{module}")
    assert not found, "messages not built with gettext:\n" + "\n".join(map(str, found))


# --- the checks catch what they are for -------------------------------------------------

@pytest.mark.parametrize("source", [
    "<p>Your move</p>",
    "<p>{{ _('Your move') }} and more</p>",
    '<button title="Send the orders">{{ _("Send") }}</button>',
    '<input placeholder="e.g. {{ example }}">',
    '<span aria-label="{{ name }} (you)">x</span>',
    "{% trans %}Seat {{ n }}{% endtrans %} joined",
    "{% if x %}waiting{% endif %}",
    "<span class=\"pill\">{{ 'paused' if p else 'running' }}</span>",
    "<p>{{ {'invited': 'waiting for players', 'active': 'running'}[game.status] }}</p>",
    '<a title="{{ \'see the step\' if s }}">x</a>',
])
def test_unmarked_html_is_found(source):
    assert unmarked_template(source, "t.html"), source


@pytest.mark.parametrize("source", [
    "<p>{{ _('Your move') }}</p>",
    "<p>{% trans n=seat.number %}Seat {{ n }} joined{% endtrans %}</p>",
    "<p>{% trans count=n %}{{ count }} site{% pluralize %}{{ count }} sites{% endtrans %}</p>",
    '<section class="card boardcard" id="board-h" data-next="{{ url }}"><h2>{{ _("Board") }}</h2></section>',
    '<a class="brand" href="/">✉ pbem</a> · #{{ game.id }} « ◀ ▶ »',
    "<code>F7</code> <code>T20N</code> &nbsp;&mdash;",
    "<script>var next = 'choose';</script>",
    '<span title="{{ _(\'gold\') }}">{{ n }}</span>',
    '<li class="{{ \'bad\' if e else (\'ok\' if o else \'skipped\') }}" {{ \'open\' if n }}>{{ x }}</li>',
    "<p>{{ x if s == 'active' }} {{ names|join(', ') }} {{ _('cancelled') if c else status_names[s] }}</p>",
])
def test_marked_html_passes(source):
    assert unmarked_template(source, "t.html") == [], source


def test_unmarked_text_template_is_found_with_its_line():
    found = unmarked_template("{{ _('Hello') }}\n\nYour turn, {{ name }}.\n", "t.txt")
    assert [f.where for f in found] == ["t.txt:3"]
    assert unmarked_template("{% trans %}Hello {{ name }}{% endtrans %}\n-- \n{{ url }}\n", "t.txt") == []


@pytest.mark.parametrize("source", [
    'flash("Saved.")',
    'flash(f"Saved {x}.")',
    'flash("Sent: " + text)',
    'abort(404, f"There is no game {gid}.")',
    'raise ServiceError("Please choose a game.")',
    'problem = "Please give a name."',
    'MESSAGES = {400: ("Bad request", "The page could not understand.")}',
    'def _token_problem(err):\n    return "This link has expired."',
    'SubmitResult("refused", 1, 0, 0, message="The form did not say.")',
    '_host_action(gid, fn, "The game runs again.")',
    'flash("; ".join(parts) + " were sent.")',
])
def test_unmarked_python_is_found(source):
    assert unmarked_python(source, "m.py"), source


@pytest.mark.parametrize("source", [
    'flash(gettext("Saved."))',
    'flash(gettext("Saved %(zone)s.", zone=zone))',
    'flash(said(err), "error")',
    'abort(404)',
    'abort(403, gettext("Not yours."))',
    'raise ServiceError(gettext("Please choose a game."))',
    'problem = gettext("Please give a name.") if bad else None',
    'MESSAGES = {400: (lazy_gettext("Bad request"), lazy_gettext("The page could not understand."))}',
    'flash(ngettext("%(num)s hour later.", "%(num)s hours later.", n))',
    'limiter.limit("5 per minute; 20 per hour")',
    'x = "a plain string nobody reads"',
])
def test_marked_python_passes(source):
    assert unmarked_python(source, "m.py") == [], source


def test_a_plural_trans_block_counts_by_its_count():
    """Jinja2 picks a ``{% trans %}`` block's plural form by its *first*
    variable unless ``{% pluralize name %}`` names one: a block listing
    ``text=`` before ``count=`` crashed every translated page that showed it
    ("Plural value must be an integer")."""
    import re
    from pathlib import Path

    block = re.compile(r"{%-?\s*trans\b([^%]*)%}(.*?){%-?\s*endtrans", re.S)
    wrong = []
    for path in sorted((Path(__file__).resolve().parents[2] / "pbem").glob("**/templates/**/*.*")):
        for m in block.finditer(path.read_text(encoding="utf-8")):
            head, body = m.group(1), m.group(2)
            plural = re.search(r"{%-?\s*pluralize\s*(\w*)", body)
            if not plural or plural.group(1):
                continue
            names = re.findall(r"(\w+)\s*=", head)
            if names and names[0] != "count":
                wrong.append(f"{path}: trans {head.strip()[:60]}")
    assert not wrong, "\n".join(wrong)
