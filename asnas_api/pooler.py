"""Behind PgBouncer in transaction mode (ASNAS_DB_POOLER=transaction), session settings would
leak to whoever gets the server connection next, and startup options are refused: so the
statement and lock timeouts are set with SET LOCAL at the start of each transaction."""

from django.conf import settings
from psycopg import pq

_SET_LOCAL_TIMEOUTS = (
    "SELECT set_config('statement_timeout', %s, true), set_config('lock_timeout', %s, true)"
)


def set_local_timeouts(execute, sql, params, many, context):
    """An execute wrapper: before the first statement of a transaction, set its timeouts."""
    connection = context["connection"]
    raw = connection.connection
    if not connection.get_autocommit() and raw.info.transaction_status == pq.TransactionStatus.IDLE:
        # This statement would open the transaction: the SET LOCAL opens it instead.
        raw.execute(
            _SET_LOCAL_TIMEOUTS,
            [
                f"{settings.ASNAS_DB_STATEMENT_TIMEOUT_MS}ms",
                f"{settings.ASNAS_DB_LOCK_TIMEOUT_MS}ms",
            ],
        )
    return execute(sql, params, many, context)


def install(sender, connection, **kwargs) -> None:
    """connection_created receiver: every connection of this process sets its timeouts."""
    if set_local_timeouts not in connection.execute_wrappers:
        connection.execute_wrappers.append(set_local_timeouts)
