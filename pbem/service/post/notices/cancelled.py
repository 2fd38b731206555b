"""The host cancelled the game."""
from pbem.service.post.notices.kind import TURN, Notice

NOTICE = Notice(kind="cancelled", audience=TURN, builder="pbem.service.post.host_notice.tell",
                key=lambda game, step, seat, ms: f"cancelled:{game}:{step}:{seat}:{ms}")
