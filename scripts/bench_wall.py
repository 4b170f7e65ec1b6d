#!/usr/bin/env python3
"""Benchmark of the embedded wall (issue 2, "must show 8").

Generates a deterministic wall shaped like a real Parse export of Posts (parse_export.py: GeoPoint
and Pointer encodings, 50,000 authors with a long tail, 80 % of the posts around 50 cities, the
rest spread, some far from any city), imports it with the release `anywall`, and prints:
  * the import rate (posts/s, whole `anywall import` process), beside the sqlite3 tool inserting
    the same rows into an empty wall of the same schema (its triggers index each post);
  * the in-process p50/p99 of the nearby query at city places and random places (anywall-bench),
    and over a grid all over the earth searching the whole earth, with its slowest place;
  * the median whole-process time of `anywall nearby --json` at city places beside the `sqlite3`
    command-line tool answering the same question on the same file, and their ratio.
  * `anywall --version` beside `sqlite3 -version`, in alternating pairs;
  * the in-process city p50 beside its peer in the same process: the same growing-radius SQL run
    through SQLite's C API (`anywall-bench nearby --sql-peer`), its answers checked at every place.
Each issue-37 target is printed as a line: figure, ours, peer, ratio, target, MET or MISSED
(import <= 0.25x sqlite3's time; one process <= 1.5x sqlite3; --version <= 1.2x; city p50 <= 0.5x).

Usage: scripts/bench-wall [--posts N] [--out DIR] [--static-swift-stdlib] [...]   (see --help)
Everything generated goes under --out (default bench-out/, ignored by git).
"""

import argparse
import datetime
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ratio_targets  # noqa: E402

from parse_export import CITIES, EARTH_RADIUS_M, KM_PER_DEGREE, near, spread, write_export

SEARCH_KM = 100
WHOLE_EARTH_KM = math.pi * EARTH_RADIUS_M / 1000  # half the circumference: the farthest any post can be
LIMIT = 20
DEFAULT_AUTHORS = 50_000
GENERATOR_VERSION = 2  # bump when the generated data changes, so a cached file is not reused


