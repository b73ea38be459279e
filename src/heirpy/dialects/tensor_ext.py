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
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    """`array<i64: ...>`."""
    return DenseArrayBase.from_list(i64, list(values))


def window_out_size(in_size: int, window: int, stride: int, dilation: int) -> int:
    """Output length of a VALID sliding window: how many positions fit in `in_size`."""
    span = dilation * (window - 1) + 1
    return (in_size - span) // stride + 1 if in_size >= span else 0


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
            element_types.add(operand_type.get_element_type())
        if len(element_types) != 1:
            raise VerifyException(f"expects one element type for all operands")
        if self.result.type != self.pool_init.type:
            raise VerifyException(
                f"expects the result type {self.result.type} to equal "
                f"'pool_init' type {self.pool_init.type}"
            )
        if self.divisor is not None and not isinstance(next(iter(element_types)), AnyFloat):
            raise VerifyException(f"only takes a 'divisor' on float tensors")
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


TensorExt = Dialect("tensor_ext", [FusedConvPoolOp], [])
