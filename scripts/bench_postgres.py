#!/usr/bin/env python3
"""anywall-server on PostgreSQL against its SQLite store (a benchmark, not a test of the suite).

On scripts/bench-wall's deterministic 1,000,000-post wall (imported once and cached under --out,
as scripts/load-server does), in one run on this machine:
  * copies the SQLite wall into a throw-away PostgreSQL cluster with PostGIS (`anywall-server
    copy`; its own folder under OUT/bench-postgres, removed afterwards unless --keep-cluster),
    and prints the copy's posts/s and the sizes of the posts table and its indexes;
  * the nearby query alone inside PostgreSQL: pgbench sending the very SQL the server sends
    (KNN within ST_DWithin, 100 km, the author joined, limit 20) at bench-wall's city places;
  * the CLI's nearby request through anywall-server with wrk (scripts/load-server's read test):
    on the SQLite file, on PostgreSQL with one server process, and with two server processes on
    the same database (a wrk per server, run together: their requests/s summed, the worse p50
    and p99 of the two);
  * the fetch of one post (GET /classes/Posts/ID, the nearest to each place, as bench-server's
    `get`) through one server on each store;
  * posts through anywall-server with wrk on each store (unique request ids, signed-up users);
  * a table with requests/s, p50, p99 and the ratio to the SQLite store and to the query alone,
    then issue 37's targets (nearby >= 0.9x the query alone, GET >= 0.5x the SQLite store's),
    each MET or MISSED.
Before timing the PostgreSQL store, its nearby answers at every place (the posts' object ids, in
order) must equal the SQLite store's and the query alone's.
Each test runs first for --warm-up seconds, not measured: a new PostgreSQL connection's first
PostGIS call loads the library (about a second), and the servers' pools open connections on demand.
Everything (wrk, pgbench, PostgreSQL, the servers) shares the machine's CPUs. PostgreSQL runs with
its defaults but for shared_buffers (--shared-buffers) and durable commits (fsync on). Exit status
1 when a request failed or a server logged an error.

Usage: scripts/bench-postgres [--posts N] [--duration S] [--write-duration S] [--connections N]
                              [--threads N] [--shared-buffers SIZE] [--out DIR] [--no-build] [--keep-cluster]
"""

import argparse
import concurrent.futures
import copy
import datetime
import glob
import json
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import bench_wall
import load_server
import ratio_targets

ROOT = load_server.ROOT
MOUNT = load_server.MOUNT
DATABASE = "anywall"
# PostGIS's geography sphere (the WGS 84 mean radius) over anywall's 6371 km: the server's own
# scaling of a search distance (PostgresWall.postGISMeters), so pgbench asks for the same posts.
POSTGIS_EARTH_RADIUS = (2 * 6378137.0 + 6356752.314245179) / 3
POSTGIS_METERS_PER_METER = POSTGIS_EARTH_RADIUS / bench_wall.EARTH_RADIUS_M
# Issue 37's targets, each a ratio to a peer in the same run.
NEARBY_TARGET = ratio_targets.Target("PostgreSQL store nearby (1 process), req/s", 0.9)
GET_TARGET = ratio_targets.Target("PostgreSQL store GET of one post, req/s", 0.5)
# What the server reads of each post and its author (the query alone reads the same).
NEARBY_COLUMNS = ("posts.object_id, posts.text, ST_Y(posts.location::geometry), ST_X(posts.location::geometry), "
                  "posts.created_at, posts.updated_at, users.object_id, users.username, users.name, users.created_at")