def parse_arguments(argv=None):
    """The options; argv defaults to the command line (scripts/load-server passes its own)."""
    p = argparse.ArgumentParser(prog="bench-wall", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--posts", type=int, default=1_000_000, help="posts in the wall")
    p.add_argument("--out", default="bench-out", help="folder for everything generated")
    p.add_argument("--seed", type=int, default=20261121, help="seed of the generator")
    p.add_argument("--city-share", type=float, default=0.8, help="share of posts clustered around cities")
    p.add_argument("--city-sigma-km", type=float, default=5.0,
                   help="standard deviation of the clustered posts around a city centre")
    p.add_argument("--place-sigma-km", type=float, default=1.0,
                   help="standard deviation of the city query places around a city centre")
    p.add_argument("--authors", type=int, default=DEFAULT_AUTHORS, help="distinct authors (at most one per post)")
    p.add_argument("--places", type=int, default=500, help="query places of each kind (city, random)")
    p.add_argument("--rounds", type=int, default=10, help="timed in-process passes over the places")
    p.add_argument("--process-places", type=int, default=60,
                   help="city places timed as whole processes (each tool once per place and round)")
    p.add_argument("--process-rounds", type=int, default=2, help="whole-process passes over those places")
    p.add_argument("--sql-rings", default="1,4,16,50,100",
                   help="radii (km) sqlite3 may use: its one query uses the first that holds the answer")
    p.add_argument("--batch-size", type=int, default=10_000, help="anywall import --batch-size")
    add_build_arguments(p)
    p.add_argument("--skip-import", action="store_true",
                   help="reuse the wall from a previous run with the same data (no import timing)")
    args = p.parse_args(argv)
    try:
        args.sql_rings = sorted(float(x) for x in args.sql_rings.split(","))
    except ValueError:
        p.error("--sql-rings: expected kilometres separated by commas")
    if args.sql_rings[-1] < SEARCH_KM:
        args.sql_rings.append(SEARCH_KM)
    if args.posts < 1 or args.places < 1 or args.rounds < 1 or args.process_places < 1 or args.process_rounds < 1:
        p.error("counts must be at least 1")
    return args


def add_build_arguments(p):
    """The options of the release build a script runs (build(), below)."""
    p.add_argument("--static-swift-stdlib", action="store_true",
                   help="link the release binaries with --static-swift-stdlib")
    p.add_argument("--skip-build", action="store_true", help="use the release binaries already built")
    p.add_argument("--scratch-path", default=".build-bench",
                   help="swift build's scratch path (relative to the repository), where the binaries are found")


def log(message):
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- build

def build(args, root, products=None, tools=("anywall", "anywall-bench")):
    """Builds the release binaries (all of them, or only `products`) in --scratch-path
    (.build-bench by default: a scratch path of its own, so a concurrent `swift build` in
    .build is never blocked) and returns the folder holding them, after checking it has `tools`."""
    command = ["swift", "build", "-c", "release", "--scratch-path", os.path.join(root, args.scratch_path)]
    if args.static_swift_stdlib:
        command.append("--static-swift-stdlib")
    if not args.skip_build:
        for product in products or [None]:
            full = command + (["--product", product] if product else [])
            log("building: " + " ".join(full))
            subprocess.run(full, cwd=root, check=True, stdout=sys.stderr)
    bin_dir = subprocess.run(command + ["--show-bin-path"], cwd=root, check=True,
                             capture_output=True, text=True).stdout.strip()
    for tool in tools:
        if not os.access(os.path.join(bin_dir, tool), os.X_OK):
            sys.exit(f"{os.path.basename(sys.argv[0])}: {bin_dir}/{tool} is missing: build without --skip-build")
    return bin_dir


# ---------------------------------------------------------------- data

def generate(args, posts_file, places_files):
    """Writes the posts as a Parse export (parse_export.py) and the two lists of query places."""
    write_export(posts_file + ".tmp", args.posts, args.seed, authors=args.authors,
                 city_share=args.city_share, city_sigma_km=args.city_sigma_km)
    os.replace(posts_file + ".tmp", posts_file)

    # The places come from their own generator, so changing --places never changes the posts.
    places_rng = random.Random(args.seed + 1)
    with open(places_files["city"], "w") as out:
        for _ in range(args.places):
            _, clat, clon = CITIES[places_rng.randrange(len(CITIES))]
            out.write("%.6f,%.6f\n" % near(places_rng, clat, clon, args.place_sigma_km))
    with open(places_files["random"], "w") as out:
        for _ in range(args.places):
            out.write("%.6f,%.6f\n" % spread(places_rng))


def write_earth_grid(path):
    """Places all over the earth, poles and oceans included: every 5 degrees of latitude from 85 S
    to 85 N and every 10 degrees of longitude, where the worst searches are (a ring grown from an
    empty place reaching a dense one, a ring around a pole)."""
    with open(path, "w") as out:
        for lat in range(-85, 86, 5):
            for lon in range(-175, 180, 10):
                out.write(f"{lat},{lon}\n")


def read_places(path):
    with open(path) as f:
        return [tuple(float(x) for x in line.split(",")) for line in f if line.strip()]


# ---------------------------------------------------------------- the sqlite3 side

def covering_boxes(lat, lon, radius_m):
    """The same boxes as AnywallCore's BoundingBox.covering(center:radius:)."""
    angular = radius_m / EARTH_RADIUS_M
    rlat = math.radians(lat)
    min_lat, max_lat = math.degrees(rlat - angular), math.degrees(rlat + angular)
    if angular >= math.pi or max_lat >= 90 or min_lat <= -90:
        return [(max(min_lat, -90), min(max_lat, 90), -180, 180)]
    delta = math.degrees(math.asin(min(1, math.sin(angular) / math.cos(rlat))))
    lo, hi = lon - delta, lon + delta
    if lo < -180:
        return [(min_lat, max_lat, lo + 360, 180), (min_lat, max_lat, -180, hi)]
    if hi > 180:
        return [(min_lat, max_lat, lo, 180), (min_lat, max_lat, -180, hi - 360)]
    return [(min_lat, max_lat, lo, hi)]


def ring_needed(distances_m, rings_km):
    """The radius a growing-radius search over rings_km stops at: the first that holds LIMIT
    posts (anywall's answer tells how far the LIMIT-th post is). sqlite3 is given that radius
    directly, so it runs one query where a growing search would run several."""
    if len(distances_m) < LIMIT:
        return SEARCH_KM
    farthest = max(distances_m)
    return next((r for r in rings_km if farthest <= r * 1000), SEARCH_KM)


def nearest_sql(lat, lon, ring_km):
    """One SQL statement giving what `anywall nearby --json` gives: the LIMIT nearest posts
    within the ring, nearest first (ties by objectId), with author and great-circle distance.
    Debian's sqlite3 3.40 has the math functions, so the distance is the same haversine."""
    boxes = " OR ".join(
        f"(postLocation.maxLatitude >= {a!r} AND postLocation.minLatitude <= {b!r} AND "
        f"postLocation.maxLongitude >= {c!r} AND postLocation.minLongitude <= {d!r})"
        for a, b, c, d in covering_boxes(lat, lon, ring_km * 1000))
    return f"""SELECT post.objectId, post.text, coalesce(user.name, user.username) AS author,
 post.latitude, post.longitude,
 {2 * EARTH_RADIUS_M!r} * asin(min(1, sqrt(pow(sin(radians(post.latitude - {lat!r}) / 2), 2)
   + cos(radians({lat!r})) * cos(radians(post.latitude)) * pow(sin(radians(post.longitude - {lon!r}) / 2), 2)))) AS distanceMeters,
 strftime('%Y-%m-%dT%H:%M:%fZ', post.createdAt / 1000.0, 'unixepoch') AS createdAt
FROM postLocation JOIN post ON post.id = postLocation.id LEFT JOIN user ON user.id = post.userId
WHERE ({boxes}) AND distanceMeters <= {ring_km * 1000.0!r}
ORDER BY distanceMeters, post.objectId LIMIT {LIMIT};"""


def first_ring_rows(wall, lat, lon):
    """How many R*Tree entries a 1 km box holds there: a measure of how dense the place is."""
    where = " OR ".join(
        f"(maxLatitude >= {a!r} AND minLatitude <= {b!r} AND maxLongitude >= {c!r} AND minLongitude <= {d!r})"
        for a, b, c, d in covering_boxes(lat, lon, 1000))
    out = subprocess.run(["sqlite3", wall, f"SELECT count(*) FROM postLocation WHERE {where};"],
                         check=True, capture_output=True, text=True).stdout
    return int(out)


# ---------------------------------------------------------------- timing processes

def timed(command, env):
    """Wall-clock milliseconds of one whole process, output discarded."""
    start = time.perf_counter_ns()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter_ns() - start) / 1e6


