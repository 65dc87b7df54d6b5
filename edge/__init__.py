"""What every app's API and admin build on, and nothing of any app: the error registry, the
OpenAPI helpers, the base viewset, serializer and admin. The request pipeline that settings
wire in (middleware, rate limits, the exception handler) lives in asnas_api; see
docs/architecture.md."""
