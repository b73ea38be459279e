"""How `legalize-for-heir` returns a result with several non-unit dims.

HEIR's `expand_shape` may only add unit dims, so a flat vector cannot become a
1x6x4x4 feature map or a 2x10 batch by a reshape. Each pattern here is one way out:
`ResultThroughConv` (heir_result_conv.py) lays it out with a conv at no cost;
`FlatResult` (with `flat-results`) returns the flat vector instead, the caller reading
it in the result's shape; `ExpandInPieces` assembles the result from 1-D pieces (one
plaintext mask, a level), and `SliceOfMatvec` / `SliceOfElementwise` move each piece's
slice up to the rows that compute it.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import GenericOp, MatvecOp
from heirpy.ir.utils import all_parallel, element_type, int_values, is_identity, reassociation_attr, static_shape
from heirpy.transforms.heir.heir_forms import LegalizePattern, adds_only_unit_dims, element_of, matvec_ops

MAX_PIECES = 64
"""`ExpandInPieces` gives up above this many pieces (ops, and heir-opt's time)."""


def piece_axis(shape: Sequence[int]) -> int:
    """The axis `ExpandInPieces` cuts along: the longest one (fewest pieces), the
    innermost on ties (contiguous slices)."""
    return max(range(len(shape)), key=lambda axis: (shape[axis], axis))


def static_slice(op: tensor.ExtractSliceOp) -> tuple[int, int, int] | None:
    """(offset, size, stride) of a static 1-D `extract_slice`, else None."""
    if op.offsets or op.sizes or op.strides:
        return None
    offsets, sizes, strides = (int_values(a) for a in (op.static_offsets, op.static_sizes, op.static_strides))
    if len(offsets) != 1:
        return None
    return offsets[0], sizes[0], strides[0]


def slice_rows(offset: int, size: int, stride: int) -> np.ndarray:
    """The indices a 1-D slice reads."""
    return offset + stride * np.arange(size)


class ExpandInPieces(LegalizePattern[tensor.ExpandShapeOp]):
    """A returned secret vector expanded to a shape with several non-unit dims is
    assembled from 1-D pieces (HEIR's expand_shape may only add unit dims).

        %t = tensor.expand_shape %v [[0, 1]] output_shape [2, 10] : tensor<20xf32> into tensor<2x10xf32>
        func.return %t
      ->
        %p0 = tensor.extract_slice %v[0] [10] [1] : tensor<20xf32> to tensor<10xf32>
        %e0 = tensor.expand_shape %p0 [[0, 1]] output_shape [1, 10]
        %d1 = tensor.insert_slice %e0 into %zero[0, 0] [1, 10] [1, 1]
        ... one piece per index of the other dims; func.return %d2

    Pieces run along the longest axis (strided slices when it is not the innermost).
    `SliceOfMatvec` and `SliceOfElementwise` then move each slice up to the matvec
    rows that compute it. Costs HEIR one level (the insert's plaintext mask).
    Legality: every user is `func.return` (inside the function `ElementwiseOnFlat` and
    `FoldReshapesToFlat` remove the expand instead); static shapes; the vector is not
    a constant; at most MAX_PIECES pieces.
    """

    op_types = (tensor.ExpandShapeOp,)

    def rewrite(self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        source, out_type = op.operands[0], op.results[0].type
        source_shape, shape = static_shape(source.type), static_shape(out_type)
        if source_shape is None or shape is None or len(source_shape) != 1 or not isinstance(out_type, TensorType):
            return
        if adds_only_unit_dims(source_shape, shape):
            return
        if not all(isinstance(use.operation, ReturnOp) for use in op.results[0].uses):
            return
        axis = piece_axis(shape)
        length, stride = shape[axis], prod(shape[axis + 1:])
        if prod(shape) // length > MAX_PIECES or self.reader.fold(source) is not None:
            return
        zero = dense_constant(np.zeros(shape), out_type)
        ops: list[Operation] = [zero]
        dest = zero.result
        piece_shape = [length if a == axis else 1 for a in range(len(shape))]
        piece_type = TensorType(out_type.get_element_type(), piece_shape)
        for index in np.ndindex(*[1 if a == axis else n for a, n in enumerate(shape)]):
            offset = int(np.ravel_multi_index(index, shape))
            piece = tensor.ExtractSliceOp.from_static_parameters(source, [offset], [length], [stride])
            expand = tensor.ExpandShapeOp(
                piece.results[0], [], reassociation_attr([list(range(len(shape)))]), piece_shape, piece_type,
            )
            insert = tensor.InsertSliceOp.from_static_parameters(
                expand.results[0], dest, [int(i) for i in index], piece_shape,
            )
            ops += [piece, expand, insert]
            dest = insert.results[0]
        rewriter.replace(op, ops, [dest])


class SliceOfMatvec(LegalizePattern[tensor.ExtractSliceOp]):
    """A slice of a matvec's result is a matvec with those rows of the matrix.

        %v = linalg.matvec ins(%A, %x : tensor<20x64xf32>, tensor<64xf32>) outs(%b)
        %p = tensor.extract_slice %v[10] [10] [1]
      ->
        %p = linalg.matvec ins(%A_rows, %x : tensor<10x64xf32>, tensor<64xf32>) outs(%b_rows)

    Why: HEIR slices a ciphertext with a rotation and a plaintext mask (a level);
    computing the rows directly costs nothing more.
    Legality: static 1-D slice; matrix and init fold to constants.
    """

    op_types = (tensor.ExtractSliceOp,)

    def rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.operands[0].owner, MatvecOp):
            return
        params = static_slice(op)
        out_type = op.results[0].type
        if params is None or not isinstance(out_type, TensorType):
            return
        matvec = op.operands[0].owner
        matrix, init = self.reader.fold(matvec.operands[0]), self.reader.init_value(matvec.operands[2])
        if matrix is None or init is None:
            return
        rows = slice_rows(*params)
        init_op = dense_constant(init[rows], out_type)
        ops = [init_op, *matvec_ops(matrix[rows], matvec.operands[1], init_op.result, element_of(out_type))]
        rewriter.replace(op, ops, [ops[-1].results[0]])


class SliceOfElementwise(LegalizePattern[tensor.ExtractSliceOp]):
    """A slice of a 1-D elementwise generic's result is the generic on slices.

        %s = linalg.generic {(d0) -> (d0)} ins(%a, %k : tensor<20xf32>, tensor<20xf32>) outs(%e)
        %p = tensor.extract_slice %s[10] [10] [1]
      ->
        %a10 = tensor.extract_slice %a[10] [10] [1]
        %p = linalg.generic {(d0) -> (d0)} ins(%a10, %k10) outs(%e10)

    Legality: 1-D; every map is the identity; all loops parallel; a static 1-D slice.
    Constant inputs are sliced at compile time.
    """

    op_types = (tensor.ExtractSliceOp,)

    def rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.operands[0].owner, GenericOp):
            return
        generic = op.operands[0].owner
        params = static_slice(op)
        out_type = op.results[0].type
        if params is None or len(generic.results) != 1 or not isinstance(out_type, TensorType):
            return
        if not all_parallel(generic.iterator_types):
            return
        if any(m.data.num_dims != 1 or not is_identity(m.data) for m in generic.indexing_maps):
            return
        rows = slice_rows(*params)
        ops: list[Operation] = []
        inputs: list[SSAValue] = []
        for value in generic.inputs:
            constant = self.reader.fold(value)
            if constant is not None:
                # Its operand's element type (an f32 bias before an f16 truncf), out_type's shape.
                const_type = TensorType(element_type(value.type), out_type.get_shape())
                const_op = dense_constant(np.asarray(constant)[rows].astype(element_dtype(const_type)), const_type)
                ops.append(const_op)
                inputs.append(const_op.result)
            else:
                piece = tensor.ExtractSliceOp.from_static_parameters(value, [params[0]], [params[1]], [params[2]])
                ops.append(piece)
                inputs.append(piece.results[0])
        if generic.body.block.args[-1].uses:
            piece = tensor.ExtractSliceOp.from_static_parameters(
                generic.outputs[0], [params[0]], [params[1]], [params[2]])
            ops.append(piece)
            init = piece.results[0]
        else:
            empty = tensor.EmptyOp([], out_type)
            ops.append(empty)
            init = empty.tensor
        new = GenericOp(
            inputs, [init], generic.body.clone(), [AffineMapAttr(AffineMap.identity(1))] * (len(inputs) + 1),
            generic.iterator_types, [out_type],
        )
        rewriter.replace(op, [*ops, new], [new.results[0]])




