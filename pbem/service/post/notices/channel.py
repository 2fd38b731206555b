"""A public event of a game posted to its group's chat channel through
Apprise (issue 26; :mod:`pbem.service.play.channel`): no player, no mail
preferences; delivered and retried by :mod:`pbem.service.post.delivery`."""
from pbem.service.post.notices.kind import CHANNEL, Notice

NOTICE = Notice(kind="channel", audience=CHANNEL, builder="pbem.service.post.channel_post.after_change",
                key=lambda game, event: f"channel:{game}:{event}")
