#!/usr/bin/env python3
"""Load test of anywall-server (a load script, not a test of the suite).

Serves scripts/bench-wall's deterministic wall (1,000,000 posts by default: generated and
imported once by bench-wall's own code, cached under --out) from a scratch copy with the
release `anywall-server`, drives it with wrk (Debian package `wrk`, installed when missing)
and prints:
  * reads: requests/s and latency (p50, p99) of the CLI's nearby query (GET /classes/Posts with
    $nearSphere, 100 km, include=user, limit=20) at bench-wall's city places, one per request;
  * writes: requests/s and latency of POST /classes/Posts by signed-up users, each request with
    its own text and X-Parse-Request-Id; then the posts the wall gained beside the 201 answers
    wrk counted ("no post lost" when gained >= 201s and gained <= 201s + connections, the
    requests still in flight when wrk stops), and the server's own count of 201s in its log;
  * reads again while 300 idle connections are held open and 8 threads flood /login and /users
    (wrong passwords for one user, sign-ups of new names): the nearby p99 beside the one without,
    and the statuses the flood got (429 when the password gate refuses);
  * reads again beside two connections asking for the nearest 20 posts in the whole earth at
    places by the poles (the slowest nearest searches on this wall, run on the server's event
    loops): the nearby requests/s and p99 beside those without, and those searches' own figures;
  * that the server stops with status 0 on SIGTERM, and any "event":"error" line it logged;
  * a summary table with the machine (CPUs, model), to paste in the README.
wrk and the server share the machine's CPUs. Exit status 1 when a post is lost, a request
failed (non-2xx, 5xx, socket error) or the server logged an error or did not stop cleanly.

Usage: scripts/load-server [--posts N] [--duration S] [--write-duration S] [--connections N]
                           [--write-connections N] [--threads N] [--out DIR] [--scratch-path P] [--no-build]
Everything generated goes under --out (default bench-out/, ignored by git); the served copy of
the wall and the server's log go under OUT/load-server/.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import socket
import threading
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import bench_wall  # the wall it serves is bench-wall's: built by the same code

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP_ID = "load-app"
MASTER_KEY = "load-master-key"
MOUNT = "/parse"


def parse_arguments():
    p = argparse.ArgumentParser(prog="load-server", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--posts", type=int, default=1_000_000, help="posts in the wall (bench-wall's wall of that size)")
    p.add_argument("--duration", type=int, default=30, help="seconds of the read test")
    p.add_argument("--connections", type=int, default=32, help="connections of the read test")
    p.add_argument("--write-duration", type=int, default=60, help="seconds of the write test")
    p.add_argument("--write-connections", type=int, default=50, help="connections of the write test")
    p.add_argument("--users", type=int, default=50, help="users signed up for the write test (tokens used in turn)")
    p.add_argument("--idle", type=int, default=300, help="idle connections held open during the flood test")
    p.add_argument("--flooders", type=int, default=8, help="threads flooding /login and /users during the flood test")
    p.add_argument("--threads", type=int, default=2, help="wrk threads")
    p.add_argument("--timeout", type=int, default=10, help="wrk's timeout of one request, in seconds")
    p.add_argument("--out", default="bench-out", help="folder for everything generated (shared with bench-wall)")
    p.add_argument("--scratch-path", default=".build-load",
                   help="swift build's scratch path (relative to the repository), where the binaries are found")
    p.add_argument("--no-build", action="store_true", help="use the release binaries already built")
    args = p.parse_args()
    if min(args.posts, args.duration, args.connections, args.write_duration, args.write_connections,
           args.users, args.threads, args.timeout) < 1:
        p.error("counts and durations must be at least 1")
    if args.threads > min(args.connections, args.write_connections):
        p.error("--threads must not exceed the connections (wrk needs one connection per thread)")
    return args


log = bench_wall.log


def fail(message):
    sys.exit(f"load-server: {message}")


# ---------------------------------------------------------------- set-up

def ensure_wrk():
    """wrk from Debian, installed with scripts/deps.sh's installer when missing (it is a
    benchmark tool: not in APT_PACKAGES, which the tests install)."""
    if shutil.which("wrk"):
        return
    log("wrk is missing: installing the Debian package")
    subprocess.run(["bash", "-c", "source scripts/deps.sh && install_apt_packages wrk"], cwd=ROOT, check=True)
    if not shutil.which("wrk"):
        fail("wrk is still missing after installing it")


def binaries(args, need_anywall):
    """The folder of the release binaries, after building anywall-server (and anywall, when
    the wall has to be imported) unless --no-build."""
    products = ["anywall-server"] + (["anywall"] if need_anywall else [])
    bench_args = bench_wall.parse_arguments(["--posts", str(args.posts), "--out", args.out,
                                             "--scratch-path", args.scratch_path]
                                            + (["--skip-build"] if args.no_build else []))
    return bench_wall.build(bench_args, ROOT, products=products, tools=products), bench_args


def wall_posts(path):
    try:
        out = subprocess.run(["sqlite3", path, "SELECT count(*) FROM post;"], capture_output=True, text=True)
        return int(out.stdout) if out.returncode == 0 else None
    except ValueError:
        return None


def cached_wall(args, out):
    """bench-wall's data (generated when missing) and its imported wall, imported when the
    cached one is missing, older than the data or not of --posts posts."""
    bench_args = bench_wall.parse_arguments(["--posts", str(args.posts), "--out", out])
    _, _, posts_file, places_files, wall = bench_wall.prepare_data(bench_args, out)
    usable = (os.path.exists(wall) and os.path.getmtime(wall) >= os.path.getmtime(posts_file)
              and wall_posts(wall) == args.posts)
    return usable, posts_file, places_files, wall


# ---------------------------------------------------------------- the server

def on_cpus(cpus):
    """What a child runs before its program so that it and its threads stay on the processors
    `cpus` (a set of numbers); None leaves it on all of them."""
    return None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))


class Server:
    """anywall-server on a wall (`wall_arguments`: ["--store", FILE] or ["--database", URI]), its
    log (one JSON line per request and event) in a file, its port read from the "listening" line;
    on the processors `cpus` when given."""

    def __init__(self, binary, wall_arguments, log_path, env, cpus=None):
        self.log_path = log_path
        self.log_file = open(log_path, "w")
        # Every sign-up of the write test, and every connection, comes from this one address: past
        # the gate's default budget and the default share of connections.
        self.process = subprocess.Popen([binary, *wall_arguments, "--bind", "127.0.0.1", "--port", "0",
                                         "--mount", MOUNT, "--password-attempts", "100000",
                                         "--max-connections-per-address", "100000"], env=env, stdout=subprocess.DEVNULL, stderr=self.log_file,
                                        preexec_fn=on_cpus(cpus))
        self.port = None
        deadline = time.monotonic() + 60
        while self.port is None:
            for event in self.events():
                if event.get("event") == "listening":
                    self.port = int(event["port"])
            if self.port is None:
                if self.process.poll() is not None:
                    fail(f"anywall-server exited with status {self.process.returncode} before listening:\n"
                         + open(log_path).read())
                if time.monotonic() > deadline:
                    self.process.kill()
                    fail("anywall-server did not log 'listening' within 60 s")
                time.sleep(0.05)
        self.base = f"http://127.0.0.1:{self.port}{MOUNT}"

    def events(self):
        """Every JSON line logged so far."""
        with open(self.log_path) as f:
            for line in f:
                try:
                    yield json.loads(line)
                except ValueError:
                    if line.strip():
                        yield {"event": "unparsed", "line": line.rstrip("\n")}

    def call(self, method, path, body=None, headers=None):
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        request.add_header("X-Parse-Application-Id", APP_ID)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def count_posts(self):
        status, answer = self.call("GET", "/classes/Posts?count=1&limit=0")
        if status != 200:
            fail(f"GET count answered {status}: {answer}")
        return int(answer["count"])

    def stop(self):
        """SIGTERM, then the exit status (the server finishes the requests in flight first)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = "still running 60 s after SIGTERM (killed)"
        self.log_file.close()
        return status


