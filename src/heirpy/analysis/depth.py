"""Multiplicative depth of each function under a simple CKKS cost model.

Under CKKS every multiplication involving a ciphertext consumes a level (a rescale),
and the number of levels a function needs sets the size of the whole parameter set.
This analysis walks each `func.func` once, in order, and gives every SSA value either
"plaintext" or "ciphertext at depth d". It changes nothing in the IR.

The cost model (`CostModel` holds the knobs):

* **What is encrypted.** Every function argument is a ciphertext at depth 0 (the
  client's encrypted input), unless its index is in `plaintext_args` (e.g. weights
  passed as arguments). Constants (`arith.constant`, `tensor.empty`, ...) are plaintext.
  Any op whose inputs are all plaintext is plaintext work: depth 0, never counted.
* **Linear ops** -- `linalg.conv_*`, `depthwise_conv_*`, `matmul`, `matvec`, `vecmat`,
  `batch_matmul`, `quantized_matmul`, `pooling_*_sum`, `tensor_ext.fused_conv_pool`:
  one level above their deepest ciphertext input when one multiplicand is plaintext
  (counted in `linear_ops`). When both multiplicands are ciphertexts (a ct x ct matmul)
  they also cost one level and count as a ct x ct multiply. A sum pool costs a level
  although it only adds: HEIR packs it as a plaintext matrix product, like a conv.
  The init (outs) operand is only added: it contributes its depth, no level.
* **Sum reductions** -- a `linalg.generic` / `linalg.reduce` whose reduction loops
  only add ciphertext elements (torch's global average pool: a generic summing into a
  `(d0, d1, 0, 0)` output, then a uniform divide) -- are linear ops like a sum pool:
  one level above their body's depth (HEIR packs a sum over a window as a plaintext
  matrix product, as for a pool); a square summed (`x*x + acc`) is x² then that sum.
  A reduction whose body multiplies a ciphertext by a varying plaintext (a
  contraction, e.g. a matmul written as a generic) is one linear op, not two; one
  whose body multiplies two ciphertext inputs read through different maps (q·kᵀ as a
  generic; x² summed reads x twice alike: x², then the sum) costs
  what the product costs, as a ct x ct `batch_matmul` does; reductions over size-1
  loops only are copies and cost nothing, and a reduction whose body is not a
  polynomial (a max, softmax's running max) is outside the model like its body; one
  that adds a non-polynomial function of its inputs into the accumulator (relu summed:
  pointwise fusion puts a relu into the global average pool after it) is that function
  (not modelled) and then a sum, one level.
* **`linalg.softmax`** costs what its written-out form does: the exp and the divide
  are not modelled, the sum of the exps is a sum reduction (one level).
* **Kernels** (`tensor_ext.kernel`) cost what their body's ops cost.
* **Elementwise bodies** (`linalg.generic`, `linalg.map`, `linalg.reduce`, named
  elementwise ops, and `arith` ops on whole tensors): the body is read as a polynomial
  in its ciphertext inputs. A polynomial of degree d costs `ceil(log2 d)` levels above
  its deepest ciphertext input (x*x: 1, x*x*x: 2), i.e. the depth of an optimal
  evaluation, not of the op-by-op chain. Each `mulf`/`muli` of two ciphertexts counts
  as a ct x ct multiply. A multiply by a plaintext that varies per element (a
  per-channel scale) costs 1 level and makes the op count as a linear op.
* **Scaling by a uniform constant** (multiply or divide by one plaintext number, e.g.
  the `/ 4` of an average pool) costs `CostModel.scalar_mul_levels`, 0 by default:
  HEIR folds such a scale into the neighbouring linear op's plaintext weights
  (`linalg-fuse-linear-ops`) or into a polynomial's coefficients, and heirpy's fusions
  do the same, so counting it would charge for work no compiler emits.
* **Free:** add, sub, negate, reshape/collapse/expand, transpose, broadcast, fill,
  pad, slices, concat, constants.
* **Not modelled:** non-polynomial functions of a ciphertext (relu via `maximumf` or
  `cmpf`+`select`, `exp`, division by a ciphertext, max pooling) need a polynomial
  approximation whose degree the IR does not say, and unknown ops (calls, other
  dialects). They cost 0 here and are listed in `approximated`; the depth printed is
  then a lower bound, marked with `+`.

**The depth bound** (`CostModel(fused_chains=True)`, `depth_bound`): the same walk, but a
linear op (or a per-element plaintext scale) whose ciphertext input comes straight from
another linear op, with only free ops between (adds, reshapes, uniform scales), costs no
level: one level per maximal chain of linear ops, per x² (per polynomial) and per ct x ct
product, the depth if every linear chain were fused into one op. Non-polynomial ops end a
chain. Two linear ops cost what a rewrite makes of them, not a level: a sum pool whose
window is one element (1x1, any stride) is a strided copy (conv-pool fusion folds it into
the conv before it as the conv's stride; a slice is free), so is a conv whose filter is one
number, or whose filter only selects (each output channel one tap of one input channel, the
same number throughout: canonicalization writes a one-element pool as such a conv), and
a depthwise conv whose
plaintext filter holds one number per tap (one channel, no multiplier) is a sum of
shifted slices each scaled by one number, uniform scales (`unroll-depthwise-conv` writes
it so). The depth itself keeps their level: as written, HEIR packs both as plaintext
matrix products. `heirpy-report` prints the bound beside the depth.

**Weight bytes.** Each linear op also records the bytes of its plaintext multiplicand
(the weight a back end encodes as plaintexts; a per-channel scale's `[C, 1, 1]`
operand, a matmul's `[K, N]` matrix), at the operand's tensor type's size. A pool's
window operand carries no data and counts 0; a uniform scale is not a weight. The
sum over a function is `FunctionDepth.weight_bytes`: what a fusion that folds a pool
into the next layer's weights makes grow.

`analyze_module(module)` returns one `FunctionDepth` per function; `format_depth_table`
prints them; the `report-depth` pass (`heirpy.transforms.report.report_depth`) prints that
table to stderr (stdout stays the IR, so the pass can sit anywhere in a pipeline) and
leaves the IR untouched.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, ShapedType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.traits import IsTerminator

from heirpy.ir.constants import NO_BLOBS, constant_array
from heirpy.ir.dialects.tensor_ext import KernelOp
from heirpy.ir.utils import (
    affine_maps,
    computed_from,
    int_values,
    iterator_kinds,
    loop_sizes,
    producers,
    shape_of,
    tensor_bytes,
)

# ------------------------------------------------------------------------ model
LINEAR_OP_PREFIXES: tuple[str, ...] = (
    "linalg.conv_",
    "linalg.depthwise_conv_",
    "linalg.pooling_nchw_sum",
    "linalg.pooling_nhwc_sum",
    "linalg.pooling_ncw_sum",
)
LINEAR_OPS: frozenset[str] = frozenset(
    {
        "linalg.matmul",
        "linalg.matvec",
        "linalg.vecmat",
        "linalg.batch_matmul",
        "linalg.quantized_matmul",
        "linalg.dot",
        "tensor_ext.fused_conv_pool",
    }
)
# Ops that only move, copy or add data: depth of their deepest ciphertext input.
FREE_OPS: frozenset[str] = frozenset(
    {
        "tensor.empty", "tensor.pad", "tensor.collapse_shape", "tensor.expand_shape",
        "tensor.reshape", "tensor.cast", "tensor.extract_slice", "tensor.insert_slice",
        "tensor.concat", "tensor.splat", "tensor.from_elements", "tensor.extract",
        "tensor.insert", "tensor.dim", "tensor.yield", "linalg.transpose",
        "linalg.broadcast", "linalg.fill", "linalg.copy", "linalg.yield", "linalg.index",
        "arith.constant", "arith.addf", "arith.subf", "arith.addi", "arith.subi",
        "arith.negf", "arith.index_cast", "arith.extf", "arith.truncf", "arith.sitofp",
        "arith.bitcast", "func.return", "bufferization.to_tensor",
    }
)
_MUL_OPS = frozenset({"arith.mulf", "arith.muli"})
_DIV_OPS = frozenset({"arith.divf", "arith.divsi", "arith.divui"})
_MULTIPLICANDS = 2  # a linear op's first two inputs are multiplied; the rest is added


@dataclass(frozen=True)
class CostModel:
    """The knobs of the model (see the module docstring)."""

    plaintext_args: frozenset[int] = frozenset()
    scalar_mul_levels: int = 0
    fused_chains: bool = False  # the depth bound: a linear op after a linear op is free


@dataclass(frozen=True)
class Poly:
    """A ciphertext value: a polynomial of `degree` in ciphertexts of depth <= `base`."""

    base: int
    degree: int = 1
    linear: bool = False  # a linear op made it, only free ops since (the depth bound's chains)

    @property
    def depth(self) -> int:
        return self.base + (math.ceil(math.log2(self.degree)) if self.degree > 1 else 0)

    def materialized(self) -> Poly:
        """The value as a fresh ciphertext after the op that computes it."""
        return Poly(self.depth, 1, self.linear and self.degree == 1)

    def after_linear(self, model: CostModel) -> Poly:
        """The result of a plaintext-ciphertext linear op on this value: one level more,
        none under the depth bound when this value ends a chain of linear ops."""
        free = model.fused_chains and self.linear and self.degree == 1
        return Poly(self.depth if free else self.depth + 1, 1, True)


Info = Poly | None  # None: plaintext


def _join(infos: Iterable[Info]) -> Info:
    """Sum of values: deepest base, highest degree; plaintext if all are. Linear (for the
    depth bound) when every input at the sum's depth is: a shallower addend folds in."""
    cts = [i for i in infos if i is not None]
    if not cts:
        return None
    joined = Poly(max(i.base for i in cts), max(i.degree for i in cts))
    linear = joined.degree == 1 and all(i.linear for i in cts if i.depth == joined.depth)
    return Poly(joined.base, joined.degree, linear)


