#!/usr/bin/env python3
"""Throughput of anywall-server's requests beside its own HTTP floor, measured in one run.

Serves a scratch copy of scripts/bench-wall's wall (1,000,000 posts by default; built and cached
under --out by the same code as scripts/load-server) with the release `anywall-server`, and
drives it with wrk, one kind of request at a time:
  * /health: no keys, no wall: the server's HTTP floor, the peer every figure is divided by;
  * nearby: the CLI's query (GET /classes/Posts, $nearSphere 100 km, include=user, limit 20)
    at bench-wall's 500 city places, in turn;
  * get: GET /classes/Posts/ID of 500 posts near those places, in turn;
  * post: POST /classes/Posts by 50 signed-up users, each post with its own text and request id
    (durable commits); afterwards, with the server stopped, every post answered 201 must be in
    the wall once and no other added but those in flight when wrk stopped (as load-server checks).
Before timing, it checks the answers: the nearby answers at the first 50 places (text and
place of each post, in order) must equal those recorded by the first run under --out
(recorded then), so a change that speeds the server up cannot change what it answers.
Prints requests/s, p50 and p99 of each and their ratios (to /health; p99 to p50), then issue 37's
targets (nearby >= 0.3x /health, GET >= 0.7x), each MET or MISSED. wrk and the
server share the machine's CPUs. With --apart, all of it again (on a fresh copy of the wall)
with the server alone on one processor, one event loop, and wrk on another, as a load generator
on a second machine would leave it: its tail is then the server's own, where sharing the CPUs
adds whatever wrk's threads and the server's wait for each other. Exit status 1 when an answer
changed or a request failed.

Usage: scripts/bench-server [--posts N] [--duration S] [--connections N] [--threads N] [--users N] [--out DIR] [--no-build] [--apart]
"""

import argparse
import datetime
import json
import os
import sys

import bench_wall
import ratio_targets
from bench_wall import log
from load_server import (APP_ID, MOUNT, READ_LUA, ROOT, check_posting, ensure_wrk, fail, lua_string, nearby_path, run_wrk,
                         serve_copy, start_posting)

CHECKED_PLACES = 50
# Issue 37's targets, each a ratio to the server's own /health in the same run.
TARGETS = {
    "nearby": ratio_targets.Target("server nearby ($nearSphere 100 km, include=user, limit 20), req/s", 0.3),
    "get": ratio_targets.Target("server GET of one post, req/s", 0.7),
}


