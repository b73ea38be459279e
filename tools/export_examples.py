"""Regenerate the example models in examples/ from PyTorch.

Needs (none of these is a dependency of heirpy or its tests; the exported files are committed):
    torch==2.13.0 (the CPU wheel)
    torch-mlir (nightly 20261001; provides torch_mlir.fx and MLIR's Python bindings and JIT)
    iree-base-compiler==3.13.0 (provides the iree-import-onnx and iree-opt executables)
    onnx (read by iree-import-onnx; the legacy TorchScript exporter needs no onnxscript)

Run from anywhere:
    /work/genvenv/bin/python tools/export_examples.py [--out DIR] [--no-verify]

Every model is built in eval mode right after torch.manual_seed(0); its input i is numpy's draw from
seed i (`seeded_inputs`), so reruns with the same torch version write the same files.
For each model this writes <name>.mlir (linalg-on-tensors, as the front end printed it) and <name>.npz
(PyTorch's outputs result0.., float32, and the seeds of the inputs arg0..: heirpy.interp.npz_recipes).
Unless --no-verify is given, every written .mlir is then compiled with MLIR's own JIT (through
torch-mlir's bindings) and its output compared with the .npz, which checks the ONNX route and the
dense_resource rewrite, not only the torch-mlir export.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import importlib.util
import re
import subprocess
import sys
import tempfile
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch_mlir import fx, ir, passmanager
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.extras.fx_importer import FxImporterHooks, GraphNodeImporter, InputInfo
from torch_mlir.runtime import (
    get_ranked_memref_descriptor,
    make_nd_memref_descriptor,
    ranked_memref_to_numpy,
)

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # iree-import-onnx / iree-opt live next to the venv's python
# cf: torch-mlir guards the batch-norm reciprocal with a `cf.assert` inside a generic.
ALLOWED_DIALECTS = {"builtin", "func", "arith", "math", "tensor", "linalg", "cf"}
SEED = 0
ONNX_OPSET = 17


def _load_npz_recipes() -> types.ModuleType:
    """heirpy.interp.npz_recipes, the one reader and writer of the examples' recipes, by its path:
    this environment has torch-mlir but not heirpy (nor xDSL), and the module needs only numpy."""
    spec = importlib.util.spec_from_file_location("npz_recipes", REPO / "src" / "heirpy" / "interp" / "npz_recipes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


npz_recipes = _load_npz_recipes()


# --------------------------------------------------------------------------------------------- models
class Square(nn.Module):
    """x * x, the polynomial activation of encrypted-inference nets."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * x


def tiny_cnn() -> nn.Module:
    # 1x1x8x8 -> conv 1x2x8x8 -> pool 1x2x4x4 -> conv 1x4x4x4 -> pool 1x4x2x2 -> 16 -> 10
    return nn.Sequential(
        nn.Conv2d(1, 2, 3, padding=1),
        nn.AvgPool2d(2),
        Square(),
        nn.Conv2d(2, 4, 3, padding=1),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Linear(16, 10),
    )


def alexnet_tiny() -> nn.Module:
    # 1x3x16x16 -> 1x4x8x8 -> 1x8x4x4 -> 1x16x2x2 -> 64 -> 10
    return nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.AvgPool2d(2),
        Square(),
        nn.Conv2d(4, 8, 3, padding=1),
        nn.AvgPool2d(2),
        Square(),
        nn.Conv2d(8, 16, 3, padding=1),
        nn.AdaptiveAvgPool2d(2),
        Square(),
        nn.Flatten(),
        nn.Linear(64, 10),
    )


