"""The API's published schema as the tests read it. openapi.yaml is the committed contract
(tests/clients/test_openapi_schema.py keeps it equal to the code). It is 700 kB of YAML: PyYAML's
pure-Python loader took 1.5 s of CPU to read it and libyaml's 0.23 s, for the same data. Eight
tests and every worker's collection read it, so it is read once per process, with libyaml."""

import functools
from pathlib import Path

import yaml

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "openapi.yaml"

# PyYAML built without libyaml (no wheel for the platform) has only the Python loader.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_schema(path: Path) -> dict:
    """A schema file, parsed as yaml.safe_load parses it."""
    return yaml.load(path.read_text(), Loader=LOADER)


@functools.cache
def committed_schema() -> dict:
    """openapi.yaml, parsed once per process: shared, so never changed by a reader."""
    return read_schema(SCHEMA_FILE)
