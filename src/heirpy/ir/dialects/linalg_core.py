"""linalg's hand-written structured ops, with MLIR's custom forms and verifiers.

`linalg.fill`, `map`, `reduce`, `transpose` and `broadcast` (and `linalg.yield` /
`linalg.index`, which live in their bodies) parse, print and verify as MLIR's
`LinalgOps.cpp` does:

    %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 0]
    %r = linalg.reduce { arith.addf } ins(%a : tensor<2x3xf32>) outs(%i : tensor<2xf32>) dimensions = [1]
    %m:2 = linalg.reduce ins(%a, %j : ...) outs(%i, %k : ...) dimensions = [1]
      (%in: f32, %in_0: i64, %init: f32, %init_1: i64) { ... }

with MLIR's spacing, sorted attribute dictionaries after the op's own attribute, and the
short form `{ payload }` printed exactly when MLIR prints it. Each verifier reports
MLIR's message for what MLIR rejects (a permutation that is not one, a reduced shape that
is not the init's, a yield outside a linalg op, a fill value of another type).

`fill`, `transpose`, `broadcast`, `yield` and `index` subclass xDSL's classes (so
`isinstance` against xDSL's matches them, and xDSL's classes stay as they are for other
users of xDSL); they replace xDSL's verifier with MLIR's, after xDSL's operand and
attribute constraints. `map` and `reduce` are heirpy's own: MLIR's reduce takes several
inputs and inits, xDSL's only one.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    MemRefType,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as xops
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, OpTraits, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.dialects.linalg_structured import (
    PURE_ON_TENSORS,
    TensorSemanticsMemoryEffect,
    parse_operand_group,
    parse_result_types,
    print_operand_group,
    print_result_types,
    print_sorted_attr_dict,
)

TENSOR_OR_MEMREF = base(TensorType) | base(MemRefType)


# ----------------------------------------------------------------------------- shared checks
def pure_on_tensors(xdsl_op: type[IRDLOperation]) -> OpTraits:
    """`xdsl_op`'s traits plus `TensorSemanticsMemoryEffect`, for a subclass of an xDSL op
    (the analogue of an MLIR external interface model)."""
    return OpTraits(lambda: (*xdsl_op.traits, TensorSemanticsMemoryEffect()))


def element_or_self(type_: Attribute) -> Attribute:
    """MLIR's `getElementTypeOrSelf` for a tensor or memref; any other type itself."""
    return type_.get_element_type() if isinstance(type_, TensorType | MemRefType) else type_


def verify_destination_style(op: Operation, inits: Sequence[SSAValue]) -> None:
    """MLIR's DestinationStyleOpInterface: one result per tensor init, of its type."""
    tensor_inits = [v for v in inits if isinstance(v.type, TensorType)]
    for value in inits:
        if not isinstance(value.type, TensorType | MemRefType):
            raise VerifyException(f"expected that operand #{_operand_number(op, value)} is a tensor or a memref")
    tensor_results = [r for r in op.results if isinstance(r.type, TensorType)]
    if len(tensor_results) != len(tensor_inits):
        raise VerifyException(
            f"expected the number of tensor results ({len(tensor_results)}) to be equal to the "
            f"number of output tensors ({len(tensor_inits)})"
        )
    for init, result in zip(tensor_inits, tensor_results):
        if init.type != result.type:
            raise VerifyException(
                f"expected type of operand #{_operand_number(op, init)} ('{init.type}') to match type of "
                f"corresponding result ('{result.type}')"
            )


def _operand_number(op: Operation, value: SSAValue) -> int:
    return next(i for i, operand in enumerate(op.operands) if operand is value)


def linalg_inits(op: Operation) -> Sequence[SSAValue] | None:
    """The inits (outs) of a linalg op whose body a `linalg.yield` ends; None for other ops."""
    if isinstance(op, LinalgStructuredOperation | ReduceOp):
        return tuple(op.outputs)
    if isinstance(op, xops.BroadcastOp):
        return (op.init,)
    if isinstance(op, MapOp):
        return (op.init,)
    return None


