"""Dtype-cleanliness fuzzing (issue 34): N generated programs (tests/strategies.py), each
converted to f16 and bf16 (and kept in f32 with --f32), through the main pipeline,
iree-prepare and heir-prepare; heirpy's verifier, iree-opt (one call per batch) and the
evaluator (f16/f32, tolerance from the dtype) judge each output (tests/dtype_clean.py).

    python benchmarks/fuzz_dtypes.py [--count 1000] [--seed 0] [--batch 50] [--f32] [--save DIR]

Prints the counts per element type and pipeline: programs, dtype errors (crash, invalid,
iree: the issue's target is 0 over 1,000 f16/bf16 programs), refused (a user-facing
heirpy error: a documented limit), numeric mismatches; then the first findings.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ is not a package

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

import strategies  # noqa: E402
from dtype_clean import (  # noqa: E402
    DTYPE_ERRORS,
    ELEMENTS,
    PIPELINES,
    Finding,
    Outputs,
    Variant,
    convert_element,
    iree_parse,
    run_variant,
)
from strategies import Program, programs  # noqa: E402

TORCH_F16 = "f16-torch"  # torch-mlir's mixed form: f32 accumulators, extf/truncf


def draw_programs(count: int, start: int, torch_f16: bool = False) -> list[Program]:
    """`count` programs of `programs()`, or with `torch_f16` of the IREE differential
    generator's f16 form (strategies.differential_programs: convs accumulating in f32
    before a truncf, softmax between extf and truncf, YOLO heads)."""
    drawn: list[Program] = []
    strategy = strategies.differential_programs(element="f16") if torch_f16 else programs()

    @seed(start)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(program=strategy)
    def collect(program: Program) -> None:
        drawn.append(program)

    collect()
    return drawn[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=50, help="programs per iree-opt call")
    parser.add_argument("--f32", action="store_true", help="also the f32 originals")
    parser.add_argument("--no-torch-f16", action="store_true",
                        help="skip the programs in torch-mlir's mixed f16 form (as many as --count)")
    parser.add_argument("--save", type=Path, help="write each program with a dtype error here")
    args = parser.parse_args()
    elements: tuple[str, ...] = ("f32", *ELEMENTS) if args.f32 else ELEMENTS
    started = time.perf_counter()
    drawn = draw_programs(args.count, args.seed)
    torch_drawn = [] if args.no_torch_f16 else draw_programs(args.count, args.seed, torch_f16=True)
    findings: list[Finding] = []
    texts: dict[str, str] = {}
    for begin in range(0, len(drawn), args.batch):
        outputs = Outputs()
        for number, program in enumerate(drawn[begin: begin + args.batch], start=begin):
            for element in elements:
                variant = Variant(f"#{number}/{element}", element, convert_element(program.text, element),
                                  len(program.layers))
                texts[variant.name] = variant.text
                run_variant(variant, PIPELINES, outputs)
            if number < len(torch_drawn):
                mixed = torch_drawn[number]
                variant = Variant(f"#{number}/{TORCH_F16}", "f16", mixed.text, len(mixed.layers))
                texts[variant.name] = variant.text
                run_variant(variant, PIPELINES, outputs)
        findings += outputs.findings + iree_parse(outputs.texts)
        print(f"  {min(begin + args.batch, len(drawn))}/{len(drawn)} programs, {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    counts = Counter((f.variant.split("/")[1] if "/" in f.variant else "?", f.pipeline, f.kind) for f in findings)
    print(f"{len(drawn)} programs x {len(elements)} element types x {len(PIPELINES)} pipelines "
          f"({time.perf_counter() - started:.0f} s)")
    print(f"| element | pipeline | programs | dtype errors ({'/'.join(DTYPE_ERRORS)}) | refused | mismatch |")
    print("|---|---|---|---|---|---|")
    for element in (*elements, *(() if args.no_torch_f16 else (TORCH_F16,))):
        for label in PIPELINES:
            errors = [counts[(element, label, k)] for k in DTYPE_ERRORS]
            print(f"| {element} | {label} | {len(drawn)} | {sum(errors)} ({'/'.join(map(str, errors))}) "
                  f"| {counts[(element, label, 'refused')]} | {counts[(element, label, 'mismatch')]} |")
    shown = [f for f in findings if f.kind != "refused"][:15]
    for f in shown:
        print(f"{f.variant} [{f.pipeline}] {f.kind}: {f.detail[:300]}")
    refused = Counter(f.detail[:120] for f in findings if f.kind == "refused")
    for detail, n in refused.most_common(5):
        print(f"refused x{n}: {detail}")
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for f in findings:
            if f.kind in DTYPE_ERRORS and f.variant in texts:
                name = f.variant.replace("#", "p").replace("/", "_")
                (args.save / f"{name}_{f.pipeline}.mlir").write_text(
                    f"// {f.pipeline} {f.kind}: {f.detail}\n{texts[f.variant]}")
    return 1 if any(f.kind in DTYPE_ERRORS for f in findings) else 0


if __name__ == "__main__":
    sys.exit(main())