# ---------------------------------------------------------------- wrk

def nearby_path(lat, lon, km=bench_wall.SEARCH_KM):
    """The CLI's nearby query as a GET path (within `km`), `where` urlencoded."""
    where = {"location": {"$nearSphere": {"__type": "GeoPoint", "latitude": lat, "longitude": lon},
                          "$maxDistanceInKilometers": km}}
    query = urllib.parse.urlencode({"where": json.dumps(where, separators=(",", ":")), "include": "user",
                                    "limit": str(bench_wall.LIMIT)})
    return f"{MOUNT}/classes/Posts?{query}"


def lua_string(text):
    return json.dumps(text)  # a JSON string of ASCII is a valid Lua string literal


# Shared by both scripts: each thread gets an id (setup runs in wrk's main Lua state, init in the
# thread's own), and done() prints one JSON line adding up what the threads counted.
LUA_COMMON = r"""
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
"""

READ_LUA = LUA_COMMON + r"""
local paths = { %(paths)s }
local headers = { ["X-Parse-Application-Id"] = %(app)s }
local i
function init(args)
  i = (id * 7919) %% #paths     -- threads start at different places, then go round in turn
end
function request()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i], headers)
end
"""

WRITE_LUA = LUA_COMMON + r"""
local tokens = { %(tokens)s }
local places = { %(places)s }
local n = 0
function init(args)
end
function request()
  n = n + 1
  local place = places[(n + id) %% #places + 1]
  local key = "load-" .. %(run)s .. "-" .. id .. "-" .. n
  local body = '{"text":"load test ' .. key .. '","location":{"__type":"GeoPoint","latitude":'
    .. place[1] .. ',"longitude":' .. place[2] .. '}}'
  local headers = {
    ["X-Parse-Application-Id"] = %(app)s,
    ["X-Parse-Session-Token"] = tokens[(n * 31 + id) %% #tokens + 1],
    ["X-Parse-Request-Id"] = key,
    ["Content-Type"] = "application/json",
  }
  return wrk.format("POST", "%(mount)s/classes/Posts", headers, body)
end
statuses = {}
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local counted = thread:get("statuses")
    for status, count in pairs(counted) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do
    table.insert(parts, '"' .. status .. '":' .. count)
  end
  io.write('LOAD-SERVER-STATUSES {' .. table.concat(parts, ",") .. '}\n')
end
"""

UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def milliseconds(text):
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * UNITS[unit]


def parse_wrk(output):
    """requests/s, latency percentiles (ms), requests done, non-2xx/3xx and socket errors."""
    result = {"nonSuccess": 0, "socketErrors": {}}
    result["requestsPerSecond"] = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    done = re.search(r"(\d+) requests in ([\d.]+\w+)", output)
    result["requests"] = int(done.group(1))
    result["seconds"] = milliseconds(done.group(2)) / 1000
    result["percentilesMs"] = {p: milliseconds(v) for p, v in
                               re.findall(r"^\s+(50|75|90|99)%\s+([\d.]+(?:us|ms|s|m))\s*$", output, re.M)}
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    if non2xx:
        result["nonSuccess"] = int(non2xx.group(1))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if errors:
        result["socketErrors"] = dict(zip(("connect", "read", "write", "timeout"), map(int, errors.groups())))
    statuses = re.search(r"^LOAD-SERVER-STATUSES (.*)$", output, re.M)
    if statuses:
        result["statuses"] = {int(k): v for k, v in json.loads(statuses.group(1)).items()}
    return result


def run_wrk(args, server, script_text, script_path, connections, seconds, label, cpus=None):
    return finish_wrk(start_wrk(args, server, script_text, script_path, connections, seconds, label, args.threads, cpus))


def start_wrk(args, server, script_text, script_path, connections, seconds, label, threads, cpus=None):
    """wrk started in the background, on the processors `cpus` when given; `finish_wrk` waits
    for it and reads its figures."""
    with open(script_path, "w") as f:
        f.write(script_text)
    command = ["wrk", "--threads", str(threads), "--connections", str(connections),
               "--duration", f"{seconds}s", "--timeout", f"{args.timeout}s", "--latency",
               "--script", script_path, f"http://127.0.0.1:{server.port}"]
    log(f"{label}: " + " ".join(command))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=on_cpus(cpus))
    return RunningWrk(process, script_path, connections, threads)


class RunningWrk:
    """A wrk run under way: its process, and what its figures are reported with."""

    def __init__(self, process, script_path, connections, threads):
        self.process, self.script_path, self.connections, self.threads = process, script_path, connections, threads


