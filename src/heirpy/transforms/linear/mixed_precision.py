"""torch-mlir's mixed-precision half form, normalised so the linear-op patterns see f32.

torch-mlir exports a `.half()` model with f16 storage and f32 arithmetic around the
linear ops: a conv or matmul reads f16 and accumulates into an f32 init, a `truncf`
generic rounds its result to f16; batch norm widens that f16 again (`arith.extf` in its
first generic's body), computes in f32 with its f16 constants widened in each body, and
rounds once more at the end; an average pool sums the rounded f16 values into an f16
init and divides in f16. The linear-op patterns match one form (an op whose result is
read directly, single-op bodies), so in this form nothing folds.

The mixed-precision rule: a linear run is computed in the accumulator type the exporter
chose for it (f32), and rounded to the storage type (f16/bf16) once, where the run ends
(before a nonlinearity, a return or anything else these patterns do not know). A
`truncf` whose value only goes on into more linear arithmetic is moved past it:

* `WidenLinearOpInput`: a conv / matmul accumulating in f32 that reads `truncf(y)` reads
  `y` (a named op casts its inputs to its output type; only the rounding goes).
* `WidenSumPool`: a sum pool of `truncf(y)` into a zero (or constant) f16 init sums `y`
  into an f32 init; a `truncf` follows it.
* `NarrowUnusedWidening` (run last, after the folds): a conv / matmul left with a wide
  input and a narrow filter (a widening no fold used) reads the narrow value again.
* `WidenElementwise`: an elementwise generic of add/sub/mul/div/neg (and `extf`) whose
  inputs are `truncf(y)` or constants computes in f32: it reads `y`, its f16 constants
  are widened outside the body (an `extf` generic of the constant, which constant
  folding evaluates), a captured f16 scalar becomes an f32 scalar, and a `truncf`
  follows when its result was f16.
* `WidenRunBeforeExtf` (the other direction): an `extf` of a narrow linear step's result
  (a sum pool or reduction into a constant init, an elementwise op affine in its one
  runtime operand, a reshape) moves to the step's input and the step computes wide:
  torch-mlir's f16 global average pool (f16 sum, f16 divide, flatten, then the Linear's
  `extf`) becomes an f32 pool that folds into the Linear as in f32.

    %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<..xf16>, ..) outs(%b : tensor<..xf32>)
    %t = linalg.generic ins(%c : ..xf32) outs(.. : ..xf16) { truncf }
    %s = linalg.generic ins(%t, %mean : ..xf16, ..xf32) outs(.. : ..xf32) { extf; subf }
  ->
    %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<..xf16>, ..) outs(%b : tensor<..xf32>)
    %s = linalg.generic ins(%c, %mean : ..xf32, ..xf32) outs(.. : ..xf32) { subf }

The values computed differ from the input's only by the roundings removed (each at most
half an f16 ulp of an intermediate), so the output is at least as close to the exact
result. Folding then happens in f32 (float64 in numpy) and each folded constant is
rounded to the type its operand had: weights stay f16, a conv's init stays f32.
Nothing else is widened: an f16 function argument, a relu, a sigmoid keep their type.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, FloatAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.linalg import (
    FillOp,
    GenericOp,
    PoolingNchwSumOp,
    YieldOp,
)
from heirpy.ir.utils import affine_maps, all_parallel, is_identity, iterator_attrs
from heirpy.transforms.linear.constant_folding import is_compile_time_constant
from heirpy.transforms.linear.linear_match import LINEAR_OP_TYPES, match_sum_reduction
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, in_generic_body

_LINEAR_BODY_OPS = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.NegfOp)


def _float_width(element: Attribute) -> int | None:
    return element.bitwidth if isinstance(element, AnyFloat) else None


def cast_type(value: SSAValue) -> TensorType:
    assert isinstance(value.type, TensorType)
    return value.type


def _element(value: SSAValue) -> Attribute | None:
    return value.type.get_element_type() if isinstance(value.type, TensorType) else None


def _single_cast_body(op: GenericOp, cast: type[Operation]) -> bool:
    """Is `op` an identity-mapped, parallel, one-input generic whose body is one `cast`
    of its input?"""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.res) != 1:
        return False
    if not all_parallel(op.iterator_types) or not all(is_identity(m) for m in affine_maps(op.indexing_maps)):
        return False
    body = list(op.body.block.ops)
    return (
        len(body) == 2
        and isinstance(body[0], cast)
        and body[0].operands[0] is op.body.block.args[0]
        and isinstance(body[1], YieldOp)
        and body[1].operands[0] is body[0].results[0]
        and op.inputs[0].type.get_shape() == op.res[0].type.get_shape()  # type: ignore[attr-defined]
    )


def truncf_source(value: SSAValue) -> SSAValue | None:
    """`y` when `value` is `truncf(y)`, elementwise (a one-op generic or `arith.truncf` on
    tensors) from a wider float; None otherwise."""
    return _cast_source(value, arith.TruncFOp, source_wider=True)


def _cast_source(value: SSAValue, cast: type[Operation], source_wider: bool) -> SSAValue | None:
    """The operand of the float cast `cast` that computes `value` elementwise (a one-op
    generic or the arith op on tensors), when the operand's float is wider
    (`source_wider`) or narrower than the result's; None otherwise."""
    owner = value.owner
    source: SSAValue | None = None
    if isinstance(owner, GenericOp) and _single_cast_body(owner, cast):
        source = owner.inputs[0]
    elif isinstance(owner, cast) and isinstance(value.type, TensorType):
        source = owner.operands[0]
    if source is None:
        return None
    result, operand = _element(value), _element(source)
    result_bits = _float_width(result) if result else None
    operand_bits = _float_width(operand) if operand else None
    if result_bits is None or operand_bits is None or result_bits == operand_bits:
        return None
    return source if (operand_bits > result_bits) == source_wider else None