def _plus_init(product: Poly, added: Iterable[Info]) -> Poly:
    """A linear op's result: its product plus its init (outs), a fresh ciphertext at the
    deeper of the two; linear when every part at that depth is."""
    parts = [product, *(i for i in added if i is not None)]
    depth = max(p.depth for p in parts)
    return Poly(depth, 1, all(p.linear and p.degree == 1 for p in parts if p.depth == depth))


def _nonlinear(info: Info) -> Info:
    """`info` after an op outside the model (relu, exp): it ends any chain of linear ops."""
    return None if info is None else Poly(info.base, info.degree)


def _deepest(infos: Iterable[Info]) -> int:
    return max((i.depth for i in infos if i is not None), default=0)


# ------------------------------------------------------------------------ results
@dataclass(frozen=True)
class FunctionDepth:
    """The analysis result of one function."""

    name: str
    result_depths: tuple[int | None, ...]  # None: the result is plaintext
    linear_ops: int
    ct_ct_muls: int
    approximated: tuple[str, ...] = ()  # ops outside the model: depth is a lower bound
    weight_bytes: int = 0  # plaintext multiplicands of the linear ops (module docstring)

    @property
    def depth(self) -> int:
        return max((d for d in self.result_depths if d is not None), default=0)

    @property
    def exact(self) -> bool:
        return not self.approximated

    def depth_text(self) -> str:
        return f"{self.depth}{'' if self.exact else '+'}"


