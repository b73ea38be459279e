"""Read one function of linalg IR as a network of encrypted-inference layers.

`extract_network(module, function)` walks the function's ops in order. Ops whose
operands are all plaintext (weight transposes, bias broadcasts, fills, a batch norm's
`1 / sqrt(var + eps)`) are plaintext work: heirpy's evaluator computes them and they
never become layers. Every op on the encrypted input, or on anything computed from it,
becomes a layer:

    linalg.conv_2d_nchw_fchw  (input maybe a zero tensor.pad)     Conv, bias = the init
    linalg.depthwise_conv_2d_nchw_chw                              Conv, groups = channels
    linalg.pooling_nchw_sum                                        Conv, depthwise all-ones
    linalg.generic summing H and W into (N, C, 1, 1)               Conv, the same, window H x W
    linalg.matmul  activation x constant                           Linear, bias = the init
    linalg.generic out[n, o] += x[n, i...] * w[...] (a contraction) [Flatten,] Linear, the
                   weight laid out over x's flattened sample axes
    tensor.collapse_shape  NxCxHxW -> Nx(C*H*W)                    Flatten
    elementwise (linalg.generic / map / named, arith on tensors)   read by `pointwise_form`:
        (s0 * x0 [+ s1 * x1] + b) [** 2]                           scale/shift, Add, Square

A per-channel scale or shift folds into the conv or linear layer that produced its
input when nothing else reads that output: exactly what happens to a batch norm after a
conv, and how a sum pool followed by `/ 4` becomes an average pool
(`Conv.is_average_pool`). Otherwise it is a `ChannelAffine` layer (a batch norm).

Anything else that touches the ciphertext raises `HeirpyError` naming the op and its
location (`file:line:col: error: 'op' ...`): the network never silently differs from
the IR. heirpy's own `tensor_ext` ops are read through `lower-tensor-ext` first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.traits import IsTerminator

from heirpy.api import context_of, run_pipeline
from heirpy.export.pointwise import pointwise_form
from heirpy.interp.evaluator import Evaluator
from heirpy.ir.constants import module_resources
from heirpy.ir.diagnostics import HeirpyError, location_prefix
from heirpy.ir.dialects import linalg
from heirpy.ir.dialects.linalg import IteratorTypeAttr, WindowOp
from heirpy.ir.utils import (
    affine_maps,
    all_parallel,
    is_identity,
    iterator_kinds,
    loop_sizes,
    projection_dims,
    reassociation_groups,
    static_shape,
)

# ----------------------------------------------------------------------------- the layers


@dataclass
class Layer:
    """One layer. `inputs` index the network's values: 0 is the function's argument,
    i + 1 the output of layer i."""

    inputs: tuple[int, ...]
    op: Operation  # the op it came from, for messages


@dataclass
class Conv(Layer):
    """PyTorch's `conv2d(x, weight, bias, stride, padding, dilation, groups)`."""

    weight: np.ndarray  # (out channels, in channels / groups, k, k)
    bias: np.ndarray  # (out channels,)
    stride: int
    padding: int
    dilation: int
    groups: int = 1

    def is_average_pool(self) -> bool:
        """A depthwise conv with filter 1 / window everywhere and no bias or padding:
        what `AvgPool2d(k, stride)` computes."""
        channels, per_group, size, _ = self.weight.shape
        return (
            self.groups == channels
            and per_group == 1
            and self.padding == 0
            and self.dilation == 1
            and not self.bias.any()
            and np.allclose(self.weight, 1.0 / (size * size), rtol=1e-6, atol=0.0)
        )


@dataclass
class Linear(Layer):
    """`x @ weight.T + bias` on an (N, in features) activation."""

    weight: np.ndarray  # (out features, in features)
    bias: np.ndarray  # (out features,)


@dataclass
class Square(Layer):
    """`x * x`, elementwise."""


@dataclass
class ChannelAffine(Layer):
    """`x * scale[c] + shift[c]` along axis 1 (a batch norm with mean 0, variance 1)."""

    scale: np.ndarray
    shift: np.ndarray
    rank: int  # of the activation: 4 (N, C, H, W) or 2 (N, features)


@dataclass
class Add(Layer):
    """`x + y` of two activations of one shape (a residual connection)."""


