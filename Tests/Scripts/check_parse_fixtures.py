#!/usr/bin/env python3
"""Checks fixtures/parse: every fixture is well formed and the replay server answers its own request.

Usage: python3 Tests/Scripts/check_parse_fixtures.py [--fixtures DIR]

1. Loads every DIR/*.json and validates it with parse_fixture_server.load_fixture (known keys
   only, request and response present, placeholders well formed, body and rawBody exclusive...).
2. Starts parse_fixture_server.py with all of them as the script and sends each fixture's own
   request, placeholders replaced by sample values, one after another on one keep-alive
   connection (a new one after a fault). Each must be answered with its recorded status and body;
   a `closeAfterBytes` answer must stop after that many bytes; a `delaySeconds` answer must not
   come within a second (the request is then abandoned, as a client's timeout would).
3. Stops the server and checks its report: everything served, no mismatch, nothing unused.
Exits 1 with one line per problem, else prints a summary and exits 0.
"""

import argparse
import http.client
import json
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from parse_fixture_server import load_fixture, placeholder  # noqa: E402  (needs the path above)

SERVER = Path(__file__).resolve().parent / "parse_fixture_server.py"
DEFAULT_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "parse"
SAMPLE_UUID = "3b241101-e2bb-4255-8caf-4136c566a962"
# A delayed answer must not arrive within this many seconds.
DELAY_PROBE = 1.0


def sample(value):
    """`value` with every placeholder replaced by a string it accepts."""
    rule = placeholder(value)
    if rule is not None:
        kind, argument = rule
        return {
            "any": "sample",
            "string": "sample",
            "uuid": SAMPLE_UUID,
            "prefix": f"{argument}sample",
            "contains": f"sample {argument} sample",
            # Same text for both, so a <same:NAME> finds what its <capture:NAME> took.
            "capture": f"captured-{argument}",
            "same": f"captured-{argument}",
        }[kind]
    if isinstance(value, dict):
        return {key: sample(item) for key, item in value.items()}
    if isinstance(value, list):
        return [sample(item) for item in value]
    return value


def build(request):
    """(method, target, headers, body bytes or None) of a request the fixture accepts."""
    method = "GET" if request["method"] == "<any>" else sample(request["method"])
    target = sample(request["path"])
    query = request.get("query")
    if isinstance(query, dict):
        pairs = [(name, value if isinstance(value, str) else json.dumps(value, separators=(",", ":")))
                 for name, value in sample(query).items()]
        target += "?" + urlencode(pairs)
    headers = sample(request.get("headers", {}))
    body = request.get("body")
    data = None if body is None or body == "<any>" else json.dumps(sample(body)).encode("utf-8")
    return method, target, headers, data


def exchange(connection, name, fixture):
    """Sends one fixture's request; the problems found (empty when it was answered as recorded)."""
    response = fixture["response"]
    method, target, headers, data = build(fixture["request"])
    delay = response.get("delaySeconds", 0)
    connection.timeout = DELAY_PROBE if delay >= DELAY_PROBE else 10
    if connection.sock is not None:  # a kept-alive socket keeps the timeout it was opened with
        connection.sock.settimeout(connection.timeout)
    connection.request(method, target, body=data, headers=headers)
    try:
        answer = connection.getresponse()
    except TimeoutError:
        return [] if delay >= DELAY_PROBE else [f"{name}: no answer within {connection.timeout} s"]
    if delay >= DELAY_PROBE:
        return [f"{name}: answered before its delay of {delay} s"]
    problems = []
    if answer.status != response["status"]:
        problems.append(f"{name}: status {answer.status}, expected {response['status']}: {answer.read()[:300]!r}")
        return problems
    try:
        received = answer.read()
    except http.client.IncompleteRead as cut:
        if "closeAfterBytes" not in response:
            return [f"{name}: answer cut after {len(cut.partial)} bytes"]
        if len(cut.partial) != response["closeAfterBytes"]:
            problems.append(f"{name}: answer cut after {len(cut.partial)} bytes, expected {response['closeAfterBytes']}")
        return problems
    if "closeAfterBytes" in response:
        return [f"{name}: the whole answer arrived, expected a cut after {response['closeAfterBytes']} bytes"]
    if "rawBody" in response and received != response["rawBody"].encode("utf-8"):
        problems.append(f"{name}: body {received[:300]!r}, expected {response['rawBody'][:300]!r}")
    if "body" in response and json.loads(received) != response["body"]:
        problems.append(f"{name}: body {received[:300]!r} differs from the recorded one")
    host = f"127.0.0.1:{connection.port}"
    for header, value in response.get("headers", {}).items():
        if answer.getheader(header) != value.replace("<host>", host):
            problems.append(f"{name}: header {header}: {answer.getheader(header)!r}, expected {value!r}")
    return problems


def main():
    parser = argparse.ArgumentParser(description="Checks the Parse fixtures and the replay server.")
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    arguments = parser.parse_args()

    problems = []
    fixtures = {}
    for path in sorted(arguments.fixtures.glob("*.json")):
        fixture, found = load_fixture(path)
        problems += [f"{path.name}: {problem}" for problem in found]
        if not found:
            fixtures[path.stem] = fixture
    if not fixtures:
        problems.append(f"no fixtures in {arguments.fixtures}")
    if problems:
        sys.exit("\n".join(problems))

    # A fixture that expects a captured value must come after the one that captures it.
    script = sorted(fixtures, key=lambda name: ("<same:" in json.dumps(fixtures[name]["request"]), name))
    server = subprocess.Popen([sys.executable, str(SERVER), "--fixtures", str(arguments.fixtures),
                               "--script", ",".join(script)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        if not first.startswith("PORT "):
            sys.exit(f"the server did not start: {first!r} {server.stderr.read()}")
        port = int(first.split()[1])
        connection = http.client.HTTPConnection("127.0.0.1", port)
        for name in script:
            found = exchange(connection, name, fixtures[name])
            problems += found
            response = fixtures[name]["response"]
            if found or "closeAfterBytes" in response or "delaySeconds" in response:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port)
        connection.close()
    finally:
        server.send_signal(signal.SIGTERM)
        output, errors = server.communicate(timeout=10)
    try:
        report = json.loads(output.strip().splitlines()[-1])
    except (ValueError, IndexError):
        sys.exit("\n".join(problems + [f"no report from the server: {output!r} {errors}"]))
    if report["served"] != script:
        problems.append(f"served {report['served']}, expected {script}")
    problems += [f"mismatch: {json.dumps(mismatch)}" for mismatch in report["mismatches"]]
    if report["unused"]:
        problems.append(f"unused: {report['unused']}")
    if server.returncode != 0:
        problems.append(f"the server exited {server.returncode}: {errors}")
    if problems:
        sys.exit("\n".join(problems))
    print(f"{len(script)} fixtures well formed and replayed: {', '.join(script)}")


if __name__ == "__main__":
    main()
