"""Where this installation keeps its data (the embedded Postgres, the generated secret key):
read by the settings and by serve's supervisor, which imports no Django."""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    return Path(os.environ.get("ASNAS_DATA_DIR") or BASE_DIR / ".data").expanduser().resolve()
