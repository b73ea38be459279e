"""`iree-prepare`: heirpy's whole preparation for IREE, one named step per target.

    iree-prepare             (target=cpu)
      ==  linalg-canonicalizations{max-mac-growth=1},demote-f64,
          linalg-fuse-ops{max-mac-growth=1 iree-reductions=true constant-budget=0},
          lower-tensor-ext,detach-constant-transpose,detach-contraction-transpose,
          drop-softmax-unit-dims,narrow-contraction-inputs,sink-widening-casts,
          narrow-rounded-reads,round-in-reductions,unroll-depthwise-conv,
          detach-conv-init
    iree-prepare{im2col=true}
      ==  the same, then im2col-grouped-conv,generalize-direct-conv
    iree-prepare{target=gpu}
      ==  linalg-canonicalizations{max-mac-growth=1},demote-f64,
          linalg-fuse-ops{max-mac-growth=1 iree-reductions=true constant-budget=0},
          lower-tensor-ext{target=gpu},detach-constant-transpose,
          detach-contraction-transpose,drop-softmax-unit-dims,
          narrow-contraction-inputs,sink-widening-casts,narrow-rounded-reads,
          round-in-reductions,detach-conv-init

Why each step (docs/iree.md has the measurements): the main pipeline fuses for CKKS
levels, which can cost multiply-accumulates that IREE runs as written. A pool folded into
the next 3x3 conv through its pad is a 6x6 stride-2 conv with 4x the conv's MACs (VGG:
10.2 M loop iterations raw, 17.1 M after the main pipeline,
`heirpy.analysis.kernels.loop_points`), a MobileNetV2 projection composed with the next
1x1 conv 2.2x, a global pool merged into the Linear a dense H*W-times-wider matmul.
`max-mac-growth=1` never lets a fusion grow the MACs per sample, keeps a standalone
pool a pool (the pool -> conv form has a diagonal filter, C times the pool's work), and
lets a fusion absorb a pool only where it cuts the multiplies (a pool's adds are no MACs
saved: DenseNet-121's 1x1 conv + 2x2 pool transitions as 2x2 stride-2 convs ran 1.10x
raw's time with the best CPU flags). On the
whole networks of examples/ the result runs no more loop iterations than the raw IR
(tests/unit/test_whole_networks_iree.py). Then `lower-tensor-ext` writes heirpy's ops in
the form IREE fuses (the GPU target: a 1x1 head's root as a contraction generic, whose
tiles IREE's GPU heuristics pick better). `detach-constant-transpose` (both targets) takes
a widening cast of a constant apart from the transpose pointwise fusion merged it with:
IREE folds the transpose at compile time and fuses the cast into the matmul, where the
merged generic was a dispatch of its own per call (an f16 Linear's weight; MobileNetV2 f16
56 dispatches against raw's 55). `detach-contraction-transpose` (both targets) does the
same for a computed input that a matmul reads (attention's scaled `k^T`): IREE folds a
`linalg.transpose` into the matmul's operand but ran the permuting generic as a transpose
dispatch of its own, and `drop-softmax-unit-dims` (both targets) writes heirpy's raised
`linalg.softmax` without unit axes, as IREE raises it itself: IREE drops unit axes from
generics, not from a named softmax, and the attention mask's `select` then left the
softmax's dispatch (DeiT-tiny 1.02-1.03x raw with the best CPU flags before these two;
both act in IREE's global optimisation, before any target's code generation).
`narrow-contraction-inputs` (both targets) gives a contraction whose f32 inputs are
widened f16 values (an `extf`, a generic yielding `extf`, an f32 constant exact in f16)
the f16 values back, as torch-mlir wrote it: IREE widens them inside the contraction's
dispatch, where heirpy's widened input was a dispatch of its own (ViT-tiny f16's
classifier input). `sink-widening-casts` (both targets) makes a generic that stores
`extf(v)` store `v` and its reading generics widen it in their bodies, as torch-mlir does:
the last instance of a repeated block then compiles to the same executables as the others
(ViT-tiny f16: 21 executables against raw's 18 before these three steps, 18 after).
`narrow-rounded-reads` (both targets) makes a generic reading a wide value that a `truncf`
also rounds read the rounding, widened in its body: heirpy's f16 rule computed residual
adds in f32 on unrounded projections, so a residual stream stayed f32 block to block and
the last block of a run compiled to an executable of its own (MobileNetV2 f16 38
executables against raw's 37 before, 36 after; EfficientNet-lite0 f16 42 -> 39 against
41). `round-in-reductions` (both targets) makes an elementwise generic that IREE classes
as a truncation (an input of its result's rank wider than its result), read by one
reduction only, yield its value widened, the reduction rounding it (exact): IREE fuses no
truncation into a reduction, so the generic had become its producer's epilogue
(RegNetX-400MF f16's last block: its rounded residual add stayed with its conv, without
the ReLU the pool took, an executable none of the other blocks shared; 30 executables
against raw's 29, 29 after). Then,
on the CPU only, `unroll-depthwise-conv` writes each unit-stride depthwise conv as a sum
of shifted slices: IREE compiles the named NCHW depthwise conv to scalar loops
(MobileNetV2 ran 1.08x raw with them, 0.63x after); GPU code generation was not measured
with it, so the GPU target leaves them. Last, on both targets, `detach-conv-init` gives
every conv a zero init and adds its old init (heirpy's folded bias) in an elementwise
generic after it: IREE's best CPU flags (`--iree-global-opt-use-im2col-for-convs` with
data tiling) turn a conv into im2col and a contraction before IREE detaches the init
itself, and a broadcast bias init then became a load-time global read whole per call
(ResNet-18: 50 executables against raw's 38). Under IREE's defaults IREE detaches the same
init itself, so the rule costs nothing there and is not tied to the flags.
`im2col=true` (the CPU only) pairs with IREE's `--iree-global-opt-use-im2col-for-convs`:
IREE has no im2col for a grouped conv and runs it as scalar loops (about 610 of
RegNetX-002's 833 us of dispatch time under the best flags), so `im2col-grouped-conv`
writes each grouped conv with at least two input channels per group (RegNet's) as a
patches copy and one contraction batched over the groups, which IREE runs as a batch
matmul 3-6x faster. The copy is a dispatch of its own, as IREE's own im2col of a plain
conv is: it is off by default because under IREE's default flags it would add one
dispatch per grouped conv. It runs after `detach-conv-init`, so the contraction
accumulates into the zero init that step leaves. Last, `generalize-direct-conv` writes a
3x3 unit-stride f32 conv as a generic where IREE's direct conv beats its im2col (an output
row a multiple of 8 wide, a power of two or no wider than high; 64-80 filters or a power of
two under 64: 0.29-0.99x the named op's time, `benchmarks/bench_direct_conv.py`; YOLOv5nu f32
whole 0.96x raw, where it had read 0.99-1.01x).
`iree-reductions=true`: a pointwise op on a reduced tensor that a reduction reads through
a broadcast is recomputed inside that reduction (a LayerNorm's mean inside its
variance), because IREE fuses such an op into no dispatch and runs it as one of its own
(ConvNeXt-atto: 17 more dispatches than the raw IR, one per LayerNorm, before this), and
a pointwise op on a reduced tensor that a reduction shares with other readers (a centred
`x - mean` read by the variance and the normalisation) is recomputed in the reduction
(ConvNeXt-atto f16's head LayerNorm: 92 dispatches per call against raw's 90 before, 90).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.canonicalize.linalg_canonicalizations import LinalgCanonicalizationsPass
from heirpy.transforms.iree.demote_f64 import DemoteF64Pass
from heirpy.transforms.iree.detach_constant_transpose import DetachConstantTransposePass
from heirpy.transforms.iree.detach_contraction_transpose import DetachContractionTransposePass
from heirpy.transforms.iree.detach_conv_init import DetachConvInitPass
from heirpy.transforms.iree.drop_softmax_unit_dims import DropSoftmaxUnitDimsPass
from heirpy.transforms.iree.generalize_direct_conv import GeneralizeDirectConvPass
from heirpy.transforms.iree.im2col_grouped_conv import Im2colGroupedConvPass
from heirpy.transforms.iree.narrow_contraction_inputs import NarrowContractionInputsPass
from heirpy.transforms.iree.narrow_rounded_reads import NarrowRoundedReadsPass
from heirpy.transforms.iree.round_in_reductions import RoundInReductionsPass
from heirpy.transforms.iree.sink_widening_casts import SinkWideningCastsPass
from heirpy.transforms.iree.unroll_depthwise_conv import UnrollDepthwiseConvPass
from heirpy.transforms.linalg_fuse_ops import LinalgFuseOpsPass
from heirpy.transforms.lowering.lower_tensor_ext import LowerTensorExtPass

IREE_TARGETS = ("cpu", "gpu")


def iree_prepare_passes(target: str = "cpu", im2col: bool = False) -> tuple[ModulePass, ...]:
    """The passes `iree-prepare{target=... im2col=...}` runs, in order."""
    passes: tuple[ModulePass, ...] = (
        LinalgCanonicalizationsPass(max_mac_growth=1),
        DemoteF64Pass(),
        # constant-budget=0: the weight budget prices constants in CKKS levels, which IREE
        # has none of; max-mac-growth=1 is IREE's rule for what a fusion may grow.
        LinalgFuseOpsPass(max_mac_growth=1, iree_reductions=True, constant_budget=0),
        LowerTensorExtPass(target=target),
        DetachConstantTransposePass(),
        DetachContractionTransposePass(),
        DropSoftmaxUnitDimsPass(),
        NarrowContractionInputsPass(),
        SinkWideningCastsPass(),
        NarrowRoundedReadsPass(),
        RoundInReductionsPass(),
    )
    cpu = target == "cpu"
    im2col_steps: tuple[ModulePass, ...] = (Im2colGroupedConvPass(), GeneralizeDirectConvPass())
    return passes + (UnrollDepthwiseConvPass(),) * cpu + (DetachConvInitPass(),) + im2col_steps * im2col


def iree_prepare_pipeline(target: str = "cpu", im2col: bool = False) -> str:
    """`iree-prepare{target=... im2col=...}` spelled as the pipeline of its component passes."""
    fuse = (
        "linalg-canonicalizations{max-mac-growth=1},demote-f64,"
        "linalg-fuse-ops{max-mac-growth=1 iree-reductions=true constant-budget=0}"
    )
    iree_forms = (
        "detach-constant-transpose,detach-contraction-transpose,drop-softmax-unit-dims,"
        "narrow-contraction-inputs,sink-widening-casts,narrow-rounded-reads,round-in-reductions"
    )
    if target == "gpu":
        return f"{fuse},lower-tensor-ext{{target=gpu}},{iree_forms},detach-conv-init"
    cpu = f"{fuse},lower-tensor-ext,{iree_forms},unroll-depthwise-conv,detach-conv-init"
    return f"{cpu},im2col-grouped-conv,generalize-direct-conv" if im2col else cpu


@dataclass(frozen=True)
class IreePreparePass(ModulePass):
    """Prepare for IREE in one step: fuse without growing MACs, lower heirpy's ops for the target.

    `iree-prepare` (`target=cpu`, IREE's llvm-cpu back end) runs
    `linalg-canonicalizations{max-mac-growth=1}`, `linalg-fuse-ops{max-mac-growth=1 iree-reductions=true}`,
    `lower-tensor-ext`, `detach-constant-transpose`, `detach-contraction-transpose`,
    `drop-softmax-unit-dims`, `narrow-contraction-inputs`, `sink-widening-casts`,
    `narrow-rounded-reads`, `round-in-reductions`, `unroll-depthwise-conv` and `detach-conv-init`,
    and with `im2col=true` (for `--iree-global-opt-use-im2col-for-convs`) `im2col-grouped-conv`
    and `generalize-direct-conv`;
    `iree-prepare{target=gpu}` (CUDA, ROCm) the same fusion, `lower-tensor-ext{target=gpu}`,
    `detach-constant-transpose`, `detach-contraction-transpose`, `drop-softmax-unit-dims`,
    `narrow-contraction-inputs`, `sink-widening-casts`, `narrow-rounded-reads`, `round-in-reductions`
    and `detach-conv-init`.
    The output is standard
    MLIR for `iree-compile`:

        heirpy-opt net.mlir -p iree-prepare | iree-compile - \\
            --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu -o net.vmfb

    (tests/filecheck/transforms/iree-prepare/docstring.mlir runs it on a YOLO head and
    pipes the result through iree-opt.)
    """

    name = "iree-prepare"

    target: str = "cpu"
    """`cpu` (llvm-cpu) or `gpu` (CUDA / ROCm): the form of the lowered kernels."""

    im2col: bool = False
    """Also write grouped convs as im2col + a batched contraction (`im2col-grouped-conv`),
    the form IREE's `--iree-global-opt-use-im2col-for-convs` gives plain convs, and the
    plain convs IREE runs faster direct as generics the flag skips
    (`generalize-direct-conv`); CPU only."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in IREE_TARGETS:
            raise HeirpyError(f"error: iree-prepare{{target={self.target}}}: expected one of {', '.join(IREE_TARGETS)}")
        if self.im2col and self.target != "cpu":
            raise HeirpyError(
                f"error: iree-prepare{{target={self.target} im2col=true}}: im2col is for the cpu target only "
                "(the grouped-conv form was measured on llvm-cpu)"
            )
        for component in iree_prepare_passes(self.target, self.im2col):
            component.apply(ctx, op)