class FlatResult(LegalizePattern[tensor.ExpandShapeOp]):
    """With `flat-results`: a returned secret vector with several non-unit dims that no
    conv lays out (`ResultThroughConv` declined) is returned flat, its function's result
    type changed to the 1-D type.

        %t = tensor.expand_shape %v [[0, 1]] output_shape [2, 10] : tensor<20xf32> into tensor<2x10xf32>
        return %t : tensor<2x10xf32>
      ->
        return %v : tensor<20xf32>          (the caller reads it as 2x10, row-major)

    Why: the documented alternative that costs no level where the pieces would cost one
    (a batch of 2 computed from an input whose length is not a power of two, a batch-2
    feature map with four non-unit dims); the values are the result's in row-major order.
    Legality: the option is on; every user is `func.return`; the source is 1-D and not
    a constant; the expand adds more than unit dims.
    """

    op_types = (tensor.ExpandShapeOp,)

    def rewrite(self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        source = op.operands[0]
        source_shape, shape = static_shape(source.type), static_shape(op.results[0].type)
        if source_shape is None or shape is None or len(source_shape) != 1 or adds_only_unit_dims(source_shape, shape):
            return
        users = [use.operation for use in op.results[0].uses]
        if not users or not all(isinstance(user, ReturnOp) for user in users) or self.reader.fold(source) is not None:
            return
        rewriter.replace(op, [], [source])
        for user in users:
            func = user.parent_op()
            if isinstance(func, FuncOp):
                func.update_function_type()
