import gzip
import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def read_jsonl_gz(name: str):
    with gzip.open(DATA / name, "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


@pytest.fixture(scope="session")
def oracle_positions():
    return list(read_jsonl_gz("oracle_positions.jsonl.gz"))


@pytest.fixture(scope="session")
def oracle_ids():
    return list(read_jsonl_gz("oracle_ids.jsonl.gz"))


import sys

sys.path.insert(0, str(Path(__file__).parent))
