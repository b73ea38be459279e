"""heirpy's `linalg` dialect: xDSL's linalg plus the ops real front ends emit.

The dialect is registered under the name `linalg`, so MLIR text from torch-mlir,
iree-import-onnx or heir-opt parses unchanged. It differs from xDSL 0.74's linalg in
four ways, each matching upstream MLIR:

* ops xDSL lacks: `pooling_nchw_sum`, `pooling_nhwc_sum`, `pooling_nhwc_max`,
  `pooling_ncw_sum`, `pooling_ncw_max`, `matvec`, `vecmat`, `batch_matmul`,
  `depthwise_conv_2d_nchw_chw`, `conv_1d_ncw_fcw`, `div` and `map`;
* `pooling_nchw_max` computes `max(out, in)` (xDSL's hidden body reads the window
  operand instead of the output);
* conv and pooling ops accept omitted `strides` / `dilations` (MLIR defaults them to
  splat 1) and keep whichever of `vector<Nxi64>` / `tensor<Nxi64>` the input used;
* every structured op whose operands are all tensors is side-effect free, so `dce`
  and `canonicalize` remove dead ones (on memrefs they keep unknown effects).
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    MemRefType,
    ShapedType,
)
from xdsl.dialects.linalg import attrs as linalg_attrs
from xdsl.dialects.linalg import ops as xops
from xdsl.dialects.linalg.abstract_ops import (
    ConvOperation,
    ElementwiseOperation,
    NamedOperation,
    PoolingOperation,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    OpTraits,
    Region,
    SSAValue,
)
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, get_effects
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.utils import element_type, int_values, splat_i64_vector

YieldOp = xops.YieldOp
IndexOp = xops.IndexOp
IteratorTypeAttr = linalg_attrs.IteratorTypeAttr


class TensorSemanticsMemoryEffect(MemoryEffect):
    """No side effects when every shaped operand is a tensor and the body is pure.

    A linalg op on tensors only produces new SSA values; on memrefs it reads and
    writes buffers, which we report as unknown so that nothing removes it.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance] | None:
        if any(isinstance(operand.type, MemRefType) for operand in op.operands):
            return None
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if isinstance(child, xops.YieldOp):
                        continue  # only forwards values
                    child_effects = get_effects(child)
                    if child_effects is None or child_effects:
                        return None
        return frozenset()


_PURE_ON_TENSORS = traits_def(TensorSemanticsMemoryEffect())


# --------------------------------------------------------------------------------------
# Shared helpers for ops with a sliding window (conv, pooling).
# --------------------------------------------------------------------------------------


def window_values(attr: Attribute | None, rank: int) -> tuple[int, ...]:
    """The strides or dilations of a window op, defaulting to 1 as MLIR does."""
    return (1,) * rank if attr is None else int_values(attr)


def _fill_window_defaults(op: IRDLOperation, rank: int) -> None:
    """Add MLIR's default `strides`/`dilations` (splat 1) where the text omitted them."""
    for name in ("strides", "dilations"):
        if name not in op.properties:
            op.properties[name] = splat_i64_vector(1, rank)


def _verify_window_attrs(op: IRDLOperation, rank: int) -> None:
    for name in ("strides", "dilations"):
        attr = op.properties.get(name)
        if not isinstance(attr, DenseIntOrFPElementsAttr) or not isinstance(
            attr.get_element_type(), IntegerType
        ):
            raise VerifyException(f"expects '{name}' to be a dense i64 array")
        shape = attr.get_shape()
        if shape != (rank,):
            raise VerifyException(
                f"expects '{name}' of shape [{rank}], got {list(shape)}"
            )
        if any(v < 1 for v in attr.get_values()):
            raise VerifyException(f"expects positive '{name}'")


def _dims(count: int) -> tuple[AffineDimExpr, ...]:
    return tuple(AffineDimExpr(i) for i in range(count))


def _window_index(
    out: AffineExpr, window: AffineExpr, stride: int, dilation: int
) -> AffineExpr:
    return out * stride + window * dilation


def _body_max(arg_types: Sequence[Attribute]) -> Region:
    """Hidden body `yield max(out, in)`, MLIR's pooling max."""
    is_float = isinstance(arg_types[-1], AnyFloat)
    max_op = arith.MaximumfOp if is_float else arith.MaxSIOp

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        YieldOp(max_op(args[-1], args[0]))

    return body


