"""A constant scale and shift at the end of an activation move into the matvec after it.

A batch norm after an activation (conv -> x² -> BN) that fusion could not fold into the
linear op after it (the global average pool and the Linear, which stay apart under the
cost rule: a sum has no weights to scale) is fused into the activation's generic by
pointwise fusion: its body ends `u * s + t` with per-element constants. On the flat
form the pool and the Linear are one matvec, which can take the scale and the shift in:

    A · (s ⊙ u + t) + b  =  (A · diag(s)) · u + (A · t + b)

so the multiply by s costs no level of its own (`FoldAffineTailIntoMatvec`).
"""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.traits import IsTerminator

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import GenericOp, MatvecOp
from heirpy.ir.utils import all_parallel, is_identity, static_shape
from heirpy.transforms.canonicalize.polynomial import splat_value
from heirpy.transforms.heir.heir_forms import LegalizePattern, element_of, flatten, matvec_ops
from heirpy.transforms.linear.linear_match import gather_through_map

AFFINE_KINDS = {"arith.addf": "add", "arith.subf": "sub", "arith.mulf": "mul", "arith.divf": "div"}


class FoldAffineTailIntoMatvec(LegalizePattern[MatvecOp]):
    """The constant scale and shift that end the generic computing a matvec's vector
    move into the matvec's matrix and init.

        %a = linalg.generic {(d0) -> (d0)} ins(%x, %s, %t : tensor<512xf32>, ...) {
          %u = arith.mulf %x, %x
          %v = arith.mulf %u, %s_elem          (%s, %t: constants)
          %w = arith.addf %v, %t_elem
          linalg.yield %w
        }
        %y = linalg.matvec ins(%A, %a) outs(%b)
      ->
        %a = linalg.generic {(d0) -> (d0)} ins(%x : tensor<512xf32>) { %u = arith.mulf %x, %x; linalg.yield %u }
        %y = linalg.matvec ins(%A', %a) outs(%b')      A' = A·diag(α), b' = b + A·β

    with the generic's old value α·u + β elementwise. Why: HEIR spends a level on the
    plaintext multiply before the matvec; in the matrix it is free (module docstring).
    Legality: the matvec's vector is the generic's one result, or collapse_shapes of it
    (a feature map on the grid before the pool and Linear), each read once; the
    generic is all parallel with an identity output map and does not read its init
    (constants are read through their maps, at every loop point);
    its yielded value is a run of `+ - x /` ops (`u / c`, not `c / u`), each with one
    operand a constant (an input that folds, or a scalar constant) and the other the
    next op of the run, each read only by the next, with at least one multiply or
    divide; matrix and init fold to constants.
    """

    op_types = (MatvecOp,)

    def rewrite(self, op: MatvecOp, rewriter: PatternRewriter) -> None:
        vector = op.operands[1]
        collapses: list[Operation] = []  # the collapse_shapes between the generic and the matvec
        computed = vector
        while isinstance(computed.owner, tensor.CollapseShapeOp) and computed.has_one_use():
            collapses.append(computed.owner)
            computed = computed.owner.operands[0]
        generic = computed.owner
        if not isinstance(generic, GenericOp) or not computed.has_one_use():
            return
        loops = static_shape(computed.type)
        maps = [m.data for m in generic.indexing_maps]
        if loops is None or len(generic.results) != 1 or not all_parallel(generic.iterator_types):
            return
        if not is_identity(maps[-1]) or generic.body.block.args[-1].uses:
            return
        matrix, init = self.reader.fold(op.operands[0]), self.reader.init_value(op.operands[2])
        if matrix is None or init is None:
            return
        tail = self.affine_tail(generic, tuple(loops))
        if tail is None:
            return
        u, scale, shift, peeled = tail
        out_type = op.results[0].type
        assert isinstance(out_type, TensorType)
        dtype = element_dtype(out_type)
        matrix64 = matrix.astype(np.float64)
        init_op = dense_constant((init + matrix64 @ shift).astype(dtype), out_type)
        new_generic = without_tail(generic, u, peeled)
        ops: list[Operation] = [new_generic]
        reshape, flat = flatten(new_generic.results[0])
        ops += reshape
        ops += [init_op, *matvec_ops((matrix64 * scale[None, :]).astype(dtype), flat, init_op.result,
                                     element_of(out_type))]
        rewriter.replace(op, ops, [ops[-1].results[0]])
        for dead in [*collapses, generic]:
            rewriter.erase(dead)

    def affine_tail(
        self, generic: GenericOp, loops: tuple[int, ...]
    ) -> tuple[SSAValue, np.ndarray, np.ndarray, list[Operation]] | None:
        """(u, α, β, the tail's ops) with the yielded value α·u + β, α and β flat in the
        loops' row-major order, or None (class docstring)."""
        length = prod(loops)
        block = generic.body.block
        terminator = block.last_op
        if terminator is None or not terminator.has_trait(IsTerminator) or len(terminator.operands) != 1:
            return None
        maps = [m.data for m in generic.indexing_maps]
        constants: dict[SSAValue, np.ndarray | None] = {
            arg: self._input_constant(value, indexing, loops)
            for arg, value, indexing in zip(block.args, generic.inputs, maps)}
        scale, shift = np.ones(length), np.zeros(length)
        value, scales = terminator.operands[0], False
        peeled: list[Operation] = []
        while True:
            owner = value.owner
            if not isinstance(owner, Operation) or owner.parent_block() is not block or not value.has_one_use():
                break
            kind = AFFINE_KINDS.get(owner.name)
            if kind is None:
                break
            lhs, rhs = (self._constant(v, constants, length) for v in owner.operands)
            if (lhs is None) == (rhs is None):
                break
            if kind == "div" and rhs is None:
                break  # c / u
            c = lhs if rhs is None else rhs
            assert c is not None
            a, b = {"add": (np.ones(length), c), "mul": (c, np.zeros(length)), "div": (1.0 / c, np.zeros(length)),
                    "sub": (np.ones(length), -c) if rhs is not None else (-np.ones(length), c)}[kind]
            scale, shift = scale * a, scale * b + shift
            scales = scales or kind in ("mul", "div")
            peeled.append(owner)
            value = owner.operands[0] if rhs is not None else owner.operands[1]
        if not scales or not np.all(np.isfinite(scale)) or not np.all(np.isfinite(shift)):
            return None
        return value, scale, shift, peeled

    def _input_constant(self, value: SSAValue, indexing: AffineMap, loops: tuple[int, ...]) -> np.ndarray | None:
        """A constant input read at every loop point (flat, row-major), or None."""
        constant = self.reader.fold(value)
        if constant is None:
            return None
        return np.asarray(gather_through_map(constant, indexing, loops), dtype=np.float64).reshape(-1)

    @staticmethod
    def _constant(value: SSAValue, constants: dict[SSAValue, np.ndarray | None], length: int) -> np.ndarray | None:
        if value in constants:
            return constants[value]
        number = splat_value(value) if not isinstance(value.type, TensorType) else None
        return None if number is None else np.full(length, number)


