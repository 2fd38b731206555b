"""A missed turn (the seat's own, or another seat's)."""
from pbem.service.post.notices.kind import NEWS, Notice

NOTICE = Notice(kind="missed", audience=NEWS, builder="pbem.service.post.notify.after_change",
                key=lambda game, step, seat: f"missed:{game}:{step}:{seat}")
