"""A Linear on the tokens of a conv's feature map composes with the conv
(`linalg-fuse-linear-chains`' second pattern set).

A hybrid net's stem ends in a conv whose NCHW output becomes tokens,
`x.flatten(2).transpose(1, 2)` (LeViT: the stem's last conv, then the first block's qkv
Linear). Each token is the channel vector at one position, so a matmul on the tokens is a
1x1 conv on the feature map, and it composes with the conv before it into one conv whose
filter is `K'[f] = sum_c W[c, f] K[c]`; the layout ops then move onto the composed conv's
output. One level instead of two:

    %y = linalg.conv_2d_nchw_fchw ins(%x, %k) outs(%c1)            // [N, C, H, W]
    %a = tensor.collapse_shape %y [[0], [1], [2, 3]]               // [N, C, H*W]
    %t = linalg.transpose ins(%a) permutation = [0, 2, 1]           // [N, H*W, C]
    %r = tensor.collapse_shape %t [[0, 1], [2]]                     // [N*H*W, C]
    %m = linalg.matmul ins(%r, %w) outs(%c2)                        // [N*H*W, F]
  ->
    %z = linalg.conv_2d_nchw_fchw ins(%x, %k') outs(%c1 @ w + c2ᵀ)  // [N, F, H, W]
    %m = tokens(%z)                                                 // [N*H*W, F]

Legality: a plain `linalg.matmul` (default maps) with a constant weight and init and a
non-constant input, not a matmul `FuseMatmulThroughAdd` kept for a skip; between it and
a `conv_2d_nchw_fchw` with a constant filter and init and a non-constant input only
reshapes, transposes (and, in torch-mlir's f16 form, a `truncf`: the composed conv drops
that rounding, as the mixed-precision rule does) that make the conv's output exactly the
token matrix: row r the channels at position r in (n, h, w) order (`reads_tokens`, found
by sending each element's index through them); the cost rule allows it (one level saved;
weights before: filter and matrix; after: the composed filter, and the conv's filter
again when the conv or a layout value between has other users: the conv then stays for
them).
"""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, MatmulOp, TransposeOp
from heirpy.ir.utils import (
    i64_array,
    i64_vector,
    int_pair,
    reassociation_attr,
    static_shape,
)
from heirpy.transforms.linear.constant_folding import build_init, init_elements
from heirpy.transforms.linear.fusion_cost import FusionCost, admit_fusion
from heirpy.transforms.linear.matmul_chain_pattern import MatmulChainPattern
from heirpy.transforms.linear.mixed_precision import truncf_source
from heirpy.transforms.rewrite import in_generic_body


# ------------------------------------------------------------------ legality helpers
def reads_tokens(feature_map: tuple[int, ...], moved: np.ndarray) -> bool:
    """Pure: is `moved` -- the indices of an NCHW `feature_map` (element i holds i) after
    a run of layout ops -- the token matrix `[N*H*W, C]`, row r the channels of position
    r in (n, h, w) order, its rows maybe regrouped (`[N, H*W, C]`)?"""
    if len(feature_map) != 4 or moved.ndim < 2 or moved.shape[-1] != feature_map[1]:
        return False
    n, c, h, w = feature_map
    tokens = np.arange(n * c * h * w).reshape(n, c, h, w).transpose(0, 2, 3, 1).reshape(n * h * w, c)
    return moved.size == tokens.size and bool(np.array_equal(moved.reshape(-1, c), tokens))


def _layout_map(op: Operation) -> SSAValue | None:
    """The operand a layout op `op` moves the elements of (a reshape, a transpose, an
    f32 -> f16 `truncf`), or None for any other op."""
    if isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        return op.operands[0]
    if isinstance(op, TransposeOp):
        return op.inputs[0]
    return None


def conv_tokens(value: SSAValue) -> tuple[Conv2DNchwFchwOp, list[Operation]] | None:
    """The conv whose output `value` is the token matrix of (`reads_tokens`), and the
    layout ops from it to `value` in order (truncfs left out: they move nothing), or None."""
    path: list[Operation] = []
    while not isinstance(value.owner, Conv2DNchwFchwOp):
        narrowed = truncf_source(value)
        if narrowed is not None:
            value = narrowed
            continue
        owner = value.owner
        source = _layout_map(owner) if isinstance(owner, Operation) else None
        if source is None:
            return None
        path.append(owner)  # type: ignore[arg-type]
        value = source
    conv = value.owner
    shape = static_shape(value.type)
    if shape is None or len(conv.results) != 1:
        return None
    probe = np.arange(prod(shape)).reshape(shape)
    for op in reversed(path):
        if isinstance(op, TransposeOp):
            probe = probe.transpose(tuple(int(p) for p in op.permutation.get_values()))
        else:
            out = static_shape(op.results[0].type)
            if out is None:
                return None
            probe = probe.reshape(out)
    return (conv, path[::-1]) if reads_tokens(shape, probe) else None