def cast_generic(
    value: SSAValue, element: Attribute, cast: type[arith.ExtFOp] | type[arith.TruncFOp]
) -> list[Operation]:
    """`tensor.empty` and an identity generic casting `value` elementwise to `element`
    (torch-mlir's form of an `extf` / `truncf` of a tensor)."""
    type_ = value.type
    assert isinstance(type_, TensorType)
    result_type = TensorType(element, type_.get_shape())
    empty = tensor.EmptyOp([], result_type)
    block = Block(arg_types=[type_.get_element_type(), element])
    cast_op = cast(block.args[0], element)
    block.add_ops([cast_op, YieldOp(cast_op.results[0])])
    rank = len(type_.get_shape())
    identity = AffineMapAttr(AffineMap.identity(rank))
    generic = GenericOp(
        [value], [empty.tensor], Region(block), [identity, identity],
        iterator_attrs(["parallel"] * rank), [result_type],
    )
    return [empty, generic]


class WidenLinearOpInput(OpPattern[Operation], OutsideGenericBodies):
    """A linear op accumulating in a wider type reads its input before the `truncf`.

        %t = linalg.generic ins(%y : tensor<1x4x8x8xf32>) outs(..) { truncf } -> ..xf16
        %c = linalg.conv_2d_nchw_fchw ins(%t, %w : ..xf16, ..xf16) outs(%b : ..xf32)
      ->
        %c = linalg.conv_2d_nchw_fchw ins(%y, %w : ..xf32, ..xf16) outs(%b : ..xf32)

    Legality: `y`'s element type is the op's output element type (the op casts its
    inputs to that type, so only the rounding goes)."""

    op_types = LINEAR_OP_TYPES

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or len(op.operands) != 3:
            return
        accumulator = _element(op.results[0])
        inputs = list(op.operands[:2])
        for index, value in enumerate(inputs):
            source = truncf_source(value)
            if source is not None and _element(source) == accumulator:
                inputs[index] = source
        if inputs == list(op.operands[:2]):
            return
        # A new op, not new operands: a named op's body takes its operands' types.
        build: Callable[..., Operation] = type(op)  # a named linalg op: (ins, outs, res)
        widened = build(
            inputs, [op.operands[2]], [op.results[0].type],
            attributes=dict(op.attributes), properties=dict(op.properties),
        )
        rewriter.replace(op, widened)


