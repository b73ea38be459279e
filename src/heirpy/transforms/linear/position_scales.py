"""A constant scale that varies over positions, moved back through an affine decode into
the 1x1 conv before it (`linalg-fuse-linear-chains`' last pattern set).

The ultralytics detectors (YOLOv5u, YOLOv8, YOLO11) end their box branch with DFL (a
softmax, then a 1x1 conv with the weights 0..15), an affine decode against constant
anchors (slices, `anchor - lt`, `anchor + rb`, their half-sum and difference, a concat)
and a multiply by the per-anchor stride: a plaintext that varies along the anchor axis
(8, 16 or 32 per detection level). Under CKKS that multiply is a level of its own, one
above the depth bound, which counts the conv and the scale as one linear chain. No conv
can take the scale (a conv's weights are the same at every position), but a contraction
can: `s[w] * conv(p)[f,h,w] = sum_c p[c,h,w] * (W[f,c] * s[w])`, one plaintext-ciphertext
product per term, one level. The decode between is affine in the conv's output and keeps
its positions, so `s * decode(d) = decode(s * d) + (s - 1) * decode(0)`:

    %d = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x16x4x2100xf32>, tensor<1x16x1x1xf32>)
           outs(%zero : tensor<1x1x4x2100xf32>)
    %x = ... slices, generics adding / subtracting constant anchors, a concat of %d ...
    %y = linalg.generic {(d0, d1, d2) -> (d0, d1, d2), -> (d0, d2), -> (d0, d1, d2)}
           ins(%x, %strides : tensor<1x4x2100xf32>, tensor<1x2100xf32>) { mulf }
  ->
    %d = linalg.generic {(n, f, h, w, c) -> (n, c, h, w), -> (f, c), -> (w), -> (n, f, h, w);
                         parallel x4, reduction}
           ins(%p, %w2, %s : tensor<1x16x4x2100xf32>, tensor<1x16xf32>, tensor<2100xf32>)
           outs(%zero : tensor<1x1x4x2100xf32>)
      ^bb0(%a: f32, %k: f32, %t: f32, %acc: f32):
        %ks = arith.mulf %k, %t ; %m = arith.mulf %a, %ks ; %r = arith.addf %acc, %m
    %x = ... the decode, unchanged, now of the scaled %d ...
    %y = linalg.generic {identity x3} ins(%x, %k : ..., tensor<1x4x2100xf32>) { addf }

`%k = (s - 1) * decode(0)` (the anchors times the stride, less the anchors), computed
at compile time; when the decode adds no constant the multiply simply goes. The weight
and the scale are stored as they were (the plaintext `W[f,c] * s[w]` is their product in
the body, plaintext work); the shift is the one new constant (the decode's output shape),
which the cost rule counts as stored constants. `heirpy.analysis.depth` reads the generic
as one linear op (a product of the ciphertext and a varying plaintext).

Legality (`match_position_scale`, `cone_of`, pure of rewriting):
* the multiply: an all-parallel generic, body one `mulf` of its two inputs, one of them
  a ciphertext read by the identity map, the other a compile-time constant read by any
  map; the axes along which that constant varies are the scale's axes;
* the decode (the "cone" between the conv and the multiply): elementwise generics reading
  each runtime input by the identity map whose body is affine in them (add, sub, negate,
  a multiply or divide by plaintext, f32 <-> f16 casts: the stride moves across a rounding,
  as the mixed-precision rule lets a rounding move), static unit-stride slices and concats
  of other axes, and reshapes that keep each scale axis one dimension; every constant
  operand folds; nothing outside the cone reads a value of it;
* the conv: `linalg.conv_2d_nchw_fchw` with a 1x1 constant filter and unit strides (each
  output position reads the input at the same position; a wider window mixes positions
  and would need its filter repeated per position), the scale along its output channels,
  rows or columns, never the batch;
* the cost rule (`fusion_cost.CostRule`) allows it: one level saved, the same weights,
  the body's two products per term (IREE's `max-mac-growth=1` refuses it), the stored
  constants grown by the shift (a remark past 1.5x, `max-constant-growth` refuses).

f16 (torch-mlir's mixed form: the conv reads f16 and accumulates in f32, a `truncf`
rounds it, the decode runs in f16): the generic reads the f16 input, weight and scale,
widens them (`arith.extf`) and accumulates in f32 as the conv did; `%k` is computed in
float64 and rounded once to the decode's type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp, YieldOp
from heirpy.ir.utils import (
    affine_maps,
    all_parallel,
    int_pair,
    is_identity,
    iterator_attrs,
    reassociation_groups,
    static_shape,
)
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    build_init,
    erase_dead_constant_slices,
    init_elements,
)
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost, admit_fusion
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body

_AFFINE_CASTS = (arith.NegfOp, arith.TruncFOp, arith.ExtFOp)
_CONV_POSITION_AXES = (1, 2, 3)  # output channels, rows, columns of an NCHW result


# ----------------------------------------------------------------------- the multiply
def broadcast_through_map(values: np.ndarray, map_: AffineMap, shape: tuple[int, ...]) -> np.ndarray | None:
    """`values`, read by the indexing map `map_` (dims and constants only), as an array of
    the loop shape `shape`; None for any other map."""
    if map_.num_symbols or len(map_.results) != values.ndim or map_.num_dims != len(shape):
        return None
    index: list[np.ndarray | int] = []
    for expr in map_.results:
        if isinstance(expr, AffineDimExpr):
            axis = expr.position
            index.append(np.arange(shape[axis]).reshape([-1 if a == axis else 1 for a in range(len(shape))]))
        elif isinstance(expr, AffineConstantExpr):
            index.append(expr.value)
        else:
            return None
    try:
        return np.broadcast_to(values[tuple(index)], shape)
    except (IndexError, ValueError):
        return None


def scale_axes(full: np.ndarray) -> tuple[int, ...]:
    """The axes along which `full` varies."""
    return tuple(a for a in range(full.ndim)
                 if full.shape[a] > 1 and not np.all(full == np.take(full, [0], axis=a)))


def _tensor_product(op: arith.MulfOp, reader: ConstantFolder) -> tuple[SSAValue, np.ndarray] | None:
    """`arith.mulf` on two tensors of one type, one runtime, one constant."""
    for x, s in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        if x.type != op.result.type or s.type != op.result.type or reader.slice_of(x) is not None:
            continue
        values = reader.fold(s)
        if values is not None:
            return x, np.asarray(values, dtype=np.float64)
    return None


def match_position_scale(op: Operation, reader: ConstantFolder) -> tuple[SSAValue, np.ndarray] | None:
    """`(x, s)` when `op` is `x * s` elementwise, `x` a runtime value read whole and `s` a
    compile-time constant (returned broadcast to `x`'s shape); else None."""
    if isinstance(op, arith.MulfOp) and isinstance(op.result.type, TensorType):
        return _tensor_product(op, reader)
    if not isinstance(op, GenericOp) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    if not all_parallel(op.iterator_types):
        return None
    body = list(op.body.block.ops)
    if len(body) != 2 or not isinstance(body[0], arith.MulfOp) or not isinstance(body[1], YieldOp):
        return None
    args = op.body.block.args
    if {body[0].lhs, body[0].rhs} != {args[0], args[1]} or body[1].operands[0] is not body[0].result:
        return None
    maps = affine_maps(op.indexing_maps)
    shape = static_shape(op.results[0].type)
    if shape is None or not is_identity(maps[2]):
        return None
    for index in (0, 1):
        x, s = op.inputs[index], op.inputs[1 - index]
        if x.type != op.results[0].type or not is_identity(maps[index]):
            continue
        if reader.slice_of(x) is not None:
            continue  # a constant times a constant: plaintext work
        values = reader.fold(s)
        if values is None:
            continue
        full = broadcast_through_map(values, maps[1 - index], shape)
        if full is not None:
            return x, np.asarray(full, dtype=np.float64)
    return None


# ----------------------------------------------------------------------- the decode
def affine_body(op: GenericOp, runtime: set[int]) -> bool:
    """Is the body of the elementwise `op` affine in its inputs numbered `runtime`: adds,
    subtracts, negations and casts of them, products and quotients by plaintext, and any
    plaintext work? Its init must be unread."""
    block = op.body.block
    if any(arg.uses for arg in block.args[len(op.inputs):]):
        return False
    dependent = {block.args[i] for i in runtime}
    for inner in block.ops:
        if isinstance(inner, YieldOp):
            return True
        reads = [v in dependent for v in inner.operands]
        if not any(reads):
            continue  # plaintext: constants, the anchors widened
        if inner.regions:
            return False
        if isinstance(inner, (arith.AddfOp, arith.SubfOp, *_AFFINE_CASTS)):
            pass
        elif isinstance(inner, arith.MulfOp) and not all(reads):
            pass
        elif isinstance(inner, arith.DivfOp) and not reads[1]:
            pass
        else:
            return False  # a product of two runtime values, a max, an exp, ...
        dependent.update(inner.results)
    return False


def _shape(value: SSAValue) -> tuple[int, ...] | None:
    return static_shape(value.type)


def _reshape_axes(groups: list[list[int]], wide: tuple[int, ...], axes: tuple[int, ...],
                  collapse: bool) -> tuple[int, ...] | None:
    """The scale axes `axes` of a reshape's result on its source. `wide` is the shape of
    the side with more dims; each scale axis must be one dim of its group, the group's
    others of size 1."""
    out: list[int] = []
    for axis in axes:
        if collapse:  # result axis = group index; the source dim is the group's non-unit one
            big = [d for d in groups[axis] if wide[d] > 1]
            if len(big) != 1:
                return None
            out.append(big[0])
        else:  # result axis lies in one group; the source axis is that group's index
            group = next(g for g, dims in enumerate(groups) if axis in dims)
            if any(wide[d] > 1 for d in groups[group] if d != axis):
                return None
            out.append(group)
    return tuple(out)


@dataclass
class Cone:
    """The decode between a linear op's result (`source`) and the multiply: its ops in
    an order they can run (`ops`) and the axes each value carries the scale along."""

    source: SSAValue | None = None
    ops: list[Operation] = field(default_factory=list)
    axes: dict[SSAValue, tuple[int, ...]] = field(default_factory=dict)


Axes = tuple[int, ...]


def _elementwise_arith(op: Operation, runtime: list[SSAValue]) -> bool:
    """An `arith` op on whole tensors of one shape (HEIR's canonical form of an
    elementwise op) that is affine in its `runtime` operands."""
    if not op.results or any(v.type.get_shape() != op.results[0].type.get_shape()  # type: ignore[attr-defined]
                             for v in op.operands if isinstance(v.type, TensorType)):
        return False
    if not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        return False
    reads = [v in runtime for v in op.operands]
    if isinstance(op, (arith.AddfOp, arith.SubfOp, *_AFFINE_CASTS)):
        return True
    if isinstance(op, arith.MulfOp):
        return not all(reads)
    return isinstance(op, arith.DivfOp) and not reads[1]


def _generic_operands(op: GenericOp, runtime: list[SSAValue]) -> list[SSAValue] | None:
    """The runtime inputs of the elementwise `op` when it is affine in them, each read
    whole (by the identity map), else None."""
    if len(op.outputs) != 1 or not all_parallel(op.iterator_types):
        return None
    maps = affine_maps(op.indexing_maps)
    numbered = {i for i, v in enumerate(op.inputs) if v in runtime}
    if any(v in runtime for v in op.outputs) or not is_identity(maps[-1]):
        return None
    if any(not is_identity(maps[i]) for i in numbered) or not affine_body(op, numbered):
        return None
    return [op.inputs[i] for i in sorted(numbered)]


def _slice_keeps(op: tensor.ExtractSliceOp, axes: Axes) -> bool:
    """A static unit-stride slice of the same rank, whole along `axes`."""
    source, result = _shape(op.source), _shape(op.result)
    if source is None or result is None or len(source) != len(result) or op.offsets or op.sizes or op.strides:
        return False
    offsets, sizes = op.static_offsets.get_values(), op.static_sizes.get_values()
    if any(s != 1 for s in op.static_strides.get_values()):
        return False
    return all(offsets[a] == 0 and sizes[a] == source[a] for a in axes)


def _operand_axes(op: Operation, axes: Axes, reader: ConstantFolder) -> list[tuple[SSAValue, Axes]] | None:
    """The runtime operands of the decode op `op` with the axes the scale runs along on
    each, given `axes` on its result; None when `op` cannot carry the scale."""
    runtime = [v for v in op.operands if reader.slice_of(v) is None]
    if isinstance(op, GenericOp):
        inputs = _generic_operands(op, runtime)
        return None if inputs is None else [(v, axes) for v in inputs]
    if op.name.startswith("arith."):
        return [(v, axes) for v in runtime] if _elementwise_arith(op, runtime) else None
    if isinstance(op, tensor.ExtractSliceOp):
        return [(op.source, axes)] if _slice_keeps(op, axes) else None
    if isinstance(op, tensor.ConcatOp):
        return None if op.dim.value.data in axes else [(v, axes) for v in runtime]
    if isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        collapse = isinstance(op, tensor.CollapseShapeOp)
        wide = _shape(op.src if collapse else op.result)
        if wide is None:
            return None
        source_axes = _reshape_axes(reassociation_groups(op.reassociation), wide, axes, collapse)
        return None if source_axes is None else [(op.src, source_axes)]
    return None


def pointwise_conv(op: Operation, reader: ConstantFolder) -> bool:
    """A `linalg.conv_2d_nchw_fchw` whose constant filter is 1x1 at unit strides: each
    output position reads the input at that position only."""
    if not isinstance(op, Conv2DNchwFchwOp) or len(op.inputs) != 2:
        return False
    filter_shape = _shape(op.inputs[1])
    in_shape, out_shape = _shape(op.inputs[0]), _shape(op.results[0])
    if filter_shape is None or in_shape is None or out_shape is None or filter_shape[2:] != (1, 1):
        return False
    if int_pair(op.window_strides()) != (1, 1) or in_shape[2:] != out_shape[2:]:
        return False
    return reader.slice_of(op.inputs[1]) is not None


def cone_of(x: SSAValue, axes: tuple[int, ...], multiply: Operation, reader: ConstantFolder) -> Cone | None:
    """The decode from one pointwise conv to `x` (module docstring), or None."""
    cone = Cone()
    visiting: list[tuple[SSAValue, tuple[int, ...], bool]] = [(x, axes, False)]
    while visiting:
        value, value_axes, expanded = visiting.pop()
        owner = value.owner
        if expanded:  # every operand placed: a runnable order
            assert isinstance(owner, Operation)
            cone.ops.append(owner)
            continue
        known = cone.axes.get(value)
        if known is not None:
            if known != value_axes:
                return None  # two paths carry the scale along different axes
            continue
        if not isinstance(owner, Operation) or len(owner.results) != 1:
            return None
        cone.axes[value] = value_axes
        if pointwise_conv(owner, reader):
            if cone.source is not None or not set(value_axes) <= set(_CONV_POSITION_AXES):
                return None  # a second conv, or a scale along the batch
            cone.source = value
            continue
        operands = _operand_axes(owner, value_axes, reader)
        if operands is None:
            return None
        visiting.append((value, value_axes, True))
        visiting.extend((v, a, False) for v, a in operands)
    return cone if _closed(cone, multiply) else None


def _closed(cone: Cone, multiply: Operation) -> bool:
    """Are the conv's result and every decode value read only inside the cone (the
    decode changes for all its readers), all in the multiply's block?"""
    if cone.source is None:
        return False
    inside = set(cone.ops) | {multiply}
    if any(use.operation not in inside for op in cone.ops for use in op.results[0].uses):
        return False
    if any(use.operation not in inside for use in cone.source.uses):
        return False
    parent = multiply.parent_block()
    return all(op.parent_block() is parent for op in [*cone.ops, cone.source.owner])


def decode_at_zero(cone: Cone, reader: ConstantFolder) -> np.ndarray | None:
    """The decode's value when the conv's result is zero (its constant part)."""
    assert cone.source is not None
    shape = _shape(cone.source)
    assert shape is not None
    values: dict[SSAValue, np.ndarray] = {
        cone.source: np.zeros(shape, dtype=element_dtype(cone.source.type))}
    last: np.ndarray | None = values[cone.source]
    for op in cone.ops:
        operands: list[np.ndarray] = []
        for index, operand in enumerate(op.operands):
            known = values.get(operand)
            if known is None:
                is_init = isinstance(op, GenericOp) and index >= len(op.inputs)
                known = reader.init_value(operand) if is_init else reader.fold(operand)
            if known is None:
                return None
            operands.append(known)
        last = reader.apply(op, operands)
        if last is None:
            return None
        values[op.results[0]] = last
    return last


# ----------------------------------------------------------------------- the rewrite
def _widened(block: Block, value: SSAValue, element: Attribute) -> SSAValue:
    """`value` as `element` (an `extf` added to `block` when it is narrower)."""
    if value.type == element:
        return value
    widen = arith.ExtFOp(value, element)
    block.add_op(widen)
    return widen.result


def scaled_conv(conv: Conv2DNchwFchwOp, weight: np.ndarray, axes: tuple[int, ...], scale: np.ndarray,
                scale_element: Attribute, init: tuple[list[Operation], SSAValue]) -> list[Operation]:
    """The contraction generic computing `scale * conv` (module docstring): loops
    (n, f, h, w, c), the input read by (n, c, h, w), the filter as `[F, C]` by (f, c), the
    scale by the conv's result axes `axes`; the last op is the generic."""
    out_type, in_type, filter_type = conv.results[0].type, conv.inputs[0].type, conv.inputs[1].type
    assert isinstance(out_type, TensorType) and isinstance(in_type, TensorType)
    assert isinstance(filter_type, TensorType)
    element = out_type.get_element_type()
    f_count, c_count = weight.shape[:2]
    filter_2d = TensorType(filter_type.get_element_type(), [f_count, c_count])
    weight_op = dense_constant(weight.reshape(f_count, c_count).astype(element_dtype(filter_2d)), filter_2d)
    scale_type = TensorType(scale_element, list(scale.shape))
    scale_op = dense_constant(scale.astype(element_dtype(scale_type)), scale_type)
    n, f, h, w, c = (AffineExpr.dimension(i) for i in range(5))
    position = {1: f, 2: h, 3: w}
    maps = [AffineMap(5, 0, (n, c, h, w)), AffineMap(5, 0, (f, c)),
            AffineMap(5, 0, tuple(position[a] for a in axes)), AffineMap(5, 0, (n, f, h, w))]
    block = Block(arg_types=[in_type.get_element_type(), filter_2d.get_element_type(), scale_element, element])
    x_arg, k_arg, s_arg, acc = block.args
    k_wide, s_wide = _widened(block, k_arg, element), _widened(block, s_arg, element)
    plaintext = arith.MulfOp(k_wide, s_wide)  # W[f,c] * s: plaintext work, one weight
    block.add_op(plaintext)
    product = arith.MulfOp(_widened(block, x_arg, element), plaintext.result)
    total = arith.AddfOp(acc, product.result)
    block.add_ops([product, total, YieldOp(total.result)])
    init_ops, init_value = init
    generic = GenericOp(
        [conv.inputs[0], weight_op.result, scale_op.result], [init_value], Region(block),
        [AffineMapAttr(m) for m in maps], iterator_attrs(["parallel"] * 4 + ["reduction"]), [out_type],
    )
    return [weight_op, scale_op, *init_ops, generic]


class FoldPositionScaleIntoConv(OpPattern[Operation], OutsideGenericBodies):
    """Move a constant per-position multiply back through an affine decode into the 1x1
    conv before it, which becomes a contraction generic (module docstring).

        %d = conv_1x1(%p, %w); %x = decode(%d); %y = %x * %s[w]
      ->
        %d = generic(%p, %w, %s) {sum_c p * (w * s)}; %x = decode(%d); %y = %x + %k
    """

    op_types = (GenericOp, arith.MulfOp)

    def __init__(self, reader: ConstantFolder, rule: CostRule, pass_name: str = "linalg-fuse-linear-chains"):
        self.reader = reader
        self.rule = rule
        self.pass_name = pass_name

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op):
            return
        matched = match_position_scale(op, self.reader)
        if matched is None:
            return
        x, full = matched
        axes = scale_axes(full)
        if not axes:
            return  # a uniform scale costs no level (`heirpy.analysis.depth`)
        cone = cone_of(x, axes, op, self.reader)
        if cone is None or cone.source is None:
            return
        conv = cone.source.owner
        assert isinstance(conv, Conv2DNchwFchwOp)
        weight = self.reader.fold(conv.inputs[1])
        init = self.reader.init_value(conv.outputs[0])
        at_zero = decode_at_zero(cone, self.reader)
        out_shape = _shape(conv.results[0])
        if weight is None or init is None or at_zero is None or out_shape is None:
            return
        # The scale along the x axes that carry it, and on the conv's result.
        vector = full[tuple(slice(None) if a in axes else 0 for a in range(full.ndim))]
        conv_axes = cone.axes[cone.source]
        if tuple(out_shape[a] for a in conv_axes) != vector.shape:
            return
        positions = prod(out_shape[2:])
        f_count, c_count = weight.shape[:2]
        on_conv = vector.reshape([out_shape[a] if a in conv_axes else 1 for a in range(len(out_shape))])
        scaled_init = np.asarray(init, dtype=np.float64) * on_conv
        shift = (full - 1.0) * np.asarray(at_zero, dtype=np.float64)
        # Stored constants: the filter, the scale and the conv's init before; the same
        # filter and scale, the scaled init and the shift (a new constant) after.
        weights = f_count * c_count + vector.size
        cost = FusionCost(
            1, weights, weights, f_count * c_count * positions + int(full.size), 2 * f_count * c_count * positions,
            constants_before=weights + init_elements(np.asarray(init)),
            constants_after=weights + init_elements(scaled_init) + (init_elements(shift) if np.any(shift) else 0),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return
        out_type = conv.results[0].type
        assert isinstance(out_type, TensorType)
        if np.any(scaled_init != 0):
            init_pair = build_init(np.broadcast_to(scaled_init, out_shape).astype(element_dtype(out_type)), out_type)
        else:
            init_pair = ([], conv.outputs[0])
        scale_operand = op.operands[1] if op.operands[0] is x else op.operands[0]
        scale_tensor = scale_operand.type
        assert isinstance(scale_tensor, TensorType)
        scale_element = scale_tensor.get_element_type()
        new_ops = scaled_conv(conv, weight, conv_axes, vector, scale_element, init_pair)
        old_constants = [conv.inputs[1], conv.outputs[0], scale_operand]
        scaled = new_ops[-1].results[0]
        rewriter.replace(conv, new_ops, [scaled])
        if x is cone.source:  # no decode between: the conv's result is the multiply's input
            x = scaled
        if not np.any(shift != 0):
            rewriter.replace(op, [], [x])
        else:
            x_type = x.type
            assert isinstance(x_type, TensorType)
            shift_ops, shift_value = build_init(shift.astype(element_dtype(x_type)), x_type)
            rewriter.insert(shift_ops, InsertPoint.before(op))
            add = arith.AddfOp(x, shift_value)  # elementwise on tensors, as canonicalized
            rewriter.replace(op, [add], [add.result])
        erase_dead_constant_slices(rewriter, old_constants)
