"""The README's curl session, run as written against a live server.

The fenced block after the ``curl-session`` marker in ``README.md`` is the source: it is
run by ``bash`` line for line (``set -euo pipefail``, and ``curl`` made to fail on an
error status), against the app served over HTTP as ``capua serve`` serves it, with the
real ``capua`` command making the token.  Only the block's address is pointed at the
test server's port.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.live_server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MARKER = "<!-- curl-session:"


def readme_session() -> str:
    """The shell block that follows the curl-session marker in README.md."""
    text = README.read_text(encoding="utf-8")
    assert MARKER in text, "README.md shows a curl session"
    match = re.search(r"```sh\n(.*?)```", text[text.index(MARKER):], re.S)
    assert match, "the curl session is a fenced sh block"
    return match.group(1)


@pytest.fixture
def live(tmp_path):
    server = LiveServer(tmp_path / "instance").start()
    yield server
    server.stop()


def test_the_readme_names_only_fields_that_exist():
    """Every field the README's API section names for creating a game is one the API reads."""
    from service.api.schemas import CreateGameSchema

    section = README.read_text(encoding="utf-8").split("## The REST API", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in section.splitlines() if line.startswith("| `POST /api/v1/games` |"))
    named = set(re.findall(r"`([a-z_]+)`", row))
    assert named and named <= set(CreateGameSchema().fields), named - set(CreateGameSchema().fields)
    assert "invited emails" not in section


@pytest.mark.skipif(not os.environ.get("CI") and (shutil.which("curl") is None or shutil.which("bash") is None),
                    reason="needs curl and bash (installed by .ci/run; under CI a missing one fails)")
def test_the_readme_curl_session_runs_as_written(live, tmp_path):
    script = readme_session()
    assert script.startswith("CAPUA=http://127.0.0.1:5000\n"), "the session starts by naming the server"
    script = script.replace("CAPUA=http://127.0.0.1:5000", f"CAPUA={live.base_url}", 1)
    work = tmp_path / "shell"
    work.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # `capua` as installed, but from this checkout
    (bin_dir / "capua").write_text(f"#!/bin/sh\nexec {sys.executable} -c 'from service.cli import main; main()' \"$@\"\n")
    (bin_dir / "capua").chmod(0o755)
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "CAPUA_INSTANCE_DIR": str(live.instance_dir),
    }
    strict = "set -euo pipefail\ncurl() { command curl --fail-with-body --show-error \"$@\"; echo; }\n"
    done = subprocess.run(["bash", "-c", strict + script], cwd=work, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"in the database sqlite:///{live.instance_dir.resolve() / 'capua.sqlite3'}" in done.stderr

    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    types, command, events = answers
    assert {t["name"] for t in types["game_types"]} >= {"pax", "rom", "spartacus", "spartacus_arena"}
    game = json.loads((work / "game.json").read_text())
    assert game["game_type"] == "pax" and game["title"] == "By curl"
    asked = json.loads((work / "decisions.json").read_text())
    assert command["version"] > asked["version"], "the answer moved the game on"
    assert events["events"] and events["events"][0]["seq"] == 1
    assert events["version"] >= command["version"]
