"""Running a Python script inside gnubg 1.07 under a pseudo-terminal, for the benchmarks.

gnubg prints rollout results only when its standard output was a terminal at start-up, and
its Python module has no rollout call, so the script runs under ``script`` (util-linux).
The script sees ``JOB`` (the job given, read back from JSON), ``OUTDIR`` (a scratch folder),
``capture(command)`` (runs a gnubg command with its output in a file: (text, CPU seconds of
the gnubg process)) and the common ``BASE`` settings, and stores its answer with
``done(result)``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Optional

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
SCRIPT = shutil.which("script")

_PRELUDE = r'''
import gnubg, os, sys, json
JOB = json.load(open(JOBFILE))
BASE = ['set player 0 human', 'set player 1 human', 'set confirm default yes', 'set automatic game off',
        'set automatic roll off', 'set threads 1', 'set cube use on', 'set output digits 6', 'set output mwc off',
        'set output winpc off', 'set rollout chequerplay plies 0', 'set rollout cubedecision plies 0',
        'set rollout truncation enable off', 'set rollout later enable off', 'set rollout limit enable off',
        'set rollout jsd stop off', 'set rollout players-are-same on', 'set rollout initial off',
        'set rollout quasirandom on', 'set rollout rng mersenne', 'set rollout bearofftruncation onesided off']
def capture(command):
    sys.stdout.flush(); saved = os.dup(1)
    fd = os.open(OUTDIR + '/capture.txt', os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 1)
    t0 = os.times()
    try:
        gnubg.command(command)
    finally:
        t1 = os.times()
        sys.stdout.flush(); os.dup2(saved, 1); os.close(fd); os.close(saved)
    text = open(OUTDIR + '/capture.txt', errors='replace').read().replace('\r', '\n')
    return text, (t1.user + t1.system) - (t0.user + t0.system)
def done(result):
    json.dump(result, open(OUTDIR + '/result.json', 'w'))
'''


def available() -> bool:
    return bool(GNUBG and SCRIPT)


def run_in_gnubg(body: str, job: Any, timeout: int = 7200) -> Optional[Any]:
    """Run ``body`` inside gnubg with ``job``; its ``done(...)`` value, or None when gnubg or
    ``script`` is missing or the script gave no result."""
    if not available():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        jobfile = Path(tmp) / "job.json"
        jobfile.write_text(json.dumps(job))
        script = Path(tmp) / "bench.py"
        script.write_text(f"JOBFILE = {str(jobfile)!r}\nOUTDIR = {tmp!r}\n" + _PRELUDE + body)
        subprocess.run([SCRIPT, "-qec", f"{GNUBG} -t -q -p {script}", "/dev/null"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout, check=False)
        res = Path(tmp) / "result.json"
        return json.loads(res.read_text()) if res.exists() else None
