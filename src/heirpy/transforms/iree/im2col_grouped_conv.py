"""A grouped conv as an explicit im2col and one batched contraction: the form of a grouped
conv that IREE's CPU back end runs as a matrix product.

IREE 3.13 (llvm-cpu) has an im2col rewrite for plain convs
(`--iree-global-opt-use-im2col-for-convs`, with data tiling the zoo's best flags) but none
for `linalg.conv_2d_ngchw_gfchw`, torch-mlir's form of a grouped conv (RegNet's 3x3
convs, 8 to 24 channels per group): under both flag sets it stays a conv dispatch run as
scalar loops, and on RegNetX-002 at 64x64 its six grouped convs are about 610 of the
833 us that one call spends in dispatches (`benchmarks/bench_iree_dispatch_times.py`,
best flags). Written as a copy of the input into patches `N x G x (C*KH*KW) x (OH*OW)`
and a contraction generic with batch dims N and G, IREE tiles it as a batch matmul.
Measured per layer (one conv, `benchmarks/bench_grouped_conv.py`): 1.3x faster at 2
channels per group, 3-6x at 8 to 16, under both flag sets; at one channel per group (a
depthwise conv written as a grouped one) slower (1.3-2x), so those keep the named op
(`MIN_GROUP_CHANNELS`).

The products and their order are the conv's (c, then kh, then kw), so the values are the
same. This is a form for IREE's CPU back end, not for HEIR (the patches copy a window
of a ciphertext: rotations), so only `iree-prepare` (target cpu) runs this pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import GenericOp, IteratorTypeAttr, YieldOp
from heirpy.ir.dialects.linalg_structured import Body, Conv2DNgchwGfchwOp, build_body, mul_add
from heirpy.ir.utils import element_type, reassociation_attr, static_shape
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets

MIN_GROUP_CHANNELS = 2
"""The fewest input channels per group rewritten: at one (a depthwise conv in grouped
form) the patches copy costs more than the scalar conv (measured: 1.3-2x slower)."""


def im2col_legal(
    input_shape: tuple[int, ...] | None,
    filter_shape: tuple[int, ...] | None,
    elements: tuple[Attribute, ...],
) -> bool:
    """Whether a `conv_2d_ngchw_gfchw` is rewritten: static 5-D input and filter, float
    operands and result, at least `MIN_GROUP_CHANNELS` input channels per group."""
    if input_shape is None or filter_shape is None or len(input_shape) != 5 or len(filter_shape) != 5:
        return False
    return all(isinstance(e, AnyFloat) for e in elements) and filter_shape[2] >= MIN_GROUP_CHANNELS


def _reshape(
    value: SSAValue, groups: list[tuple[int, ...]], shape: list[int], expand: bool
) -> tensor.CollapseShapeOp | tensor.ExpandShapeOp:
    """`tensor.collapse_shape` (or `expand_shape`) of `value` by `groups` into `shape`."""
    assert isinstance(value.type, TensorType)
    new_type = TensorType(value.type.get_element_type(), shape)
    if expand:
        return tensor.ExpandShapeOp(value, [], reassociation_attr(groups), shape, new_type)
    return tensor.CollapseShapeOp(
        operands=[value], result_types=[new_type], properties={"reassociation": reassociation_attr(groups)}
    )


def _map(dims: int, exprs: list[AffineExpr]) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(dims, 0, tuple(exprs)))


@dataclass
class Im2colGroupedConv(OpPattern[Conv2DNgchwGfchwOp]):
    """A grouped conv ==> a patches copy and a contraction with the groups as a batch.

        %r = linalg.conv_2d_ngchw_gfchw {strides = [sh, sw], dilations = [dh, dw]}
               ins(%x, %w : tensor<NxGxCxHxWxf32>, tensor<GxFxCxKHxKWxf32>)
               outs(%init : tensor<NxGxFxOHxOWxf32>)
      ==>
        %p = linalg.generic {indexing_maps = [(n, g, c, kh, kw, oh, ow)
                 -> (n, g, c, oh*sh + kh*dh, ow*sw + kw*dw), identity], parallel x 7}
               ins(%x) outs(tensor.empty() : tensor<NxGxCxKHxKWxOHxOWxf32>) { yield %in }
        %pc = tensor.collapse_shape %p [[0], [1], [2, 3, 4], [5, 6]]   // N x G x K x P
        %wc = tensor.collapse_shape %w [[0], [1], [2, 3, 4]]           // G x F x K
        %ic = tensor.collapse_shape %init [[0], [1], [2], [3, 4]]      // N x G x F x P
        %m = linalg.generic {indexing_maps = [(n, g, f, p, k) -> (g, f, k),
                 (n, g, f, p, k) -> (n, g, k, p), (n, g, f, p, k) -> (n, g, f, p)],
                 iterator_types = [parallel x 4, reduction]}
               ins(%wc, %pc) outs(%ic) { out + cast(w) * cast(x) }
        %r = tensor.expand_shape %m [[0], [1], [2], [3, 4]]

    Legality (`im2col_legal`): static shapes, float elements, at least
    `MIN_GROUP_CHANNELS` input channels per group. Each operand keeps its element type
    (an f16 conv accumulating in f32 reads f16 patches and widens in the body, as the
    named op does).
    """

    op_types = (Conv2DNgchwGfchwOp,)

    def rewrite(self, op: Conv2DNgchwGfchwOp, rewriter: PatternRewriter) -> None:
        x, w, init = op.operands
        x_shape, w_shape, out_shape = static_shape(x.type), static_shape(w.type), static_shape(init.type)
        elements = (element_type(x.type), element_type(w.type), element_type(init.type))
        if out_shape is None or not im2col_legal(x_shape, w_shape, elements):
            return
        assert w_shape is not None
        n, g, f, oh, ow = out_shape
        c, kh, kw = w_shape[2:]
        sh, sw = op.window_strides()
        dh, dw = op.window_dilations()
        k, p = c * kh * kw, oh * ow

        d = [AffineExpr.dimension(i) for i in range(7)]
        window = _map(7, [d[0], d[1], d[2], d[5] * sh + d[3] * dh, d[6] * sw + d[4] * dw])
        patches_type = TensorType(elements[0], [n, g, c, kh, kw, oh, ow])
        patches_empty = tensor.EmptyOp([], patches_type)
        copy_block = Block(arg_types=[elements[0], elements[0]])
        copy_block.add_op(YieldOp(copy_block.args[0]))
        patches = GenericOp(
            [x], [patches_empty.tensor], Region(copy_block),
            [window, AffineMapAttr(AffineMap.identity(7))],
            [IteratorTypeAttr.parallel()] * 7, [patches_type],
        )
        patch_rows = _reshape(patches.results[0], [(0,), (1,), (2, 3, 4), (5, 6)], [n, g, k, p], expand=False)
        weights = _reshape(w, [(0,), (1,), (2, 3, 4)], [g, f, k], expand=False)
        acc = _reshape(init, [(0,), (1,), (2,), (3, 4)], [n, g, f, p], expand=False)

        e = [AffineExpr.dimension(i) for i in range(5)]
        acc_type = acc.results[0].type
        product = GenericOp(
            [weights.results[0], patch_rows.results[0]], [acc.results[0]],
            build_body(Body(mul_add), [weights.results[0].type, patch_rows.results[0].type, acc_type], False),
            [_map(5, [e[1], e[2], e[4]]), _map(5, [e[0], e[1], e[4], e[3]]), _map(5, [e[0], e[1], e[2], e[3]])],
            [IteratorTypeAttr.parallel()] * 4 + [IteratorTypeAttr.reduction()],
            [acc_type],
        )
        result = _reshape(product.results[0], [(0,), (1,), (2,), (3, 4)], [n, g, f, oh, ow], expand=True)
        new_ops: list[Operation] = [patches_empty, patches, patch_rows, weights, acc, product, result]
        # Readable names instead of copies of the replaced result's name.
        hints = ("patches_init", "patches", "patch_rows", "group_weights", "group_init", "grouped")
        for new_op, hint in zip(new_ops, hints):
            new_op.results[0].name_hint = hint
        result.results[0].name_hint = op.results[0].name_hint
        rewriter.replace(op, new_ops, [result.results[0]])


def populate_im2col_grouped_conv_patterns() -> list[PatternSet]:
    return [PatternSet.of(Im2colGroupedConv())]


@dataclass(frozen=True)
class Im2colGroupedConvPass(ModulePass):
    """Grouped convs as an im2col copy and one batched contraction (IREE runs it as a matmul).

        %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>,
               strides = dense<2> : vector<2xi64>}
               ins(%x, %w : tensor<1x2x4x6x6xf32>, tensor<2x4x4x3x3xf32>)
               outs(%z : tensor<1x2x4x2x2xf32>)
      ==>
        %patches = linalg.generic ... ins(%x) -> tensor<1x2x4x3x3x2x2xf32>  (the windows)
        %m = linalg.generic ... ins(%w as 2x4x36, %patches as 1x2x36x4)
               outs(%z as 1x2x4x4) -> tensor<1x2x4x4xf32>     (batch n, g; reduce 36)
        %r = tensor.expand_shape %m [[0], [1], [2], [3, 4]] -> tensor<1x2x4x2x2xf32>

    (tests/filecheck/transforms/im2col-grouped-conv/docstring.mlir runs this example.)
    For IREE's CPU back end only (a step of `iree-prepare`): IREE has no im2col for a
    grouped conv and runs it as scalar loops; RegNet's grouped 3x3 convs run 3-6x faster
    in this form (docs/iree.md). Convs with one input channel per group keep their op.
    """

    name = "im2col-grouped-conv"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, populate_im2col_grouped_conv_patterns())