def extf_source(value: SSAValue) -> SSAValue | None:
    """`x` when `value` is `extf(x)`, elementwise (a one-op generic or `arith.extf` on
    tensors) from a narrower float; None otherwise."""
    return _cast_source(value, arith.ExtFOp, source_wider=False)


class NarrowUnusedWidening(OpPattern[Operation], OutsideGenericBodies):
    """A linear op with mixed narrow / wide data operands reads both narrow again.

    `WidenLinearOpInput` moves a `truncf` past a conv / matmul so that folds see f32;
    where no fold then used it, the op is left reading an f32 input with an f16 filter,
    a form torch-mlir never writes and back ends reject (IREE's im2col of a 1x1 conv).
    Run after the folds, this restores torch-mlir's form: narrow operands, wide
    accumulator.

        %c = linalg.conv_2d_nchw_fchw ins(%y, %w : ..xf32, ..xf16) outs(%b : ..xf32)
      ->
        %t = linalg.generic ins(%y : ..xf32) outs(..) { truncf } -> ..xf16
        %c = linalg.conv_2d_nchw_fchw ins(%t, %w : ..xf16, ..xf16) outs(%b : ..xf32)

    and a wide operand that is `extf(x)` of the narrow type reads `x` itself (no
    rounding: `x` is exact in both types).

    Legality: two data operands of different float types, the wider one the
    accumulator's type and computed at run time, the narrower one a compile-time
    constant (the weight; a wide constant matrix with a narrow runtime vector, as
    `legalize-for-heir` writes, is left alone). The values computed are the input's: the rounding put back is
    the one `WidenLinearOpInput` took away (a fold that used the widening leaves a
    uniform op, or rounds its folded input once where the input rounded at least once).
    Pools are not linear ops here (their window operand is a shape, not data)."""

    op_types = LINEAR_OP_TYPES

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or len(op.operands) != 3:
            return
        accumulator = _element(op.results[0])
        elements = [_element(v) for v in op.operands[:2]]
        widths = [_float_width(e) if e is not None else None for e in elements]
        if None in widths or elements[0] == elements[1] or widths[0] == widths[1]:
            return
        wide_index = 0 if widths[0] > widths[1] else 1  # type: ignore[operator]
        narrow = elements[1 - wide_index]
        if elements[wide_index] != accumulator or narrow is None:
            return
        inputs = list(op.operands[:2])
        wide_value = inputs[wide_index]
        if is_compile_time_constant(wide_value) or not is_compile_time_constant(inputs[1 - wide_index]):
            return  # not a runtime input with a narrow weight (e.g. a wide matrix, narrow vector)
        source = extf_source(wide_value)
        pre: list[Operation] = []
        if source is not None and _element(source) == narrow:
            inputs[wide_index] = source
        else:
            pre = cast_generic(wide_value, narrow, arith.TruncFOp)
            inputs[wide_index] = pre[-1].results[0]
        build: Callable[..., Operation] = type(op)  # a named linalg op: (ins, outs, res)
        narrowed = build(
            inputs, [op.operands[2]], [op.results[0].type],
            attributes=dict(op.attributes), properties=dict(op.properties),
        )
        rewriter.insert(pre, InsertPoint.before(op))
        rewriter.replace(op, narrowed)


