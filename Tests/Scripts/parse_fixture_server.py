#!/usr/bin/env python3
"""A replay stand-in for Parse Server: answers a script of recorded exchanges, in order.

Usage: parse_fixture_server.py --fixtures DIR --script NAME,NAME,... [--port N]

Serves HTTP/1.1 (keep-alive) on 127.0.0.1, port N (0, the default: any free port) and prints
`PORT <n>` on stdout once it listens. Each request is checked against the next fixture of the
script (DIR/NAME.json, format in fixtures/parse/README.md; a name may appear several times):
  * it matches: the fixture's response is sent, after `delaySeconds` if given, and cut after
    `closeAfterBytes` body bytes (then the connection is closed) if given;
  * it does not, or the script has ended: HTTP 599 with a JSON body listing the differences,
    and the mismatch is recorded. Either way that fixture is used up, so one wrong request is
    reported once and the ones after it are still compared with their own fixtures.
On SIGTERM or SIGINT it prints one JSON line and exits 0:
  {"served":[NAME...],"mismatches":[{"expected":NAME or null,"request":{...},"differences":[...]}],
   "unused":[NAME...]}
where a mismatch's request holds the method, path, query (name -> list of values), the headers
exactly as received and the body as text. Answers are never compressed (identity is always
acceptable, whatever Accept-Encoding asks). One line per request goes to stderr.

check_parse_fixtures.py imports `load_fixture` and `placeholder` from here.
"""

import argparse
import json
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
CAPTURE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
# Anything shaped like a placeholder; `placeholder` says whether it is a valid one.
PLACEHOLDER_SHAPE = re.compile(r"^<[a-z]+(:.*)?>$", re.DOTALL)

REQUEST_KEYS = {"method", "path", "query", "headers", "absentHeaders", "body"}
RESPONSE_KEYS = {"status", "headers", "body", "rawBody", "delaySeconds", "closeAfterBytes"}
TOP_KEYS = {"about", "source", "request", "response"}


def placeholder(value):
    """(kind, argument) when `value` is a placeholder string, else None (a literal)."""
    if not isinstance(value, str) or not PLACEHOLDER_SHAPE.match(value):
        return None
    kind, colon, argument = value[1:-1].partition(":")
    if kind in ("any", "string", "uuid") and not colon:
        return kind, None
    if kind in ("prefix", "contains") and colon and argument:
        return kind, argument
    if kind in ("capture", "same") and CAPTURE_NAME.match(argument):
        return kind, argument
    return None


def is_number(value):
    # bool is an int in Python, but true is not 1 in JSON.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def show(value):
    return json.dumps(value, ensure_ascii=False)