@dataclass
class _Walker:
    model: CostModel
    env: dict[SSAValue, Info] = field(default_factory=dict)
    linear_ops: int = 0
    ct_ct_muls: int = 0
    approximated: list[str] = field(default_factory=list)
    weight_bytes: int = 0

    def add_weight(self, value: SSAValue) -> None:
        """Count `value` as a linear op's plaintext weight (static tensors only)."""
        self.weight_bytes += tensor_bytes(value.type) or 0

    def info(self, value: SSAValue) -> Info:
        return self.env.get(value)  # values never seen (outer constants) are plaintext

    # ---------------------------------------------------------------- blocks / ops
    def run_block(self, block: Block) -> list[Info]:
        for op in block.ops:
            if op.has_trait(IsTerminator):
                return [self.info(v) for v in op.operands]
            self.visit(op)
        return []

    def visit(self, op: Operation) -> None:
        inputs = [self.info(v) for v in op.operands]
        if all(i is None for i in inputs) and not op.regions:
            results: list[Info] = [None] * len(op.results)
        elif _is_linear(op.name):
            results = [self.linear(op, inputs)] * len(op.results)
        elif op.name in FREE_OPS:
            results = [_join(inputs)] * len(op.results)
        elif op.name == "tensor_ext.kernel" and op.regions and op.regions[0].blocks:
            # Its body runs with the block arguments bound to the operands.
            block = op.regions[0].blocks[0]
            for arg, info in zip(block.args, inputs):
                self.env[arg] = info
            results = self.run_block(block)
        elif op.regions and op.name.startswith("linalg."):
            results = self.structured(op)
        elif op.name == "linalg.softmax" and inputs[0] is not None:
            results = [self.softmax(op, inputs[0])]
        elif op.name.startswith(("arith.", "math.")) and not op.regions:
            results = [self.scalar_op(op, inputs, scalar_of=_outer_scalar)]
            results = [r.materialized() if r is not None else None for r in results]
        else:
            self.approximated.append(op.name)
            results = [_nonlinear(_join(inputs))] * len(op.results)
        for result, value in zip(op.results, results):
            self.env[result] = value

    def linear(self, op: Operation, inputs: Sequence[Info]) -> Info:
        ins_count = _ins_count(op)
        multiplied = inputs[: min(_MULTIPLICANDS, ins_count)]
        added = inputs[min(_MULTIPLICANDS, ins_count):]
        cts = [i for i in multiplied if i is not None]
        if not cts:  # a plaintext linear map plus a ciphertext init: an add
            return _join(added)
        if len(cts) >= 2:
            self.ct_ct_muls += 1
            return _plus_init(Poly(_deepest(multiplied) + 1), added)
        self.linear_ops += 1
        if not op.name.startswith("linalg.pooling_"):  # a window has no data
            for value, info in zip(op.operands, multiplied):
                if info is None:
                    self.add_weight(value)
        if self.model.fused_chains and multiplied[0] is not None and _copy_or_uniform_scale(op):
            # The bound: a copy, or uniform scales of shifted slices (module docstring).
            ct = cts[0]
            return _plus_init(Poly(ct.base + self.model.scalar_mul_levels, ct.degree, ct.linear), added)
        return _plus_init(cts[0].after_linear(self.model), added)

    def softmax(self, op: Operation, input_: Poly) -> Info:
        """`linalg.softmax`: exp and the divide by a ciphertext are outside the model (the
        depth is a lower bound); the sum of the exps is a sum reduction, one linear op,
        as when softmax is written out as five generics, and like any reduction over a
        size-1 loop a copy that costs nothing when the dimension has size 1."""
        self.approximated.append("linalg.softmax")
        dimension = op.properties["dimension"]
        shape = shape_of(op.operands[0])
        assert isinstance(dimension, IntegerAttr)
        if shape is not None and shape[dimension.value.data] == 1:
            return _nonlinear(input_)  # exp and the divide still end a linear chain
        self.linear_ops += 1
        return Poly(input_.depth + 1)

    def structured(self, op: Operation) -> list[Info]:
        """A linalg op with a body: read the body as a polynomial of its ct inputs."""
        region = op.regions[0]
        if not region.blocks:
            return [_join(self.info(v) for v in op.operands)] * len(op.results)
        block = region.blocks[0]
        operands = list(op.operands)
        args = list(block.args)
        for arg, operand in zip(args, operands):
            self.env[arg] = self.info(operand)
        scalars = {arg: _uniform(operand) for arg, operand in zip(args, operands)}
        outer: dict[SSAValue, SSAValue] = dict(zip(args, operands))
        before = self.linear_ops
        ct_ct_before = self.ct_ct_muls
        approximated_before = len(self.approximated)
        pt_muls: list[SSAValue] = []

        def scalar_of(value: SSAValue) -> bool:
            value = _through_casts(value)  # extf %gamma varies as %gamma does
            if isinstance(value, BlockArgument) and value in scalars:
                return scalars[value]
            return _outer_scalar(value)

        for inner in block.ops:
            if inner.has_trait(IsTerminator):
                yielded = [self.info(v) for v in inner.operands]
                break
            if inner.regions or not inner.name.startswith(("arith.", "math.", "linalg.index")):
                self.visit(inner)
                continue
            ins = [self.info(v) for v in inner.operands]
            self.env[inner.results[0]] = (
                None if all(i is None for i in ins) else self.scalar_op(inner, ins, scalar_of, pt_muls)
            ) if inner.results else None
        else:
            yielded = []
        if pt_muls and self.linear_ops == before:
            self.linear_ops += 1  # a plaintext-ciphertext product: one linear op
            for value in dict.fromkeys(outer.get(_through_casts(v), v) for v in pt_muls):
                self.add_weight(value)
        results = [y.materialized() if y is not None else None for y in yielded]
        # A ct x ct contraction (q·kᵀ) multiplies ciphertexts read through different maps;
        # x² (or x·y) summed reads its factors alike, however many operands carry them
        # (fusion passes %x twice): that is the product, then a sum.
        contraction = self.ct_ct_muls > ct_ct_before and self._multiplies_across_maps(op, block)
        polynomial = len(self.approximated) == approximated_before  # no max, exp, ...
        # A non-polynomial function only added into the accumulator (relu summed, as
        # pointwise fusion makes of relu then a global average pool) is that function,
        # then a sum: still a linear op. A running max is not (it reads the accumulator).
        summed = polynomial or _adds_into_outputs(op, block)
        if not pt_muls and not contraction and summed and _sums_over_loops(op):
            # A sum of ciphertext elements over a window: a linear op, like a sum pool.
            self.linear_ops += sum(1 for r in results if r is not None)
            results = [r.after_linear(self.model) if r is not None else None for r in results]
        return (results + [None] * len(op.results))[: len(op.results)]

    def _multiplies_across_maps(self, op: Operation, block: Block) -> bool:
        """Does a ct x ct multiply in `op`'s body have factors read through different
        indexing maps (the maps of the block arguments each factor is computed from)?"""
        maps = _input_maps(op)

        def read(factor: SSAValue) -> frozenset[str]:
            return frozenset(str(maps[arg.index]) for arg in _block_args_of([factor], block)
                             if arg.index < len(maps) and self.info(arg) is not None)

        for inner in block.ops:
            if inner.name not in _MUL_OPS or any(self.info(v) is None for v in inner.operands):
                continue
            # Factors read alike are one value squared, however many maps each reads (fusion
            # puts LayerNorm's (x - mean)² into the sum: x and the broadcast mean, two maps
            # per factor): the square, then the sum, as before the fusion.
            if read(inner.operands[0]) != read(inner.operands[1]):
                return True
        return False

    def scalar_op(
        self,
        op: Operation,
        ins: Sequence[Info],
        scalar_of: Callable[[SSAValue], bool],
        pt_muls: list[SSAValue] | None = None,
    ) -> Info:
        """One arith/math op on ciphertext-or-plaintext operands (scalar or tensor).
        `scalar_of` says whether a plaintext operand is one uniform number."""
        name = op.name
        is_scalar = scalar_of
        if name in FREE_OPS:
            return _join(ins)
        if name in _MUL_OPS and len(ins) == 2:
            a, b = ins
            if a is not None and b is not None:
                self.ct_ct_muls += 1
                return Poly(max(a.base, b.base), a.degree + b.degree)
            ct, pt_value = (a, op.operands[1]) if a is not None else (b, op.operands[0])
            assert ct is not None
            return self._times_plaintext(ct, pt_value, is_scalar(pt_value), pt_muls)
        if name in _DIV_OPS and len(ins) == 2 and ins[1] is None and ins[0] is not None:
            divisor = op.operands[1]
            return self._times_plaintext(ins[0], divisor, is_scalar(divisor), pt_muls)
        if name == "math.fma" and len(ins) == 3:
            a, b, c = ins
            product = (
                Poly(max(a.base, b.base), a.degree + b.degree)
                if a is not None and b is not None
                else _join([a, b])
            )
            if a is not None and b is not None:
                self.ct_ct_muls += 1
            return _join([product, c])
        if name == "math.fpowi" or name == "math.ipowi":
            base = ins[0]
            exponent = _outer_int(op.operands[1])
            if base is not None and exponent is not None and exponent >= 1:
                if exponent > 1:
                    self.ct_ct_muls += max(1, math.ceil(math.log2(exponent)))
                return Poly(base.base, base.degree * exponent)
        self.approximated.append(name)
        return _nonlinear(_join(ins))

    def _times_plaintext(
        self, ct: Poly, plaintext: SSAValue, uniform: bool, pt_muls: list[SSAValue] | None
    ) -> Poly:
        if uniform:
            return Poly(ct.base + self.model.scalar_mul_levels, ct.degree, ct.linear)
        if pt_muls is not None:
            pt_muls.append(plaintext)  # the body's op: counted once per structured op
        else:
            self.linear_ops += 1
            self.add_weight(plaintext)
        return ct.after_linear(self.model)


