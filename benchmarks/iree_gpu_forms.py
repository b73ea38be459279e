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
- heirpy gpu: `iree-prepare{target=gpu}`, i.e. `lower-tensor-ext{target=gpu}` (a contraction generic in the epilogue's loop
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
from gpu_head_forms import hand_forms_with_weights, raw_head  # noqa: E402
from harness import Tools, markdown_table  # noqa: E402
from iree_gpu import VARIANTS, characterise, contraction_cells, dispatch_cell  # noqa: E402


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
