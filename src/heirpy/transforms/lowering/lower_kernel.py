"""Lowering of `tensor_ext.kernel` to standard linalg.

Part of `lower-tensor-ext` (listed in `populate_lower_tensor_ext_patterns`). Two forms:

* `LowerKernelToLayoutOps` (the default): the root with a zero init, the reshape of its
  result as `tensor.expand_shape` (and its transpose as `linalg.transpose` where IREE
  folds that into the root), then the epilogue with the root's old init added there.
  This is the form IREE turns into fewer, faster dispatches (see that class).
* `LowerKernel` (`lower-tensor-ext{layout-ops=false}`): the body inlined as it is, root +
  one generic whose maps carry the layout change: heirpy's own view of the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AnyFloat, TensorType
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl.operations import IRDLOperation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import Blobs, dense_constant, scalar_constant
from heirpy.ir.dialects.linalg import BroadcastOp, Conv2DNchwFchwOp, GenericOp, YieldOp
from heirpy.ir.dialects.tensor_ext import KernelOp, KernelYieldOp
from heirpy.ir.utils import affine_maps, int_values, is_identity, iterator_kinds, projection_dims, static_shape
from heirpy.transforms.lowering.expand_reads import (
    ReadExpansion,
    expanded_operand,
    generic_loop_sizes,
    loop_order_transpose,
    plan_read_expansion,
    set_generic_inputs,
)
from heirpy.transforms.lowering.kernel_contraction import contraction_in_loop_order
from heirpy.transforms.rewrite import OpPattern


def inline_kernel(op: KernelOp, rewriter: PatternRewriter) -> None:
    """Replace `op` by its body's ops, block arguments bound to the kernel's operands."""
    block = op.body.block
    terminator = block.last_op
    assert isinstance(terminator, KernelYieldOp)  # the verifier guarantees it
    values = list(terminator.values)
    rewriter.erase(terminator)
    rewriter.inline_block(block, InsertPoint.before(op), arg_values=list(op.inputs))
    rewriter.replace(op, [], values)


class LowerKernel(OpPattern[KernelOp]):
    """Inline a kernel's body in place of the kernel: root op + one generic.

        %r = tensor_ext.kernel ins(%x, %w : ...) -> tensor<1x2x4x4x3xf32> {
        ^bb0(%xi: ..., %wi: ...):
          %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : ...) outs(%acc : ...)
          %s = linalg.generic {... (d0, d1*3 + d4, d2, d3) ...} ins(%c : ...) outs(%o : ...)
          tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
        }
      ==>
        %c = linalg.conv_2d_nchw_fchw ins(%x, %w : ...) outs(%acc : ...)
        %s = linalg.generic {... (d0, d1*3 + d4, d2, d3) ...} ins(%c : ...) outs(%o : ...)

    Always legal: the kernel's semantics are defined as those of its inlined body.
    """

    op_types = (KernelOp,)

    def rewrite(self, op: KernelOp, rewriter: PatternRewriter) -> None:
        inline_kernel(op, rewriter)


# ------------------------------------------------------------------ legality (pure)


def accumulates_by_addition(root: Operation) -> bool:
    """The root's body is `yield out + f(ins)` with `out` used nowhere else, so
    `root(init = T) == root(init = 0) + T` (convs, matmuls, sum pools; not max pools)."""
    if not isinstance(root, IRDLOperation) or len(root.results) != 1 or not root.regions:
        return False
    block = root.regions[0].blocks.first
    if block is None or not block.args or not isinstance(block.last_op, YieldOp):
        return False
    out = block.args[-1]
    yielded = block.last_op.operands
    if len(yielded) != 1 or not isinstance(yielded[0], OpResult):
        return False
    add = yielded[0].op
    if not isinstance(add, (arith.AddfOp, arith.AddiOp)) or out not in add.operands:
        return False
    return out.has_one_use()


def folds_transpose_into_root(root: Operation) -> bool:
    """IREE 3.13 folds a `linalg.transpose` of this root's result into the root itself.

    It does so for contraction generics (GlobalOptimization's PropagateLinalgTranspose,
    FuseTransposeWithProducerLinalgOp), and a 1x1, unit-stride conv becomes one once
    generalised with its unit window loops dropped; it refuses convolutions and named
    matmuls (both only under aggressive-propagation flags)."""
    if not isinstance(root, Conv2DNchwFchwOp):
        return False
    filter_shape = static_shape(root.operands[1].type)
    return (
        filter_shape is not None
        and filter_shape[2:] == (1, 1)
        and root.window_strides() == (1, 1)
    )


def without_results(amap: AffineMap, drop: set[int]) -> AffineMap:
    """`amap` without the results at the positions in `drop`."""
    kept = tuple(e for j, e in enumerate(amap.results) if j not in drop)
    return AffineMap(amap.num_dims, amap.num_symbols, kept)


# ------------------------------------------------------------------ the IREE form


@dataclass
class LowerKernelToLayoutOps(OpPattern[KernelOp]):
    """Lower a kernel to root + reshape/transpose ops + epilogue, the form IREE fuses.

        %r = tensor_ext.kernel ins(%x, %w, %b) -> tensor<1x2x4x4x3xf32> {
          %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(...) dimensions = [0, 2, 3]
          %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi) outs(%acc) -> tensor<1x6x4x4xf32>
          %s = linalg.generic {(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3), id}
                 ins(%c) outs(%o) { sigmoid(%in) }
          tensor_ext.yield %s }
      ==>  (%w a 1x1 filter, unit strides)
        %z = arith.constant dense<0.0> : tensor<1x6x4x4xf32>
        %c = linalg.conv_2d_nchw_fchw ins(%x, %w) outs(%z) -> tensor<1x6x4x4xf32>
        %v = tensor.expand_shape %c [[0], [1, 2], [3], [4]] ... into tensor<1x2x3x4x4xf32>
        %t = linalg.transpose ins(%v) outs(...) permutation = [0, 1, 3, 4, 2]
        %s = linalg.generic {id, (d0, d1, d2, d3, d4) -> (d1 * 3 + d4), id}
               ins(%t, %b) outs(%o) { sigmoid(%in + %bias) }
      (then `ExpandMixedRadixReads` reads %b as `expand_shape %b` through (d1, d4)).
      For any other root the permutation stays in the epilogue's map:
        %s = linalg.generic {(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3), ...} ins(%v, %b)

    Why this form (IREE 3.13, llvm-cpu; benchmarks/bench_iree.py): IREE folds a
    `linalg.transpose` that directly follows a contraction generic (after an
    `expand_shape`) into that op's output map (GlobalOptimization's
    PropagateLinalgTranspose), and then fuses an identity-mapped consumer into the same
    dispatch; a 1x1 unit-stride conv is such a contraction once IREE generalises it
    (`folds_transpose_into_root`). A transpose hidden in a compute generic's map, or a
    mixed-radix map, is never propagated, and a non-zero init is split off by IREE into
    an add that lands between the root and the transpose. So the YOLO head with a 1x1
    conv becomes ONE dispatch, 2.5x faster than the raw IR (the inlined kernel: 2
    dispatches, 1.2x slower). Convs IREE cannot fold into (a 3x3 conv must stay a named
    2-D conv for its conv code generation) keep the permutation in the epilogue's read:
    IREE then runs the epilogue as one elementwise_transpose dispatch in output order,
    exactly as for the raw IR (a separate `linalg.transpose` there became a consumer
    writing through a permuted map, 2-7% slower).

    Legality: the root has one result, read once by the epilogue through a map that
    is a permutation of plain or mixed-radix loop numbers (`plan_read_expansion`);
    static shapes. The init moves to the epilogue only when the root accumulates by
    addition (`accumulates_by_addition`) and the init is not a zero constant. Otherwise
    the kernel is inlined as `LowerKernel` does (always legal).

    `target="gpu"`: a 1x1 unit-stride conv root read through a permutation of all the
    epilogue's loops becomes a contraction generic in the epilogue's loop order with the
    weights first, and the epilogue reads it through the identity
    (`kernel_contraction.contraction_in_loop_order`: the tiles IREE's GPU heuristic
    picks for it). Other kernels lower as for the CPU.
    """

    op_types = (KernelOp,)

    blobs: Blobs
    target: str = "cpu"

    def rewrite(self, op: KernelOp, rewriter: PatternRewriter) -> None:
        root, epilogue = op.root(), op.epilogue()
        inline_kernel(op, rewriter)
        if root is None or not isinstance(epilogue, GenericOp) or len(root.results) != 1:
            return
        result = root.results[0]
        reads = [i for i, v in enumerate(epilogue.inputs) if v is result]
        sizes = generic_loop_sizes(epilogue)
        shape = static_shape(result.type)
        if len(reads) != 1 or not result.has_one_use() or sizes is None or shape is None:
            return
        index = reads[0]
        read = affine_maps(epilogue.indexing_maps)[index]
        plan = plan_read_expansion(read, sizes, shape)
        plain = read if plan is None else plan.amap
        if is_identity(read) or projection_dims(plain) is None:
            return

        inputs = list(epilogue.inputs)
        maps = affine_maps(epilogue.indexing_maps)[: len(inputs)]
        if accumulates_by_addition(root) and not self._is_zero(root.operands[-1]):
            added = self._move_init_to_epilogue(root, epilogue, index, rewriter)
            inputs.append(added[0])
            maps.append(added[1])

        if self.target == "gpu" and self._as_contraction(root, epilogue, plan, plain, sizes, inputs, maps, rewriter):
            return
        new_ops: list[Operation] = []
        value: SSAValue = result
        if plan is not None:
            ops, value = expanded_operand(value, plan)
            new_ops += ops
        if folds_transpose_into_root(root):
            ops, value, plain = loop_order_transpose(value, plain)
            new_ops += ops
        inputs[index], maps[index] = value, plain
        set_generic_inputs(epilogue, new_ops, inputs, maps, rewriter)

    def _as_contraction(
        self,
        root: Operation,
        epilogue: GenericOp,
        plan: ReadExpansion | None,
        plain: AffineMap,
        sizes: list[int],
        inputs: list[SSAValue],
        maps: list[AffineMap],
        rewriter: PatternRewriter,
    ) -> bool:
        """The GPU form (see the class docstring); False, changing nothing, when it does
        not apply."""
        read_dims = projection_dims(plain)
        if (
            not isinstance(root, Conv2DNchwFchwOp)
            or not folds_transpose_into_root(root)
            or read_dims is None
            or not self._is_zero(root.operands[-1])
            or any(kind != "parallel" for kind in iterator_kinds(epilogue.iterator_types))
        ):
            return False
        shape = static_shape(root.results[0].type)
        assert shape is not None  # checked by the caller
        groups = plan.groups if plan is not None else tuple((j,) for j in range(len(shape)))
        built = contraction_in_loop_order(root, groups, read_dims, sizes)
        if built is None:
            return False
        ops, value = built
        index = inputs.index(root.results[0])
        inputs[index], maps[index] = value, AffineMap.identity(len(sizes))
        set_generic_inputs(epilogue, ops, inputs, maps, rewriter)
        rewriter.erase(root)
        return True

    def _is_zero(self, init: SSAValue) -> bool:
        return scalar_constant(init, self.blobs) == 0

    def _move_init_to_epilogue(
        self, root: Operation, epilogue: GenericOp, index: int, rewriter: PatternRewriter
    ) -> tuple[SSAValue, AffineMap]:
        """Give the root a zero init and add its old init in the epilogue's body.

        Returns the epilogue's new input and its map: the init's broadcast source (a bias
        vector) when the init is a `linalg.broadcast`, read through the root's map
        without the broadcast dims, else the init itself through the root's map."""
        init = root.operands[-1]
        init_type = init.type
        assert isinstance(init_type, TensorType)
        shape = init_type.get_shape()
        zero = dense_constant(np.zeros(shape), init_type)
        zero.result.name_hint = "zeros"
        rewriter.insert(zero, InsertPoint.before(root))
        rewriter.replace_uses_with_if(init, zero.result, lambda use: use.operation is root)

        read = affine_maps(epilogue.indexing_maps)[index]
        source, source_map = init, read
        producer = init.op if isinstance(init, OpResult) else None
        if isinstance(producer, BroadcastOp) and not init.uses:
            dims = set(int_values(producer.dimensions))
            source, source_map = producer.input, without_results(read, dims)
            empty = producer.init
            rewriter.erase(producer)
            if isinstance(empty, OpResult) and isinstance(empty.op, tensor.EmptyOp) and not empty.uses:
                rewriter.erase(empty.op)

        body: Block = epilogue.body.block
        root_arg = body.args[index]
        init_arg = rewriter.insert_block_argument(
            body, len(epilogue.inputs), init_type.get_element_type()
        )
        add_type = arith.AddfOp if isinstance(root_arg.type, AnyFloat) else arith.AddiOp
        total = add_type(root_arg, init_arg)
        rewriter.insert(total, InsertPoint.at_start(body))
        rewriter.replace_uses_with_if(root_arg, total.result, lambda use: use.operation is not total)
        return source, source_map
