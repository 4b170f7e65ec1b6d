#!/usr/bin/env python3
"""Soak of anywall-server under mixed hostile and normal traffic (docs/hostile-input.md).

For each store (the SQLite file, PostgreSQL with PostGIS in a cluster of its own), one
anywall-server behind which every client is given an address of its own (`--trusted-proxy
127.0.0.1` and `X-Forwarded-For`, as behind Caddy), and for --minutes:
  * normal clients: the CLI's nearby query, a post now and then, a fetch of one post, the
    deletion of their oldest post past 20 (the wall keeps its size, so memory that grows is
    kept by the server, not the data's); each request timed;
  * hostile clients, each attack of the review of 0401cbc in turn: Add/Remove/AddUnique of
    10,000 values, batches of 50 finds of 1,000 posts, finds picking their own keys, failed
    log-ins under variants of a victim's name, a 1,000-term $or, $maxDistance 1e308, costly
    $regex finds, another user's request id, names with escape sequences, keep-alive
    connections past the per-address cap.
Every 10 s it records the normal clients' p50 and p99 and the server's resident memory (its
own, RssAnon: not the pages of the wall's file it maps, which grow with the wall), and
at the end prints them as a table. It fails (exit 1) when the server's memory after the first
minute settles more than 20 % (or 16 MiB, two answers at the server's bound in flight, if that is
more) above its median over the first minute, when a normal request fails or
any request is answered 500, when the normal clients' p99 passes --p99-limit, or when the
server logs an error or does not stop cleanly.

Usage: scripts/soak [--minutes M] [--store sqlite|postgres|both] [--server BINARY] [--report FILE]
The default binary is the debug build scripts/test makes (.build/debug/anywall-server); the
long run in docs/hostile-input.md used a release build (`swift build -c release`).
"""

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_postgres  # noqa: E402  (its Cluster: PostgreSQL of its own on a free port)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP_ID = "soak-app"
MASTER_KEY = "soak-master-key"
WINDOW = 10


def parse_arguments():
    p = argparse.ArgumentParser(prog="soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30, help="how long each store is soaked (both at once)")
    p.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    p.add_argument("--server", default=os.path.join(ROOT, ".build", "debug", "anywall-server"))
    p.add_argument("--normal", type=int, default=3, help="normal clients per store")
    p.add_argument("--hostile", type=int, default=3, help="hostile clients per store")
    p.add_argument("--p99-limit", type=float, default=5.0, help="seconds the normal clients' p99 may reach in any window")
    p.add_argument("--report", help="also write the table to this file (Markdown)")
    args = p.parse_args()
    if args.minutes < 1.5:
        p.error("--minutes must be at least 1.5: memory is compared with its size at the first minute")
    if not os.access(args.server, os.X_OK):
        p.error(f"no anywall-server at {args.server}: swift build, or --server")
    return args


def log(message):
    print(f"soak: {message}", file=sys.stderr, flush=True)


class Server:
    """anywall-server on `wall` (its options), its log in a file, its port from the log."""

    def __init__(self, binary, wall, folder):
        self.log_path = os.path.join(folder, "server.log")
        env = {"PARSE_SERVER_APPLICATION_ID": APP_ID, "PARSE_SERVER_MASTER_KEY": MASTER_KEY, "PATH": "/usr/bin:/bin"}
        self.process = subprocess.Popen([binary, *wall, "--port", "0", "--trusted-proxy", "127.0.0.1", "--query-timeout", "2",
                                         "--max-connections-per-address", "16"],
                                        env=env, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "w"))
        deadline = time.monotonic() + 60
        self.port = None
        while self.port is None:
            for event in self.events():
                if event.get("event") == "listening":
                    self.port = int(event["port"])
            if self.port is None:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"soak: anywall-server did not start:\n{open(self.log_path).read()[-2000:]}")
                time.sleep(0.05)

    def events(self):
        with open(self.log_path, errors="replace") as f:
            for line in f:
                try:
                    yield json.loads(line)
                except ValueError:
                    yield {"event": "unparsed", "line": line}

    def resident_bytes(self):
        """The server's own resident memory (RssAnon): without the pages of the wall's file it maps,
        which grow with the wall and which the kernel may drop at any time."""
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
        return 0

    def stop(self):
        self.process.terminate()
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return "killed 60 s after SIGTERM"


