"""Fixtures of the client tests: the running stack (API_URL, DEMO_KEY), the
client generated from docs/openapi.json (on PYTHONPATH, made by
infra/scripts/client-test.sh) and fresh keys from dictadmin (DICTADMIN, with
the stack's environment)."""

import os
import subprocess
import time
from pathlib import Path

import pytest

API_URL = os.environ.get("API_URL", "http://127.0.0.1:9000").rstrip("/")
DEMO_KEY = os.environ.get("DEMO_KEY", "dk_localDemoKey00000000000000000000")
ROOT = Path(__file__).resolve().parents[2]
EMULATOR_500 = "https://httpstatuses.com/500"


def retried(call, *args, **kwargs):
    """call(*args, **kwargs), sent again when the answer is `cargo lambda
    watch`'s own 500 (a problem document our functions never write), as the
    other black-box clients do."""
    for attempt in range(4):
        response = call(*args, **kwargs)
        if response.status_code == 500 and EMULATOR_500 in response.content.decode("utf-8", "replace"):
            time.sleep(0.5)
            continue
        return response
    return response


@pytest.fixture
def new_key():
    """make(plan, limit): a new key's secret."""

    def make(plan="free", limit=None):
        dictadmin = os.environ.get("DICTADMIN", str(ROOT / "target/debug/dictadmin"))
        args = [dictadmin, "keys", "create", "--name", "client test", "--plan", plan]
        if limit is not None:
            args += ["--limit", str(limit)]
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        return next(line.split("API key: ", 1)[1].strip() for line in out.splitlines() if "API key: " in line)

    return make
