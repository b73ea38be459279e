"""The zoo's models: real definitions from timm, torchvision and ultralytics, built with
random weights from a seed and exported to linalg-on-tensors by torch-mlir.

Each `Spec` names a model, the package it comes from and its input size: 64x64 for the
convnets (small enough for a 2-core machine), the native 224 where the model's definition
fixes its resolution (ViT/DeiT position embeddings, LeViT's attention biases), 320 for the
detectors (ultralytics' own YAML, `DetectionModel('yolov8n.yaml')`, nothing downloaded,
Detect in export mode: one tensor of boxes and class scores). Weights come from the
package's own initialiser under `torch.manual_seed(0)`; BatchNorm statistics and affine
parameters are then drawn too (a fresh BN is the identity, which would hide folding bugs).

`export(spec, dtype, directory)` writes `model.mlir` (torch-mlir's
`fx.export_and_import(..., output_type="linalg-on-tensors")`) and `model.npz` (the input
`arg0`, PyTorch's outputs `result*` in the model's dtype, and for f16 models the f32
model's outputs `f32_result*` on the same input, the yardstick of the f16 verdict).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from torchvision_shim import import_torchvision, import_ultralytics_tasks

SEED = 0


@dataclass(frozen=True)
class Spec:
    name: str
    package: str  # timm | torchvision | ultralytics
    family: str
    size: int = 64
    small: bool = False  # in the CI sample's pool and the first to run

    @property
    def detector(self) -> bool:
        return self.package == "ultralytics"


SPECS: tuple[Spec, ...] = (
    Spec("resnet18", "torchvision", "ResNet"),
    Spec("resnet10t", "timm", "ResNet"),
    Spec("regnetx_002", "timm", "RegNet", small=True),
    Spec("regnety_002", "timm", "RegNet"),
    Spec("regnet_x_400mf", "torchvision", "RegNet"),
    Spec("repvgg_a0", "timm", "RepVGG"),
    Spec("mobilenet_v2", "torchvision", "MobileNetV2"),
    Spec("mobilenet_v3_small", "torchvision", "MobileNetV3", small=True),
    Spec("mobilenet_v3_large", "torchvision", "MobileNetV3"),
    Spec("mobilenetv3_small_050", "timm", "MobileNetV3", small=True),
    Spec("mnasnet0_5", "torchvision", "MnasNet"),
    Spec("lcnet_050", "timm", "LCNet", small=True),
    Spec("tinynet_e", "timm", "EfficientNet", small=True),
    Spec("efficientnet_lite0", "timm", "EfficientNet"),
    Spec("efficientnet_b0", "timm", "EfficientNet"),
    Spec("ghostnet_050", "timm", "GhostNet", small=True),
    Spec("ghostnet_100", "timm", "GhostNet"),
    Spec("shufflenet_v2_x0_5", "torchvision", "ShuffleNet", small=True),
    Spec("shufflenet_v2_x1_0", "torchvision", "ShuffleNet"),
    Spec("squeezenet1_1", "torchvision", "SqueezeNet", small=True),
    Spec("squeezenet1_0", "torchvision", "SqueezeNet"),
    Spec("densenet121", "torchvision", "DenseNet"),
    Spec("convnext_atto", "timm", "ConvNeXt", small=True),
    Spec("convnext_femto", "timm", "ConvNeXt"),
    Spec("mobilevit_xxs", "timm", "MobileViT", small=True),
    Spec("mobilevit_xs", "timm", "MobileViT"),
    Spec("vit_tiny_patch16_224", "timm", "ViT", size=224),
    Spec("deit_tiny_distilled_patch16_224", "timm", "DeiT", size=224),  # plain DeiT-tiny is ViT-tiny's net
    Spec("levit_128s", "timm", "LeViT", size=224),
    Spec("yolov5nu", "ultralytics", "YOLOv5u", size=320),
    Spec("yolov8n", "ultralytics", "YOLOv8", size=320),
    Spec("yolo11n", "ultralytics", "YOLO11", size=320),
)
BY_NAME = {spec.name: spec for spec in SPECS}
YAML = {"yolov5nu": "yolov5nu.yaml", "yolov8n": "yolov8n.yaml", "yolo11n": "yolo11n.yaml"}


def randomise_batchnorm(model: Any, generator: Any) -> None:
    """Draw every BatchNorm's running statistics and affine parameters (mean ~ N(0, 0.1),
    var ~ U(0.5, 1.5), weight ~ U(0.5, 1.5), bias ~ N(0, 0.1)): folding them into a conv is
    then a real change of the weights, not the identity a fresh BN is."""
    import torch

    for module in model.modules():
        if isinstance(module, torch.nn.modules.batchnorm._BatchNorm) and module.running_mean is not None:
            shape = module.running_mean.shape
            with torch.no_grad():
                module.running_mean.copy_(torch.randn(shape, generator=generator) * 0.1)
                module.running_var.copy_(torch.rand(shape, generator=generator) + 0.5)
                if module.weight is not None:
                    module.weight.copy_(torch.rand(shape, generator=generator) + 0.5)
                    module.bias.copy_(torch.randn(shape, generator=generator) * 0.1)


def build(spec: Spec) -> Any:
    """The f32 model in eval mode, weights from `SEED`."""
    import torch

    torch.manual_seed(SEED)
    if spec.package == "torchvision":
        model = getattr(import_torchvision().models, spec.name)(weights=None)
    elif spec.package == "timm":
        import_torchvision()
        import timm

        model = timm.create_model(spec.name, pretrained=False)
    else:
        tasks = import_ultralytics_tasks()
        model = tasks.DetectionModel(YAML[spec.name], verbose=False)
        model.model[-1].export = True  # Detect returns one tensor: boxes and class scores
    model.eval()
    randomise_batchnorm(model, torch.Generator().manual_seed(SEED + 1))
    return model


def model_input(spec: Spec) -> np.ndarray:
    return np.random.default_rng(SEED + 2).standard_normal((1, 3, spec.size, spec.size)).astype(np.float32)


def _outputs(value: Any) -> list[np.ndarray]:
    """A model's outputs, flattened (a tuple or list of tensors, or one tensor)."""
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in _outputs(v)]
    return [value.detach().numpy()]


