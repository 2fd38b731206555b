"""The day's held notices in one mail."""
from pbem.service.post.notices.kind import DIGEST, Notice

NOTICE = Notice(kind="digest", audience=DIGEST, builder="pbem.service.post.digest.send_due",
                key=lambda player, due: f"digest:{player}:{due:%Y-%m-%dT%H}")