def parse_arguments():
    p = argparse.ArgumentParser(prog="bench-postgres", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--posts", type=int, default=1_000_000, help="posts in the wall (bench-wall's wall of that size)")
    p.add_argument("--duration", type=int, default=20, help="seconds of each read test (pgbench and wrk)")
    p.add_argument("--write-duration", type=int, default=20, help="seconds of each write test")
    p.add_argument("--warm-up", type=int, default=5,
                   help="seconds of the same load, not measured, before each test: a new PostgreSQL connection's "
                        "first PostGIS call loads the library (about a second), and servers' pools open on demand")
    p.add_argument("--connections", type=int, default=32, help="wrk connections of each test (split between two servers)")
    p.add_argument("--clients", type=int, default=2, help="pgbench clients (the query alone)")
    p.add_argument("--users", type=int, default=50, help="users signed up for the write tests")
    p.add_argument("--threads", type=int, default=2, help="wrk threads (split between two servers)")
    p.add_argument("--timeout", type=int, default=10, help="wrk's timeout of one request, in seconds")
    p.add_argument("--shared-buffers", default="1GB", help="PostgreSQL's shared_buffers")
    p.add_argument("--out", default="bench-out", help="folder for everything generated (shared with bench-wall)")
    p.add_argument("--scratch-path", default=".build-load",
                   help="swift build's scratch path (relative to the repository), where the binaries are found")
    p.add_argument("--no-build", action="store_true", help="use the release binaries already built")
    p.add_argument("--keep-cluster", action="store_true", help="leave the PostgreSQL cluster's folder (stopped)")
    args = p.parse_args()
    if args.warm_up < 0:
        p.error("--warm-up must not be negative")
    if min(args.posts, args.duration, args.write_duration, args.connections, args.clients, args.users,
           args.threads, args.timeout) < 1:
        p.error("counts and durations must be at least 1")
    if args.threads < 2 or args.connections < 2 * args.threads:
        p.error("two servers share --threads and --connections: give at least 2 threads and 2 connections per thread")
    return args


log = bench_wall.log


def fail(message):
    sys.exit(f"bench-postgres: {message}")


# ---------------------------------------------------------------- PostgreSQL

class Cluster:
    """A PostgreSQL cluster of its own on a free loopback port, in `folder` (initdb and postgres
    refuse root: as root its programs run as the `postgres` user)."""

    def __init__(self, folder, shared_buffers):
        self.folder, self.data = folder, os.path.join(folder, "data")
        self.bin = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip() \
            or "/usr/lib/postgresql/15/bin"
        for program in ("initdb", "pg_ctl", "pgbench", "psql", "createdb", "dropdb"):
            if not os.access(os.path.join(self.bin, program), os.X_OK):
                fail(f"{self.bin}/{program} is missing: apt install postgresql postgresql-15-postgis-3 (scripts/deps.sh)")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        if os.getuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(folder, user.pw_uid, user.pw_gid)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.run("initdb", "-D", self.data, "--auth=trust", "--username=postgres", "--encoding=UTF8")
        with open(os.path.join(self.data, "postgresql.conf"), "a") as conf:
            conf.write(f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{folder}'\n"
                       f"shared_buffers = '{shared_buffers}'\nmax_connections = 200\n")
        self.run("pg_ctl", "-D", self.data, "-l", os.path.join(folder, "postgres.log"), "-w", "-t", "60", "start")
        self.uri = f"postgres://postgres@127.0.0.1:{self.port}/{DATABASE}"
        self.new_database()

    def new_database(self):
        """An empty database DATABASE with PostGIS, the one there before dropped (no server may be
        connected to it)."""
        where = ("-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres")
        self.run("dropdb", *where, "--if-exists", DATABASE)
        self.run("createdb", *where, DATABASE)
        self.sql("CREATE EXTENSION postgis")

    def command(self, program, *arguments):
        path = os.path.join(self.bin, program)
        return (["runuser", "-u", "postgres", "--", path] if os.getuid() == 0 else [path]) + list(arguments)

    def run(self, program, *arguments):
        done = subprocess.run(self.command(program, *arguments), capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            fail(f"{program} failed (status {done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def sql(self, statement):
        """The statement's output, unaligned, without headers."""
        return self.run("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", DATABASE,
                        "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", statement).strip()

    def stop(self, keep):
        self.run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
        if not keep:
            shutil.rmtree(self.folder, ignore_errors=True)


def copy_wall(cluster, server_binary, wall, posts, env):
    """`anywall-server copy` of the SQLite wall of `posts` posts into the cluster's database, timed
    (the whole process) with its peak RSS; then the database made as a wall that has served a
    while: statistics made, the copy's writes checkpointed. The copy's figures."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        status, seconds, peak_rss = bench_wall.measured_run([server_binary, "copy", "--from", wall, "--to", cluster.uri],
                                                            env, stdout=out, stderr=err)
        out.seek(0)
        err.seek(0)
        if status != 0:
            fail(f"anywall-server copy failed (status {status}): {err.read().strip()}")
        log(f"  {out.read().strip()} in {seconds:.1f} s, peak RSS {peak_rss / 1e6:.0f} MB")
    cluster.sql("VACUUM ANALYZE")
    cluster.sql("CHECKPOINT")
    return {"seconds": round(seconds, 1), "postsPerSecond": round(posts / seconds), "peakRssBytes": peak_rss}


def nearby_sql(latitude, longitude, columns=NEARBY_COLUMNS):
    """The server's nearby query (PostgresWall.nearestSQL), its numbers as the server writes them."""
    meters = bench_wall.SEARCH_KM * 1000 * POSTGIS_METERS_PER_METER * (1 + 1e-9) + 0.001
    longitude, latitude = f"{longitude}::float8", f"{latitude}::float8"
    plane_center = f"ST_SetSRID(ST_MakePoint({longitude}, {latitude}), 4326)"
    center = plane_center + "::geography"
    def box(shift):
        return (f"posts.location::geometry && ST_MakeEnvelope({longitude} - reach.dlon + {shift}, {latitude} - reach.dlat, "
                f"{longitude} + reach.dlon + {shift}, {latitude} + reach.dlat, 4326)")
    return (
        f"WITH reach AS MATERIALIZED (SELECT meters, dlat, CASE WHEN abs({latitude}) + dlat >= 90 THEN 180.0 "
        f"ELSE degrees(asin(least(1, sin(radians(dlat)) / cos(radians({latitude}))))) * 1.000000001 + 1e-9 END AS dlon "
        f"FROM (SELECT meters, degrees(meters / {POSTGIS_EARTH_RADIUS!r}) * 1.000000001 + 1e-9 AS dlat "
        f"FROM (SELECT least({meters!r}, (SELECT max(ST_Distance(nearest.location, {center}, false)) "
        f"FROM (SELECT posts.location FROM posts ORDER BY posts.location::geometry <-> {plane_center} LIMIT {bench_wall.LIMIT}) "
        f"AS nearest) * 1.000000001 + 0.001) AS meters OFFSET 0) AS bound) AS angles) "
        f"SELECT {columns} FROM (SELECT posts.* FROM posts, reach "
        f"WHERE ({box(0)} OR {box(360)} OR {box(-360)}) AND ST_Distance(posts.location, {center}, false) <= reach.meters "
        f"ORDER BY posts.location <-> {center}, posts.object_id LIMIT {bench_wall.LIMIT}) AS posts "
        f"LEFT JOIN users ON users.id = posts.user_id ORDER BY posts.location <-> {center}, posts.object_id")


def query_alone(args, cluster, places, work):
    """pgbench sending the nearby query at places drawn from the list: transactions/s and latency
    percentiles from its per-transaction log."""
    values = ", ".join(f"({i + 1}, {lat!r}, {lon!r})" for i, (lat, lon) in enumerate(places))
    cluster.sql(f"DROP TABLE IF EXISTS bench_places; CREATE TABLE bench_places (id int PRIMARY KEY, latitude float8, longitude float8); "
                f"INSERT INTO bench_places VALUES {values}; ANALYZE bench_places")
    plan = cluster.sql("EXPLAIN " + nearby_sql(*places[0]))
    if "Index Scan using" not in plan or "Order By" not in plan:
        fail(f"the nearby query does not use the GiST index's nearest-first order:\n{plan}")
    # Each transaction reads a place (a primary key lookup, in the figures too) and asks for it.
    script = os.path.join(cluster.folder, "nearby.sql")
    with open(script, "w") as f:
        f.write(f"\\set place random(1, {len(places)})\n"
                "SELECT latitude, longitude FROM bench_places WHERE id = :place \\gset\n"
                + nearby_sql(":latitude", ":longitude") + ";\n")
    logs = os.path.join(cluster.folder, "pgbench")
    os.makedirs(logs)
    if os.getuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in (script, logs):
            os.chown(path, user.pw_uid, user.pw_gid)
    def pgbench(seconds, *logging):
        return subprocess.run(cluster.command("pgbench", "-n", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres",
                                              "-c", str(args.clients), "-j", str(args.clients), "-T", str(seconds),
                                              "-f", script, *logging, DATABASE), capture_output=True, text=True, cwd=logs)
    if args.warm_up:
        log(f"the query alone: pgbench warming up for {args.warm_up} s")
        pgbench(args.warm_up)
    log(f"the query alone: pgbench, {args.clients} clients, {args.duration} s")
    output = pgbench(args.duration, "--log", "--log-prefix", os.path.join(logs, "nearby"))
    with open(os.path.join(work, "pgbench.out"), "w") as f:
        f.write(output.stdout + output.stderr)
    if output.returncode != 0:
        fail(f"pgbench failed (status {output.returncode}):\n{output.stdout}{output.stderr}")
    latencies = []
    for path in glob.glob(os.path.join(logs, "nearby*")):
        with open(path) as f:
            latencies += [int(line.split()[2]) / 1000 for line in f if line.strip()]
    latencies.sort()
    if not latencies:
        fail("pgbench logged no transaction")
    failed = re.search(r"number of failed transactions: (\d+)", output.stdout)
    return {"requestsPerSecond": len(latencies) / args.duration, "requests": len(latencies),
            "percentilesMs": {"50": percentile(latencies, 50), "99": percentile(latencies, 99)},
            "clients": args.clients, "errors": int(failed.group(1)) if failed else 0}


def query_alone_answers(cluster):
    """The query alone's answer at each place of bench_places (query_alone's table), in its order:
    the object ids, nearest first."""
    nearest = nearby_sql("bench_places.latitude", "bench_places.longitude", columns="posts.object_id")
    rows = cluster.sql(f"SELECT array_to_string(ARRAY({nearest}), ',') FROM bench_places ORDER BY id")
    return [line.split(",") if line else [] for line in rows.split("\n")]


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p / 100))]


# ---------------------------------------------------------------- through anywall-server

def nearby_paths(places):
    """The nearby request at each place."""
    return [load_server.nearby_path(lat, lon) for lat, lon in places]


def nearby_answers(server, places):
    """The server's nearby answer at each place: the object ids, nearest first."""
    found = []
    for lat, lon in places:
        status, answer = server.call("GET", load_server.nearby_path(lat, lon)[len(MOUNT):])
        if status != 200 or not answer.get("results"):
            fail(f"no post near {lat},{lon} (HTTP {status})")
        found.append([post["objectId"] for post in answer["results"]])
    return found


def fetch_paths(answers):
    """The fetch of one post, the nearest to each place (as bench-server's `get` test)."""
    return [f"{MOUNT}/classes/Posts/{ids[0]}" for ids in answers]


def differences(places, ours, theirs, name):
    """A problem for each place where `ours` (the PostgreSQL server's answers) differ from `theirs`."""
    return [f"at {lat},{lon} the PostgreSQL store answers {mine}, {name} {other}"
            for (lat, lon), mine, other in zip(places, ours, theirs) if mine != other]


def reads(args, servers, paths, work, label):
    """wrk's read test of `paths` on each server at once (the connections and threads split
    between them): requests/s summed, the worse percentiles."""
    share = copy.copy(args)
    share.threads = args.threads // len(servers)
    script = load_server.READ_LUA % {"paths": ",\n  ".join(map(load_server.lua_string, paths)),
                                     "app": load_server.lua_string(load_server.APP_ID)}
    def wrk(seconds, name):
        with concurrent.futures.ThreadPoolExecutor(len(servers)) as pool:
            return list(pool.map(lambda n: load_server.run_wrk(share, servers[n], script, os.path.join(work, f"{name}-{n}.lua"),
                                                               args.connections // len(servers), seconds, f"{name} (server {n + 1})"),
                                 range(len(servers))))
    if args.warm_up:
        wrk(args.warm_up, f"{label}-warm-up")
    runs = wrk(args.duration, label)
    return {"requestsPerSecond": sum(r["requestsPerSecond"] for r in runs),
            "percentilesMs": {q: max(r["percentilesMs"][q] for r in runs) for q in ("50", "99")},
            "errors": sum(r["nonSuccess"] + sum(r["socketErrors"].values()) for r in runs),
            "servers": len(servers), "connections": args.connections, "threads": args.threads}


def writes(args, server, work, label):
    """wrk's post test (scripts/load-server's): posts/s and latency; the posts the wall gained
    beside the 201 answers."""
    run = datetime.datetime.now().strftime("%Y%m%d%H%M%S") + label
    tokens = []
    for i in range(args.users):
        status, answer = server.call("POST", "/users", {"username": f"bench{run}u{i}", "password": f"bench-pw-{run}-{i}"})
        if status != 201:
            fail(f"sign-up answered {status}: {answer}")
        tokens.append(answer["sessionToken"])
    places = ", ".join("{%r, %r}" % (lat, lon) for _, lat, lon in bench_wall.CITIES)
    script = load_server.WRITE_LUA % {"tokens": ", ".join(map(load_server.lua_string, tokens)), "places": places,
                                      "run": load_server.lua_string(run), "app": load_server.lua_string(load_server.APP_ID),
                                      "mount": MOUNT}
    if args.warm_up:
        load_server.run_wrk(args, server, script.replace('"load-" ..', '"warm-up-" ..'), os.path.join(work, f"{label}-warm-up.lua"),
                            args.connections, args.warm_up, f"{label}-warm-up")
    before = server.count_posts()
    result = load_server.run_wrk(args, server, script, os.path.join(work, f"{label}.lua"), args.connections,
                                 args.write_duration, f"{label}")
    time.sleep(1)  # the requests in flight when wrk stopped
    gained = server.count_posts() - before
    created = result.get("statuses", {}).get(201, 0)
    other = sum(v for s, v in result.get("statuses", {}).items() if s != 201)
    return {"requestsPerSecond": result["requestsPerSecond"], "percentilesMs": result["percentilesMs"],
            "errors": other + sum(result["socketErrors"].values()), "created": created, "gained": gained,
            "servers": 1, "connections": args.connections, "threads": args.threads}


def server_problems(server, name):
    errors = [e for e in server.events() if e.get("event") in ("error", "failed", "unparsed")]
    fives = sum(1 for e in server.events() if e.get("event") == "request" and int(e.get("status", 0)) >= 500)
    return [f"{name} logged {len(errors)} error events and {fives} 5xx answers (see {server.log_path})"] if errors or fives else []


# ---------------------------------------------------------------- main

def main():
    args = parse_arguments()
    out = bench_wall.out_folder(bench_wall.parse_arguments(["--out", args.out]), ROOT)
    work = os.path.join(out, "bench-postgres")
    os.makedirs(work, exist_ok=True)
    load_server.ensure_wrk()
    env = load_server.server_env(out)

    usable, posts_file, places_files, cached = load_server.cached_wall(args, out)
    bin_dir, bench_args = load_server.binaries(args, need_anywall=not usable)
    if not usable:
        bench_wall.import_wall(bench_args, bin_dir, posts_file, cached, env)
    wall = os.path.join(work, "wall.sqlite")
    for suffix in ("", "-wal", "-shm", ".lock"):
        if os.path.exists(wall + suffix):
            os.remove(wall + suffix)
        if suffix in ("", "-wal") and os.path.exists(cached + suffix):
            shutil.copyfile(cached + suffix, wall + suffix)
    server_binary = os.path.join(bin_dir, "anywall-server")
    places = bench_wall.read_places(places_files["city"])
    report = {"date": datetime.date.today().isoformat(), "source": bench_wall.source_state(ROOT),
              "machine": load_server.machine(), "posts": args.posts}
    problems = []

    cluster = Cluster(os.path.join(work, "cluster"), args.shared_buffers)
    try:
        log(f"PostgreSQL on port {cluster.port}: copying the wall into it")
        report["copy"] = copy_wall(cluster, server_binary, wall, args.posts, env)
        sizes = cluster.sql("SELECT pg_table_size('posts'), pg_indexes_size('posts'), pg_total_relation_size('users'), "
                            "pg_database_size(current_database())").split("|")
        report["sizes"] = dict(zip(("postsTable", "postsIndexes", "users", "database"), map(int, sizes)))
        report["sqliteBytes"] = os.path.getsize(wall)

        report["queryAlone"] = query_alone(args, cluster, places, work)
        alone_answers = query_alone_answers(cluster)

        sqlite = load_server.Server(server_binary, ["--store", wall], os.path.join(work, "server-sqlite.log"), env)
        try:
            sqlite_answers = nearby_answers(sqlite, places)
            report["sqliteReads"] = reads(args, [sqlite], nearby_paths(places), work, "sqlite-reads")
            report["sqliteFetches"] = reads(args, [sqlite], fetch_paths(sqlite_answers), work, "sqlite-fetches")
            report["sqliteWrites"] = writes(args, sqlite, work, "sqlite-writes")
        finally:
            sqlite.stop()
        problems += server_problems(sqlite, "the SQLite server")

        database = ["--database", cluster.uri]
        first = load_server.Server(server_binary, database, os.path.join(work, "server-postgres-1.log"), env)
        try:
            # The same posts in the same order at every place, before anything is timed.
            postgres_answers = nearby_answers(first, places)
            changed = (differences(places, postgres_answers, sqlite_answers, "the SQLite store")
                       + differences(places, postgres_answers, alone_answers, "the query alone"))
            if changed:
                fail(f"the answers differ at {len(changed)} places:\n  " + "\n  ".join(changed[:10]))
            log(f"the PostgreSQL store's nearby answers at {len(places)} places are the SQLite store's and the query alone's")
            report["postgresReads1"] = reads(args, [first], nearby_paths(places), work, "postgres-reads-1")
            report["postgresFetches"] = reads(args, [first], fetch_paths(postgres_answers), work, "postgres-fetches")
            second = load_server.Server(server_binary, database, os.path.join(work, "server-postgres-2.log"), env)
            try:
                report["postgresReads2"] = reads(args, [first, second], nearby_paths(places), work, "postgres-reads-2")
            finally:
                second.stop()
            problems += server_problems(second, "the second PostgreSQL server")
            wal_before = cluster.sql("SELECT pg_current_wal_lsn()")
            report["postgresWrites"] = writes(args, first, work, "postgres-writes")
            wal = int(float(cluster.sql(f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{wal_before}')")))
            # Sign-ups and warm-up posts are in it too: an upper bound of what a post costs.
            report["postgresWrites"]["walBytesPerPost"] = round(wal / max(1, report["postgresWrites"]["gained"]))
        finally:
            first.stop()
        problems += server_problems(first, "the first PostgreSQL server")
    finally:
        cluster.stop(args.keep_cluster)

    for key in ("queryAlone", "sqliteReads", "sqliteFetches", "sqliteWrites", "postgresReads1", "postgresFetches",
                "postgresReads2", "postgresWrites"):
        if report[key]["errors"]:
            problems.append(f"{key}: {report[key]['errors']} failed requests")
    for key in ("sqliteWrites", "postgresWrites"):
        if report[key]["gained"] < report[key]["created"]:
            problems.append(f"{key}: the wall gained {report[key]['gained']} posts for {report[key]['created']} 201s")
    report["problems"] = problems
    with open(os.path.join(work, f"report-{args.posts}.json"), "w") as f:
        json.dump(report, f, indent=2)
    print_summary(report)
    if problems:
        print("PROBLEMS:\n" + "\n".join("  " + p for p in problems))
        sys.exit(1)


def print_summary(r):
    m = r["machine"]
    mb = lambda n: f"{n / 1e6:,.0f} MB"
    sqlite_reads, alone = r["sqliteReads"]["requestsPerSecond"], r["queryAlone"]["requestsPerSecond"]
    def row(name, how, result, vs_sqlite, vs_alone=True):
        p = result["percentilesMs"]
        rate = result["requestsPerSecond"]
        return (f"| {name} | {how} | {rate:,.0f} | {p['50']:.2f} ms | {p['99']:.2f} ms "
                f"| {rate / vs_sqlite:.2f}x | {f'{rate / alone:.2f}x' if vs_alone else ''} |")
    reads_how = lambda x: f"wrk, {x['threads']} threads, {x['connections']} connections" + \
        (f" (split over {x['servers']} servers)" if x["servers"] > 1 else "")
    def both_stores(title, unit, sqlite, postgres):
        """A table of one test on the SQLite store and on PostgreSQL (one process), and a blank line."""
        return [f"| {title} | how | {unit} | p50 | p99 | vs SQLite server | |", "|---|---|---:|---:|---:|---:|---|",
                *(row(name, reads_how(r[key]), r[key], r[sqlite]["requestsPerSecond"], False)
                  for name, key in (("anywall-server, SQLite file", sqlite), ("anywall-server, PostgreSQL, 1 process", postgres))),
                ""]
    lines = [
        f"anywall on PostgreSQL/PostGIS beside SQLite, {r['posts']:,}-post wall, {r['date']}, {r['source']} (release; "
        f"{m['nproc']} CPUs, {m['model']}, {m['memory']}; everything on the same machine)",
        "",
        "| nearby (100 km, include=user, limit 20) | how | requests/s | p50 | p99 | vs SQLite server | vs query alone |",
        "|---|---|---:|---:|---:|---:|---:|",
        row("PostGIS, the query alone", f"pgbench, {r['queryAlone']['clients']} clients", r["queryAlone"], sqlite_reads, False),
        row("anywall-server, SQLite file", reads_how(r["sqliteReads"]), r["sqliteReads"], sqlite_reads),
        row("anywall-server, PostgreSQL, 1 process", reads_how(r["postgresReads1"]), r["postgresReads1"], sqlite_reads),
        row("anywall-server, PostgreSQL, 2 processes", reads_how(r["postgresReads2"]), r["postgresReads2"], sqlite_reads),
        "",
        *both_stores("get one post (the nearest to each place)", "requests/s", "sqliteFetches", "postgresFetches"),
        *both_stores("post (unique request ids)", "posts/s", "sqliteWrites", "postgresWrites"),
        f"copy SQLite -> PostgreSQL: {r['posts']:,} posts in {r['copy']['seconds']} s ({r['copy']['postsPerSecond']:,} posts/s); "
        f"PostgreSQL: posts {mb(r['sizes']['postsTable'])} + indexes {mb(r['sizes']['postsIndexes'])}, "
        f"database {mb(r['sizes']['database'])}; the SQLite file {mb(r['sqliteBytes'])}; "
        f"WAL written per post at most {r['postgresWrites']['walBytesPerPost']:,} bytes",
        "",
        ratio_targets.lines([
            (NEARBY_TARGET, r["postgresReads1"]["requestsPerSecond"], "PostGIS, the query alone", alone),
            (GET_TARGET, r["postgresFetches"]["requestsPerSecond"], "the SQLite store", r["sqliteFetches"]["requestsPerSecond"]),
        ]),
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
