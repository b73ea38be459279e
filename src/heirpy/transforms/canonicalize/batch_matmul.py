"""A `linalg.batch_matmul` whose right operand is one constant matrix for every batch, as
one `linalg.matmul` on the collapsed batch (package-private helper module of
`linalg-canonicalizations`).

torch-mlir exports `nn.Linear` on a 3-D input that is not contiguous (LeViT's tokens after
a transpose, or after a residual add of such) as a `batch_matmul` with the weight
broadcast over the batch. Every linear pass of heirpy reads a Linear as a `matmul`
(`x[M, K] @ W[K, N]`): the batch-norm folds, the forward affine folds, the linear chains'
steps, HEIR's matvec legalization. Written as a matmul on `[B * M, K]`, the same
products and sums in the same order, the Linear is one of them.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from heirpy.ir.dialects import linalg
from heirpy.ir.utils import affine_maps, all_parallel, reassociation_attr, reassociation_groups, static_shape
from heirpy.transforms.canonicalize.fold_constants import ConstantPattern, _foldable, dense_constant
from heirpy.transforms.linear.constant_folding import is_compile_time_constant
from heirpy.transforms.rewrite import OpPattern, constant_insertion_point

_ROWS = [[0, 1], [2]]  # [B, M, X] <-> [B * M, X]


# ------------------------------------------------------------------ legality helpers
def _broadcast_source(value: SSAValue) -> SSAValue | None:
    """The [K, N] tensor that `value` ([B, K, N]) repeats along its batch axis, when
    its producer says so: a `linalg.broadcast` adding dim 0, a one-input generic that
    yields its input read through `(d0, d1, d2) -> (d1, d2)` (torch-mlir's form), or an
    `expand_shape` adding a unit batch. None otherwise."""
    owner = value.owner
    if isinstance(owner, linalg.xops.BroadcastOp):
        if tuple(owner.dimensions.get_values()) == (0,) and len(owner.result) == 1:
            return owner.input
        return None
    if isinstance(owner, linalg.GenericOp):
        return _generic_broadcast_source(owner)
    if isinstance(owner, tensor.ExpandShapeOp):
        shape = static_shape(value.type)
        groups = reassociation_groups(owner.properties["reassociation"])
        if shape is not None and shape[0] == 1 and groups == _ROWS:
            return owner.src
    return None


def _generic_broadcast_source(op: linalg.GenericOp) -> SSAValue | None:
    if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.res) != 1:
        return None
    if not all_parallel(op.iterator_types) or len(op.iterator_types) != 3:
        return None
    body = list(op.body.block.ops)
    if len(body) != 1 or not isinstance(body[0], linalg.YieldOp):
        return None
    if list(body[0].operands) != [op.body.block.args[0]]:
        return None
    d1, d2 = AffineDimExpr(1), AffineDimExpr(2)
    in_map, out_map = affine_maps(op.indexing_maps)
    if in_map != AffineMap(3, 0, (d1, d2)) or out_map != AffineMap.identity(3):
        return None
    return op.inputs[0]


def shared_matrix(array: np.ndarray) -> np.ndarray | None:
    """Pure: the [K, N] matrix every batch of the [B, K, N] `array` holds, or None when
    two batches differ."""
    if array.ndim != 3 or not np.all(array == array[:1]):
        return None
    return np.ascontiguousarray(array[0])


def _batch_matmul_maps() -> tuple[AffineMap, AffineMap, AffineMap]:
    maps = affine_maps(linalg.BatchMatmulOp.default_maps())
    return maps[0], maps[1], maps[2]


def _weight_map_kn() -> AffineMap:
    """`(b, m, n, k) -> (k, n)`: the right operand's map of a batch_matmul that reads
    one [K, N] matrix for every batch (MLIR's broadcast form of the op)."""
    return AffineMap(4, 0, (AffineDimExpr(3), AffineDimExpr(2)))


# ------------------------------------------------------------------ the pattern
class SharedWeightBatchMatmulToMatmul(ConstantPattern[linalg.BatchMatmulOp]):
    """A batch_matmul whose right operand is the same constant [K, N] matrix in every
    batch is a matmul of the batch-collapsed left operand:

        %t = linalg.transpose ins(%w : tensor<256x128xf32>) outs(%e : tensor<128x256xf32>) permutation = [1, 0]
        %wb = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d1, d2), (d0, d1, d2) -> (d0, d1, d2)]}
                ins(%t : tensor<128x256xf32>) outs(%e3 : tensor<2x128x256xf32>) { linalg.yield %in }
        %r = linalg.batch_matmul ins(%x, %wb : tensor<2x196x128xf32>, tensor<2x128x256xf32>)
               outs(%init : tensor<2x196x256xf32>) -> tensor<2x196x256xf32>
    ==>
        %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x196x128xf32> into tensor<392x128xf32>
        %ic = tensor.collapse_shape %init [[0, 1], [2]] : tensor<2x196x256xf32> into tensor<392x256xf32>
        %m = linalg.matmul ins(%xc, %t : tensor<392x128xf32>, tensor<128x256xf32>)
               outs(%ic : tensor<392x256xf32>) -> tensor<392x256xf32>
        %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 196, 256]
               : tensor<392x256xf32> into tensor<2x196x256xf32>

    Each output element is the same sum of the same products as before, so the rewrite
    is exact in every float type (f16 inputs into an f32 init stay so).

    Legality: default maps on the left operand and the result, static shapes, a left
    operand that is not a compile-time constant (plaintext work is folded elsewhere);
    the right operand is a compile-time constant that is one matrix for every batch:
    read through MLIR's broadcast map `(b, m, n, k) -> (k, n)`, or produced by a
    broadcast along dim 0 (`linalg.broadcast`, torch-mlir's copying generic, a unit
    `expand_shape`) of a [K, N] constant, or a literal whose batches are equal (written
    as its first batch, within the fold size bound). A right operand that differs per
    batch (attention's `q kᵀ`) or is not constant stays a batch_matmul.
    """

    op_types = (linalg.BatchMatmulOp,)

    def rewrite(self, op: linalg.BatchMatmulOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.res) != 1:
            return
        lhs, rhs = op.inputs
        init = op.outputs[0]
        lhs_shape, out_shape = static_shape(lhs.type), static_shape(init.type)
        if lhs_shape is None or out_shape is None or static_shape(rhs.type) is None:
            return
        maps = affine_maps(op.indexing_maps)
        default = _batch_matmul_maps()
        if maps[0] != default[0] or maps[2] != default[2]:
            return  # a transposed or broadcast left operand: not rows of a matmul
        if is_compile_time_constant(lhs):
            return
        ops: list[Operation] = []
        literal, weight = self._weight(rhs, maps[1] == _weight_map_kn(), maps[1] == default[1], ops)
        if weight is None:
            return
        flat_lhs = self._collapse(lhs, ops)
        flat_init = self._collapse(init, ops)
        flat_type = flat_init.type
        properties: dict[str, Attribute] = {} if op.cast is None else {"cast": op.cast}
        matmul = linalg.MatmulOp([flat_lhs, weight], [flat_init], [flat_type], properties=properties)
        out_type = op.res[0].type
        assert isinstance(out_type, TensorType)
        expand = tensor.ExpandShapeOp(
            matmul.results[0], [], reassociation_attr(_ROWS), list(out_shape), out_type
        )
        if literal is not None:
            rewriter.insert(literal, constant_insertion_point(op))
        rewriter.insert([*ops, matmul])
        rewriter.replace(op, expand)

    def _weight(
        self, rhs: SSAValue, read_as_kn: bool, read_per_batch: bool, ops: list[Operation]
    ) -> tuple[arith.ConstantOp | None, SSAValue | None]:
        """The [K, N] constant the right operand `rhs` is in every batch, or None; a
        reshape it needs is appended to `ops`, a literal written anew is returned first."""
        if read_as_kn:
            return None, rhs if is_compile_time_constant(rhs) else None
        if not read_per_batch or not is_compile_time_constant(rhs):
            return None, None  # a transposed weight, or one not known at compile time
        source = _broadcast_source(rhs)
        if source is not None:
            return None, source
        shape = static_shape(rhs.type)
        if shape is not None and shape[0] == 1:
            # One batch: the operand is its own matrix; a reshape writes no new data.
            return None, self._collapse(rhs, ops)
        array = self.array(rhs)
        matrix = None if array is None else shared_matrix(array)
        rhs_type = rhs.type
        if matrix is None or not isinstance(rhs_type, TensorType):
            return None, None
        matrix_type = TensorType(rhs_type.get_element_type(), matrix.shape)
        if not _foldable(matrix, matrix_type):
            return None, None
        constant = dense_constant(matrix, matrix_type)
        return constant, constant.result

    @staticmethod
    def _collapse(value: SSAValue, ops: list[Operation]) -> SSAValue:
        """`value` ([B, M, X]) as [B * M, X], the op appended to `ops`."""
        assert isinstance(value.type, TensorType)
        batch, rows, cols = value.type.get_shape()
        collapse = tensor.CollapseShapeOp(
            operands=[value],
            result_types=[TensorType(value.type.get_element_type(), [batch * rows, cols])],
            properties={"reassociation": reassociation_attr(_ROWS)},
        )
        ops.append(collapse)
        return collapse.results[0]


class FloatCastBeforeExpandShape(OpPattern[arith.TruncFOp | arith.ExtFOp]):
    """A float cast of an `expand_shape` casts first and expands after, so that the
    expand meets the `collapse_shape` after the cast (torch-mlir's f16 Linear: the
    matmul above accumulates in f32, a `truncf` rounds it, the batch norm after it
    reads the rows collapsed again) and the two cancel (`FoldCollapseOfExpand`):

        %e = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 196, 256]
               : tensor<196x256xf32> into tensor<1x196x256xf32>
        %t = arith.truncf %e : tensor<1x196x256xf32> to tensor<1x196x256xf16>
    ==>
        %c = arith.truncf %m : tensor<196x256xf32> to tensor<196x256xf16>
        %t = tensor.expand_shape %c [[0, 1], [2]] output_shape [1, 196, 256]
               : tensor<196x256xf16> into tensor<1x196x256xf16>

    A cast is elementwise, so the values are the same. Legality: a cast on tensors of
    static shape whose operand is an `expand_shape` that nothing else reads (no value
    is cast twice).
    """

    op_types = (arith.TruncFOp, arith.ExtFOp)

    def rewrite(self, op: arith.TruncFOp | arith.ExtFOp, rewriter: PatternRewriter) -> None:
        expand = op.input.owner
        if not isinstance(expand, tensor.ExpandShapeOp) or not op.input.has_one_use():
            return
        source_type, result_type = expand.src.type, op.result.type
        if not isinstance(source_type, TensorType) or not isinstance(result_type, TensorType):
            return
        out_shape = static_shape(result_type)
        if out_shape is None or static_shape(source_type) is None:
            return
        cast = type(op)(expand.src, TensorType(result_type.get_element_type(), source_type.get_shape()))
        new_expand = tensor.ExpandShapeOp(
            cast.result, [], reassociation_attr(reassociation_groups(expand.properties["reassociation"])),
            list(out_shape), result_type,
        )
        rewriter.replace(op, [cast, new_expand])
        rewriter.erase(expand)


BATCH_MATMUL_PATTERNS: tuple[type[RewritePattern], ...] = (
    SharedWeightBatchMatmulToMatmul,
    FloatCastBeforeExpandShape,
)