@dataclass
class Flatten(Layer):
    """(N, C, H, W) -> (N, C*H*W) in row-major order: `torch.flatten(x, 1)`."""


@dataclass
class Network:
    """Layers in execution order; `output` is the value the function returns."""

    input_shape: tuple[int, ...]
    layers: list[Layer] = field(default_factory=list)
    output: int = 0


# ----------------------------------------------------------------------------- entry point


def extract_network(module: ModuleOp, function: str = "main") -> Network:
    """The layers of `@function`, whose one argument is the encrypted input."""
    resources = module_resources(module)
    if any(op.name.startswith("tensor_ext.") for op in module.walk()):
        ctx = context_of(module)
        module = module.clone()
        run_pipeline(module, "lower-tensor-ext", ctx=ctx)
    fn = _find_function(module, function)
    if len(fn.body.blocks) != 1:
        raise export_error(fn, f"@{function} must have one block")
    block = fn.body.blocks[0]
    if len(block.args) != 1:
        raise export_error(
            fn, f"@{function} must take one tensor, the encrypted input; it takes {len(block.args)}"
        )
    return _Extractor(module, block, resources, function).run()


def export_error(op: Operation, message: str, where: str = "") -> HeirpyError:
    """`file:line:col: error: 'op.name' message`; an op a pass created has no position,
    so `where` (e.g. `op #12 of @main`) says which one it is."""
    prefix = location_prefix(op)
    suffix = f" ({where})" if where and not prefix else ""
    return HeirpyError(f"{prefix}error: '{op.name}'{suffix} {message}")


def _find_function(module: ModuleOp, name: str) -> func.FuncOp:
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    if name not in functions:
        known = ", ".join(f"@{n}" for n in functions) or "none"
        raise HeirpyError(f"error: no function @{name} in the module (functions: {known})")
    return functions[name]


# ----------------------------------------------------------------------------- the walk


@dataclass(frozen=True)
class _Padded:
    """A zero `tensor.pad` of an activation, waiting for the conv that reads it."""

    value: int
    padding: int
    op: Operation


class _Extractor:
    def __init__(self, module: ModuleOp, block: Block, resources: Mapping[str, bytes], function: str):
        arg = block.args[0]
        shape = static_shape(arg.type)
        if shape is None:
            raise HeirpyError(f"error: @{function}'s input must be a statically shaped tensor, not {arg.type}")
        self.block = block
        self.function = function
        self.network = Network(shape)
        self.values: dict[SSAValue, int | _Padded] = {arg: 0}
        self.shapes: list[tuple[int, ...]] = [shape]
        # How many ops read each value, over every SSA name it gets (an identity or a
        # folded scale renames it): folding into a layer is exact with one reader only.
        self.readers: list[int] = [_readers(arg)]
        self.evaluator = Evaluator(module, resources)
        self.where = ""

    def run(self) -> Network:
        with self.evaluator.frame():
            for index, op in enumerate(self.block.ops):
                self.where = f"op #{index} of @{self.function}"
                if op.has_trait(IsTerminator):
                    self._return(op)
                    break
                if not any(v in self.values for v in _read_values(op)):
                    self.evaluator.eval_op(op)  # plaintext work
                    continue
                handler = _HANDLERS.get(op.name)
                if handler is None:
                    raise self.error(op, "on the encrypted input has no Orion layer")
                handler(self, op)
        return _without_dead_layers(self.network)

    def error(self, op: Operation, message: str) -> HeirpyError:
        return export_error(op, message, self.where)

    def _return(self, op: Operation) -> None:
        if len(op.operands) != 1:
            raise self.error(op, f"must return one tensor, not {len(op.operands)}")
        result = self.values.get(op.operands[0])
        if result is None:
            raise self.error(op, "returns a value that does not depend on the input")
        if isinstance(result, _Padded):
            raise self.error(result.op, "of an activation can only be a conv's padding")
        self.network.output = result

    # ------------------------------------------------------------------ values
    def plaintext(self, value: SSAValue, user: Operation, what: str) -> np.ndarray:
        """A plaintext operand's array; an encrypted one is an error naming `what`."""
        if value in self.values:
            raise self.error(user, f"with an encrypted {what} has no Orion layer (it must be plaintext)")
        return self.evaluator.value(value, user)

    def activation(self, value: SSAValue, user: Operation) -> int:
        found = self.values.get(value)
        if found is None:
            wanted = list(user.operands).index(value)
            encrypted = ", ".join(f"#{i}" for i, v in enumerate(user.operands) if v in self.values)
            raise self.error(
                user,
                f"reads the encrypted value as operand {encrypted}; "
                f"Orion's layer reads it as operand #{wanted}",
            )
        if isinstance(found, _Padded):
            raise self.error(found.op, f"of an activation can only be a conv's padding, not an input of '{user.name}'")
        return found

    def add_layer(self, layer: Layer, shape: tuple[int, ...]) -> int:
        """Append `layer`; until `bind` names its output, only the op's next layer reads it."""
        self.network.layers.append(layer)
        self.shapes.append(shape)
        self.readers.append(1)
        return len(self.network.layers)

    def bind(self, result: SSAValue, value: int, origin: Operation | None = None) -> None:
        """`result` names `value`: the last layer made from `origin` (default: the op
        defining `result`), or the value that op read (an identity, or a scale folded
        into its producer)."""
        maker = origin if origin is not None else result.owner
        made_here = value == len(self.network.layers) and self.network.layers[-1].op is maker
        # A renamed value loses the op as a reader and gains the new name's readers.
        self.readers[value] = _readers(result) if made_here else self.readers[value] + _readers(result) - 1
        self.values[result] = value

    def producer(self, value: int) -> Layer | None:
        return self.network.layers[value - 1] if value > 0 else None


