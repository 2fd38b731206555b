"""Every engine writes every player-facing message as a translatable Msg.

Over random legal play (hypothesis picks the seed and the policy), every
event text, decision banner, rules-section question, phase name, sentence
of the text view, the order help and every refusal (parse errors, illegal and out-of-turn orders,
explanations) the engines
produce is a :class:`Msg` whose English text is its template filled with its
parameters, whose game words are ``Msg`` too, and whose templates are all
found by ``pybabel extract`` (the keywords of ``babel.cfg``), so the catalogs
can hold them.
"""
from __future__ import annotations

import ast
import functools
import random
from pathlib import Path

from babel.messages.extract import extract_from_dir
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.engine import GAMES, OrderError
from pbem.engine.diestadt.grid import space_name
from pbem.engine.fold import LANGUAGES
from pbem.engine.lacitta.board import SITES as LACITTA_SITES
from pbem.engine.medina import board as MB
from pbem.engine.messages import BY_LANGUAGE, Msg
from pbem.engine.phrases import and_list, join, or_list, semi_list

PBEM_DIR = Path(__file__).resolve().parents[2] / "pbem"
ENGINE_DIR = PBEM_DIR / "engine"
SITES = {
    "lacitta": sorted(LACITTA_SITES),
    "medina": [MB.square_name(i) for i in range(MB.SQUARES)] + [MB.wall_name(w) for w in range(MB.WALLS)],
    "diestadt": [space_name(i) for i in range(40 * 40)],
}
JUNK = ["", "xyzzy", "build", "build farm", "build farm Z99", "build castle F6", "palace", "palace F6",
        "palace orange W3", "wall E5", "dome", "gold 3", "pass now", "found", "found F6 from",
        "wish", "wish E3 beauty", "starve E3 x", "starve", "citizens 5", "golden age F6 x4",
        "bread and games F6 x2 culture purple", "master builder F6", "rich harvest", "castle",
        "merchant W3", "stable", "grey black F6", "palace dome F6", "kulta 3", "F6"]
SLOW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.lru_cache(maxsize=1)
def extracted() -> frozenset[str]:
    """Every msgid (singular and plural) pybabel finds in the engines."""
    found = set()
    for _, _, message, _, _ in extract_from_dir(
            str(ENGINE_DIR), method_map=[("**.py", "python")],
            keywords={"Msg": None, "Msgn": (1, 2), "Msgc": ((1, "c"), 2)}):
        found.update(message if isinstance(message, tuple) else (message,))
    return frozenset(found)