def _body_sum(arg_types: Sequence[Attribute]) -> Region:
    """Hidden body `yield out + in`, MLIR's pooling sum."""
    add = arith.AddfOp if isinstance(arg_types[-1], AnyFloat) else arith.AddiOp

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        YieldOp(add(args[-1], args[0]))

    return body


def _body_mul_acc(arg_types: Sequence[Attribute]) -> Region:
    """Hidden body `yield out + lhs * rhs`, MLIR's contractions and convs."""
    is_float = isinstance(arg_types[-1], AnyFloat)
    add, mul = (arith.AddfOp, arith.MulfOp) if is_float else (arith.AddiOp, arith.MuliOp)

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        YieldOp(add(args[2], mul(args[0], args[1])))

    return body


def _iterators(parallel: int, reduction: int) -> ArrayAttr[IteratorTypeAttr]:
    return ArrayAttr(
        (IteratorTypeAttr.parallel(),) * parallel + (IteratorTypeAttr.reduction(),) * reduction
    )


class WindowOpMixin:
    """Parse with MLIR's defaults for `strides`/`dilations` and verify their shape.

    `WINDOW_RANK` is the number of spatial dims (2 for `*_2d_*`/`pooling_nchw_*`).
    """

    WINDOW_RANK: ClassVar[int] = 2

    @classmethod
    def parse(cls, parser: Parser):
        op = super().parse(parser)  # type: ignore[misc]
        _fill_window_defaults(op, cls.WINDOW_RANK)
        return op

    def verify_(self) -> None:
        assert isinstance(self, IRDLOperation)
        _verify_window_attrs(self, self.WINDOW_RANK)
        super().verify_()  # type: ignore[misc]

    def window_strides(self) -> tuple[int, ...]:
        assert isinstance(self, IRDLOperation)
        return window_values(self.properties.get("strides"), self.WINDOW_RANK)

    def window_dilations(self) -> tuple[int, ...]:
        assert isinstance(self, IRDLOperation)
        return window_values(self.properties.get("dilations"), self.WINDOW_RANK)


# --------------------------------------------------------------------------------------
# xDSL's ops, reused with one difference: heirpy's classes add the tensor-semantics effect
# (the analogue of an MLIR external interface model). They subclass xDSL's, so xDSL's
# own passes and `isinstance` checks still match them, and xDSL's classes are left as
# they are for every other user of xDSL in the process.
# --------------------------------------------------------------------------------------


def _pure_on_tensors(xdsl_op: type[IRDLOperation]) -> OpTraits:
    """`xdsl_op`'s traits plus `TensorSemanticsMemoryEffect`."""
    return OpTraits(lambda: (*xdsl_op.traits, TensorSemanticsMemoryEffect()))


class GenericOp(xops.GenericOp):
    """xDSL's `linalg.generic`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.GenericOp)


class AddOp(xops.AddOp):
    """xDSL's `linalg.add`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.AddOp)


class SubOp(xops.SubOp):
    """xDSL's `linalg.sub`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.SubOp)


class MulOp(xops.MulOp):
    """xDSL's `linalg.mul`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.MulOp)


class ExpOp(xops.ExpOp):
    """xDSL's `linalg.exp`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.ExpOp)


class LogOp(xops.LogOp):
    """xDSL's `linalg.log`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.LogOp)


class SqrtOp(xops.SqrtOp):
    """xDSL's `linalg.sqrt`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.SqrtOp)


class SelectOp(xops.SelectOp):
    """xDSL's `linalg.select`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.SelectOp)


class FillOp(xops.FillOp):
    """xDSL's `linalg.fill`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.FillOp)


class CopyOp(xops.CopyOp):
    """xDSL's `linalg.copy`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.CopyOp)


class MaxOp(xops.MaxOp):
    """xDSL's `linalg.max`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.MaxOp)


class MinOp(xops.MinOp):
    """xDSL's `linalg.min`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.MinOp)


class TransposeOp(xops.TransposeOp):
    """xDSL's `linalg.transpose`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.TransposeOp)


class BroadcastOp(xops.BroadcastOp):
    """xDSL's `linalg.broadcast`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.BroadcastOp)