def _without_dead_layers(network: Network) -> Network:
    """`network` without layers the output does not depend on (a dead op of the IR): an
    FHE runtime would still run them, or, like Orion, never compile them."""
    live = {network.output}
    for index in range(len(network.layers), 0, -1):
        if index in live:
            live.update(network.layers[index - 1].inputs)
    renumbered = {old: new for new, old in enumerate(sorted(live | {0}))}
    kept = []
    for index, layer in enumerate(network.layers, start=1):
        if index in live:
            layer.inputs = tuple(renumbered[i] for i in layer.inputs)
            kept.append(layer)
    return Network(network.input_shape, kept, renumbered[network.output])


def _readers(value: SSAValue) -> int:
    return len({use.operation for use in value.uses})


def _read_values(op: Operation) -> list[SSAValue]:
    """The operands of `op` and of the ops in its regions (a body may read outer values)."""
    read = list(op.operands)
    for region in op.regions:
        for inner in region.walk():
            read.extend(inner.operands)
    return read


# ----------------------------------------------------------------------------- handlers


def _pad(ex: _Extractor, op: Operation) -> None:
    assert isinstance(op, tensor.PadOp)
    source = ex.activation(op.source, op)
    if op.low or op.high:
        raise ex.error(op, "with dynamic padding has no Orion layer")
    low, high = tuple(op.static_low.get_values()), tuple(op.static_high.get_values())
    if len(low) != 4 or low[:2] != (0, 0) or high[:2] != (0, 0):
        raise ex.error(op, f"pads low={list(low)} high={list(high)}; Orion pads only H and W of an NCHW tensor")
    if len(set(low[2:] + high[2:])) != 1:
        raise ex.error(op, f"pads low={list(low)} high={list(high)}; Orion pads all four sides alike")
    ex.evaluator.bind(op.source, np.zeros(ex.shapes[source], dtype=np.float32))
    ex.evaluator.eval_op(op)  # zeros in, zeros out iff the padding value is 0 everywhere
    if ex.evaluator.value(op.results[0], op).any():
        raise ex.error(op, "pads with a non-zero value; Orion pads with zeros")
    ex.values[op.results[0]] = _Padded(source, low[2], op)


def _conv_source(ex: _Extractor, value: SSAValue, op: Operation) -> tuple[int, int]:
    """The activation a conv or pool reads and the zero padding it reads it with."""
    found = ex.values.get(value)
    if isinstance(found, _Padded):
        if _readers(value) != 1:
            raise ex.error(found.op, "feeds several ops; Orion pads inside one conv")
        return found.value, found.padding
    return ex.activation(value, op), 0


