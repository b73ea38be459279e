"""Write a `linalg.softmax` over a tensor with unit dimensions over the tensor without them.

heirpy raises torch-mlir's five-op softmax to `linalg.softmax` (`canonicalize/softmax.py`)
over the tensor the ops ran on, attention's `1x3x198x198` scores behind the
`expand_shape` of a `3x198x198` batch matmul. IREE drops unit dimensions from generics
(`FoldUnitExtentDims`) but not from a named `linalg.softmax`: the softmax stayed 4-d, the
generics after it became 3-d and read it through a `collapse_shape`, which no dispatch
fuses across. DeiT-tiny's attention: the masking `select` after the softmax (torch's
guard for a row of `-inf`) left the softmax's dispatch for the row-mask reduction's,
which then read the whole softmax back (143.6 us against raw's 57.7 per block, best CPU
flags, plus raw's separate 18 us `encode` of the softmax's result), where the raw IR,
which IREE raises itself after dropping the unit dimensions, computes softmax and select
in one dispatch (`softmax_3x198x198xf32_generic`).

This pass, a step of `iree-prepare`, collapses the unit dimensions first, runs the softmax
over what is left and expands the result back: IREE folds the `expand_shape` into the
3-d generics after it (`collapse(expand(x)) = x`) and fuses them into the softmax's
dispatch, as for the raw IR. The values are the same (a softmax along one axis does not
see the unit axes).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, i64
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg_softmax import SoftmaxOp
from heirpy.ir.utils import reassociation_attr, static_shape
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets


def unit_dim_groups(shape: tuple[int, ...], keep: int) -> list[list[int]] | None:
    """The reassociation that collapses every size-1 dimension of `shape` except `keep`
    into a neighbour (a leading run joins the next kept dimension, a trailing run the
    last); None when there is no such dimension to drop."""
    kept = [d for d, size in enumerate(shape) if size != 1 or d == keep]
    if len(kept) == len(shape):
        return None
    groups: list[list[int]] = []
    pending: list[int] = []
    for d in range(len(shape)):
        pending.append(d)
        if d in kept:
            groups.append(pending)
            pending = []
    if pending:
        groups[-1].extend(pending)
    return groups


@dataclass
class DropSoftmaxUnitDims(OpPattern[SoftmaxOp]):
    """A softmax over a tensor with unit dimensions ==> collapse, softmax, expand.

        %s = linalg.softmax dimension(3) ins(%x : tensor<1x3x198x198xf32>)
               outs(%e : tensor<1x3x198x198xf32>) -> tensor<1x3x198x198xf32>
      ==>
        %c = tensor.collapse_shape %x [[0, 1], [2], [3]] : tensor<1x3x198x198xf32> into tensor<3x198x198xf32>
        %e3 = tensor.empty() : tensor<3x198x198xf32>
        %s3 = linalg.softmax dimension(2) ins(%c : tensor<3x198x198xf32>)
                outs(%e3 : tensor<3x198x198xf32>) -> tensor<3x198x198xf32>
        %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 3, 198, 198]
               : tensor<3x198x198xf32> into tensor<1x3x198x198xf32>

    Legality (`unit_dim_groups`): a static shape with a size-1 dimension other than the
    softmax's own (a softmax along a unit axis is left as it is).
    """

    op_types = (SoftmaxOp,)

    def rewrite(self, op: SoftmaxOp, rewriter: PatternRewriter) -> None:
        source = op.operands[0]
        result_type = op.results[0].type
        shape = static_shape(source.type)
        if shape is None or not isinstance(result_type, TensorType) or static_shape(result_type) != shape:
            return
        dim = op.dimension.value.data
        groups = unit_dim_groups(tuple(shape), dim)
        if groups is None:
            return
        element = result_type.get_element_type()
        collapsed_type = TensorType(element, [max(shape[d] for d in group) for group in groups])
        reassociation = reassociation_attr(groups)
        collapse = tensor.CollapseShapeOp(operands=[source], result_types=[collapsed_type],
                                          properties={"reassociation": reassociation})
        empty = tensor.EmptyOp([], collapsed_type)
        softmax = SoftmaxOp.build(
            operands=[collapse.results[0], empty.tensor],
            properties={"dimension": IntegerAttr(next(i for i, g in enumerate(groups) if dim in g), i64)},
            result_types=[collapsed_type],
        )
        expand = tensor.ExpandShapeOp(softmax.results[0], [], reassociation, list(shape), result_type)
        collapse.results[0].name_hint = "collapsed"
        expand.results[0].name_hint = op.results[0].name_hint
        rewriter.replace(op, [collapse, empty, softmax, expand], [expand.results[0]])


@dataclass(frozen=True)
class DropSoftmaxUnitDimsPass(ModulePass):
    """`linalg.softmax` over a tensor with unit dimensions: collapse them, softmax, expand.

    (tests/filecheck/transforms/drop-softmax-unit-dims/ has the cases.) For IREE only, a
    step of `iree-prepare`: IREE drops unit dimensions from generics but not from a named
    softmax, so the generics after a 4-d softmax read it through a `collapse_shape` and
    left its dispatch (DeiT-tiny's attention mask `select`).
    """

    name = "drop-softmax-unit-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, [PatternSet.of(DropSoftmaxUnitDims())])
