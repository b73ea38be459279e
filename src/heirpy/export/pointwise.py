"""What an elementwise op computes of its activations: `(s0*x0 [+ s1*x1] + b) [** 2]`.

An exporter must know exactly what an elementwise op does before it maps it to layers.
The op's structure decides the form, evaluation decides the numbers:

1. Walking the body, each value gets a degree in the activations: block arguments of
   activation operands 1, everything else 0; `+ - neg` keep the degree, `*` adds
   degrees, `/` by an activation-free value keeps it. Any other op on an activation-
   dependent value (max, exp, compare, ...) means the op is no polynomial: rejected.
2. A polynomial of degree <= 2 in one or two variables is fixed by its values at a few
   points, so heirpy's evaluator runs the op with the activations set to 0, +1, -1
   (and (1, 1) for two) and reads per-element coefficients from the results. A degree-2
   result must be the square of an affine map: its fitted `s`, `b` must reproduce every
   evaluated point, else it is rejected.

So a fused batch-norm epilogue `((x - mean) * inv_std * gamma + beta) ** 2` reads as
per-element scale / shift arrays and `squared`, whatever order the body computes in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.traits import IsTerminator

from heirpy.interp.evaluator import Evaluator
from heirpy.ir.utils import affine_maps, all_parallel, is_identity, op_degree, static_shape

MAX_DEGREE = 2
# torch-mlir's f16 form widens to f32 and rounds back around each op: a cast keeps the
# degree (the network computes the polynomial the rounded IR approximates).
_CASTS = frozenset({"arith.extf", "arith.truncf"})

_NOT_A_SQUARE = "is a quadratic that is not the square of an affine map; Orion's Quad computes x * x only"


@dataclass(frozen=True)
class PointwiseForm:
    """`(sum_i scales[i] * x_i + shift) ** (2 if squared else 1)` for the op's one or
    two activation operands x_i; arrays have the op's result shape."""

    scales: tuple[np.ndarray, ...]
    shift: np.ndarray
    squared: bool


def pointwise_form(op: Operation, activations: set[SSAValue], evaluator: Evaluator) -> PointwiseForm | str:
    """What `op` computes of its operands in `activations`, or why it is no such form
    (a message for the user). Evaluates `op` in the evaluator's current frame, which
    must hold its plaintext operands."""
    variables = list(dict.fromkeys(v for v in op.operands if v in activations))
    if len(variables) > 2:
        return "reads more than two activations"
    degree = _degree(op, variables)
    if isinstance(degree, str):
        return degree
    if degree > MAX_DEGREE:
        return f"is a polynomial of degree {degree} in the activation; Orion's layers go up to x * x"
    shapes = [shape for v in variables if (shape := static_shape(v.type)) is not None]
    if len(shapes) != len(variables):
        return "reads a dynamically shaped activation"

    def at(*point: float) -> np.ndarray:
        for value, shape, coordinate in zip(variables, shapes, point):
            evaluator.bind(value, np.full(shape, coordinate, dtype=np.float32))
        evaluator.eval_op(op)
        return evaluator.value(op.results[0], op).astype(np.float64)

    if degree <= 1:
        origin = at(*_unit(-1, len(variables)))
        scales = tuple(at(*_unit(i, len(variables))) - origin for i in range(len(variables)))
        return PointwiseForm(scales, origin, False)
    return _fit_square(at, len(variables))


def _unit(i: int, count: int, sign: float = 1.0) -> tuple[float, ...]:
    return tuple(sign if j == i else 0.0 for j in range(count))