def _window(ex: _Extractor, op: Operation) -> tuple[int, int]:
    assert isinstance(op, WindowOp)
    strides, dilations = op.window_strides(), op.window_dilations()
    if len(set(strides)) != 1:
        raise ex.error(op, f"has strides {list(strides)}; Orion needs one stride for H and W")
    if len(set(dilations)) != 1:
        raise ex.error(op, f"has dilations {list(dilations)}; Orion needs one dilation for H and W")
    return strides[0], dilations[0]


def _per_channel(ex: _Extractor, init: SSAValue, op: Operation) -> np.ndarray:
    """The per-channel (axis 1) bias an init broadcasts."""
    array = ex.plaintext(init, op, "init")
    rows = np.moveaxis(array, 1, 0).reshape(array.shape[1], -1)
    if not (rows == rows[:, :1]).all():
        raise ex.error(op, "has an init that is not one bias per channel; Orion adds one per channel")
    return rows[:, 0].astype(np.float64)


def _conv(ex: _Extractor, op: Operation) -> None:
    source, padding = _conv_source(ex, op.operands[0], op)
    weight = ex.plaintext(op.operands[1], op, "filter").astype(np.float64)
    stride, dilation = _window(ex, op)
    groups = 1
    if op.name == "linalg.depthwise_conv_2d_nchw_chw":
        groups, weight = weight.shape[0], weight[:, None]
    if weight.shape[2] != weight.shape[3]:
        raise ex.error(op, f"has a {weight.shape[2]}x{weight.shape[3]} filter; Orion packs square filters only")
    bias = _per_channel(ex, op.operands[2], op)
    layer = Conv((source,), op, weight, bias, stride, padding, dilation, groups)
    ex.bind(op.results[0], ex.add_layer(layer, _shape(ex, op)))


def _sum_pool(ex: _Extractor, op: Operation) -> None:
    source, padding = _conv_source(ex, op.operands[0], op)
    window = _shape(ex, op, operand=1)
    stride, dilation = _window(ex, op)
    if window[0] != window[1]:
        raise ex.error(op, f"has a {window[0]}x{window[1]} window; Orion packs square windows only")
    channels = ex.shapes[source][1]
    weight = np.ones((channels, 1, *window))
    layer = Conv((source,), op, weight, _per_channel(ex, op.operands[2], op), stride, padding, dilation, channels)
    ex.bind(op.results[0], ex.add_layer(layer, _shape(ex, op)))


def _matmul(ex: _Extractor, op: Operation) -> None:
    source = ex.activation(op.operands[0], op)
    weight = ex.plaintext(op.operands[1], op, "right-hand matrix").astype(np.float64)
    layer = Linear((source,), op, weight.T.copy(), _per_channel(ex, op.operands[2], op))
    ex.bind(op.results[0], ex.add_layer(layer, _shape(ex, op)))


def _collapse(ex: _Extractor, op: Operation) -> None:
    assert isinstance(op, tensor.CollapseShapeOp)
    source = ex.activation(op.src, op)
    groups = reassociation_groups(op.reassociation)
    if len(ex.shapes[source]) != 4 or groups != [[0], [1, 2, 3]]:
        raise ex.error(op, f"with reassociation {groups} is not a flatten of an NCHW tensor (Orion's Flatten)")
    ex.bind(op.results[0], ex.add_layer(Flatten((source,), op), _shape(ex, op)))