class ReduceOp(xops.ReduceOp):
    """xDSL's `linalg.reduce`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.ReduceOp)


class MatmulOp(xops.MatmulOp):
    """xDSL's `linalg.matmul`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.MatmulOp)


class QuantizedMatmulOp(xops.QuantizedMatmulOp):
    """xDSL's `linalg.quantized_matmul`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.QuantizedMatmulOp)


class Conv2DNgchwFgchwOp(xops.Conv2DNgchwFgchwOp):
    """xDSL's `linalg.conv_2d_ngchw_fgchw`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.Conv2DNgchwFgchwOp)


class Conv2DNgchwGfchwOp(xops.Conv2DNgchwGfchwOp):
    """xDSL's `linalg.conv_2d_ngchw_gfchw`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.Conv2DNgchwGfchwOp)


class Conv2DNhwc_FhwcOp(xops.Conv2DNhwc_FhwcOp):
    """xDSL's `linalg.conv_2d_nhwc_fhwc`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.Conv2DNhwc_FhwcOp)


class Conv2DNhwc_HwcfOp(xops.Conv2DNhwc_HwcfOp):
    """xDSL's `linalg.conv_2d_nhwc_hwcf`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.Conv2DNhwc_HwcfOp)


class Conv2DNhwgcGfhwcOp(xops.Conv2DNhwgcGfhwcOp):
    """xDSL's `linalg.conv_2d_nhwgc_gfhwc`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.Conv2DNhwgcGfhwcOp)


_REUSED_XDSL_OPS: tuple[type[IRDLOperation], ...] = (
    GenericOp,
    AddOp,
    SubOp,
    MulOp,
    ExpOp,
    LogOp,
    SqrtOp,
    SelectOp,
    FillOp,
    CopyOp,
    MaxOp,
    MinOp,
    TransposeOp,
    BroadcastOp,
    ReduceOp,
    MatmulOp,
    QuantizedMatmulOp,
    Conv2DNgchwFgchwOp,
    Conv2DNgchwGfchwOp,
    Conv2DNhwc_FhwcOp,
    Conv2DNhwc_HwcfOp,
    Conv2DNhwgcGfhwcOp,
)


@irdl_op_definition
class Conv2DNchwFchwOp(WindowOpMixin, ConvOperation):
    """`O[n, f, oh, ow] += I[n, c, oh*sh + kh*dh, ow*sw + kw*dw] * K[f, c, kh, kw]`.

    Loops (n, f, oh, ow, c, kh, kw); the last three are reductions. Replaces xDSL's
    op of the same name so that omitted strides/dilations default to 1.
    """

    name = "linalg.conv_2d_nchw_fchw"
    traits = _PURE_ON_TENSORS

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, oh, ow, c, kh, kw = _dims(7)
        (sh, sw), (dh, dw) = self.window_strides(), self.window_dilations()
        return (
            AffineMap(7, 0, (n, c, _window_index(oh, kh, sh, dh), _window_index(ow, kw, sw, dw))),
            AffineMap(7, 0, (f, c, kh, kw)),
            AffineMap(7, 0, (n, f, oh, ow)),
        )


# --------------------------------------------------------------------------------------
# Pooling.
# --------------------------------------------------------------------------------------


class _PoolingNchw(WindowOpMixin, PoolingOperation):
    """`O[n, c, oh, ow] = body(O, I[n, c, oh*sh + kh*dh, ow*sw + kw*dw])` over kh, kw.

    The second input only gives the window its shape [KH, KW]; its values are unused.
    """

    traits = _PURE_ON_TENSORS

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, c, oh, ow, kh, kw = _dims(6)
        (sh, sw), (dh, dw) = self.window_strides(), self.window_dilations()
        return (
            AffineMap(6, 0, (n, c, _window_index(oh, kh, sh, dh), _window_index(ow, kw, sw, dw))),
            AffineMap(6, 0, (kh, kw)),
            AffineMap(6, 0, (n, c, oh, ow)),
        )


@irdl_op_definition
class PoolingNchwMaxOp(_PoolingNchw):
    """Max pooling, NCHW: `O = max(O, I[...])` over the window (MLIR's operand order)."""

    name = "linalg.pooling_nchw_max"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _body_max(cls.body_arg_types((*inputs, *outputs)))


