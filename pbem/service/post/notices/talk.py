"""Table talk: the messages a seat has not seen yet, in one mail (issue 26;
:mod:`pbem.service.play.talk_mail`). Sent as ``Player.talk_mail`` says."""
from pbem.service.post.notices.kind import TALK, Notice

NOTICE = Notice(kind="talk", audience=TALK, builder="pbem.service.play.talk_mail.send_due",
                key=lambda game, seat, player, upto: f"talk:{game}:{seat}:{player}:{upto}")
