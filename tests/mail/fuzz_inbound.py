"""Coverage-guided fuzzing of the inbound parser with atheris (libFuzzer).

    .venv/bin/python tests/mail/fuzz_inbound.py CORPUS_DIR -runs=100000 -max_len=8192

CORPUS_DIR is written to (start it as a copy of tests/mail/fixtures).
Anything raised other than an InboundRejected is a crash.
"""
import sys

import atheris

with atheris.instrument_imports():
    from pbem.mail import inbound, reply_text  # noqa: F401


def one_input(data: bytes) -> None:
    try:
        mail = inbound.parse_inbound(data, own_addresses=["play@pbem.example"])
    except inbound.InboundRejected:
        return
    assert isinstance(mail.text, str)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
