"""Run the foundation benchmarks and record them in ``bench/RESULTS.md``.

    .venv/bin/python -m bench.run                 # SQLite and (if it answers) PostgreSQL
    .venv/bin/python -m bench.run --databases sqlite --quick

Figures are printed as they come and as ratios against the floor (a bare single-row
INSERT + COMMIT on the same database, measured in the same run), then written into the
"Foundation" section of ``bench/RESULTS.md``; other sections of that file are kept.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import tempfile

from bench.api_latency import measure_command_latency
from bench.common import machine, publish
from bench.floor import measure_floor
from bench.long_stream import measure_long_stream
from bench.playouts import measure_playouts

SECTION = "Foundation"
POSTGRES_URL = os.environ.get("CAPUA_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/capua_bench")


def _postgres_ready(url: str) -> bool:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": target.database}).first()
            if not exists:
                conn.execute(text(f'CREATE DATABASE "{target.database}"'))
        return True
    except Exception as err:  # no server: say so and go on with SQLite
        print(f"PostgreSQL not reachable at {url}: {err.__class__.__name__}")
        return False
    finally:
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run; not for RESULTS.md)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    quick = args.quick
    load_before = os.getloadavg()[0]
    rows: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        urls = {}
        for name in args.databases.split(","):
            if name == "sqlite":
                urls["SQLite"] = f"sqlite:///{tmp}/bench.sqlite3"
            elif name == "postgresql" and _postgres_ready(POSTGRES_URL):
                urls["PostgreSQL"] = POSTGRES_URL
        for label, url in urls.items():
            print(f"== {label}")
            floor = measure_floor(url, n=100 if quick else 400)
            api = measure_command_latency(url, commands=60 if quick else 400)
            long = measure_long_stream(url, target=600 if quick else 10_000, samples=20 if quick else 100)
            f50 = floor["p50_ms"]
            rows.append(
                f"| {label} | {floor['p50_ms']:.2f} / {floor['p99_ms']:.2f} | "
                f"{api['p50_ms']:.1f} / {api['p99_ms']:.1f} | {api['p50_ms'] / f50:.1f}x / {api['p99_ms'] / f50:.1f}x | "
                f"{long['early']['p50_ms']:.1f} (v{long['start_version']}-{long['end_version']}) | "
                f"{long['late']['p50_ms']:.1f} (v{long['late_version']}) | "
                f"{long['late']['p50_ms'] / long['early']['p50_ms']:.2f}x |"
            )
            print(rows[-1])
    print("== playouts (pure engine, random bots)")
    play_rows = []
    for game, seats in (("pax", 1), ("pax", 2), ("pax", 4), ("pax", 8), ("rom", 4), ("spartacus", 4)):
        r = measure_playouts(game, seats, seconds=2 if quick else 8)
        play_rows.append(f"| {game} | {seats} | {r['games_per_s']:.1f} | {r['events_per_game']:.0f} |")
        print(play_rows[-1])
    body = "\n".join([
        f"## {SECTION}",
        "",
        f"Measured {dt.date.today().isoformat()} on {machine()} with `python -m bench.run`"
        + (" (quick)" if quick else "") + f"; 1-minute load average {load_before:.1f} at the start and"
        f" {os.getloadavg()[0]:.1f} at the end (figures taken on a busy machine run high).",
        "",
        "Command latency is one `POST /api/v1/games/{id}/commands` over a kept-alive HTTP connection to a",
        "threaded server on loopback, including the bot moves it triggers (a 2-seat PAX game, one bot).",
        "The floor is one single-row INSERT + COMMIT on the same database through the same engine.",
        "The long-stream columns time the same API command (a Spartacus gold gift) in a game holding",
        "about 10 events and the same game grown to about 10,000 events.",
        "",
        "| database | floor p50 / p99 ms | command p50 / p99 ms | vs floor p50 / p99 | at ~10 events p50 ms | at ~10,000 events p50 ms | 10,000 vs 10 |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "| game | seats | playouts per second | events per game |",
        "|---|---|---|---|",
        *play_rows,
        "",
    ])
    publish(SECTION, body, write=not args.no_write)


if __name__ == "__main__":
    main()