def _input_maps(op: Operation) -> list[object]:
    """The indexing maps of a structured op's operands, in order (each operand its own
    when the op has none: `linalg.reduce`)."""
    maps_attr = op.properties.get("indexing_maps")
    if maps_attr is None:
        return [f"operand {i}" for i in range(len(op.operands))]
    return list(affine_maps(maps_attr))  # type: ignore[arg-type]


def _adds_into_outputs(op: Operation, block: Block) -> bool:
    """Does every result of the body add its accumulator (the output's block argument) to
    a value that does not depend on it? Then the op sums that value over its reduction
    loops, whatever the value is."""
    terminator = block.last_op
    ins_count = _ins_count(op)
    if terminator is None or not terminator.operands:
        return False
    for index, value in enumerate(terminator.operands):
        if ins_count + index >= len(block.args):
            return False
        acc = block.args[ins_count + index]
        add = value.owner
        if not isinstance(add, Operation) or add.name not in ("arith.addf", "arith.addi") or len(add.operands) != 2:
            return False
        others = [v for v in add.operands if v is not acc]
        if len(others) != 1 or computed_from(others[0], acc, block):
            return False
    return True


def _block_args_of(values: Iterable[SSAValue], block: Block) -> set[BlockArgument]:
    """The arguments of `block` that `values` are computed from (within `block`)."""
    return {v for v in producers(values, block) if isinstance(v, BlockArgument) and v.owner is block}