def torch_ms(spec: Spec, runs: int = 10) -> float:
    """PyTorch eager's time for the f32 model on one thread: the median CPU milliseconds
    (process time, as IREE's figures) of `runs` calls after one warm-up call."""
    import torch

    torch.set_num_threads(1)
    model = build(spec)
    x = torch.from_numpy(model_input(spec))
    times = []
    with torch.no_grad():
        model(x)
        for _ in range(runs):
            start = time.process_time()
            model(x)
            times.append(time.process_time() - start)
    return float(np.median(times)) * 1e3


def persist_buffers(model: Any) -> None:
    """Register every non-persistent buffer (LeViT's `attention_bias_idxs`) as persistent.

    torch-mlir's importer looks each buffer of the exported program up in the state dict,
    which leaves non-persistent buffers out, and stops with "Could not find state mapping
    for buffer"; a persistent buffer is the same tensor, so the model computes the same."""
    for module in model.modules():
        saved = module.state_dict(keep_vars=True)
        for name, buffer in list(module.named_buffers(recurse=False)):
            if name not in saved and buffer is not None:
                module.register_buffer(name, buffer, persistent=True)


def export(spec: Spec, dtype: str, directory: Path) -> dict[str, float]:
    """Write `model.mlir` and `model.npz` for `spec` in `dtype` ('f32' or 'f16') under
    `directory`; returns the export's seconds."""
    import torch
    from torch_mlir import fx

    torch.set_num_threads(1)
    directory.mkdir(parents=True, exist_ok=True)
    model = build(spec)
    x = torch.from_numpy(model_input(spec))
    arrays: dict[str, np.ndarray] = {}
    timings: dict[str, float] = {}
    with torch.no_grad():
        f32_results = _outputs(model(x))
        if dtype == "f16":
            model = model.half()
            x = x.half()
            arrays.update({f"f32_result{i}": r for i, r in enumerate(f32_results)})
            results = _outputs(model(x))
        else:
            results = f32_results
    arrays["arg0"] = x.numpy()
    arrays.update({f"result{i}": r for i, r in enumerate(results)})
    persist_buffers(model)
    start = time.perf_counter()
    module = fx.export_and_import(model, x, output_type="linalg-on-tensors", func_name="main")
    text = str(module)
    timings["export_s"] = time.perf_counter() - start
    (directory / "model.mlir").write_text(text)
    np.savez(directory / "model.npz", **arrays)
    return timings
