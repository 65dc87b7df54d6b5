"""The match API over HTTP: one module per sub-domain (match, tables, fairness, spectating,
coaching, streams), each a view per operation with its nested input and output serializers
and its schema prose; the shapes, fields and prose they share; idempotency keys; the schema's
examples; and the streams' reads, which the live room's one loop runs."""
