""""Your move": a seat is asked to act (composed at delivery)."""
from pbem.service.post.notices.kind import TURN, Notice

NOTICE = Notice(kind="turn", audience=TURN, builder="pbem.service.post.notify.turn_notice",
                key=lambda game, step, seat, suffix="": f"turn:{game}:{step}:{seat}{suffix}")
