"""Small IR helpers shared by every layer: i64 attributes, iterator types, affine-map
predicates, shapes, byte sizes and reassociations.

Each is a pure function of attributes, types or one op's own fields, so that passes,
analyses and the evaluator ask the same question the same way instead of re-deriving
it. Nothing here imports heirpy's dialects: they import this.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from math import prod

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    ContainerType,
    DenseArrayBase,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

# ------------------------------------------------------------------------ i64 attributes


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    """`array<i64: ...>` (a DenseArrayBase), e.g. broadcast `dimensions`."""
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def i64_vector(values: Sequence[int]) -> DenseIntElementsAttr:
    """`dense<[a, b]> : vector<2xi64>`, the form MLIR's conv/pool attributes take."""
    return DenseIntOrFPElementsAttr.from_list(VectorType(i64, [len(values)]), [int(v) for v in values])


def i64_elements_like(values: Sequence[int], *spellings: Attribute | None) -> DenseIntElementsAttr:
    """`values` as a `dense<...>` of the type of the first of `spellings` that is a
    `vector<Nxi64>` or `tensor<Nxi64>` with N = len(values); `vector<Nxi64>` if none is.

    MLIR takes a conv's or pool's `strides` / `dilations` in either form and prints
    them as given, so a rewrite that makes new ones from an op's old ones keeps the
    old spelling."""
    for attr in spellings:
        if not isinstance(attr, DenseIntOrFPElementsAttr):
            continue
        type_ = attr.type
        if isinstance(type_, VectorType | TensorType) and type_.get_element_type() == i64 and tuple(
            type_.get_shape()
        ) == (len(values),):
            return DenseIntOrFPElementsAttr.from_list(type_, [int(v) for v in values])
    return i64_vector(values)


def splat_i64_vector(value: int, rank: int) -> DenseIntElementsAttr:
    """`dense<value> : vector<rank x i64>`, the form torch-mlir prints."""
    return DenseIntOrFPElementsAttr.from_list(VectorType(i64, [rank]), [value] * rank)


def int_values(attr: Attribute) -> tuple[int, ...]:
    """The integers of an `array<i64: ...>`, a `dense<...>` integer attribute or an
    `[i64, ...]` array attribute."""
    if isinstance(attr, DenseArrayBase | DenseIntOrFPElementsAttr):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, ArrayAttr):
        return tuple(int(v.value.data) for v in attr.data if isinstance(v, IntegerAttr))
    raise TypeError(f"not an integer array attribute: {attr}")


def int_pair(values: Iterable[int]) -> tuple[int, int]:
    """Exactly two ints (the H and W of a 2-D window), e.g. from `int_values`."""
    first, second = values
    return int(first), int(second)


# ------------------------------------------------------------------------ iterator types


def iterator_kinds(iterator_types: ArrayAttr[IteratorTypeAttr]) -> list[str]:
    """`"parallel"` / `"reduction"` per loop (a `window` loop counts as parallel)."""
    return [
        "reduction" if it.data == IteratorType.REDUCTION else "parallel" for it in iterator_types
    ]


def iterator_attrs(kinds: Sequence[str]) -> list[IteratorTypeAttr]:
    """The attributes for `iterator_kinds`' strings."""
    return [
        IteratorTypeAttr.reduction() if k == "reduction" else IteratorTypeAttr.parallel()
        for k in kinds
    ]


def all_parallel(iterator_types: ArrayAttr[IteratorTypeAttr]) -> bool:
    return all(it.data == IteratorType.PARALLEL for it in iterator_types)


# ------------------------------------------------------------------------ affine maps


def affine_maps(indexing_maps: ArrayAttr[AffineMapAttr]) -> list[AffineMap]:
    return [attr.data for attr in indexing_maps]


def map_dims(m: AffineMap) -> list[int] | None:
    """The loop dim of each result of `m` if every result is a plain dim, else None."""
    dims: list[int] = []
    for expr in m.results:
        if not isinstance(expr, AffineDimExpr):
            return None
        dims.append(expr.position)
    return dims


