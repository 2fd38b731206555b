"""Engine messages: English text that keeps its template for translation."""
import json
import pickle

from hypothesis import given, strategies as st

from pbem.engine.messages import Msg, Msgn, msg_from_json

words = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@given(site=words, n=st.integers(min_value=0, max_value=99))
def test_msg_reads_as_its_english_text_and_survives_json_and_pickle(site, n):
    m = Msgn("{n} citizen leaves {site}.", "{n} citizens leave {site}.", n,
             site=Msg("the castle at {s}", s=site))
    english = f"{n} citizen{'' if n == 1 else 's'} leave{'s' if n == 1 else ''} the castle at {site}."
    assert m == english
    for back in (msg_from_json(json.loads(json.dumps(m.to_json()))), pickle.loads(pickle.dumps(m))):
        assert back == m
        assert (back.template, back.plural, back.n) == (m.template, m.plural, m.n)
        assert isinstance(back.params["site"], Msg)


def test_plain_values_pass_msg_from_json_unchanged():
    assert msg_from_json({"t": 1}) == {"t": 1}
    assert msg_from_json("F7") == "F7"


def test_a_message_in_context_keeps_it_through_json_and_pickle():
    from pbem.engine.messages import Msgc

    m = Msgc("Die Stadt", "{n} merchant", n=2)
    assert m == "2 merchant" and m.context == "Die Stadt"
    for back in (msg_from_json(json.loads(json.dumps(m.to_json()))), pickle.loads(pickle.dumps(m))):
        assert back == m and back.context == "Die Stadt" and back.template == m.template


def test_die_stadts_follower_is_translated_apart_from_medinas_merchant():
    """One English word, two games' terms: the catalogs hold Die Stadt's
    follower under the context "Die Stadt" (pgettext)."""
    from pbem.engine.messages import Msgc
    from pbem.i18n import translate, translations

    for lang in ("cs", "de"):
        follower = translate(Msgc("Die Stadt", "merchant"), lang)
        assert follower == translations(lang).pgettext("Die Stadt", "merchant")
        assert follower not in ("merchant", translate(Msg("merchant"), lang))
