FROM python:3.11-slim

RUN pip install --no-cache-dir uv
ENV PYTHONUNBUFFERED=1 UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy

WORKDIR /app
# Dependencies first, so code changes do not invalidate this layer.
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-dev
COPY . .
# The coach's tables (games/ai/coach_tables.py), built once here rather than by the first
# server to start; a server maps them read-only.
ENV ASNAS_AI_CACHE_DIR=/app/.ai-cache
RUN uv run --no-dev python -m games.ai.coach_tables

EXPOSE 8000
# serve runs granian (ASGI) with its workers; SIGTERM from `docker stop` stops them cleanly.
CMD ["uv", "run", "--no-dev", "manage.py", "serve", "--host", "0.0.0.0"]
