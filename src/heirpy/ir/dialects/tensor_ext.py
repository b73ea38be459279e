"""heirpy's `tensor_ext` dialect: ops that hold a fusion standard linalg cannot express.

Every op here has a lowering to standard linalg (`lower-tensor-ext`), so the output
of heirpy can always be handed to heir-opt or iree-opt.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    ShapedType,
    TensorType,
    f64,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.tensor import CollapseShapeOp, EmptyOp, ExpandShapeOp, ExtractSliceOp, InsertSliceOp
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, OpResult, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.utils import element_type, i64_array, window_out_size


def _shape_str(shape: Sequence[int]) -> str:
    return "x".join("?" if d < 0 else str(d) for d in shape)


@irdl_op_definition
class FusedConvPoolOp(IRDLOperation):
    """A 2-D NCHW convolution followed by a sum or average pool, as one op.

    Operands: `input` [N, C, H, W], `filter` [F, C, KH, KW], `conv_init` [N, F, H1, W1]
    (the conv's output operand: zeros, or the broadcast bias torch-mlir emits) and
    `pool_init` [N, F, H2, W2] (the pool's output operand, usually zeros). Attributes:
    `conv_strides`, `conv_dilations`, `pool_window` [PH, PW], `pool_strides`,
    `pool_dilations` (all `array<i64: a, b>`), and an optional float `divisor`.

    Semantics, exactly the ops it replaces:

        %c = linalg.conv_2d_nchw_fchw {strides = conv_strides, dilations = conv_dilations}
               ins(%input, %filter) outs(%conv_init)            // %c = conv_init + conv
        %p = linalg.pooling_nchw_sum {strides = pool_strides, dilations = pool_dilations}
               ins(%c, %window : tensor<PHxPW>) outs(%pool_init) // %p = pool_init + sum
        %r = %p / divisor                                        // only if divisor is set

    i.e. `r[n,f,y,x] = (pool_init[n,f,y,x] + sum_{py,px} c[n,f,y*t+py*e, x*t'+px*e']) / divisor`.
    An average pool is `divisor = PH*PW`; the divide applies to `pool_init` too, as it
    does after the pool. The result has `pool_init`'s type.

    The whole op is one linear map of `input` plus a constant: a conv with a composed
    filter of size `(KH-1)*dh + (PH-1)*e*sh + 1` and stride `sh*t` (see
    `lower-tensor-ext`). It stays an op, not a folded conv, so that non-constant filters
    fuse too; folding the filter is the lowering's job.
    """

    name = "tensor_ext.fused_conv_pool"

    input = operand_def(TensorType)
    filter = operand_def(TensorType)
    conv_init = operand_def(TensorType)
    pool_init = operand_def(TensorType)
    result = result_def(TensorType)

    conv_strides = prop_def(DenseArrayBase.constr(i64))
    conv_dilations = prop_def(DenseArrayBase.constr(i64))
    pool_window = prop_def(DenseArrayBase.constr(i64))
    pool_strides = prop_def(DenseArrayBase.constr(i64))
    pool_dilations = prop_def(DenseArrayBase.constr(i64))
    divisor = opt_prop_def(FloatAttr)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    assembly_format = (
        "attr-dict `ins` `(` $input `,` $filter `,` $conv_init `:` type($input) `,` "
        "type($filter) `,` type($conv_init) `)` `outs` `(` $pool_init `:` "
        "type($pool_init) `)` `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue,
        filter: SSAValue,
        conv_init: SSAValue,
        pool_init: SSAValue,
        *,
        conv_strides: Sequence[int] = (1, 1),
        conv_dilations: Sequence[int] = (1, 1),
        pool_window: Sequence[int],
        pool_strides: Sequence[int],
        pool_dilations: Sequence[int] = (1, 1),
        divisor: float | None = None,
    ):
        properties: dict[str, Attribute] = {
            "conv_strides": i64_array(conv_strides),
            "conv_dilations": i64_array(conv_dilations),
            "pool_window": i64_array(pool_window),
            "pool_strides": i64_array(pool_strides),
            "pool_dilations": i64_array(pool_dilations),
        }
        if divisor is not None:
            properties["divisor"] = FloatAttr(divisor, f64)
        super().__init__(
            operands=[input, filter, conv_init, pool_init],
            result_types=[pool_init.type],
            properties=properties,
        )

    # Accessors as plain tuples, which is what shape arithmetic wants.
    def int_values(self, name: str) -> tuple[int, ...]:
        attr = self.properties[name]
        assert isinstance(attr, DenseArrayBase)
        return tuple(int(v) for v in attr.get_values())

    def divisor_value(self) -> float | None:
        return None if self.divisor is None else float(self.divisor.value.data)

    def verify_(self) -> None:
        for name in ("conv_strides", "conv_dilations", "pool_window", "pool_strides", "pool_dilations"):
            values = self.int_values(name)
            if len(values) != 2 or any(v < 1 for v in values):
                raise VerifyException(
                    f"expects '{name}' to be two positive integers, got {list(values)}"
                )
        types = {
            "input": self.input.type,
            "filter": self.filter.type,
            "conv_init": self.conv_init.type,
            "pool_init": self.pool_init.type,
        }
        shapes: dict[str, tuple[int, ...]] = {}
        element_types: set[Attribute] = set()
        for operand_name, operand_type in types.items():
            assert isinstance(operand_type, ShapedType)
            shape = operand_type.get_shape()
            if len(shape) != 4:
                raise VerifyException(
                    f"expects operand '{operand_name}' to be a 4-D tensor, "
                    f"got {operand_type}"
                )
            shapes[operand_name] = shape
            element_types.add(element_type(operand_type))
        # One storage type (input, filter) and one accumulator type (both inits), as a
        # named conv casts its inputs to its output type: torch-mlir's f16 conv reads
        # f16 and accumulates in f32. The accumulator is never the narrower float.
        storage = {element_type(types["input"]), element_type(types["filter"])}
        accumulator = {element_type(types["conv_init"]), element_type(types["pool_init"])}
        if len(storage) != 1 or len(accumulator) != 1:
            raise VerifyException(
                "expects one element type for input and filter, and one for both inits"
            )
        (narrow,), (wide,) = storage, accumulator
        if narrow != wide and not (
            isinstance(narrow, AnyFloat) and isinstance(wide, AnyFloat) and narrow.bitwidth < wide.bitwidth
        ):
            raise VerifyException(
                f"expects the inits' element type {wide} to be the input's ({narrow}) or a wider float"
            )
        element_types = accumulator
        if self.result.type != self.pool_init.type:
            raise VerifyException(
                f"expects the result type {self.result.type} to equal "
                f"'pool_init' type {self.pool_init.type}"
            )
        if self.divisor is not None and not isinstance(next(iter(element_types)), AnyFloat):
            raise VerifyException("only takes a 'divisor' on float tensors")
        if any(d < 0 for shape in shapes.values() for d in shape):
            return  # dynamic sizes are only checked at run time
        self._verify_shapes(shapes)

    def _verify_shapes(self, shapes: dict[str, tuple[int, ...]]) -> None:
        n, c, h, w = shapes["input"]
        f, fc, kh, kw = shapes["filter"]
        if fc != c:
            raise VerifyException(
                f"expects operand 'filter' to have {c} input channels "
                f"(shape {f}x{c}x{kh}x{kw}), got {_shape_str(shapes['filter'])}"
            )
        (sh, sw), (dh, dw) = self.int_values("conv_strides"), self.int_values("conv_dilations")
        conv_shape = (n, f, window_out_size(h, kh, sh, dh), window_out_size(w, kw, sw, dw))
        if shapes["conv_init"] != conv_shape:
            raise VerifyException(
                f"expects operand 'conv_init' of shape {_shape_str(conv_shape)}, "
                f"got {_shape_str(shapes['conv_init'])}"
            )
        (ph, pw), (th, tw) = self.int_values("pool_window"), self.int_values("pool_strides")
        eh, ew = self.int_values("pool_dilations")
        pool_shape = (
            n,
            f,
            window_out_size(conv_shape[2], ph, th, eh),
            window_out_size(conv_shape[3], pw, tw, ew),
        )
        if shapes["pool_init"] != pool_shape:
            raise VerifyException(
                f"expects operand 'pool_init' of shape {_shape_str(pool_shape)}, "
                f"got {_shape_str(shapes['pool_init'])}"
            )


@irdl_op_definition
class KernelYieldOp(IRDLOperation):
    """`tensor_ext.yield`: the values a `tensor_ext.kernel` returns."""

    name = "tensor_ext.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


# The ops a kernel may run before its root: they compute the root's operands (a zero or
# broadcast-bias accumulator, a zero-padded input, a view). A code generator fuses them
# into the root's reads, so they never materialise on their own.
KERNEL_PROLOGUE_OPS: frozenset[str] = frozenset(
    {
        "arith.constant",
        "tensor.empty",
        "tensor.pad",
        "tensor.expand_shape",
        "tensor.collapse_shape",
        "linalg.fill",
        "linalg.broadcast",
    }
)


def is_kernel_root(op: Operation) -> bool:
    """A root is an op with a reduction: a linalg conv/matmul/... or `fused_conv_pool`."""
    if isinstance(op, FusedConvPoolOp):
        return True
    if not isinstance(op, LinalgStructuredOperation):
        return False
    return any(
        it.data == IteratorType.REDUCTION for it in op.get_iterator_types()
    )


def is_kernel_epilogue(op: Operation) -> bool:
    """An epilogue is a `linalg.generic` whose loops are all parallel."""
    return op.name == "linalg.generic" and all(
        it.data == IteratorType.PARALLEL for it in op.get_iterator_types()  # type: ignore[attr-defined]
    )


# After the epilogue, a store: views of the epilogue's result, then one insert_slice.
_STORE_OPS: frozenset[str] = frozenset(
    {"tensor.expand_shape", "tensor.collapse_shape", "tensor.insert_slice"}
)
_VIEWS: tuple[type[Operation], ...] = (ExpandShapeOp, CollapseShapeOp)


def _through_views(value: SSAValue) -> SSAValue:
    """`value` with the expand/collapse views that produce it peeled off."""
    while isinstance(value, OpResult) and isinstance(value.op, _VIEWS):
        value = value.op.operands[0]
    return value


def slice_position(op: ExtractSliceOp | InsertSliceOp) -> tuple[tuple[int, ...], ...] | None:
    """Static (offsets, sizes, strides), or None if any is dynamic."""
    if op.offsets or op.sizes or op.strides:
        return None
    return tuple(
        tuple(a.get_values()) for a in (op.static_offsets, op.static_sizes, op.static_strides)
    )


def _verify_store(block: Block, epilogue: Operation, insert: InsertSliceOp, terminator: KernelYieldOp) -> None:
    """A store writes the epilogue's result into a static slice of the destination; the
    epilogue's init is that same slice, or a `tensor.empty` (which MLIR's empty-tensor
    elimination turns into that slice, so the store is in place either way)."""
    dest = insert.dest
    if len(epilogue.results) != 1:
        raise VerifyException("expects an epilogue with one result when the kernel has a store")
    if not isinstance(dest, BlockArgument) or dest.block is not block:
        raise VerifyException("expects the store's destination to be an operand of the kernel")
    if _through_views(insert.source) not in tuple(epilogue.results):
        raise VerifyException("expects the store to write the epilogue's result (through views)")
    if tuple(terminator.values) != (insert.result,):
        raise VerifyException("expects 'tensor_ext.yield' to yield the store's result")
    init = _through_views(epilogue.operands[-1])  # a one-result generic's init is its last operand
    init_op = init.op if isinstance(init, OpResult) else None
    position = slice_position(insert)
    if position is None:
        raise VerifyException("expects the store to write a static slice (offsets, sizes, strides)")
    if isinstance(init_op, ExtractSliceOp) and init_op.source is dest:
        if position != slice_position(init_op):
            raise VerifyException("expects the store to write the same static slice its init was taken from")
    elif not isinstance(init_op, EmptyOp):
        raise VerifyException(
            f"expects the epilogue's init to be a slice of the store's destination (operand #{dest.index}) "
            "or a tensor.empty"
        )
    if any(use.operation not in (insert, init_op) for use in dest.uses):
        raise VerifyException(
            f"expects the store's destination (operand #{dest.index}) to be used only by the store and its slice"
        )


@irdl_op_definition
class KernelOp(IRDLOperation):
    """One kernel: a reduction root followed by a pointwise epilogue, like a dispatch region.

    Operands `ins` are the tensors (and scalars) the kernel reads; the single block takes
    one argument per operand, of the same type, and is isolated from above (so what a
    kernel reads is exactly its operands). The block holds, in order:

    * a prologue of operand-building ops (`arith.constant`, `tensor.empty`, `tensor.pad`,
      `tensor.expand_shape`, `tensor.collapse_shape`, `linalg.fill`, `linalg.broadcast`):
      the root's accumulator (zeros or a broadcast bias) and padded input;
    * exactly one *root*: an op with reduction loops (`linalg.conv_2d_nchw_fchw`,
      `linalg.matmul`, `linalg.batch_matmul`, ..., `tensor_ext.fused_conv_pool`);
    * exactly one *epilogue*: an all-parallel `linalg.generic` that reads the root's
      result (its only use), through any affine map -- this is where a reshape/transpose
      of the root's output is folded, e.g. `(d0, d1, d2, d3, d4) -> (d0, d1*85 + d4, d2, d3)`;
    * `tensor_ext.yield` of the epilogue's result, which is the kernel's result;
    * or, for a kernel that writes its slice of a larger tensor (destination-passing style,
      e.g. one YOLO head's part of a concatenation), a *store* instead: one operand is the
      destination; after the epilogue, views of its result and one `tensor.insert_slice`
      into the destination at static offsets, sizes and strides; the kernel yields that
      insert's result, the whole destination with the slice written. The epilogue's init
      is that slice (a `tensor.extract_slice` of the destination in the prologue at the
      same position, optionally viewed through expand/collapse) or a `tensor.empty`.

    Semantics: exactly those of the block's ops run in order with the block arguments bound
    to the operands, i.e. of its inlined body (that is what `lower-tensor-ext` produces: the
    root op plus one generic). The op only records that the root's result is consumed
    element by element by the epilogue and never materialised:

        %r = tensor_ext.kernel ins(%x, %w, %b : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>,
                                   tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
        ^bb0(%xi: tensor<1x8x4x4xf32>, %wi: tensor<6x8x1x1xf32>, %bi: tensor<6xf32>):
          %e = tensor.empty() : tensor<1x6x4x4xf32>
          %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
          %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : ...) outs(%acc : ...) -> tensor<1x6x4x4xf32>
          %o = tensor.empty() : tensor<1x2x4x4x3xf32>
          %s = linalg.generic {indexing_maps = [(d0,d1,d2,d3,d4) -> (d0, d1*3 + d4, d2, d3), id],
                               iterator_types = [5 x parallel]} ins(%c) outs(%o) { sigmoid }
          tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
        }

    With a store into the rows [16, 48) of a destination %d : tensor<1x80x3xf32>:

        ^bb0(%xi: ..., %wi: ..., %bi: ..., %di: tensor<1x80x3xf32>):
          ...
          %sl = tensor.extract_slice %di[0, 16, 0] [1, 32, 3] [1, 1, 1] : tensor<1x80x3xf32> to tensor<1x32x3xf32>
          %o = tensor.expand_shape %sl [[0], [1, 2, 3], [4]] output_shape [1, 2, 4, 4, 3] : ...
          %c = linalg.conv_2d_nchw_fchw ...
          %s = linalg.generic {...} ins(%c) outs(%o) { sigmoid }
          %f = tensor.collapse_shape %s [[0], [1, 2, 3], [4]] : tensor<1x2x4x4x3xf32> into tensor<1x32x3xf32>
          %r = tensor.insert_slice %f into %di[0, 16, 0] [1, 32, 3] [1, 1, 1] : ... into tensor<1x80x3xf32>
          tensor_ext.yield %r : tensor<1x80x3xf32>

    The destination is read only to be updated in place (`store_destination()` names the
    operand), so a chain of such kernels fills one buffer, as bufferization makes it.
    """

    name = "tensor_ext.kernel"

    inputs = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), RecursiveMemoryEffect())

    def __init__(self, inputs: Sequence[SSAValue], result_types: Sequence[Attribute], body: Region):
        super().__init__(operands=[inputs], result_types=[result_types], regions=[body])

    # -------------------------------------------------------------- structure
    def root(self) -> Operation | None:
        return next((op for op in self.body.block.ops if is_kernel_root(op)), None)

    def epilogue(self) -> Operation | None:
        return next((op for op in self.body.block.ops if is_kernel_epilogue(op)), None)

    def store(self) -> InsertSliceOp | None:
        """The `tensor.insert_slice` that writes the epilogue's result into the destination."""
        return next((op for op in self.body.block.ops if isinstance(op, InsertSliceOp)), None)

    def store_destination(self) -> int | None:
        """The operand the kernel's store writes into (updated in place), if it has a store."""
        store = self.store()
        if store is None or not isinstance(store.dest, BlockArgument):
            return None
        return store.dest.index

    def verify_(self) -> None:
        terminator = self._verify_signature()
        root, epilogue, after = self._verify_members(terminator)
        if len(root.results) != 1:
            raise VerifyException(f"expects the root '{root.name}' to have one result")
        root_value = root.results[0]
        if not any(operand is root_value for operand in epilogue.operands):
            raise VerifyException(
                f"expects the epilogue to read the root's result ({root_value.type})"
            )
        if any(use.operation is not epilogue for use in root_value.uses):
            raise VerifyException(
                f"expects the root's result ({root_value.type}) to be used only by the epilogue"
            )
        self._verify_result(epilogue, after, terminator)

    def _verify_result(self, epilogue: Operation, after: list[Operation], terminator: KernelYieldOp) -> None:
        """The kernel yields its epilogue's result, or the result of its store (`after`:
        the extract_slice of the prologue and the views and insert_slice after the epilogue)."""
        inserts = [op for op in after if isinstance(op, InsertSliceOp)]
        slices = [op for op in after if isinstance(op, ExtractSliceOp)]
        if len(slices) > 1 or (slices and not inserts):
            raise VerifyException(
                "allows 'tensor.extract_slice' only once, as the epilogue's init taken from a store's destination"
            )
        if not inserts:
            views = [op for op in after if not isinstance(op, ExtractSliceOp)]
            if views:
                raise VerifyException(f"does not allow '{views[0].name}' after the epilogue without a store")
            if tuple(terminator.values) != tuple(epilogue.results):
                raise VerifyException("expects 'tensor_ext.yield' to yield the epilogue's results")
            return
        if len(inserts) != 1:
            raise VerifyException(f"expects at most one store ('tensor.insert_slice'), found {len(inserts)}")
        _verify_store(self.body.block, epilogue, inserts[0], terminator)

    def _verify_signature(self) -> KernelYieldOp:
        """Block arguments match the operands and the yield matches the results."""
        block = self.body.block
        if len(block.args) != len(self.inputs):
            raise VerifyException(
                f"expects one block argument per operand ({len(self.inputs)}), "
                f"got {len(block.args)}"
            )
        for index, (arg, operand) in enumerate(zip(block.args, self.inputs)):
            if arg.type != operand.type:
                raise VerifyException(
                    f"expects block argument #{index} to have the type of operand #{index} "
                    f"({operand.type}), got {arg.type}"
                )
        terminator = block.last_op
        if not isinstance(terminator, KernelYieldOp):
            raise VerifyException("expects its body to end with 'tensor_ext.yield'")
        yielded = tuple(v.type for v in terminator.values)
        if yielded != tuple(r.type for r in self.res):
            raise VerifyException(
                f"expects 'tensor_ext.yield' to yield the result types "
                f"({', '.join(str(r.type) for r in self.res)}), got ({', '.join(map(str, yielded))})"
            )
        return terminator

    def _verify_members(self, terminator: Operation) -> tuple[Operation, Operation, list[Operation]]:
        """The body is prologue ops, one root, then one epilogue, then maybe a store:
        (root, epilogue, the store's ops: its prologue slice, views and insert_slice)."""
        roots: list[Operation] = []
        epilogues: list[Operation] = []
        store: list[Operation] = []
        for op in self.body.block.ops:
            if op is terminator:
                continue
            if is_kernel_root(op):
                roots.append(op)
            elif is_kernel_epilogue(op):
                if not roots:
                    raise VerifyException("expects the epilogue 'linalg.generic' after the root")
                epilogues.append(op)
            elif op.name in ("arith.constant", "tensor.empty"):
                continue  # no data movement: allowed anywhere, e.g. the epilogue's init
            elif (epilogues and op.name in _STORE_OPS) or (op.name == "tensor.extract_slice" and not roots):
                store.append(op)  # checked by _verify_result
            elif op.name not in KERNEL_PROLOGUE_OPS or roots:
                where = "after the root" if roots else "in its prologue"
                raise VerifyException(
                    f"does not allow '{op.name}' {where} (a kernel is prologue ops, "
                    f"one root with reduction loops, one all-parallel linalg.generic)"
                )
        if len(roots) != 1:
            raise VerifyException(
                f"expects exactly one root op with reduction loops (conv, matmul, "
                f"fused_conv_pool, ...), found {len(roots)}"
            )
        if len(epilogues) != 1:
            raise VerifyException(
                f"expects exactly one epilogue 'linalg.generic' with parallel loops, "
                f"found {len(epilogues)}"
            )
        return roots[0], epilogues[0], store

    # -------------------------------------------------------------- assembly
    def print(self, printer: Printer) -> None:
        printer.print_string(" ins(")
        printer.print_list(self.inputs, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list(self.inputs.types, printer.print_attribute)
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" attributes")
            printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        if len(self.res) == 1:
            printer.print_attribute(self.res[0].type)
        else:
            printer.print_string("(")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        pos = parser.pos
        parser.parse_characters("ins")
        parser.parse_punctuation("(")
        unresolved = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        ) or []
        types: list[Attribute] = []
        if unresolved:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        if len(types) != len(unresolved):
            parser.raise_error(
                f"expected {len(unresolved)} operand type(s), got {len(types)}", pos, parser.pos
            )
        inputs = parser.resolve_operands(unresolved, types, pos)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("("):
            result_types = parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_type, parser.parse_type
            ) or []
            parser.parse_punctuation(")")
        else:
            result_types = [parser.parse_type()]
        body = parser.parse_region()
        op = cls(inputs, result_types, body)
        if attributes is not None:
            op.attributes |= attributes.data
        return op


TensorExt = Dialect("tensor_ext", [FusedConvPoolOp, KernelOp, KernelYieldOp], [])
