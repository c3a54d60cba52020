"""`langgraph dev` in a subprocess, for the tests that drive a LangGraph Server over its API."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.optional import fail_in_ci_else_skip

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120.0
"""Seconds `langgraph dev` gets to answer `/ok` (it imports the graphs first)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _langgraph_cli() -> str:
    cli = Path(sys.executable).parent / "langgraph"
    if cli.exists():
        return str(cli)
    found = shutil.which("langgraph")
    if found is None:
        fail_in_ci_else_skip(
            'the langgraph command is missing (pip install "langgraph-cli[inmem]")'
        )
    return found


def _tail(path: Path) -> str:
    return path.read_text(errors="replace")[-4000:]


@contextmanager
def langgraph_dev(app: Path, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """Serve the `langgraph.json` in `app` on a free 127.0.0.1 port; yields the URL, stops on exit.

    `env` is added to this process's environment (the package is importable from the checkout).
    """
    port = _free_port()
    full_env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        **(env or {}),
    }
    log_path = app / f"server-{port}.log"
    command = [_langgraph_cli(), "dev", "--host", "127.0.0.1", "--port", str(port)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, "--no-browser", "--no-reload"],
            cwd=app,
            env=full_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"langgraph dev exited with {process.returncode}:\n{_tail(log_path)}")
            try:
                with urllib.request.urlopen(f"{url}/ok", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(
                    f"langgraph dev did not answer in {START_TIMEOUT} s:\n{_tail(log_path)}"
                )
            time.sleep(0.3)
        yield url
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
