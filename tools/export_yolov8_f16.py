"""Export a real f16 detector for examples/: ultralytics' YOLOv8, built from its own YAML.

    python tools/export_yolov8_f16.py [--out DIR] [--no-verify] [--f32-twin]

Run it in heirpy's development venv (torch 2.13 CPU, torch-mlir 20261001, ultralytics 8.4.190;
`tools/ultralytics_shim.py` lets ultralytics import without torchvision's C++ ops or OpenCV).

The model is `ultralytics.nn.tasks.DetectionModel` on the `yolov8n.yaml` that ships in the package,
with one change, its width: a scale `t` of depth 0.33 (YOLOv8n's), width 0.0625 (a quarter of
YOLOv8n's: stage widths 4, 8, 16, 32, 64) and max channels 1024, 80 classes. Every layer and op kind
of YOLOv8n stays (Conv = Conv2d + BN + SiLU, C2f, SPPF with three chained 5x5 max pools, nearest
upsample, concat, the anchor-free Detect head with its DFL softmax and box decoding); only the
channel counts shrink. Why: YOLOv8n's 3.2 M weights would be 13 MB of f16 hex in the `.mlir`.

Weights: `torch.manual_seed(0)` before the model is built (ultralytics' own initialisation), then
every BatchNorm given non-trivial statistics (`export_examples.randomize_batch_norm`, the same
seeded generator), then `.half().eval()`; Detect in export mode (its decoded `(1, 84, anchors)`
output, no NMS). The input is numpy's standard normal draw from seed 0 at 1x3x64x64 in f16
(`npz_recipes`: the `.npz` stores the seed, not the values; P3 8x8, P4 4x4, P5 2x2, 84 anchors),
the reference is PyTorch's own f16 forward on CPU, stored as it is. torch-mlir exports with
`fx.export_and_import(..., output_type="linalg-on-tensors")` and weights as `dense<...>`.

`--f32-twin` writes `yolov8_f32.mlir`/`.npz` instead: the same model before `.half()` (the same
weights, unrounded) on the same input in f32, the twin an f16 model's figures are compared with
(issue 34). It is not committed (3.6 MB of hex); heirpy-report runs on it where it is written.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import torch

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
import ultralytics_shim  # noqa: E402

ultralytics_shim.install()

import export_examples as ex  # noqa: E402

NAME = "yolov8_f16"
SCALE = ("t", [0.33, 0.0625, 1024])  # depth, width, max channels
INPUT = (1, 3, 64, 64)
CLASSES = 20  # PASCAL VOC's classes (ultralytics ships VOC.yaml): 80 would add 0.23 M weights to the head


def yolov8(half: bool = True) -> torch.nn.Module:
    from ultralytics.nn.tasks import DetectionModel, yaml_model_load

    cfg = yaml_model_load("yolov8n.yaml")
    cfg["scales"] = {SCALE[0]: SCALE[1]}
    cfg["scale"] = SCALE[0]
    torch.manual_seed(ex.SEED)
    model = DetectionModel(cfg, ch=3, nc=CLASSES, verbose=False)
    ex.randomize_batch_norm(model)
    model = (model.half() if half else model).eval()
    for module in model.modules():
        if type(module).__name__ == "Detect":
            module.export = True  # the decoded boxes and class scores alone, as an exported model
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ex.REPO / "examples")
    parser.add_argument("--no-verify", action="store_true", help="skip the MLIR JIT comparison")
    parser.add_argument("--f32-twin", action="store_true", help="write the f32 twin yolov8_f32 instead")
    args = parser.parse_args()
    name, dtype = ("yolov8_f32", "float32") if args.f32_twin else (NAME, "float16")
    model = yolov8(half=not args.f32_twin)
    inputs = ex.seeded_inputs((INPUT,), dtype)
    with torch.no_grad():
        output = model(*inputs)
    assert output.dtype == inputs[0].dtype, output.dtype
    text = ex.export_torch_mlir(model, inputs, dense_weights=True)
    path = args.out / f"{name}.mlir"
    ex.write_text(path, text)
    ex.save_npz(args.out / f"{name}.npz", inputs, [output], None)
    counts = ex.op_inventory(text)
    ex.check_dialects(name, counts)
    weights = sum(p.numel() for p in model.parameters())
    print(f"{path.name}: {weights} weights, {tuple(inputs[0].shape)} -> {tuple(output.shape)}, "
          f"{path.stat().st_size / 1e6:.2f} MB; " + ", ".join(f"{op} x{n}" for op, n in sorted(counts.items())))
    if not args.no_verify:
        print(f"  JIT vs PyTorch max abs err {ex.verify(path, args.out / f'{name}.npz'):.2e}")


if __name__ == "__main__":
    assert importlib.util.find_spec("torch_mlir") is not None, "needs torch-mlir"
    main()
