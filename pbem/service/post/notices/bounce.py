"""Tells the host that mail to a player bounces for good."""
from pbem.service.post.notices.kind import HOST, Notice

NOTICE = Notice(kind="bounce", audience=HOST, builder="pbem.service.post.notify.bounce_notice",
                key=lambda player, row: f"bounce:{player}:{row}")