class WidenSumPool(OpPattern[PoolingNchwSumOp], OutsideGenericBodies):
    """A sum pool of rounded values sums the wide values, rounding once after.

        %t = linalg.generic ins(%y : ..xf32) { truncf } -> ..xf16
        %z = linalg.fill ins(%c0 : f16) outs(..) -> tensor<1x4x4x4xf16>
        %p = linalg.pooling_nchw_sum ins(%t, %win) outs(%z) -> tensor<1x4x4x4xf16>
      ->
        %z = linalg.fill ins(%c0' : f32) outs(..) -> tensor<1x4x4x4xf32>
        %p = linalg.pooling_nchw_sum ins(%y, %win) outs(%z) -> tensor<1x4x4x4xf32>
        %r = linalg.generic ins(%p) { truncf } -> tensor<1x4x4x4xf16>

    Legality: the init is a `linalg.fill` of a constant scalar."""

    op_types = (PoolingNchwSumOp,)

    def rewrite(self, op: PoolingNchwSumOp, rewriter: PatternRewriter) -> None:
        source = truncf_source(op.operands[0])
        fill = op.operands[2].owner
        if source is None or not isinstance(fill, FillOp):
            return
        scalar = fill.operands[0].owner
        if not isinstance(scalar, arith.ConstantOp) or not isinstance(scalar.value, FloatAttr):
            return
        wide = _element(source)
        result_type = op.results[0].type
        assert isinstance(wide, AnyFloat) and isinstance(result_type, TensorType)
        wide_type = TensorType(wide, result_type.get_shape())
        zero = arith.ConstantOp(FloatAttr(scalar.value.value.data, wide))
        empty = tensor.EmptyOp([], wide_type)
        wide_fill = FillOp([zero.result], [empty.tensor], [wide_type])
        pool = PoolingNchwSumOp(
            [source, op.operands[1]], [wide_fill.results[0]], [wide_type],
            properties=dict(op.properties),
        )
        narrow = cast_generic(pool.results[0], result_type.get_element_type(), arith.TruncFOp)
        rewriter.insert([zero, empty, wide_fill, pool, *narrow], InsertPoint.before(op))
        rewriter.replace(op, [], [narrow[-1].results[0]])


