"""The host gave the player's seat to someone else."""
from pbem.service.post.notices.kind import TURN, Notice

NOTICE = Notice(kind="seat_given", audience=TURN, builder="pbem.service.play.replacement.seat_given_notice",
                key=lambda game, seat, player, at: f"seat_given:{game}:{seat}:{player}:{at}")
