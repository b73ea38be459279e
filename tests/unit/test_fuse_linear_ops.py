"""linalg-fuse-linear-ops: the folding rule on its own, then numerics through the
evaluator (before vs after, several seeds) for every linear op, every elementwise form
and torch-mlir's batch-norm export."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_file, load_module
from heirpy.transforms.linear.linalg_fuse_linear_ops import bias_fold_allowed, fold_elementwise
from heirpy.transforms.linear.linear_maps import channel_vector, varying_axes
from heirpy.transforms.linear.linear_match import ElementwiseAffine, LinearOpView

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package
from filecheck_chunks import chunks  # noqa: E402
from filecheck_numerics import narrowest_float  # noqa: E402

INPUTS = Path(__file__).parents[1] / "filecheck/transforms/linalg-fuse-linear-ops/Inputs"


# ----------------------------------------------------------------------------- pure rules
def _view(weight: np.ndarray, out_axis: int, weight_axis: int) -> LinearOpView:
    return LinearOpView(arith.ConstantOp.from_int_and_width(0, 32), 0, 1, out_axis, weight_axis, weight)


def _elementwise(kind: str, constant: np.ndarray, lhs: bool = True) -> ElementwiseAffine:
    op = arith.ConstantOp.from_int_and_width(0, 32)
    return ElementwiseAffine(op, kind, op.result, lhs, constant, op.result)


def test_channel_vector() -> None:
    full = np.broadcast_to(np.array([1.0, 2.0, 3.0])[None, :, None], (2, 3, 4))
    np.testing.assert_array_equal(channel_vector(full, 1), [1.0, 2.0, 3.0])
    assert channel_vector(full, 0) is None
    assert varying_axes(full) == (1,)


def test_fold_rules() -> None:
    w = np.arange(6.0).reshape(3, 2)  # matmul x @ w: columns are output channels
    init = np.ones((4, 2))
    view = _view(w, out_axis=1, weight_axis=1)
    scale = np.broadcast_to(np.array([2.0, 3.0]), (4, 2))
    folded = fold_elementwise(view, init, _elementwise("mul", scale))
    assert folded is not None
    np.testing.assert_array_equal(folded.weight, w * [2.0, 3.0])
    np.testing.assert_array_equal(folded.init, init * scale)  # the bias is scaled too
    folded = fold_elementwise(view, init, _elementwise("sub", scale, lhs=False))
    assert folded is not None
    np.testing.assert_array_equal(folded.weight, -w)
    np.testing.assert_array_equal(folded.init, scale - init)
    # Not fusable: a row scale, a reciprocal, a division by zero.
    assert fold_elementwise(view, init, _elementwise("mul", np.arange(8.0).reshape(4, 2))) is None
    assert fold_elementwise(view, init, _elementwise("div", scale, lhs=False)) is None
    assert fold_elementwise(view, init, _elementwise("div", np.zeros((4, 2)))) is None


# ----------------------------------------------------------------------------- numerics
def _t(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _generic(name: str, src: str, const: str, const_map: str, shape: tuple[int, ...], op: str, lhs: bool = True) -> str:
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    cmap = f"affine_map<({dims}) -> ({const_map})>"
    a, b = ("%in", "%kk") if lhs else ("%kk", "%in")
    iterators = ", ".join(['"parallel"'] * rank)
    return (
        f"%{name}_e = tensor.empty() : {_t(shape)}\n"
        f"%{name} = linalg.generic {{indexing_maps = [{ident}, {cmap}, {ident}], iterator_types = "
        f"[{iterators}]}} ins({src}, {const} : {_t(shape)}, CONSTTYPE) outs(%{name}_e : {_t(shape)}) {{\n"
        f"^bb0(%in: f32, %kk: f32, %out: f32):\n  %v = arith.{op} {a}, {b} : f32\n  linalg.yield %v : f32\n}} -> {_t(shape)}\n"
    )


def _case_conv_bias_scale_batch2() -> str:
    rng = np.random.default_rng(3)
    w = rng.normal(size=(3, 2, 3, 3)).astype(np.float32)
    text = (
        "func.func @main(%x: tensor<2x2x6x6xf32>) -> tensor<2x3x4x4xf32> {\n"
        f"%w = arith.constant dense<{w.tolist()}> : tensor<3x2x3x3xf32>\n"
        "%b = arith.constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>\n"
        "%s = arith.constant dense<[[[2.0]], [[-0.5]], [[3.0]]]> : tensor<3x1x1xf32>\n"
        "%e = tensor.empty() : tensor<2x3x4x4xf32>\n"
        "%bi = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<2x3x4x4xf32>) dimensions = [0, 2, 3]\n"
        "%c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<2x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%bi : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>\n"
    )
    text += _generic("m", "%c", "%s", "d1, 0, 0", (2, 3, 4, 4), "mulf").replace("CONSTTYPE", "tensor<3x1x1xf32>")
    text += _generic("a", "%m", "%b", "d1", (2, 3, 4, 4), "subf", lhs=False).replace("CONSTTYPE", "tensor<3xf32>")
    return text + "return %a : tensor<2x3x4x4xf32>\n}\n"


def _case_matmul(op: str, lhs: bool) -> str:
    rng = np.random.default_rng(5)
    w = rng.normal(size=(4, 3)).astype(np.float32)
    text = (
        "func.func @main(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {\n"
        f"%w = arith.constant dense<{w.tolist()}> : tensor<4x3xf32>\n"
        "%k = arith.constant dense<[1.5, -2.0, 0.25]> : tensor<3xf32>\n"
        "%z = arith.constant dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>\n"
        "%m = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%z : tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    )
    text += _generic("r", "%m", "%k", "d1", (2, 3), op, lhs).replace("CONSTTYPE", "tensor<3xf32>")
    return text + "return %r : tensor<2x3xf32>\n}\n"


def _case_vector(kind: str, op: str) -> str:
    rng = np.random.default_rng(7)
    a = rng.normal(size=(3, 3)).astype(np.float32)
    operands, types = (
        ("%a, %x", "tensor<3x3xf32>, tensor<3xf32>") if kind == "matvec"
        else ("%x, %a", "tensor<3xf32>, tensor<3x3xf32>")
    )
    return (
        "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
        f"%a = arith.constant dense<{a.tolist()}> : tensor<3x3xf32>\n"
        "%k = arith.constant dense<[2.0, -4.0, 0.5]> : tensor<3xf32>\n"
        "%e = arith.constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>\n"
        f"%m = linalg.{kind} ins({operands} : {types}) outs(%e : tensor<3xf32>) -> tensor<3xf32>\n"
        f"%r = arith.{op} %m, %k : tensor<3xf32>\n"
        "return %r : tensor<3xf32>\n}\n"
    )


CASES = {
    "conv_scale_then_rsub_batch2": _case_conv_bias_scale_batch2(),
    "matmul_mul": _case_matmul("mulf", True),
    "matmul_div": _case_matmul("divf", True),
    "matmul_add_const_lhs": _case_matmul("addf", False),
    "matmul_sub": _case_matmul("subf", True),
    "matvec_mul": _case_vector("matvec", "mulf"),
    "matvec_add": _case_vector("matvec", "addf"),
    "vecmat_div": _case_vector("vecmat", "divf"),
}


def test_bias_fold_rule() -> None:
    assert bias_fold_allowed(init_is_zero=False, scale_follows=False)  # init has a bias
    assert bias_fold_allowed(init_is_zero=True, scale_follows=True)  # batch-norm's - mean
    assert not bias_fold_allowed(init_is_zero=True, scale_follows=False)  # a last bias


KEEP_BIAS = "linalg-fuse-linear-ops{bias-into-init=false}"  # linalg-fuse-ops' bias rule


def test_a_last_bias_on_a_zero_init_stays_an_add() -> None:
    text = _case_vector("matvec", "addf").replace("dense<[0.5, -1.0, 2.0]>", "dense<0.0>")
    after = parse(text)
    run_pipeline(after, KEEP_BIAS)
    assert "arith.addf" in [op.name for op in next(iter(after.ops)).body.block.ops]
    # HEIR's rule (the pass's default) moves it into the init.
    heir = parse(text)
    run_pipeline(heir, "linalg-fuse-linear-ops")
    assert "arith.addf" not in [op.name for op in next(iter(heir.ops)).body.block.ops]
    assert check_equivalence(parse(text), heir, "main", seeds=(0, 1)).ok
    # ... unless a scale follows: then the add moves into the init and the scale folds.
    scaled = text.replace(
        "return %r : tensor<3xf32>",
        "%s = arith.mulf %r, %k : tensor<3xf32>\nreturn %s : tensor<3xf32>",
    )
    before, after = parse(scaled), parse(scaled)
    run_pipeline(after, KEEP_BIAS)
    names = [op.name for op in next(iter(after.ops)).body.block.ops]
    assert "arith.addf" not in names and "arith.mulf" not in names
    assert check_equivalence(before, after, "main", seeds=(0, 1)).ok


def _outer_product_of_constants(n: int) -> str:
    """`x + a @ b` with a: n x 1 and b: 1 x n constants (a varying n x n product)."""
    column = ", ".join(f"[{i}.0]" for i in range(n))
    row = ", ".join(f"{i}.0" for i in range(n))
    return f"""
