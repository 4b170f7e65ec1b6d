#!/usr/bin/env python3
"""What synchronous = FULL costs a write (a measurement script, not a test of the suite).

anywall's wall commits with PRAGMA synchronous = FULL in WAL mode: the WAL is synced before a
commit returns, so a post answered 201 survives a power cut. NORMAL syncs only at checkpoints:
as fast, but the last commits may be lost with the power. This times one-row commits (a post's
size, one transaction each, as the server writes them) in a WAL database on the same disk as
DIR, under each setting, in the same run, and prints commits/s, ms per commit and the ratio.

Usage: scripts/durability-cost [--commits N] [--dir DIR]   (default 2000 commits, in bench-out/)
"""
import argparse
import os
import sqlite3
import tempfile
import time


def commits_per_second(folder, synchronous, commits):
    path = os.path.join(folder, f"durability-{synchronous.lower()}.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    db.execute("CREATE TABLE post (id INTEGER PRIMARY KEY, objectId TEXT UNIQUE, text TEXT, latitude REAL, longitude REAL, "
               "createdAt INTEGER)")
    start = time.perf_counter()
    for n in range(commits):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO post (objectId, text, latitude, longitude, createdAt) VALUES (?, ?, ?, ?, ?)",
                   (f"id{n:08d}", f"a post of about the usual length, number {n}", 48.85 + n * 1e-6, 2.35, n))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return commits / elapsed


def main():
    parser = argparse.ArgumentParser(prog="durability-cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench-out"))
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        # Alternated, twice each, so that a disk's mood is shared by both settings.
        rates = {"FULL": [], "NORMAL": []}
        for _ in range(2):
            for setting in rates:
                rates[setting].append(commits_per_second(folder, setting, args.commits))
    full, normal = max(rates["FULL"]), max(rates["NORMAL"])
    print(f"one-row commits in WAL mode on {os.path.realpath(args.dir)} ({args.commits} each, best of 2):")
    print(f"  synchronous = FULL:   {full:8,.0f} commits/s  {1000 / full:6.3f} ms each")
    print(f"  synchronous = NORMAL: {normal:8,.0f} commits/s  {1000 / normal:6.3f} ms each")
    print(f"  FULL costs {1000 / full - 1000 / normal:.3f} ms a commit: NORMAL is {normal / full:.2f}x as fast")


if __name__ == "__main__":
    main()
