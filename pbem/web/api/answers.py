"""What the API answers to orders (issue 28): the lines as read, the
refusal as a problem (``orders-refused`` 422 or ``orders-stale`` 409, with
``lines`` and ``legal``), the acceptance as :class:`OrdersOut`. All texts
in the token owner's language, as the order page and the mail answer say
them (:class:`pbem.service.play.submission.SubmitResult`)."""
from __future__ import annotations

from pbem.i18n import translate
from pbem.service.core.echo import order_in
from pbem.service.play.api_orders import Answer
from pbem.service.play.submission import SubmitResult
from pbem.web.api.access import lang
from pbem.web.api.problems import ApiProblem, problem_body
from pbem.web.api.schemas import Line, OrdersOut


def lines_out(result: SubmitResult, language: str) -> list[Line]:
    return [Line(text=l.text, order=order_in(l.order, language) if l.order else None,
                 error=l.error_in(language), checked=l.checked, held=l.held) for l in result.lines]


def _refusal_parts(result: SubmitResult, language: str) -> tuple[str, str, dict]:
    kind = "orders-stale" if result.status == "stale" else "orders-refused"
    members = {"lines": [l.model_dump() for l in lines_out(result, language)],
               "legal": [order_in(o, language) for o in result.legal]}
    return kind, translate(result.reason(), language), members


def refusal(result: SubmitResult) -> ApiProblem:
    """The refused or stale ``result`` as a problem to raise."""
    kind, detail, members = _refusal_parts(result, lang())
    return ApiProblem(kind, detail, **members)


def submission_answer(language: str):
    """``result -> Answer``: what an order request is answered (kept under
    its Idempotency-Key; :func:`pbem.service.play.api_orders.submit_once`)."""
    def answer(result: SubmitResult) -> Answer:
        if not result.accepted:
            kind, detail, members = _refusal_parts(result, language)
            body = problem_body(kind, detail, **members)
            return Answer(body["status"], body)
        out = OrdersOut(status=result.status, message=translate(result.message, language),
                        applied=[order_in(o, language) for o in result.applied],
                        held=[order_in(o, language) for o in result.held], lines=lines_out(result, language),
                        resolved=result.resolved, step=result.step, goes_on=result.goes_on,
                        owes=translate(result.owes, language) if result.owes else None)
        return Answer(200, out.model_dump(mode="json"))

    return answer