def finish_wrk(run):
    stdout, stderr = run.process.communicate()
    with open(run.script_path[:-len(".lua")] + ".out", "w") as f:
        f.write(stdout + stderr)
    if run.process.returncode != 0 or "Requests/sec" not in stdout:
        fail(f"wrk failed (status {run.process.returncode}):\n{stdout}{stderr}")
    log(stdout.rstrip())
    result = parse_wrk(stdout)
    result.update(connections=run.connections, threads=run.threads)
    return result


class Flood:
    """Idle connections held open and threads sending log-ins with a wrong password and sign-ups,
    each of which would cost the server a scrypt hash, over keep-alive HTTP/1.1."""

    def __init__(self, port, idle, flooders, victim):
        self.port, self.victim, self.stopping = port, victim, threading.Event()
        self.statuses, self.lock = {}, threading.Lock()
        self.idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(idle)]
        self.threads = [threading.Thread(target=self.flood, args=(n,), daemon=True) for n in range(flooders)]
        for thread in self.threads:
            thread.start()

    def flood(self, n):
        connection = socket.create_connection(("127.0.0.1", self.port))
        reader = connection.makefile("rb")
        attempt = 0
        while not self.stopping.is_set():
            attempt += 1
            if attempt % 2:
                path, body = "/login", {"username": self.victim, "password": "wrong"}
            else:
                path, body = "/users", {"username": f"flood{n}x{attempt}x{time.monotonic_ns()}", "password": "flood-password"}
            data = json.dumps(body).encode()
            connection.sendall(f"POST {MOUNT}{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: {APP_ID}\r\n"
                               f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
            status = int(reader.readline().split()[1])
            length = 0
            while (line := reader.readline().strip()):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            reader.read(length)
            with self.lock:
                self.statuses[status] = self.statuses.get(status, 0) + 1
        connection.close()

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)
        for connection in self.idle:
            connection.close()
        return dict(sorted(self.statuses.items()))


# ---------------------------------------------------------------- main

def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    memory = "?"
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GB"
    return {"nproc": nproc, "model": model, "memory": memory}


def access_log_statuses(server, method, path):
    """The statuses the server logged for method+path, as {status: count}."""
    counts = {}
    for event in server.events():
        if event.get("event") == "request" and event.get("method") == method and event.get("path") == path:
            status = int(event["status"])
            counts[status] = counts.get(status, 0) + 1
    return counts


def server_env(out):
    """bench-wall's private environment (a HOME of its own under `out`), with the application id
    and master key the servers here are given."""
    env = bench_wall.private_env(out)
    env.update(PARSE_SERVER_APPLICATION_ID=APP_ID, PARSE_SERVER_MASTER_KEY=MASTER_KEY)
    return env


def serve_copy(args, out, work, cpus=None, loops=None):
    """The release server on a scratch copy (under `work`) of bench-wall's wall of --posts posts,
    imported first when missing; the server, the places files, the server's environment and the
    copy's path. `cpus`: the processors it runs on; `loops`: its event loops (NIO's own setting;
    by default one a processor)."""
    env = server_env(out)
    if loops is not None:
        env["NIO_SINGLETON_GROUP_LOOP_COUNT"] = str(loops)
    usable, posts_file, places_files, cached = cached_wall(args, out)
    bin_dir, bench_args = binaries(args, need_anywall=not usable)
    if usable:
        log(f"reusing {cached} ({args.posts} posts)")
    else:
        bench_wall.import_wall(bench_args, bin_dir, posts_file, cached, env)

    # The server writes to a copy: the cached wall stays as bench-wall imported it.
    wall = os.path.join(work, "wall.sqlite")
    for suffix in ("", "-wal", "-shm", ".lock"):
        if os.path.exists(wall + suffix):
            os.remove(wall + suffix)
    log(f"copying the wall to {wall}")
    for suffix in ("", "-wal"):
        if os.path.exists(cached + suffix):
            shutil.copyfile(cached + suffix, wall + suffix)
    server = Server(os.path.join(bin_dir, "anywall-server"), ["--store", wall], os.path.join(work, "server.log"), env, cpus)
    return server, places_files, env, wall