def _generic(ex: _Extractor, op: Operation) -> None:
    """An elementwise generic, or a sum over H and W (a global pool)."""
    assert isinstance(op, linalg.GenericOp)
    if all_parallel(op.iterator_types):
        _pointwise(ex, op)
        return
    if _contraction_operands(op) is not None:
        _contraction(ex, op)
        return
    summand = _spatial_summand(op)
    if summand is None:
        raise ex.error(
            op, "reduces in a way that is neither a sum over H and W nor a contraction with a plaintext weight; "
            "Orion has no such layer"
        )
    if summand is op.body.block.args[0] and len(op.inputs) == 1:
        if not is_identity(affine_maps(op.indexing_maps)[0]):
            raise ex.error(op, "sums an activation read through a non-identity indexing map")
        source = ex.activation(op.inputs[0], op)
    else:  # `out += f(in...)`: a fused elementwise epilogue, f evaluated first
        maps = affine_maps(op.indexing_maps)
        space = next((static_shape(v.type) for v, m in zip(op.inputs, maps) if is_identity(m)), None)
        if space is None:
            raise ex.error(op, "sums over H and W but reads no input at every (n, c, h, w)")
        elementwise = _elementwise_part(op, space)
        ex.evaluator.bind(elementwise.outputs[0], np.zeros(_shape(ex, elementwise), dtype=np.float32))
        _pointwise(ex, elementwise, op)
        source = ex.activation(elementwise.results[0], op)
    _, channels, height, width = ex.shapes[source]
    if height != width:
        raise ex.error(op, f"sums a {height}x{width} plane; Orion packs square windows only")
    weight = np.ones((channels, 1, height, width))
    layer = Conv((source,), op, weight, _per_channel(ex, op.outputs[0], op), height, 0, 1, channels)
    ex.bind(op.results[0], ex.add_layer(layer, _shape(ex, op)))


def _contraction_operands(op: linalg.GenericOp) -> tuple[int, int] | None:
    """For `out[...] += in_a[...] * in_b[...]` (body `acc + a * b` in either order, two
    inputs, one output), the indices of the two inputs in body order; else None."""
    block = op.body.block
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(block.args) != 3:
        return None
    yielded = block.last_op.operands[0] if block.last_op is not None and block.last_op.operands else None
    add = yielded.owner if isinstance(yielded, OpResult) else None
    if add is None or add.name != "arith.addf" or block.args[2] not in add.operands:
        return None
    product = add.operands[1] if add.operands[0] is block.args[2] else add.operands[0]
    mul = product.owner if isinstance(product, OpResult) else None
    if mul is None or mul.name != "arith.mulf" or len(list(block.ops)) != 3:
        return None
    factors = [block.args.index(v) for v in mul.operands if v in block.args[:2]]
    return (factors[0], factors[1]) if sorted(factors) == [0, 1] else None


# A contraction's weight is built over its whole loop space (batch loop fixed): a bound
# that keeps a pathological generic from exhausting memory, far above any example.
MAX_CONTRACTION_LOOPS = 1 << 26


def _contraction(ex: _Extractor, op: linalg.GenericOp) -> None:
    """`out[n, o] += x[n, i...] * w[...]` with x encrypted and w plaintext: the Linear
    whose weight row o holds, at x's flattened sample index, the sum of the w elements
    multiplied with it (heirpy's fused global pool + Linear is such a generic)."""
    encrypted = [i for i, v in enumerate(op.inputs) if v in ex.values]
    if len(encrypted) != 1:
        raise ex.error(op, "multiplies two encrypted values in a contraction; Orion's Linear needs a plaintext weight")
    x_index = encrypted[0]
    source = ex.activation(op.inputs[x_index], op)
    weight = ex.plaintext(op.inputs[1 - x_index], op, "weight").astype(np.float64)
    x_shape = ex.shapes[source]
    if len(x_shape) not in (2, 4):
        raise ex.error(op, f"contracts a rank-{len(x_shape)} activation; Orion's Linear reads NCHW or (N, features)")
    matrix = _contraction_matrix(ex, op, x_index, x_shape, weight)
    out_shape = _shape(ex, op)
    if len(x_shape) == 4:
        source = ex.add_layer(Flatten((source,), op), (x_shape[0], matrix.shape[1]))
    layer = Linear((source,), op, matrix, _per_channel(ex, op.outputs[0], op))
    ex.bind(op.results[0], ex.add_layer(layer, out_shape))


