"""Export the nets of the HEIR checks (issues 24 and 27) with torch-mlir.

    /work/exportenv/bin/python benchmarks/export_heir_nets.py

Needs torch 2.13 and torch-mlir (benchmark-only tools, never dependencies of heirpy or
its tests; the exported files are committed). Writes, each with a `.npz` of its input
and PyTorch's output (as tools/export_examples.py does):

  tests/filecheck/transforms/heir-prepare/Inputs/feature_map.mlir
      conv 3x3 (pad 1) -> x² -> AvgPool2d(2) -> conv 3x3, returning the 1x6x4x4
      feature map (depth bound 3)
  tests/filecheck/transforms/heir-prepare/Inputs/batch2_linear.mlir
      a batch of 2: conv 3x3 (stride 2, pad 1) -> AvgPool2d(2) -> flatten -> Linear ->
      Linear, no activation, input 2x2x40x40 (depth bound 1; the input alone holds
      6400 elements)

ResNet-20 (issue 27's HEIR check) is examples/resnet20.mlir, which tools/export_examples.py
writes with its calibrated batch norms.

Issue 38's residual nets, as a user writes and exports them (torch-mlir's defaults:
`export_and_import(model.eval(), x, output_type="linalg-on-tensors")`, BN in eval mode;
dense weights so that heir-opt reads the files), with `--residual` (large: written to
benchmarks/out/heir_nets/, not committed):

  resnet8_a.mlir    ResNet-8 (one basic block per stage), option-A shortcuts
                    (x[:, :, ::2, ::2] then zero channels by F.pad), 0.125x² + 0.5x + 0.25
  resnet20_b.mlir   ResNet-20, option-B shortcuts (1x1 stride-2 conv + BN), x²

`--size 8` writes the same nets on 8x8 images (resnet8_a_8.mlir, resnet20_b_8.mlir), small
enough for heir-opt in minutes on a shared machine.

`residual_net(...)` builds any of the family (shortcut form, activation coefficients,
BN before or after the activation, widths, blocks per stage): the residual-net generator
and the tests' small blocks (tests/filecheck/transforms/legalize-for-heir/Inputs/) use it.
Weights are `dense<...>` constants, so heir-opt reads the files as they are.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from export_examples import (  # noqa: E402  (the examples' own exporter and helpers)
    Square,
    calibrate_batch_norm,
    export_torch_mlir,
    save_npz,
    seeded_inputs,
    write_text,
)

HEIR_INPUTS = ROOT / "tests" / "filecheck" / "transforms" / "heir-prepare" / "Inputs"
GRID_INPUTS = ROOT / "tests" / "filecheck" / "transforms" / "legalize-for-heir" / "Inputs"
RESIDUAL_OUT = ROOT / "benchmarks" / "out" / "heir_nets"


class Polynomial(nn.Module):
    """a·x·x + b·x + c (+ d·x³), written as a user writes it: the export form issue 38 names."""

    def __init__(self, coefficients: Sequence[float]) -> None:
        super().__init__()
        self.coefficients = tuple(coefficients)  # c0, c1, c2[, c3]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c = self.coefficients
        if c == (0.0, 0.0, 1.0):
            return x * x
        y = c[2] * x * x + c[1] * x + c[0]
        if len(c) > 3:
            y = y + c[3] * x * x * x
        return y


class OptionA(nn.Module):
    """He et al.'s CIFAR shortcut: every second pixel, then zero channels on both sides."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.stride, self.extra = stride, cout - cin

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x[:, :, :: self.stride, :: self.stride]
        return F.pad(x, (0, 0, 0, 0, self.extra // 2, self.extra - self.extra // 2))


class ResidualBlock(nn.Module):
    """conv 3x3 (stride s) -> BN -> act -> conv 3x3 -> BN, + shortcut, -> act; with
    `bn_after`, each BN follows its activation instead (conv -> act -> BN)."""

    def __init__(self, cin: int, cout: int, stride: int, shortcut: str, act: Sequence[float], bn_after: bool) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.act1, self.act2 = Polynomial(act), Polynomial(act)
        self.bn_after = bn_after
        self.shortcut: nn.Module = nn.Identity()
        if stride != 1 or cin != cout:
            if shortcut == "A":
                self.shortcut = OptionA(cin, cout, stride)
            else:
                self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.bn_after:
            y = self.bn1(self.act1(self.conv1(x)))
            return self.bn2(self.act2(self.conv2(y) + self.shortcut(x)))
        y = self.act1(self.bn1(self.conv1(x)))
        return self.act2(self.bn2(self.conv2(y)) + self.shortcut(x))


class ResidualNet(nn.Module):
    """A CIFAR ResNet (He et al. 2016, 4.2): stem conv 3x3 -> BN -> act, stages of residual
    blocks (the first of each later stage at stride 2), global average pool, Linear."""

    def __init__(
        self, in_channels: int, widths: Sequence[int], blocks: int, shortcut: str, act: Sequence[float],
        bn_after: bool = False, classes: int = 10, head: bool = True,
    ) -> None:
        super().__init__()
        self.stem = nn.Conv2d(in_channels, widths[0], 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(widths[0])
        self.act = Polynomial(act)
        layers: list[nn.Module] = []
        cin = widths[0]
        for stage, cout in enumerate(widths):
            for index in range(blocks):
                layers.append(ResidualBlock(cin, cout, 2 if stage > 0 and index == 0 else 1, shortcut, act, bn_after))
                cin = cout
        self.layers = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)) if head else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.layers(self.act(self.bn(self.stem(x))))
        return self.head(y) if self.head is not None else y


QUADRATIC = (0.25, 0.5, 0.125)
"""0.125x² + 0.5x + 0.25 (coefficients from x⁰ up)."""
SQUARE = (0.0, 0.0, 1.0)


def residual_net(
    widths: Sequence[int] = (16, 32, 64), blocks: int = 1, shortcut: str = "A", act: Sequence[float] = QUADRATIC,
    bn_after: bool = False, size: int = 32, in_channels: int = 3, head: bool = True,
) -> tuple[nn.Module, tuple[int, ...]]:
    """A residual net of the family, eval mode, BNs calibrated (their statistics those of
    their inputs, so that the polynomial activations stay in range), and its input shape."""
    shape = (1, in_channels, size, size)
    model = ResidualNet(in_channels, widths, blocks, shortcut, act, bn_after, head=head)
    return calibrate_batch_norm(model, shape, scale=0.25).eval(), shape


def feature_map() -> nn.Module:
    return nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), Square(), nn.AvgPool2d(2), nn.Conv2d(4, 6, 3))


