"""The answer to an ``away`` line mailed in: the absence recorded, or why not (issue 25)."""
from pbem.service.post.notices.kind import ANSWER, Notice

NOTICE = Notice(kind="absence", audience=ANSWER, builder="pbem.service.post.absence_notice.answer",
                key=lambda message_id: f"away:{message_id}")
