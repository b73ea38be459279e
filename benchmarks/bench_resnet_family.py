"""ResNet-20/32/44/56 through heirpy's depth model: each at its bound after heir-prepare?

    python benchmarks/bench_resnet_family.py [--nets 20 32 44 56] [--bn conv|act] [--cache DIR]
        [--out benchmarks/out/resnet_family.md]

Builds each CIFAR ResNet (benchmarks/residual_nets.py: x² for ReLU, BN after each conv,
option-A or option-B shortcuts where a stage downsamples) in PyTorch, exports it with
torch-mlir's defaults (`fx.export_and_import(..., output_type='linalg-on-tensors')`,
weights as dense_resource blobs) in both BN export forms (BN as four per-channel
constants; BN folded into its conv), runs heirpy's `heir-prepare` and prints, per net:
the bound counted from the layers (39/63/87/111), heirpy's depth model on the prepared
IR, whether strided convs were kept off the grid (the remark of `strided-on-grid`), the
slot count, the heir-opt flags heirpy names (`heirpy.analysis.heir_command`), and the
CPU seconds of parse, heir-prepare and print in this process (CPU, not wall: the
machine is shared). Last, `heirpy-opt FILE -p
heir-prepare` as a user runs it (a fresh process: start-up, parse, passes, print) on
each ResNet-56 (CPU and wall seconds). Exports are cached in --cache (torch-mlir takes up to ~25 s a net).
Times are one run each on a shared machine: indicative. `--bn act` puts each BN after
its activation instead (conv -> x² -> BN; BN as four constants, the one export form:
`fuse_conv_bn_eval` folds only a BN right after a conv).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import markdown_table  # noqa: E402
from heirpy.analysis.heir_command import ckks_options  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402
from heirpy.transforms.heir.heir_prepare import prepared_module_flags  # noqa: E402
from residual_nets import EXPORTS, depth_bound, export_mlir, resnet_spec  # noqa: E402

STRIDED_KEPT = "keeps its strided convs"


def cached_export(depth: int, shortcut: str, export: str, cache: Path, bn: str = "conv") -> Path:
    path = cache / f"resnet{depth}_{shortcut}_{export}{'_bn_after_act' if bn == 'act' else ''}.mlir"
    if not path.is_file():
        text, _, _ = export_mlir(resnet_spec(depth, shortcut, export, bn=bn))
        path.write_text(text)
    return path


def measure(path: Path, bound: int) -> list[str]:
    text = path.read_text()
    start = time.process_time()
    module = parse(text, str(path))
    parsed = time.process_time()
    remarks = io.StringIO()
    with contextlib.redirect_stderr(remarks):
        run_pipeline(module, "heir-prepare")
    prepared = time.process_time()
    print_module(module)
    printed = time.process_time()
    flags = prepared_module_flags(module)
    assert flags is not None
    _, slots, depth, exact = flags
    verdict = "**at the bound**" if depth == bound else f"{depth - bound:+d}"
    options = " ".join(ckks_options(slots, depth, exact)) or "(HEIR's defaults)"
    if depth > 57:
        options += " (must bootstrap)"
    elif not exact:
        options += " (strided convs kept: no budget)"
    return [
        str(bound), str(depth), verdict, "kept (remark)" if STRIDED_KEPT in remarks.getvalue() else "on the grid",
        str(slots), options, f"{parsed - start:.1f}", f"{prepared - parsed:.1f}", f"{printed - prepared:.1f}",
    ]


def heirpy_opt_seconds(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of `heirpy-opt FILE -p heir-prepare` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "heirpy.tools.heirpy_opt", str(path), "-p", "heir-prepare",
                    "-o", "/dev/null"], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nets", type=int, nargs="+", default=[20, 32, 44, 56])
    parser.add_argument("--bn", choices=("conv", "act"), default="conv",
                        help="each BN after its conv (both export forms) or after its activation")
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / "out" / "resnet_family")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "resnet_family.md")
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    header = ["net", "shortcut", "BN export", "bound", "heirpy depth", "", "strided convs", "slots",
              "heir-opt options heirpy names", "parse CPU s", "heir-prepare CPU s", "print CPU s"]
    rows = []
    exports = EXPORTS if args.bn == "conv" else ("bn",)
    for depth in args.nets:
        for shortcut in ("A", "B"):
            for export in exports:
                path = cached_export(depth, shortcut, export, args.cache, args.bn)
                bound = depth_bound(resnet_spec(depth, shortcut, export, bn=args.bn))
                form = export if args.bn == "conv" else "bn after x²"
                rows.append([f"ResNet-{depth}", shortcut, form, *measure(path, bound)])
                print(" | ".join(rows[-1]), flush=True)
    lines = [markdown_table(header, rows), ""]
    deepest = max(args.nets)
    for shortcut in ("A", "B"):
        for export in exports:
            path = cached_export(deepest, shortcut, export, args.cache, args.bn)
            wall, cpu = heirpy_opt_seconds(path)
            lines.append(f"heirpy-opt {path.name} -p heir-prepare (a fresh process): {cpu:.1f} s CPU, "
                         f"{wall:.1f} s wall ({path.stat().st_size / 1e6:.1f} MB of MLIR)")
    report = "\n".join(lines)
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
