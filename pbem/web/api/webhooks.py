"""``/api/v1/webhooks``: the token's webhooks (issue 28; docs/api.md):
list, register an https address (answered with its secret, once), remove.
Registration and removal are :mod:`pbem.service.accounts.webhooks`'s; the
calls are made by the outbox (:mod:`pbem.service.post.webhook_delivery`)."""
from __future__ import annotations

from flask import Response, g, request

from pbem.i18n import translate
from pbem.service.accounts import webhooks
from pbem.service.core.api_models import WEBHOOK_EVENTS
from pbem.service.core.errors import ServiceError
from pbem.web.api.access import lang
from pbem.web.api.core import route
from pbem.web.api.problems import ApiProblem
from pbem.web.api.schemas import NewWebhook, Problem, Webhook, WebhookIn, WebhookList


def _out(hook, cls=Webhook, **extra):
    return cls(id=hook.id, url=hook.url, events=list(WEBHOOK_EVENTS), created_at=hook.created_at,
               failures=hook.failures, disabled_at=hook.disabled_at, last_error=hook.last_error or "", **extra)


@route("/v1/webhooks", answers={"HTTP_200": WebhookList}, tags=("webhooks",))
def list_webhooks():
    """My token's webhooks

    Each with its failed calls in a row, and when and why it was
    disabled (after too many failed calls; register it again)."""
    return WebhookList(webhooks=[_out(h) for h in webhooks.hooks_of(g.api_token.id)])


@route("/v1/webhooks", methods=("POST",), json=WebhookIn, tags=("webhooks",),
       answers={"HTTP_201": NewWebhook, "HTTP_422": Problem})
def add_webhook():
    """Register a webhook

    An https:// address of a public server, called with a JSON body at
    "your move", "turn resolved" and "game over" in the games the token
    reaches, signed in ``Pbem-Signature: t=<unix>,v1=<hex>`` (HMAC-SHA256
    of ``<t>.<body>`` with the ``secret`` answered now, and only now)."""
    try:
        hook, secret = webhooks.register(g.api_token, request.context.json.url)
    except ServiceError as err:
        raise ApiProblem("invalid-request", translate(err.args[0] if err.args else str(err), lang()))
    return Response(_out(hook, NewWebhook, secret=secret).model_dump_json(), status=201,
                    mimetype="application/json")


@route("/v1/webhooks/<int:hook_id>", methods=("DELETE",), tags=("webhooks",),
       answers={"HTTP_204": None})
def remove_webhook(hook_id: int):
    """Remove a webhook"""
    try:
        webhooks.remove(g.api_token.id, hook_id)
    except ServiceError:
        raise ApiProblem("not-found", "This token has no such webhook.")
    return Response(status=204)
