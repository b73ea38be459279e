"""Mutation fuzzing of heirpy-opt's input handling: derive hostile inputs from the examples.

    python benchmarks/fuzz_hostile.py [--count 1000] [--seed 0] [--passes P] [--save DIR]

Each input is an example model (or a tests/hostile corpus file) with a few random
mutations: lines dropped, duplicated or swapped, the text truncated, bytes flipped
(including invalid UTF-8), numbers replaced by huge, zero or negative ones, types and
op names swapped, brackets removed. Every input runs through heirpy-opt's `main()` in
this process with a time limit. It prints the counts the trust target is stated in:
inputs, clean diagnostics (exit 1, one line), passed through (exit 0), internal errors
(a Python exception that reached the catch-all), multi-line or traceback output, and
hangs. `--save DIR` keeps the inputs that failed, for the hostile corpus.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from heirpy.tools.heirpy_opt import main as heirpy_opt

ROOT = Path(__file__).resolve().parent.parent
NUMBERS = re.compile(rb"\b\d+\b")
HOSTILE_NUMBERS = [b"0", b"-1", b"100000000", b"18446744073709551617", b"1", b"3"]
SWAPS = [
    (b"f32", b"i32"),
    (b"tensor<", b"memref<"),
    (b"linalg.matmul", b"linalg.matvec"),
    (b"linalg.conv_2d_nchw_fchw", b"linalg.pooling_nchw_sum"),
    (b"parallel", b"reduction"),
    (b"dense<", b"dense_resource<"),
    (b"x", b"x?x"),
    (b"%", b"%%"),
]


class Hang(BaseException):  # not Exception: heirpy-opt must not swallow it
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise Hang()


def seeds_texts() -> list[bytes]:
    files = sorted((ROOT / "examples").glob("*.mlir"))
    files = [f for f in files if f.stat().st_size < 300_000]  # keep each run fast
    files += sorted((ROOT / "tests" / "hostile" / "corpus").glob("*.mlir"))
    return [f.read_bytes() for f in files]


def mutate(text: bytes, rng: random.Random) -> bytes:
    mutations: list[Callable[[bytes], bytes]] = [
        lambda t: _lines(t, rng, "drop"),
        lambda t: _lines(t, rng, "dup"),
        lambda t: _lines(t, rng, "swap"),
        lambda t: t[: rng.randrange(len(t) + 1)],
        lambda t: _flip(t, rng),
        lambda t: NUMBERS.sub(lambda m: rng.choice(HOSTILE_NUMBERS) if rng.random() < 0.1 else m.group(0), t),
        lambda t: _swap(t, rng),
        lambda t: t.replace(rng.choice([b"(", b")", b"{", b"}", b"<", b">", b"[", b"]"]), b"", 1),
    ]
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(mutations)(text)
    return text


def _lines(text: bytes, rng: random.Random, how: str) -> bytes:
    lines = text.split(b"\n")
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    if how == "drop":
        del lines[i]
    elif how == "dup":
        lines.insert(j, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _flip(text: bytes, rng: random.Random) -> bytes:
    if not text:
        return b"\xff"
    data = bytearray(text)
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def _swap(text: bytes, rng: random.Random) -> bytes:
    old, new = rng.choice(SWAPS)
    if rng.random() < 0.5:
        old, new = new, old
    return text.replace(old, new, 1)


def classify(code: int, stderr: str) -> str:
    if "Traceback" in stderr:
        return "traceback"
    if "internal error" in stderr:
        return "internal error"
    if code == 0:
        return "passed through"
    lines = [line for line in stderr.splitlines() if line.strip()]
    if code == 1 and len(lines) == 1 and "error: " in lines[0]:
        return "diagnostic"
    return "bad output"


def run_one(path: Path, passes: str, limit: int) -> tuple[str, str, float]:
    err, out = io.StringIO(), io.StringIO()
    signal.alarm(limit)
    start = time.perf_counter()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = heirpy_opt([str(path), "-p", passes])
    except Hang:
        return "hang", "", float(limit)
    finally:
        signal.alarm(0)
    return classify(code, err.getvalue()), err.getvalue(), time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--passes", default="canonicalize,dce")
    parser.add_argument("--time-limit", type=int, default=10)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--work", type=Path, default=Path("/tmp/heirpy-fuzz"))
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _on_alarm)
    rng = random.Random(args.seed)
    seeds = seeds_texts()
    args.work.mkdir(parents=True, exist_ok=True)
    outcomes: Counter[str] = Counter()
    slowest = 0.0
    for index in range(args.count):
        path = args.work / f"input_{index}.mlir"
        path.write_bytes(mutate(rng.choice(seeds), rng))
        outcome, stderr, seconds = run_one(path, args.passes, args.time_limit)
        outcomes[outcome] += 1
        slowest = max(slowest, seconds)
        if outcome not in ("diagnostic", "passed through"):
            print(f"{outcome}: {path}: {stderr.strip().splitlines()[-1:] if stderr else ''}")
            if args.save is not None:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / path.name).write_bytes(path.read_bytes())
    print(f"inputs: {args.count}  pipeline: {args.passes}  slowest: {slowest:.2f}s")
    for name in ("diagnostic", "passed through", "internal error", "traceback", "bad output", "hang"):
        print(f"  {name:15s} {outcomes[name]}")
    failures = sum(outcomes[n] for n in ("internal error", "traceback", "bad output", "hang"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
