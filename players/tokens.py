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


def new_secret(nbytes: int) -> str:
    """`nbytes` random bytes as URL-safe text that never begins with "-": tokens, invites and
    watch codes are pasted after a flag on a command line (`--token`, `--watch`), where a
    leading dash reads as another flag, so one secret in 64 was refused by argparse (a bot
    bridge in CI). Skipping those drafts takes 0.02 bits from 256 or 192."""
    secret = secrets.token_urlsafe(nbytes)
    while secret.startswith("-"):
        secret = secrets.token_urlsafe(nbytes)
    return secret


def new_token() -> str:
    return new_secret(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