def _dense_i64(parser: Parser, keyword: str) -> DenseArrayBase:
    """`keyword = [1, 2]`, the form MLIR's linalg ops give their i64 array attribute."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
    return DenseArrayBase.from_list(i64, values)


def _print_dense_i64(printer: Printer, keyword: str, values: Sequence[int]) -> None:
    printer.print_string(f" {keyword} = [{', '.join(map(str, values))}]")


def _identity_region(operands: Sequence[SSAValue]) -> Region:
    """The body of transpose and broadcast: yield the input element."""
    block = Block(arg_types=[element_or_self(v.type) for v in operands])
    block.add_op(xops.YieldOp(block.args[0]))
    return Region(block)


def _tensor_result_types(inits: Sequence[SSAValue]) -> list[Attribute]:
    return [v.type for v in inits if isinstance(v.type, TensorType)]


def _check_permutation(values: Sequence[int]) -> bool:
    return sorted(values) == list(range(len(values)))


def _strictly_increasing(values: Sequence[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:]))


# ----------------------------------------------------------------------------- yield / index
class LinalgYieldOp(xops.YieldOp):
    """`linalg.yield` as parsed: ends a linalg op's body with one value per init, of its
    element type.

    The dialect registers this class, so parsed yields are checked as MLIR checks them.
    Code builds and matches yields with xDSL's `YieldOp` (exported by `linalg.py` as
    `YieldOp`), which this class subclasses: bodies built by heirpy or by xDSL are
    xDSL's yields, and `isinstance(op, YieldOp)` matches both kinds.
    """

    def verify_(self) -> None:
        super().verify_()
        parent = self.parent_op()
        inits = None if parent is None else linalg_inits(parent)
        if inits is None:
            raise VerifyException("expected parent op with LinalgOp interface")
        if len(self.operands) != len(inits):
            raise VerifyException(
                f"expected number of yield values ({len(self.operands)}) to match the number of inits / "
                f"outs operands of the enclosing LinalgOp ({len(inits)})"
            )
        for number, (value, init) in enumerate(zip(self.operands, inits), 1):
            expected = element_or_self(init.type)
            if value.type != expected:
                raise VerifyException(
                    f"type of yield operand {number} ('{value.type}') doesn't match the element type of the "
                    f"enclosing linalg.generic op ('{expected}')"
                )


class LinalgIndexOp(xops.IndexOp):
    """`linalg.index` as parsed: a loop index of the enclosing linalg op (registered like
    `LinalgYieldOp`; build and match with xDSL's `IndexOp`).

    Pure, as in MLIR: xDSL's op declares no effects, so a dead generic that reads a loop
    index (torch's unused argmax) counted as having side effects and was never erased."""

    traits = OpTraits(lambda: (*xops.IndexOp.traits, Pure()))

    def verify_(self) -> None:
        super().verify_()
        parent = self.parent_op()
        if not isinstance(parent, LinalgStructuredOperation | ReduceOp) and (
            parent is None or linalg_inits(parent) is None
        ):
            raise VerifyException("expected parent op with LinalgOp interface")
        if isinstance(parent, LinalgStructuredOperation):
            loops = len(parent.get_iterator_types())
            if self.dim.value.data >= loops:
                raise VerifyException(
                    f"expected dim ({self.dim.value.data}) to be lower than the number of loops ({loops}) "
                    f"of the enclosing LinalgOp"
                )


# ----------------------------------------------------------------------------- fill
class FillOp(xops.FillOp):
    """`linalg.fill ins(%v : T) outs(%o : tensor<..xT>) -> tensor<..xT>`: every element is `%v`.

    MLIR's named-op form: attributes before `ins` (sorted), the value of the output's
    element type exactly (any type: a vector fills a tensor of vectors).
    """

    traits = pure_on_tensors(xops.FillOp)

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _identity_region((*inputs, *outputs))

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if len(self.inputs) != 1 or len(self.outputs) != 1:
            raise VerifyException("expected op with 1 input and 1 output")
        value, out = self.inputs[0], self.outputs[0]
        if isinstance(value.type, TensorType | MemRefType):  # a vector is a scalar here, as in MLIR
            raise VerifyException("expected op with scalar input")
        verify_destination_style(self, self.outputs)
        if value.type != element_or_self(out.type):
            raise VerifyException(
                f"expected fill value type ('{value.type}') to match output element type "
                f"('{element_or_self(out.type)}')"
            )

    @classmethod
    def parse(cls, parser: Parser) -> FillOp:
        attrs = dict(parser.parse_optional_attr_dict())
        inputs = parse_operand_group(parser, "ins")
        outputs = parse_operand_group(parser, "outs")
        attrs.update(parser.parse_optional_attr_dict())
        result_types = parse_result_types(parser)
        attrs.pop("operandSegmentSizes", None)
        return cls(inputs, outputs, result_types, attrs)

    def print(self, printer: Printer) -> None:
        print_sorted_attr_dict(printer, dict(self.attributes))
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        print_result_types(printer, [r.type for r in self.res])


# ----------------------------------------------------------------------------- transpose
class TransposeOp(xops.TransposeOp):
    """`linalg.transpose ins(%a : A) outs(%b : B) permutation = [..]`: `B[i] = A[perm(i)]`."""

    traits = pure_on_tensors(xops.TransposeOp)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if len(self.operands) != 2:
            raise VerifyException(f"expected 2 operands, but found {len(self.operands)}")
        permutation = self.permutation.get_values()
        if not _check_permutation(permutation):
            raise VerifyException("permutation is not valid")
        in_type, init_type = self.inputs[0].type, self.outputs[0].type
        assert isinstance(in_type, ShapedType) and isinstance(init_type, ShapedType)
        in_shape, init_shape = in_type.get_shape(), init_type.get_shape()
        if len(in_shape) != len(init_shape):
            raise VerifyException(f"input rank ({len(in_shape)}) does not match init rank ({len(init_shape)})")
        if len(permutation) != len(in_shape):
            raise VerifyException(
                f"size of permutation {len(permutation)} does not match the argument rank {len(in_shape)}"
            )
        for i, source in enumerate(permutation):
            if in_shape[source] != init_shape[i]:
                raise VerifyException(
                    f"dim(result, {i}) = {_dim(init_shape[i])} doesn't match dim(input, permutation[{i}]) = "
                    f"{_dim(in_shape[source])}"
                )
        verify_destination_style(self, self.outputs)

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        inputs, inits = _parse_dst_style(parser)
        permutation = _dense_i64(parser, "permutation")
        attrs = dict(parser.parse_optional_attr_dict())
        if len(inputs) != 1 or len(inits) != 1:
            parser.raise_error("'linalg.transpose' expects one input and one init")
        op = cls.create(
            operands=[inputs[0], inits[0]],
            result_types=_tensor_result_types(inits),
            properties={"permutation": permutation},
            attributes=attrs,
            regions=[_identity_region((inputs[0], inits[0]))],
        )
        return op

    def print(self, printer: Printer) -> None:
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        _print_dense_i64(printer, "permutation", self.permutation.get_values())
        print_sorted_attr_dict(printer, dict(self.attributes))


def _dim(size: int) -> str:
    """A size as MLIR's messages print it: a dynamic one is its int64 sentinel."""
    return str(size if size >= 0 else -(2**63))


def _parse_dst_style(parser: Parser) -> tuple[list[SSAValue], list[SSAValue]]:
    """MLIR's `parseDstStyleOp` prefix: `ins(...)`, `outs(...)` (the op's attribute follows)."""
    return parse_operand_group(parser, "ins"), parse_operand_group(parser, "outs")


# ----------------------------------------------------------------------------- broadcast
class BroadcastOp(xops.BroadcastOp):
    """`linalg.broadcast ins(%a : A) outs(%b : B) dimensions = [..]`: `B` is `A` with the listed dims added."""

    traits = pure_on_tensors(xops.BroadcastOp)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        dims = self.dimensions.get_values()
        in_type, init_type = self.input.type, self.init.type
        assert isinstance(in_type, ShapedType) and isinstance(init_type, ShapedType)
        in_shape, init_shape = in_type.get_shape(), init_type.get_shape()
        if len(in_shape) + len(dims) != len(init_shape):
            raise VerifyException(
                f"input rank plus added dimensions does not match init rank. input rank: {len(in_shape)}, "
                f"dimensions size: {len(dims)}, init rank: {len(init_shape)}"
            )
        for index, dim in enumerate(dims):
            if not 0 <= dim < len(init_shape):
                raise VerifyException(
                    f"dimension {index} is out of range. expected range: [0, {len(init_shape) - 1}], got: {dim}"
                )
        kept = [d for d in range(len(init_shape)) if d not in dims]
        for in_dim, init_dim in enumerate(kept):
            if in_shape[in_dim] != init_shape[init_dim]:
                raise VerifyException(
                    f"input dim {in_dim} should match init dim {init_dim}. input: {_dim(in_shape[in_dim])}, "
                    f"init: {_dim(init_shape[init_dim])}"
                )
        verify_destination_style(self, (self.init,))

    @classmethod
    def parse(cls, parser: Parser) -> BroadcastOp:
        inputs, inits = _parse_dst_style(parser)
        dimensions = _dense_i64(parser, "dimensions")
        attrs = dict(parser.parse_optional_attr_dict())
        if len(inputs) != 1 or len(inits) != 1:
            parser.raise_error("'linalg.broadcast' expects one input and one init")
        return cls.create(
            operands=[inputs[0], inits[0]],
            result_types=_tensor_result_types(inits),
            properties={"dimensions": dimensions},
            attributes=attrs,
            regions=[_identity_region((inputs[0], inits[0]))],
        )

    def print(self, printer: Printer) -> None:
        print_operand_group(printer, "ins", (self.input,))
        print_operand_group(printer, "outs", (self.init,))
        _print_dense_i64(printer, "dimensions", self.dimensions.get_values())
        print_sorted_attr_dict(printer, dict(self.attributes))


# ----------------------------------------------------------------------------- map
@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: applies its body elementwise to the inputs; every map is identity.

    The body takes one argument per input and one for the init (current MLIR). Older
    MLIR left out the init's; that form parses too and gains the argument, so the op
    always prints as today's MLIR does:

        %r = linalg.map { arith.addf } ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>)

    (the short form, when the body is one op on the inputs in order), else

        %r = linalg.map ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>)
          (%in: f32, %init_0: f32) {
            %s = arith.mulf %in, %in : f32
            linalg.yield %s : f32
          }
    """

    name = "linalg.map"
    inputs = var_operand_def(TENSOR_OR_MEMREF)
    init = operand_def(TENSOR_OR_MEMREF)
    res = var_result_def(TensorType)
    body = region_def("single_block")
    traits = PURE_ON_TENSORS

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        """The init, under the name other structured ops use for their outs."""
        return (self.init,)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(_shape(self.init))
        return ArrayAttr(AffineMapAttr(AffineMap.identity(rank)) for _ in self.operands)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(IteratorTypeAttr.parallel() for _ in _shape(self.init))

    def verify_(self) -> None:
        args = self.body.block.args
        if len(self.inputs) + 1 != len(args):
            raise VerifyException(
                f"expects number of operands to match the arity of mapper, but got: {len(self.inputs) + 1} "
                f"and {len(args)}"
            )
        for value, arg in zip(self.inputs, args):
            if element_or_self(value.type) != arg.type:
                raise VerifyException(
                    f"expected element type of input '{element_or_self(value.type)}' to match bbArg type '{arg.type}'"
                )
        out_shape = _shape(self.init)
        for value in self.inputs:
            if _shape(value) != out_shape:
                raise VerifyException(
                    f"expected shape of input ({_dims(_shape(value))}) to match shape of output "
                    f"({_dims(out_shape)})"
                )
        verify_destination_style(self, (self.init,))

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        payload = _parse_short_form_payload(parser)
        pos = parser.pos
        inputs, inits = _parse_dst_style(parser)
        attrs = dict(parser.parse_optional_attr_dict())
        if len(inits) != 1:
            parser.raise_error("'linalg.map' expects exactly one init in outs(...)", pos)
        if payload is None:
            args = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
            )
            body = parser.parse_region(args)
            if len(body.block.args) == len(inputs):
                # Older MLIR's body had no argument for the init; today's has one.
                body.block.insert_arg(element_or_self(inits[0].type), len(inputs))
        else:
            body = _payload_body(parser, payload, (*inputs, *inits), init_first=False, map_init=False)
        return cls.create(
            operands=[*inputs, inits[0]],
            result_types=_tensor_result_types(inits),
            attributes=attrs,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        payload = short_form_payload(self.body.block, init_first=False, map_init=False)
        if payload is not None:
            _print_short_form(printer, payload)
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", (self.init,))
        print_sorted_attr_dict(printer, dict(self.attributes))
        if payload is None:
            print_long_form_body(printer, self.body)




# ----------------------------------------------------------------------------- reduce
@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`linalg.reduce`: combines the inputs over `dimensions` into the inits.

        %r = linalg.reduce ins(%a : tensor<16x32xf32>) outs(%i : tensor<16xf32>) dimensions = [1]
          (%in: f32, %init: f32) {
            %s = arith.addf %in, %init : f32
            linalg.yield %s : f32
          }

    prints as `linalg.reduce { arith.addf } ins(...) outs(...) dimensions = [1]` (MLIR's
    short form: one payload op taking the init, then the inputs). Several inputs and
    inits (a value and its index, as torch's max with indices lowers) reduce together.
    """

    name = "linalg.reduce"
    inputs = var_operand_def(TENSOR_OR_MEMREF)
    inits = var_operand_def(TENSOR_OR_MEMREF)
    res = var_result_def(TensorType)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    combiner = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)
    traits = PURE_ON_TENSORS

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        inits: Sequence[SSAValue],
        dimensions: Sequence[int] | DenseArrayBase,
        combiner: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        if not isinstance(dimensions, DenseArrayBase):
            dimensions = DenseArrayBase.from_list(i64, list(dimensions))
        super().__init__(
            operands=[inputs, inits],
            result_types=[_tensor_result_types(inits)],
            properties={"dimensions": dimensions},
            attributes=attributes or {},
            regions=[combiner],
        )

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        """The inits, under the name other structured ops use for their outs."""
        return tuple(self.inits)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = self._input_rank()
        reduced = set(self.dimensions.get_values())
        kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in reduced)
        maps = [AffineMap.identity(rank)] * len(self.inputs) + [AffineMap(rank, 0, kept)] * len(self.inits)
        return ArrayAttr(AffineMapAttr(m) for m in maps)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        reduced = set(self.dimensions.get_values())
        return ArrayAttr(
            IteratorTypeAttr.reduction() if d in reduced else IteratorTypeAttr.parallel()
            for d in range(self._input_rank())
        )

    def _input_rank(self) -> int:
        in_type = self.inputs[0].type
        assert isinstance(in_type, ShapedType)
        return len(in_type.get_shape())

    def verify_(self) -> None:
        dims = self.dimensions.get_values()
        if not _strictly_increasing(dims):
            raise VerifyException(
                "attribute 'dimensions' failed to satisfy constraint: i64 dense array attribute should be "
                "in increasing order"
            )
        if len(self.inputs) != len(self.inits):
            raise VerifyException(
                f"expected equal number of inputs and outputs (required by SameVariadicOperandSize), got "
                f"{len(self.inputs)} input(s) and {len(self.inits)} output(s)"
            )
        if not self.inputs:
            raise VerifyException("expected at least one input")
        self._verify_shapes(dims)
        self._verify_block()
        verify_destination_style(self, self.inits)

    def _verify_shapes(self, dims: Sequence[int]) -> None:
        in_shapes = [_shape(v) for v in self.inputs]
        init_shapes = [_shape(v) for v in self.inits]
        for i, shape in enumerate(in_shapes[1:], 1):
            if shape != in_shapes[0]:
                raise VerifyException(
                    f"expects all inputs to have the same shapes. Shape at input-index {i} is not equal to "
                    f"the shape at input-index 0."
                )
        for i, shape in enumerate(init_shapes[1:], 1):
            if shape != init_shapes[0]:
                raise VerifyException(
                    f"expects all outputs to have the same shapes. Shape at output-index {i} is not equal to "
                    f"the shape at output-index 0."
                )
        rank = len(in_shapes[0])
        if any(not 0 <= d < rank for d in dims):
            raise VerifyException(f"dimensions for reduction should be in the range [0, {rank - 1}].")
        kept = [size for d, size in enumerate(in_shapes[0]) if d not in dims]
        if len(kept) != len(init_shapes[0]):
            raise VerifyException(
                f"number of dimensions after reduction {len(kept)} doesn't match the init rank "
                f"{len(init_shapes[0])}"
            )
        if tuple(kept) != init_shapes[0]:
            raise VerifyException(
                f"init dimensions [{_dims(init_shapes[0])}] doesn't match input dimensions after reduction "
                f"[{_dims(kept)}]"
            )

    def _verify_block(self) -> None:
        args = self.combiner.block.args
        if len(args) != len(self.operands):
            raise VerifyException("mismatching number of operands and block arguments")
        for value, arg in zip(self.inputs, args):
            if element_or_self(value.type) != arg.type:
                raise VerifyException(
                    f"input element type '{element_or_self(value.type)}' does not match corresponding block "
                    f"argument type '{arg.type}'"
                )
        for value, arg in zip(self.inits, args[len(self.inputs) :]):
            if element_or_self(value.type) != arg.type:
                raise VerifyException(
                    f"output element type '{element_or_self(value.type)}' does not match corresponding block "
                    f"argument type '{arg.type}'"
                )

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        payload = _parse_short_form_payload(parser)
        pos = parser.pos
        inputs, inits = _parse_dst_style(parser)
        if len(inputs) != len(inits):
            # MLIR's verifier message; the op cannot be built with unequal groups.
            parser.raise_error(
                f"'linalg.reduce' op expected equal number of inputs and outputs (required by "
                f"SameVariadicOperandSize), got {len(inputs)} input(s) and {len(inits)} output(s)",
                pos,
            )
        dimensions = _dense_i64(parser, "dimensions")
        attrs = dict(parser.parse_optional_attr_dict())
        if payload is None:
            args = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
            )
            combiner = parser.parse_region(args)
        else:
            # MLIR's reduce payload takes the init first, then the inputs.
            combiner = _payload_body(parser, payload, (*inputs, *inits), init_first=True)
        return cls(inputs, inits, dimensions, combiner, attrs)

    def print(self, printer: Printer) -> None:
        payload = short_form_payload(self.combiner.block, init_first=True)
        if payload is not None:
            _print_short_form(printer, payload)
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.inits)
        _print_dense_i64(printer, "dimensions", self.dimensions.get_values())
        print_sorted_attr_dict(printer, dict(self.attributes))
        if payload is None:
            print_long_form_body(printer, self.combiner)


