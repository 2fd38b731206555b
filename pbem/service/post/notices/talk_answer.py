"""A message mailed in was sent to the table, or why not (issue 26;
:mod:`pbem.service.inbound_talk`)."""
from pbem.service.post.notices.kind import ANSWER, Notice

NOTICE = Notice(kind="talk_answer", audience=ANSWER, builder="pbem.service.inbound_talk.answer",
                key=lambda message_id: f"talk-in:{message_id}")