def literal_templates(path: Path):
    """(line, template) of every ``Msg("...")`` / ``Msgn("...", "...")`` in a module."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Msg", "Msgn", "Msgc"):
            for arg in {"Msg": node.args[:1], "Msgn": node.args[:2], "Msgc": node.args[1:2]}[node.func.id]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield node.lineno, arg.value


def test_pybabel_finds_every_message_written_in_the_code():
    """A Msg written inside a call inside another Msg's parameters
    (``Msg("a {x}", x=join([Msg("b")]))``) is not extracted: such a message
    would never be translated."""
    found = set()
    for _, _, message, _, _ in extract_from_dir(str(PBEM_DIR), method_map=[("**.py", "python")],
                                                keywords={"Msg": None, "Msgn": (1, 2), "Msgc": ((1, "c"), 2)}):
        found.update(message if isinstance(message, tuple) else (message,))
    missed = [f"{path.relative_to(PBEM_DIR.parent)}:{line} {text!r}"
              for path in sorted(PBEM_DIR.rglob("*.py")) for line, text in literal_templates(path)
              if text not in found]
    assert not missed, "not extracted: " + "; ".join(missed)


def check_msg(m, where: str) -> None:
    """``m`` is a Msg: English = template.format(params), templates
    extracted, every parameter a Msg (checked in turn), an int or a plain
    str that holds no letters of a word (sites, numbers, order texts)."""
    assert isinstance(m, Msg), f"{where}: {m!r} is a plain {type(m).__name__}, not a Msg"
    if m.context == BY_LANGUAGE:     # order words an engine wrote in every language (messages.said)
        assert set(m.params) == set(LANGUAGES) and all(isinstance(v, str) for v in m.params.values()), where
        return
    template = m.template if m.plural is None or m.n == 1 else m.plural
    assert str(m) == template.format(**m.params), where
    assert m.template in extracted(), f"{where}: template not extractable: {m.template!r}"
    if m.plural is not None:
        assert m.plural in extracted(), f"{where}: plural not extractable: {m.plural!r}"
    for key, value in m.params.items():
        if isinstance(value, Msg):
            check_msg(value, f"{where}/{key}")
        else:
            assert isinstance(value, (int, str)), f"{where}/{key}: {value!r}"


def checked_text(name: str):
    """A ``tr`` for ``view_text`` that checks every sentence it is given."""
    def tr(m) -> str:
        if m != "":
            check_msg(m, f"{name} view text")
        return str(m)
    return tr


def check_position(state, name: str) -> None:
    check_msg(state.phase(), f"{name} phase")
    for seat in [None, *state.current_seats()]:
        view = state.view(seat)
        check_msg(view["rules_section"]["question"], f"{name} rules question")
        assert state.game.view_text(view, checked_text(name)) == state.game.view_text(view)
        banner = view.get("decision")
        if banner:
            for key in ("owes", "why", "rule"):
                check_msg(banner[key], f"{name} decision {banner['kind']} {key}")


def check_refusals(game, state, rng: random.Random, name: str, stale: list[str]) -> None:
    """Junk, mutated, stale and out-of-turn orders: every refusal is a Msg."""
    now = state.current_seats()
    seat = now[0]
    texts = [a.to_text() for a in state.legal_actions(seat)]
    tries = [rng.choice(JUNK)]
    for text in rng.sample(texts, min(3, len(texts))):
        words = text.split()
        words[-1] = rng.choice(SITES[name])                   # the same order elsewhere
        tries.append(" ".join(words))
    tries += rng.sample(stale, min(2, len(stale)))          # orders of an earlier step
    before = state.to_json()
    for text in tries:
        try:
            game.parse_action(state, seat, text)
        except OrderError as err:
            check_msg(err.message, f"{name} refusal of {text!r}")
            assert str(err) == err.message
    others = [s for s in range(state.seats) if s not in now]
    if others and texts:
        try:
            game.parse_action(state, rng.choice(others), rng.choice(texts))
            raise AssertionError("an out-of-turn order was read")
        except OrderError as err:
            check_msg(err.message, f"{name} out-of-turn refusal")
        try:
            state.apply(rng.choice(others), state.legal_actions(seat)[0])
            raise AssertionError("an out-of-turn order was applied")
        except OrderError as err:
            check_msg(err.message, f"{name} out-of-turn apply")
    assert state.to_json() == before, "a refusal changed the state"


def play(name: str, seats: int, seed: int, policy: int, options: dict) -> int:
    game = GAMES[name]
    state = game.new_state(seats, seed, **options)
    check_msg(game.order_help(), f"{name} order help")
    rng = random.Random(policy)
    stale: list[str] = []
    events = 0
    for step in range(5000):
        check_position(state, name)
        if state.is_terminal():
            return events
        if step % 3 == 0:
            check_refusals(game, state, rng, name, stale)
        seat = rng.choice(state.current_seats())
        legal = state.legal_actions(seat)
        stale = [a.to_text() for a in legal]
        action = legal[0] if rng.random() < 0.2 else rng.choice(legal)
        for e in state.apply(seat, action):
            check_msg(e.text, f"{name} event {e.kind}")
            events += 1
    raise AssertionError("the game did not end")


@SLOW
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32),
       setup=st.sampled_from(["beginner", "experienced"]))
def test_lacitta_writes_every_message_as_a_translatable_msg(seats, seed, policy, setup):
    game = GAMES["lacitta"]
    seats = min(max(seats, game.min_seats), game.max_seats)
    assert play("lacitta", seats, seed, policy, {"setup": setup}) > 0


@SLOW
@given(seats=st.integers(3, 4), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_medina_writes_every_message_as_a_translatable_msg(seats, seed, policy):
    assert play("medina", seats, seed, policy, {}) > 0


@SLOW
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_diestadt_writes_every_message_as_a_translatable_msg(seats, seed, policy):
    assert play("diestadt", seats, seed, policy, {}) > 0


items = st.lists(st.one_of(st.sampled_from(["F6", "C3", "12"]),
                           st.builds(Msg, st.sampled_from(["culture", "health", "grey"]))),
                 max_size=5)


@given(items)
def test_lists_of_words_read_as_plain_joins_and_keep_their_words(xs):
    for fn, sep in ((join, ", "), (and_list, " and "), (or_list, " or "), (semi_list, "; ")):
        out = fn(xs)
        assert out == sep.join(xs)
        if len(xs) > 1 and (sep.strip() in ("and", "or") or any(isinstance(x, Msg) for x in xs)):
            check_msg(out, fn.__name__)
