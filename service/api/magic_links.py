"""``/api/v1/auth/magic-link``: ask for a sign-in link by email.

The answer is the same whether the address plays here or not, and whether or not the
address was throttled: the endpoint must not tell a stranger who has an account.
"""

from __future__ import annotations

from flask import current_app, request

from service.api.blueprint import ApiBlueprint
from service.api.schemas import MagicLinkRequestSchema, MessageSchema
from service.identity import auth
from service.plumbing import mail
from service.plumbing.database import config, session
from service.plumbing.idempotency import after_commit
from service.words import i18n

blp = ApiBlueprint("sign-in", __name__, url_prefix="/auth", public=True,
                   description="Sign-in links for people; API clients use tokens.")

ACCEPTED = "If this address can receive mail, a sign-in link is on its way."


@blp.route("/magic-link", methods=["POST"])
@blp.mutation
@blp.arguments(MagicLinkRequestSchema)
@blp.response(202, MessageSchema)
def request_magic_link(args):
    """Email me a sign-in link

    Always answers 202 with the same message. The link opens a confirm page on the web
    site; it expires and works once.
    """
    next_url = auth.safe_next_url(args["next"]) or "/"
    message = auth.send_magic_link(session(), config(), args["email"], next_url,
                                   language=request.accept_languages.best_match(i18n.LANGUAGES))
    if message is not None:
        message_id = message.id
        after_commit(lambda: mail.notify_mail_committed(current_app, [message_id]))
    return {"message": ACCEPTED}