class WidenElementwise(OpPattern[GenericOp], OutsideGenericBodies):
    """An elementwise linear generic of rounded values or constants computes wide.

        %t = linalg.generic ins(%c : ..xf32) { truncf } -> ..xf16
        %s = linalg.generic ins(%t, %mean : ..xf16, 4x1x1xf32) outs(.. : ..xf32)
               { %e = extf %in; %r = subf %e, %m; yield %r }
        %m = linalg.generic ins(%s, %g : ..xf32, 4x1x1xf16) outs(.. : ..xf32)
               { %e = extf %g; %r = mulf %in, %e; yield %r }
      ->
        %s = linalg.generic ins(%c, %mean) outs(.. : ..xf32) { subf }
        %gw = linalg.generic ins(%g : 4x1x1xf16) { extf } -> 4x1x1xf32  // folded later
        %m = linalg.generic ins(%s, %gw) outs(.. : ..xf32) { mulf }

    Legality: parallel loops, one output read through the identity and not read by the
    body; body ops add/sub/mul/div/neg/extf only; every input narrower than the wide type
    is `truncf(y)` of it or a compile-time constant, every captured narrow scalar an
    `arith.constant`; at least one input is such a `truncf(y)` or one constant is widened
    in the body (otherwise there is nothing to do)."""

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or len(op.outputs) != 1 or len(op.res) != 1:
            return
        maps = affine_maps(op.indexing_maps)
        if not all_parallel(op.iterator_types) or not is_identity(maps[-1]):
            return
        block = op.body.block
        if block.args[len(op.inputs)].uses:
            return
        body = list(block.ops)
        if not all(isinstance(o, (*_LINEAR_BODY_OPS, arith.ExtFOp)) for o in body[:-1]):
            return
        if not any(isinstance(o, _LINEAR_BODY_OPS) for o in body):
            return  # a lone extf (of a constant: folded as it is) has no arithmetic to widen
        wide = self._wide_type(op, body)
        if wide is None:
            return
        new_inputs, pre_ops, changed = self._widen_inputs(op, wide)
        if new_inputs is None or not changed:
            return
        new_block = self._wide_body(op, new_inputs, wide, pre_ops)
        if new_block is None:
            return
        out_type = op.res[0].type
        assert isinstance(out_type, TensorType)
        wide_type = TensorType(wide, out_type.get_shape())
        empty = tensor.EmptyOp([], wide_type)
        generic = GenericOp(
            new_inputs, [empty.tensor], Region(new_block),
            [AffineMapAttr(m) for m in maps], op.iterator_types, [wide_type],
        )
        post: list[Operation] = []
        if out_type.get_element_type() != wide:
            post = cast_generic(generic.results[0], out_type.get_element_type(), arith.TruncFOp)
        rewriter.insert([*pre_ops, empty, generic, *post], InsertPoint.before(op))
        rewriter.replace(op, [], [(post[-1] if post else generic).results[0]])

    @staticmethod
    def _wide_body(
        op: GenericOp, new_inputs: list[SSAValue], wide: AnyFloat, pre_ops: list[Operation]
    ) -> Block | None:
        """The body of `op` computing in `wide` on `new_inputs`: each extf of a wide
        value dropped, each binary/unary op rebuilt (its result type follows its
        operands'), captured narrow scalars widened (their constants go to `pre_ops`)."""
        block = op.body.block
        body = list(block.ops)
        new_block = Block(arg_types=[cast_type(v).get_element_type() for v in new_inputs] + [wide])
        mapping: dict[SSAValue, SSAValue] = dict(zip(block.args[: len(op.inputs)], new_block.args))
        for inner in body[:-1]:
            operands = [WidenElementwise._wide_value(v, mapping, wide, pre_ops) for v in inner.operands]
            wide_operands = [v for v in operands if v is not None and v.type == wide]
            if len(wide_operands) != len(operands):
                return None
            if isinstance(inner, arith.ExtFOp):
                mapping[inner.results[0]] = wide_operands[0]
                continue
            build: Callable[..., Operation] = type(inner)  # an arith float op: (operands...)
            new_op = build(*wide_operands)
            new_block.add_op(new_op)
            mapping[inner.results[0]] = new_op.results[0]
        result = WidenElementwise._wide_value(body[-1].operands[0], mapping, wide, pre_ops)
        if result is None:
            return None
        new_block.add_op(YieldOp(result))
        return new_block

    @staticmethod
    def _wide_type(op: GenericOp, body: list[Operation]) -> AnyFloat | None:
        """The one wider float the generic should compute in: a `truncf` source's type or
        a body `extf`'s result type; None when there is none, or more than one."""
        candidates = {_element(s) for s in (truncf_source(v) for v in op.inputs) if s is not None}
        candidates |= {o.results[0].type for o in body if isinstance(o, arith.ExtFOp)}
        if len(candidates) != 1:
            return None
        (wide,) = candidates
        return wide if isinstance(wide, AnyFloat) else None

    @staticmethod
    def _widen_inputs(
        op: GenericOp, wide: Attribute
    ) -> tuple[list[SSAValue] | None, list[Operation], bool]:
        """Each input at the wide type, the ops making them, and whether any changed."""
        width = _float_width(wide)
        inputs: list[SSAValue] = []
        pre: list[Operation] = []
        changed = False
        for value in op.inputs:
            element = _element(value)
            bits = _float_width(element) if element is not None else None
            if bits is None or width is None or bits > width:
                return None, [], False
            if bits == width:
                inputs.append(value)
                continue
            source = truncf_source(value)
            if source is not None and _element(source) == wide:
                inputs.append(source)
            elif is_compile_time_constant(value):
                ops = cast_generic(value, wide, arith.ExtFOp)
                pre += ops
                inputs.append(ops[-1].results[0])
            else:
                return None, [], False
            changed = True
        return inputs, pre, changed

    @staticmethod
    def _wide_value(
        value: SSAValue, mapping: dict[SSAValue, SSAValue], wide: AnyFloat, pre: list[Operation]
    ) -> SSAValue | None:
        """`value` (a body value or one captured from outside) at the wide type."""
        if value in mapping:
            return mapping[value]
        if isinstance(value, BlockArgument):
            return None  # the init's argument: refused above
        if value.type == wide:
            return value
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr):
            constant = arith.ConstantOp(FloatAttr(owner.value.value.data, wide))
            pre.append(constant)
            mapping[value] = constant.result
            return constant.result
        return None


