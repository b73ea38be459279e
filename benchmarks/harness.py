"""The benchmarks' one harness: IREE's tools, subprocesses, CPU time, the timing lock and
the markdown tables every script prints. A benchmark script imports what it needs from here
(benchmarks/ is on its path, as the directory of the script) and keeps only its cases and
columns. Scripts may share cases (bench_iree reads bench_kernels' cases), never these helpers
by copy; and nothing here imports a script, so the benchmarks draw no import circle."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import resource
import shutil
import statistics
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path


# ------------------------------------------------------------------ tables
def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """`| a | b |` rows under a header and a `|---|---|` rule, columns padded to width."""
    table = [list(header), *[list(r) for r in rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in table]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


# ------------------------------------------------------------------ timing
@contextlib.contextmanager
def held(lock: str | None) -> Iterator[None]:
    """Hold an exclusive flock on the file `lock` (None: no lock) for the body, so that on a
    shared machine only timings wait for their turn (compiles and preparation do not)."""
    if lock is None:
        yield
        return
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def median(values: Sequence[float]) -> float | None:
    """The median, or None for no values (a cell that prints as missing)."""
    return statistics.median(values) if values else None


def children_cpu() -> float:
    """CPU seconds (user + system) spent so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# ------------------------------------------------------------------ tools
def run(cmd: list[str]) -> str:
    """Run `cmd`, return its stdout; a failure raises with the tool's first error line."""
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        first = next((line for line in result.stderr.splitlines() if "error" in line), "")
        raise RuntimeError(f"{Path(cmd[0]).name} failed: {first or result.stderr[-300:]}")
    return result.stdout


@dataclass(frozen=True)
class Tools:
    """IREE's command-line tools, from a directory, beside the running Python, or on PATH."""

    compile: str
    opt: str
    run: str
    benchmark: str

    @staticmethod
    def find(directory: str | None = None) -> Tools:
        def tool(name: str) -> str:
            candidates = [Path(directory) / name] if directory else []
            candidates.append(Path(sys.executable).parent / name)
            for candidate in candidates:
                if candidate.exists():
                    return str(candidate)
            found = shutil.which(name)
            if found is None:
                sys.exit(f"error: {name} not found (pip install -r benchmarks/requirements.txt)")
            return found

        return Tools(
            tool("iree-compile"), tool("iree-opt"), tool("iree-run-module"),
            tool("iree-benchmark-module"),
        )


# ------------------------------------------------------------------ HEIR fuzzers
ACCEPTED = ("at bound", "above bound", "below bound")  # the outcomes of a net heir-opt compiled


def at_bound_share(counts: Counter[str]) -> str:
    """`3/10 (30%)`: the nets compiled at their depth bound, of those heir-opt accepted."""
    accepted = sum(counts[k] for k in ACCEPTED)
    share = f"{counts['at bound']}/{accepted}"
    return share + (f" ({100 * counts['at bound'] / accepted:.0f}%)" if accepted else "")


def keep_reproducer(directory: Path, stem: str, header: Sequence[str], module: str) -> Path:
    """Write `module` under `directory` as `STEM_<digest>.mlir`, `header` as its first
    comment lines (the text `{path}` in them is replaced by the file's name, and nothing
    else: a heir-opt message may hold braces); return the path."""
    path = directory / f"{stem}_{hashlib.sha1(module.encode()).hexdigest()[:10]}.mlir"
    directory.mkdir(parents=True, exist_ok=True)
    lines = [f"// {line.replace('{path}', path.name)}" for line in header]
    path.write_text("\n".join(lines) + "\n" + module)
    return path


def layout_names(source: Path, work: Path, label: str, layouts: int) -> list[Path]:
    """`layouts` names for `source` (links in `work`), 16 characters apart in length.
    iree-compile writes the source's path into each executable library's `.rodata`, before
    `.text`, so the path's length moves the code (16 more characters: 16-32 bytes; 32 for
    ConvNeXt-atto, from 16 to 48 past a 64-byte line) and with it the alignment of every loop: on this machine
    ConvNeXt-atto's same IR ran up to 13% apart under four names (docs/iree.md). A
    variant timed under several names is timed over several layouts."""
    names = []
    for index in range(layouts):
        name = work / f"{label}{'_' * (16 * index)}.mlir"
        if name != source:
            name.unlink(missing_ok=True)
            name.symlink_to(source.resolve())
        names.append(name)
    return names
