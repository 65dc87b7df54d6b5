# Operators read event times in the admin: to the second, unambiguous, sortable.
DATETIME_FORMAT = "Y-m-d H:i:s"
SHORT_DATETIME_FORMAT = "Y-m-d H:i:s"