_AFFINE_BINARY = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp)


def _affine_in(operands: list[bool], op: Operation) -> bool | None:
    """Pure: how the result of `op` (add/sub/mul/div/neg) depends on the runtime value
    x, given which of its operands depend on x (`operands`): True affinely, False not at
    all (constants only), None not affinely (x * x, K / x)."""
    if isinstance(op, arith.MulfOp) and all(operands):
        return None
    if isinstance(op, arith.DivfOp) and operands[1]:
        return None
    return any(operands)


def _one_runtime_input(values: list[SSAValue]) -> int | None:
    """The index of the one operand not computed from constants, or None."""
    runtime = [i for i, v in enumerate(values) if not is_compile_time_constant(v)]
    return runtime[0] if len(runtime) == 1 else None


def _affine_generic_body(op: GenericOp, runtime: int) -> bool:
    """Is the elementwise generic `op` an affine map of its input `runtime` (read through
    the identity, at the result's shape), its body add/sub/mul/div/neg only?"""
    maps = affine_maps(op.indexing_maps)
    if not all_parallel(op.iterator_types) or not is_identity(maps[-1]) or not is_identity(maps[runtime]):
        return False
    if cast_type(op.inputs[runtime]).get_shape() != cast_type(op.res[0]).get_shape():
        return False
    block = op.body.block
    if block.args[len(op.inputs)].uses:
        return False
    depends: set[SSAValue] = {block.args[runtime]}
    body = list(block.ops)
    for inner in body[:-1]:
        if not isinstance(inner, (*_AFFINE_BINARY, arith.NegfOp)):
            return False
        reads = _affine_in([v in depends for v in inner.operands], inner)
        if reads is None:
            return False
        if reads:
            depends.add(inner.results[0])
    return body[-1].operands[0] in depends


