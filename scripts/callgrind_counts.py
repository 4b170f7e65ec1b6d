#!/usr/bin/env python3
"""Instruction counts (valgrind's callgrind) of anywall's hot paths: figures that repeat on a
noisy machine, so a change can be judged where timings drift.

  * the nearby query in process: `anywall-bench nearby` at 100 of bench-wall's city places, run
    with 3 rounds and with 1; the difference over 200 queries is one query (opening the wall
    and reading the places cancel out);
  * one whole CLI process: `anywall nearby --json --at LAT,LON --store WALL` at a city place, and
    `anywall --version`, from the dynamic loader to exit;
  * the import of a Parse export (bench-wall's generator, IMPORT_POSTS posts) into a new wall, per
    post: `anywall import` run whole, so its start and the index build are shared out;
  * one server request: `anywall-server` under callgrind on a copy of the wall, warmed with one
    nearby request at each of the 100 places (so the posts' JSON is in its cache, as in
    bench-server's steady state), its counters zeroed, then 200 nearby requests at those places
    (the CLI's query, as bench-server sends it), 200 GETs of one post (the nearest to each place,
    as bench-server's `get`) and 200 GETs of /health: each count over 200 is one request, every
    thread of the server included (HTTP, routing, the query, JSON, the log).

The wall is bench-wall's (1,000,000 posts by default, generated and imported when missing). The
binaries are the release build with --static-swift-stdlib, as scripts/quickstart builds it.
Valgrind 3.19 (Debian 12) cannot read the DWARF 5 debug information Swift 6 writes, so each
binary is run from a copy with its debug information stripped (its symbols kept).

With --server-only, only the server's requests are counted (and only anywall-server is built).
With --postgres, the server's requests are counted again on the PostgreSQL store: the wall copied
into a throw-away PostgreSQL cluster with PostGIS (as scripts/bench-postgres makes it); the counts
are the server's alone, not PostgreSQL's.

Usage: scripts/callgrind-counts [--posts N] [--out DIR] [--scratch-path P] [--skip-build] [--server-only] [--postgres]
Prints a table and writes OUT/callgrind/counts-N.json.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

import bench_postgres
import bench_wall
import parse_export
from bench_wall import log
from load_server import APP_ID, MASTER_KEY, MOUNT, ROOT, cached_wall, nearby_path

PLACES = 100
REQUESTS = 200
IMPORT_POSTS = 10_000


def parse_arguments():
    p = argparse.ArgumentParser(prog="callgrind-counts", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--posts", type=int, default=1_000_000, help="posts in the wall (bench-wall's wall of that size)")
    p.add_argument("--out", default="bench-out", help="folder for everything generated (shared with bench-wall)")
    p.add_argument("--scratch-path", default=".build-bench", help="the release build's folder (shared with bench-wall)")
    p.add_argument("--skip-build", action="store_true", help="use the release binaries already built")
    p.add_argument("--server-only", action="store_true", help="count the server's requests alone")
    p.add_argument("--postgres", action="store_true", help="count the server's requests on the PostgreSQL store too")
    return p.parse_args()


def total(path):
    """The instructions a callgrind output file counts."""
    with open(path) as f:
        for line in f:
            match = re.match(r"^(?:summary|totals):\s+(\d+)", line)
            if match:
                return int(match.group(1))
    sys.exit(f"callgrind-counts: no total in {path}")


def stripped(bin_dir, tool, work):
    copy = os.path.join(work, tool)
    shutil.copyfile(os.path.join(bin_dir, tool), copy)
    os.chmod(copy, 0o755)
    subprocess.run(["strip", "--strip-debug", copy], check=True)
    return copy


def counted(command, env, work, name):
    """The instructions of one whole run of `command`."""
    out = os.path.join(work, f"{name}.callgrind")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command], env=env,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return total(out)


def wall_copy(wall, work):
    """A copy of the wall under `work`, which the server may write to."""
    copy = os.path.join(work, "wall.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    for suffix in ("", "-wal"):
        if os.path.exists(wall + suffix):
            shutil.copyfile(wall + suffix, copy + suffix)
    return copy


def server_counts(server_binary, wall_arguments, env, work, places):
    """Instructions per nearby request, per GET of one post and per /health request of the server
    under callgrind, serving the wall `wall_arguments` names (["--store", FILE] or ["--database", URI])."""
    out = os.path.join(work, "server.callgrind")
    for old in os.listdir(work):
        if old.startswith("server.callgrind"):
            os.remove(os.path.join(work, old))
    log_path = os.path.join(work, "server.log")
    server_env = dict(env, PARSE_SERVER_APPLICATION_ID=APP_ID, PARSE_SERVER_MASTER_KEY=MASTER_KEY)
    with open(log_path, "w") as log_file:
        process = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", server_binary,
                                    *wall_arguments, "--bind", "127.0.0.1", "--port", "0", "--mount", MOUNT],
                                   env=server_env, stdout=subprocess.DEVNULL, stderr=log_file)
    try:
        port = None
        deadline = time.monotonic() + 300
        while port is None:
            with open(log_path) as f:
                for line in f:
                    if line.startswith("{") and json.loads(line).get("event") == "listening":
                        port = json.loads(line)["port"]
            if port is None:
                if process.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"callgrind-counts: the server did not start under valgrind (see {log_path})")
                time.sleep(0.5)

        def get(path):
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"X-Parse-Application-Id": APP_ID})
            with urllib.request.urlopen(request, timeout=120) as answer:
                if answer.status != 200:
                    sys.exit(f"callgrind-counts: {path} answered {answer.status}")
                return answer.read()

        def measured(paths):
            """Zeroes the counters, sends `paths`, dumps the counters: the instructions counted."""
            subprocess.run(["callgrind_control", "--zero", str(process.pid)], check=True, stdout=subprocess.DEVNULL)
            for path in paths:
                get(path)
            before = set(os.listdir(work))
            subprocess.run(["callgrind_control", "--dump", str(process.pid)], check=True, stdout=subprocess.DEVNULL)
            dumped = sorted(set(os.listdir(work)) - before)
            if not dumped:
                sys.exit("callgrind-counts: callgrind_control --dump wrote no file")
            return total(os.path.join(work, dumped[-1]))

        # Warmed at every place once, as wrk's later laps find it: the posts' JSON is then in the
        # server's cache (PostJSONCache), and the count is the steady state's.
        nearby = [nearby_path(lat, lon) for lat, lon in places]
        fetches = [f"{MOUNT}/classes/Posts/{json.loads(get(path))['results'][0]['objectId']}" for path in nearby]
        for path in fetches:
            get(path)
        per_nearby = measured((nearby * (REQUESTS // len(nearby) + 1))[:REQUESTS]) / REQUESTS
        per_get = measured((fetches * (REQUESTS // len(fetches) + 1))[:REQUESTS]) / REQUESTS
        per_health = measured([f"{MOUNT}/health"] * REQUESTS) / REQUESTS
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=300)
    return per_nearby, per_get, per_health


def main():
    args = parse_arguments()
    for tool in ("valgrind", "callgrind_control", "strip"):
        if shutil.which(tool) is None:
            sys.exit(f"callgrind-counts: {tool} is missing (Debian: apt-get install valgrind binutils)")
    out = bench_wall.out_folder(bench_wall.parse_arguments(["--out", args.out]), ROOT)
    work = os.path.join(out, "callgrind")
    os.makedirs(work, exist_ok=True)
    usable, posts_file, places_files, wall = cached_wall(args, out)
    build_args = bench_wall.parse_arguments(["--posts", str(args.posts), "--out", args.out, "--scratch-path", args.scratch_path,
                                             "--static-swift-stdlib"] + (["--skip-build"] if args.skip_build else []))
    tools = ("anywall-server",) if args.server_only else ("anywall", "anywall-bench", "anywall-server")
    bin_dir = bench_wall.build(build_args, ROOT, products=list(tools) + (["anywall"] if not usable and args.server_only else []),
                               tools=tools + (("anywall",) if not usable else ()))
    env = bench_wall.private_env(out)
    if not usable:
        bench_wall.import_wall(build_args, bin_dir, posts_file, wall, env)
    places = bench_wall.read_places(places_files["city"])[:PLACES]
    report = {"source": bench_wall.source_state(ROOT), "posts": args.posts, "places": len(places)}
    labels = {"inProcessQuery": "nearby in process, one query", "cliNearbyProcess": "anywall nearby --json, one process",
              "cliVersionProcess": "anywall --version, one process", "importPerPost": "anywall import of an export, per post", "serverNearbyRequest": "server: one nearby request",
              "serverGetRequest": "server: one GET of a post", "serverHealthRequest": "server: one /health request",
              "postgresNearbyRequest": "server on PostgreSQL: one nearby", "postgresGetRequest": "server on PostgreSQL: one GET"}
    if not args.server_only:
        anywall, bench = (stripped(bin_dir, tool, work) for tool in ("anywall", "anywall-bench"))
        places_file = os.path.join(work, "places.txt")
        with open(places_file, "w") as f:
            f.write("".join(f"{lat},{lon}\n" for lat, lon in places))
        log("counting the in-process query")
        rounds = {n: counted([bench, "nearby", "--store", wall, "--places", places_file, "--rounds", str(n)], env, work, f"bench-{n}")
                  for n in (1, 3)}
        report["inProcessQuery"] = (rounds[3] - rounds[1]) / (2 * len(places))
        log("counting whole CLI processes")
        lat, lon = places[0]
        report["cliNearbyProcess"] = counted([anywall, "nearby", "--json", "--at", f"{lat:.6f},{lon:.6f}", "--store", wall], env, work, "nearby")
        report["cliVersionProcess"] = counted([anywall, "--version"], env, work, "version")
        log(f"counting the import of a {IMPORT_POSTS:,}-post Parse export")
        export, imported = os.path.join(work, "import-export.json"), os.path.join(work, "import-wall.sqlite")
        # performance.md's import table counts this export: bench-wall's seed, 500 authors.
        parse_export.write_export(export, IMPORT_POSTS, seed=bench_wall.parse_arguments([]).seed, authors=IMPORT_POSTS // 20)
        for suffix in ("", "-wal", "-shm", ".lock"):
            if os.path.exists(imported + suffix):
                os.remove(imported + suffix)
        report["importPerPost"] = counted([anywall, "import", export, "--store", imported], env, work, "import") / IMPORT_POSTS
    log("counting server requests (valgrind makes the server ~50x slower: a minute or two)")
    server = stripped(bin_dir, "anywall-server", work)
    report["serverNearbyRequest"], report["serverGetRequest"], report["serverHealthRequest"] = \
        server_counts(server, ["--store", wall_copy(wall, work)], env, work, places)
    if args.postgres:
        log("counting server requests on PostgreSQL")
        cluster = bench_postgres.Cluster(os.path.join(work, "cluster"), "1GB")
        try:
            subprocess.run([server, "copy", "--from", wall_copy(wall, work), "--to", cluster.uri],
                           env=dict(env, PARSE_SERVER_APPLICATION_ID=APP_ID, PARSE_SERVER_MASTER_KEY=MASTER_KEY), check=True,
                           stdout=subprocess.DEVNULL)
            cluster.sql("VACUUM ANALYZE")
            report["postgresNearbyRequest"], report["postgresGetRequest"], _ = \
                server_counts(server, ["--database", cluster.uri], env, work, places)
        finally:
            cluster.stop(keep=False)

    with open(os.path.join(work, f"counts-{args.posts}.json"), "w") as f:
        json.dump(report, f, indent=2)
    print(f"instructions (callgrind), {args.posts:,}-post wall, {report['source']}")
    for key, label in labels.items():
        if key in report:
            print(f"  {label:<38} {report[key]:>14,.0f}")


if __name__ == "__main__":
    sys.exit(main())