def without_tail(generic: GenericOp, u: SSAValue, peeled: list[Operation]) -> GenericOp:
    """A copy of `generic` that yields `u` (the tail's ops gone) and reads only the inputs
    its body still uses."""
    region = generic.body.clone()
    old_block, block = generic.body.block, region.block
    old_ops, new_ops = list(old_block.ops), list(block.ops)
    mapping: dict[SSAValue, SSAValue] = dict(zip(old_block.args, block.args))
    for old, new in zip(old_ops, new_ops):
        mapping.update(zip(old.results, new.results))
    terminator = new_ops[-1]
    terminator.operands = [mapping[u]]
    for old in reversed(old_ops):  # the tail, last op first, then any op left unread
        new = new_ops[old_ops.index(old)]
        if old in peeled or (new is not terminator and not any(r.uses for r in new.results)
                             and not new.has_trait(IsTerminator) and _pure(new)):
            block.erase_op(new)
    inputs, maps = list(generic.inputs), list(generic.indexing_maps.data)
    keep = [i for i, arg in enumerate(block.args[: len(inputs)]) if arg.uses]
    for i in reversed(range(len(inputs))):
        if i not in keep:
            block.erase_arg(block.args[i])
    new_maps: list[AffineMapAttr] = [maps[i] for i in keep] + [maps[-1]]
    return GenericOp([inputs[i] for i in keep], list(generic.outputs), region, new_maps,
                     generic.iterator_types, [generic.results[0].type])


def _pure(op: Operation) -> bool:
    return op.name.startswith("arith.") or op.name.startswith("math.")