def median_ms(command, env, runs, warmup=3):
    for _ in range(warmup):
        timed(command, env)
    return statistics.median(timed(command, env) for _ in range(runs))


def compare_processes(args, bin_dir, wall, places, env):
    """Times `anywall nearby --json` and `sqlite3` at the same city places, interleaved (so any
    drift in the machine hits both alike), after checking that both give the same posts."""
    anywall = os.path.join(bin_dir, "anywall")
    jobs = []
    rings = {}
    for lat, lon in places:
        at = f"{lat:.6f},{lon:.6f}"
        ours = json.loads(subprocess.run([anywall, "nearby", "--json", "--at", at, "--store", wall],
                                         env=env, check=True, capture_output=True, text=True).stdout)
        ring = ring_needed([p["distanceMeters"] for p in ours], args.sql_rings)
        rings[ring] = rings.get(ring, 0) + 1
        sql = nearest_sql(lat, lon, ring)
        theirs = json.loads(subprocess.run(["sqlite3", "-json", wall, sql], env=env, check=True,
                                           capture_output=True, text=True).stdout or "[]")
        if [p["objectId"] for p in ours] != [p["objectId"] for p in theirs]:
            sys.exit(f"bench-wall: anywall and sqlite3 disagree at {at} (ring {ring} km)")
        jobs.append(([anywall, "nearby", "--json", "--at", at, "--store", wall], ["sqlite3", "-json", wall, sql]))

    for ours, theirs in jobs[:3]:  # warm-up, discarded
        timed(ours, env)
        timed(theirs, env)
    times = {"anywall": [], "sqlite3": []}
    for round_ in range(args.process_rounds):
        for i, (ours, theirs) in enumerate(jobs):
            # Alternate which tool goes first, so neither always follows the other.
            if (i + round_) % 2 == 0:
                times["anywall"].append(timed(ours, env))
                times["sqlite3"].append(timed(theirs, env))
            else:
                times["sqlite3"].append(timed(theirs, env))
                times["anywall"].append(timed(ours, env))
    return {
        "places": len(jobs), "runsEach": len(times["anywall"]),
        "placesBySqlRingKm": {f"{k:g}": v for k, v in sorted(rings.items())},
        "anywallMedianMs": statistics.median(times["anywall"]),
        "sqlite3MedianMs": statistics.median(times["sqlite3"]),
        # Floors that say where the time goes: spawning any process from here, and anywall's
        # start-up alone (argument parsing only, no wall opened).
        "spawnFloorMs": median_ms(["/bin/true"], env, 30),
        "anywallHelpMs": median_ms([anywall, "--help"], env, 30),
        "anywallVersionMs": median_ms([anywall, "--version"], env, 30),
        **version_pairs(anywall, env, 30),
    }


