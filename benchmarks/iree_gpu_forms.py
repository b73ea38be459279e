"""Forms of the 1x1 YOLO head that IREE might compile into one fast GPU kernel (issue 26).

    python benchmarks/iree_gpu_forms.py [--dtype f16|f32] [--keep DIR]

IREE fuses heirpy's lowering of the f16 P3 head (conv, expand_shape, transpose, epilogue) into one
CUDA dispatch, but folds the 255 -> 3 x 85 split into the contraction, whose tiles then fit the
tensor cores worse than the raw 255x6400x128 GEMM's. This script writes the same head by hand in
other forms (the real weights, from examples/yolo_head_k1*.mlir) and prints, per form, what IREE
3.13 makes of it for CUDA sm_80 without a GPU (`iree_gpu.characterise`: dispatches, the root's
loop ranges, the workgroup tile of its lowering config, threads x workgroups). Forms:

- raw: torch-mlir's IR (GEMM, then bias + transpose + sigmoid: 2 dispatches)
- heirpy: `lower-tensor-ext` (conv with zero init, expand_shape, linalg.transpose, epilogue)
- heirpy gpu: `lower-tensor-ext{target=gpu}` (a contraction generic in the epilogue's loop
  order, weights first; the epilogue reads it through the identity)
- weights first, conv order: the same contraction in the conv's loop order (a, c, p) and the
  epilogue writing through the permuted map (a, p, c)
- image first, conv order: as above with the image as the first operand
- epilogue, then layout: bias + sigmoid on the conv's 255x80x80 result, then expand + transpose
- permuted write after conv: conv (zero init), expand_shape, one generic writing (a, p, c)
- named matmul, weights first: linalg.matmul(W, X) -> expand -> transpose -> epilogue
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import heirpy  # noqa: E402
from bench_iree import Tools  # noqa: E402
from iree_gpu import EXAMPLES, VARIANTS, characterise, contraction_cells, dispatch_cell, scaled  # noqa: E402
from markdown_table import markdown_table  # noqa: E402

SIGMOID = """      %n = arith.negf %t : {T}
      %e = math.exp %n : {T}
      %one = arith.constant 1.0 : {T}
      %d = arith.addf %e, %one : {T}
      %r = arith.divf %one, %d : {T}
      linalg.yield %r : {T}"""


def epilogue_body(dtype: str, value: str, bias: str) -> str:
    """`sigmoid(trunc(value + ext(bias)))` as a generic body: the bias and the sum in f32."""
    widen = f"%bf = arith.extf {bias} : f16 to f32" if dtype == "f16" else f"%bf = arith.addf {bias}, %zero_b : f32"
    narrow = "%t = arith.truncf %s : f32 to f16" if dtype == "f16" else "%t = arith.addf %s, %zero_b : f32"
    zero = "      %zero_b = arith.constant 0.0 : f32\n" if dtype == "f32" else ""
    return (f"{zero}      {widen}\n      %s = arith.addf {value}, %bf : f32\n      {narrow}\n"
            + SIGMOID.replace("{T}", dtype))


def header(dtype: str) -> str:
    return f"""module {{
  func.func @main(%x: tensor<1x128x80x80x{dtype}>) -> tensor<1x3x80x80x85x{dtype}> {{
    %w4 = arith.constant dense_resource<WEIGHTS> : tensor<255x128x1x1x{dtype}>
    %b0 = arith.constant dense_resource<BIAS> : tensor<255x{dtype}>
    %bb = tensor.expand_shape %b0 [[0, 1]] output_shape [3, 85] : tensor<255x{dtype}> into tensor<3x85x{dtype}>
"""


def contraction(dtype: str, weights_first: bool, out: str) -> str:
    """The conv as a generic over (a, c, p, k); `out`: its output map's results."""
    shape = {"a, c, p": "3x85x6400", "a, p, c": "3x6400x85"}[out]
    w_map, x_map = "affine_map<(a, c, p, k) -> (a, c, k)>", "affine_map<(a, c, p, k) -> (k, p)>"
    operands = ("%w3, %xc", f"tensor<3x85x128x{dtype}>, tensor<128x6400x{dtype}>", f"{w_map}, {x_map}")
    if not weights_first:
        operands = ("%xc, %w3", f"tensor<128x6400x{dtype}>, tensor<3x85x128x{dtype}>", f"{x_map}, {w_map}")
    first, second = ("%i", "%j") if weights_first else ("%j", "%i")
    widen = "arith.extf" if dtype == "f16" else None
    body = (f"      %ie = {widen} %i : f16 to f32\n      %je = {widen} %j : f16 to f32\n      %m = arith.mulf %ie, %je : f32"
            if widen else "      %m = arith.mulf %i, %j : f32")
    return f"""    %w = tensor.collapse_shape %w4 [[0], [1, 2, 3]] : tensor<255x128x1x1x{dtype}> into tensor<255x128x{dtype}>
    %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [3, 85, 128] : tensor<255x128x{dtype}> into tensor<3x85x128x{dtype}>
    %xc = tensor.collapse_shape %x [[0, 1], [2, 3]] : tensor<1x128x80x80x{dtype}> into tensor<128x6400x{dtype}>
    %z = arith.constant dense<0.0> : tensor<{shape}xf32>
    %c = linalg.generic {{indexing_maps = [{operands[2]}, affine_map<(a, c, p, k) -> ({out})>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins({operands[0]} : {operands[1]}) outs(%z : tensor<{shape}xf32>) {{
    ^bb0({first}: {dtype}, {second}: {dtype}, %acc: f32):
{body}
      %sum = arith.addf %acc, %m : f32
      linalg.yield %sum : f32
    }} -> tensor<{shape}xf32>
"""


def finish(dtype: str, loops: str, read: str, write: str, value: str) -> str:
    """The epilogue over `loops` of 3, 85, 6400, reading `value` and writing 3x6400x85."""
    return f"""    %o = tensor.empty() : tensor<3x6400x85x{dtype}>
    %r = linalg.generic {{indexing_maps = [affine_map<({loops}) -> ({read})>, affine_map<({loops}) -> (a, c)>, affine_map<({loops}) -> ({write})>], iterator_types = ["parallel", "parallel", "parallel"]}} ins({value}, %bb : tensor<{'3x85x6400' if read == 'a, c, p' else '3x6400x85'}xf32>, tensor<3x85x{dtype}>) outs(%o : tensor<3x6400x85x{dtype}>) {{
    ^bb0(%in: f32, %bi: {dtype}, %out: {dtype}):
{epilogue_body(dtype, '%in', '%bi')}
    }} -> tensor<3x6400x85x{dtype}>
    %y = tensor.expand_shape %r [[0, 1], [2, 3], [4]] output_shape [1, 3, 80, 80, 85] : tensor<3x6400x85x{dtype}> into tensor<1x3x80x80x85x{dtype}>
    return %y : tensor<1x3x80x80x85x{dtype}>
  }}
}}
"""


def conv_zero(dtype: str) -> str:
    return f"""    %z = arith.constant dense<0.0> : tensor<1x255x80x80xf32>
    %conv = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w4 : tensor<1x128x80x80x{dtype}>, tensor<255x128x1x1x{dtype}>) outs(%z : tensor<1x255x80x80xf32>) -> tensor<1x255x80x80xf32>
    %cc = tensor.collapse_shape %conv [[0, 1], [2, 3]] : tensor<1x255x80x80xf32> into tensor<255x6400xf32>
    %c = tensor.expand_shape %cc [[0, 1], [2]] output_shape [3, 85, 6400] : tensor<255x6400xf32> into tensor<3x85x6400xf32>
"""


def hand_forms(dtype: str) -> dict[str, str]:
    forms = {
        "weights first, conv order": header(dtype) + contraction(dtype, True, "a, c, p")
        + finish(dtype, "a, c, p", "a, c, p", "a, p, c", "%c"),
        "image first, conv order": header(dtype) + contraction(dtype, False, "a, c, p")
        + finish(dtype, "a, c, p", "a, c, p", "a, p, c", "%c"),
        "permuted write after conv": header(dtype) + conv_zero(dtype) + finish(dtype, "a, c, p", "a, c, p", "a, p, c", "%c"),
        "named matmul, weights first": header(dtype) + f"""    %w = tensor.collapse_shape %w4 [[0], [1, 2, 3]] : tensor<255x128x1x1x{dtype}> into tensor<255x128x{dtype}>
    %xc = tensor.collapse_shape %x [[0, 1], [2, 3]] : tensor<1x128x80x80x{dtype}> into tensor<128x6400x{dtype}>
    %z = arith.constant dense<0.0> : tensor<255x6400xf32>
    %mm = linalg.matmul ins(%w, %xc : tensor<255x128x{dtype}>, tensor<128x6400x{dtype}>) outs(%z : tensor<255x6400xf32>) -> tensor<255x6400xf32>
    %me = tensor.expand_shape %mm [[0, 1], [2]] output_shape [3, 85, 6400] : tensor<255x6400xf32> into tensor<3x85x6400xf32>
    %et = tensor.empty() : tensor<3x6400x85xf32>
    %c = linalg.transpose ins(%me : tensor<3x85x6400xf32>) outs(%et : tensor<3x6400x85xf32>) permutation = [0, 2, 1]
""" + finish(dtype, "a, p, c", "a, p, c", "a, p, c", "%c"),
    }
    # The epilogue on the conv's own layout, then the layout change as view + transpose.
    forms["epilogue, then layout"] = header(dtype) + f"""    %z = arith.constant dense<0.0> : tensor<1x255x80x80xf32>
    %conv = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w4 : tensor<1x128x80x80x{dtype}>, tensor<255x128x1x1x{dtype}>) outs(%z : tensor<1x255x80x80xf32>) -> tensor<1x255x80x80xf32>
    %o0 = tensor.empty() : tensor<1x255x80x80x{dtype}>
    %g = linalg.generic {{indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%conv, %b0 : tensor<1x255x80x80xf32>, tensor<255x{dtype}>) outs(%o0 : tensor<1x255x80x80x{dtype}>) {{
    ^bb0(%in: f32, %bi: {dtype}, %out: {dtype}):
{epilogue_body(dtype, '%in', '%bi')}
    }} -> tensor<1x255x80x80x{dtype}>
    %ge = tensor.expand_shape %g [[0], [1, 2], [3], [4]] output_shape [1, 3, 85, 80, 80] : tensor<1x255x80x80x{dtype}> into tensor<1x3x85x80x80x{dtype}>
    %o = tensor.empty() : tensor<1x3x80x80x85x{dtype}>
    %y = linalg.transpose ins(%ge : tensor<1x3x85x80x80x{dtype}>) outs(%o : tensor<1x3x80x80x85x{dtype}>) permutation = [0, 1, 3, 4, 2]
    return %y : tensor<1x3x80x80x85x{dtype}>
  }}
}}
"""
    return forms


def raw_head(dtype: str) -> str:
    f32 = (EXAMPLES / "yolo_head_k1.mlir").read_text()
    return f32 if dtype == "f32" else scaled((EXAMPLES / "yolo_head_k1_f16.mlir").read_text(), f32)


def hand_forms_with_weights(dtype: str) -> dict[str, str]:
    """`hand_forms` reading the raw head's weights and bias (its dense_resource blobs)."""
    raw = raw_head(dtype)
    resources = raw[raw.index("{-#"):]
    weights = re.search(r"dense_resource<(torch_tensor_255_128_1_1_torch\.float\d+)>", raw).group(1)  # type: ignore[union-attr]
    bias = re.search(r"dense_resource<(torch_tensor_255_torch\.float\d+)>", raw).group(1)  # type: ignore[union-attr]
    forms = {}
    for name, text in hand_forms(dtype).items():
        text = text.replace("WEIGHTS", weights).replace("BIAS", bias) + "\n" + resources
        heirpy.parse(text, name)  # a hand-written form must be valid before IREE sees it
        forms[name] = text
    return forms


def all_forms(dtype: str) -> dict[str, str]:
    raw = raw_head(dtype)
    forms = {"raw": raw}
    for name, pipeline in VARIANTS.items():
        if pipeline is not None:
            module = heirpy.parse(raw, name)
            heirpy.run_pipeline(module, pipeline)
            forms[name] = heirpy.print_module(module)
    return forms | hand_forms_with_weights(dtype)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtype", nargs="+", default=["f16", "f32"])
    parser.add_argument("--keep", default=None)
    parser.add_argument("--iree-bin", default=None)
    args = parser.parse_args()
    tools = Tools.find(args.iree_bin)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        for dtype in args.dtype:
            for name, text in all_forms(dtype).items():
                found = characterise(text, tools.compile, "cuda", root / re.sub(r"\W+", "_", f"{dtype} {name}"))
                rows.append([f"k1 {dtype} b1", name, dispatch_cell(found), *contraction_cells(found)])
                print(f"done: {dtype} {name}", file=sys.stderr, flush=True)
    print("iree-compile --iree-hal-target-device=cuda --iree-cuda-target=sm_80 (IREE 3.13)")
    print(markdown_table(["case", "form", "dispatches", "contraction (loops)", "workgroup tile", "threads x workgroups"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
