"""Did our own mail server authenticate the sender? ``Authentication-Results``
(RFC 8601) read with the ``authres`` library.

Only the results our receiving MTA wrote count. It writes its
``Authentication-Results`` at the top of the header, names itself in it with
its authserv-id, and (RFC 8601 §5) removes or renames any header with that id
that came from outside. So only the topmost run of ``Authentication-Results``
fields whose authserv-id is one of ours is read: a field from anyone else
above them means they are not the newest, and anything below the first
foreign field is ignored, whatever id it names.

A sender is authenticated when one of those fields says ``dmarc=pass`` for
the From domain (``header.from``) or ``spf=pass`` for it (``smtp.mailfrom``
in that domain: strict alignment), and none of them says ``dmarc=fail`` for
it. DKIM alone does not count.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import authres

__all__ = ["Verdict", "sender_authenticated", "MAX_FIELDS", "MAX_FIELD_CHARS"]

#: topmost ``Authentication-Results`` fields read
MAX_FIELDS = 3
#: a longer field is not read (the parser is quadratic in the number of
#: properties and comments: 4000 characters take 50 ms); an MTA's own is
#: a few hundred
MAX_FIELD_CHARS = 1200
#: nor one with more ``=`` (results and properties) than this; a real one
#: has about ten
MAX_EQUALS = 40


@dataclass(frozen=True)
class Verdict:
    """``ok``: the From domain passed DMARC or SPF at our MTA; ``detail``:
    what was found, for the log and the mail's record."""

    ok: bool
    detail: str


def _domain(value: str | None) -> str:
    value = (value or "").strip().strip("<>").lower().rstrip(".")
    return value.rpartition("@")[2]


def _parse(value: str):
    if len(value) > MAX_FIELD_CHARS or value.count("=") > MAX_EQUALS:
        return None
    try:
        return authres.parse_value(value)
    except (authres.AuthResError, ValueError, IndexError, RecursionError):
        return None


def _props(result) -> dict[str, str]:
    return {f"{p.type}.{p.name}".lower(): str(p.value or "") for p in (result.properties or [])}


def trusted_results(values: Sequence[str], authserv_ids: Iterable[str]) -> list:
    """The parsed results of the topmost run of fields from ``authserv_ids``
    (``values`` in header order, topmost first)."""
    ours = {a.strip().lower() for a in authserv_ids if a.strip()}
    results = []
    for value in values[:MAX_FIELDS]:
        words = value.split(";", 1)[0].split()
        if not words or words[0].lower() not in ours:
            break  # not ours (checked before the costly parse)
        header = _parse(value)
        if header is None or (header.authserv_id or "").lower() not in ours:
            break
        results.extend(header.results)
    return results


def sender_authenticated(values: Sequence[str], from_address: str, authserv_ids: Iterable[str]) -> Verdict:
    """Whether our MTA's ``Authentication-Results`` (``values``: the raw,
    unfolded field values, topmost first) pass DMARC or SPF for the domain
    of ``from_address``."""
    domain = _domain(from_address)
    results = trusted_results(values, authserv_ids)
    if not results:
        return Verdict(False, "no Authentication-Results from our mail server")
    passed = []
    for r in results:
        method, outcome, props = (r.method or "").lower(), (r.result or "").lower(), _props(r)
        if method == "dmarc" and _domain(props.get("header.from")) == domain:
            if outcome == "fail":
                return Verdict(False, f"dmarc=fail for {domain}")
            if outcome == "pass":
                passed.append("dmarc")
        elif method == "spf" and outcome == "pass" and _domain(props.get("smtp.mailfrom")) == domain:
            passed.append("spf")
    if passed:
        return Verdict(True, f"{'+'.join(sorted(set(passed)))}=pass for {domain}")
    return Verdict(False, f"neither dmarc nor spf passed for {domain}")