def version_pairs(anywall, env, pairs):
    """`anywall --version` beside `sqlite3 -version`: medians of `pairs` pairs, each pair in turn
    started by one and the other."""
    ours, theirs = [], []
    for i in range(pairs + 3):
        first, second = ([anywall, "--version"], ["sqlite3", "-version"])[::1 if i % 2 == 0 else -1]
        a, b = timed(first, env), timed(second, env)
        if i >= 3:  # the first pairs warm up
            ours.append(a if i % 2 == 0 else b)
            theirs.append(b if i % 2 == 0 else a)
    return {"versionPairs": pairs, "anywallVersionPairedMs": statistics.median(ours),
            "sqlite3VersionMs": statistics.median(theirs)}


# ---------------------------------------------------------------- main

def source_state(root):
    """The commit measured, marked dirty when Sources/ has uncommitted changes: figures belong
    to a version of the code."""
    def git(*a):
        return subprocess.run(["git", *a], cwd=root, capture_output=True, text=True).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+dirty" if git("status", "--porcelain", "--", "Sources", "Package.swift") else "")


def out_folder(args, root):
    out = os.path.abspath(os.path.join(root, args.out) if not os.path.isabs(args.out) else args.out)
    os.makedirs(out, exist_ok=True)
    return out


def private_env(out):
    """A HOME of its own: no settings, sessions or ~/.sqliterc of the user leak into the figures."""
    home = os.path.join(out, "home")
    os.makedirs(home, exist_ok=True)
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_DATA_HOME": os.path.join(home, ".local/share"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"), "XDG_STATE_HOME": os.path.join(home, ".local/state")}


