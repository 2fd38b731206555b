"""A sign-in link the player asked for on the sign-in page."""
from pbem.service.post.notices.kind import ASKED_NOW, Notice

NOTICE = Notice(kind="signin", audience=ASKED_NOW, builder="pbem.service.accounts.signin.send_signin_link",
                key=lambda nonce: f"signin:{nonce}")
