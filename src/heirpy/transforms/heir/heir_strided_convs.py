"""Keep a strided conv's output on its input's grid, so that HEIR never converts its layout.

HEIR's conv kernel writes a strided conv's output with gaps (the stride-2 output of a
32x32 map sits at the even rows and columns of a 32x32 layout), and the next conv or
matvec wants it dense: HEIR converts the layout with a shift network that costs about
a level per bit of the slot count (`benchmarks/heir_bugs/strided_conv_then_conv.mlir`:
a depth of 4 compiles at 18 levels). ResNet-20's two downsampling blocks cost it about
28 levels over its bound that way.

The form below never asks for that conversion (the "multiplexed" form of FHE ResNet
papers, without the channel interleaving): a strided conv runs at stride 1 and its
result stays on the grid of its input, where the values the strided conv computes sit
at every s-th position. Elementwise ops run on the whole grid; a later conv reads the
grid with its dilation multiplied by s (so each tap lands on a valid position) and its
zero pad multiplied by s; the matvec at the end reads only the valid positions (its
matrix gets zero columns elsewhere). The positions between hold values nothing reads.
Each step is exact: the strided result is a strided `tensor.extract_slice` of the grid,
and the patterns push that slice down until a matvec absorbs it.

Cost: a stride-2 stage computes 4x the MACs (16x after two), and the grid needs the
slots of the input's spatial size times the channels (ResNet-20: 64x32x32 = 65536, the
ring HEIR picks for its levels anyway). A function where some op reads a slice that no
pattern can take keeps its strided convs as they were (a remark says which op).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.context import Context
from xdsl.dialects import tensor as xt
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.diagnostics import location_prefix
from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp, MatvecOp
from heirpy.ir.utils import (
    all_parallel,
    i64_array,
    i64_elements_like,
    int_values,
    is_identity,
    reassociation_attr,
    static_shape,
)
from heirpy.transforms.heir.heir_forms import (
    MAX_DENSE_ELEMENTS,
    LegalizePattern,
    NativeFunctions,
    element_of,
    matvec_ops,
)
from heirpy.transforms.linear.constant_folding import ConstantFolder, build_init
from heirpy.transforms.rewrite import OpT, PatternSet, apply_pattern_sets

SPATIAL = (2, 3)
"""The H and W dims of an NCHW tensor: the only dims a grid slice strides."""


class GridSlices:
    """The strided slices this rewrite made, each `grid[0, 0, 0, 0][shape][1, 1, s, s]`:
    the patterns push only these (a user's own strided slice is not theirs to move)."""

    def __init__(self, functions: Sequence[FuncOp] = ()) -> None:
        self.ops: set[tensor.ExtractSliceOp] = set()
        self.functions = set(functions)
        """The functions whose own strided slices (an option-A shortcut's x[:, :, ::2, ::2])
        `StridedSliceOnGrid` may take as grid slices: those with a strided conv, which
        `strided_convs_on_grid` restores when a slice is left."""

    def make(self, grid: SSAValue, shape: Sequence[int], strides: Sequence[int]) -> tensor.ExtractSliceOp:
        """The slice of `grid` holding a strided op's `shape`-d result, every `strides`-th."""
        grid_type = grid.type
        assert isinstance(grid_type, TensorType)
        op = tensor.ExtractSliceOp.build(
            operands=[grid, [], [], []],
            result_types=[TensorType(grid_type.get_element_type(), list(shape))],
            properties={
                "static_offsets": i64_array([0] * len(shape)),
                "static_sizes": i64_array(list(shape)),
                "static_strides": i64_array([1, 1, *strides]),
            },
        )
        self.ops.add(op)
        return op

    def of(self, value: SSAValue) -> tuple[SSAValue, tuple[int, int]] | None:
        """(the grid, the spatial strides) when `value` is one of these slices."""
        op = value.owner
        if not isinstance(op, tensor.ExtractSliceOp) or op not in self.ops:
            return None
        strides = int_values(op.static_strides)
        return op.operands[0], (strides[2], strides[3])

    def left_in(self, func: FuncOp) -> list[tensor.ExtractSliceOp]:
        """The slices in `func` that something still reads."""
        return [op for op in self.ops if op.parent is not None and op.results[0].uses and enclosing(op) is func]


def enclosing(op: Operation) -> FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    return parent


def grid_array(array: np.ndarray, grid_shape: Sequence[int], strides: Sequence[int]) -> np.ndarray:
    """A constant NCHW `array` put on the grid: spread along H and W when it does not vary
    there (a per-channel bias stays a broadcast), else at every stride-th position with
    zeros between (nothing reads those)."""
    if np.all(array == array[:, :, :1, :1]):
        return np.broadcast_to(array[:, :, :1, :1], tuple(grid_shape)).copy()
    grid = np.zeros(tuple(grid_shape), dtype=array.dtype)
    h, w = array.shape[2:]
    grid[:, :, : strides[0] * h : strides[0], : strides[1] * w : strides[1]] = array
    return grid


def grid_init(
    init: SSAValue, reader: ConstantFolder, slices: GridSlices, grid_type: TensorType, strides: Sequence[int]
) -> tuple[list[Operation], SSAValue] | None:
    """The ops giving a linear op's init on the grid, and its value: the grid of a slice
    with the same strides, or a constant init put on the grid; None otherwise."""
    of = slices.of(init)
    if of is not None:
        grid, grid_strides = of
        return ([], grid) if grid.type == grid_type and tuple(grid_strides) == tuple(strides) else None
    array = reader.init_value(init)
    if array is None or array.ndim != 4:
        return None
    return build_init(grid_array(array, grid_type.get_shape(), strides), grid_type)


def conv_geometry(op: Conv2DNchwFchwOp) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None:
    """(strides, dilations, filter H and W) of a batch-1 conv with static shapes."""
    shapes = [static_shape(v.type) for v in (*op.operands, op.results[0])]
    if any(s is None or len(s) != 4 for s in shapes) or shapes[0][0] != 1:  # type: ignore[index]
        return None
    strides = op.properties.get("strides")
    dilations = op.properties.get("dilations")
    s = int_values(strides) if strides is not None else (1, 1)
    d = int_values(dilations) if dilations is not None else (1, 1)
    filter_shape = shapes[1]
    assert filter_shape is not None
    return (s[0], s[1]), (d[0], d[1]), (filter_shape[2], filter_shape[3])


def grid_conv(
    op: Conv2DNchwFchwOp, data: SSAValue, init: SSAValue, dilations: Sequence[int], grid_type: TensorType
) -> Conv2DNchwFchwOp:
    """`op` at unit strides and `dilations`, reading `data` into `init` on the grid."""
    strides = op.properties.get("strides")
    old_dilations = op.properties.get("dilations")
    return Conv2DNchwFchwOp(
        [data, op.operands[1]], [init], [grid_type],
        strides=i64_elements_like([1, 1], strides, old_dilations),
        dilations=i64_elements_like(list(dilations), old_dilations, strides),
    )


class GridPattern(LegalizePattern[OpT]):
    """A pattern of this rewrite: it reads and makes the slices of one `GridSlices`."""

    def __init__(self, reader: ConstantFolder, native: NativeFunctions, slices: GridSlices):
        super().__init__(reader, native)
        self.slices = slices


class StridedConvOnGrid(GridPattern[Conv2DNchwFchwOp]):
    """A strided conv runs at stride 1; its result is every s-th position of that.

        %y = linalg.conv_2d_nchw_fchw {strides = dense<2>} ins(%p, %w : tensor<1x16x34x34xf32>, ...)
               outs(%b : tensor<1x32x16x16xf32>)
      ->
        %g = linalg.conv_2d_nchw_fchw {strides = dense<1>} ins(%p, %w) outs(%bg : tensor<1x32x32x32xf32>)
        %y = tensor.extract_slice %g[0, 0, 0, 0] [1, 32, 16, 16] [1, 1, 2, 2]

    Legality: batch 1, static shapes, a stride above 1, a constant init (put on the grid
    by `grid_array`), and data that is not already a grid slice (`ConvOnGrid` reads those).
    """

    op_types = (Conv2DNchwFchwOp,)

    def rewrite(self, op: Conv2DNchwFchwOp, rewriter: PatternRewriter) -> None:
        geometry = conv_geometry(op)
        if geometry is None or geometry[0] == (1, 1) or grid_read(op.operands[0], self.slices) is not None:
            return
        strides, dilations, window = geometry
        data_shape, out_shape = static_shape(op.operands[0].type), static_shape(op.results[0].type)
        assert data_shape is not None and out_shape is not None
        grid_shape = [*out_shape[:2], *(data_shape[2 + i] - dilations[i] * (window[i] - 1) for i in range(2))]
        pad_ops, data = widened_pad(op.operands[0], grid_shape)
        widened = [grid_shape[i] + static_shape(data.type)[i] - data_shape[i] for i in SPATIAL]  # type: ignore[index]
        # The grid may hold no position s*j past the strided result (j >= its size: a later
        # conv's read there must land in the pad, `ConvOnGrid`); a widened one can, when the
        # pad is narrower than the window: then the grid stays the stride-1 output.
        if pad_ops and all(widened[i] <= strides[i] * out_shape[2 + i] for i in range(2)):
            grid_shape[2:] = widened
        else:
            pad_ops, data = _dropped(pad_ops), op.operands[0]
        grid_type = TensorType(element_of(op.results[0].type), grid_shape)
        init = grid_init(op.operands[2], self.reader, self.slices, grid_type, strides)
        if init is None:
            _dropped(pad_ops)
            return
        init_ops, init_value = init
        conv = grid_conv(op, data, init_value, dilations, grid_type)
        cut = self.slices.make(conv.results[0], out_shape, strides)
        rewriter.replace(op, [*pad_ops, *init_ops, conv, cut], [cut.results[0]])


def _dropped(ops: list[Operation]) -> list[Operation]:
    """Erase ops built but not inserted: each holds a use of its operands, and a rewrite
    of those would put the orphan on the rewriter's worklist (a crash on the next run)."""
    for unused in reversed(ops):
        unused.erase()
    return []


def widened_pad(data: SSAValue, grid_shape: Sequence[int]) -> tuple[list[Operation], SSAValue]:
    """A padded conv input whose stride-1 output (`grid_shape`) is smaller than the unpadded
    input, padded more on the high side so that the grid is the input's size: ([the new
    pad], its value), else ([], `data`). Why: a power-of-two grid (VGG's pool-fused 6x6
    convs give 31x31 from 32x32) keeps HEIR's remap of the padded data free. The extra
    rows are read only by positions between the valid ones. The uneven pad this makes
    (VGG: 2 before, 3 after) `heir_foldable_pads` then evens, with a zero filter tap."""
    pad = data.owner
    if not isinstance(pad, xt.PadOp):  # the region may read the index: old positions keep theirs
        return [], data
    source = static_shape(pad.operands[0].type)
    if source is None or len(source) != 4 or all(source[i] <= grid_shape[i] for i in SPATIAL):
        return [], data
    extra = [0, 0, *(max(0, source[i] - grid_shape[i]) for i in SPATIAL)]
    high = [h + e for h, e in zip(int_values(pad.static_high), extra)]
    data_shape = static_shape(data.type)
    assert data_shape is not None
    padded = tensor.PadOp(
        pad.operands[0], [], [], pad.region.clone(), list(int_values(pad.static_low)), high,
        TensorType(element_of(data.type), [d + e for d, e in zip(data_shape, extra)]),
    )
    return [padded], padded.results[0]


def grid_read(data: SSAValue, slices: GridSlices) -> tuple[SSAValue, tuple[int, int], xt.PadOp | None] | None:
    """(grid, strides, pad) when a conv's `data` is a grid slice or a pad of one."""
    # xDSL's classes: ops other passes build are xDSL's, not heirpy's subclasses.
    pad = data.owner if isinstance(data.owner, xt.PadOp) else None
    of = slices.of(pad.operands[0] if pad is not None else data)
    if of is None:
        return None
    return of[0], of[1], pad


def uniform_pad(pad: xt.PadOp) -> bool:
    """The pad yields one value from outside its region (not one that depends on where):
    its region can then pad the grid as well."""
    ops = list(pad.region.block.ops)
    return len(ops) == 1 and all(operand.owner is not pad.region.block for operand in ops[0].operands) and all(
        not (isinstance(operand.owner, Operation) and operand.owner.parent is pad.region.block)
        for operand in ops[0].operands
    )


class ConvOnGrid(GridPattern[Conv2DNchwFchwOp]):
    """A conv of a grid slice reads the grid with its dilation and pad times the stride.

        %x = tensor.extract_slice %g[0, 0, 0, 0] [1, 32, 16, 16] [1, 1, 2, 2] : tensor<1x32x32x32xf32> to ...
        %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
        %y = linalg.conv_2d_nchw_fchw {strides = dense<t>, dilations = dense<1>} ins(%p, %w) outs(%b)
      ->
        %pg = tensor.pad %g low[0, 0, 2, 2] high[0, 0, 2, 2]       (low p*s, high d*s*(k-1) - p*s)
        %yg = linalg.conv_2d_nchw_fchw {strides = dense<1>, dilations = dense<2>} ins(%pg, %w) outs(%bg)
        %y = tensor.extract_slice %yg[0, 0, 0, 0] [...] [1, 1, 2t, 2t]

    Exact: output position s*t*i reads grid position s*(t*i + d*k - p), which holds the
    slice's element t*i + d*k - p, or lies in the pad exactly where the slice's read
    lies in its pad. Legality: batch 1, static shapes, a pad only on H and W that yields
    one value, a constant init (or a grid slice); per spatial dim, the grid pad's high
    side is not negative (a pad wider than the window's reach) and every strided output
    position s*t*i lies on the grid (a high pad past the grid's end).
    """

    op_types = (Conv2DNchwFchwOp,)

    def rewrite(self, op: Conv2DNchwFchwOp, rewriter: PatternRewriter) -> None:
        geometry = conv_geometry(op)
        read = grid_read(op.operands[0], self.slices)
        if geometry is None or read is None:
            return
        (strides, dilations, window), (grid, grid_strides, pad) = geometry, read
        grid_shape, out_shape = static_shape(grid.type), static_shape(op.results[0].type)
        sliced = static_shape((pad.operands[0] if pad is not None else op.operands[0]).type)
        assert grid_shape is not None and out_shape is not None and sliced is not None
        low = list(int_values(pad.static_low)) if pad is not None else [0] * 4
        high = list(int_values(pad.static_high)) if pad is not None else [0] * 4
        if low[:2] != [0, 0] or high[:2] != [0, 0] or (pad is not None and not uniform_pad(pad)):
            return
        new_low, new_high, new_dilations, new_grid = [0, 0], [0, 0], [], []
        for i in range(2):
            s, size, g = grid_strides[i], sliced[2 + i], grid_shape[2 + i]
            reach = dilations[i] * s * (window[i] - 1)
            # Unpadded, the grid just shrinks by the reach (no valid read passes its end).
            high_pad = reach - low[2 + i] * s if pad is not None else 0
            out_grid = g + low[2 + i] * s + high_pad - reach
            # Every slice made here leaves no grid position s*j with j >= size (a read there
            # must land in the pad): a stride-1 conv's grid is at most s*size, and a conv on
            # a grid keeps that, so this holds by construction.
            assert g <= s * size, "a grid slice leaves no position past its end on the grid"
            if high_pad < 0 or s * strides[i] * (out_shape[2 + i] - 1) >= out_grid:
                return
            new_low.append(low[2 + i] * s)
            new_high.append(high_pad)
            new_dilations.append(dilations[i] * s if window[i] > 1 else dilations[i])  # a 1x1 reads no taps
            new_grid.append(out_grid)
        grid_type = TensorType(element_of(op.results[0].type), [*out_shape[:2], *new_grid])
        out_strides = [grid_strides[i] * strides[i] for i in range(2)]
        init = grid_init(op.operands[2], self.reader, self.slices, grid_type, out_strides)
        if init is None:
            return
        init_ops, init_value = init
        ops: list[Operation] = []
        data = grid
        if pad is not None:
            padded_shape = [grid_shape[i] + new_low[i] + new_high[i] for i in range(4)]
            padded = tensor.PadOp(
                grid, [], [], pad.region.clone(), new_low, new_high, TensorType(element_of(grid.type), padded_shape)
            )
            ops.append(padded)
            data = padded.results[0]
        conv = grid_conv(op, data, init_value, new_dilations, grid_type)
        cut = self.slices.make(conv.results[0], out_shape, out_strides)
        rewriter.replace(op, [*ops, *init_ops, conv, cut], [cut.results[0]])


class ElementwiseOnGrid(GridPattern[GenericOp]):
    """An elementwise op of grid slices runs on the grid.

        %a = tensor.extract_slice %ga[0, 0, 0, 0] [1, 32, 16, 16] [1, 1, 2, 2]
        %b = tensor.extract_slice %gb[0, 0, 0, 0] [1, 32, 16, 16] [1, 1, 2, 2]
        %y = linalg.generic {identity maps, (d0, d1, d2, d3) -> (d1, 0, 0), parallel}
               ins(%a, %b, %bn_mean : ..., tensor<32x1x1xf32>) outs(%e) { subf, addf, mulf }
      ->
        %yg = linalg.generic {the same maps} ins(%ga, %gb, %bn_mean) outs(%eg : tensor<1x32x32x32xf32>) { ... }
        %y = tensor.extract_slice %yg[0, 0, 0, 0] [1, 32, 16, 16] [1, 1, 2, 2]

    Legality: one 4-D result, parallel loops, identity output map, no `linalg.index`
    (a position on the grid is not the slice's); at least one input is a grid slice,
    and each input is (a) a slice of the same grid type and strides read through the
    identity, (b) read through a map that ignores H and W (a per-channel constant of
    torch-mlir's BN, 32x1x1 through (d1, 0, 0), a scalar, a 1xCx1x1 broadcast: any
    rank; it reads the same on the grid), or (c) a constant read through dims and
    constants only, which is expanded to the result's shape and put on the grid.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        out_shape = static_shape(op.results[0].type) if len(op.results) == 1 else None
        maps = [m.data for m in op.indexing_maps]
        if out_shape is None or len(out_shape) != 4 or not all_parallel(op.iterator_types) or not is_identity(maps[-1]):
            return
        if any(inner.name == "linalg.index" for inner in op.body.walk()):
            return
        grids = [self.slices.of(v) for v in op.inputs]
        found = [g for g in grids if g is not None]
        if not found:
            return
        grid_type, strides = found[0][0].type, found[0][1]
        assert isinstance(grid_type, TensorType)
        ops: list[Operation] = []
        inputs: list[SSAValue] = []
        new_maps = list(op.indexing_maps)
        for i, (value, indexing, grid) in enumerate(zip(op.inputs, maps, grids)):
            if grid is not None:
                if not (is_identity(indexing) and grid[0].type == grid_type and grid[1] == strides):
                    return
                inputs.append(grid[0])
            elif not reads_spatial(indexing):
                inputs.append(value)
            elif (full := self.spread(value, indexing, out_shape)) is not None:
                more, grid_value = build_init(grid_array(full, grid_type.get_shape(), strides), grid_type)
                ops += more
                inputs.append(grid_value)
                new_maps[i] = op.indexing_maps.data[-1]  # the identity
            else:
                return
        if op.body.block.args[-1].uses:
            init = grid_init(op.outputs[0], self.reader, self.slices, grid_type, strides)
            if init is None:
                return
            ops += init[0]
            out = init[1]
        else:
            empty = tensor.EmptyOp([], grid_type)
            ops.append(empty)
            out = empty.tensor
        new = GenericOp(inputs, [out], op.body.clone(), new_maps, op.iterator_types, [grid_type])
        cut = self.slices.make(new.results[0], out_shape, strides)
        rewriter.replace(op, [*ops, new, cut], [cut.results[0]])

    def spread(self, value: SSAValue, indexing: AffineMap, shape: Sequence[int]) -> np.ndarray | None:
        """A constant operand's value at every point of the loops, or None."""
        array = self.reader.fold(value)
        return None if array is None else expand(array, indexing, shape)


def reads_spatial(indexing: AffineMap) -> bool:
    """Does an operand read through `indexing` vary along H or W? (Only results that
    are constants or other loop dims say no: anything else is taken to vary.)"""
    if indexing.num_symbols:
        return True
    return not all(
        isinstance(e, AffineConstantExpr) or (isinstance(e, AffineDimExpr) and e.position not in SPATIAL)
        for e in indexing.results
    )


def expand(array: np.ndarray, indexing: AffineMap, shape: Sequence[int]) -> np.ndarray | None:
    """The value an operand of `array` read through `indexing` takes at every point of
    the loops of `shape`, or None when a result of the map is neither a dim nor a
    constant (or reads outside `array`)."""
    if indexing.num_symbols or len(indexing.results) != array.ndim or indexing.num_dims != len(shape):
        return None
    index: list[np.ndarray | int] = []
    for axis, expr in enumerate(indexing.results):
        if isinstance(expr, AffineConstantExpr) and 0 <= expr.value < array.shape[axis]:
            index.append(expr.value)
        elif isinstance(expr, AffineDimExpr) and shape[expr.position] <= array.shape[axis]:
            along = [-1 if d == expr.position else 1 for d in range(len(shape))]
            index.append(np.arange(shape[expr.position]).reshape(along))
        else:
            return None
    return np.broadcast_to(array[tuple(index)], tuple(shape))


class StridedSliceOnGrid(GridPattern[xt.ExtractSliceOp]):
    """A function's own strided slice that keeps every s-th position (an option-A
    shortcut's x[:, :, ::2, ::2]; torch-mlir writes one slice per dim) is a grid slice:
    of its source, or, when the source is one, of that grid with the strides multiplied.

        %h = tensor.extract_slice %x[0, 0, 0, 0] [1, 16, 16, 32] [1, 1, 2, 1] : tensor<1x16x32x32xf32> to ...
        %s = tensor.extract_slice %h[0, 0, 0, 0] [1, 16, 16, 16] [1, 1, 1, 2]
      ->
        %s = tensor.extract_slice %x[0, 0, 0, 0] [1, 16, 16, 16] [1, 1, 2, 2]   (a grid slice)

    Legality: the function has a strided conv (`GridSlices.functions`), static offsets
    all 0, unit strides and whole sizes on N and C, and each spatial size the number of
    s-th positions of the source (ceil(n / s): the grid holds no position past the slice).
    """

    op_types = (xt.ExtractSliceOp,)

    def rewrite(self, op: xt.ExtractSliceOp, rewriter: PatternRewriter) -> None:
        if op in self.slices.ops or op.offsets or op.sizes or op.strides or enclosing(op) not in self.slices.functions:
            return
        source, sizes = static_shape(op.operands[0].type), int_values(op.static_sizes)
        result = static_shape(op.results[0].type)
        offsets, strides = int_values(op.static_offsets), int_values(op.static_strides)
        if source is None or len(source) != 4 or result != sizes or any(offsets) or strides[:2] != (1, 1):
            return
        if sizes[:2] != source[:2] or strides[2:] == (1, 1):
            return
        if any(sizes[i] != -(-source[i] // strides[i]) for i in SPATIAL):
            return
        of = self.slices.of(op.operands[0])
        grid, outer = of if of is not None else (op.operands[0], (1, 1))
        cut = self.slices.make(grid, sizes, (outer[0] * strides[2], outer[1] * strides[3]))
        rewriter.replace(op, [cut], [cut.results[0]])


class PadOnGrid(GridPattern[xt.PadOp]):
    """A pad of a grid slice on N and C only (an option-A shortcut's zero channels,
    F.pad) pads the grid the same way.

        %s = tensor.extract_slice %g[0, 0, 0, 0] [1, 16, 16, 16] [1, 1, 2, 2] : tensor<1x16x32x32xf32> to ...
        %p = tensor.pad %s low[0, 8, 0, 0] high[0, 8, 0, 0] { tensor.yield %zero }
      ->
        %pg = tensor.pad %g low[0, 8, 0, 0] high[0, 8, 0, 0] { tensor.yield %zero } : ... to tensor<1x32x32x32xf32>
        %p = tensor.extract_slice %pg[0, 0, 0, 0] [1, 32, 16, 16] [1, 1, 2, 2]

    Exact: the added channels hold the pad value at every grid position, the valid
    ones among them. Legality: static pads, none on H or W (a conv reads those,
    `ConvOnGrid`), and a region that yields one value (`uniform_pad`).
    """

    op_types = (xt.PadOp,)

    def rewrite(self, op: xt.PadOp, rewriter: PatternRewriter) -> None:
        of = self.slices.of(op.operands[0])
        if of is None or op.low or op.high or not uniform_pad(op):
            return
        low, high = int_values(op.static_low), int_values(op.static_high)
        out_shape, grid_shape = static_shape(op.results[0].type), static_shape(of[0].type)
        if out_shape is None or grid_shape is None or any(low[i] or high[i] for i in SPATIAL):
            return
        padded_shape = [grid_shape[i] + low[i] + high[i] for i in range(4)]
        padded = tensor.PadOp(
            of[0], [], [], op.region.clone(), list(low), list(high), TensorType(element_of(of[0].type), padded_shape)
        )
        cut = self.slices.make(padded.results[0], out_shape, of[1])
        rewriter.replace(op, [padded, cut], [cut.results[0]])


class MatvecOnGrid(GridPattern[MatvecOp]):
    """A matvec of a flattened grid slice reads the whole grid, with zero columns
    where the grid holds values the slice skips.

        %x = tensor.extract_slice %g[0, 0, 0, 0] [1, 64, 8, 8] [1, 1, 4, 4] : tensor<1x64x32x32xf32> to ...
        %f = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<1x64x8x8xf32> into tensor<4096xf32>
        %y = linalg.matvec ins(%A, %f : tensor<10x4096xf32>, tensor<4096xf32>) outs(%b)
      ->
        %fg = tensor.collapse_shape %g [[0, 1, 2, 3]] : tensor<1x64x32x32xf32> into tensor<65536xf32>
        %y = linalg.matvec ins(%Ag, %fg : tensor<10x65536xf32>, tensor<65536xf32>) outs(%b)

    Legality: the vector is the slice through collapse_shape/expand_shape ops only
    (they keep the row-major order), the matrix is a constant, and the grid's matrix
    has at most MAX_DENSE_ELEMENTS entries.
    """

    op_types = (MatvecOp,)

    def rewrite(self, op: MatvecOp, rewriter: PatternRewriter) -> None:
        matrix_value, vector, init = op.operands
        current = vector
        while isinstance(current.owner, (xt.CollapseShapeOp, xt.ExpandShapeOp)):
            current = current.owner.operands[0]
        of = self.slices.of(current)
        if of is None:
            return
        grid, strides = of
        matrix = self.reader.fold(matrix_value)
        grid_shape, sliced = static_shape(grid.type), static_shape(current.type)
        assert grid_shape is not None and sliced is not None
        if matrix is None or matrix.shape[0] * prod(grid_shape) > MAX_DENSE_ELEMENTS:
            return
        columns = np.zeros((matrix.shape[0], *grid_shape), dtype=matrix.dtype)
        columns[:, :, :, : strides[0] * sliced[2] : strides[0], : strides[1] * sliced[3] : strides[1]] = (
            matrix.reshape(matrix.shape[0], *sliced)
        )
        flat = tensor.CollapseShapeOp(
            operands=[grid], result_types=[TensorType(element_of(grid.type), [prod(grid_shape)])],
            properties={"reassociation": reassociation_attr([list(range(len(grid_shape)))])},
        )
        ops = matvec_ops(columns.reshape(matrix.shape[0], -1), flat.results[0], init, element_of(grid.type))
        rewriter.replace(op, [flat, *ops], [ops[-1].results[0]])


def grid_patterns(reader: ConstantFolder, native: NativeFunctions, slices: GridSlices) -> PatternSet:
    """The patterns that put strided convs and what reads them on the grid."""
    return PatternSet.of(
        StridedConvOnGrid(reader, native, slices),
        ConvOnGrid(reader, native, slices),
        ElementwiseOnGrid(reader, native, slices),
        StridedSliceOnGrid(reader, native, slices),
        PadOnGrid(reader, native, slices),
        MatvecOnGrid(reader, native, slices),
    )


def strided_convs_on_grid(module: ModuleOp, ctx: Context | None, pass_name: str) -> list[str]:
    """Put every function's strided convs on the grid (the module doc); a function where
    a slice is left that nothing can take is restored as it was. Returns the remarks
    naming each such function and the op that stopped it."""
    functions = [f for f in module.walk() if isinstance(f, FuncOp) and has_strided_conv(f)]
    if not functions:
        return []
    backups = {f: f.clone() for f in functions}
    slices = GridSlices(functions)
    apply_pattern_sets(module, [grid_patterns(ConstantFolder(ctx), NativeFunctions(), slices)])
    remarks: list[str] = []
    for func in functions:
        left = slices.left_in(func)
        if not left:
            continue
        reader = next(iter(left[0].results[0].uses)).operation
        remarks.append(
            f"remark: {pass_name}: @{func.sym_name.data} keeps its strided convs ({location_prefix(reader)}"
            f"'{reader.name}' reads a strided conv's result and cannot read it on the conv input's grid); "
            "heir-opt converts each strided conv's layout, at about a level per bit of the slot count"
        )
        backup = backups[func]
        block = func.parent_block()
        assert block is not None
        block.insert_op_before(backup, func)
        func.detach()
        func.erase()
    return remarks


def has_strided_conv(func: FuncOp) -> bool:
    return any(
        isinstance(op, Conv2DNchwFchwOp) and (g := conv_geometry(op)) is not None and g[0] != (1, 1)
        for op in func.walk()
    )
