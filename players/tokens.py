"""Bearer tokens: made by the player service, checked by the authentication class; only
their hash is stored."""

import hashlib
import secrets

# Postgres NOTIFY channel on which a token that goes announces its hash, so that the streams
# it opened end at once: a trigger on the token table sends it (players migration 0006),
# games.live.wakeups listens (docs/streams.md).
ENDED_CHANNEL = "asnas_token_ended"

# The one answer to a token that does not work, whichever request finds it out.
NOT_VALID = "The token is not valid."


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