def _contraction_matrix(
    ex: _Extractor, op: linalg.GenericOp, x_index: int, x_shape: tuple[int, ...], weight: np.ndarray
) -> np.ndarray:
    """The (out features, x's sample size) matrix of the contraction `op`: the loop
    that indexes x's and the output's first axis is the batch, which the weight must
    not read; the other loops are summed into the matrix entry they address."""
    maps = affine_maps(op.indexing_maps)
    dims = [projection_dims(m) for m in maps]
    out_shape = _shape(ex, op)
    shapes = [x_shape if i == x_index else weight.shape for i in range(2)] + [out_shape]
    sizes = loop_sizes(maps, shapes)
    x_dims, w_dims, out_dims = dims[x_index], dims[1 - x_index], dims[2]
    if x_dims is None or w_dims is None or out_dims is None or sizes is None:
        raise ex.error(op, "is a contraction whose indexing maps are not projected permutations; "
                       "Orion has no such layer")
    if len(out_shape) != 2 or not x_dims or x_dims[0] != out_dims[0] or out_dims[0] in w_dims:
        raise ex.error(
            op, "is a contraction that is not out[n, o] += x[n, ...] * w[...] with the batch n outside the weight; "
            "Orion's Linear has no such form"
        )
    kinds = iterator_kinds(op.iterator_types)
    if any((kind == "parallel") != (d in out_dims) for d, kind in enumerate(kinds)):
        raise ex.error(op, "has parallel loops the output does not index (or reductions it does)")
    loops = [d for d in range(len(sizes)) if d != out_dims[0]]
    if int(np.prod([sizes[d] for d in loops])) > MAX_CONTRACTION_LOOPS:
        raise ex.error(op, f"is a contraction over more than {MAX_CONTRACTION_LOOPS} points; too large to export")
    grid = np.meshgrid(*(np.arange(sizes[d]) for d in loops), indexing="ij")
    at = dict(zip(loops, (g.ravel() for g in grid)))
    at[out_dims[0]] = np.zeros_like(grid[0].ravel()) if grid else np.zeros(1, dtype=np.int64)
    x_flat = np.ravel_multi_index([at[d] for d in x_dims[1:]], x_shape[1:])
    out_flat = at[out_dims[1]]
    matrix = np.zeros((out_shape[1], int(np.prod(x_shape[1:]))))
    np.add.at(matrix, (out_flat, x_flat), weight[tuple(at[d] for d in w_dims)])
    return matrix


def _spatial_summand(op: linalg.GenericOp) -> SSAValue | None:
    """For `out[n, c, 0, 0] += v` summed over h, w (every input read at (n, c, h, w)
    through parallel maps of the 4 loops), the body's `v`; else None."""
    maps = affine_maps(op.indexing_maps)
    zero = AffineConstantExpr(0)
    if len(op.outputs) != 1 or maps[-1] != AffineMap(4, 0, (AffineDimExpr(0), AffineDimExpr(1), zero, zero)):
        return None
    if iterator_kinds(op.iterator_types) != ["parallel"] * 2 + ["reduction"] * 2:
        return None
    block = op.body.block
    accumulator = block.args[-1]
    yielded = block.last_op.operands[0] if block.last_op is not None else None
    add = yielded.owner if isinstance(yielded, OpResult) else None
    if add is None or add.name != "arith.addf" or accumulator not in add.operands:
        return None
    if _readers(accumulator) != 1 or _readers(add.results[0]) != 1:
        return None
    return add.operands[1] if add.operands[0] is accumulator else add.operands[0]


def _elementwise_part(op: linalg.GenericOp, space: tuple[int, ...]) -> linalg.GenericOp:
    """`op` without its sum: the elementwise generic computing the summand over the
    whole (n, c, h, w) `space`. Detached: it only feeds the exporter's evaluation."""
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)  # the exporter only reads tensor generics
    init = tensor.EmptyOp([], TensorType(result_type.get_element_type(), space))
    body = op.body.clone()
    block = body.block
    yield_op = block.last_op
    assert yield_op is not None and isinstance(yield_op.operands[0], OpResult)
    add = yield_op.operands[0].op
    summand = add.operands[1] if add.operands[0] is block.args[-1] else add.operands[0]
    yield_op.operands = [summand]
    add.detach()
    add.erase()
    maps = [AffineMapAttr(m) for m in affine_maps(op.indexing_maps)[:-1]] + [AffineMapAttr(AffineMap.identity(4))]
    return linalg.GenericOp(
        list(op.inputs), [init.results[0]], body, maps, [IteratorTypeAttr.parallel()] * 4, [init.results[0].type]
    )