class Comparison:
    """Compares one request with one fixture's `request`, collecting readable differences.

    Captures are kept aside and applied to the run only when the whole request matches, so a
    rejected request cannot change what later `<same:NAME>` placeholders expect.
    """

    def __init__(self, captured):
        self.captured = captured
        self.captures = {}
        self.differences = []

    def differ(self, text):
        self.differences.append(text)

    def string(self, where, expected, actual):
        """A string leaf: a literal compared exactly, or a placeholder."""
        rule = placeholder(expected)
        if rule is None:
            if actual != expected:
                self.differ(f"{where}: expected {show(expected)}, got {show(actual)}")
            return
        kind, argument = rule
        if kind == "any":
            return
        if not isinstance(actual, str):
            self.differ(f"{where}: expected a string ({expected}), got {show(actual)}")
        elif kind == "uuid" and not UUID.match(actual):
            self.differ(f"{where}: expected a lower-case UUID, got {show(actual)}")
        elif kind == "prefix" and not actual.startswith(argument):
            self.differ(f"{where}: expected text starting with {show(argument)}, got {show(actual)}")
        elif kind == "contains" and argument not in actual:
            self.differ(f"{where}: expected text containing {show(argument)}, got {show(actual)}")
        elif kind == "capture":
            self.captures[argument] = actual
        elif kind == "same":
            if argument not in self.captured:
                self.differ(f"{where}: expected the value captured as {argument!r}, but nothing was captured yet")
            elif actual != self.captured[argument]:
                self.differ(f"{where}: expected {show(self.captured[argument])} (captured as {argument!r}), "
                            f"got {show(actual)}")

    def json(self, where, expected, actual):
        """A JSON value, compared exactly: same keys, same lengths, numbers as numbers."""
        if isinstance(expected, str):
            self.string(where, expected, actual)
        elif isinstance(expected, dict):
            if not isinstance(actual, dict):
                self.differ(f"{where}: expected an object, got {show(actual)}")
                return
            for key, want in expected.items():
                if key in actual:
                    self.json(f"{where}.{key}", want, actual[key])
                else:
                    self.differ(f"{where}.{key}: missing")
            for key in actual:
                if key not in expected:
                    self.differ(f"{where}.{key}: not expected, got {show(actual[key])}")
        elif isinstance(expected, list):
            if not isinstance(actual, list) or len(actual) != len(expected):
                self.differ(f"{where}: expected {show(expected)}, got {show(actual)}")
                return
            for index, (want, got) in enumerate(zip(expected, actual)):
                self.json(f"{where}[{index}]", want, got)
        elif is_number(expected):
            if not is_number(actual) or actual != expected:
                self.differ(f"{where}: expected {show(expected)}, got {show(actual)}")
        elif type(actual) is not type(expected) or actual != expected:
            self.differ(f"{where}: expected {show(expected)}, got {show(actual)}")

    def request(self, fixture, request):
        self.string("method", fixture["method"], request["method"])
        self.string("path", fixture["path"], request["path"])
        self.query(fixture.get("query"), request)
        for name, expected in fixture.get("headers", {}).items():
            actual = request["header"](name)
            if actual is None:
                self.differ(f"header {name}: missing")
            else:
                self.string(f"header {name}", expected, actual)
        for name in fixture.get("absentHeaders", []):
            # Only the name: the value may be a secret that must not be echoed.
            if request["header"](name) is not None:
                self.differ(f"header {name}: must be absent, but was sent")
        self.body(fixture, request["body"])

    def query(self, expected, request):
        raw = request["rawQuery"]
        if expected is None:
            if raw:
                self.differ(f"query: none expected, got {show(raw)}")
            return
        if expected == "<any>":
            return
        actual = request["query"]
        for name in actual:
            if name not in expected:
                self.differ(f"query {name}: not expected, got {show(actual[name])}")
        for name, want in expected.items():
            values = actual.get(name)
            if values is None:
                self.differ(f"query {name}: missing")
            elif len(values) > 1:
                self.differ(f"query {name}: expected once, got {len(values)} times: {show(values)}")
            elif isinstance(want, str):
                self.string(f"query {name}", want, values[0])
            else:
                # A JSON-valued parameter (`where`): compared as JSON, not as text.
                try:
                    got = json.loads(values[0])
                except ValueError:
                    self.differ(f"query {name}: expected JSON, got {show(values[0])}")
                else:
                    self.json(f"query {name}", want, got)

    def body(self, fixture, raw):
        if "body" not in fixture:
            if raw:
                self.differ(f"body: none expected, got {len(raw)} bytes: {show(raw.decode('utf-8', 'replace'))}")
            return
        if fixture["body"] == "<any>":
            return
        try:
            actual = json.loads(raw.decode("utf-8"))
        except ValueError:
            self.differ(f"body: expected JSON, got {show(raw.decode('utf-8', 'replace'))}")
            return
        self.json("body", fixture["body"], actual)