def is_identity(m: AffineMap) -> bool:
    """Is `m` the identity `(d0, ..., dn) -> (d0, ..., dn)`, without symbols? (Equal to
    `AffineMap.identity(m.num_dims)`, checked without building that map: the passes ask
    it of every indexing map they look at.)"""
    return (
        m.num_symbols == 0
        and len(m.results) == m.num_dims
        and all(type(e) is AffineDimExpr and e.position == i for i, e in enumerate(m.results))
    )


def projection_dims(m: AffineMap) -> list[int] | None:
    """The loop dims of a projected permutation (distinct bare dims), else None."""
    dims = map_dims(m)
    return dims if dims is not None and len(set(dims)) == len(dims) else None


def is_projected_permutation(m: AffineMap) -> bool:
    return projection_dims(m) is not None


def linear_terms(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """`d0 * 12 + d1 + 3` -> ({0: 12, 1: 1}, 3); None for mod/div/symbols."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, 0
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = linear_terms(expr.lhs), linear_terms(expr.rhs)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            terms = dict(lhs[0])
            for dim, coeff in rhs[0].items():
                terms[dim] = terms.get(dim, 0) + coeff
            return terms, lhs[1] + rhs[1]
        if expr.kind == AffineBinaryOpKind.Mul:
            if not lhs[0]:
                lhs, rhs = rhs, lhs
            if rhs[0]:
                return None  # d * d is not affine
            return {d: c * rhs[1] for d, c in lhs[0].items()}, lhs[1] * rhs[1]
    return None


def axis_loops(amap: AffineMap, sizes: Sequence[int]) -> list[tuple[int, ...]] | None:
    """Per result of `amap`: the loops it reads as one mixed-radix number, major first.

    `d0 * 12 + d1` with d1 of size 12 is the number (d0, d1); a constant 0 is (). Unit
    loops beside others always index 0 and are left out. None if a result is not such a number
    (wrong strides, an offset, mod/div) or if two results share a loop.
    """
    out: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for expr in amap.results:
        found = linear_terms(expr)
        if found is None or found[1] != 0:
            return None
        terms = {d: c for d, c in found[0].items() if c != 0}
        if len(terms) > 1:
            terms = {d: c for d, c in terms.items() if sizes[d] != 1}
        ordered = sorted(terms, key=lambda d: -terms[d])
        stride = 1
        for dim in reversed(ordered):
            if terms[dim] != stride or (len(ordered) > 1 and sizes[dim] < 0):
                return None
            stride *= sizes[dim]
        if seen & set(ordered):
            return None
        seen |= set(ordered)
        out.append(tuple(ordered))
    return out


def loop_sizes(maps: Sequence[AffineMap], shapes: Sequence[Sequence[int]]) -> list[int] | None:
    """Each loop's size from the operand axes it indexes bare (negative = dynamic);
    None if some loop is indexed bare by no operand."""
    if not maps:
        return []
    sizes: list[int | None] = [None] * maps[0].num_dims
    for amap, shape in zip(maps, shapes):
        for expr, size in zip(amap.results, shape):
            if isinstance(expr, AffineDimExpr) and sizes[expr.position] is None:
                sizes[expr.position] = size
    known = [int(s) for s in sizes if s is not None]
    return known if len(known) == len(sizes) else None


# ------------------------------------------------------------------------ shapes


def element_type(type_: Attribute) -> Attribute:
    """The element type of a tensor, memref or vector type; a scalar type itself."""
    return type_.get_element_type() if isinstance(type_, ContainerType) else type_


def static_shape(type_: Attribute) -> tuple[int, ...] | None:
    """The shape of a ranked tensor type with no dynamic size, else None.

    Memrefs give None too: heirpy's rewrites are for tensors only.
    """
    if not isinstance(type_, TensorType):
        return None
    shape = tuple(type_.get_shape())
    return None if any(d < 0 for d in shape) else shape


def all_static(values: Sequence[SSAValue]) -> bool:
    return all(static_shape(v.type) is not None for v in values)


def shape_of(value: SSAValue) -> tuple[int, ...] | None:
    """The shape of a shaped value (dynamic sizes negative), None for a scalar."""
    t = value.type
    return tuple(t.get_shape()) if isinstance(t, ShapedType) else None


def element_bytes(element: Attribute) -> int | None:
    """Bytes per element: bit width rounded up to whole bytes (index = 8), else None."""
    if isinstance(element, IntegerType):
        return (element.width.data + 7) // 8
    if isinstance(element, IndexType):
        return 8
    if isinstance(element, AnyFloat):
        return (element.bitwidth + 7) // 8
    return None


def tensor_bytes(value_type: Attribute) -> int | None:
    """Size of a statically shaped tensor in bytes; None if dynamic or unknown."""
    if not isinstance(value_type, ShapedType):
        return None
    shape = value_type.get_shape()
    size = element_bytes(element_type(value_type))
    if size is None or any(d < 0 for d in shape):
        return None
    return prod(shape) * size


def window_out_size(in_size: int, window: int, stride: int, dilation: int) -> int:
    """Output length of a VALID sliding window: how many positions fit in `in_size`."""
    span = dilation * (window - 1) + 1
    return (in_size - span) // stride + 1 if in_size >= span else 0


# ------------------------------------------------------------------------ reassociations


Reassociation = ArrayAttr[ArrayAttr[IntegerAttr[IntegerType | IndexType]]]
"""The type of expand/collapse_shape's `reassociation` attribute."""


def reassociation_attr(groups: Sequence[Sequence[int]]) -> Reassociation:
    """`[[0, 1], [2]]` as the `reassociation` attribute of expand/collapse_shape."""
    inner: list[ArrayAttr[IntegerAttr[IntegerType | IndexType]]] = [
        ArrayAttr([IntegerAttr(d, i64) for d in group]) for group in groups
    ]
    return ArrayAttr(inner)


def reassociation_groups(attr: Attribute) -> list[list[int]]:
    """The groups of a `reassociation` attribute, as lists of ints."""
    assert isinstance(attr, ArrayAttr)
    return [list(int_values(group)) for group in attr.data]


# ------------------------------------------------------------------------ polynomial degree
# Elementwise ops (scalar arith, or linalg's named elementwise ops) whose result has the
# larger degree of their operands, the sum of them, or the first one's when divided by a
# degree-0 value.
_KEEP_DEGREE = frozenset({"arith.addf", "arith.subf", "arith.negf", "linalg.add", "linalg.sub"})
_ADD_DEGREES = frozenset({"arith.mulf", "linalg.mul"})
_DIVIDE = frozenset({"arith.divf", "linalg.div"})


def op_degree(name: str, operand_degrees: Sequence[int]) -> int | None:
    """The degree of op `name`'s result as a polynomial, given its operands' degrees
    (0 = a constant); None when the op is not polynomial in a non-constant operand."""
    if not any(operand_degrees):
        return 0
    if name in _KEEP_DEGREE:
        return max(operand_degrees)
    if name in _ADD_DEGREES:
        return sum(operand_degrees)
    if name in _DIVIDE and list(operand_degrees[1:]) == [0]:
        return operand_degrees[0]
    return None


def producers(values: Iterable[SSAValue], block: Block | None = None) -> Iterator[SSAValue]:
    """`values` and every value they are computed from, each once, depth first through
    the ops that produce them (only ops in `block` when given; block arguments end a path)."""
    seen: set[SSAValue] = set()
    pending = list(values)
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        yield current
        owner = current.owner
        if isinstance(owner, Operation) and (block is None or owner.parent_block() is block):
            pending.extend(owner.operands)


def computed_from(value: SSAValue, source: SSAValue, block: Block | None = None, limit: int | None = None) -> bool:
    """Whether `value` is `source` or computed from it, through the ops that produce it
    (only ops in `block` when given; at most `limit` values visited when given: not found
    within them reads as False)."""
    return any(current is source for current in islice(producers([value], block), limit))
