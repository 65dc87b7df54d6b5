"""The review room (docs/review.md): each ended deal's review of its human seats' decisions,
made due by the write that ends the deal, worked out after it commits (off the request path
and off the turn clock's thread) and stored; a read only reads what is stored."""
