"""Multiplicative depth and linear-op counts before and after heirpy's fusion pipeline,
next to HEIR's own `--linalg-canonicalizations --linalg-fuse-linear-ops`.

    /work/venv/bin/python benchmarks/bench_depth.py [--pipeline P] [--out-dir DIR]

Models: every `examples/*.mlir`, plus small nets exported with torch-mlir (only when
`../genvenv/bin/python` has torch and torch-mlir; they are a benchmark-only tool, never
a dependency): conv->pool->conv->pool with no activation, Conv2d(stride 2) +
AvgPool2d(3, stride 2), a dilated conv + AvgPool2d(2), conv->conv, a batch-2 conv +
avg pool, the AlexNet-Tiny-style net (conv, pool, x^2, conv, pool, x^2, fc, x^2, fc), and for
bench_heir_backend.py: conv, x^2, conv (stride 1); a batch-2 conv, pool, x^2, conv; LeNet-5
with each pool before its square; a small MobileNet depthwise-separable block (BN, x^2, Linear).

Columns (depth under the CKKS cost model of `heirpy.analysis.depth`, `+` = lower bound
because an op outside the model is present):
  depth: before / after `linalg-fuse-conv-pool` alone / after the whole pipeline
  linear: plaintext-ciphertext linear ops, before -> after the pipeline
  convs: `linalg.conv_*` ops left after the pipeline + `lower-tensor-ext`
  numerics: evaluator, pipeline + lowering vs the original, 3 seeds
  HEIR: depth and convs after heir-opt --linalg-canonicalizations
        --linalg-fuse-linear-ops ("pt" counts convs whose inputs are all plaintext)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from heirpy.analysis.depth import FunctionDepth, analyze_function
from heirpy.api import context_of, parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_module, module_resources

ROOT = Path(__file__).resolve().parents[1]
GENVENV_PYTHON = ROOT.parent / "genvenv" / "bin" / "python"
HEIR_OPT = shutil.which("heir-opt") or str(ROOT.parent / "venv" / "bin" / "heir-opt")

EXPORT_SCRIPT = r'''
import sys, torch, torch_mlir.fx as fx
torch.manual_seed(0)
nn = torch.nn
class Square(nn.Module):
    def forward(self, x):
        return x * x
def bn(net):  # trained-looking batch-norm statistics, so folding them is tested
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5); m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5); m.bias.data.uniform_(-0.2, 0.2)
    return net
nets = {
    "gen_conv_pool_conv_pool": (nn.Sequential(nn.Conv2d(3, 4, 3), nn.AvgPool2d(2), nn.Conv2d(4, 8, 3), nn.AvgPool2d(2)), (1, 3, 16, 16)),
    "gen_conv_s2_avgpool3_s2": (nn.Sequential(nn.Conv2d(3, 4, 3, stride=2), nn.AvgPool2d(3, stride=2)), (1, 3, 17, 17)),
    "gen_dilated_conv_avgpool2": (nn.Sequential(nn.Conv2d(3, 4, 3, dilation=2), nn.AvgPool2d(2)), (1, 3, 16, 16)),
    "gen_conv_conv": (nn.Sequential(nn.Conv2d(2, 3, 3), nn.Conv2d(3, 4, 3)), (1, 2, 10, 10)),
    "gen_conv_pool_conv_pool_pad1": (nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.AvgPool2d(2), nn.Conv2d(4, 8, 3, padding=1), nn.AvgPool2d(2)), (1, 3, 16, 16)),
    "gen_conv_avgpool_flatten_linear": (nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(32, 10)), (2, 1, 8, 8)),
    "gen_linear_linear": (nn.Sequential(nn.Linear(6, 5), nn.Linear(5, 3)), (2, 6)),
    "gen_batch2_conv_avgpool": (nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.AvgPool2d(2)), (2, 3, 8, 8)),
    "gen_act_between": (nn.Sequential(nn.Conv2d(1, 4, 3), Square(), nn.Conv2d(4, 4, 3)), (1, 1, 8, 8)),
    "gen_batch2_conv_pool_sq_conv": (nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.AvgPool2d(2), Square(), nn.Conv2d(4, 4, 3)), (2, 3, 8, 8)),
    "gen_lenet_pool_before_square": (nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2), nn.AvgPool2d(2), Square(), nn.Conv2d(6, 16, 5), nn.AvgPool2d(2), Square(),
        nn.Flatten(), nn.Linear(400, 120), Square(), nn.Linear(120, 84), Square(), nn.Linear(84, 10)), (1, 1, 28, 28)),
    "gen_mobilenet_small": (nn.Sequential(
        nn.Conv2d(4, 4, 3, padding=1, groups=4, bias=False), nn.BatchNorm2d(4), Square(),
        nn.Conv2d(4, 8, 1, bias=False), nn.BatchNorm2d(8), Square(), nn.Flatten(), nn.Linear(8 * 8 * 8, 10)), (1, 4, 8, 8)),
    "gen_alexnet_tiny_style": (nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1), nn.AvgPool2d(2), Square(),
        nn.Conv2d(4, 8, 3, padding=1), nn.AvgPool2d(2), Square(),
        nn.Flatten(), nn.Linear(8 * 4 * 4, 16), Square(), nn.Linear(16, 10)), (1, 3, 16, 16)),
    "gen_mobilenet_gap": (bn(nn.Sequential(
        nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False), nn.BatchNorm2d(8), Square(),
        nn.Conv2d(8, 16, 1, bias=False), nn.BatchNorm2d(16), Square(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))), (1, 8, 8, 8)),
    "gen_gap_square": (bn(nn.Sequential(
        nn.Conv2d(2, 4, 1, bias=False), nn.BatchNorm2d(4), Square(), nn.AdaptiveAvgPool2d(1), nn.Flatten())), (1, 2, 4, 4)),
}
out = sys.argv[1]
for name, (net, shape) in nets.items():
    net.eval()
    module = fx.export_and_import(net, torch.randn(*shape), output_type="linalg-on-tensors")
    open(f"{out}/{name}.mlir", "w").write(str(module))
'''


@dataclass
class Row:
    name: str
    depth: str = ""
    linear: str = ""
    convs: str = ""
    numerics: str = ""
    heir: str = ""


def export_generated(directory: Path) -> list[Path]:
    if not GENVENV_PYTHON.exists():
        print(f"note: {GENVENV_PYTHON} not found: generated nets skipped", file=sys.stderr)
        return []
    result = subprocess.run(
        [str(GENVENV_PYTHON), "-c", EXPORT_SCRIPT, str(directory)],
        capture_output=True, text=True, timeout=900,
    )
    if result.returncode != 0:
        print(f"note: torch-mlir export failed, generated nets skipped:\n{result.stderr[-2000:]}", file=sys.stderr)
        return []
    return sorted(directory.glob("gen_*.mlir"))


def entry(module: ModuleOp) -> FuncOp:
    return next(op for op in module.ops if isinstance(op, FuncOp))


def depth_of(module: ModuleOp) -> FunctionDepth:
    return analyze_function(entry(module))


def reads_argument(value: SSAValue, seen: set[int] | None = None) -> bool:
    """Whether `value` depends on a function argument (i.e. is not plaintext work)."""
    seen = set() if seen is None else seen
    if isinstance(value, BlockArgument):
        return isinstance(value.block.parent_op(), FuncOp)
    op: Operation = value.op  # type: ignore[attr-defined]
    if id(op) in seen:
        return False
    seen.add(id(op))
    return any(reads_argument(v, seen) for v in op.operands)


def conv_counts(module: ModuleOp) -> tuple[int, int]:
    """(convs, convs whose inputs are all plaintext)."""
    convs = [op for op in module.walk() if op.name.startswith("linalg.conv_")]
    plaintext = sum(1 for op in convs if not any(reads_argument(v) for v in op.operands))
    return len(convs), plaintext


def heir_column(text: str) -> str:
    if not Path(HEIR_OPT).exists():
        return "n/a"
    result = subprocess.run(
        [HEIR_OPT, "--linalg-canonicalizations", "--linalg-fuse-linear-ops", "-"],
        input=text, capture_output=True, text=True, timeout=900,
    )
    if result.returncode != 0:
        return "heir-opt error"
    try:
        module = load_module(result.stdout, "heir-opt-output").module
    except Exception as err:  # heirpy cannot read what heir-opt printed
        return f"unreadable ({str(err).splitlines()[0][:40]})"
    convs, plaintext = conv_counts(module)
    return f"depth {depth_of(module).depth_text()}, {convs} convs ({plaintext} pt)"


def bench(path: Path, pipeline: str, out_dir: Path | None) -> Row:
    text = path.read_text()
    before = load_module(text, str(path))
    conv_pool_only = load_module(text, str(path))
    after = load_module(text, str(path))
    run_pipeline(conv_pool_only.module, "linalg-fuse-conv-pool")
    run_pipeline(after.module, pipeline)
    lowered = parse(print_module(after.module), f"{path.name}-after")
    run_pipeline(lowered, "lower-tensor-ext")
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / path.name).write_text(print_module(lowered))
    d0, d1, d2 = (depth_of(m) for m in (before.module, conv_pool_only.module, after.module))
    convs, plaintext = conv_counts(lowered)
    report = check_equivalence(
        before.module, lowered, function=entry(before.module).sym_name.data, seeds=(0, 1, 2),
        resources_a=before.resources,
        resources_b=module_resources(lowered, context_of(lowered)),
    )
    worst = max((r.max_abs_error for r in report.results), default=0.0)
    return Row(
        name=path.stem,
        depth=f"{d0.depth_text()} / {d1.depth_text()} / {d2.depth_text()}",
        linear=f"{d0.linear_ops} -> {d2.linear_ops}",
        convs=f"{convs}" + (f" ({plaintext} pt)" if plaintext else ""),
        numerics=f"{'ok' if report.ok else 'MISMATCH'} {worst:.0e}",
        heir=heir_column(text),
    )


def format_rows(rows: list[Row]) -> str:
    header = ["model", "depth before / conv-pool / pipeline", "linear ops", "convs left",
              "numerics", "heir-opt canonicalize+fuse-linear-ops"]
    body = [[r.name, r.depth, r.linear, r.convs, r.numerics, r.heir] for r in rows]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |" for line in [header, *body]]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", default="linalg-canonicalizations,linalg-fuse-ops")
    parser.add_argument("--out-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    models = sorted((ROOT / "examples").glob("*.mlir"))
    with tempfile.TemporaryDirectory() as tmp:
        models += export_generated(Path(tmp))
        rows = []
        for path in models:
            try:
                rows.append(bench(path, args.pipeline, args.out_dir))
            except Exception as err:
                rows.append(Row(path.stem, depth=f"error: {str(err).splitlines()[0][:80]}"))
    print(f"pipeline: {args.pipeline}")
    print(format_rows(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
