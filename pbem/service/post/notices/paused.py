"""The host paused the game."""
from pbem.service.post.notices.kind import NEWS, Notice

NOTICE = Notice(kind="paused", audience=NEWS, builder="pbem.service.post.host_notice.tell",
                key=lambda game, step, seat, ms: f"paused:{game}:{step}:{seat}:{ms}")