class Replay:
    """The script and what happened to it; shared by the handler threads."""

    def __init__(self, fixtures, script):
        self.fixtures = fixtures
        self.script = script
        self.lock = threading.Lock()
        self.position = 0
        self.served = []
        self.mismatches = []
        self.captured = {}

    def take(self, request):
        """(name, None) when `request` matches the next fixture, else (that name or None, differences)."""
        with self.lock:
            if self.position >= len(self.script):
                name, differences = None, [f"unexpected request: the script ({len(self.script)} fixtures) has ended"]
            else:
                name = self.script[self.position]
                self.position += 1
                comparison = Comparison(self.captured)
                comparison.request(self.fixtures[name]["request"], request)
                differences = comparison.differences
                if not differences:
                    self.captured.update(comparison.captures)
                    self.served.append(name)
                    return name, None
            self.mismatches.append({"expected": name, "request": request["report"], "differences": differences})
            return name, differences

    def report(self):
        with self.lock:
            return {"served": list(self.served), "mismatches": list(self.mismatches),
                    "unused": self.script[self.position:]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Without it every reused connection waits ~40 ms: delayed ACK meets Nagle.
    disable_nagle_algorithm = True
    replay = None  # set in main()

    def handle_request(self):
        body = self.read_body()
        if body is None:
            return
        url = urlsplit(self.path)
        query = parse_qs(url.query, keep_blank_values=True)
        request = {
            "method": self.command,
            "path": url.path,
            "rawQuery": url.query,
            "query": query,
            "header": self.header,
            "body": body,
            "report": {
                "method": self.command,
                "path": url.path,
                "query": query,
                "headers": {name: self.header(name) for name in dict.fromkeys(self.headers.keys())},
                "body": body.decode("utf-8", "replace"),
            },
        }
        name, differences = self.replay.take(request)
        if differences is None:
            self.log(f"{self.command} {url.path}: {name}")
            self.answer(self.replay.fixtures[name]["response"])
        else:
            self.log(f"{self.command} {url.path}: MISMATCH with {name or 'the end of the script'}: "
                     + "; ".join(differences))
            text = json.dumps({"error": "the request does not match the fixture script",
                               "expected": name, "differences": differences}, ensure_ascii=False)
            self.send(599, "Fixture Mismatch", [("Content-Type", "application/json; charset=utf-8")],
                      text.encode("utf-8"))

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = handle_request

    def header(self, name):
        """All values of a header, joined as HTTP allows, or None; names are case-insensitive."""
        values = self.headers.get_all(name)
        return ", ".join(values) if values else None

    def read_body(self):
        """The request body (b"" when there is none); None when it cannot be read."""
        try:
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                data = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        # Trailers, if any, end with an empty line.
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))
        except (ValueError, OSError) as error:
            self.log(f"{self.command} {self.path}: unreadable body ({error}); closing")
            self.close_connection = True
            return None

    def answer(self, response):
        if "body" in response:
            # Compact like Express's res.json (JSON.stringify without spaces), UTF-8.
            body = json.dumps(response["body"], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        else:
            body = response.get("rawBody", "").encode("utf-8")
        # Parse builds Location from the request's Host header (its `mount`), so the fixture says `<host>`.
        host = self.header("Host") or "127.0.0.1"
        headers = [(name, value.replace("<host>", host)) for name, value in response.get("headers", {}).items()]
        time.sleep(response.get("delaySeconds", 0))
        self.send(response["status"], None, headers, body, response.get("closeAfterBytes"))

    def send(self, status, reason, headers, body, close_after=None):
        try:
            self.send_response(status, reason)
            for name, value in headers:
                self.send_header(name, value)
            # The full length even when the body is cut: that is what a dropped connection looks like.
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if close_after is None:
                self.wfile.write(body)
            else:
                self.wfile.write(body[:close_after])
                self.close_connection = True
        except OSError:
            # The client gave up (e.g. its timeout ran out during a delay).
            self.close_connection = True

    def log(self, text):
        print(f"parse_fixture_server: {text}", file=sys.stderr, flush=True)

    def log_message(self, format, *args):
        # The default one line per request on stderr adds nothing to `log`.
        pass


def load_fixture(path):
    """The fixture in `path` and a list of what is wrong with it (empty when it is well formed)."""
    try:
        fixture = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return None, [f"cannot read it: {error}"]
    problems = []
    if not isinstance(fixture, dict):
        return None, ["not a JSON object"]
    problems += [f"unknown key {key!r}" for key in fixture.keys() - TOP_KEYS]
    problems += [f"missing {key!r}" for key in TOP_KEYS - fixture.keys()]
    for key in ("about", "source"):
        if key in fixture and not (isinstance(fixture[key], str) and fixture[key].strip()):
            problems.append(f"{key!r} must be a non-empty string")
    request, response = fixture.get("request"), fixture.get("response")
    if isinstance(request, dict):
        problems += request_problems(request)
    elif request is not None:
        problems.append("'request' must be an object")
    if isinstance(response, dict):
        problems += response_problems(response)
    elif response is not None:
        problems.append("'response' must be an object")
    return fixture, problems


def request_problems(request):
    problems = [f"request: unknown key {key!r}" for key in request.keys() - REQUEST_KEYS]
    for key in ("method", "path"):
        if not isinstance(request.get(key), str):
            problems.append(f"request.{key}: missing or not a string")
    headers = request.get("headers", {})
    if not isinstance(headers, dict) or not all(isinstance(value, str) for value in headers.values()):
        problems.append("request.headers: must map names to strings")
        headers = {}
    absent = request.get("absentHeaders", [])
    if not isinstance(absent, list) or not all(isinstance(name, str) for name in absent):
        problems.append("request.absentHeaders: must be a list of names")
        absent = []
    both = {name.lower() for name in headers} & {name.lower() for name in absent}
    problems += [f"request: header {name!r} is both required and absent" for name in sorted(both)]
    query = request.get("query")
    if query is not None and query != "<any>" and not isinstance(query, dict):
        problems.append("request.query: must be an object or \"<any>\"")
    problems += [f"request: {problem}" for problem in placeholder_problems(
        [request.get("method"), request.get("path"), query, headers, request.get("body")])]
    return problems


def response_problems(response):
    problems = [f"response: unknown key {key!r}" for key in response.keys() - RESPONSE_KEYS]
    status = response.get("status")
    if not (isinstance(status, int) and not isinstance(status, bool) and 100 <= status <= 599):
        problems.append("response.status: missing or not an HTTP status")
    headers = response.get("headers", {})
    if not isinstance(headers, dict) or not all(isinstance(value, str) for value in headers.values()):
        problems.append("response.headers: must map names to strings")
    elif "content-length" in (name.lower() for name in headers):
        problems.append("response.headers: Content-Length is computed, leave it out")
    if "body" in response and "rawBody" in response:
        problems.append("response: 'body' and 'rawBody' exclude each other")
    if "rawBody" in response and not isinstance(response["rawBody"], str):
        problems.append("response.rawBody: must be a string")
    delay = response.get("delaySeconds", 0)
    if not is_number(delay) or delay < 0:
        problems.append("response.delaySeconds: must be a number of seconds, 0 or more")
    if "closeAfterBytes" in response:
        cut = response["closeAfterBytes"]
        length = len(json.dumps(response.get("body"), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
                     if "body" in response else response.get("rawBody", "").encode("utf-8"))
        if not (isinstance(cut, int) and not isinstance(cut, bool) and 0 <= cut < length):
            problems.append(f"response.closeAfterBytes: must be a whole number below the body's {length} bytes")
    return problems


def placeholder_problems(value):
    """Strings shaped like placeholders that are not valid ones, anywhere in `value`."""
    if isinstance(value, str):
        return [f"bad placeholder {value!r}"] if PLACEHOLDER_SHAPE.match(value) and not placeholder(value) else []
    if isinstance(value, dict):
        return [problem for item in value.values() for problem in placeholder_problems(item)]
    if isinstance(value, list):
        return [problem for item in value for problem in placeholder_problems(item)]
    return []


class Stop(Exception):
    """Raised in the main thread by SIGTERM or SIGINT, to leave serve_forever."""


def stop(signum, frame):
    raise Stop


def main():
    parser = argparse.ArgumentParser(description="Replays recorded Parse Server exchanges, in order.")
    parser.add_argument("--fixtures", required=True, type=Path, help="the directory of NAME.json fixtures")
    parser.add_argument("--script", required=True, help="fixture names in the order requests must come")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    arguments = parser.parse_args()

    script = [name.strip() for name in arguments.script.split(",") if name.strip()]
    fixtures = {}
    for name in dict.fromkeys(script):
        fixture, problems = load_fixture(arguments.fixtures / f"{name}.json")
        if problems:
            sys.exit(f"parse_fixture_server: {arguments.fixtures / name}.json: " + "; ".join(problems))
        fixtures[name] = fixture
    replay = Replay(fixtures, script)
    Handler.replay = replay

    server = None
    try:
        # Handlers first, then unblock: a SIGTERM sent early then still produces the report. The
        # unblocking matters because Foundation's Process starts children with the spawning
        # thread's signal mask, and Swift Testing's threads block SIGTERM and SIGINT.
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
        try:
            # HTTPServer binds with SO_REUSEADDR, so a test can restart it on a port just released.
            server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
        except OSError as error:
            sys.exit(f"parse_fixture_server: cannot listen on 127.0.0.1:{arguments.port}: {error}")
        print(f"PORT {server.server_address[1]}", flush=True)
        server.serve_forever()
    except Stop:
        pass
    finally:
        # A second signal must not cut the report short.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if server is not None:
            server.server_close()
    print(json.dumps(replay.report(), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