def parse_arguments():
    p = argparse.ArgumentParser(prog="bench-server", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--posts", type=int, default=1_000_000, help="posts in the wall (bench-wall's wall of that size)")
    p.add_argument("--duration", type=int, default=15, help="seconds of each wrk run")
    p.add_argument("--connections", type=int, default=32, help="wrk connections")
    p.add_argument("--threads", type=int, default=2, help="wrk threads")
    p.add_argument("--users", type=int, default=50, help="users signed up for the post test (tokens used in turn)")
    p.add_argument("--timeout", type=int, default=10, help="wrk's timeout of one request, in seconds")
    p.add_argument("--out", default="bench-out", help="folder for everything generated (shared with bench-wall)")
    p.add_argument("--scratch-path", default=".build-load", help="the release build's folder (shared with load-server)")
    p.add_argument("--no-build", action="store_true", help="use the release binaries already built")
    p.add_argument("--apart", action="store_true",
                   help="then again with the server on one processor (one event loop) and wrk on another")
    return p.parse_args()


def answers(server, places):
    """Each place's nearby answer as (text, latitude, longitude) in order: what the wall's
    generated data fixes, whatever object ids an import drew."""
    found = []
    for lat, lon in places:
        status, answer = server.call("GET", nearby_path(lat, lon)[len(MOUNT):])
        if status != 200:
            fail(f"the nearby query at {lat},{lon} answered {status}: {str(answer)[:500]}")
        found.append([[post["text"], post["location"]["latitude"], post["location"]["longitude"]] for post in answer["results"]])
    return found


def check_answers(server, places, work, posts):
    """Fails unless the nearby answers at the first places equal those recorded under `work` by
    the first run (which records them)."""
    now = answers(server, places[:CHECKED_PLACES])
    recorded = os.path.join(work, f"answers-{posts}.json")
    if os.path.exists(recorded):
        with open(recorded) as f:
            if json.load(f) != now:
                fail(f"the nearby answers differ from those recorded in {recorded}: the server answers otherwise")
        log(f"the nearby answers at {CHECKED_PLACES} places are those recorded in {recorded}")
    else:
        with open(recorded, "w") as f:
            json.dump(now, f)
        log(f"recorded the nearby answers at {CHECKED_PLACES} places in {recorded}")


def event_loops(server):
    """How many of the server's threads are SwiftNIO's event loops (named NIO-SGLTN-...)."""
    tasks = f"/proc/{server.process.pid}/task"
    names = []
    for task in os.listdir(tasks):
        try:
            with open(os.path.join(tasks, task, "comm")) as f:
                names.append(f.read())
        except OSError:
            pass  # a thread that ended meanwhile
    return sum(name.startswith("NIO-SGLTN") for name in names)


def measure(args, out, work, check, server_cpus=None, wrk_cpus=None, loops=None):
    """One server on a fresh copy of the wall, timed with wrk for each kind of request: the
    figures of each kind, posts checked once the server stopped."""
    os.makedirs(work, exist_ok=True)
    server, places_files, _, wall = serve_copy(args, out, work, server_cpus, loops)
    places = bench_wall.read_places(places_files["city"])
    results = {}
    try:
        if loops is not None and event_loops(server) != loops:
            fail(f"anywall-server runs {event_loops(server)} event loops, not the {loops} asked of SwiftNIO "
                 "(NIO_SINGLETON_GROUP_LOOP_COUNT): the figures would not be those of one loop")
        if check:
            check_answers(server, places, work, args.posts)
        # One nearby at each place: the ids to fetch, and a server warmed as a running one is.
        ids = []
        for lat, lon in places:
            status, answer = server.call("GET", nearby_path(lat, lon)[len(MOUNT):])
            ids.append(answer["results"][0]["objectId"])
        kinds = {
            "health": [f"{MOUNT}/health"],
            "nearby": [nearby_path(lat, lon) for lat, lon in places],
            "get": [f"{MOUNT}/classes/Posts/{objectId}" for objectId in ids],
        }
        for kind, paths in kinds.items():
            script = READ_LUA % {"paths": ",\n  ".join(lua_string(path) for path in paths), "app": lua_string(APP_ID)}
            result = run_wrk(args, server, script, os.path.join(work, f"{kind}.lua"), args.connections, args.duration, kind,
                             wrk_cpus)
            if result["nonSuccess"] or any(result["socketErrors"].values()):
                fail(f"{kind}: {result['nonSuccess']} answers not 2xx, socket errors {result['socketErrors']}")
            results[kind] = result
        run = datetime.datetime.now().strftime("%Y%m%d%H%M%S")
        results["post"] = start_posting(args, server, work, run, args.connections, args.duration, wrk_cpus)
    finally:
        status = server.stop()
    if status != 0:
        fail(f"anywall-server stopped with {status}")
    results["post"], problems = check_posting(args, server, wall, run, results["post"])
    if problems:
        fail("; ".join(problems))
    log(f"posts: {results['post']['created201']:,} answered 201, the wall gained {results['post']['added']:,}: no post lost")
    return results


def print_table(title, results):
    floor = results["health"]["requestsPerSecond"]
    print(title)
    print(f"{'request':<8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'x /health':>10} {'p99/p50':>8}")
    for kind, result in results.items():
        p50, p99 = result["percentilesMs"]["50"], result["percentilesMs"]["99"]
        print(f"{kind:<8} {result['requestsPerSecond']:>9,.0f} {p50:>8.2f} {p99:>8.2f} "
              f"{result['requestsPerSecond'] / floor:>10.3f} {p99 / p50:>8.1f}")
    print(ratio_targets.lines([(target, results[kind]["requestsPerSecond"], "/health", floor) for kind, target in TARGETS.items()]))


def main():
    args = parse_arguments()
    out = bench_wall.out_folder(bench_wall.parse_arguments(["--out", args.out]), ROOT)
    work = os.path.join(out, "bench-server")
    ensure_wrk()
    shared = measure(args, out, work, check=True)
    apart = None
    if args.apart:
        if len(os.sched_getaffinity(0)) < 2:
            fail("--apart needs two processors: one for the server, one for wrk")
        first, second = sorted(os.sched_getaffinity(0))[:2]
        log(f"again with the server alone on processor {first} (one event loop) and wrk on processor {second}")
        apart = measure(args, out, os.path.join(work, "apart"), check=False, server_cpus={first}, wrk_cpus={second}, loops=1)
    print(f"anywall-server, {args.posts:,} posts, wrk {args.threads} threads x {args.connections} connections, "
          f"{args.duration} s each ({bench_wall.source_state(ROOT)})")
    print_table("server and wrk on all processors:", shared)
    if apart:
        print_table("the server alone on one processor with one event loop, wrk on another (the tail without wrk's share):", apart)


if __name__ == "__main__":
    sys.exit(main())
