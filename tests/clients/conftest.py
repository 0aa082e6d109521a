"""Fixtures of the client tests: the running stack (API_URL, DEMO_KEY), the
client generated from docs/openapi.json (on PYTHONPATH, made by
infra/scripts/client-test.sh) and fresh keys from dictadmin (DICTADMIN, with
the stack's environment)."""

import os
import subprocess
import time
from pathlib import Path

import httpx
import pytest

API_URL = os.environ.get("API_URL", "http://127.0.0.1:9000").rstrip("/")
DEMO_KEY = os.environ.get("DEMO_KEY", "dk_localDemoKey00000000000000000000")
ROOT = Path(__file__).resolve().parents[2]
EMULATOR_500 = "https://httpstatuses.com/500"


class EmulatorRetrying(httpx.HTTPTransport):
    """Sends a request again when the answer is `cargo lambda watch`'s own
    500 (a problem document our functions never write), as the other
    black-box clients do. At the transport, below the generated client: its
    `sync_detailed` parses a 500 as the API's Error envelope (or raises on
    it) before a caller could look, so a retry around it never ran. Each
    wait is longer than the last, about 10 s in all."""

    def handle_request(self, request):
        for attempt in range(8):
            response = super().handle_request(request)
            if response.status_code != 500:
                return response
            response.read()
            if EMULATOR_500 not in response.text:
                return response
            response.close()
            time.sleep(0.35 * (attempt + 1))
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