def start_posting(args, server, work, run, connections, duration, cpus=None):
    """Signs up --users users, then has wrk (on `cpus` when given) post for `duration` seconds
    over `connections` connections, each post with its own text and request id: wrk's figures
    with what check_posting needs once the server stopped."""
    tokens = []
    log(f"signing up {args.users} users")
    for i in range(args.users):
        status, answer = server.call("POST", "/users", {"username": f"load{run}u{i}", "password": f"load-pw-{run}-{i}",
                                                        "name": f"Load {i}"})
        if status != 201:
            fail(f"sign-up answered {status}: {answer}")
        tokens.append(answer["sessionToken"])
    before = server.count_posts()
    created_before = access_log_statuses(server, "POST", f"{MOUNT}/classes/Posts").get(201, 0)
    write_places = ", ".join("{%r, %r}" % (lat, lon) for _, lat, lon in bench_wall.CITIES)
    write = run_wrk(args, server, WRITE_LUA % {"tokens": ", ".join(map(lua_string, tokens)), "places": write_places,
                                               "run": lua_string(run), "app": lua_string(APP_ID), "mount": MOUNT},
                    os.path.join(work, "write.lua"), connections, duration, "writes", cpus)
    write.update(postsBefore=before, createdBefore=created_before, users=args.users)
    return write


def check_posting(args, server, wall, run, write):
    """After the server stopped: whether every post answered 201 is in the wall once, and no
    other was added but those still in flight when wrk stopped. The write figures and problems."""
    after = wall_posts(wall)
    stored = subprocess.run(["sqlite3", wall, f"SELECT count(*), count(DISTINCT text) FROM post "
                                              f"WHERE text LIKE 'load test load-{run}-%';"],
                            capture_output=True, text=True, check=True).stdout.strip().split("|")
    write["statuses"] = write.get("statuses", {})
    created = write["statuses"].get(201, 0)
    logged_created = access_log_statuses(server, "POST", f"{MOUNT}/classes/Posts").get(201, 0) - write["createdBefore"]
    added = after - write["postsBefore"]
    timeouts = write["socketErrors"].get("timeout", 0)
    bound = created + write["connections"] + timeouts
    write.update(postsAfter=after, added=added, created201=created, serverLogged201=logged_created,
                 storedLoadPosts=int(stored[0]), distinctLoadTexts=int(stored[1]))
    write["noPostLost"] = created <= added <= bound and logged_created == added and int(stored[0]) == int(stored[1]) == added
    problems = []
    other = {s: c for s, c in write["statuses"].items() if s != 201}
    if other or sum(write["socketErrors"].values()):
        problems.append(f"writes: answers other than 201 {other}, socket errors {write['socketErrors']}")
    if not write["noPostLost"]:
        problems.append(f"writes: the wall gained {added} posts ({stored[0]} load posts, {stored[1]} distinct texts; "
                        f"server logged {logged_created} 201s) for {created} 201s counted by wrk "
                        f"(expected {created}..{bound})")
    return write, problems


# Connections asking the slowest nearest searches beside the reads: a client or two, not a flood.
SLOW_CONNECTIONS = 2


