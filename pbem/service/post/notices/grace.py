"""A late seat's one grace: the game waits for it, until when (issue 25)."""
from pbem.service.post.notices.kind import TURN, Notice

NOTICE = Notice(kind="grace", audience=TURN, builder="pbem.service.post.grace_notice.tell",
                key=lambda game, seat: f"grace:{game}:{seat}")
