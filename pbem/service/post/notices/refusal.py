"""Orders mailed in were refused, and why (or a reply with no orders read: ``notify.unread_answer``)."""
from pbem.service.post.notices.kind import ANSWER, Notice

NOTICE = Notice(kind="refusal", audience=ANSWER, builder="pbem.service.post.notify.order_answer",
                key=lambda message_id: f"inbound:{message_id}")