def prepare_data(args, out):
    """Generates the posts and query places, once per set of parameters (later runs reuse
    them), and returns (parameters, tag, posts file, places files, wall file)."""
    params = {k: getattr(args, k) for k in ("posts", "seed", "city_share", "city_sigma_km",
                                            "place_sigma_km", "authors", "places")}
    params["version"] = GENERATOR_VERSION
    # Other authors than the default give other posts: their files are named apart.
    tag = f"{args.posts}-{args.seed}" + (f"-a{args.authors}" if args.authors != DEFAULT_AUTHORS else "")
    posts_file = os.path.join(out, f"posts-{tag}.json")
    places_files = {"city": os.path.join(out, f"places-city-{tag}.txt"),
                    "random": os.path.join(out, f"places-random-{tag}.txt"),
                    "earth": os.path.join(out, "places-earth.txt")}
    write_earth_grid(places_files["earth"])
    stamp_file = os.path.join(out, f"params-{tag}.json")
    stamp = json.dumps(params, sort_keys=True)
    if not (os.path.exists(posts_file) and os.path.exists(stamp_file) and open(stamp_file).read() == stamp):
        log(f"generating {args.posts} posts into {posts_file}")
        started = time.monotonic()
        generate(args, posts_file, places_files)
        with open(stamp_file, "w") as f:
            f.write(stamp)
        log(f"  generated in {time.monotonic() - started:.1f} s")
    return params, tag, posts_file, places_files, os.path.join(out, f"wall-{tag}.sqlite")


def measured_run(command, env, stdout=None, stderr=None):
    """Runs `command` to its end, its output going to `stdout` / `stderr` (files; None: ours):
    its exit status, its wall-clock seconds and its peak resident memory in bytes (the child's
    ru_maxrss from wait4, what `/usr/bin/time -f %M` shows, in kB there)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=stdout, stderr=stderr)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, seconds, usage.ru_maxrss * 1024


def import_wall(args, bin_dir, posts_file, wall, env, peer=True):
    """Imports the posts into a new wall with the release `anywall`; returns the import's figures
    (with its peak RSS), and with `peer` its peer's: sqlite3 inserting the same rows."""
    for suffix in ("", "-wal", "-shm", ".lock"):
        if os.path.exists(wall + suffix):
            os.remove(wall + suffix)
    log(f"importing into {wall}")
    command = [os.path.join(bin_dir, "anywall"), "import", posts_file, "--store", wall, "--batch-size", str(args.batch_size)]
    status, seconds, peak_rss = measured_run(command, env, stdout=sys.stderr)
    if status != 0:
        raise subprocess.CalledProcessError(status, command)
    log(f"  {args.posts} posts in {seconds:.1f} s, peak RSS {peak_rss / 1e6:.0f} MB")
    figures = {"seconds": round(seconds, 2), "postsPerSecond": round(args.posts / seconds), "peakRssBytes": peak_rss}
    if peer:
        peer_seconds = sqlite3_load_seconds(wall, env)
        log(f"  sqlite3 inserts the same rows in {peer_seconds:.1f} s")
        figures.update(sqlite3Seconds=round(peer_seconds, 2), sqlite3PostsPerSecond=round(args.posts / peer_seconds))
    figures["wallBytes"] = sum(os.path.getsize(wall + s) for s in ("", "-wal") if os.path.exists(wall + s))
    return figures


