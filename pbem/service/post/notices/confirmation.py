"""Orders mailed in were applied."""
from pbem.service.post.notices.kind import ANSWER, Notice

NOTICE = Notice(kind="confirmation", audience=ANSWER, builder="pbem.service.post.notify.order_answer",
                key=lambda message_id: f"inbound:{message_id}")
