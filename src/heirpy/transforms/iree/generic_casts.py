"""Moving a float cast between a generic and the generics that read it (the IREE steps
`sink-widening-casts`, `narrow-rounded-reads`, `round-in-reductions`).

Each of those steps changes the element type one generic stores and puts the cast into
the body of each reader instead: what changes is which cast and which side. The two
moves they share:

    retyped_generic(%r : ..xf32 -> ..xf16)       the same generic, storing ..xf16
                                                  (its yield already yields an f16 value)
    cast_in_reader(reader, i, %v, arith.ExtFOp)   reader's input i is %v; its body casts the
                                                  block argument first, every other use of the
                                                  argument reading the cast; a `truncf` of
                                                  that widening back to the argument's type
                                                  reads the argument (exact)
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, TensorType
from xdsl.ir import Operation, SSAValue, Use
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import GenericOp


def not_by(op: Operation) -> Callable[[Use], bool]:
    """A use filter: every use except `op`'s."""
    return lambda use: use.operation is not op


def retyped_generic(op: GenericOp, new_type: TensorType, rewriter: PatternRewriter) -> GenericOp:
    """`op` rebuilt to store `new_type` into a fresh `tensor.empty`, its body moved over
    (the caller has made the body yield `new_type`'s element type and typed the output's
    block argument alike), inserted before `op`, which stays for the caller to erase."""
    empty = tensor.EmptyOp([], new_type)
    rebuilt = GenericOp(
        list(op.inputs), [empty.tensor], rewriter.move_region_contents_to_new_regions(op.body),
        list(op.indexing_maps), list(op.iterator_types), [new_type],
    )
    rebuilt.results[0].name_hint = op.results[0].name_hint
    rewriter.insert([empty, rebuilt], InsertPoint.before(op))
    return rebuilt


def cast_in_reader(reader: GenericOp, index: int, value: SSAValue, cast: type[arith.ExtFOp] | type[arith.TruncFOp],
                   rewriter: PatternRewriter) -> None:
    """Make `reader` read `value` as its operand `index` and cast it back, first thing in
    its body, to the element type the body read there before (`cast`: `arith.ExtFOp` when
    `value` is narrower, `arith.TruncFOp` when it is wider)."""
    value_type = value.type
    assert isinstance(value_type, TensorType)
    element = value_type.get_element_type()
    assert isinstance(element, AnyFloat)
    arg = reader.body.block.args[index]
    body_element = arg.type
    assert isinstance(body_element, AnyFloat)
    reader.operands[index] = value
    new_arg = Rewriter.replace_value_with_new_type(arg, element)
    converted = cast(new_arg, body_element)
    new_arg.replace_uses_with_if(converted.result, not_by(converted))
    rewriter.insert(converted, InsertPoint.at_start(reader.body.block))
    if cast is arith.ExtFOp:
        _drop_round_trips(converted, new_arg, rewriter)
    rewriter.handle_operation_modification(reader)


def _drop_round_trips(widened: Operation, narrow: SSAValue, rewriter: PatternRewriter) -> None:
    """Each `truncf(widened)` back to `narrow`'s type is `narrow` (`truncf(extf(v)) = v`):
    a reader that rounded the wide value it read now reads the rounding it rounded to.
    Left in, the round trip makes the reader's body differ from its twin's in a block that
    read the narrow value to begin with, and IREE does not fold it: LeViT-128S f16's first
    MLP of stages 2 and 3 compiled to executables of their own (64 against raw's 62)."""
    for use in list(widened.results[0].uses):
        user = use.operation
        if isinstance(user, arith.TruncFOp) and user.result.type == narrow.type:
            user.result.replace_all_uses_with(narrow)
            rewriter.erase(user)
    if not widened.results[0].uses:
        rewriter.erase(widened)
