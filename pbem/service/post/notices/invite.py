"""An invitation to a seat."""
from pbem.service.post.notices.kind import ACT, Notice

NOTICE = Notice(kind="invite", audience=ACT, builder="pbem.service.post.notify.invitation",
                key=lambda game, seat, suffix="": f"invite:{game}:{seat}{suffix}")