class YoloHead(nn.Module):
    """One YOLOv5s Detect level: 3 anchors x (80 classes + 5) channels, then sigmoid."""

    def __init__(self, k: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(128, 255, k, padding=k // 2, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bs, _, ny, nx = x.shape
        y = self.conv(x).view(bs, 3, 85, ny, nx).permute(0, 1, 3, 4, 2)
        return torch.sigmoid(y)


def randomize_batch_norm(model: nn.Module) -> nn.Module:
    """Give every BatchNorm2d non-trivial running statistics and affine parameters.

    A freshly built BatchNorm has mean 0, variance 1, weight 1 and bias 0, so in eval mode it is the
    identity up to eps and a fusion that dropped it would go unnoticed. The draws come from the same
    seeded generator as the weights, so the export stays reproducible.
    """
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            channels = module.num_features
            with torch.no_grad():
                module.running_mean.copy_(0.1 * torch.randn(channels))
                module.running_var.copy_(0.5 + torch.rand(channels))
                module.weight.copy_(1.0 + 0.1 * torch.randn(channels))
                module.bias.copy_(0.1 * torch.randn(channels))
    return model


def calibrate_batch_norm(model: nn.Module, shape: tuple[int, ...], scale: float, batches: int = 4) -> nn.Module:
    """Give every BatchNorm2d the running statistics of its input on random images, and small affine terms.

    With x² and identity shortcuts, random statistics make ResNet-20's activations square their way
    past float32's range (`(bn(conv(x)) + x)²` nine times over). Training keeps them in range; here
    each BN's mean and variance are those of its input over `batches` train-mode passes of 16
    `torch.randn` images (cumulative average, as after training), its weight `scale·(1 + 0.1·randn)`
    and its bias `scale·0.1·randn`, so each normalised output has a spread of about `scale`. The
    draws come from the seeded generator, so the export stays reproducible.
    """
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.momentum = None  # a cumulative average over the calibration batches
            module.reset_running_stats()
            with torch.no_grad():
                module.weight.copy_(scale * (1.0 + 0.1 * torch.randn(module.num_features)))
                module.bias.copy_(scale * 0.1 * torch.randn(module.num_features))
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn((16, *shape[1:])))
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.momentum = 0.1  # torch's default again, so the exported module is a plain BN
    return model.eval()


def cryptonets() -> nn.Module:
    """CryptoNets (Gilad-Bachrach et al., ICML 2016), the 8-layer MNIST network as the paper lists it.

    1x1x28x28 -> conv 5x5 stride 2 (pad 1; the paper pads to 29x29) 1x5x13x13 -> x² -> scaled mean
    pool 3x3 -> conv 5x5 stride 2, 50 maps, 1x50x5x5 -> scaled mean pool 3x3 -> flatten 1250 ->
    Linear(1250, 100) -> x² -> Linear(100, 10). The paper collapses the linear layers between the two
    squares (pool, conv, pool, fc) into one 845 -> 100 layer by hand; here that is left to the
    compiler. The mean pools keep the size (stride 1, pad 1, count_include_pad: a uniform 1/9 scale).
    """
    return nn.Sequential(
        nn.Conv2d(1, 5, 5, stride=2, padding=1),
        Square(),
        nn.AvgPool2d(3, stride=1, padding=1),
        nn.Conv2d(5, 50, 5, stride=2),
        nn.AvgPool2d(3, stride=1, padding=1),
        nn.Flatten(),
        nn.Linear(1250, 100),
        Square(),
        nn.Linear(100, 10),
    )


def lola_mnist() -> nn.Module:
    """LoLa's MNIST network (Brutzkus et al., ICML 2019): CryptoNets with its linear layers collapsed.

    1x1x28x28 -> conv 5x5 stride 2 (pad 1) 1x5x13x13 -> x² -> flatten 845 -> Linear(845, 100) -> x²
    -> Linear(100, 10): one linear layer between nonlinearities already, so depth is at its bound.
    """
    return nn.Sequential(
        nn.Conv2d(1, 5, 5, stride=2, padding=1),
        Square(),
        nn.Flatten(),
        nn.Linear(845, 100),
        Square(),
        nn.Linear(100, 10),
    )


def lenet5() -> nn.Module:
    """LeNet-5 (LeCun et al. 1998) as encrypted-inference papers use it: average pools and x².

    1x1x28x28 -> conv 5x5 pad 2 1x6x28x28 -> x² -> AvgPool2d(2) 1x6x14x14 -> conv 5x5 1x16x10x10 -> x²
    -> AvgPool2d(2) 1x16x5x5 -> flatten 400 -> Linear(400, 120) -> x² -> Linear(120, 84) -> x²
    -> Linear(84, 10).
    """
    return nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2),
        Square(),
        nn.AvgPool2d(2),
        nn.Conv2d(6, 16, 5),
        Square(),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Linear(400, 120),
        Square(),
        nn.Linear(120, 84),
        Square(),
        nn.Linear(84, 10),
    )


class ResNetBasicBlock(nn.Module):
    """A ResNet basic block (He et al. 2016) with x² for ReLU, as in ResNet-20's first CIFAR-10 stage.

    1x16x32x32 -> conv 3x3 pad 1 (no bias) -> BN -> x² -> conv 3x3 pad 1 (no bias) -> BN -> + input -> x².
    """

    def __init__(self, channels: int = 16) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn1(self.conv1(x))
        y = y * y
        y = self.bn2(self.conv2(y)) + x
        return y * y