def batch2_linear() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(2, 4, 3, stride=2, padding=1), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(400, 16), nn.Linear(16, 10)
    )


def export(name: str, model: nn.Module, shape: tuple[int, ...], directory: Path) -> None:
    model = model.eval()
    x = seeded_inputs((shape,), "float32")[0]  # the .npz records the seed (heirpy.interp.npz_recipes)
    with torch.no_grad():
        y = model(x)
    directory.mkdir(parents=True, exist_ok=True)
    write_text(directory / f"{name}.mlir", export_torch_mlir(model, [x], dense_weights=True))
    save_npz(directory / f"{name}.npz", [x], [y], None)
    print(f"wrote {directory / name}.mlir", file=sys.stderr)


RESIDUAL_NETS = {
    "resnet8_a": dict(blocks=1, shortcut="A", act=QUADRATIC),
    "resnet20_b": dict(blocks=3, shortcut="B", act=SQUARE),
}

# Tiny residual blocks for the grid tests: one stride-2 block each, 4 -> 8 channels at 8x8.
GRID_BLOCKS = {
    "block_a_quadratic": dict(widths=(4, 8), shortcut="A", act=QUADRATIC),
    "block_b_square": dict(widths=(4, 8), shortcut="B", act=SQUARE),
    "block_b_bn_after": dict(widths=(4, 8), shortcut="B", act=SQUARE, bn_after=True),
    "block_a_cubic": dict(widths=(4, 8), shortcut="A", act=(0.25, 0.5, 0.125, 0.0625)),
}


def export_residual(name: str, directory: Path, **options: object) -> None:
    torch.manual_seed(0)
    model, shape = residual_net(**options)  # type: ignore[arg-type]
    export(name, model, shape, directory)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--residual", action="store_true", help="issue 38's ResNet-8/ResNet-20 (benchmarks/out/heir_nets)")
    parser.add_argument("--grid-blocks", action="store_true", help="the grid tests' tiny residual blocks")
    parser.add_argument("--size", type=int, default=32, help="--residual's image size (other than 32: NAME_SIZE.mlir)")
    args = parser.parse_args()
    if args.residual:
        for name, options in RESIDUAL_NETS.items():
            suffix = "" if args.size == 32 else f"_{args.size}"
            export_residual(f"{name}{suffix}", RESIDUAL_OUT, size=args.size, **options)
    if args.grid_blocks:
        for name, options in GRID_BLOCKS.items():
            export_residual(name, GRID_INPUTS, size=8, in_channels=4, **options)
    if args.residual or args.grid_blocks:
        return
    torch.manual_seed(0)
    export("feature_map", feature_map(), (1, 3, 12, 12), HEIR_INPUTS)
    torch.manual_seed(0)
    export("batch2_linear", batch2_linear(), (2, 2, 40, 40), HEIR_INPUTS)


if __name__ == "__main__":
    main()