def main():
    args = parse_arguments()
    out = bench_wall.out_folder(bench_wall.parse_arguments(["--out", args.out]), ROOT)
    work = os.path.join(out, "load-server")
    os.makedirs(work, exist_ok=True)
    ensure_wrk()
    server, places_files, env, wall = serve_copy(args, out, work)
    log(f"anywall-server listening on port {server.port} (log: {server.log_path})")
    report = {"date": datetime.date.today().isoformat(), "source": bench_wall.source_state(ROOT),
              "machine": machine(), "posts": args.posts, "port": server.port}
    problems = []
    try:
        before = server.count_posts()
        if before != args.posts:
            problems.append(f"the wall served holds {before} posts, not {args.posts}")

        # ---- reads
        places = bench_wall.read_places(places_files["city"])
        lat, lon = places[0]
        status, answer = server.call("GET", nearby_path(lat, lon)[len(MOUNT):])
        if status != 200 or len(answer["results"]) != bench_wall.LIMIT or "user" not in answer["results"][0]:
            fail(f"the nearby query at {lat},{lon} answered {status}: {str(answer)[:500]}")
        paths = ",\n  ".join(lua_string(nearby_path(lat, lon)) for lat, lon in places)
        read = run_wrk(args, server, READ_LUA % {"paths": paths, "app": lua_string(APP_ID)},
                       os.path.join(work, "read.lua"), args.connections, args.duration, "reads")
        read["places"] = len(places)
        report["read"] = read
        errors = read["nonSuccess"] + sum(read["socketErrors"].values())
        if errors:
            problems.append(f"reads: {read['nonSuccess']} non-2xx answers, socket errors {read['socketErrors']}")

        # ---- reads beside idle connections and a log-in flood
        run = datetime.datetime.now().strftime("%Y%m%d%H%M%S")
        status, answer = server.call("POST", "/users", {"username": f"victim{run}", "password": "right-password"})
        if status != 201:
            fail(f"sign-up answered {status}: {answer}")
        flood = Flood(server.port, args.idle, args.flooders, f"victim{run}")
        try:
            flooded = run_wrk(args, server, READ_LUA % {"paths": paths, "app": lua_string(APP_ID)},
                              os.path.join(work, "read-flood.lua"), args.connections, args.duration, "reads during a flood")
        finally:
            flooded["floodStatuses"] = flood.stop()
        flooded.update(places=len(places), idle=args.idle, flooders=args.flooders)
        report["readFlooded"] = flooded
        if flooded["nonSuccess"] + sum(flooded["socketErrors"].values()):
            problems.append(f"reads during the flood: {flooded['nonSuccess']} non-2xx, socket errors {flooded['socketErrors']}")

        # ---- reads beside the slowest nearest searches: the whole earth, from places by the poles
        # (no post within 1,000 km on bench-wall's data), which the server runs on its event loops
        slow_places = [(lat, lon) for lat, lon in bench_wall.read_places(places_files["earth"]) if lat >= 75 or lat <= -65]
        slow_paths = ",\n  ".join(lua_string(nearby_path(lat, lon, bench_wall.WHOLE_EARTH_KM)) for lat, lon in slow_places)
        slow = start_wrk(args, server, READ_LUA % {"paths": slow_paths, "app": lua_string(APP_ID)},
                         os.path.join(work, "slowest.lua"), SLOW_CONNECTIONS, args.duration + 2, "the slowest searches", 1)
        try:
            time.sleep(1)
            beside_slow = run_wrk(args, server, READ_LUA % {"paths": paths, "app": lua_string(APP_ID)},
                                  os.path.join(work, "read-slowest.lua"), args.connections, args.duration,
                                  "reads beside the slowest searches")
        finally:
            slowest = finish_wrk(slow)
        beside_slow["slowest"] = dict(slowest, places=len(slow_places))
        report["readBesideSlowest"] = beside_slow
        for result, what in ((beside_slow, "reads beside the slowest searches"), (beside_slow["slowest"], "the slowest searches")):
            if result["nonSuccess"] + sum(result["socketErrors"].values()):
                problems.append(f"{what}: {result['nonSuccess']} non-2xx, socket errors {result['socketErrors']}")

        # ---- writes
        posting = start_posting(args, server, work, run, args.write_connections, args.write_duration)
        time.sleep(1)  # the requests in flight when wrk stopped
        posting["postsAfterLive"] = server.count_posts()
    finally:
        exit_status = server.stop()
    report["serverExit"] = exit_status
    if exit_status != 0:
        problems.append(f"anywall-server exited with {exit_status} on SIGTERM (expected 0)")

    write, write_problems = check_posting(args, server, wall, run, posting)
    report["write"] = write
    problems += write_problems

    server_errors = [e for e in server.events() if e.get("event") in ("error", "failed", "unparsed")]
    server_5xx = sum(1 for e in server.events() if e.get("event") == "request" and int(e.get("status", 0)) >= 500)
    report["serverErrors"] = server_errors[:50]
    report["server5xx"] = server_5xx
    if server_errors or server_5xx:
        problems.append(f"the server logged {len(server_errors)} error events and {server_5xx} 5xx answers "
                        f"(see {server.log_path})")
        for event in server_errors[:20]:
            log("  " + json.dumps(event))
    report["problems"] = problems

    with open(os.path.join(work, f"report-{args.posts}.json"), "w") as f:
        json.dump(report, f, indent=2, default=str)
    print_summary(report)
    if problems:
        print("PROBLEMS:\n" + "\n".join("  " + p for p in problems))
        sys.exit(1)