def _sums_over_loops(op: Operation) -> bool:
    """Does the structured op reduce over a loop of size > 1? (Its body has already been
    found to multiply no ciphertext, so a reduction there sums ciphertext elements.)"""
    if op.name == "linalg.reduce":
        dims = op.properties.get("dimensions")
        shape = shape_of(op.operands[0]) if op.operands else None
        if dims is None or shape is None:
            return False
        return any(shape[d] != 1 for d in int_values(dims))
    iterators = op.properties.get("iterator_types")
    maps_attr = op.properties.get("indexing_maps")
    if iterators is None or maps_attr is None:
        return False
    kinds = iterator_kinds(iterators)  # type: ignore[arg-type]
    if "reduction" not in kinds:
        return False
    shapes = [shape_of(v) for v in op.operands]
    if any(s is None for s in shapes):
        return True  # dynamic: assume a real sum
    sizes = loop_sizes(affine_maps(maps_attr), shapes)  # type: ignore[arg-type]
    if sizes is None:
        return True
    return any(k == "reduction" and n != 1 for k, n in zip(kinds, sizes))


def _copy_or_uniform_scale(op: Operation) -> bool:
    """Is the linear op `op` (whose first operand is a ciphertext, its second plaintext)
    a sum pool with a one-element window (a strided copy), a conv whose filter is one
    number (a strided copy times it), or a depthwise conv whose
    filter has one number per tap: its channel and multiplier dims (`c`, `m` of the
    filter layout in the op's name, e.g. `chw`, `hwcm`) all of size 1?"""
    window = shape_of(op.operands[1]) if len(op.operands) > 1 else None
    if window is None:
        return False
    if op.name.startswith("linalg.pooling_"):  # the linear ones are sums
        return math.prod(window) == 1
    if op.name.startswith("linalg.conv_"):
        return _selecting_filter(op, window)
    if not op.name.startswith("linalg.depthwise_conv_"):
        return False
    parts = op.name.removeprefix("linalg.").split("_")  # depthwise conv 2d nchw chw [q]
    layout = parts[4] if len(parts) > 4 else ""
    if len(layout) != len(window) or not set(layout) <= set("dhwcm"):
        return False
    return math.prod(n for letter, n in zip(layout, window) if letter in "cm") == 1