func.func @main(%x: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %a = arith.constant dense<[{column}]> : tensor<{n}x1xf32>
  %b = arith.constant dense<[[{row}]]> : tensor<1x{n}xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %m = linalg.matmul ins(%a, %b : tensor<{n}x1xf32>, tensor<1x{n}xf32>) outs(%init : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %r = arith.addf %x, %m : tensor<{n}x{n}xf32>
  return %r : tensor<{n}x{n}xf32>
}}
"""


def test_a_plaintext_linear_op_folds_up_to_the_constant_size_bound() -> None:
    # 500 x 500 f32 is 1,000,000 bytes, within MAX_FOLDED_BYTES (1 MiB): one literal.
    small = parse(_outer_product_of_constants(500))
    run_pipeline(small, "linalg-fuse-linear-ops")
    ops = list(next(iter(small.ops)).body.block.ops)
    assert [op.name for op in ops] == ["arith.constant", "arith.addf", "func.return"]
    assert ops[1].operands[1] is ops[0].results[0]
    assert check_equivalence(parse(_outer_product_of_constants(500)), small, "main", seeds=(0,)).ok
    # 600 x 600 f32 (1.44 MB) would be a literal over the bound: the matmul stays.
    large = parse(_outer_product_of_constants(600))
    run_pipeline(large, "linalg-fuse-linear-ops")
    assert "linalg.matmul" in [op.name for op in next(iter(large.ops)).body.block.ops]


@pytest.mark.parametrize("name", sorted(CASES))
def test_fused_is_numerically_equal(name: str) -> None:
    text = CASES[name]
    before = parse(text)
    after = parse(text)
    run_pipeline(after, "linalg-fuse-linear-ops")
    func = next(iter(after.ops))
    names = [op.name for op in func.body.block.ops]  # top level: named ops have arith bodies
    assert "linalg.generic" not in names
    assert not any(n in names for n in ("arith.mulf", "arith.divf", "arith.addf", "arith.subf"))
    report = check_equivalence(before, after, "main", seeds=(0, 1, 2))
    assert report.ok, report.summary()


def _filecheck_chunks() -> list[tuple[str, str]]:
    return [
        (f"{path.stem}#{index}", chunk)
        for path in sorted(INPUTS.parent.glob("*.mlir"))
        for index, chunk in enumerate(chunks(path))
    ]


@pytest.mark.parametrize("case", _filecheck_chunks(), ids=lambda c: c[0])
@pytest.mark.parametrize("pipeline", ["linalg-fuse-linear-ops", "linalg-fuse-ops"])
def test_filecheck_inputs_keep_their_values(case: tuple[str, str], pipeline: str) -> None:
    """Every FileCheck input of this pass, through the pass and through the umbrella
    that runs it first: same values under the evaluator (depthwise convs included)."""
    from heirpy.interp.equivalence import random_inputs
    from heirpy.interp.evaluator import Evaluator

    text = case[1]
    before, after = parse(text), parse(text)
    run_pipeline(after, pipeline)
    for func in before.ops:
        name = func.sym_name.data  # type: ignore[attr-defined]
        if "?" in str(func.function_type):  # type: ignore[attr-defined]
            continue  # dynamic shapes: no random inputs to draw (and the pass refuses them)
        reference = Evaluator(before).call(name, random_inputs(func, 0))  # type: ignore[arg-type]
        if not all(np.isfinite(r).all() for r in reference):
            continue  # accumulates into a bare tensor.empty: undefined, any value refines it
        # A function that computes in f16 and returns a wider value (torch-mlir's f32
        # accumulator): composing linear ops drops an f16 rounding between them, so it is
        # judged at f16's tolerance, as its FileCheck `heirpy-equiv` lines judge it.
        storage = narrowest_float(func)  # type: ignore[arg-type]
        wider = storage is not None and any(r.dtype.itemsize > storage.itemsize for r in reference)
        tolerance = {"rtol": 1e-2, "atol": 1e-2} if wider else {}
        report = check_equivalence(before, after, name, seeds=(0, 1), **tolerance)
        assert report.ok, f"@{name}: {report.summary()}"


def test_torch_batch_norm_folds_into_one_conv() -> None:
    path = INPUTS / "conv_batchnorm_torch.mlir"
    before = load_file(path)
    module = parse(path.read_text())
    run_pipeline(module, "linalg-fuse-linear-ops")
    after = load_module(print_module(module))
    names = [op.name for op in after.module.walk()]
    assert names.count("linalg.conv_2d_nchw_fchw") == 1
    assert "linalg.generic" not in names and "cf.assert" not in names
    report = check_equivalence(
        before.module, after.module, "main", seeds=(0, 1, 2),
        resources_a=before.resources, resources_b=after.resources,
    )
    assert report.ok, report.summary()


# ----------------------------------------------------------------------------- constants
def test_reader_folds_through_transpose_and_resources_and_stops_at_arguments() -> None:
    from heirpy.transforms.linear.constant_folding import ConstantFolder

    module = load_file(INPUTS / "conv_batchnorm_torch.mlir")
    reader = ConstantFolder()
    func = next(iter(parse((INPUTS / "conv_batchnorm_torch.mlir").read_text()).ops))
    conv = next(op for op in func.walk() if op.name == "linalg.conv_2d_nchw_fchw")
    weight = reader.fold(conv.operands[1])  # a dense_resource blob
    assert weight is not None and weight.shape == (3, 2, 3, 3)
    assert reader.fold(conv.operands[0]) is None  # the function argument
    assert module.resources  # the same blobs the evaluator reads


@pytest.mark.parametrize(
    "array,expected",
    [
        (np.zeros((2, 3)), ["arith.constant", "tensor.empty", "linalg.fill"]),
        (np.broadcast_to(np.array([1.0, 2.0, 3.0]), (2, 3)), ["arith.constant", "tensor.empty", "linalg.broadcast"]),
        (np.arange(6.0).reshape(2, 3), ["arith.constant"]),
    ],
)
def test_build_init_picks_the_smallest_form(array: np.ndarray, expected: list[str]) -> None:
    from xdsl.dialects.builtin import TensorType, f32

    from heirpy.transforms.linear.constant_folding import build_init

    ops, value = build_init(array.astype(np.float32), TensorType(f32, [2, 3]))
    assert [op.name for op in ops] == expected
    assert value is ops[-1].results[0]


# ----------------------------------------------------------------------------- attention scale
def test_column_scale_needs_whole_output_columns() -> None:
    from heirpy.transforms.linear.linalg_fuse_linear_ops import column_scale

    selected = np.zeros((4, 6), dtype=bool)
    selected[:, :2] = True  # q: the first two columns, every token
    np.testing.assert_array_equal(column_scale(selected, 0.5, 1), [0.5, 0.5, 1, 1, 1, 1])
    selected[0, 3] = True  # one element of another column: not a weight scale
    assert column_scale(selected, 0.5, 1) is None


def test_uniform_factor() -> None:
    from heirpy.transforms.linear.linalg_fuse_linear_ops import uniform_factor

    assert uniform_factor(_elementwise("mul", np.full((2, 2), 0.125))) == 0.125
    assert uniform_factor(_elementwise("div", np.full((2, 2), 8.0))) == 0.125
    assert uniform_factor(_elementwise("mul", np.array([[1.0, 2.0]]))) is None
    assert uniform_factor(_elementwise("mul", np.zeros((2, 2)))) is None
    assert uniform_factor(_elementwise("div", np.full((2, 2), 8.0), lhs=False)) is None  # 8 / x
    assert uniform_factor(_elementwise("add", np.full((2, 2), 8.0))) is None


def test_indices_through_layout_ops_and_what_other_users_read() -> None:
    from heirpy.transforms.linear.element_paths import (
        read_elsewhere,
        reads_of_path_end,
        trace_back,
    )

    chunk = chunks(INPUTS.parent / "attention_scale.mlir")[0]
    func = next(iter(parse(chunk).ops))
    ops = {op.results[0].name_hint: op for op in func.walk() if op.results and op.results[0].name_hint}
    q, product = ops["q"].results[0], ops["s"]
    source, path = trace_back(q)
    assert source is ops["pb"].results[0]
    assert [op.name for op in path] == [
        "tensor.expand_shape", "linalg.transpose", "tensor.extract_slice", "tensor.collapse_shape",
    ]
    selected = reads_of_path_end(source, path).reshape(4, 18)  # type: ignore[union-attr]
    assert selected[:, :6].all() and not selected[:, 6:].any()  # q: columns 0..5
    elsewhere = read_elsewhere(source, q, product).reshape(4, 18)  # type: ignore[union-attr]
    assert elsewhere[:, 6:].all() and not elsewhere[:, :6].any()  # k and v: 6..17


def test_layout_apply_reads_a_rank_reducing_slice_in_the_result_shape() -> None:
    """`extract_slice [0, 0] [1, 3]` into tensor<3xf32> drops the unit dim: the traced
    elements come out 1-D, as the op's result is."""
    from heirpy.transforms.linear.element_paths import layout_apply

    text = """func.func @f(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  %s = tensor.extract_slice %x[1, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
  return %s : tensor<3xf32>
}"""
    func = next(iter(parse(text).ops))
    op = next(op for op in func.walk() if op.name == "tensor.extract_slice")
    got = layout_apply(op, np.arange(6).reshape(2, 3))
    assert got is not None and got.shape == (3,)
    np.testing.assert_array_equal(got, [3, 4, 5])
