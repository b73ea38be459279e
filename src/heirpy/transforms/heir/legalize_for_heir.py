"""Rewrite heirpy's output into the forms HEIR's CKKS pipeline compiles.

HEIR (heir-opt 2026.11.1, `--torch-linalg-to-ckks`) lays every secret tensor out in
ciphertext slots and implements each linear op with a kernel of its own. Its limits,
found by probes and by reading HEIR's `LayoutPropagation` and
`ConvertToCiphertextSemantics` passes:

* a 1xK `linalg.matmul` (every torch `Linear`) and `linalg.vecmat` are rejected
  (HEIR builds an invalid vecmat); `linalg.matvec` compiles with the diagonal
  (Halevi-Shoup) kernel in one level;
* a strided `conv_2d_nchw_fchw` needs its output channels divisible by gap², where the
  gap is the product of all strides before it (pools are strided convs in HEIR), the
  batch must be 1, and the conv's layout costs layout-conversion levels later;
* `tensor.expand_shape` may only add unit dims (`collapse_shape` is free);
* a matvec whose matrix has more rows or columns than the slot count (1024 by default)
  fails as "unexpected unrealized conversion cast op found";
* its `linalg-fuse-linear-ops` miscompiles a constant scale after a matmul or matvec
  with a non-zero accumulator (`benchmarks/heir_bugs/`).
* it has no kernel for a reducing `linalg.generic`, and crashes on one that sums a
  square (heirpy's global average pool with the x² before it fused in).

The form HEIR compiles at the depth bound (one level per linear stage plus the
activations' own) is a chain of `linalg.matvec` on flat vectors with elementwise ops
between, the function argument collapsed once at the start and the result expanded
once at the end. Each pattern below moves one piece of heirpy's output there, and
each keeps the values exactly (the dense matrix of a stage is that stage applied to
every unit vector). Example (tiny CNN: conv + avg pool, x², conv + pool + Linear):

    %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
    %c = linalg.conv_2d_nchw_fchw {strides = dense<2>} ins(%p, %w1) outs(%b1) -> tensor<1x2x4x4xf32>
    %s = linalg.generic {x * x} ins(%c) -> tensor<1x2x4x4xf32>
    %f = tensor.collapse_shape %s [[0], [1, 2, 3]] -> tensor<1x32xf32>
    %y = linalg.matmul ins(%f, %w2 : tensor<1x32xf32>, tensor<32x10xf32>) outs(%b2) -> tensor<1x10xf32>
  ->
    %xf = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<1x1x8x8xf32> into tensor<64xf32>
    %h = linalg.matvec ins(%A1, %xf : tensor<32x64xf32>, tensor<64xf32>) outs(%bias1)
    %s = linalg.generic {x * x} ins(%h) -> tensor<32xf32>
    %v = linalg.matvec ins(%A2, %s : tensor<10x32xf32>, tensor<32xf32>) outs(%bias2)
    %y = tensor.expand_shape %v [[0, 1]] output_shape [1, 10]

which heir-opt compiles to 3 levels (the raw torch-mlir IR is rejected by the gap²
rule). A function that HEIR already compiles at no more levels (`heir_native`: only
unit-stride convs, and a result with several non-unit dims, which the flat form could
only return in pieces) is left as it is.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from heirpy.analysis.slots import DEFAULT_SLOT_COUNT, heir_opt_flag, module_slots
from heirpy.interp.linalg_named import CONV_LAYOUTS, convolve
from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.diagnostics import HeirpyError, location_prefix
from heirpy.ir.dialects.linalg import (
    Conv2DNchwFchwOp,
    DepthwiseConv2DNchwChwOp,
    GenericOp,
    IndexOp,
    MatmulOp,
    PoolingNchwSumOp,
    VecmatOp,
)
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp, KernelOp
from heirpy.ir.utils import (
    all_parallel,
    element_type,
    is_identity,
    iterator_attrs,
    static_shape,
)
from heirpy.transforms.heir.heir_affine_tails import FoldAffineTailIntoMatvec
from heirpy.transforms.heir.heir_foldable_pads import foldable_pads
from heirpy.transforms.heir.heir_forms import (
    NATIVE_CONV_ELEMENTS,
    LegalizePattern,
    NativeFunctions,
    element_of,
    fits,
    flat_source,
    flat_type,
    flatten,
    matvec_ops,
    reads_in_row_major_order,
    unflatten,
)
from heirpy.transforms.heir.heir_input_channels import widen_input_channels
from heirpy.transforms.heir.heir_layout_matvecs import LayoutToMatvec
from heirpy.transforms.heir.heir_matvecs import (
    ComposeMatvecs,
    FoldAffineIntoMatvec,
    LinearGenericToMatvec,
    SplitReductionPrologue,
)
from heirpy.transforms.heir.heir_native_convs import RowMajorValues
from heirpy.transforms.heir.heir_result_conv import ResultThroughConv, is_result_conv
from heirpy.transforms.heir.heir_results import ExpandInPieces, FlatResult, SliceOfElementwise, SliceOfMatvec
from heirpy.transforms.heir.heir_strided_convs import strided_convs_on_grid
from heirpy.transforms.linear.chain_steps import BATCHED, Step, step_of
from heirpy.transforms.linear.chains import Chain
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.linear_maps import affine_matrix
from heirpy.transforms.linear.linear_match import gather_through_map
from heirpy.transforms.lowering.lower_tensor_ext import populate_lower_tensor_ext_patterns
from heirpy.transforms.rewrite import PatternSet, apply_pattern_sets


def depthwise_step(op: DepthwiseConv2DNchwChwOp, reader: ConstantFolder) -> Step | None:
    """A depthwise conv as a chain step (a per-sample map), evaluated with heirpy's own
    conv evaluator; None unless its filter and per-sample init are constants."""
    x, w, init = op.operands
    kernel, init_value = reader.fold(w), reader.init_value(init)
    if kernel is None or init_value is None or reader.fold(x) is not None:
        return None
    if not np.all(init_value == init_value[:1]):  # the init differs across the batch
        return None
    layout = CONV_LAYOUTS[op.name]
    strides, dilations = op.window_strides(), op.window_dilations()
    sample_init = init_value[0].astype(np.float64)

    def apply(batch: np.ndarray) -> np.ndarray:
        outs = np.broadcast_to(sample_init, (batch.shape[0], *sample_init.shape)).copy()
        return convolve(layout, batch, kernel.astype(np.float64), outs, strides, dilations)

    return Step(op, x, True, BATCHED, apply, constants=[w, init])


class ContractionToMatvec(LegalizePattern[MatmulOp | VecmatOp]):
    """A matmul with a secret left operand (torch's `Linear`), or a vecmat, as a
    `linalg.matvec` with the transposed constant.

        %y = linalg.matmul ins(%x, %w : tensor<1x32xf32>, tensor<32x10xf32>) outs(%c : tensor<1x10xf32>)
      ->
        %xf = tensor.collapse_shape %x [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
        %v = linalg.matvec ins(%wT, %xf : tensor<10x32xf32>, tensor<32xf32>) outs(%cf : tensor<10xf32>)
        %y = tensor.expand_shape %v [[0, 1]] output_shape [1, 10]

    Also `vecmat(x, W)` -> `matvec(Wᵀ, x)`, `matmul(W: MxK, x: Kx1)` ->
    `matvec(W, collapse x)`, and a batch `matmul(X: NxK, W)` -> one matvec with the
    block-diagonal kron(I_N, Wᵀ) on the flattened X. Why: HEIR rejects 1xK and NxK
    matmuls and vecmats (`benchmarks/heir_bugs/vecmat_rank.mlir`, `matmul_rows.mlir`)
    and compiles matvec.
    Legality: static shapes; the weight folds to a constant and the vector does not;
    for N > 1 rows, the flattened X and result fit `slot_count`; the init folds to a
    constant (flattened at compile time) or is collapsed.
    """

    op_types = (MatmulOp, VecmatOp)

    def __init__(self, reader: ConstantFolder, native: NativeFunctions, slot_count: int):
        super().__init__(reader, native)
        self.slot_count = slot_count

    def rewrite(self, op: MatmulOp | VecmatOp, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1:
            return
        lhs, rhs, init = op.operands[0], op.operands[1], op.operands[2]
        out_type = op.results[0].type
        lhs_shape, rhs_shape = static_shape(lhs.type), static_shape(rhs.type)
        if lhs_shape is None or rhs_shape is None or not isinstance(out_type, TensorType):
            return
        if static_shape(out_type) is None:
            return
        lhs_const, rhs_const = self.reader.fold(lhs), self.reader.fold(rhs)
        rows = 1 if isinstance(op, VecmatOp) else lhs_shape[0]
        if rhs_const is not None and lhs_const is None and len(lhs_shape) <= 2:
            if rows > 1 and not fits(prod(lhs_shape), prod(static_shape(out_type) or ()), self.slot_count):
                return
            # each row of the secret operand by the same matrix: block-diagonal for a batch
            matrix, vector = np.kron(np.eye(rows), rhs_const.T), lhs
        elif len(rhs_shape) == 2 and rhs_shape[1] == 1 and lhs_const is not None and rhs_const is None:
            matrix, vector = lhs_const, rhs
        else:
            return
        ops, flat_vector = flatten(vector)
        init_array = self.reader.init_value(init)
        if init_array is not None:
            init_op = dense_constant(init_array.reshape(-1), flat_type(out_type))
            ops.append(init_op)
            flat_init: SSAValue = init_op.result
        else:
            init_ops, flat_init = flatten(init)
            ops += init_ops
        dtype = element_dtype(out_type)
        ops += matvec_ops(np.ascontiguousarray(matrix, dtype=dtype), flat_vector, flat_init, element_of(out_type))
        back, result = unflatten(ops[-1].results[0], out_type)
        rewriter.replace(op, ops + back, [result])


class DenseStageToMatvec(LegalizePattern[DepthwiseConv2DNchwChwOp | Conv2DNchwFchwOp | PoolingNchwSumOp]):
    """A conv, depthwise conv or sum pool (with the zero pad that feeds it) as ONE
    matvec on the flattened input, with the dense matrix of the map.

        %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] { tensor.yield %zero }
        %y = linalg.conv_2d_nchw_fchw {strides = dense<2>} ins(%p, %w) outs(%b) -> tensor<1x2x4x4xf32>
      ->
        %xf = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<1x1x8x8xf32> into tensor<64xf32>
        %v = linalg.matvec ins(%A, %xf : tensor<32x64xf32>, tensor<64xf32>) outs(%bias : tensor<32xf32>)
        %y = tensor.expand_shape %v [[0, 1, 2, 3]] output_shape [1, 2, 4, 4]

    A batch of N samples gets the block-diagonal matrix (each sample's rows read only
    its own columns), so the batch needs no layout op of HEIR's. A stage whose next
    linear stage stays a conv stays a conv itself (tests/.../legalize-for-heir/conv-stays.mlir):

        %a = linalg.conv_2d_nchw_fchw ins(%x, %wa) -> tensor<1x2x4x4xf32>                  (fits)
        %s = linalg.generic {x * x} ins(%a) -> tensor<1x2x4x4xf32>
        %b = linalg.conv_2d_nchw_fchw {strides = dense<2>} ins(%s, %wb) -> tensor<1x20x2x2xf32>  (does not)
      -> unchanged

    as a matvec, %a's flat result could reach %b only through an expand_shape to
    1x2x4x4, which HEIR rejects; its conv kernel takes both (at more levels).
    Why: HEIR's conv needs N = 1, equal strides and output channels divisible by gap²,
    its strided layouts cost conversion levels later, and it has no depthwise conv;
    the matvec is its plain diagonal kernel, one level.
    Legality: constant filter and init (`step_of`); static shapes; the input (after the
    pad) and the output each at most `slot_count` elements in all and the matrix at
    most MAX_DENSE_ELEMENTS entries (`fits`); the input is not a constant; the next
    linear stage does not stay a conv (`consumer_stays`); and it is not a conv HEIR
    runs at one level as it is (`RowMajorValues.native_conv`: unit stride, batch 1, its
    data in HEIR's row-major 4-D layout, a pad only on power-of-two data) whose matrix
    would have more than NATIVE_CONV_ELEMENTS entries (it keeps its filter instead of a
    Toeplitz matrix: 4096 x 4096 in ResNet-20's last stage; a smaller one becomes the
    matvec every bundled net reaches its bound with), nor the conv of `ResultThroughConv`.
    """

    op_types = (DepthwiseConv2DNchwChwOp, Conv2DNchwFchwOp, PoolingNchwSumOp)

    def __init__(self, reader: ConstantFolder, native: NativeFunctions, slot_count: int):
        super().__init__(reader, native)
        self.slot_count = slot_count
        self.layouts = RowMajorValues(reader)

    def rewrite(
        self, op: DepthwiseConv2DNchwChwOp | Conv2DNchwFchwOp | PoolingNchwSumOp, rewriter: PatternRewriter
    ) -> None:
        if is_result_conv(op):
            return
        chain = self.dense_chain(op)
        if chain is None or self.consumer_stays(op):
            return
        in_shape, out_type = static_shape(chain.input.type), op.results[0].type
        assert in_shape is not None and isinstance(out_type, TensorType)
        matrix, bias = affine_matrix(chain.apply, in_shape[1:])
        batch = in_shape[0]
        if batch > 1:
            matrix, bias = np.kron(np.eye(batch), matrix), np.tile(bias, batch)
        dtype = element_dtype(out_type)
        ops, flat_in = flatten(chain.input)
        bias_op = dense_constant(bias.astype(dtype), flat_type(out_type))
        ops += [bias_op, *matvec_ops(matrix.astype(dtype), flat_in, bias_op.result, element_of(out_type))]
        back, result = unflatten(ops[-1].results[0], out_type)
        rewriter.replace(op, ops + back, [result])
        for step in reversed(chain.steps[:-1]):  # the pad and leading scales it took in
            if not step.result.uses:
                rewriter.erase(step.op)

    def dense_chain(self, op: Operation) -> Chain | None:
        """`op` (with the pad feeding it) as a chain whose dense matrix fits, or None
        when `op` stays what it is (not a linear stage, too big, constant input, or a
        conv HEIR runs at one level as it is: `RowMajorValues.native_conv`)."""
        if self.layouts.native_conv(op) and self._dense_elements(op) > NATIVE_CONV_ELEMENTS:
            return None
        if isinstance(op, DepthwiseConv2DNchwChwOp):
            step = depthwise_step(op, self.reader)
        elif isinstance(op, (Conv2DNchwFchwOp, PoolingNchwSumOp)):
            step = step_of(op, self.reader)
        else:
            return None
        out_shape = static_shape(op.results[0].type)
        if step is None or out_shape is None or step.mode not in (None, BATCHED):
            return None
        steps = [step]
        producer = step.activation.owner
        if isinstance(producer, tensor.PadOp) and step.activation.has_one_use():
            pad = step_of(producer, self.reader)
            if pad is not None:
                steps.insert(0, pad)
        steps = self.leading_scales(steps) + steps
        chain = Chain(steps, BATCHED)
        in_shape = static_shape(chain.input.type)
        if in_shape is None or in_shape[0] != out_shape[0] or self.reader.fold(chain.input) is not None:
            return None
        if not fits(prod(in_shape), prod(out_shape), self.slot_count):
            return None
        return chain

    def leading_scales(self, steps: list[Step]) -> list[Step]:
        """The single-use elementwise steps (`x op K`) that compute the stage's input,
        when at least one of them scales (a batch-norm on the function's input, or after
        an x²): the matrix takes them in, and the scale's level is saved. Empty
        otherwise (an add before a stage costs nothing)."""
        leading: list[Step] = []
        value = steps[0].activation
        while value.has_one_use() and isinstance(value.owner, Operation):
            step = step_of(value.owner, self.reader)
            if step is None or step.costly or step.reshape_only or step.mode not in (None, BATCHED):
                break
            leading.insert(0, step)
            value = step.activation
        return leading if any(step.leveled for step in leading) else []

    @staticmethod
    def _dense_elements(op: Operation) -> int:
        """Entries of `op`'s dense matrix (its output by its unpadded input)."""
        data = op.operands[0]
        if isinstance(data.owner, tensor.PadOp):
            data = data.owner.operands[0]
        shapes = [static_shape(data.type), static_shape(op.results[0].type)]
        return prod(prod(s) for s in shapes if s is not None)

    def consumer_stays(self, op: Operation) -> bool:
        """True when the next linear stage after `op` stays a conv or pool (see
        `next_stage`): `op` then stays one too, since its dense matvec's flat result
        could reach that conv only through an expand_shape HEIR rejects."""
        stage = next_stage(op)
        return stage is not None and (self.dense_chain(stage) is None or self.consumer_stays(stage))


def next_stage(op: Operation) -> Operation | None:
    """The conv, depthwise conv or sum pool that reads `op`'s one result through
    single-use elementwise generics (x², a scale) and pads, or None (another op, or a
    value with several users)."""
    value = op.results[0] if len(op.results) == 1 else None
    while value is not None and value.has_one_use():
        user = next(iter(value.uses)).operation
        if isinstance(user, (Conv2DNchwFchwOp, DepthwiseConv2DNchwChwOp, PoolingNchwSumOp)):
            return user if user.operands[0] is value else None
        if isinstance(user, tensor.PadOp):
            value = user.results[0]
            continue
        if not (isinstance(user, GenericOp) and len(user.results) == 1 and all_parallel(user.iterator_types)):
            return None
        maps = [m.data for m in user.indexing_maps]
        reads = [m for v, m in zip(user.inputs, maps) if v is value]
        if not reads or not all(is_identity(m) for m in [*reads, maps[-1]]):
            return None
        value = user.results[0]
    return None


class ElementwiseOnFlat(LegalizePattern[GenericOp]):
    """An elementwise generic on a reshaped flat vector runs on the flat vector.

        %t = tensor.expand_shape %v [[0, 1, 2, 3]] : tensor<32xf32> into tensor<1x2x4x4xf32>
        %s = linalg.generic {identity maps, parallel} ins(%t, %t) outs(%e) { arith.mulf }
      ->
        %f = linalg.generic {(d0) -> (d0), parallel} ins(%v, %v) outs(%ef : tensor<32xf32>) { arith.mulf }
        %s = tensor.expand_shape %f [[0, 1, 2, 3]]

    Why: the next matvec reads the flat vector as it is, and HEIR cannot run the
    expand in between (it adds more than unit dims).
    Legality: one result; all loops parallel, identity output map; at least one input
    is a reshape of a 1-D value (`flat_source`) read in the loops' row-major order (the
    identity, or a map dropping only unit loops: a kernel epilogue's 1x4x2 root in a
    1x4x2x1 nest); every other input is another static tensor read in that order
    (collapsed, e.g. a residual input) or a constant (read through its map and flattened
    at compile time); the body reads no `linalg.index` (its loops would be gone).
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or len(op.outputs) != 1:
            return
        if any(isinstance(inner, IndexOp) for inner in op.body.walk()):
            return
        out_type = op.results[0].type
        out_shape = static_shape(out_type)
        if out_shape is None or len(out_shape) < 2 or not all_parallel(op.iterator_types):
            return
        maps = [m.data for m in op.indexing_maps]
        if not is_identity(maps[-1]):
            return
        # Decide on every input before building an op: a built op already uses its
        # operands, so one abandoned on a later `return` would leave a dangling use.
        plan: list[tuple[SSAValue, np.ndarray | SSAValue | None]] = []
        for value, indexing in zip(op.inputs, maps):
            constant = self.reader.fold(value)
            if constant is not None:
                plan.append((value, np.asarray(gather_through_map(constant, indexing, out_shape))))
                continue
            shape = static_shape(value.type)
            if shape is None or not reads_in_row_major_order(indexing, shape, out_shape):
                return
            plan.append((value, flat_source(value)))
        if not any(isinstance(how, SSAValue) for _, how in plan):
            return
        ops: list[Operation] = []
        inputs: list[SSAValue] = []
        for value, how in plan:
            if isinstance(how, np.ndarray):
                # The constant keeps its operand's element type (an f32 bias read by an
                # epilogue that truncates to f16), only its shape becomes the flat one.
                const_type = TensorType(element_type(value.type), flat_type(out_type).get_shape())
                const_op = dense_constant(how.reshape(-1).astype(element_dtype(const_type)), const_type)
                ops.append(const_op)
                inputs.append(const_op.result)
            elif how is not None:  # the 1-D value `value` is a reshape of
                inputs.append(how)
            else:
                more, flat_value = flatten(value)
                ops += more
                inputs.append(flat_value)
        init_ops, init = self._flat_init(op)
        new = GenericOp(
            inputs, [init], op.body.clone(), [AffineMapAttr(AffineMap.identity(1))] * (len(inputs) + 1),
            iterator_attrs(["parallel"]), [flat_type(out_type)],
        )
        back, result = unflatten(new.results[0], out_type)  # type: ignore[arg-type]
        rewriter.replace(op, [*ops, *init_ops, new, *back], [result])

    @staticmethod
    def _flat_init(op: GenericOp) -> tuple[list[Operation], SSAValue]:
        if op.body.block.args[-1].uses:  # the body reads the init: keep its values
            return flatten(op.outputs[0])
        empty = tensor.EmptyOp([], flat_type(op.results[0].type))
        return [empty], empty.tensor


class FoldReshapesToFlat(LegalizePattern[tensor.CollapseShapeOp | tensor.ExpandShapeOp]):
    """Reshapes of a 1-D value are that value, or one expand_shape of it.

        %t = tensor.expand_shape %v [[0, 1, 2, 3]] : tensor<32xf32> into tensor<1x2x4x4xf32>
        %u = tensor.collapse_shape %t [[0], [1, 2, 3]] : ... into tensor<1x32xf32>
        %f = tensor.collapse_shape %u [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
        %g = tensor.expand_shape %u [[0], [1, 2, 3]] : tensor<1x32xf32> into tensor<1x2x4x4xf32>
      ->
        %f = %v
        %g = tensor.expand_shape %v [[0, 1, 2, 3]] : tensor<32xf32> into tensor<1x2x4x4xf32>

    Why: a result computed by a matvec is returned through such a chain (a 1x24 Linear
    output viewed as 1x4x2x3); `ResultThroughConv` and `ExpandInPieces` read one expand
    of the flat vector.
    Legality: every op between is an expand_shape or collapse_shape (both keep the
    row-major element order) and the origin is a 1-D value of as many elements, not
    the op's own operand.
    """

    op_types = (tensor.CollapseShapeOp, tensor.ExpandShapeOp)

    def rewrite(self, op: tensor.CollapseShapeOp | tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        result = op.results[0]
        source = flat_source(result)
        if source is None or source is op.operands[0] or not isinstance(result.type, TensorType):
            return
        if source.type == result.type:
            rewriter.replace(op, [], [source])
            return
        ops, value = unflatten(source, result.type)
        rewriter.replace(op, ops, [value])




def populate_legalize_for_heir_patterns(
    ctx: Context | None = None, slot_count: int = DEFAULT_SLOT_COUNT, flat_results: bool = False
) -> list[PatternSet]:
    """The patterns of `legalize-for-heir` (all skip `heir_native` functions): first the
    stages and elementwise ops to flat vectors, to a fixpoint; then the same with how a
    result of several non-unit dims is returned (`ResultThroughConv`, else in pieces),
    which needs the flat form settled (a reshape pair folded away) to see its stage."""
    reader, native = ConstantFolder(ctx), NativeFunctions()
    flat: list[RewritePattern] = [
        ContractionToMatvec(reader, native, slot_count),
        DenseStageToMatvec(reader, native, slot_count),
        ElementwiseOnFlat(reader, native),
        FoldReshapesToFlat(reader, native),
        FoldAffineIntoMatvec(reader, native),
        SplitReductionPrologue(reader, native, slot_count),
        LinearGenericToMatvec(reader, native, slot_count),
        ComposeMatvecs(reader, native, slot_count),
        LayoutToMatvec(reader, native, slot_count),
        FoldAffineTailIntoMatvec(reader, native),
    ]
    results: list[RewritePattern] = [
        ResultThroughConv(reader, native),
        *([FlatResult(reader, native)] if flat_results else []),
        ExpandInPieces(reader, native),
        SliceOfMatvec(reader, native),
        SliceOfElementwise(reader, native),
    ]
    return [PatternSet.of(*flat), PatternSet.of(*results, *flat)]


@dataclass(frozen=True)
class LegalizeForHeirPass(ModulePass):
    """Rewrite heirpy's output into the forms HEIR's --torch-linalg-to-ckks compiles.

    The last step after `linalg-fuse-ops` (`heir-prepare` runs the three): it lowers
    heirpy's `tensor_ext` ops itself (`lower-tensor-ext`'s patterns), so its output
    holds only ops heir-opt parses (a tensor_ext op that cannot be lowered is an error).
    Linear stages become `linalg.matvec` on flat vectors (1xK matmuls and vecmats with
    the transposed constant; convs and sum pools with their dense matrix, when input
    and output fit the slots), elementwise ops move onto the flat vectors, a constant
    scale after a matvec moves into it, a reduction that sums a square (a global average
    pool with x² fused in) runs the square first and the sum as a matvec, a contraction
    or sum generic becomes a matvec, two matvecs in a row become one, strided slices and
    pads of a flat vector (an option-A shortcut) become one selection matvec, a scale and
    shift that end the activation before a matvec move into it, and a result with
    several non-unit dims comes from a conv laid out as the result, and a conv left to
    HEIR's kernel reads an uneven zero pad as an even one, with zero taps added to its
    filter (HEIR folds only an even pad: `heir_foldable_pads`). Values never change.
    Example: the tiny CNN (conv + pool, x², conv + pool + Linear) becomes matvec 32x64,
    x·x, matvec 10x32, which heir-opt compiles to 3 levels
    (tests/filecheck/transforms/legalize-for-heir/docstring.mlir).

    `slot-count`: the CKKS slots of one ciphertext, heir-opt's `min-slot-count`. 0 (the
    default): the fewest (a power of two, at least HEIR's 1024) that hold every secret
    vector a linear op of the module reads or writes. When that is more than 1024 a
    remark names the one heir-opt flag to give (`--torch-linalg-to-ckks=min-slot-count=N`);
    a function that needs more than a `slot-count` given gets a remark naming the count.

    `flat-results` (default false): a result with several non-unit dims that no conv
    can lay out (the last stage reads an input whose length is not a power of two, or a
    batch-2 feature map) is returned as its flat vector, not assembled in pieces (a
    level): the function's result type becomes 1-D and the caller reads it row-major in
    the old shape (a remark names each such result).

    `strided-on-grid` (default true): a strided conv left for HEIR's conv kernel (one
    whose dense matrix is too large for a matvec) runs at stride 1 and its result stays
    on its input's grid; the convs after it read the grid dilated, and the matvec at the
    end reads only the valid positions. HEIR then never converts a strided conv's gapped
    layout (about a level per bit of the slot count: ResNet-20 compiles at 32 levels and
    18 bootstraps that way, for a bound of 39); it costs the MACs of the stride-1 convs
    and the slots of the input's grid (`heir_strided_convs`).

    `pad-input-channels` (default false; `heir-prepare` turns it on): an image argument
    of C x H x W elements that only convs read, with H*W a power of two and C not
    (CIFAR's 3 channels), takes C rounded up to a power of two, the filters zero for the
    channels added: HEIR's first conv then costs one level instead of two. The caller
    passes the input with the channels added at the end (a remark names the types).
    """

    name = "legalize-for-heir"
    slot_count: int = 0
    flat_results: bool = False
    """Return a result no conv lays out flat instead of in pieces (`FlatResult`)."""
    strided_on_grid: bool = True
    """Run a strided conv HEIR would lay out with gaps at stride 1 on its input's grid
    (`heir_strided_convs`); false keeps it strided."""
    pad_input_channels: bool = False
    """Give an image argument that only convs read a power-of-two number of channels
    (`heir_input_channels`; the signature changes, a remark says how)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_slot_count(self.name, self.slot_count)
        apply_pattern_sets(op, populate_lower_tensor_ext_patterns(ctx))
        functions = [f for f in op.walk() if isinstance(f, FuncOp) and f.body.blocks]
        count = self.slot_count or module_slots(functions)[0]
        result_types = {f: list(f.function_type.outputs.data) for f in functions}
        apply_pattern_sets(op, populate_legalize_for_heir_patterns(ctx, count, self.flat_results))
        check_heir_parses(op)
        remarks = [flat_remark(self.name, f, result_types[f]) for f in functions]
        if self.strided_on_grid:
            remarks += strided_convs_on_grid(op, ctx, self.name)
        foldable_pads(op, ctx)
        if self.pad_input_channels:
            remarks += widen_input_channels(op, ConstantFolder(ctx), self.name)
        functions = [f for f in op.walk() if isinstance(f, FuncOp) and f.body.blocks]
        remarks.insert(0, slot_remark(self.name, functions, count, asked=self.slot_count))
        for remark in filter(None, remarks):
            print(remark, file=sys.stderr)


def flat_remark(pass_name: str, func: FuncOp, before: list[Attribute]) -> str:
    """The remark naming the results `FlatResult` returned flat, or ''."""
    after = list(func.function_type.outputs.data)
    changed = [(i, old, new) for i, (old, new) in enumerate(zip(before, after)) if old != new]
    if not changed:
        return ""
    parts = [f"result #{i} {new} is the {old} result in row-major order" for i, old, new in changed]
    return (f"remark: {pass_name}: @{func.sym_name.data} returns flat results (flat-results): " + "; ".join(parts)
            + " (flat-results=false keeps the shape, at one level more)")


def check_slot_count(pass_name: str, slot_count: int) -> None:
    """A slot count is 0 (heirpy picks it) or a number of slots."""
    if slot_count < 0:
        raise HeirpyError(
            f"error: {pass_name}: slot-count must be 0 (heirpy picks it) or a number of slots, got {slot_count}"
        )


def check_heir_parses(module: ModuleOp) -> None:
    """Raise when an op heir-opt cannot parse is left: one of heirpy's `tensor_ext` ops
    (HEIR's dialect of that name has none of them) that `lower-tensor-ext` declined."""
    for op in module.walk():
        if isinstance(op, (FusedConvPoolOp, KernelOp)):
            raise HeirpyError(
                f"{location_prefix(op)}error: legalize-for-heir: '{op.name}' could not be lowered to "
                "standard linalg, and heir-opt cannot parse it"
            )


def slot_remark(pass_name: str, functions: list[FuncOp], count: int, asked: int) -> str:
    """The remark naming the slot count to give heir-opt, or '' when HEIR's default
    serves: `count` slots were used (`asked` is the user's `slot-count`, 0 = chosen by
    heirpy); a function that needs more than `asked` names the count to ask for."""
    needed, func, longest = module_slots(functions)
    if asked and longest > asked and func is not None:
        return (
            f"remark: {pass_name}: @{func.sym_name.data} has a secret tensor of {longest} elements, more than "
            f"{asked} slots: run heir-prepare{{slot-count={needed}}} (or leave slot-count out), then heir-opt "
            f"{heir_opt_flag(needed)}"
        )
    final = max(count, needed)
    if final <= DEFAULT_SLOT_COUNT:
        return ""
    where = f" (@{func.sym_name.data} has a secret tensor of {longest} elements)" if func is not None else ""
    return f"remark: {pass_name}: the module needs {final} slots{where}: run heir-opt {heir_opt_flag(final)}"