class WidenRunBeforeExtf(OpPattern[Operation], OutsideGenericBodies):
    """An `extf` of a narrow linear step's result widens the step: the step computes in
    the wide type on its widened input, and the `extf` moves to that input.

    torch-mlir writes an f16 global average pool as an f16 sum and an f16 divide; the
    Linear after it widens the pooled value (`extf`) and multiplies in f32. The linear
    chain pool -> divide -> flatten -> Linear is then broken by the cast. Applied until
    the `extf` reaches the start of the run, the chain is f32 throughout and fuses as in
    f32:

        %s = linalg.generic {.. reduction ..} ins(%x : tensor<1x8x2x2xf16>) outs(%z16) { addf }
        %d = arith.divf %s, %four : tensor<1x8x1x1xf16>
        %f = tensor.collapse_shape %d [[0], [1, 2, 3]] : tensor<1x8x1x1xf16> into tensor<1x8xf16>
        %e = arith.extf %f : tensor<1x8xf16> to tensor<1x8xf32>
        %m = linalg.matmul ins(%e, %w : tensor<1x8xf32>, tensor<8x4xf32>) ..
      -> (three applications)
        %xw = linalg.generic ins(%x : ..xf16) outs(.. : ..xf32) { extf }
        %s = linalg.generic {.. reduction ..} ins(%xw : tensor<1x8x2x2xf32>) outs(%z32) { addf }
        %d = arith.divf %s, %four32 : tensor<1x8x1x1xf32>   // %four32: extf of %four
        %f = tensor.collapse_shape %d [[0], [1, 2, 3]] : .. into tensor<1x8xf32>
        %m = linalg.matmul ins(%f, %w : tensor<1x8xf32>, tensor<8x4xf32>) ..

    The steps: a sum reduction generic (`linear_match.match_sum_reduction`) or a
    `linalg.pooling_nchw_sum` into a constant init; an elementwise op affine in its one
    runtime operand (`arith` add/sub/mul/div/neg on tensors, or a generic whose body is
    built of them, the runtime input read through the identity), its constants widened
    (an `extf` generic of each, which constant folding evaluates; a captured scalar
    becomes a wide scalar); a `tensor.collapse_shape` / `expand_shape`. The step's
    result has no other user (the narrow value is not needed elsewhere). The values
    differ from the input's only by the f16 roundings of the step removed, so the
    output is at least as close to the exact result; `extf` is exact, so the new input
    cast changes nothing."""

    op_types = (GenericOp, arith.ExtFOp)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or in_generic_body(op):
            return
        narrow = extf_source(op.results[0])
        wide = _element(op.results[0])
        if narrow is None or not isinstance(wide, AnyFloat) or not narrow.has_one_use():
            return
        step = narrow.owner
        if not isinstance(step, Operation):
            return
        built = _widen_step(step, wide)
        if built is None:
            return
        ops, result = built
        rewriter.insert(ops, InsertPoint.before(step))
        rewriter.replace(op, [], [result])
        rewriter.erase(step)