def _pointwise(ex: _Extractor, op: Operation, origin: Operation | None = None) -> None:
    """`(s0 * x0 [+ s1 * x1] + b) [** 2]`: the scales and shift fold into the layers
    producing x0 / x1 (or become ChannelAffine layers), then Add, then Square. Layers
    are attributed to `origin` (the IR op) when `op` is a detached part of it."""
    ir_op = origin or op
    variables = [v for v in dict.fromkeys(op.operands) if v in ex.values]
    form = pointwise_form(op, set(variables), ex.evaluator)
    if isinstance(form, str):
        raise ex.error(ir_op, form)
    sources = [ex.activation(v, ir_op) for v in variables]
    scales = list(form.scales)
    if len(sources) == 2 and sources[0] == sources[1]:  # two names of one value
        sources, scales = sources[:1], [scales[0] + scales[1]]
    terms = [
        _scale_shift(ex, ir_op, source, scale, form.shift if i == 0 else np.zeros_like(form.shift))
        for i, (source, scale) in enumerate(zip(sources, scales))
    ]
    value = terms[0]
    if len(terms) == 2:
        if ex.shapes[terms[0]] != ex.shapes[terms[1]]:
            raise ex.error(ir_op, "adds activations of different shapes; Orion's Add needs one shape")
        value = ex.add_layer(Add((terms[0], terms[1]), ir_op), ex.shapes[terms[0]])
    if form.squared:
        value = ex.add_layer(Square((value,), ir_op), ex.shapes[value])
    ex.bind(op.results[0], value, ir_op)


def _scale_shift(ex: _Extractor, op: Operation, source: int, scale: np.ndarray, shift: np.ndarray) -> int:
    """The value `scale * source + shift`: `source` itself for an identity or when the
    scale and shift fold into the layer that produced it, else a ChannelAffine layer."""
    if np.allclose(scale, 1.0, rtol=0.0, atol=1e-6) and not shift.any():
        return source  # an identity, up to the rounding of reading its coefficients
    channel = _channel_vectors(scale, shift)
    if channel is None:
        raise ex.error(op, "scales or shifts elements by other than one number per channel; Orion has no such layer")
    producer = ex.producer(source)
    if isinstance(producer, (Conv, Linear)):
        if ex.readers[source] != 1:
            # Orion's compile folds a batch norm into the conv / linear before it for
            # every reader, so emitting one here would change what the others read.
            raise ex.error(op, "scales the output of a linear layer that other ops read too; Orion cannot express that")
        _fold(producer, *channel)
        return source
    layer = ChannelAffine((source,), op, *channel, len(ex.shapes[source]))
    return ex.add_layer(layer, ex.shapes[source])


def _channel_vectors(scale: np.ndarray, shift: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-channel (axis 1) vectors when both arrays are constant along every other axis."""
    if scale.ndim < 2:
        return None
    vectors = []
    for array in (scale, shift):
        rows = np.moveaxis(array, 1, 0).reshape(array.shape[1], -1)
        if not (rows == rows[:, :1]).all():
            return None
        vectors.append(rows[:, 0].astype(np.float64))
    return vectors[0], vectors[1]


def _fold(layer: Conv | Linear, scale: np.ndarray, shift: np.ndarray) -> None:
    """`scale * layer(x) + shift` as one layer: each output channel's filter row and bias."""
    layer.weight = layer.weight * scale.reshape((-1,) + (1,) * (layer.weight.ndim - 1))
    layer.bias = layer.bias * scale + shift


def _shape(ex: _Extractor, op: Operation, operand: int | None = None) -> tuple[int, ...]:
    value = op.results[0] if operand is None else op.operands[operand]
    shape = static_shape(value.type)
    if shape is None:
        what = "result" if operand is None else f"operand #{operand}"
        raise ex.error(op, f"has a dynamically shaped {what}; Orion needs static shapes")
    return shape


_POINTWISE_OPS = (
    "linalg.map", "linalg.add", "linalg.sub", "linalg.mul", "linalg.div",
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.negf",
)
_HANDLERS: dict[str, Callable[[_Extractor, Operation], None]] = {
    "tensor.pad": _pad,
    "linalg.conv_2d_nchw_fchw": _conv,
    "linalg.depthwise_conv_2d_nchw_chw": _conv,
    "linalg.pooling_nchw_sum": _sum_pool,
    "linalg.matmul": _matmul,
    "tensor.collapse_shape": _collapse,
    "linalg.generic": _generic,
    **{name: _pointwise for name in _POINTWISE_OPS},
}
