"""A call to a webhook of a player's API token (issue 28;
:mod:`pbem.service.post.webhook_post`): no mail, no mail preferences (the
player registered the hook); delivered and retried by
:mod:`pbem.service.post.delivery` through :mod:`pbem.service.post.webhook_delivery`."""
from pbem.service.post.notices.kind import CHANNEL, Notice

NOTICE = Notice(kind="webhook", audience=CHANNEL, builder="pbem.service.post.webhook_post.after_change",
                key=lambda hook, call: f"webhook:{hook}:{call}")
