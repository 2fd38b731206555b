"""The game's end and the final scores."""
from pbem.service.post.notices.kind import TURN, Notice

NOTICE = Notice(kind="over", audience=TURN, builder="pbem.service.post.notify.game_over",
                key=lambda game, seat: f"over:{game}:{seat}")