def _shape(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, ShapedType)
    return tuple(value.type.get_shape())


def _dims(shape: Sequence[int]) -> str:
    return ", ".join(_dim(d) for d in shape)


# ----------------------------------------------------------------------------- short form
PayloadSpec = tuple[str, dict[str, Attribute], int]
"""A short form's payload: op name, its attributes, and where it was written."""


def _parse_short_form_payload(parser: Parser) -> PayloadSpec | None:
    """`{ arith.addf {attrs}? }` before `ins`, or None when the long form follows."""
    pos = parser.pos
    if not parser.parse_optional_punctuation("{"):
        return None
    name = parser.parse_identifier()
    attrs = dict(parser.parse_optional_attr_dict())
    parser.parse_punctuation("}")
    return name, attrs, pos


def _payload_body(
    parser: Parser, payload: PayloadSpec, operands: Sequence[SSAValue], *, init_first: bool, map_init: bool = True
) -> Region:
    """The body MLIR builds for a short form (`addBodyWithPayloadOp`)."""
    name, attrs, pos = payload
    op_def = parser.ctx.get_optional_op(name)
    if op_def is None:
        parser.raise_error(f"unknown operation '{name}' in the short form", pos)
    block = Block(arg_types=[element_or_self(v.type) for v in operands])
    args = list(block.args)
    if init_first:
        payload_args = [args[-1], *args[:-1]] if map_init else args[:-1]
    else:
        payload_args = args if map_init else args[:-1]
    result_type = element_or_self(operands[-1].type)
    properties = {k: v for k, v in attrs.items() if k in _property_names(op_def)}
    inner = op_def.create(
        operands=payload_args,
        result_types=[result_type],
        properties=properties,
        attributes={k: v for k, v in attrs.items() if k not in properties},
    )
    block.add_ops([inner, xops.YieldOp(inner.results[0])])
    return Region(block)


