#!/usr/bin/env python3
"""The cost curve of a wall as it grows (issue 37): nearby latency and import rate by size, on both stores.

For each size N of --sizes, on scripts/bench-wall's generator (a Parse export, parse_export.py;
the export and its query places generated once and cached under --out, as bench-wall's):
  * imports the export into a fresh SQLite wall with the release `anywall` (posts/s of the whole
    process, and its peak RSS: the child's ru_maxrss);
  * nearby p50/p99 at bench-wall's city places: in process (anywall-bench nearby, as bench-wall
    times it, its answers first checked against the SQL peer's at every place), and through
    anywall-server on the SQLite file with wrk (--threads, --connections, --latency) for
    --duration seconds after --warm-up seconds of the same load;
  * copies the wall into a throw-away PostgreSQL/PostGIS cluster (`anywall-server copy`: posts/s
    and peak RSS), VACUUM ANALYZE, checks that the PostgreSQL server's nearby answers (object
    ids, in order) are the SQLite server's at every place, failing loudly if not, and times the
    same wrk nearby through a server on PostgreSQL;
then prints a table, issue 37's targets as MET/MISSED lines (at the largest size, each nearby p50
within 1.5x of the next size's; the import's and the copy's peak RSS within 1.5x of the next
size's: memory bounded), writes a JSON report under OUT/bench-curve/ (after each size, so a run
stopped part-way keeps what it measured) and plots the curve with matplotlib to --plot.

Authors: bench-wall's 50,000, but never more than N/20 (500 at 10^4 posts, 5,000 at 10^5), so
a small wall keeps the long tail of authors rather than one post each; from 10^6 posts on the
data are bench-wall's own (the same cached files). One PostgreSQL cluster serves every size:
its database is dropped and made again before each copy, and the cluster is removed at the end.
Everything (wrk, the servers, PostgreSQL) shares the machine's CPUs. Exit status 1 when a request
failed or a server logged an error.

Usage: scripts/bench-curve [--sizes N,N,...] [--duration S] [--out DIR] [--plot FILE] [--no-plot]
                           [--static-swift-stdlib] [--skip-build] [--scratch-path P] [...]   (see --help)
       scripts/bench-curve --plot-from OUT/bench-curve/report-....json   (the table and plot again)
"""

import argparse
import datetime
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_postgres  # noqa: E402
import bench_wall  # noqa: E402
import load_server  # noqa: E402
import ratio_targets  # noqa: E402

ROOT = load_server.ROOT
MOST_AUTHORS_SHARE = 20  # at most one author per 20 posts
GROWTH_TARGET = 1.5  # at the largest size, at most this many times the next size's figure
# The three nearby series: report key, name in the table, the plot and the targets.
SERIES = (("inProcess", "in process (anywall-bench)"),
          ("sqliteServer", "anywall-server, SQLite"),
          ("postgresServer", "anywall-server, PostgreSQL"))