def sqlite3_load_seconds(wall, env):
    """The import's peer: seconds the sqlite3 tool takes to insert the imported wall's users and
    posts, in one transaction, into an empty wall of the same schema (its triggers put each post
    in the location index as it goes in, through SQLite's rtree module). No JSON to read: the
    rows are already SQLite's."""
    schema = subprocess.run(["sqlite3", wall, ".schema"], env=env, check=True, capture_output=True, text=True).stdout
    schema = "\n".join(line for line in schema.splitlines() if "sqlite_" not in line and "grdb_migrations" not in line)
    copy = wall + ".sqlite3-peer"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    script = (f"PRAGMA journal_mode=WAL;\nPRAGMA cache_size=-65536;\n{schema}\n"
              f"ATTACH '{wall}' AS imported;\nBEGIN;\nINSERT INTO user SELECT * FROM imported.user;\n"
              "INSERT INTO post SELECT * FROM imported.post;\nCOMMIT;\n")
    started = time.perf_counter()
    subprocess.run(["sqlite3", copy], input=script, env=env, check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    return seconds


def nearby_in_process(bin_dir, wall, places_file, rounds, label, env, sql_rings=None, search_km=None):
    """`anywall-bench nearby` at the places of a file, `rounds` timed passes: its JSON figures
    (p50Micros, p99Micros, ...). With `sql_rings` (km) the SQL peer runs too, after anywall-bench
    has checked it finds the same posts in the same order at every place: {"anywall": ...,
    "sqlPeer": ...}. `search_km`: how far to look, when not the CLI's 100 km."""
    command = [os.path.join(bin_dir, "anywall-bench"), "nearby", "--store", wall, "--places", places_file,
               "--rounds", str(rounds), "--label", label, "--json"]
    if sql_rings:
        command += ["--sql-peer", "--sql-rings", ",".join(f"{k:g}" for k in sql_rings)]
    if search_km is not None:
        command += ["--search-distance-km", str(search_km)]
    return json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)


def main():
    args = parse_arguments()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = out_folder(args, root)
    bin_dir = build(args, root)
    env = private_env(out)
    params, tag, posts_file, places_files, wall = prepare_data(args, out)

    report = {"date": datetime.date.today().isoformat(), "posts": args.posts, "parameters": params,
              "staticSwiftStdlib": args.static_swift_stdlib, "cpus": os.cpu_count(), "source": source_state(root)}
    if args.skip_import and os.path.exists(wall):
        log(f"reusing {wall}")
    else:
        report["import"] = import_wall(args, bin_dir, posts_file, wall, env)

    city_places = read_places(places_files["city"])
    report["firstRingRowsMedian"] = statistics.median(first_ring_rows(wall, lat, lon) for lat, lon in city_places[:50])

    for kind in ("city", "random"):
        # At city places the SQL peer runs too, in the same process, after its answers are checked.
        peer = args.sql_rings if kind == "city" else None
        log(f"timing nearby in process at {args.places} {kind} places x {args.rounds} rounds"
            + (", and its SQL peer" if peer else ""))
        figures = nearby_in_process(bin_dir, wall, places_files[kind], args.rounds, kind, env, sql_rings=peer)
        if peer:
            report["inProcessCitySQLPeer"] = figures["sqlPeer"]
            figures = figures["anywall"]
        report[f"inProcess{kind.capitalize()}"] = figures

    earth_rounds = min(args.rounds, 3)
    log(f"timing nearby in process all over the earth, the whole earth searched, x {earth_rounds} rounds")
    report["inProcessEarth"] = nearby_in_process(bin_dir, wall, places_files["earth"], earth_rounds, "earth", env,
                                                 search_km=WHOLE_EARTH_KM)

    log(f"timing whole processes at {min(args.process_places, len(city_places))} city places")
    processes = compare_processes(args, bin_dir, wall, city_places[:args.process_places], env)
    processes["ratio"] = processes["anywallMedianMs"] / processes["sqlite3MedianMs"]
    processes["sqlRingsKm"] = ",".join(f"{k:g}" for k in args.sql_rings)
    report["wholeProcess"] = processes

    variant = "-static" if args.static_swift_stdlib else ""
    with open(os.path.join(out, f"report-{tag}{variant}.json"), "w") as f:
        json.dump(report, f, indent=2)
    print_summary(report)