@irdl_op_definition
class PoolingNchwSumOp(_PoolingNchw):
    """Sum pooling, NCHW: `O += I[...]` over the window."""

    name = "linalg.pooling_nchw_sum"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _body_sum(cls.body_arg_types((*inputs, *outputs)))


class _PoolingNhwc(WindowOpMixin, PoolingOperation):
    """`O[n, oh, ow, c] = body(O, I[n, oh*sh + kh*dh, ow*sw + kw*dw, c])` over kh, kw."""

    traits = _PURE_ON_TENSORS

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = _dims(6)
        (sh, sw), (dh, dw) = self.window_strides(), self.window_dilations()
        return (
            AffineMap(6, 0, (n, _window_index(oh, kh, sh, dh), _window_index(ow, kw, sw, dw), c)),
            AffineMap(6, 0, (kh, kw)),
            AffineMap(6, 0, (n, oh, ow, c)),
        )


@irdl_op_definition
class PoolingNhwcMaxOp(_PoolingNhwc):
    """Max pooling, NHWC."""

    name = "linalg.pooling_nhwc_max"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _body_max(cls.body_arg_types((*inputs, *outputs)))


@irdl_op_definition
class PoolingNhwcSumOp(_PoolingNhwc):
    """Sum pooling, NHWC."""

    name = "linalg.pooling_nhwc_sum"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _body_sum(cls.body_arg_types((*inputs, *outputs)))


