"""`heir-prepare`: heirpy's whole preparation for HEIR's CKKS pipeline, with one slot setting.

    heir-prepare{slot-count=N}
      ==  linalg-canonicalizations,linalg-fuse-ops{slot-budget=N},
          legalize-for-heir{slot-count=N flat-results=true},heir-widen-half
                                                                (in rounds, to a fixpoint)

The slot count is the one number HEIR's `--torch-linalg-to-ckks=min-slot-count=N` and
heirpy's passes must agree on: `linalg-fuse-ops` may fuse a chain into a dense matrix
whose vectors fit it, `legalize-for-heir` writes matvecs that fit it. Without
`slot-count` (or with 0), fusion keeps its default budget (HEIR's 1024 slots, widened to
the vectors each function carries anyway) and `legalize-for-heir` picks the fewest
slots that hold every secret vector of the result, naming the heir-opt flag in a
remark when that is more than HEIR's default. A result that no conv lays out in HEIR's
layout (a batch of 2 or more, rows of a non-power-of-two input) is returned as its flat
vector, at the depth bound, instead of assembled in pieces at one level more; a remark
names each such result and the shape to read it in. `flat-results=false` keeps every
result's shape (`legalize-for-heir`'s own default). Last, a half-precision (f16 / bf16)
function is computed in f32 (`heir-widen-half`: CKKS slots hold reals, and heir-opt
rejects convs mixing f16 inputs with an f32 accumulator); `widen-half=false` keeps the
model's types. The components are the passes themselves,
so `heir-prepare` prints exactly what its passes print in a row
(tests/unit/test_heir_prepare.py checks this), repeated until a round of them
changes nothing: each pass's input is the form the passes before it leave, but
legalize-for-heir writes forms the earlier two act on. It turns convs into matvecs, and
`linalg-fuse-ops` then fuses a matvec with the elementwise op after it, which the next
legalization lowers with the matvec's init moved into that op (through an
`expand_shape` that canonicalization folds into a splat constant); it leaves a zero
`linalg.fill` as a conv's init (strided convs on the grid) that canonicalization folds
into a constant; and the convs `strided-on-grid` dilates by 2 are ones canonicalization
undilates (a 3x3 filter at dilation 2 becomes a 5x5 one with zero taps: ResNet-20's
stage 2; the same CKKS ops in heir-opt on strided-grid.mlir's net). One round stopped
short of those on about a third of generated programs, and on a few (every conv a
matvec) only a third round settled; so heir-prepare(heir-prepare(x)) changed x's
output. Running rounds to the fixpoint makes
heir-prepare idempotent (tests/unit/test_generated_programs.py checks it on generated
programs; `tests/filecheck/transforms/heir-prepare/fixpoint.mlir` on the minimised ones).
The round that finds nothing left to change costs the three passes once more on
prepared IR, cheap next to the first (ResNet-56, BN after x²: three rounds, 3.0 -> 3.6 s
CPU on a loaded machine).
"""

from __future__ import annotations

import contextlib
import io
import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from heirpy.analysis.depth import analyze_function
from heirpy.analysis.heir_command import command_remark
from heirpy.analysis.slots import DEFAULT_SLOT_COUNT, module_slots
from heirpy.transforms.canonicalize.linalg_canonicalizations import LinalgCanonicalizationsPass
from heirpy.transforms.heir.heir_strided_convs import has_strided_conv
from heirpy.transforms.heir.heir_widen_half import HeirWidenHalfPass
from heirpy.transforms.heir.legalize_for_heir import LegalizeForHeirPass, check_slot_count
from heirpy.transforms.linalg_fuse_ops import LinalgFuseOpsPass

MAX_ROUNDS = 6
"""Rounds of the three passes `heir-prepare` runs at most. The generated programs settle
after at most three (and a fourth confirms); a module still changing after MAX_ROUNDS is
returned as the last round left it, which is valid and equivalent, only not a fixpoint."""


def heir_prepare_passes(
    slot_count: int = 0, flat_results: bool = True, strided_on_grid: bool = True, pad_input_channels: bool = True,
    widen_half: bool = True,
) -> tuple[ModulePass, ...]:
    """The passes `heir-prepare{slot-count=N}` runs, in order (0: heirpy picks the count)."""
    widen: tuple[ModulePass, ...] = (HeirWidenHalfPass(),) if widen_half else ()
    return (
        LinalgCanonicalizationsPass(),
        LinalgFuseOpsPass(slot_budget=slot_count or DEFAULT_SLOT_COUNT),
        LegalizeForHeirPass(
            slot_count=slot_count, flat_results=flat_results, strided_on_grid=strided_on_grid,
            pad_input_channels=pad_input_channels,
        ),
    ) + widen


def heir_prepare_pipeline(
    slot_count: int = 0, flat_results: bool = True, strided_on_grid: bool = True, pad_input_channels: bool = True,
    widen_half: bool = True,
) -> str:
    """`heir-prepare{slot-count=N}` spelled as the pipeline of its component passes."""
    fuse = f"linalg-fuse-ops{{slot-budget={slot_count}}}" if slot_count else "linalg-fuse-ops"
    options = [f"slot-count={slot_count}"] * bool(slot_count) + ["flat-results=true"] * flat_results
    options += ["strided-on-grid=false"] * (not strided_on_grid) + ["pad-input-channels=true"] * pad_input_channels
    legalize = "legalize-for-heir" + (f"{{{' '.join(options)}}}" if options else "")
    return f"linalg-canonicalizations,{fuse},{legalize}" + ",heir-widen-half" * widen_half


