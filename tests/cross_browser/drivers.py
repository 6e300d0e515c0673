"""Firefox and WebKit behind one small interface, for the cross-browser tests and the benchmark.

Both run headful on one private Xvfb display, without Playwright's browser builds: Debian's Firefox
ESR through puppeteer-core over WebDriver BiDi (firefox.mjs, a line protocol on a pipe), Debian's
WebKitGTK through WebKitWebDriver (plain W3C WebDriver over HTTP) hosting the page in wkhost.py. A
driver evaluates JavaScript expressions (awaited), types with real key events into the focused
element, sets the viewport size, and returns the errors recorder.js kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
ENGINES = ("firefox", "webkit")
# Debian packages each engine needs (the Makefile and .ci/run install them the same way).
PACKAGES = {"firefox": (FIREFOX, "firefox-esr"),
            "webkit": (WEBKIT_DRIVER, "webkit2gtk-driver python3-gi gir1.2-webkit2-4.1"),
            "xvfb": ("/usr/bin/Xvfb", "xvfb")}
ERRORS = "window.__crossBrowserErrors.splice(0)"  # the page's recorder, emptied as it is read


def missing(engine: str) -> str | None:
    """Why `engine` cannot run here (the apt-get line that fixes it), or None."""
    for need in (engine, "xvfb"):
        path, packages = PACKAGES[need]
        if not Path(path).exists():
            return f"{path} is missing: `apt-get install -y {packages}` (make test does it)"
    return None


@contextlib.contextmanager
def xvfb():
    """A private X display (Xvfb picks a free number); yields its DISPLAY string."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1200x24",
                               "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        raise RuntimeError("Xvfb did not start")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


class Firefox:
    name = "Firefox"

    def __init__(self, display: str) -> None:
        env = dict(os.environ, DISPLAY=display, MOZ_CRASHREPORTER_DISABLE="1")
        self._log = tempfile.TemporaryFile()
        self._node = subprocess.Popen(["node", str(HERE / "firefox.mjs")], cwd=ROOT, env=env, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log)
        self._read()  # "ready" once Firefox runs
        self.version = f"Firefox {self._send('version').split('/')[-1]}"

    def _read(self):
        line = self._node.stdout.readline()
        if not line:
            self._log.seek(0)
            raise RuntimeError(f"the Firefox driver stopped:\n{self._log.read().decode()[-3000:]}")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["value"]

    def _send(self, op: str, **fields):
        self._node.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self._node.stdin.flush()
        return self._read()

    def goto(self, url: str) -> None:
        self._send("goto", url=url)

    def eval(self, expression: str):
        return self._send("eval", expression=expression)

    def type(self, text: str) -> None:
        self._send("type", text=text)

    def press(self, key: str) -> None:
        self._send("press", key=key)

    def size(self, width: int, height: int) -> None:
        self._send("size", width=width, height=height)

    def errors(self) -> list[str]:
        return self.eval(ERRORS) + self._send("errors")

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._node.stdin.close()
        try:
            self._node.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._node.kill()
            self._node.wait()


# W3C WebDriver key codes for the keys the tests press (https://w3c.github.io/webdriver/#keyboard-actions)
KEYS = {"ArrowLeft": "\ue012", "ArrowRight": "\ue014", "Enter": "\ue007", "Backspace": "\ue003"}
CONSOLE_ERROR = re.compile(r"CONSOLE (?:\S+ )?ERROR (.*)")  # "CONSOLE JS ERROR ...", "CONSOLE ERROR ..."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebKit:
    name = "WebKit"

    def __init__(self, display: str) -> None:
        env = dict(os.environ, DISPLAY=display)
        port = _free_port()
        self._log = tempfile.NamedTemporaryFile(prefix="webkitdriver-", suffix=".log")
        self._seen = 0  # how much of the log's console lines were read
        self._driver = subprocess.Popen([WEBKIT_DRIVER, f"--port={port}"], env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT)
        self._base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            with contextlib.suppress(OSError):
                self._call("GET", "/status")
                break
            time.sleep(0.1)
        options = {"binary": str(HERE / "wkhost.py"), "args": []}
        session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "webkitgtk:browserOptions": options, "pageLoadStrategy": "normal",
            "timeouts": {"script": 60_000, "pageLoad": 60_000}}}})
        self._session = f"/session/{session['sessionId']}"
        self.version = f"WebKitGTK {session['capabilities'].get('browserVersion', '?')}"

    def _call(self, method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self._base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read() or b"null")["value"]
        except urllib.error.HTTPError as error:
            value = json.loads(error.read() or b"{}").get("value", {})
            raise RuntimeError(f"WebDriver {path}: {value.get('error')}: {value.get('message')}") from None

    def _do(self, method: str, path: str, body: dict | None = None):
        return self._call(method, self._session + path, body)

    def goto(self, url: str) -> None:
        self._do("POST", "/url", {"url": url})

    def eval(self, expression: str):
        script = ("const done = arguments[arguments.length - 1];"
                  f"(async () => ({expression}))().then(v => done({{value: v === undefined ? null : v}}),"
                  " e => done({error: String(e && e.stack || e)}));")
        answer = self._do("POST", "/execute/async", {"script": script, "args": []})
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["value"]

    def _keys(self, keys: list[str]) -> None:
        actions = [a for k in keys for a in ({"type": "keyDown", "value": k}, {"type": "keyUp", "value": k})]
        self._do("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})
        self._do("DELETE", "/actions")

    def type(self, text: str) -> None:
        self._keys(list(text))

    def press(self, key: str) -> None:
        self._keys([KEYS.get(key, key)])

    def drag(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        """A mouse pressed at `start` (viewport px), moved to `end` in steps, released."""
        steps = [{"type": "pointerMove", "origin": "viewport", "duration": 20,
                  "x": round(start[0] + (end[0] - start[0]) * i / 8),
                  "y": round(start[1] + (end[1] - start[1]) * i / 8)} for i in range(1, 9)]
        actions = [{"type": "pointerMove", "x": round(start[0]), "y": round(start[1]), "origin": "viewport"},
                   {"type": "pointerDown", "button": 0}, *steps, {"type": "pointerUp", "button": 0}]
        mouse = {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": actions}
        self._do("POST", "/actions", {"actions": [mouse]})
        self._do("DELETE", "/actions")

    def size(self, width: int, height: int) -> None:
        self._do("POST", "/window/rect", {"width": width, "height": height})

    def errors(self) -> list[str]:
        self._log.flush()
        new = Path(self._log.name).read_bytes()[self._seen:]
        self._seen += len(new)
        text = new.decode(errors="replace")
        console = [f"console: {m}" for m in CONSOLE_ERROR.findall(text)]
        return self.eval(ERRORS) + console

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self._do("DELETE", "")
        self._driver.terminate()
        try:
            self._driver.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._driver.kill()
            self._driver.wait()
        self._log.close()


def launch(engine: str, display: str) -> Firefox | WebKit:
    return {"firefox": Firefox, "webkit": WebKit}[engine](display)
