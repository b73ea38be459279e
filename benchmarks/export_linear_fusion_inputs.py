"""Regenerate the torch-mlir inputs of the linear-fusion FileCheck tests.

    ../genvenv/bin/python benchmarks/export_linear_fusion_inputs.py

Needs torch 2.13 and torch-mlir (benchmark-only tools, never dependencies of heirpy or
its tests). Writes
  tests/filecheck/transforms/linalg-fuse-linear-ops/Inputs/conv_batchnorm_torch.mlir
      Conv2d(2->3, 3x3) + BatchNorm2d(3) in eval mode (non-trivial running stats), batch 2
  tests/filecheck/transforms/linalg-fuse-linear-chains/Inputs/*.mlir
      cc: conv -> conv(stride 2), batch 2; cpcp_nopad / cpcp_pad: conv -> avgpool ->
      conv -> avgpool without / with padding=1; pool_linear: conv -> avgpool -> flatten ->
      Linear, batch 2; linlin: Linear -> Linear; cc_relu: conv -> relu -> conv (guard).
"""

from __future__ import annotations

from pathlib import Path

import torch
import torch_mlir.fx as fx

ROOT = Path(__file__).resolve().parents[1]
OPS_INPUTS = ROOT / "tests/filecheck/transforms/linalg-fuse-linear-ops/Inputs"
CHAIN_INPUTS = ROOT / "tests/filecheck/transforms/linalg-fuse-linear-chains/Inputs"
nn = torch.nn


def export(net: nn.Module, shape: tuple[int, ...], path: Path) -> None:
    net.eval()
    module = fx.export_and_import(net, torch.randn(*shape), output_type="linalg-on-tensors")
    path.write_text(str(module))


def main() -> None:
    torch.manual_seed(0)
    conv_bn = nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3))
    with torch.no_grad():
        bn = conv_bn[1]
        bn.running_mean.copy_(torch.randn(3))
        bn.running_var.copy_(torch.rand(3) + 0.5)
        bn.weight.copy_(torch.randn(3))
        bn.bias.copy_(torch.randn(3))
    export(conv_bn, (2, 2, 6, 6), OPS_INPUTS / "conv_batchnorm_torch.mlir")
    torch.manual_seed(0)
    chains = {
        "cpcp_nopad": (nn.Sequential(nn.Conv2d(3, 4, 3), nn.AvgPool2d(2), nn.Conv2d(4, 8, 3), nn.AvgPool2d(2)), (1, 3, 16, 16)),
        "cpcp_pad": (nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.AvgPool2d(2), nn.Conv2d(4, 8, 3, padding=1), nn.AvgPool2d(2)), (1, 3, 16, 16)),
        "cc": (nn.Sequential(nn.Conv2d(2, 3, 3), nn.Conv2d(3, 4, 2, stride=2)), (2, 2, 9, 9)),
        "pool_linear": (nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(32, 10)), (2, 1, 8, 8)),
        "linlin": (nn.Sequential(nn.Linear(6, 5), nn.Linear(5, 3)), (2, 6)),
        "cc_relu": (nn.Sequential(nn.Conv2d(2, 3, 3), nn.ReLU(), nn.Conv2d(3, 4, 2)), (1, 2, 8, 8)),
    }
    for name, (net, shape) in chains.items():
        export(net, shape, CHAIN_INPUTS / f"{name}.mlir")


if __name__ == "__main__":
    main()