def _fit_square(at: Callable[..., np.ndarray], count: int) -> PointwiseForm | str:
    """`(s.x + b)^2` in one or two variables, from the op's values `at(*point)`."""

    def unit(i: int, sign: float = 1.0) -> tuple[float, ...]:
        return _unit(i, count, sign)

    zero = unit(-1)
    origin = at(*zero)
    # (s.x + b)^2 along x0: s0^2 x^2 + 2 s0 b x + b^2; the x0 x1 cross term is 2 s0 s1.
    # These points fix a quadratic in one or two variables, so matching them all
    # proves the factorisation.
    plus, minus = at(*unit(0)), at(*unit(0, -1.0))
    square_coefficient = (plus + minus) / 2 - origin
    if not (square_coefficient > 0).all():
        return _NOT_A_SQUARE
    s0 = np.sqrt(square_coefficient)
    shift = (plus - minus) / (4 * s0)
    scales = [s0]
    checks = [(zero, origin), (unit(0), plus), (unit(0, -1.0), minus)]
    if count == 2:
        plus1, minus1, both = at(*unit(1)), at(*unit(1, -1.0)), at(1.0, 1.0)
        scales.append((both - plus - plus1 + origin) / (2 * s0))
        checks += [(unit(1), plus1), (unit(1, -1.0), minus1), ((1.0, 1.0), both)]
    for point, value in checks:
        affine = shift + sum(s * c for s, c in zip(scales, point))
        tolerance = 1e-6 * float(np.abs(value).max(initial=1.0))
        if not np.allclose(affine * affine, value, rtol=1e-5, atol=tolerance):
            return _NOT_A_SQUARE
    return PointwiseForm(tuple(scales), shift, True)


def _degree(op: Operation, variables: list[SSAValue]) -> int | str:
    """The op's degree in `variables`, or why it is not a polynomial in them."""
    if len(op.results) != 1 or static_shape(op.results[0].type) is None:
        return "is not an elementwise op with one statically shaped result"
    if op.name.startswith("arith."):
        return _op_degree(op.name, [1 if v in variables else 0 for v in op.operands])
    if not isinstance(op, LinalgStructuredOperation) and op.name != "linalg.map":
        return "is not an elementwise op"
    inputs, outputs = list(op.inputs), list(op.outputs)  # type: ignore[attr-defined]
    if any(v in variables for v in outputs):
        return "writes into an activation (its init); Orion's layers take no init"
    rank = len(static_shape(op.results[0].type) or ())
    if op.name == "linalg.map":
        maps = [AffineMap.identity(rank)] * (len(inputs) + len(outputs))
    else:
        if not all_parallel(op.get_iterator_types()):  # type: ignore[attr-defined]
            return "reduces over elements; only elementwise ops become Orion layers"
        maps = affine_maps(op.get_indexing_maps())  # type: ignore[attr-defined]
    if not is_identity(maps[-1]):
        return "writes its result through a non-identity indexing map"
    if any(v in variables and not is_identity(m) for v, m in zip(inputs, maps)):
        return "reads an activation through a non-identity indexing map (a layout change)"
    block = op.regions[0].block
    degrees: dict[SSAValue, int] = {
        arg: int(value in variables) for arg, value in zip(block.args, inputs + outputs)
    }
    return _block_degree(block, degrees, set(variables))


def _block_degree(block: Block, degrees: dict[SSAValue, int], outer: set[SSAValue]) -> int | str:
    degree = dict(degrees)
    for inner in block.ops:
        if any(v in outer for v in inner.operands):
            return "reads an activation inside its body"
        operand_degrees = [degree.get(v, 0) for v in inner.operands]
        if inner.has_trait(IsTerminator):
            return max(operand_degrees, default=0)
        if inner.regions and any(operand_degrees):
            return f"applies '{inner.name}' to the activation; not a polynomial"
        result = _op_degree(inner.name, operand_degrees)
        if isinstance(result, str):
            return result
        for value in inner.results:
            degree[value] = result
    return "has a body without a terminator"


def _op_degree(name: str, operand_degrees: list[int]) -> int | str:
    if name in _CASTS:
        return max(operand_degrees)
    degree = op_degree(name, operand_degrees)
    if degree is None:
        return f"applies '{name}' to the activation; Orion evaluates polynomials up to x * x only"
    return degree
