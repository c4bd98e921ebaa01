"""Server CPU work per committed move, counted in instructions (not a test).

    .venv/bin/python bench/instructions_per_move.py                # this checkout
    .venv/bin/python bench/instructions_per_move.py --root ../old   # another one

CPU seconds on a shared machine move with whatever else runs (another core's
job shares caches and memory bandwidth, a busy host steals cycles).  The
number of instructions a program executes does not: this runs the server
under ``valgrind --tool=callgrind`` with instrumentation switched on only for
the measured span (``bench/load.py --on-start/--on-stop``), drives a few rooms
with ``bench/load.py``, and divides the instructions of every server thread by
the moves committed.  Kernel work (the socket writes themselves) is not
counted; docs/benchmarks.md puts it next to the CPU-second runs.

The server runs about fifty times slower under callgrind, so the load is
small (10 rooms, one move a second each); compare checkouts with the same
arguments.  Needs valgrind (Debian: apt-get install valgrind).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

from load import serve_command, server_env  # noqa: E402

from tests.server.harness import free_port  # noqa: E402


def measure(root: Path, rooms: int, duration: float, keep: Path | None = None) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="kk-instr-"))
    port = free_port()
    out = tmp / "callgrind.out"
    env = server_env(root, f"sqlite+aiosqlite:///{tmp}/instr.db")
    server = subprocess.Popen(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            *serve_command(port),
        ],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(tmp / "valgrind.log", "wb"),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(1)
        else:
            raise RuntimeError(f"server did not start under valgrind; see {tmp}")
        control = f"callgrind_control {{}} {server.pid} >/dev/null"
        load = subprocess.run(
            [
                sys.executable,
                str(ROOT / "bench" / "load.py"),
                "--url",
                url,
                "--rooms",
                str(rooms),
                "--duration",
                str(duration),
                "--clients",
                "1",
                "--on-start",
                control.format("-i on"),
                "--on-stop",
                control.format("-i off") + "; " + control.format("-d"),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        committed = json.loads(load.stdout)["committed"]
    finally:
        server.terminate()
        server.wait(60)
    instructions = 0
    for dump in tmp.glob("callgrind.out*"):
        for line in dump.read_text(errors="replace").splitlines():
            if line.startswith("totals:"):  # a dump's "summary:" can read 0
                instructions += int(line.split()[1])
                break
    if keep is not None:  # for callgrind_annotate: where the instructions went
        keep.mkdir(parents=True, exist_ok=True)
        for dump in tmp.glob("callgrind.out*"):
            shutil.copy(dump, keep / dump.name)
    shutil.rmtree(tmp, ignore_errors=True)
    return {
        "root": str(root),
        "rooms": rooms,
        "seconds": duration,
        "committed": committed,
        "instructions": instructions,
        "instructions_per_move": round(instructions / committed) if committed else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose server to run")
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--keep", type=Path, help="copy the callgrind dumps to this folder")
    args = parser.parse_args()
    result = measure(Path(args.root).resolve(), args.rooms, args.duration, args.keep)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