def _selecting_filter(op: Operation, window: Sequence[int]) -> bool:
    """Does the conv `op` only select: each output channel reads at most one tap of one
    input channel, every such tap the same number? Then it is a strided slice (a channel
    gather) times a uniform scale, as a one-element sum pool is; canonicalization writes
    such a pool as a conv with an identity (or one-number) filter."""
    if math.prod(window) == 1:
        return True
    parts = op.name.removeprefix("linalg.").split("_")  # conv 2d nchw fchw
    layout = parts[3] if len(parts) == 4 else ("hw"[: len(window)] if len(parts) == 2 else "")
    array = constant_array(_outside_kernel(op.operands[1]), NO_BLOBS)  # a kernel reads it as an argument
    if len(layout) != len(window) or array is None or array.shape != tuple(window):
        return False
    outputs = [i for i, letter in enumerate(layout) if letter in "fg"]
    rows = np.moveaxis(array, outputs, list(range(len(outputs)))).reshape(
        math.prod(window[i] for i in outputs), -1)
    nonzero = rows[rows != 0]
    return bool(np.all(np.count_nonzero(rows, axis=1) <= 1) and np.all(nonzero == nonzero.flat[0])) \
        if nonzero.size else True


def _is_linear(name: str) -> bool:
    return name in LINEAR_OPS or name.startswith(LINEAR_OP_PREFIXES)