def _forks(end: SSAValue, conv: Operation) -> bool:
    """Does the conv's result or a value on the way from it to `end` (one-input ops) have
    another user?"""
    value = end
    while True:
        if not value.has_one_use():
            return True
        if value.owner is conv:
            return False
        owner = value.owner
        assert isinstance(owner, Operation)
        value = owner.inputs[0] if isinstance(owner, TransposeOp) else owner.operands[0]


# ------------------------------------------------------------------ the pattern
class FuseMatmulOfConvTokens(MatmulChainPattern):
    """Compose a matmul on a conv's tokens with the conv (module docstring):

        %m = matmul(tokens(conv(%x, %k) outs(%c1)), %w) outs(%c2)
      ->
        %m = tokens(conv(%x, %k') outs(%c1 @ %w + %c2ᵀ)),  %k'[f] = sum_c %w[c, f] %k[c]
    """

    def rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.kept or op.has_user_defined_maps() or len(op.results) != 1:
            return
        x2, w2, c2 = op.operands
        found = conv_tokens(x2)
        if found is None:
            return
        conv, _ = found
        x, k, c1 = conv.operands
        arrays = [self.reader.fold(k), self.reader.init_value(c1), self.reader.fold(w2), self.reader.init_value(c2)]
        if any(a is None for a in arrays) or self.reader.fold(x) is not None or self.reader.fold(x2) is not None:
            return
        filter_, init1, weight, init2 = (a.astype(np.float64) for a in arrays if a is not None)
        n, _, h, w = init1.shape
        features = weight.shape[1]
        composed = np.einsum("cf,cikl->fikl", weight, filter_)
        const = np.einsum("nchw,cf->nfhw", init1, weight) + init2.reshape(n, h, w, features).transpose(0, 3, 1, 2)
        shared = _forks(x2, conv)
        conv_macs, macs = filter_.size * h * w, weight.size * n * h * w
        kept = filter_.size if shared else 0
        cost = FusionCost(
            1, filter_.size + weight.size, kept + composed.size,
            conv_macs + macs, (conv_macs if shared else 0) + composed.size * h * w,
            constants_before=filter_.size + weight.size + init_elements(init1) + init_elements(init2),
            constants_after=kept + (init_elements(init1) if shared else 0) + composed.size + init_elements(const),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return
        new_ops = _emit(conv, composed, const, op)
        rewriter.insert(new_ops, InsertPoint.before(op))
        rewriter.replace(op, [], [new_ops[-1].results[0]])


def _emit(conv: Conv2DNchwFchwOp, composed: np.ndarray, const: np.ndarray, op: MatmulOp) -> list[Operation]:
    """The composed conv, in the matmul's element type, and its output as tokens."""
    out_type, filter_type = op.results[0].type, conv.operands[1].type
    assert isinstance(out_type, TensorType) and isinstance(filter_type, TensorType)
    element = out_type.get_element_type()
    n, f, h, w = const.shape
    map_type = TensorType(element, [n, f, h, w])
    weight = dense_constant(composed.astype(element_dtype(filter_type)),
                            TensorType(filter_type.get_element_type(), list(composed.shape)))
    init_ops, init = build_init(const.astype(element_dtype(map_type)), map_type)
    new = Conv2DNchwFchwOp([conv.operands[0], weight.result], [init], [map_type],
                           strides=i64_vector(int_pair(conv.window_strides())),
                           dilations=i64_vector(int_pair(conv.window_dilations())))
    flat = tensor.CollapseShapeOp(operands=[new.results[0]], result_types=[TensorType(element, [n, f, h * w])],
                                  properties={"reassociation": reassociation_attr([[0], [1], [2, 3]])})
    empty = tensor.EmptyOp([], TensorType(element, [n, h * w, f]))
    moved = TransposeOp(flat.results[0], empty.tensor, i64_array([0, 2, 1]))
    rows = tensor.CollapseShapeOp(operands=[moved.results[0]], result_types=[out_type],
                                  properties={"reassociation": reassociation_attr([[0, 1], [2]])})
    return [weight, *init_ops, new, flat, empty, moved, rows]
