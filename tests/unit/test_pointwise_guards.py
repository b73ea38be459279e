"""linalg_fuse_pointwise's legality helpers on each side: `keeps_reduction_space` (no
reduction loop, no computed tensor read through a broadcast; a broadcast constant is
fine) and `chain_dies` (every link read only by the next, the last only by the reader),
and the pattern sets each option of the pass builds. Found by issue 35's mutation habit."""

from __future__ import annotations

from heirpy.api import parse
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.transforms.pointwise.form_kernel import FormKernel
from heirpy.transforms.pointwise.linalg_fuse_pointwise import (
    chain_dies,
    keeps_reduction_space,
    populate_linalg_fuse_pointwise_patterns,
)

ID = "affine_map<(d0, d1) -> (d0, d1)>"
ROW = "affine_map<(d0, d1) -> (d0, 0)>"
RED = "affine_map<(d0, d1) -> (d0)>"

TEXT = f"""
func.func @f(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> tensor<4x8xf32> {{
  %bias = arith.constant dense<1.0> : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = tensor.empty() : tensor<4xf32>
  %plain = linalg.generic {{indexing_maps = [{ID}, {ROW}, {ID}], iterator_types = ["parallel", "parallel"]}} ins(%x, %bias : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> tensor<4x8xf32>
  %mean = linalg.generic {{indexing_maps = [{ID}, {ROW}, {ID}], iterator_types = ["parallel", "parallel"]}} ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  }} -> tensor<4x8xf32>
  %sum = linalg.generic {{indexing_maps = [{ID}, {RED}], iterator_types = ["parallel", "reduction"]}} ins(%x : tensor<4x8xf32>) outs(%r : tensor<4xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }} -> tensor<4xf32>
  return %plain : tensor<4x8xf32>
}}"""


def test_keeps_reduction_space() -> None:
    generics = {op.results[0].name_hint: op for op in parse(TEXT).walk() if isinstance(op, GenericOp)}

    def keeps(name: str) -> bool:
        op = generics[name]
        maps = [m.data for m in op.indexing_maps]
        kinds = [k.data.value for k in op.iterator_types]  # type: ignore[attr-defined]
        return keeps_reduction_space(op, maps, kinds)

    assert keeps("plain")  # the bias is a constant
    assert not keeps("mean")  # a computed tensor through a broadcast
    assert not keeps("sum")


CHAIN = """
func.func @f(%x: tensor<2x6xf32>) -> (tensor<12xf32>, tensor<2x6xf32>, tensor<12xf32>) {
  %a = tensor.collapse_shape %x [[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
  %b = tensor.expand_shape %a [[0, 1]] output_shape [4, 3] : tensor<12xf32> into tensor<4x3xf32>
  %q = tensor.collapse_shape %b [[0, 1]] : tensor<4x3xf32> into tensor<12xf32>
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
  %r = tensor.collapse_shape %e [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
  %e2 = tensor.expand_shape %c [[0, 1]] output_shape [2, 6] : tensor<12xf32> into tensor<2x6xf32>
  return %r, %e2, %q : tensor<12xf32>, tensor<2x6xf32>, tensor<12xf32>
}"""


def test_chain_dies() -> None:
    ops = {op.results[0].name_hint: op for op in parse(CHAIN).walk() if op.results and op.results[0].name_hint}
    assert chain_dies([ops["e"]], ops["r"])
    assert chain_dies([ops["a"], ops["b"]], ops["q"])  # two links, each read by the next
    assert not chain_dies([ops["c"], ops["e"]], ops["r"])  # %c is read by %e2 too
    assert not chain_dies([ops["e"]], ops["e2"])  # %e is read by %r, not %e2
    assert chain_dies([], ops["r"])


def test_the_sets_of_each_option() -> None:
    assert len(populate_linalg_fuse_pointwise_patterns(kernels=False)) == 1
    sets = populate_linalg_fuse_pointwise_patterns()
    assert len(sets) == 3 and isinstance(sets[1].patterns[0], FormKernel)
    assert sets[0].walk_reverse and not sets[1].walk_reverse
    reductions = [p for p in populate_linalg_fuse_pointwise_patterns(iree_reductions=True)[0].patterns
                  if hasattr(p, "iree_reductions")]
    assert reductions and all(p.iree_reductions for p in reductions)
    assert not any(p.iree_reductions for p in populate_linalg_fuse_pointwise_patterns()[0].patterns
                   if hasattr(p, "iree_reductions"))