IMPORT_TARGET = ratio_targets.Target("import of a Parse export, s", 0.25, at_least=False)
PROCESS_TARGET = ratio_targets.Target("one nearby --json per process, ms", 1.5, at_least=False)
VERSION_TARGET = ratio_targets.Target("anywall --version, ms", 1.2, at_least=False)
IN_PROCESS_TARGET = ratio_targets.Target("nearby in process, city p50, µs", 0.5, at_least=False)


def target_lines(r):
    """The table of the issue-37 targets measured: figure, ours, its peer in the same run, the
    ratio, the target, MET or MISSED."""
    rows = []
    if "import" in r:
        i = r["import"]
        rows.append((IMPORT_TARGET, i["seconds"], "sqlite3 inserting the same rows", i["sqlite3Seconds"]))
    proc = r["wholeProcess"]
    rows.append((PROCESS_TARGET, proc["anywallMedianMs"], "sqlite3 tool, growing-radius R*Tree", proc["sqlite3MedianMs"]))
    rows.append((VERSION_TARGET, proc["anywallVersionPairedMs"], "sqlite3 -version", proc["sqlite3VersionMs"]))
    city, peer = r["inProcessCity"], r["inProcessCitySQLPeer"]
    rows.append((IN_PROCESS_TARGET, city["p50Micros"], "the same SQL through SQLite's C API", peer["p50Micros"]))
    return ratio_targets.lines(rows).splitlines()


def print_summary(r):
    city, rand, earth, proc = r["inProcessCity"], r["inProcessRandom"], r["inProcessEarth"], r["wholeProcess"]
    build = "release, --static-swift-stdlib" if r["staticSwiftStdlib"] else "release"
    lines = [f"anywall embedded wall benchmark, {r['posts']:,} posts, {r['date']}, {r['source']} ({build}, {r['cpus']} CPUs)",
             "issue 37 targets (each ratio against its peer in this run; answers checked against both peers at every place):"]
    lines += target_lines(r)
    lines.append("details:")
    if "import" in r:
        lines.append(f"  import: {r['import']['postsPerSecond']:,} posts/s "
                     f"({r['import']['seconds']} s, wall {r['import']['wallBytes'] / 1e6:.0f} MB); sqlite3 inserting the same "
                     f"rows into the same schema: {r['import']['sqlite3PostsPerSecond']:,} posts/s")
    lines += [
        f"  nearby in process, city   ({city['queries']} queries): p50 {city['p50Micros']} us, p99 {city['p99Micros']} us; "
        f"SQL peer p50 {r['inProcessCitySQLPeer']['p50Micros']} us, p99 {r['inProcessCitySQLPeer']['p99Micros']} us",
        f"  nearby in process, random ({rand['queries']} queries): p50 {rand['p50Micros']} us, "
        f"p99 {rand['p99Micros']} us",
        f"    distance to the 20th post (median): city {city.get('medianReachMeters', 'n/a')} m, random "
        f"{rand.get('medianReachMeters', 'n/a')} m ({rand['shortPlaces']} of {rand['places']} random places have fewer than 20 "
        f"within 100 km); posts in a 1 km box at a city (median): {r['firstRingRowsMedian']:.0f}",
        f"  nearby in process, all over the earth, the whole earth searched ({earth['queries']} queries): "
        f"p50 {earth['p50Micros']} us, p99 {earth['p99Micros']} us; slowest place {earth['slowestPlace']}: "
        f"{earth['slowestPlaceMicros'] / 1000:.1f} ms ({earth['slowestPlaceMicros'] / city['p50Micros']:.0f}x the city p50)",
        f"  whole process at a city: median of {proc['runsEach']} runs each",
        f"    sqlite3 ran one query per place with the radius a search over {proc['sqlRingsKm']} km stops at "
        f"(places per radius: {proc['placesBySqlRingKm']})",
        f"  for scale: spawning /bin/true {proc['spawnFloorMs']:.1f} ms, anywall --help {proc['anywallHelpMs']:.1f} ms, "
        f"anywall --version alone {proc['anywallVersionMs']:.1f} ms",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