@dataclass(frozen=True)
class HeirPreparePass(ModulePass):
    """Prepare for HEIR's --torch-linalg-to-ckks in one step: canonicalize, fuse, legalize with one slot count.

    `heir-prepare{slot-count=N}` runs `linalg-canonicalizations`,
    `linalg-fuse-ops{slot-budget=N}` and `legalize-for-heir{slot-count=N}`; give
    heir-opt the same N (`--torch-linalg-to-ckks=min-slot-count=N`). Without
    `slot-count`, heirpy picks the fewest slots that hold every secret vector and a
    remark names the heir-opt flag when that is more than HEIR's default 1024:

        heirpy-opt net.mlir -p heir-prepare | heir-opt --secretize=function=main \\
            '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks

    `flat-results` (default true here, false in `legalize-for-heir`): a result with
    several non-unit dims that no conv can lay out is returned flat, at the depth bound
    (in pieces it costs one level more); the remark names its shape, and the caller
    reads the decrypted vector in it, row-major. `flat-results=false` keeps the shape.
    `strided-on-grid` (default true): a strided conv left to HEIR's conv kernel runs at
    stride 1 on its input's grid and the convs after it read it dilated (more MACs and
    slots, no layout conversion); `strided-on-grid=false` keeps it strided.
    `pad-input-channels` (default true here, false in `legalize-for-heir`): an image
    argument that only convs read, like CIFAR's 1x3x32x32, becomes 1x4x32x32 (zero
    weights for the added channel): HEIR's first conv costs one level, not two. The
    remark names the new argument type; `pad-input-channels=false` keeps the signature.
    `widen-half` (default true): a half-precision (f16 / bf16) function is computed in
    f32 (`heir-widen-half`; the remark names its new signature); false keeps its types.
    (tests/filecheck/transforms/heir-prepare/docstring.mlir runs it on a net with a
    fused kernel and pipes the result through heir-opt.) The three passes run in rounds
    until one changes nothing (at most MAX_ROUNDS), so running heir-prepare again on
    its output changes nothing.
    """

    name = "heir-prepare"

    slot_count: int = 0
    """CKKS slots per ciphertext, heir-opt's min-slot-count (0: heirpy picks it)."""
    flat_results: bool = True
    """`legalize-for-heir`'s: a result no conv lays out is returned flat, not in pieces
    (true: the depth bound; false: the result's own shape, one level more)."""
    strided_on_grid: bool = True
    """`legalize-for-heir`'s: a strided conv left to HEIR runs at stride 1 on its input's
    grid, so HEIR never converts its gapped layout (false: keep it strided)."""
    pad_input_channels: bool = True
    """`legalize-for-heir`'s (default true here, false there): an image argument only
    convs read gets a power-of-two number of channels (the signature changes)."""
    widen_half: bool = True
    """`heir-widen-half` last: an f16 / bf16 function computes in f32 (CKKS slots hold
    reals; heir-opt rejects convs mixing f16 and f32)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_slot_count(self.name, self.slot_count)
        passes = heir_prepare_passes(
            self.slot_count, self.flat_results, self.strided_on_grid, self.pad_input_channels, self.widen_half
        )
        remarks: list[str] = []
        try:
            for _ in range(MAX_ROUNDS):
                before = op.clone()
                said = io.StringIO()
                try:
                    with contextlib.redirect_stderr(said):
                        for component in passes:
                            component.apply(ctx, op)
                finally:
                    # A later round repeats the first's remarks: each line once, in order.
                    remarks += [line for line in said.getvalue().splitlines() if line not in remarks]
                if same_ir(before, op):
                    break
        finally:
            for line in remarks:
                print(line, file=sys.stderr)
        remark = prepared_remark(self.name, op, self.slot_count)
        if remark:
            print(remark, file=sys.stderr)


def same_ir(a: Operation, b: Operation) -> bool:
    """Whether `a` and `b` are the same IR up to SSA names: the same ops in the same
    order, with the same operands, attributes, properties and result types. (xDSL's
    structural equivalence does not compare result types, which a `tensor.empty` or a
    reshape carries only there.)"""
    if not a.is_structurally_equivalent(b):
        return False
    return all(x.result_types == y.result_types for x, y in zip(a.walk(), b.walk(), strict=True))


def prepared_module_flags(module: ModuleOp, slot_count: int = 0) -> tuple[str, int, int, bool] | None:
    """(the entry function heir-opt secretizes, the slots, its depth, whether that depth
    is what HEIR spends) of a prepared module, or None when it has no function: what
    heir-opt's flags are made of (`heirpy.analysis.heir_command`). The entry is the first
    function with a body, as `--secretize=function=` needs one; the slots are
    `slot_count` or the count the module's vectors need, whichever is more. The depth is
    not what HEIR spends when a strided conv is left to HEIR's kernel (kept off the grid:
    HEIR converts its gapped layout at about a level per bit of the slot count)."""
    functions = [f for f in module.walk() if isinstance(f, FuncOp) and f.body.blocks]
    if not functions:
        return None
    slots = max(slot_count, module_slots(functions)[0])
    exact = not has_strided_conv(functions[0])
    return functions[0].sym_name.data, slots, analyze_function(functions[0]).depth, exact


def prepared_remark(pass_name: str, module: ModuleOp, slot_count: int = 0) -> str:
    """The remark naming heir-opt's whole command (slots and level budget) for a prepared
    module, or '' when HEIR's defaults compile it with no bootstrap."""
    flags = prepared_module_flags(module, slot_count)
    return command_remark(pass_name, *flags) if flags is not None else ""
