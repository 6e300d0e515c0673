"""The site the browser sections measure: built into a temporary folder, served on localhost."""

from __future__ import annotations

import contextlib
import http.server
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def built_site() -> Iterator[Path]:
    """`mkdocs build --strict` of the checkout into a temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        subprocess.run([str(ROOT / ".venv/bin/mkdocs"), "build", "--strict", "--quiet", "--site-dir",
                        str(site)], cwd=ROOT, check=True, capture_output=True)
        yield site


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def served_site() -> Iterator[tuple[Path, str]]:
    """The built site and the base URL it is served at (http://127.0.0.1:<port>/)."""
    with built_site() as site:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=site))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield site, f"http://127.0.0.1:{server.server_address[1]}/"
        finally:
            server.shutdown()
            server.server_close()
