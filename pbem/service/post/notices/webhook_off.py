"""Tells a player that one of their API webhooks was switched off after
too many failed calls (issue 28; :mod:`pbem.service.post.webhook_notice`)."""
from pbem.service.post.notices.kind import ANSWER, Notice

NOTICE = Notice(kind="webhook_off", audience=ANSWER, builder="pbem.service.post.webhook_notice.hook_disabled",
                key=lambda hook, failures: f"webhook_off:{hook}:{failures}")