def parse_arguments():
    p = argparse.ArgumentParser(prog="bench-curve", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--sizes", default="10000,100000,1000000,10000000", help="posts in each wall, separated by commas")
    p.add_argument("--duration", type=int, default=10, help="seconds of each wrk nearby test")
    p.add_argument("--warm-up", type=int, default=3, help="seconds of the same load, not measured, before each wrk test")
    p.add_argument("--connections", type=int, default=1, help="wrk connections")
    p.add_argument("--threads", type=int, default=1, help="wrk threads")
    p.add_argument("--timeout", type=int, default=10, help="wrk's timeout of one request, in seconds")
    p.add_argument("--rounds", type=int, default=10, help="timed in-process passes over the places")
    p.add_argument("--places", type=int, default=500, help="city query places (bench-wall's)")
    p.add_argument("--seed", type=int, default=20261121, help="seed of the generator (bench-wall's)")
    p.add_argument("--authors", type=int, default=bench_wall.DEFAULT_AUTHORS,
                   help=f"distinct authors, but never more than one per {MOST_AUTHORS_SHARE} posts")
    p.add_argument("--batch-size", type=int, default=10_000, help="anywall import --batch-size")
    p.add_argument("--shared-buffers", default="1GB", help="PostgreSQL's shared_buffers")
    p.add_argument("--out", default="bench-out", help="folder for everything generated (shared with bench-wall)")
    p.add_argument("--plot", default="docs/performance-curve.svg",
                   help="the plot's file (relative to the repository), SVG")
    p.add_argument("--no-plot", action="store_true", help="no plot (matplotlib not needed)")
    p.add_argument("--plot-from", metavar="REPORT",
                   help="measure nothing: print the table and make the plot of a report written before")
    bench_wall.add_build_arguments(p)
    args = p.parse_args()
    try:
        args.sizes = sorted({int(x) for x in args.sizes.split(",")})
    except ValueError:
        p.error("--sizes: expected numbers of posts separated by commas")
    if args.sizes[0] < MOST_AUTHORS_SHARE:
        p.error(f"--sizes: at least {MOST_AUTHORS_SHARE} posts")
    if min(args.duration, args.connections, args.threads, args.timeout, args.rounds, args.places, args.authors) < 1 \
            or args.warm_up < 0:
        p.error("counts and durations must be at least 1 (--warm-up at least 0)")
    if args.threads > args.connections:
        p.error("--threads must not exceed --connections (wrk needs one connection per thread)")
    return args


log = bench_wall.log


def fail(message):
    sys.exit(f"bench-curve: {message}")


def authors_for(args, posts):
    return max(1, min(args.authors, posts // MOST_AUTHORS_SHARE))


def wall_arguments(args, posts):
    """bench-wall's options for a wall of `posts` posts: its generator, places and import."""
    return bench_wall.parse_arguments(
        ["--posts", str(posts), "--out", args.out, "--seed", str(args.seed), "--authors", str(authors_for(args, posts)),
         "--places", str(args.places), "--rounds", str(args.rounds), "--batch-size", str(args.batch_size),
         "--scratch-path", args.scratch_path] + (["--static-swift-stdlib"] if args.static_swift_stdlib else [])
        + (["--skip-build"] if args.skip_build else []))


def latency(result):
    """wrk's p50 and p99 in µs, as the in-process figures."""
    return {"p50Micros": round(result["percentilesMs"]["50"] * 1000, 1),
            "p99Micros": round(result["percentilesMs"]["99"] * 1000, 1),
            "requestsPerSecond": round(result["requestsPerSecond"], 1), "errors": result["errors"]}


def served(args, server, places, work, label):
    """wrk's nearby latency through `server`."""
    return latency(bench_postgres.reads(args, [server], bench_postgres.nearby_paths(places), work, label))


def stopped(server, name):
    """Stops `server`; the problems it logged or its exit showed."""
    exit_status = server.stop()
    problems = bench_postgres.server_problems(server, name)
    if exit_status != 0:
        problems.append(f"{name} exited with {exit_status} on SIGTERM")
    return problems


def measure_size(args, posts, bin_dir, env, cluster, work):
    """Every figure of one size; the problems found on the way."""
    wall_args = wall_arguments(args, posts)
    started = time.monotonic()
    _, tag, posts_file, places_files, _ = bench_wall.prepare_data(wall_args, bench_wall.out_folder(wall_args, ROOT))
    figures = {"posts": posts, "authors": wall_args.authors, "dataSeconds": round(time.monotonic() - started, 1),
               "exportBytes": os.path.getsize(posts_file)}
    places = bench_wall.read_places(places_files["city"])
    problems = []

    # A wall of its own (the server may write to it), not bench-wall's cached one.
    wall = os.path.join(work, f"wall-{tag}.sqlite")
    figures["import"] = bench_wall.import_wall(wall_args, bin_dir, posts_file, wall, env, peer=False)

    log(f"timing nearby in process at {len(places)} city places x {args.rounds} rounds, answers checked against the SQL peer")
    in_process = bench_wall.nearby_in_process(bin_dir, wall, places_files["city"], args.rounds, "city", env,
                                              sql_rings=wall_args.sql_rings)["anywall"]
    figures["inProcess"] = {k: in_process[k] for k in ("p50Micros", "p99Micros", "queries")}

    server_binary = os.path.join(bin_dir, "anywall-server")
    sqlite = load_server.Server(server_binary, ["--store", wall], os.path.join(work, f"server-sqlite-{posts}.log"), env)
    try:
        sqlite_answers = bench_postgres.nearby_answers(sqlite, places)
        figures["sqliteServer"] = served(args, sqlite, places, work, f"sqlite-{posts}")
    finally:
        problems += stopped(sqlite, f"the SQLite server at {posts} posts")

    cluster.new_database()
    log(f"PostgreSQL on port {cluster.port}: copying the wall into it")
    figures["copy"] = bench_postgres.copy_wall(cluster, server_binary, wall, posts, env)
    figures["copy"]["databaseBytes"] = int(cluster.sql("SELECT pg_database_size(current_database())"))
    postgres = load_server.Server(server_binary, ["--database", cluster.uri],
                                  os.path.join(work, f"server-postgres-{posts}.log"), env)
    try:
        # The same posts in the same order at every place, before anything is timed.
        postgres_answers = bench_postgres.nearby_answers(postgres, places)
        changed = bench_postgres.differences(places, postgres_answers, sqlite_answers, "the SQLite store")
        if changed:
            fail(f"at {posts} posts the stores' nearby answers differ at {len(changed)} of {len(places)} places:\n  "
                 + "\n  ".join(changed[:10]))
        log(f"the PostgreSQL store's nearby answers at {len(places)} places are the SQLite store's")
        figures["postgresServer"] = served(args, postgres, places, work, f"postgres-{posts}")
    finally:
        problems += stopped(postgres, f"the PostgreSQL server at {posts} posts")
    figures["placesChecked"] = len(places)
    for key in ("sqliteServer", "postgresServer"):
        if figures[key]["errors"]:
            problems.append(f"{key} at {posts} posts: {figures[key]['errors']} failed requests")
    return figures, problems


def main():
    args = parse_arguments()
    if args.plot_from:
        with open(args.plot_from) as f:
            report = json.load(f)
        print_summary(report)
        if not args.no_plot:
            plot(report, os.path.join(ROOT, args.plot))
        return
    pyplot = None if args.no_plot else import_pyplot()  # before hours of measuring, not after
    out = bench_wall.out_folder(args, ROOT)
    work = os.path.join(out, "bench-curve")
    os.makedirs(work, exist_ok=True)
    load_server.ensure_wrk()
    tools = ("anywall", "anywall-bench", "anywall-server")
    bin_dir = bench_wall.build(args, ROOT, products=list(tools), tools=tools)
    env = load_server.server_env(out)
    variant = "-static" if args.static_swift_stdlib else ""
    report_path = os.path.join(work, f"report-{'-'.join(map(str, args.sizes))}{variant}.json")
    report = {"date": datetime.date.today().isoformat(), "source": bench_wall.source_state(ROOT),
              "machine": load_server.machine(), "staticSwiftStdlib": args.static_swift_stdlib,
              "wrk": {"threads": args.threads, "connections": args.connections, "seconds": args.duration,
                      "warmUpSeconds": args.warm_up},
              "rounds": args.rounds, "sizes": [], "problems": []}
    cluster = bench_postgres.Cluster(os.path.join(work, "cluster"), args.shared_buffers)
    try:
        for posts in args.sizes:
            log(f"---- {posts:,} posts")
            started = time.monotonic()
            figures, problems = measure_size(args, posts, bin_dir, env, cluster, work)
            figures["seconds"] = round(time.monotonic() - started, 1)
            report["sizes"].append(figures)
            report["problems"] += problems
            with open(report_path, "w") as f:
                json.dump(report, f, indent=2)
            log(f"  {posts:,} posts measured in {figures['seconds']:.0f} s (report so far: {report_path})")
    finally:
        cluster.stop(keep=False)
    print_summary(report)
    if pyplot:
        plot(report, os.path.join(ROOT, args.plot), pyplot)
    if report["problems"]:
        print("PROBLEMS:\n" + "\n".join("  " + p for p in report["problems"]))
        sys.exit(1)


# ---------------------------------------------------------------- the table

def megabytes(n):
    return f"{n / 1e6:,.0f} MB"


def target_lines(report):
    """At the largest size beside the next: each nearby city p50 and each import's peak RSS."""
    if len(report["sizes"]) < 2:
        return ["(the targets compare the two largest sizes: give at least two --sizes)"]
    small, large = report["sizes"][-2], report["sizes"][-1]
    peer = f"the same at {small['posts']:,} posts"
    rows = [(ratio_targets.Target(f"nearby at a city, p50, {name}, {large['posts']:,} posts, µs", GROWTH_TARGET, at_least=False),
             large[key]["p50Micros"], peer, small[key]["p50Micros"]) for key, name in SERIES]
    for key, name in (("import", "anywall import"), ("copy", "anywall-server copy to PostgreSQL")):
        rows.append((ratio_targets.Target(f"{name}, peak RSS, {large['posts']:,} posts, MB", GROWTH_TARGET, at_least=False),
                     large[key]["peakRssBytes"] / 1e6, peer, small[key]["peakRssBytes"] / 1e6))
    return ratio_targets.lines(rows).splitlines()


def print_summary(r):
    m, w = r["machine"], r["wrk"]
    build = "release, --static-swift-stdlib" if r["staticSwiftStdlib"] else "release"
    pair = lambda figures: f"{figures['p50Micros']:,.0f} / {figures['p99Micros']:,.0f}"
    lines = [
        f"anywall's cost curve, {r['date']}, {r['source']} ({build}; {m['nproc']} CPUs, {m['model']}, {m['memory']}; "
        "everything on the same machine)",
        f"nearby at bench-wall's city places (100 km, limit 20), p50 / p99 in µs: in process {r['rounds']} rounds; "
        f"through the server wrk {w['threads']} thread(s), {w['connections']} connection(s), {w['seconds']} s after "
        f"{w['warmUpSeconds']} s of warm-up; the PostgreSQL server's answers equal the SQLite server's at every place",
        "",
        "| posts | import, posts/s | import peak RSS | copy to PostgreSQL, posts/s | copy peak RSS "
        "| nearby in process | server on SQLite | server on PostgreSQL |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in r["sizes"]:
        lines.append(f"| {s['posts']:,} | {s['import']['postsPerSecond']:,} | {megabytes(s['import']['peakRssBytes'])} "
                     f"| {s['copy']['postsPerSecond']:,} | {megabytes(s['copy']['peakRssBytes'])} "
                     f"| {pair(s['inProcess'])} | {pair(s['sqliteServer'])} | {pair(s['postgresServer'])} |")
    lines += ["", "issue 37's targets (at the largest size beside the next):", *target_lines(r)]
    print("\n".join(lines))


# ---------------------------------------------------------------- the plot

def import_pyplot():
    try:
        import matplotlib
    except ImportError:
        fail(f"matplotlib is missing for {sys.executable}: `{sys.executable} -m pip install matplotlib` "
             "(on Debian's python3: apt install python3-matplotlib), or run with --no-plot and plot later "
             "with --plot-from REPORT")
    matplotlib.use("svg")
    import matplotlib.pyplot as pyplot
    return pyplot


def plot(report, path, pyplot=None):
    """Two panels on log-log axes by posts: the nearby p50 (solid) and p99 (dashed) of the three
    series; the import's and the copy's posts/s (solid) and peak RSS (dotted, right axis). An SVG
    that diffs: text kept as text (no embedded fonts), fixed ids, no date."""
    pyplot = pyplot or import_pyplot()
    pyplot.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "anywall-bench-curve", "font.size": 9})
    sizes = report["sizes"]
    posts = [s["posts"] for s in sizes]
    figure, (left, right) = pyplot.subplots(1, 2, figsize=(10, 5))
    plain = pyplot.FuncFormatter(lambda value, _: f"{value:,.0f}")
    colors = ("tab:blue", "tab:orange", "tab:green")
    for (key, name), color in zip(SERIES, colors):
        left.plot(posts, [s[key]["p50Micros"] for s in sizes], "o-", color=color, label=f"{name}, p50")
        left.plot(posts, [s[key]["p99Micros"] for s in sizes], "o--", color=color, label=f"{name}, p99")
    left.set(xscale="log", yscale="log", xlabel="posts in the wall", ylabel="µs (log scale)",
             title="nearby at a city (100 km, limit 20): p50 solid, p99 dashed")
    left.yaxis.set_major_formatter(plain)
    left.grid(True, alpha=0.3)
    left.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)

    # Linear from 0: memory that stays bounded shows as a flat line.
    memory = right.twinx()
    for (key, name), color in zip((("import", "anywall import (SQLite)"), ("copy", "copy to PostgreSQL")), colors[:2]):
        right.plot(posts, [s[key]["postsPerSecond"] for s in sizes], "o-", color=color, label=f"{name}, posts/s")
        memory.plot(posts, [s[key]["peakRssBytes"] / 1e6 for s in sizes], "s:", color=color, label=f"{name}, peak RSS")
    right.set(xscale="log", xlabel="posts in the wall", ylabel="posts/s (solid)",
              title="import: posts/s solid, peak RSS dotted")
    memory.set(ylabel="peak RSS, MB (dotted)")
    for axis in (right, memory):
        axis.set_ylim(bottom=0, top=axis.get_ylim()[1] * 1.1)
        axis.yaxis.set_major_formatter(plain)
    right.grid(True, alpha=0.3)
    handles = right.get_legend_handles_labels()[0] + memory.get_legend_handles_labels()[0]
    right.legend(handles, [h.get_label() for h in handles], fontsize=7, loc="upper center",
                 bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)

    figure.suptitle(f"anywall's cost curve, {report['date']}, {report['source']} "
                    f"({report['machine']['nproc']} CPUs, {report['machine']['model']})", fontsize=9)
    figure.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)
    log(f"plot written to {path} ({os.path.getsize(path):,} bytes)")


if __name__ == "__main__":
    main()