class _PoolingNcw(WindowOpMixin, PoolingOperation):
    """`O[n, c, ow] = body(O, I[n, c, ow*s + kw*d])` over kw (1-D pooling)."""

    WINDOW_RANK: ClassVar[int] = 1
    traits = _PURE_ON_TENSORS

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, c, ow, kw = _dims(4)
        (s,), (d,) = self.window_strides(), self.window_dilations()
        return (
            AffineMap(4, 0, (n, c, _window_index(ow, kw, s, d))),
            AffineMap(4, 0, (kw,)),
            AffineMap(4, 0, (n, c, ow)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(3, 1)


@irdl_op_definition
class PoolingNcwSumOp(_PoolingNcw):
    """Sum pooling, NCW (1-D)."""

    name = "linalg.pooling_ncw_sum"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _body_sum(cls.body_arg_types((*inputs, *outputs)))


@irdl_op_definition
class PoolingNcwMaxOp(_PoolingNcw):
    """Max pooling, NCW (1-D)."""

    name = "linalg.pooling_ncw_max"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _body_max(cls.body_arg_types((*inputs, *outputs)))


# --------------------------------------------------------------------------------------
# Convolutions xDSL lacks.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class DepthwiseConv2DNchwChwOp(WindowOpMixin, ConvOperation):
    """`O[n, c, oh, ow] += I[n, c, oh*sh + kh*dh, ow*sw + kw*dw] * K[c, kh, kw]`.

    Loops are (n, oh, ow, c, kh, kw) as in MLIR; kh and kw are reductions.
    """

    name = "linalg.depthwise_conv_2d_nchw_chw"
    traits = _PURE_ON_TENSORS

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = _dims(6)
        (sh, sw), (dh, dw) = self.window_strides(), self.window_dilations()
        return (
            AffineMap(6, 0, (n, c, _window_index(oh, kh, sh, dh), _window_index(ow, kw, sw, dw))),
            AffineMap(6, 0, (c, kh, kw)),
            AffineMap(6, 0, (n, c, oh, ow)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(4, 2)


@irdl_op_definition
class Conv1DNcwFcwOp(WindowOpMixin, ConvOperation):
    """`O[n, f, ow] += I[n, c, ow*s + kw*d] * K[f, c, kw]`; loops (n, f, ow, c, kw)."""

    name = "linalg.conv_1d_ncw_fcw"
    WINDOW_RANK: ClassVar[int] = 1
    traits = _PURE_ON_TENSORS

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, ow, c, kw = _dims(5)
        (s,), (d,) = self.window_strides(), self.window_dilations()
        return (
            AffineMap(5, 0, (n, c, _window_index(ow, kw, s, d))),
            AffineMap(5, 0, (f, c, kw)),
            AffineMap(5, 0, (n, f, ow)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(3, 2)


# --------------------------------------------------------------------------------------
# Contractions xDSL lacks.
# --------------------------------------------------------------------------------------


class _Contraction(NamedOperation):
    """A named `out += lhs * rhs` op with fixed maps; `MAPS` lists them per operand."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    NUM_LOOPS: ClassVar[int]
    NUM_REDUCTIONS: ClassVar[int] = 1
    traits = _PURE_ON_TENSORS

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _body_mul_acc(cls.body_arg_types((*inputs, *outputs)))

    @classmethod
    def operand_maps(cls, dims: tuple[AffineDimExpr, ...]) -> tuple[tuple[AffineExpr, ...], ...]:
        raise NotImplementedError

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        dims = _dims(self.NUM_LOOPS)
        return tuple(AffineMap(self.NUM_LOOPS, 0, exprs) for exprs in self.operand_maps(dims))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(self.NUM_LOOPS - self.NUM_REDUCTIONS, self.NUM_REDUCTIONS)

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException("expects 2 inputs and 1 output")
        super().verify_()


@irdl_op_definition
class MatvecOp(_Contraction):
    """`y[i] += A[i, j] * x[j]`; loops (i, j), j is the reduction."""

    name = "linalg.matvec"
    NUM_LOOPS: ClassVar[int] = 2

    @classmethod
    def operand_maps(cls, dims: tuple[AffineDimExpr, ...]) -> tuple[tuple[AffineExpr, ...], ...]:
        i, j = dims
        return ((i, j), (j,), (i,))


@irdl_op_definition
class VecmatOp(_Contraction):
    """`y[n] += x[m] * A[m, n]`; loops (n, m), m is the reduction."""

    name = "linalg.vecmat"
    NUM_LOOPS: ClassVar[int] = 2

    @classmethod
    def operand_maps(cls, dims: tuple[AffineDimExpr, ...]) -> tuple[tuple[AffineExpr, ...], ...]:
        n, m = dims
        return ((m,), (m, n), (n,))


@irdl_op_definition
class BatchMatmulOp(_Contraction):
    """`C[b, m, n] += A[b, m, k] * B[b, k, n]`; loops (b, m, n, k)."""

    name = "linalg.batch_matmul"
    NUM_LOOPS: ClassVar[int] = 4

    @classmethod
    def operand_maps(cls, dims: tuple[AffineDimExpr, ...]) -> tuple[tuple[AffineExpr, ...], ...]:
        b, m, n, k = dims
        return ((b, m, k), (b, k, n), (b, m, n))


# --------------------------------------------------------------------------------------
# Elementwise.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class DivOp(ElementwiseOperation):
    """Elementwise `out = lhs / rhs` (divf for floats, divsi for integers)."""

    name = "linalg.div"
    traits = _PURE_ON_TENSORS

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(div(args[0], args[1]))

        return body


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: applies its body elementwise to the inputs; every map is identity.

    MLIR's body takes one argument per input (older MLIR) or per input plus the init
    (current MLIR); both parse, and the init argument is added when missing, so the
    op always prints in current MLIR's long form:

        %r = linalg.map ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
                        outs(%init : tensor<4xf32>)
          (%x: f32, %y: f32, %unused: f32) {
            %s = arith.addf %x, %y : f32
            linalg.yield %s : f32
          }

    The short form `linalg.map { arith.addf } ins(...) outs(...)` parses too.
    """

    name = "linalg.map"
    inputs = var_operand_def()
    init = operand_def(ShapedType)
    res = var_result_def()
    body = region_def("single_block")
    traits = _PURE_ON_TENSORS

    def get_indexing_maps(self) -> ArrayAttr:
        from xdsl.dialects.builtin import AffineMapAttr

        rank = self._rank()
        return ArrayAttr(
            AffineMapAttr(AffineMap.identity(rank)) for _ in range(len(self.operands))
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(self._rank(), 0)

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        """The init, under the name other structured ops use for their outs."""
        return (self.init,)

    def _rank(self) -> int:
        out_type = self.init.type
        assert isinstance(out_type, ShapedType)
        return len(out_type.get_shape())

    def verify_(self) -> None:
        out_type = self.init.type
        assert isinstance(out_type, ShapedType)
        for index, operand in enumerate(self.inputs):
            in_type = operand.type
            if not isinstance(in_type, ShapedType) or in_type.get_shape() != out_type.get_shape():
                raise VerifyException(
                    f"expects input #{index} to have the init's shape "
                    f"{list(out_type.get_shape())}, got {in_type}"
                )
        args = self.body.block.args
        if len(args) not in (len(self.inputs), len(self.inputs) + 1):
            raise VerifyException(
                f"body expects {len(self.inputs)} argument(s) (one per "
                f"input, optionally one more for the init), got {len(args)}"
            )

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ins(")
            printer.print_list(self.inputs, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.inputs.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" outs(")
        printer.print_ssa_value(self.init)
        printer.print_string(" : ")
        printer.print_attribute(self.init.type)
        printer.print_string(")")
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string("\n")
        with printer.indented():
            printer.print_string("(", indent=0)
            printer.print_list(self.body.block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.body, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        short_form_op: str | None = None
        short_form_pos = parser.pos
        if parser.parse_optional_punctuation("{"):
            short_form_op = parser.parse_identifier()
            parser.parse_punctuation("}")
        pos = parser.pos
        ins: Sequence[SSAValue] = ()
        if parser.parse_optional_characters("ins"):
            ins = _parse_operand_group(parser, pos)
        pos = parser.pos
        parser.parse_characters("outs")
        outs = _parse_operand_group(parser, pos)
        attrs = parser.parse_optional_attr_dict()
        if short_form_op is None:
            args = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN,
                lambda: parser.parse_argument(expect_type=True),
            )
            region = parser.parse_region(args)
        else:
            region = _short_form_body(parser, short_form_op, ins, outs, short_form_pos)
        # Current MLIR gives the body one argument per input AND one for the init;
        # older MLIR omitted the init's. Normalise to the current form, which both
        # the evaluator and today's mlir-opt/heir-opt accept.
        out_type = outs[0].type
        if len(region.block.args) == len(ins) and isinstance(out_type, ShapedType):
            region.block.insert_arg(element_type(out_type), len(ins))
        on_tensors = isinstance(outs[0].type, ShapedType) and not isinstance(outs[0].type, MemRefType)
        result_types = [outs[0].type] if on_tensors else []
        if len(outs) != 1:
            parser.raise_error("'linalg.map' expects exactly one init in outs(...)", pos)
        return cls.build(
            operands=(ins, outs[0]),
            result_types=(result_types,),
            attributes=attrs,
            regions=(region,),
        )


def _parse_operand_group(parser: Parser, pos: int) -> Sequence[SSAValue]:
    parser.parse_punctuation("(")
    unresolved = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(unresolved, types, pos)


def _short_form_body(
    parser: Parser,
    op_name: str,
    ins: Sequence[SSAValue],
    outs: Sequence[SSAValue],
    start: int,
) -> Region:
    """Body for `linalg.map { arith.addf }`: one op applied to the input elements."""
    element_types = NamedOperation.body_arg_types(ins)
    op_def = parser.ctx.get_optional_op(op_name)
    if op_def is None:
        parser.raise_error(f"unknown operation '{op_name}' in linalg.map short form", start)
    block = Block(arg_types=element_types)
    out_type = outs[0].type
    assert isinstance(out_type, ShapedType)
    inner = op_def.create(operands=list(block.args), result_types=[element_type(out_type)])
    block.add_ops([inner, YieldOp(inner.results[0])])
    return Region(block)


Linalg = Dialect(
    "linalg",
    [
        *_REUSED_XDSL_OPS,
        YieldOp,
        IndexOp,
        DivOp,
        MapOp,
        MatvecOp,
        VecmatOp,
        BatchMatmulOp,
        PoolingNchwMaxOp,
        PoolingNchwSumOp,
        PoolingNhwcMaxOp,
        PoolingNhwcSumOp,
        PoolingNcwSumOp,
        PoolingNcwMaxOp,
        Conv2DNchwFchwOp,
        DepthwiseConv2DNchwChwOp,
        Conv1DNcwFcwOp,
    ],
    [IteratorTypeAttr],
)
