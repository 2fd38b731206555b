"""The host made the game watchable (or a new spectator link): the link, kept in the host's mail (issue 25)."""
from pbem.service.post.notices.kind import ANSWER, Notice

NOTICE = Notice(kind="watchable", audience=ANSWER, builder="pbem.service.post.watch_notice.tell",
                key=lambda game, link: f"watchable:{game}:{link}")
