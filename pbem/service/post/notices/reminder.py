"""A reminder (``deadline``: the deadline's Unix time, so a moved deadline reminds again) before the deadline of a seat that has not moved."""
from pbem.service.post.notices.kind import TURN, Notice

NOTICE = Notice(kind="reminder", audience=TURN, builder="pbem.service.post.notify.reminder",
                key=lambda game, step, seat, deadline: f"reminder:{game}:{step}:{seat}:{deadline}")