def _property_names(op_def: type[Operation]) -> frozenset[str]:
    if issubclass(op_def, IRDLOperation):
        return frozenset(op_def.get_irdl_definition().properties)
    return frozenset()


def short_form_payload(block: Block, *, init_first: bool, map_init: bool = True) -> Operation | None:
    """The payload op when MLIR prints the body in short form (`canUseShortForm`), else None."""
    ops = list(block.ops)
    if len(ops) != 2:
        return None
    payload, terminator = ops
    args = list(block.args)
    used = args if map_init else args[:-1]
    if not payload.operands or len(payload.operands) != len(used):
        return None
    if init_first:
        if payload.operands[-1] is not args[0]:
            return None
        expected = args[1:]
    else:
        expected = used
    if any(a is not b for a, b in zip(payload.operands, expected)):
        return None
    if len(terminator.operands) != 1 or terminator.operands[0].owner is not payload or len(payload.results) != 1:
        return None
    return payload


def _print_short_form(printer: Printer, payload: Operation) -> None:
    """` { arith.addf }`; a `fastmath<none>` is left out, as MLIR does."""
    printer.print_string(f" {{ {payload.name}")
    shown = {
        name: value
        for name, value in {**payload.properties, **payload.attributes}.items()
        if not (name == "fastmath" and str(value) == "#arith.fastmath<none>")
    }
    print_sorted_attr_dict(printer, shown)
    printer.print_string(" }")


def print_long_form_body(printer: Printer, body: Region) -> None:
    """MLIR's long form: the block arguments on a line of their own, then the region."""
    with printer.indented():
        printer.print_string("\n(")
        printer.print_list(body.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(body, print_entry_block_args=False)