class Client:
    """One client's keep-alive connection, as the address `address` behind the proxy."""

    def __init__(self, port, address):
        self.port, self.address = port, address
        self.token = self.user_id = self.connection = None

    def call(self, method, path, body=None, headers=None, query=None):
        if query:
            path += "?" + urllib.parse.urlencode(query)
        head = {"X-Parse-Application-Id": APP_ID, "X-Forwarded-For": self.address}
        if self.token:
            head["X-Parse-Session-Token"] = self.token
        head.update(headers or {})
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            head["Content-Type"] = "application/json"
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                self.connection.request(method, "/parse" + path, body=data, headers=head)
                answer = self.connection.getresponse()
                payload = answer.read()
                if answer.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return answer.status, payload
            except (OSError, http.client.HTTPException):
                self.connection = None
                if attempt == 1:
                    return 0, b""
        return 0, b""


def sign_up(port, name, address):
    client = Client(port, address)
    status, body = client.call("POST", "/users", {"username": name, "password": f"{name}-password"})
    if status != 201:
        sys.exit(f"soak: sign-up of {name} answered {status}: {body[:300]!r}")
    answer = json.loads(body)
    client.token, client.user_id = answer["sessionToken"], answer["objectId"]
    return client


def nearby_query(latitude, longitude):
    where = {"location": {"$nearSphere": {"__type": "GeoPoint", "latitude": latitude, "longitude": longitude},
                          "$maxDistanceInKilometers": 100}}
    return {"where": json.dumps(where), "include": "user", "limit": "20"}


