"""A mail sent in the player's name was not applied."""
from pbem.service.post.notices.kind import ANSWER, Notice

NOTICE = Notice(kind="not-applied", audience=ANSWER, builder="pbem.service.post.notify.not_applied",
                key=lambda message_id: f"inbound:{message_id}")
