"""The host resumed the game."""
from pbem.service.post.notices.kind import NEWS, Notice

NOTICE = Notice(kind="resumed", audience=NEWS, builder="pbem.service.post.host_notice.tell",
                key=lambda game, step, seat, ms: f"resumed:{game}:{step}:{seat}:{ms}")
