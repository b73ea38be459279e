"""Dtype-cleanliness fuzzing (issue 34): N generated programs (tests/strategies.py), each
converted to f16 and bf16 (and kept in f32 with --f32), and N in torch-mlir's mixed form
(f32 accumulators + truncf, batch norm via extf) in f16 and its bf16 twin, through the
main pipeline, iree-prepare and heir-prepare; heirpy's verifier, iree-opt (one call per
batch) and the evaluator (before vs after, tolerance from the dtype) judge each output
(tests/dtype_clean.py).

    python benchmarks/fuzz_dtypes.py [--count 1000] [--seed 0] [--batch 50] [--first 0] [--elements f16,bf16]
                                     [--f32] [--no-torch-f16] [--save DIR]

Prints the counts per element type and pipeline: programs, dtype errors (crash, invalid,
iree: the issue's target is 0 over 1,000 f16/bf16 programs), refused (a user-facing
heirpy error: a documented limit), numeric mismatches; then the first findings.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
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
TORCH_BF16 = "bf16-torch"  # the same programs with bf16 storage


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


def variants(number: int, program: Program, elements: Sequence[str], mixed: Program | None) -> list[Variant]:
    """Program `number` in each of `elements`, and the torch-form program `mixed` (drawn
    in f16) in f16 and bf16."""
    found = [Variant(f"#{number}/{element}", element, convert_element(program.text, element), len(program.layers))
             for element in elements]
    if mixed is not None:
        for label, element in ((TORCH_F16, "f16"), (TORCH_BF16, "bf16")):
            text = convert_element(mixed.text, element, source="f16")
            found.append(Variant(f"#{number}/{label}", element, text, len(mixed.layers)))
    return found


def run_all(drawn: list[Program], torch_drawn: list[Program], elements: Sequence[str], batch: int,
            texts: dict[str, str], first: int = 0) -> list[Finding]:
    """Every variant through every pipeline, one iree-opt call per `batch` programs; each
    batch's findings are logged to stderr as they come (a long run shows them early)."""
    started = time.perf_counter()
    findings: list[Finding] = []
    for begin in range(first, len(drawn), batch):
        outputs = Outputs()
        for number, program in enumerate(drawn[begin: begin + batch], start=begin):
            mixed = torch_drawn[number] if number < len(torch_drawn) else None
            for variant in variants(number, program, elements, mixed):
                texts[variant.name] = variant.text
                run_variant(variant, PIPELINES, outputs)
        batch_findings = outputs.findings + iree_parse(outputs.texts)
        for f in batch_findings:
            if f.kind != "refused":
                print(f"  {f.variant} [{f.pipeline}] {f.kind}: {f.detail[:300]}", file=sys.stderr)
        findings += batch_findings
        print(f"  {min(begin + batch, len(drawn)) - first}/{len(drawn) - first} programs, {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    return findings


def print_table(findings: list[Finding], programs: int, labels: Sequence[str]) -> None:
    counts = Counter((f.variant.split("/")[1] if "/" in f.variant else "?", f.pipeline, f.kind) for f in findings)
    print(f"| element | pipeline | programs | dtype errors ({'/'.join(DTYPE_ERRORS)}) | refused | mismatch |")
    print("|---|---|---|---|---|---|")
    for element in labels:
        for label in PIPELINES:
            errors = [counts[(element, label, k)] for k in DTYPE_ERRORS]
            print(f"| {element} | {label} | {programs} | {sum(errors)} ({'/'.join(map(str, errors))}) "
                  f"| {counts[(element, label, 'refused')]} | {counts[(element, label, 'mismatch')]} |")
    for f in [f for f in findings if f.kind != "refused"][:15]:
        print(f"{f.variant} [{f.pipeline}] {f.kind}: {f.detail[:300]}")
    for detail, n in Counter(f.detail[:120] for f in findings if f.kind == "refused").most_common(5):
        print(f"refused x{n}: {detail}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=50, help="programs per iree-opt call")
    parser.add_argument("--first", type=int, default=0,
                        help="skip the first programs drawn (split one run of --count over processes)")
    parser.add_argument("--elements", default=",".join(ELEMENTS), help="element types of programs() (f32,f16,bf16)")
    parser.add_argument("--f32", action="store_true", help="also the f32 originals")
    parser.add_argument("--no-torch-f16", action="store_true",
                        help="skip the programs in torch-mlir's mixed form (f16 and bf16; as many as --count)")
    parser.add_argument("--save", type=Path, help="write each program with a dtype error or mismatch here")
    args = parser.parse_args()
    elements = tuple(e for e in args.elements.split(",") if e)
    if args.f32 and "f32" not in elements:
        elements = ("f32", *elements)
    started = time.perf_counter()
    drawn = draw_programs(args.count, args.seed)
    torch_drawn = [] if args.no_torch_f16 else draw_programs(args.count, args.seed, torch_f16=True)
    texts: dict[str, str] = {}
    findings = run_all(drawn, torch_drawn, elements, args.batch, texts, args.first)
    torch_labels = () if args.no_torch_f16 else (TORCH_F16, TORCH_BF16)
    print(f"{len(drawn) - args.first} programs (#{args.first}..#{len(drawn) - 1}) x ({len(elements)} element types + {len(torch_labels)} torch forms) "
          f"x {len(PIPELINES)} pipelines ({time.perf_counter() - started:.0f} s)")
    print_table(findings, len(drawn) - args.first, (*elements, *torch_labels))
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for f in findings:
            if f.kind != "refused" and f.variant in texts:
                name = f.variant.replace("#", "p").replace("/", "_")
                (args.save / f"{name}_{f.pipeline}.mlir").write_text(
                    f"// {f.pipeline} {f.kind}: {f.detail}\n{texts[f.variant]}")
    return 1 if any(f.kind in DTYPE_ERRORS for f in findings) else 0


if __name__ == "__main__":
    sys.exit(main())