def print_summary(r):
    m, read, write, flooded, slowed = r["machine"], r["read"], r["write"], r["readFlooded"], r["readBesideSlowest"]
    slowest = slowed["slowest"]
    p = lambda result, q: f"{result['percentilesMs'].get(q, float('nan')):.2f} ms"
    lost = "no post lost" if write["noPostLost"] else "POSTS LOST OR EXTRA"
    lines = [
        f"anywall-server load test, {r['posts']:,}-post wall, {r['date']}, {r['source']} (release; "
        f"{m['nproc']} CPUs, {m['model']}, {m['memory']}; wrk on the same machine)",
        "",
        "| load | wrk | requests/s | p50 | p99 | errors |",
        "|---|---|---:|---:|---:|---|",
        f"| nearby (GET, $nearSphere 100 km, include=user, limit 20) at {read['places']} city places "
        f"| {read['threads']} threads, {read['connections']} connections, {read['seconds']:.0f} s "
        f"| {read['requestsPerSecond']:,.0f} | {p(read, '50')} | {p(read, '99')} "
        f"| {read['nonSuccess']} non-2xx, {sum(read['socketErrors'].values())} socket |",
        f"| the same, beside {flooded['idle']} idle connections and {flooded['flooders']} threads flooding /login and /users "
        f"| {flooded['threads']} threads, {flooded['connections']} connections, {flooded['seconds']:.0f} s "
        f"| {flooded['requestsPerSecond']:,.0f} | {p(flooded, '50')} | {p(flooded, '99')} "
        f"| {flooded['nonSuccess']} non-2xx, {sum(flooded['socketErrors'].values())} socket |",
        f"| the same, beside {slowest['connections']} connections asking the nearest 20 in the whole earth at "
        f"{slowest['places']} places by the poles | {slowed['threads']} threads, {slowed['connections']} connections, "
        f"{slowed['seconds']:.0f} s | {slowed['requestsPerSecond']:,.0f} | {p(slowed, '50')} | {p(slowed, '99')} "
        f"| {slowed['nonSuccess']} non-2xx, {sum(slowed['socketErrors'].values())} socket |",
        f"| (those searches by the poles) | {slowest['threads']} thread, {slowest['connections']} connections "
        f"| {slowest['requestsPerSecond']:,.0f} | {p(slowest, '50')} | {p(slowest, '99')} "
        f"| {slowest['nonSuccess']} non-2xx, {sum(slowest['socketErrors'].values())} socket |",
        f"| post (POST /classes/Posts, {write['users']} users, unique request ids) "
        f"| {write['threads']} threads, {write['connections']} connections, {write['seconds']:.0f} s "
        f"| {write['requestsPerSecond']:,.0f} | {p(write, '50')} | {p(write, '99')} "
        f"| {sum(v for s, v in write['statuses'].items() if s != 201)} non-201, {sum(write['socketErrors'].values())} socket |",
        "",
        f"writes: {write['created201']:,} answered 201 (counted by wrk), the wall gained {write['added']:,} posts "
        f"({write['postsBefore']:,} -> {write['postsAfter']:,}), the server logged {write['serverLogged201']:,} 201s, "
        f"{write['distinctLoadTexts']:,} distinct load texts: {lost}",
        f"flood: nearby p99 {flooded['percentilesMs']['99'] / read['percentilesMs']['99']:.2f}x the p99 without it; "
        f"the flood's answers by status: {flooded['floodStatuses']}",
        f"beside the searches by the poles: nearby {slowed['requestsPerSecond'] / read['requestsPerSecond']:.2f}x the "
        f"requests/s and p99 {slowed['percentilesMs']['99'] / read['percentilesMs']['99']:.2f}x the p99 without them",
        f"server: {'exit 0 on SIGTERM' if r['serverExit'] == 0 else 'exit ' + str(r['serverExit'])}, "
        f"{len(r['serverErrors'])} error events, {r['server5xx']} 5xx answers",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