def _ins_count(op: Operation) -> int:
    inputs = getattr(op, "inputs", None)
    if inputs is not None:
        return len(inputs)
    return len(op.operands)


def _outer_scalar(value: SSAValue) -> bool:
    """A plaintext operand that is one number: a scalar or a splat constant."""
    return _uniform(value)


_UNIFORM_KEEPING = frozenset(
    {"linalg.broadcast", "tensor.expand_shape", "tensor.collapse_shape", "arith.extf", "arith.truncf"}
)
"""Ops whose result is uniform when their first operand is."""

_CASTS = frozenset({"arith.extf", "arith.truncf"})
"""Value-preserving casts for depth purposes: torch-mlir's half-precision export widens
f16 values and constants to f32 (`extf`), computes, and narrows back (`truncf`); the
rounding changes no level, so the cast is transparent (a cast value is as uniform, as
plaintext and as deep as what it casts)."""


def _through_casts(value: SSAValue) -> SSAValue:
    """`value` with the `extf`/`truncf` ops that produce it looked through."""
    while isinstance(value.owner, Operation) and value.owner.name in _CASTS and len(value.owner.operands) == 1:
        value = value.owner.operands[0]
    return value


def _cast_generic_input(op: Operation) -> SSAValue | None:
    """The input of a `linalg.generic` that only casts it elementwise (its body one
    `extf`/`truncf` of the input's block argument, both maps the same permutation-free
    identity), as torch-mlir writes a tensor's `extf`; else None."""
    if op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results) != 1 or not op.regions:
        return None
    maps = _input_maps(op)
    if len(maps) != 2 or maps[0] != maps[1]:
        return None
    block = op.regions[0].blocks.first
    terminator = block.last_op if block is not None else None
    if block is None or terminator is None or len(terminator.operands) != 1:
        return None
    yielded = terminator.operands[0]
    if _through_casts(yielded) is not block.args[0] or yielded is block.args[0]:
        return None
    return op.operands[0]