def mobilenet_block() -> nn.Module:
    """A MobileNet (Howard et al. 2017) depthwise-separable block with x² for ReLU, then a classifier.

    1x32x32x32 -> depthwise conv 3x3 pad 1 (groups 32, no bias) -> BN -> x² -> pointwise conv 1x1
    32 -> 64 (no bias) -> BN -> x² -> AdaptiveAvgPool2d(1) -> flatten 64 -> Linear(64, 10).
    """
    return nn.Sequential(
        nn.Conv2d(32, 32, 3, padding=1, groups=32, bias=False),
        nn.BatchNorm2d(32),
        Square(),
        nn.Conv2d(32, 64, 1, bias=False),
        nn.BatchNorm2d(64),
        Square(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(64, 10),
    )


class VitAttention(nn.Module):
    """ViT multi-head self-attention (Dosovitskiy et al. 2021), written the way timm's `Attention` is.

    ViT-Tiny sizes: 197 tokens (14x14 patches + class token) of width 192, 3 heads of 64.
    x -> Linear(192, 576) -> reshape(1, 197, 3, 3, 64) -> permute(2, 0, 3, 1, 4) -> q, k, v
    -> softmax(q·kᵀ / 8) -> ·v -> transpose(1, 2) -> reshape(1, 197, 192) -> Linear(192, 192).
    """

    def __init__(self, dim: int = 192, heads: int = 3) -> None:
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        y = (attn @ v).transpose(1, 2).reshape(b, n, c)
        return self.proj(y)


class YoloV5Detect(nn.Module):
    """The YOLOv5s Detect layer (ultralytics/yolov5, models/yolo.py): 3 scales, 3 anchors x 85 outputs.

    Inputs P3 1x128x80x80, P4 1x256x40x40, P5 1x512x20x20 (a 640x640 image). Each level: Conv2d(C,
    255, 1, bias) -> view(1, 3, 85, ny, nx) -> permute(0, 1, 3, 4, 2) -> sigmoid. With concat=False
    it returns the three heads; with concat=True it takes the export form: each head viewed as
    (1, 3*ny*nx, 85) and the three concatenated into 1x25200x85. The box decoding (grid and anchor
    arithmetic) of YOLOv5's inference branch is left out: a pointwise tail, not the layout problem.
    """

    def __init__(self, concat: bool) -> None:
        super().__init__()
        self.concat = concat
        self.m = nn.ModuleList(nn.Conv2d(c, 255, 1) for c in (128, 256, 512))

    def forward(self, *levels: torch.Tensor) -> torch.Tensor | tuple[torch.Tensor, ...]:
        heads = []
        for conv, x in zip(self.m, levels):
            bs, _, ny, nx = x.shape
            heads.append(torch.sigmoid(conv(x).view(bs, 3, 85, ny, nx).permute(0, 1, 3, 4, 2)))
        if self.concat:
            return torch.cat([h.reshape(h.shape[0], -1, 85) for h in heads], 1)
        return tuple(heads)



# ------------------------------------------------------------------------------------ whole networks
class CifarBasicBlock(nn.Module):
    """ResNet-20's basic block with x² for ReLU; a 1x1 conv + BN shortcut where the shape changes.

    He et al. pad the identity shortcut with zero channels ("option A") on CIFAR; the FHE
    implementations of ResNet-20 (Orion's `models/resnet.py` among them) use the 1x1 projection
    ("option B"), which keeps every op a conv: so does this one.
    """

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn1(self.conv1(x))
        y = y * y
        y = self.bn2(self.conv2(y)) + self.shortcut(x)
        return y * y


class ResNet20(nn.Module):
    """ResNet-20 for CIFAR-10 (He et al. 2016, section 4.2), x² for ReLU: the standard FHE benchmark.

    1x3x32x32 -> conv 3x3 (3 -> 16) -> BN -> x² -> 3 stages of 3 basic blocks (16 channels at 32x32,
    32 at 16x16, 64 at 8x8; the first block of stages 2 and 3 has stride 2) -> AdaptiveAvgPool2d(1)
    -> flatten 64 -> Linear(64, 10). 19 convs on the main path, 2 shortcut convs, 0.27 M weights.
    """

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        blocks: list[nn.Module] = []
        cin = 16
        for stage, cout in enumerate((16, 32, 64)):
            for index in range(3):
                blocks.append(CifarBasicBlock(cin, cout, 2 if stage > 0 and index == 0 else 1))
                cin = cout
        self.layers = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn1(self.conv1(x))
        y = self.layers(y * y)
        return self.fc(torch.flatten(self.pool(y), 1))


def make_divisible(value: float, divisor: int = 8) -> int:
    """torchvision's `_make_divisible`: round a scaled width to a multiple of 8, losing at most 10%."""
    rounded = max(divisor, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


class InvertedResidual(nn.Module):
    """MobileNetV2's block: 1x1 expand (unless t = 1) -> depthwise 3x3 -> 1x1 project, BN after each,
    ReLU6 after the first two, and the input added back when the shape is kept."""

    def __init__(self, cin: int, cout: int, stride: int, expand: int) -> None:
        super().__init__()
        hidden = cin * expand
        layers: list[nn.Module] = []
        if expand != 1:
            layers += [nn.Conv2d(cin, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6()]
        layers += [
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(),
            nn.Conv2d(hidden, cout, 1, bias=False),
            nn.BatchNorm2d(cout),
        ]
        self.conv = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv(x) if self.residual else self.conv(x)


class MobileNetV2(nn.Module):
    """MobileNetV2 (Sandler et al. 2018), width 0.5, for CIFAR-10, with ReLU6 as in the paper.

    torchvision's block table (t, c, n, s) with every width halved and rounded to a multiple of 8
    (16, 8, 16, 16, 32, 48, 80, 160), the last 1x1 conv at 1280 (torchvision keeps 1280 for widths
    below 1). CIFAR stem, as the CIFAR ports do: the first conv and the second stage have stride 1
    instead of 2, so 32x32 inputs end at 4x4. 1x3x32x32 -> ... -> 1x1280x4x4 -> global pool ->
    Linear(1280, 10). 52 convs (17 depthwise), 0.72 M weights.
    """

    BLOCKS = ((1, 16, 1, 1), (6, 24, 2, 1), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1))

    def __init__(self, width: float = 0.5, last: int = 1280, classes: int = 10) -> None:
        super().__init__()
        cin = make_divisible(32 * width)
        layers: list[nn.Module] = [nn.Conv2d(3, cin, 3, 1, 1, bias=False), nn.BatchNorm2d(cin), nn.ReLU6()]
        for expand, channels, repeats, stride in self.BLOCKS:
            cout = make_divisible(channels * width)
            for index in range(repeats):
                layers.append(InvertedResidual(cin, cout, stride if index == 0 else 1, expand))
                cin = cout
        layers += [nn.Conv2d(cin, last, 1, bias=False), nn.BatchNorm2d(last), nn.ReLU6()]
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(last, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(torch.flatten(self.pool(self.features(x)), 1))


class YoloConv(nn.Module):
    """YOLOv5's `Conv`: Conv2d (no bias, pad k//2 unless given) -> BatchNorm2d -> SiLU."""

    def __init__(self, cin: int, cout: int, k: int = 1, stride: int = 1, pad: int | None = None) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, k // 2 if pad is None else pad, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = nn.SiLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.bn(self.conv(x)))


class YoloBottleneck(nn.Module):
    def __init__(self, channels: int, shortcut: bool) -> None:
        super().__init__()
        self.cv1 = YoloConv(channels, channels, 1)
        self.cv2 = YoloConv(channels, channels, 3)
        self.add = shortcut

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C3(nn.Module):
    """YOLOv5's CSP block: two 1x1 branches, n bottlenecks on one, concat, 1x1."""

    def __init__(self, cin: int, cout: int, repeats: int, shortcut: bool = True) -> None:
        super().__init__()
        hidden = cout // 2
        self.cv1 = YoloConv(cin, hidden)
        self.cv2 = YoloConv(cin, hidden)
        self.cv3 = YoloConv(2 * hidden, cout)
        self.m = nn.Sequential(*(YoloBottleneck(hidden, shortcut) for _ in range(repeats)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.cv3(torch.cat((self.m(self.cv1(x)), self.cv2(x)), 1))


class SPPF(nn.Module):
    """YOLOv5's spatial pyramid pooling (fast): 1x1, three chained MaxPool2d(5, 1, 2), concat, 1x1."""

    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        hidden = cin // 2
        self.cv1 = YoloConv(cin, hidden)
        self.cv2 = YoloConv(hidden * 4, cout)
        self.m = nn.MaxPool2d(5, 1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.cv1(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))


class YoloV5(nn.Module):
    """A whole YOLOv5 (ultralytics/yolov5 v7.0, models/yolov5*.yaml): backbone, PANet neck, Detect.

    The yaml's layers with depth multiple 0.33 (as YOLOv5n/s: C3 repeats 1, 2, 3, 1) and width
    multiple 0.125 (half of YOLOv5n: stage widths 8, 16, 32, 64, 128), 80 classes, on a 1x3x160x160
    image: P3 20x20, P4 10x10, P5 5x5. Detect as in `YoloV5Detect(concat=True)`: per level a 1x1
    Conv2d(C, 255, bias) -> view -> permute -> sigmoid -> (1, 3·ny·nx, 85), concatenated into
    1x1575x85; the box decoding is left out, as there. 60 convs, 0.50 M weights.
    """

    def __init__(self, width: float = 0.125, depth: float = 0.33, classes: int = 80) -> None:
        super().__init__()

        def ch(channels: int) -> int:
            return make_divisible(channels * width)

        def n(repeats: int) -> int:
            return max(round(repeats * depth), 1)

        self.outputs = classes + 5
        self.backbone_p3 = nn.Sequential(
            YoloConv(3, ch(64), 6, 2, 2),
            YoloConv(ch(64), ch(128), 3, 2),
            C3(ch(128), ch(128), n(3)),
            YoloConv(ch(128), ch(256), 3, 2),
            C3(ch(256), ch(256), n(6)),
        )
        self.backbone_p4 = nn.Sequential(YoloConv(ch(256), ch(512), 3, 2), C3(ch(512), ch(512), n(9)))
        self.backbone_p5 = nn.Sequential(
            YoloConv(ch(512), ch(1024), 3, 2), C3(ch(1024), ch(1024), n(3)), SPPF(ch(1024), ch(1024))
        )
        self.lateral5 = YoloConv(ch(1024), ch(512))
        self.up = nn.Upsample(None, 2, "nearest")
        self.top_down4 = C3(ch(1024), ch(512), n(3), False)
        self.lateral4 = YoloConv(ch(512), ch(256))
        self.top_down3 = C3(ch(512), ch(256), n(3), False)
        self.down3 = YoloConv(ch(256), ch(256), 3, 2)
        self.bottom_up4 = C3(ch(512), ch(512), n(3), False)
        self.down4 = YoloConv(ch(512), ch(512), 3, 2)
        self.bottom_up5 = C3(ch(1024), ch(1024), n(3), False)
        self.m = nn.ModuleList(nn.Conv2d(c, 3 * self.outputs, 1) for c in (ch(256), ch(512), ch(1024)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        p3 = self.backbone_p3(x)
        p4 = self.backbone_p4(p3)
        x10 = self.lateral5(self.backbone_p5(p4))
        x14 = self.lateral4(self.top_down4(torch.cat((self.up(x10), p4), 1)))
        out3 = self.top_down3(torch.cat((self.up(x14), p3), 1))
        out4 = self.bottom_up4(torch.cat((self.down3(out3), x14), 1))
        out5 = self.bottom_up5(torch.cat((self.down4(out4), x10), 1))
        heads = []
        for conv, feature in zip(self.m, (out3, out4, out5)):
            bs, _, ny, nx = feature.shape
            head = torch.sigmoid(conv(feature).view(bs, 3, self.outputs, ny, nx).permute(0, 1, 3, 4, 2))
            heads.append(head.reshape(bs, -1, self.outputs))
        return torch.cat(heads, 1)


def vgg_cifar() -> nn.Module:
    """A VGG-style CIFAR-10 net with average pools between its stages (the shape of Orion's VGG/AlexNet).

    1x3x32x32 -> 3 stages, widths 16, 32, 64: (Conv2d 3x3 pad 1, no bias -> BN -> x²) x 2 ->
    AvgPool2d(2) -> AdaptiveAvgPool2d(1) -> flatten 64 -> Linear(64, 10). Each pool is followed by a
    zero-padded conv (or the global pool), so it folds into the next linear op only through the pad.
    """
    layers: list[nn.Module] = []
    cin = 3
    for cout in (16, 32, 64):
        for _ in range(2):
            layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), Square()]
            cin = cout
        layers.append(nn.AvgPool2d(2))
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))


YOLO_LEVELS = ((1, 128, 80, 80), (1, 256, 40, 40), (1, 512, 20, 20))


@dataclass(frozen=True)
class SameResults:
    """PyTorch's outputs of a model are, bit for bit, those of `source` (its `arrays`, each
    reshaped to `reshape` and concatenated along `axis`): the .npz says so instead of storing
    them again. The export checks the equality; a model whose outputs differ is an error."""

    source: str
    arrays: tuple[str, ...]
    reshape: tuple[int, ...] | None = None
    axis: int = 0


@dataclass(frozen=True)
class Example:
    """How one example is built: the model, its input shapes, and how its weights are printed."""

    factory: Callable[[], nn.Module]
    inputs: tuple[tuple[int, ...], ...]
    # False: torch-mlir's default `dense_resource` blobs; True: `dense<...>` constants (DenseWeights).
    dense_weights: bool = False
    same_results: SameResults | None = None


MODELS: dict[str, Example] = {
    "tiny_cnn": Example(tiny_cnn, ((1, 1, 8, 8),)),
    "alexnet_tiny": Example(alexnet_tiny, ((1, 3, 16, 16),)),
    # The same conv (the first Conv2d(128, 255, 1) after the seed) on the same P3 input (seed 0).
    "yolo_head_k1": Example(
        lambda: YoloHead(1), ((1, 128, 80, 80),), same_results=SameResults("yolov5s_detect", ("result0",))
    ),
    "yolo_head_k3": Example(lambda: YoloHead(3), ((1, 128, 80, 80),)),
    "cryptonets": Example(cryptonets, ((1, 1, 28, 28),), dense_weights=True),
    "lola_mnist": Example(lola_mnist, ((1, 1, 28, 28),), dense_weights=True),
    "lenet5": Example(lenet5, ((1, 1, 28, 28),), dense_weights=True),
    "resnet_block": Example(
        lambda: randomize_batch_norm(ResNetBasicBlock()), ((1, 16, 32, 32),), dense_weights=True
    ),
    "mobilenet_block": Example(
        lambda: randomize_batch_norm(mobilenet_block()), ((1, 32, 32, 32),), dense_weights=True
    ),
    "vit_attention": Example(VitAttention, ((1, 197, 192),), dense_weights=True),
    "yolov5s_detect": Example(lambda: YoloV5Detect(concat=False), YOLO_LEVELS, dense_weights=True),
    "yolov5s_detect_concat": Example(
        lambda: YoloV5Detect(concat=True), YOLO_LEVELS, dense_weights=True,
        same_results=SameResults("yolov5s_detect", ("result0", "result1", "result2"), reshape=(1, -1, 85), axis=1),
    ),
    "resnet20": Example(
        lambda: calibrate_batch_norm(ResNet20(), (1, 3, 32, 32), scale=0.25), ((1, 3, 32, 32),), dense_weights=True
    ),
    "mobilenetv2": Example(lambda: randomize_batch_norm(MobileNetV2()), ((1, 3, 32, 32),), dense_weights=True),
    "yolov5": Example(lambda: randomize_batch_norm(YoloV5()), ((1, 3, 160, 160),), dense_weights=True),
    "vgg_cifar": Example(lambda: randomize_batch_norm(vgg_cifar()), ((1, 3, 32, 32),), dense_weights=True),
}


def build(name: str) -> tuple[nn.Module, list[torch.Tensor]]:
    example = MODELS[name]
    torch.manual_seed(SEED)
    model = example.factory().eval()
    return model, seeded_inputs(example.inputs, "float32")


# ------------------------------------------------------------------------------------------ inputs
def seeded_inputs(shapes: tuple[tuple[int, ...], ...], dtype: str) -> list[torch.Tensor]:
    """Input i of every model: numpy's standard normal draw from seed i (npz_recipes.draw_input).
    The .npz records the seed, not the values: random floats do not compress, and the YOLO
    inputs alone were 17 MB."""
    return [torch.from_numpy(npz_recipes.draw_input(seed, shape, dtype)) for seed, shape in enumerate(shapes)]


def save_npz(path: Path, inputs: list[torch.Tensor], outputs: list[torch.Tensor], same: SameResults | None) -> None:
    """The inputs as their seeds, PyTorch's outputs stored (or, with `same`, as the source's)."""
    recipes = {f"arg{i}": npz_recipes.drawn(i, t.detach().numpy()) for i, t in enumerate(inputs)}
    results = {f"result{i}": t.detach().numpy() for i, t in enumerate(outputs)}
    if same is not None:
        source = path.with_name(f"{same.source}.npz")
        try:
            recipes |= {
                key: npz_recipes.taken_from(source, same.arrays, array, same.reshape, same.axis)
                for key, array in results.items()
            }
        except (OSError, ValueError) as err:
            raise SystemExit(f"error: {path.stem}: PyTorch's outputs are not {same.source}'s: {err}") from err
        results = {}
    npz_recipes.save(path, results, recipes)


def write_text(path: Path, text: str) -> None:
    path.write_text(text.rstrip() + "\n")


# ---------------------------------------------------------------------------------------- front ends
class DenseWeights(FxImporterHooks):
    """Import every weight tensor as a `dense<...>` elements attribute instead of a resource blob.

    torch-mlir's importer makes each tensor literal a `dense_resource` blob (printed in a trailing
    `{-# dialect_resources #-}` section) unless this hook returns a value for it; with the data in a
    `DenseElementsAttr`, MLIR prints it in place (decimal up to 100 elements, hex above) and
    torch-mlir's own folders see it as a constant, as they do for users who export this way.
    """

    def resolve_literal(self, gni: GraphNodeImporter, literal: object, info: InputInfo | None) -> ir.Value | None:
        dtype = {torch.float32: np.float32, torch.float16: np.float16}.get(getattr(literal, "dtype", None))
        if not isinstance(literal, torch.Tensor) or dtype is None or literal.numel() <= 1:
            return None  # the importer's default: splat for one element, its own handling otherwise
        # tolist(), not numpy(): the importer runs under FakeTensorMode, where numpy() would fail.
        array = np.array(literal.tolist(), dtype=dtype).reshape(tuple(literal.shape))
        vtensor_type = gni._cc.tensor_to_vtensor_type(literal)
        attr = ir.DenseElementsAttr.get(array)
        return ir.Operation.create("torch.vtensor.literal", results=[vtensor_type], attributes={"value": attr}).result


def export_torch_mlir(model: nn.Module, inputs: list[torch.Tensor], dense_weights: bool) -> str:
    hooks = DenseWeights() if dense_weights else None
    module = fx.export_and_import(model, *inputs, output_type="linalg-on-tensors", hooks=hooks)
    return str(module)


def export_onnx_route(model: nn.Module, x: torch.Tensor) -> str:
    """PyTorch -> ONNX (legacy exporter) -> torch dialect (iree-import-onnx) -> linalg (iree-opt).

    convert-torch-onnx-to-torch turns the generic `torch.operator "onnx.*"` ops into torch ops; the
    two torch-mlir pipelines then reach the linalg-on-tensors backend contract. With
    iree-base-compiler 3.13.0 that output needs no clean-up: the `torch.onnx_meta.*` function
    attributes are dropped by the backend type conversion, no util/flow/hal op appears (those come
    only from IREE's own input pipeline, which is not run), and the onnx `dense_resource` weights come
    out as plain `dense<...>` constants. check_dialects() below fails loudly if a future version
    leaks anything else, rather than silently stripping it here.
    """
    with tempfile.TemporaryDirectory() as tmp:
        onnx_path = Path(tmp) / "model.onnx"
        torch_path = Path(tmp) / "model.torch.mlir"
        linalg_path = Path(tmp) / "model.linalg.mlir"
        torch.onnx.export(
            model,
            (x,),
            str(onnx_path),
            dynamo=False,
            opset_version=ONNX_OPSET,
            input_names=["input"],
            output_names=["output"],
        )
        run([str(BIN / "iree-import-onnx"), str(onnx_path), "-o", str(torch_path)])
        pipeline = (
            "builtin.module("
            "func.func(convert-torch-onnx-to-torch),"
            "torch-onnx-to-torch-backend-pipeline,"
            "torch-backend-to-linalg-on-tensors-backend-pipeline)"
        )
        run([str(BIN / "iree-opt"), str(torch_path), f"--pass-pipeline={pipeline}", "-o", str(linalg_path)])
        return linalg_path.read_text()


def run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed:\n{proc.stderr}")


# ---------------------------------------------------------------------------------- resource -> dense
_RESOURCE_SECTION = re.compile(r"\n*\{-#.*?#-\}\s*", re.S)
_RESOURCE_ENTRY = re.compile(r'^\s*([^\s:]+):\s*"0x([0-9A-Fa-f]*)"', re.M)


def inline_dense_resources(text: str) -> str:
    """Rewrite every `dense_resource<name>` as `dense<"0x...">` and drop the `{-# ... #-}` section.

    A builtin resource blob is printed as hex whose first 4 bytes are the blob's alignment
    (little-endian u32, 4 for f32 from torch-mlir), not data; the rest is the raw little-endian
    element bytes, which is exactly what the hex form of a dense attribute holds.
    """
    section = _RESOURCE_SECTION.search(text)
    if section is None:
        raise SystemExit("error: no dialect_resources section to inline")
    blobs = {name: data[8:] for name, data in _RESOURCE_ENTRY.findall(section.group(0))}
    body = text[: section.start()] + text[section.end() :]

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in blobs:
            raise SystemExit(f"error: dense_resource<{name}> has no blob")
        return f'dense<"0x{blobs[name]}">'

    body = re.sub(r"dense_resource<([^>]+)>", replace, body)
    return body.rstrip() + "\n"


# ------------------------------------------------------------------------------------------- checks
def op_inventory(text: str) -> collections.Counter[str]:
    """Ops as they appear in the text: the implicit bodies of named linalg ops are not counted."""
    counts: collections.Counter[str] = collections.Counter()
    with ir.Context():
        module = ir.Module.parse(text)

        def visit(op: ir.Operation) -> ir.WalkResult:
            counts[op.name] += 1
            named_linalg = op.name.startswith("linalg.") and op.name != "linalg.generic"
            return ir.WalkResult.SKIP if named_linalg else ir.WalkResult.ADVANCE

        module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return counts


def check_dialects(name: str, counts: collections.Counter[str]) -> None:
    bad = sorted(op for op in counts if op.split(".")[0] not in ALLOWED_DIALECTS)
    if bad:
        raise SystemExit(f"error: {name}: ops outside {sorted(ALLOWED_DIALECTS)}: {bad}")


# MLIR's JIT, lowered the plain upstream way; only the verification uses it.
_JIT_PIPELINE = (
    "builtin.module("
    "func.func(linalg-generalize-named-ops,linalg-fuse-elementwise-ops),"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,"
    "func.func(arith-expand),convert-math-to-llvm,convert-math-to-libm,expand-strided-metadata,"
    "finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,"
    "reconcile-unrealized-casts)"
)


class _UnrankedMemRef(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


def _strided_view(memref: _UnrankedMemRef, elem_size: int) -> np.ndarray:
    rank = memref.rank
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(memref.descriptor)
    aligned, offset = words[1], words[2]
    sizes = tuple(words[3 : 3 + rank])
    strides = tuple(words[3 + rank : 3 + 2 * rank])
    span = 1 + sum((n - 1) * s for n, s in zip(sizes, strides)) if all(sizes) else 0
    raw = (ctypes.c_char * (span * elem_size)).from_address(aligned + offset * elem_size)
    flat = np.frombuffer(raw, dtype=np.dtype(f"V{elem_size}"))
    return np.lib.stride_tricks.as_strided(flat, sizes, tuple(s * elem_size for s in strides))


# The strided memref.copy of tensor.pad lowers to a call of `memrefCopy` from libmlir_c_runner_utils,
# which the torch-mlir wheel does not ship; this is that function.
@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(_UnrankedMemRef), ctypes.POINTER(_UnrankedMemRef))
def _memref_copy(elem_size: int, src: ctypes._Pointer, dst: ctypes._Pointer) -> None:
    _strided_view(dst.contents, elem_size)[...] = _strided_view(src.contents, elem_size)


def run_with_jit(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    with ir.Context():
        module = ir.Module.parse(text)
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        if len(funcs) != 1:
            raise SystemExit("error: expected exactly one function")
        funcs[0].attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        fn_name = ir.StringAttr(funcs[0].attributes["sym_name"]).value
        result_types = [ir.RankedTensorType(t) for t in funcs[0].type.results]
        passmanager.PassManager.parse(_JIT_PIPELINE).run(module.operation)
        engine = ExecutionEngine(module, opt_level=2)
        engine.raw_register_runtime("memrefCopy", ctypes.cast(_memref_copy, ctypes.c_void_p))
        # The C interface returns its result through a pointer passed first: one memref descriptor, or
        # for several results a struct holding one descriptor per result, in order.
        # ctypes has no half type: an f16 memref travels as its 16-bit patterns (uint16) both ways.
        halves = [str(t.element_type) == "f16" for t in result_types]
        fields = [
            (f"r{i}", make_nd_memref_descriptor(t.rank, ctypes.c_uint16 if half else ctypes.c_float))
            for i, (t, half) in enumerate(zip(result_types, halves))
        ]
        out = fields[0][1]() if len(fields) == 1 else type("Results", (ctypes.Structure,), {"_fields_": fields})()
        descriptors = [
            get_ranked_memref_descriptor(np.ascontiguousarray(a).view(np.uint16 if a.dtype == np.float16 else a.dtype))
            for a in inputs
        ]
        engine.invoke(
            fn_name,
            ctypes.pointer(ctypes.pointer(out)),
            *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors],
        )
        memrefs = [out] if len(fields) == 1 else [getattr(out, name) for name, _ in fields]
        arrays = [np.array(ranked_memref_to_numpy(ctypes.pointer(m)), copy=True) for m in memrefs]
        return [a.view(np.float16) if half else a for a, half in zip(arrays, halves)]


def jit_tolerance(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) of the JIT check: 1e-4 and 1e-5, or 4 units in the last place of a
    result stored in f16. PyTorch computes a half sigmoid in f32 and rounds once; the IR
    rounds after each of its four f16 ops, so the two differ by a few f16 ulps."""
    eps = float(np.finfo(dtype).eps)
    return max(1e-4, 4 * eps), max(1e-5, 4 * eps)


def verify(path: Path, npz_path: Path) -> float:
    """Run `path` with MLIR's JIT on the .npz inputs; the largest error against PyTorch's outputs."""
    data = npz_recipes.load_arrays(npz_path)
    inputs = [data[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in data))]
    expected = [data[f"result{i}"] for i in range(sum(k.startswith("result") for k in data))]
    got = run_with_jit(path.read_text(), inputs)
    if len(got) != len(expected):
        raise SystemExit(f"error: {path.name}: {len(got)} results from the JIT, {len(expected)} from PyTorch")
    worst = 0.0
    for index, (want, have) in enumerate(zip(expected, got)):
        if have.shape != want.shape:
            raise SystemExit(f"error: {path.name}: result {index} has shape {have.shape}, PyTorch {want.shape}")
        err = float(np.max(np.abs(have.astype(np.float64) - want)))
        rtol, atol = jit_tolerance(want.dtype)
        if have.dtype != want.dtype or not np.allclose(have, want, rtol=rtol, atol=atol):
            raise SystemExit(f"error: {path.name}: JIT result {index} differs from PyTorch (max abs err {err})")
        worst = max(worst, err)
    return worst


# ------------------------------------------------------------------------------- half precision
# The YOLO heads and the Detect layer as PyTorch runs them in half (issue 26): the f32 example's model
# (same seed, so the same weights, rounded to f16) on a smaller image, converted with .half().
# torch-mlir writes f16 inputs and weights, an f32 accumulator for the conv (its bias widened by an
# `extf` generic), a `truncf` generic back to f16 and the sigmoid in f16. The images are 4x smaller
# per side than the f32 examples' (P3 20x20, P4 10x10, P5 5x5: a 160x160 image) so that the .npz,
# PyTorch's f16 tensors as they are, stays small (the 80x80 f32 ones are 8.8-12.9 MB); the weights do
# not depend on the image size, and benchmarks/bench_iree.py scales the spatial sizes back to 80x80
# (`iree_cases.scaled`) for its GPU cases.
HALF_MODELS: dict[str, tuple[str, tuple[tuple[int, ...], ...]]] = {
    "yolo_head_k1_f16": ("yolo_head_k1", ((1, 128, 20, 20),)),
    "yolo_head_k3_f16": ("yolo_head_k3", ((1, 128, 20, 20),)),
    "yolov5s_detect_f16": ("yolov5s_detect", ((1, 128, 20, 20), (1, 256, 10, 10), (1, 512, 5, 5))),
}


def export_half(names: list[str], out: Path, written: dict[str, str]) -> None:
    for name in names:
        base, shapes = HALF_MODELS[name]
        torch.manual_seed(SEED)
        model = MODELS[base].factory().eval().half()
        inputs = seeded_inputs(shapes, "float16")
        with torch.no_grad():
            y = model(*inputs)
        outputs = list(y) if isinstance(y, tuple) else [y]
        written[name] = export_torch_mlir(model, inputs, MODELS[base].dense_weights)
        assert all(t.dtype == torch.float16 for t in [*inputs, *outputs])
        save_npz(out / f"{name}.npz", inputs, outputs, None)
        print(f"exported {name} (f16): {', '.join(str(tuple(x.shape)) for x in inputs)}")


# --------------------------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "examples")
    parser.add_argument("--no-verify", action="store_true", help="skip the MLIR JIT comparison")
    parser.add_argument("--only", nargs="+", choices=[*MODELS, *HALF_MODELS], help="export only these models")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    # A model whose outputs are another's (`same_results`) is written after that one.
    names = sorted((n for n in args.only or MODELS if n in MODELS), key=lambda n: MODELS[n].same_results is not None)
    written: dict[str, str] = {}
    export_half([n for n in args.only or HALF_MODELS if n in HALF_MODELS], out, written)
    for name in names:
        model, inputs = build(name)
        with torch.no_grad():
            y = model(*inputs)
        outputs = list(y) if isinstance(y, tuple) else [y]
        written[name] = export_torch_mlir(model, inputs, MODELS[name].dense_weights)
        save_npz(out / f"{name}.npz", inputs, outputs, MODELS[name].same_results)
        shapes = " -> ".join(", ".join(str(tuple(t.shape)) for t in ts) for ts in (inputs, outputs))
        print(f"exported {name}: {shapes}")

    if "tiny_cnn" in names:
        model, inputs = build("tiny_cnn")
        with torch.no_grad():
            y = model(*inputs)
        written["tiny_cnn_onnx"] = export_onnx_route(model, inputs[0])
        written["tiny_cnn_dense"] = inline_dense_resources(written["tiny_cnn"])
        for variant in ("tiny_cnn_onnx", "tiny_cnn_dense"):
            save_npz(out / f"{variant}.npz", inputs, [y], None)

    for name, text in written.items():
        path = out / f"{name}.mlir"
        write_text(path, text)
        counts = op_inventory(text)
        check_dialects(name, counts)
        summary = ", ".join(f"{op} x{n}" for op, n in sorted(counts.items()))
        line = f"{path.name}: {summary}"
        if not args.no_verify:
            line += f"\n  JIT vs PyTorch max abs err {verify(path, out / f'{name}.npz'):.2e}"
        print(line)


if __name__ == "__main__":
    main()
