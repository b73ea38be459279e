"""The GPU form of a kernel with a 1x1 conv root: the conv as a contraction generic in the
epilogue's loop order, weights first (`lower-tensor-ext{target=gpu}`).

Part of `lower-tensor-ext` (used by `LowerKernelToLayoutOps` when `target=gpu`).

Why (IREE 3.13, CUDA sm_80 and ROCm gfx942, read off `--iree-hal-dump-executable-files-to`;
benchmarks/iree_gpu_forms.py prints the table): the default form (conv, `expand_shape`,
`linalg.transpose`, epilogue) is one dispatch, but IREE folds the 3 x 85 split into the
contraction as two *N* dims (85 innermost) and its GPU heuristic then tiles N by 8 (85
is 11 tiles of 8, a prime count): 128x8 output tiles of the f16 head, the input re-read
33 times, against 64x64 tiles for the raw 255x6400x128 GEMM. The layout forces the split
(the output is anchor-major, class-minor), but which operand carries it is free: with the
weights as the contraction's first operand the split becomes two *M* dims, and IREE tiles
them 32x32 (f16, tensor cores) or 32x128 (f32), and the epilogue, identity-mapped onto the
contraction's loops, stays in the same dispatch. A named conv or matmul cannot say which
operand comes first or in what loop order the result is written, so this form is a
`linalg.generic`.

    %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x128x80x80xf16>, tensor<255x128x1x1xf16>)
           outs(%zero : tensor<1x255x80x80xf32>)
    %s = linalg.generic {(d0, d1, d2, d3, d4) -> (d0, d1 * 85 + d4, d2, d3), ...} ins(%c, ...)
  ==>
    %w2 = tensor.collapse_shape %w [[0], [1, 2, 3]] : ... into tensor<255x128xf16>
    %w3 = tensor.expand_shape %w2 [[0, 1], [2]] output_shape [3, 85, 128]
    %c = linalg.generic {indexing_maps = [(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5),
                                          (d0, d1, d2, d3, d4, d5) -> (d0, d5, d2, d3),
                                          (d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)],
                         iterator_types = [5 x parallel, reduction]}
           ins(%w3, %x) outs(%zero : tensor<1x3x80x80x85xf32>) { out + extf(w) * extf(x) }
    %s = linalg.generic {(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4), ...} ins(%c, ...)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from heirpy.ir.constants import dense_constant
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp, IteratorTypeAttr
from heirpy.ir.dialects.linalg_structured import Body, build_body, mul_add
from heirpy.ir.utils import reassociation_attr, static_shape


def _reshaped(value: SSAValue, groups: Sequence[Sequence[int]], shape: Sequence[int]) -> list[Operation]:
    """`tensor.expand_shape` of `value` by `groups` into `shape`; nothing when that only
    renames dims (every group one dim)."""
    if all(len(g) == 1 for g in groups):
        return []
    assert isinstance(value.type, TensorType)
    new_type = TensorType(value.type.get_element_type(), list(shape))
    return [tensor.ExpandShapeOp(value, [], reassociation_attr([tuple(g) for g in groups]), list(shape), new_type)]


def contraction_in_loop_order(
    root: Conv2DNchwFchwOp,
    groups: Sequence[Sequence[int]],
    read_dims: Sequence[int],
    sizes: Sequence[int],
) -> tuple[list[Operation], SSAValue] | None:
    """The ops computing `root` (a 1x1 unit-stride conv with a zero init) as a contraction
    generic whose result is laid out in the epilogue's loop order, and that result.

    `groups[j]`: the expanded dims root dim j becomes in the epilogue's read (N, F, H, W);
    `read_dims[e]`: the epilogue loop reading expanded dim e; `sizes`: the epilogue's
    loop sizes. None unless every epilogue loop reads exactly one expanded dim (the
    read is a permutation: the root's result is the whole loop space, no broadcast)."""
    if sorted(read_dims) != list(range(len(sizes))) or len(groups) != 4:
        return None
    x, w = root.operands[0], root.operands[1]
    x_shape, w_shape, out_type = static_shape(x.type), static_shape(w.type), root.results[0].type
    if x_shape is None or w_shape is None or not isinstance(out_type, TensorType):
        return None
    n, f, h, wd = groups
    channels = w_shape[1]
    loops = len(sizes)
    k = AffineExpr.dimension(loops)

    def dims(group: Sequence[int]) -> list[AffineExpr]:
        return [AffineExpr.dimension(read_dims[e]) for e in group]

    ops: list[Operation] = []
    # Weights F x C x 1 x 1 -> F x C -> (split F) x C, the contraction's first operand.
    assert isinstance(w.type, TensorType)  # static_shape read it above
    collapse_type = TensorType(w.type.get_element_type(), [w_shape[0], channels])
    collapse = tensor.CollapseShapeOp(
        operands=[w], result_types=[collapse_type],
        properties={"reassociation": reassociation_attr([(0,), (1, 2, 3)])},
    )
    ops.append(collapse)
    weights: SSAValue = collapse.results[0]
    split = [sizes[read_dims[e]] for e in f]
    expand = _reshaped(weights, [tuple(range(len(f))), (len(f),)], [*split, channels])
    ops += expand
    weights = expand[-1].results[0] if expand else weights
    # The image N x C x H x W, each of N, H, W split as the epilogue reads it.
    x_groups, x_sizes, at = [], [], 0
    for group, size in ((n, None), ((), channels), (h, None), (wd, None)):
        width = max(len(group), 1)
        x_groups.append(tuple(range(at, at + width)))
        x_sizes += [channels] if size is not None else [sizes[read_dims[e]] for e in group]
        at += width
    expand = _reshaped(x, x_groups, x_sizes)
    ops += expand
    image: SSAValue = expand[-1].results[0] if expand else x

    acc = out_type.get_element_type()
    acc_type = TensorType(acc, list(sizes))
    zeros = dense_constant(np.zeros(tuple(sizes)), acc_type)
    zeros.result.name_hint = "zeros"
    ops.append(zeros)
    maps = [
        AffineMap(loops + 1, 0, (*dims(f), k)),
        AffineMap(loops + 1, 0, (*dims(n), k, *dims(h), *dims(wd))),
        AffineMap(loops + 1, 0, tuple(AffineExpr.dimension(d) for d in range(loops))),
    ]
    region = build_body(Body(mul_add), [weights.type, image.type, acc_type], False)
    contraction = GenericOp(
        [weights, image],
        [zeros.result],
        region,
        [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr.parallel()] * loops + [IteratorTypeAttr.reduction()],
        [acc_type],
    )
    ops.append(contraction)
    return ops, contraction.res[0]