def _uniform(value: SSAValue) -> bool:
    if not isinstance(value.type, ShapedType):
        return True  # a scalar (its value does not vary per element)
    value = _outside_kernel(value)
    shape = shape_of(value)
    if shape is not None and math.prod(shape) == 1:
        return True  # one number, however it is computed (a one-channel batch-norm's scale)
    # A broadcast or reshape of a uniform plaintext is uniform (canonicalization folds it
    # to a splat, which must not cost less than the form before).
    owner = value.owner
    if isinstance(owner, Operation) and owner.name in _UNIFORM_KEEPING and owner.operands:
        return _uniform(owner.operands[0])
    cast_input = _cast_generic_input(owner) if isinstance(owner, Operation) else None
    if cast_input is not None:  # a splat f16 constant widened by an extf generic
        return _uniform(cast_input)
    # Blobs are not needed: a uniform dense_resource weight is rare, and missing one
    # only makes the model charge a level it could have saved.
    array = constant_array(value, NO_BLOBS)
    return array is not None and array.size > 0 and bool(np.all(array == array.flat[0]))


def _outside_kernel(value: SSAValue) -> SSAValue:
    """A `tensor_ext.kernel` block argument is its operand (the body is isolated from
    above): so a constant the kernel reads is seen as that constant, as before fusion."""
    while isinstance(value, BlockArgument):
        kernel = value.owner.parent_op()
        if not isinstance(kernel, KernelOp):
            break
        value = kernel.operands[value.index]
    return value


def _outer_int(value: SSAValue) -> int | None:
    op = getattr(value, "op", None)
    if isinstance(op, arith.ConstantOp):
        raw = getattr(op.value, "value", None)
        data = getattr(raw, "data", None)
        return int(data) if isinstance(data, int) else None
    return None


# ------------------------------------------------------------------------ entry points
def analyze_function(func: FuncOp, model: CostModel | None = None) -> FunctionDepth:
    """The depth of each result of `func`, its linear ops and ct x ct multiplies."""
    model = model or CostModel()
    walker = _Walker(model)
    name = func.sym_name.data
    if not func.body.blocks:
        return FunctionDepth(name, (), 0, 0)
    block = func.body.blocks[0]
    for index, arg in enumerate(block.args):
        walker.env[arg] = None if index in model.plaintext_args else Poly(0)
    results = walker.run_block(block)
    return FunctionDepth(
        name,
        tuple(r.depth if r is not None else None for r in results),
        walker.linear_ops,
        walker.ct_ct_muls,
        tuple(dict.fromkeys(walker.approximated)),
        walker.weight_bytes,
    )


def depth_bound(func: FuncOp, model: CostModel | None = None) -> FunctionDepth:
    """`analyze_function` under the depth bound (module docstring): what `func` would need
    with every chain of linear ops fused into one op."""
    return analyze_function(func, dataclasses.replace(model or CostModel(), fused_chains=True))


def analyze_module(module: ModuleOp, model: CostModel | None = None) -> list[FunctionDepth]:
    """`analyze_function` for every `func.func` of `module` (nested modules too)."""
    return [analyze_function(op, model) for op in module.walk() if isinstance(op, FuncOp)]


def format_depth_table(rows: Sequence[FunctionDepth]) -> str:
    header = [
        "function", "depth", "result depths", "linear ops", "weight bytes", "ct x ct muls",
        "not modelled",
    ]
    body = [
        [
            f"@{r.name}",
            r.depth_text(),
            ", ".join("pt" if d is None else str(d) for d in r.result_depths) or "-",
            str(r.linear_ops),
            str(r.weight_bytes),
            str(r.ct_ct_muls),
            ", ".join(r.approximated) or "-",
        ]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in [header, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
