"""The host moved the deadline."""
from pbem.service.post.notices.kind import NEWS, Notice

NOTICE = Notice(kind="extended", audience=NEWS, builder="pbem.service.post.host_notice.tell",
                key=lambda game, step, seat, ms: f"extended:{game}:{step}:{seat}:{ms}")
