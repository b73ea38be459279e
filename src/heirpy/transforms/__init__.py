"""heirpy's passes: a folder per capability, one module per pass named like the pass.

`HEIRPY_PASSES` is the single registry that the CLI, the library API and the
`xdsl.universe` entry point all read. Each entry is a small factory whose import sits
inside it (as in xDSL's `get_all_passes`), so listing passes or starting the CLI does
not import every pass module.

To add a pass `my-pass` to a capability folder, e.g. `linear/`: write
`transforms/linear/my_pass.py` with a frozen-dataclass `MyPassPass(ModulePass)` whose
`name` is `"my-pass"` and a `populate_my_pass_patterns(...)` function, then add a
factory below and one line to `HEIRPY_PASSES`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass

PassFactory = Callable[[], type[ModulePass]]


def _linalg_canonicalizations() -> type[ModulePass]:
    from heirpy.transforms.canonicalize.linalg_canonicalizations import (
        LinalgCanonicalizationsPass,
    )

    return LinalgCanonicalizationsPass


def _linalg_fuse_linear_ops() -> type[ModulePass]:
    from heirpy.transforms.linear.linalg_fuse_linear_ops import LinalgFuseLinearOpsPass

    return LinalgFuseLinearOpsPass


def _linalg_fuse_conv_pool() -> type[ModulePass]:
    from heirpy.transforms.linear.linalg_fuse_conv_pool import LinalgFuseConvPoolPass

    return LinalgFuseConvPoolPass


def _linalg_fuse_linear_chains() -> type[ModulePass]:
    from heirpy.transforms.linear.linalg_fuse_linear_chains import LinalgFuseLinearChainsPass

    return LinalgFuseLinearChainsPass


def _linalg_fuse_pointwise() -> type[ModulePass]:
    from heirpy.transforms.pointwise.linalg_fuse_pointwise import LinalgFusePointwisePass

    return LinalgFusePointwisePass


def _linalg_fuse_ops() -> type[ModulePass]:
    from heirpy.transforms.linalg_fuse_ops import LinalgFuseOpsPass

    return LinalgFuseOpsPass


def _lower_tensor_ext() -> type[ModulePass]:
    from heirpy.transforms.lowering.lower_tensor_ext import LowerTensorExtPass

    return LowerTensorExtPass


def _unroll_depthwise_conv() -> type[ModulePass]:
    from heirpy.transforms.iree.unroll_depthwise_conv import UnrollDepthwiseConvPass

    return UnrollDepthwiseConvPass


def _im2col_grouped_conv() -> type[ModulePass]:
    from heirpy.transforms.iree.im2col_grouped_conv import Im2colGroupedConvPass

    return Im2colGroupedConvPass


def _generalize_direct_conv() -> type[ModulePass]:
    from heirpy.transforms.iree.generalize_direct_conv import GeneralizeDirectConvPass

    return GeneralizeDirectConvPass


def _detach_conv_init() -> type[ModulePass]:
    from heirpy.transforms.iree.detach_conv_init import DetachConvInitPass

    return DetachConvInitPass


def _detach_constant_transpose() -> type[ModulePass]:
    from heirpy.transforms.iree.detach_constant_transpose import DetachConstantTransposePass

    return DetachConstantTransposePass


def _drop_softmax_unit_dims() -> type[ModulePass]:
    from heirpy.transforms.iree.drop_softmax_unit_dims import DropSoftmaxUnitDimsPass

    return DropSoftmaxUnitDimsPass


def _detach_contraction_transpose() -> type[ModulePass]:
    from heirpy.transforms.iree.detach_contraction_transpose import DetachContractionTransposePass

    return DetachContractionTransposePass


def _narrow_contraction_inputs() -> type[ModulePass]:
    from heirpy.transforms.iree.narrow_contraction_inputs import NarrowContractionInputsPass

    return NarrowContractionInputsPass


def _sink_widening_casts() -> type[ModulePass]:
    from heirpy.transforms.iree.sink_widening_casts import SinkWideningCastsPass

    return SinkWideningCastsPass


def _narrow_rounded_reads() -> type[ModulePass]:
    from heirpy.transforms.iree.narrow_rounded_reads import NarrowRoundedReadsPass

    return NarrowRoundedReadsPass


def _round_in_reductions() -> type[ModulePass]:
    from heirpy.transforms.iree.round_in_reductions import RoundInReductionsPass

    return RoundInReductionsPass


def _demote_f64() -> type[ModulePass]:
    from heirpy.transforms.iree.demote_f64 import DemoteF64Pass

    return DemoteF64Pass


def _legalize_for_heir() -> type[ModulePass]:
    from heirpy.transforms.heir.legalize_for_heir import LegalizeForHeirPass

    return LegalizeForHeirPass


def _heir_widen_half() -> type[ModulePass]:
    from heirpy.transforms.heir.heir_widen_half import HeirWidenHalfPass

    return HeirWidenHalfPass


def _heir_prepare() -> type[ModulePass]:
    from heirpy.transforms.heir.heir_prepare import HeirPreparePass

    return HeirPreparePass


def _iree_prepare() -> type[ModulePass]:
    from heirpy.transforms.iree.iree_prepare import IreePreparePass

    return IreePreparePass


def _report_slots() -> type[ModulePass]:
    from heirpy.transforms.report.report_slots import ReportSlotsPass

    return ReportSlotsPass


def _report_depth() -> type[ModulePass]:
    from heirpy.transforms.report.report_depth import ReportDepthPass

    return ReportDepthPass


def _report_kernels() -> type[ModulePass]:
    from heirpy.transforms.report.report_kernels import ReportKernelsPass

    return ReportKernelsPass


HEIRPY_PASSES: dict[str, PassFactory] = {
    "linalg-canonicalizations": _linalg_canonicalizations,
    "linalg-fuse-linear-ops": _linalg_fuse_linear_ops,
    "linalg-fuse-conv-pool": _linalg_fuse_conv_pool,
    "linalg-fuse-linear-chains": _linalg_fuse_linear_chains,
    "linalg-fuse-pointwise": _linalg_fuse_pointwise,
    "linalg-fuse-ops": _linalg_fuse_ops,
    "lower-tensor-ext": _lower_tensor_ext,
    "unroll-depthwise-conv": _unroll_depthwise_conv,
    "im2col-grouped-conv": _im2col_grouped_conv,
    "generalize-direct-conv": _generalize_direct_conv,
    "demote-f64": _demote_f64,
    "detach-conv-init": _detach_conv_init,
    "detach-constant-transpose": _detach_constant_transpose,
    "detach-contraction-transpose": _detach_contraction_transpose,
    "drop-softmax-unit-dims": _drop_softmax_unit_dims,
    "narrow-contraction-inputs": _narrow_contraction_inputs,
    "sink-widening-casts": _sink_widening_casts,
    "narrow-rounded-reads": _narrow_rounded_reads,
    "round-in-reductions": _round_in_reductions,
    "legalize-for-heir": _legalize_for_heir,
    "heir-widen-half": _heir_widen_half,
    "heir-prepare": _heir_prepare,
    "iree-prepare": _iree_prepare,
    "report-depth": _report_depth,
    "report-slots": _report_slots,
    "report-kernels": _report_kernels,
}


def available_passes() -> dict[str, PassFactory]:
    """heirpy's passes plus xDSL's own (canonicalize, dce, cse, ...)."""
    from xdsl.transforms import get_all_passes

    passes = dict(get_all_passes())
    passes.update(HEIRPY_PASSES)
    return passes


def pass_summary(factory: PassFactory) -> str:
    """The first line of a pass's docstring: what `--list-passes` prints."""
    doc = (factory().__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""