def _widen_step(step: Operation, wide: AnyFloat) -> tuple[list[Operation], SSAValue] | None:
    """The ops computing `step` in `wide` on widened operands, and its wide result;
    None when `step` is not one of `WidenRunBeforeExtf`'s linear steps."""
    if len(step.results) != 1:
        return None
    narrow_type = cast_type(step.results[0])
    wide_type = TensorType(wide, narrow_type.get_shape())
    if isinstance(step, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        pre = cast_generic(step.operands[0], wide, arith.ExtFOp)
        reshape = type(step).create(
            operands=[pre[-1].results[0], *step.operands[1:]], result_types=[wide_type],
            properties=dict(step.properties), attributes=dict(step.attributes),
        )
        return [*pre, reshape], reshape.results[0]
    if isinstance(step, (*_AFFINE_BINARY, arith.NegfOp)):
        runtime = _one_runtime_input(list(step.operands))
        if runtime is None or _affine_in([i == runtime for i in range(len(step.operands))], step) is None:
            return None
        pre, operands = _widened(list(step.operands), wide)
        arith_op = type(step).create(
            operands=operands, result_types=[wide_type],
            properties=dict(step.properties), attributes=dict(step.attributes),
        )
        return [*pre, arith_op], arith_op.results[0]
    if isinstance(step, PoolingNchwSumOp):
        return _widen_sum(step, [step.operands[0]], wide_type)
    if isinstance(step, GenericOp) and match_sum_reduction(step) is not None:
        return _widen_sum(step, list(step.inputs), wide_type)
    if isinstance(step, GenericOp) and len(step.outputs) == 1 and len(step.res) == 1:
        runtime = _one_runtime_input(list(step.inputs))
        if runtime is None or not _affine_generic_body(step, runtime):
            return None
        pre, inputs = _widened(list(step.inputs), wide)
        block = WidenElementwise._wide_body(step, inputs, wide, pre)
        if block is None:
            return None
        empty = tensor.EmptyOp([], wide_type)
        generic = GenericOp(
            inputs, [empty.tensor], Region(block), step.indexing_maps.data, step.iterator_types,
            [wide_type],
        )
        return [*pre, empty, generic], generic.results[0]
    return None


def _widened(values: list[SSAValue], wide: AnyFloat) -> tuple[list[Operation], list[SSAValue]]:
    """Each of `values` cast to `wide` (an `extf` generic, or the value when it is wide
    already), and the ops doing it."""
    ops: list[Operation] = []
    result: list[SSAValue] = []
    for value in values:
        if _element(value) == wide:
            result.append(value)
            continue
        cast = cast_generic(value, wide, arith.ExtFOp)
        ops += cast
        result.append(cast[-1].results[0])
    return ops, result


def _widen_sum(
    step: Operation, summed: list[SSAValue], wide_type: TensorType
) -> tuple[list[Operation], SSAValue] | None:
    """A sum (pool or reduction generic) of `summed` widened, into a wide copy of its
    constant init (a fill of a scalar constant, or any compile-time constant)."""
    init = step.operands[-1]
    wide = wide_type.get_element_type()
    assert isinstance(wide, AnyFloat)
    fill = init.owner
    scalar = fill.operands[0].owner if isinstance(fill, FillOp) else None
    pre: list[Operation]
    if isinstance(scalar, arith.ConstantOp) and isinstance(scalar.value, FloatAttr):
        zero = arith.ConstantOp(FloatAttr(scalar.value.value.data, wide))
        empty = tensor.EmptyOp([], wide_type)
        wide_fill = FillOp([zero.result], [empty.tensor], [wide_type])
        pre, wide_init = [zero, empty, wide_fill], wide_fill.results[0]
    elif is_compile_time_constant(init):
        pre = cast_generic(init, wide, arith.ExtFOp)
        wide_init = pre[-1].results[0]
    else:
        return None
    cast_ops, inputs = _widened(summed, wide)
    pre += cast_ops
    if isinstance(step, PoolingNchwSumOp):
        new: Operation = PoolingNchwSumOp(
            [inputs[0], step.operands[1]], [wide_init], [wide_type], properties=dict(step.properties),
        )
    else:
        assert isinstance(step, GenericOp)
        block = Block(arg_types=[wide, wide])
        add = arith.AddfOp(block.args[0], block.args[1])
        block.add_ops([add, YieldOp(add.result)])
        new = GenericOp(
            inputs, [wide_init], Region(block), step.indexing_maps.data, step.iterator_types, [wide_type],
        )
    return [*pre, new], new.results[0]


def populate_mixed_precision_patterns() -> list[PatternSet]:
    """The normalisation every linear-fusion pass runs first (a no-op on f32 IR)."""
    return [PatternSet.of(WidenLinearOpInput(), WidenSumPool(), WidenElementwise(), WidenRunBeforeExtf())]


def populate_narrow_unused_widening_patterns() -> list[PatternSet]:
    """Run last by every pass that runs `populate_mixed_precision_patterns`: what no fold
    used goes back to narrow operands (a no-op on f32 IR and on uniform ops)."""
    return [PatternSet.of(NarrowUnusedWidening())]


def multiply_accumulate_block(input_element: Attribute, weight_element: Attribute, acc_element: Attribute) -> Block:
    """The body of a contraction generic: `acc + x * w`, each factor of another element
    type than the accumulator's first widened to it (`arith.extf`), as a named matmul or
    conv does with torch-mlir's f16 operands and f32 accumulator."""
    block = Block(arg_types=[input_element, weight_element, acc_element])
    x_arg, w_arg, acc = block.args
    factors: list[SSAValue] = []
    for arg in (x_arg, w_arg):
        if arg.type != acc_element:
            widen = arith.ExtFOp(arg, acc_element)
            block.add_op(widen)
            factors.append(widen.result)
        else:
            factors.append(arg)
    product = arith.MulfOp(factors[0], factors[1])
    total = arith.AddfOp(acc, product.result)
    block.add_ops([product, total, YieldOp(total.result)])
    return block
