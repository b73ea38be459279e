"""The 1x1 YOLO head written by hand in other one-dispatch forms, and the f16 examples at the
80x80 problem's sizes: the cases benchmarks/iree_gpu.py and benchmarks/iree_gpu_forms.py share
(a module of cases, no script: both import it, it imports neither)."""

from __future__ import annotations

import re
from pathlib import Path

import heirpy
from heirpy.ir.diagnostics import HeirpyError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# The f16 examples are 20x20 (P3), 10x10 (P4), 5x5 (P5); k3 pads 20 to 22. The weights do not
# depend on the image size, so the 80x80 problem is the same IR with these sizes.
SPATIAL = {5: 20, 10: 40, 20: 80, 22: 82}


_TENSOR = re.compile(r"tensor<((?:\d+x)+)([a-z]\w*)>")
_OUTPUT_SHAPE = re.compile(r"output_shape \[([\d, ]+)\]")


def _shapes(text: str) -> set[str]:
    return {m.group(1) for m in _TENSOR.finditer(text)}


def _scale(values: list[str]) -> list[str]:
    return [str(SPATIAL.get(int(v), int(v))) for v in values]


def scaled(text: str, reference: str) -> str:
    """The 20x20 f16 export at the 80x80 problem's sizes (`SPATIAL`), checked against the f32
    export of the same model at 80x80: both must use exactly the same tensor shapes."""
    out = _TENSOR.sub(lambda m: "tensor<" + "x".join(_scale(m.group(1)[:-1].split("x"))) + f"x{m.group(2)}>", text)
    out = _OUTPUT_SHAPE.sub(lambda m: "output_shape [" + ", ".join(_scale(m.group(1).split(","))) + "]", out)
    if _shapes(out) != _shapes(reference):
        raise HeirpyError(f"error: scaling gives shapes {sorted(_shapes(out) ^ _shapes(reference))} the f32 export lacks")
    return out


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