class Soak:
    """One store's server, its clients and its samples."""

    def __init__(self, name, server, args, stop):
        self.name, self.server, self.args, self.stop = name, server, args, stop
        self.lock = threading.Lock()
        self.latencies = []   # (time, seconds) of the normal clients' requests in the current window
        self.failures = []    # what went wrong for a normal client, or a 500 to anyone
        self.samples = []     # (elapsed s, requests, p50, p99, median RssAnon, highest RssAnon) a window
        self.memory = []      # RssAnon each second of the current window
        self.first_minute = []  # RssAnon each second of the first minute
        self.requests = 0
        self.attacks = {}

    def note(self, seconds):
        with self.lock:
            self.latencies.append(seconds)
            self.requests += 1

    def fail(self, what):
        with self.lock:
            if len(self.failures) < 50:
                self.failures.append(what)

    def normal(self, index):
        client = sign_up(self.server.port, f"normal{index}", f"198.51.100.{index + 1}")
        rng = random.Random(index)
        mine = []
        n = 0
        while not self.stop.is_set():
            n += 1
            latitude, longitude = 48.85 + rng.uniform(-0.05, 0.05), 2.35 + rng.uniform(-0.05, 0.05)
            start = time.monotonic()
            if n % 10 == 0:
                status, body = client.call("POST", "/classes/Posts", {
                    "text": f"normal post {index}-{n}", "location": {"__type": "GeoPoint", "latitude": latitude, "longitude": longitude}},
                    headers={"X-Parse-Request-Id": f"normal-{index}-{n}"})
                if status == 201:
                    mine.append(json.loads(body)["objectId"])
            elif n % 10 == 5 and len(mine) > 20:
                # The wall keeps its size: memory that grows then is kept by the server, not the data's.
                status, body = client.call("DELETE", f"/classes/Posts/{mine.pop(0)}")
            elif n % 10 == 1 and mine:
                status, body = client.call("GET", f"/classes/Posts/{rng.choice(mine)}")
            else:
                status, body = client.call("GET", "/classes/Posts", query=nearby_query(latitude, longitude))
            self.note(time.monotonic() - start)
            if status not in (200, 201):
                self.fail(f"normal client {index}: {status} {body[:200]!r}")

    def hostile(self, index):
        port = self.server.port
        address = f"203.0.113.{index + 1}"
        attacker = sign_up(port, f"attacker{index}", address)
        victim_name = f"victim{index}"
        sign_up(port, victim_name, f"192.0.2.{index + 1}")
        status, body = attacker.call("POST", "/classes/Posts", {
            "text": "a list", "location": {"__type": "GeoPoint", "latitude": 48.85, "longitude": 2.35}})
        target = json.loads(body)["objectId"] if status == 201 else None
        rng = random.Random(1000 + index)
        attacks = [
            ("array ops", lambda: [attacker.call("PUT", f"/classes/Posts/{target}", {"list": {"__op": op, "objects": values}})
                                   for op, values in (("Add", list(range(10_000))), ("Remove", list(range(10_000, 20_000))),
                                                      ("AddUnique", list(range(10_000))), ("Remove", list(range(10_000))))]),
            ("growth", lambda: [attacker.call("PUT", f"/classes/Posts/{target}", {"big": {"__op": "Add", "objects": ["x" * 40_000]}})
                                for _ in range(3)] + [attacker.call("PUT", f"/classes/Posts/{target}", {"big": {"__op": "Delete"}})]),
            ("batch", lambda: attacker.call("POST", "/batch", {"requests": [
                {"method": "GET", "path": "/parse/classes/Posts", "body": {"limit": 1000, "excludeKeys": f"k{rng.random()}"}}
                for _ in range(50)]})),
            ("keys", lambda: [attacker.call("GET", "/classes/Posts", query={"limit": "1000", "keys": f"text,k{rng.random()}"})
                              for _ in range(5)]),
            ("log-ins", lambda: [Client(port, address).call("POST", "/login", {"username": variant, "password": "wrong"})
                                 for variant in (victim_name, victim_name.upper(), f" {victim_name}", f"{victim_name}  ")]),
            ("long $or", lambda: attacker.call("GET", "/classes/Posts", query={
                "where": json.dumps({"$or": [{"text": f"t{i}"} for i in range(1000)]})})),
            ("1e308", lambda: attacker.call("GET", "/classes/Posts", query={"where": json.dumps({"location": {
                "$nearSphere": {"__type": "GeoPoint", "latitude": 1, "longitude": 2}, "$maxDistance": 1e308}})})),
            ("costly $regex", lambda: attacker.call("GET", "/classes/Posts", query={
                "where": json.dumps({"text": {"$regex": "^(a|a)*$" if self.name == "sqlite" else "(a*)(a*)(a*)(a*)(a*)(a*)\\6\\5\\4\\3\\2\\1!"}}),
                "count": "1"})),
            ("request id", lambda: self.squat(attacker, f"normal-0-{rng.randrange(1, 500) * 10}")),
            ("name", lambda: attacker.call("PUT", f"/users/{attacker.user_id}", {"name": "\x1b[2J" + "n" * rng.randrange(1, 60_000)})),
            ("connections", self.connection_flood),
        ]
        while not self.stop.is_set():
            name, attack = attacks[rng.randrange(len(attacks))]
            results = attack()
            for status, body in (results if isinstance(results, list) else [results] if isinstance(results, tuple) else []):
                if status >= 500:
                    self.fail(f"{name}: {status} {body[:200]!r}")
            with self.lock:
                self.attacks[name] = self.attacks.get(name, 0) + 1

    def squat(self, attacker, request_id):
        """A post under a request id a normal client will use, then deleted (the wall keeps its size)."""
        status, body = attacker.call("POST", "/classes/Posts", {
            "text": "squatting", "location": {"__type": "GeoPoint", "latitude": 48.85, "longitude": 2.35}},
            headers={"X-Parse-Request-Id": request_id})
        if status != 201:
            return [(status, body)]
        return [(status, body), attacker.call("DELETE", f"/classes/Posts/{json.loads(body)['objectId']}")]

    def connection_flood(self):
        """Keep-alive connections past the per-address cap, held a moment, from one address."""
        held = []
        for _ in range(40):
            try:
                held.append(socket.create_connection(("127.0.0.1", self.server.port), timeout=5))
            except OSError:
                break
        time.sleep(1)
        for connection in held:
            connection.close()
        return []

    def note_memory(self, elapsed):
        resident = self.server.resident_bytes()
        self.memory.append(resident)
        if elapsed < 60:
            self.first_minute.append(resident)

    def sample(self, start):
        memory = sorted(self.memory) or [0]
        self.memory = []
        with self.lock:
            window = sorted(self.latencies)
            self.latencies = []
            requests = self.requests
            self.requests = 0
        p50 = window[len(window) // 2] if window else None
        p99 = window[min(len(window) - 1, int(len(window) * 0.99))] if window else None
        self.samples.append((round(time.monotonic() - start), requests, p50, p99, memory[len(memory) // 2], memory[-1]))


def start_store(name, args, folder, stop):
    if name == "sqlite":
        wall = ["--store", os.path.join(folder, "soak.sqlite")]
        cluster = None
    else:
        cluster = bench_postgres.Cluster(os.path.join(folder, "postgres"), "128MB")
        wall = ["--database", cluster.uri]
    server = Server(args.server, wall, folder)
    return Soak(name, server, args, stop), cluster


def main():
    args = parse_arguments()
    stores = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    folder = tempfile.mkdtemp(prefix="anywall-soak-")
    # PostgreSQL's programs run as the postgres user when this runs as root: they must reach its folder.
    os.chmod(folder, 0o755)
    stop = threading.Event()
    soaks, clusters = [], []
    for name in stores:
        os.makedirs(os.path.join(folder, name))
        soak, cluster = start_store(name, args, os.path.join(folder, name), stop)
        soaks.append(soak)
        if cluster:
            clusters.append(cluster)
    threads = []
    for soak in soaks:
        for i in range(args.normal):
            threads.append(threading.Thread(target=soak.normal, args=(i,), daemon=True))
        for i in range(args.hostile):
            threads.append(threading.Thread(target=soak.hostile, args=(i,), daemon=True))
    log(f"{', '.join(stores)}: {args.normal} normal and {args.hostile} hostile clients each, {args.minutes:g} minutes, {args.server}")
    start = time.monotonic()
    for thread in threads:
        thread.start()
    end = start + args.minutes * 60
    second = 0
    while time.monotonic() < end:
        second += 1
        time.sleep(max(0, start + second - time.monotonic()))
        for soak in soaks:
            soak.note_memory(second)
        if second % WINDOW == 0 or time.monotonic() >= end:
            for soak in soaks:
                soak.sample(start)
            last = soaks[-1].samples[-1]
            log(f"{last[0]} s: " + "; ".join(f"{s.name} {s.samples[-1][1]} requests, p99 {fmt(s.samples[-1][3])}, "
                                                f"RssAnon {s.samples[-1][4] // 2**20} MiB" for s in soaks))
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    problems = []
    lines = []
    for soak in soaks:
        status = soak.server.stop()
        errors = [e for e in soak.server.events() if e.get("event") in ("error", "unparsed")]
        problems += [f"{soak.name}: {f}" for f in soak.failures]
        problems += [f"{soak.name}: the server logged {json.dumps(e)[:300]}" for e in errors[:5]]
        if status != 0:
            problems.append(f"{soak.name}: the server stopped with {status}")
        # The median of each second's memory: an answer in flight is not memory kept.
        first = sorted(soak.first_minute)
        baseline = first[len(first) // 2] if first else None
        peak = max((s[4] for s in soak.samples if s[0] > 60), default=baseline)
        worst = max((s[3] for s in soak.samples if s[3] is not None), default=None)
        if baseline and peak > baseline + max(baseline // 5, 16 * 2**20):
            problems.append(f"{soak.name}: memory grew from {baseline // 2**20} MiB in the first minute to {peak // 2**20} MiB")
        if worst is not None and worst > args.p99_limit:
            problems.append(f"{soak.name}: the normal clients' p99 reached {worst:.2f} s")
        lines += table(soak, baseline, peak)
    for cluster in clusters:
        cluster.stop(keep=False)
    report = "\n".join(lines)
    print(report)
    if args.report:
        with open(args.report, "w") as f:
            f.write(report + "\n")
    for problem in problems:
        log(problem)
    print(f"soak: {'failed' if problems else 'passed'}: {len(problems)} problems", flush=True)
    sys.exit(1 if problems else 0)


def fmt(seconds):
    return "-" if seconds is None else f"{seconds * 1000:.0f} ms"


def table(soak, baseline, peak):
    lines = [f"### {soak.name}: memory {baseline // 2**20 if baseline else '-'} MiB in the first minute (median), "
             f"at most {peak // 2**20 if peak else '-'} MiB after it (a window's median); attacks sent: "
             + ", ".join(f"{name} {count}" for name, count in sorted(soak.attacks.items())),
             "", "| s | normal requests | p50 | p99 | RssAnon MiB, median | highest |", "|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {t} | {n} | {fmt(p50)} | {fmt(p99)} | {median // 2**20} | {high // 2**20} |"
              for t, n, p50, p99, median, high in soak.samples]
    return lines + [""]


if __name__ == "__main__":
    main()
