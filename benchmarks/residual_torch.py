"""benchmarks/residual_nets.py's nets in PyTorch, as users write them (imported only where torch is).

Random weights and BN statistics drawn from the spec's seed (BN kept near identity, so
the polynomials' values stay finite through the net); BN after a conv is folded into it
by `fuse_conv_bn_eval` in the "folded" export form.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

from residual_nets import Block, ResidualSpec


class Poly(nn.Module):
    """The activation: c0 + c1 x + c2 x² + c3 x³ as users write it (no zero terms; x * x for x²)."""

    def __init__(self, coeffs: tuple[float, ...]) -> None:
        super().__init__()
        self.coeffs = coeffs

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c = (*self.coeffs, 0.0, 0.0)[:4]
        if self.coeffs == (0.0, 0.0, 1.0):
            return x * x
        terms = [c[3] * x * x * x] * bool(c[3]) + [c[2] * x * x] * bool(c[2]) + [c[1] * x] * bool(c[1])
        y = terms[0]
        for term in terms[1:]:
            y = y + term
        return y + c[0] if c[0] else y


def batch_norm(channels: int) -> nn.BatchNorm2d:
    norm = nn.BatchNorm2d(channels)
    with torch.no_grad():
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.running_var.uniform_(0.5, 1.5)
        norm.weight.uniform_(0.5, 1.0)
        norm.bias.uniform_(-0.1, 0.1)
    return norm.eval()


def conv_unit(spec: ResidualSpec, cin: int, cout: int, k: int, stride: int) -> list[nn.Module]:
    """A conv (with a bias where the net has no BN), then its BN where BNs follow convs
    (folded into the conv in the 'folded' export form)."""
    conv = nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, bias=spec.bn == "none").eval()
    if spec.bn != "conv":
        return [conv]
    norm = batch_norm(cout)
    return [fuse_conv_bn_eval(conv, norm)] if spec.export == "folded" else [conv, norm]


def act_unit(spec: ResidualSpec, channels: int) -> list[nn.Module]:
    """The activation, then a BN where BNs follow activations."""
    return [Poly(spec.act), *([batch_norm(channels)] if spec.bn == "act" else [])]


class ResBlock(nn.Module):
    """A basic block: conv act conv, plus the shortcut, then act (module docstring of residual_nets)."""

    def __init__(self, spec: ResidualSpec, cin: int, block: Block) -> None:
        super().__init__()
        self.first = nn.Sequential(*conv_unit(spec, cin, block.cout, 3, block.stride), *act_unit(spec, block.cout))
        self.second = nn.Sequential(*conv_unit(spec, block.cout, block.cout, 3, 1))
        self.kind, self.stride, self.extra = block.shortcut, block.stride, block.cout - cin
        self.project = nn.Sequential(*conv_unit(spec, cin, block.cout, 1, block.stride)) if self.kind == "B" else None
        self.out = nn.Sequential(*act_unit(spec, block.cout))

    def shortcut(self, x: torch.Tensor) -> torch.Tensor:
        if self.project is not None:
            return self.project(x)
        if self.kind == "A" and self.stride > 1:
            x = x[:, :, ::self.stride, ::self.stride]
        if self.kind == "A" and self.extra:
            x = F.pad(x, (0, 0, 0, 0, self.extra // 2, self.extra - self.extra // 2))
        return x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.second(self.first(x)) + self.shortcut(x))


class ResidualNet(nn.Module):
    """stem conv + act, the blocks, AdaptiveAvgPool2d(1), flatten, Linear."""

    def __init__(self, spec: ResidualSpec) -> None:
        super().__init__()
        torch.manual_seed(spec.seed)
        self.stem = nn.Sequential(*conv_unit(spec, spec.image[0], spec.stem, 3, 1), *act_unit(spec, spec.stem))
        blocks, cin = [], spec.stem
        for block in spec.blocks:
            blocks.append(ResBlock(spec, cin, block))
            cin = block.cout
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(cin, spec.classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.flatten(self.pool(self.blocks(self.stem(x))), 1))
