"""Residual nets as users write them in PyTorch, exported with torch-mlir's defaults, and their depth bound.

A `ResidualSpec` is a CIFAR-style residual net: a stem conv, basic blocks (two 3x3 convs,
a shortcut added before the block's second activation), a global average pool and a
Linear. Each block picks its stride (1 or 2), its output channels and its shortcut:

* identity (same shape only);
* option A (He et al.'s CIFAR form): `x[:, :, ::s, ::s]`, then zero channels by `F.pad`;
* option B: a 1x1 conv with the block's stride (and a BN where the net has BN).

The net picks its activation, a polynomial of degree 2 or 3 written as users write it
(`x * x`, or `a * x * x + b * x + c`, ...), where its batch norms sit (after each conv,
after each activation, or none: then the convs have biases), and its export form: BN
in eval mode as torch-mlir writes it (mean, variance, weight and bias, four per-channel
constants), or folded into the conv before it (`fuse_conv_bn_eval`, which only folds a
BN right after a conv). ResNet-20/32/44/56 are `resnet_spec(n, shortcut)`.

The depth bound is counted from the layers as an ideal compiler of the CKKS cost model
spends levels (heirpy's `fhe_nets.fhe_bound` for chains, extended to the add): every
value has its depth and the depth a linear op reading it would have (a maximal run of
linear ops, a BN, a pad, a slice, a sum, costs one level; a polynomial of degree d
costs ceil(log2 d)); an add takes the maximum of both. ResNet-20's is 39.

Needs torch and torch-mlir (benchmark-only tools, never heirpy's dependencies).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

SHORTCUTS = ("identity", "A", "B")
BN_PLACES = ("conv", "act", "none")
EXPORTS = ("bn", "folded")


@dataclass(frozen=True)
class Block:
    cout: int
    stride: int
    shortcut: str  # "identity" | "A" | "B"


@dataclass(frozen=True)
class ResidualSpec:
    """A residual net (module docstring)."""

    image: tuple[int, int, int]  # C, H, W of the input
    stem: int  # the stem conv's output channels
    blocks: tuple[Block, ...]
    act: tuple[float, ...] = (0.0, 0.0, 1.0)  # coefficients c0, c1, c2[, c3]: x² by default
    bn: str = "conv"  # "conv" (conv -> BN -> act) | "act" (conv -> act -> BN) | "none"
    export: str = "bn"  # "bn" (four constants) | "folded" (fuse_conv_bn_eval)
    classes: int = 10
    seed: int = 0
    name: str = field(default="", compare=False)

    @property
    def degree(self) -> int:
        return max(i for i, c in enumerate(self.act) if c != 0.0)

    def label(self) -> str:
        if self.name:
            return self.name
        blocks = " ".join(f"{b.cout}/{b.stride}{b.shortcut[0]}" for b in self.blocks)
        act = "x²" if self.act == (0.0, 0.0, 1.0) else f"p{self.degree}"
        form = f" {self.export}" if self.bn == "conv" else ""
        return f"{'x'.join(map(str, self.image))} stem {self.stem} [{blocks}] {act} bn:{self.bn}{form}"


# ------------------------------------------------------------------ the depth bound
@dataclass(frozen=True)
class _Depth:
    now: int  # the value's depth
    linear: int  # the depth of a linear op that reads it (merged into a run before it)

    def through_linear(self) -> _Depth:
        return _Depth(self.linear, self.linear)

    def through_act(self, degree: int) -> _Depth:
        d = self.now + math.ceil(math.log2(degree))
        return _Depth(d, d + 1)


def _add(a: _Depth, b: _Depth) -> _Depth:
    return _Depth(max(a.now, b.now), max(a.linear, b.linear))


def depth_bound(spec: ResidualSpec) -> int:
    """The net's depth bound, counted from its layers (module docstring)."""
    act = spec.degree

    def act_bn(x: _Depth) -> _Depth:  # act [BN]: a BN after it is a linear op of its own,
        y = x.through_act(act)  # merged into a linear op that reads it
        return y.through_linear() if spec.bn == "act" else y

    x = act_bn(_Depth(0, 1).through_linear())
    for block in spec.blocks:
        main = act_bn(x.through_linear()).through_linear()  # conv1 [BN] act [BN], conv2 [BN]
        short = x.through_linear() if block.shortcut == "B" else x  # option A: a slice and a pad
        x = act_bn(_add(main, short))
    return x.through_linear().now  # pool, flatten, Linear: one run


# ------------------------------------------------------------------ drawing
def resnet_spec(depth: int, shortcut: str, export: str = "bn", act: tuple[float, ...] = (0.0, 0.0, 1.0),
                bn: str = "conv") -> ResidualSpec:
    """ResNet-`depth` for CIFAR-10 (depth = 6k + 2: k blocks per stage of 16, 32, 64
    channels, the first block of stages 2 and 3 at stride 2 with a `shortcut` of A or B)."""
    k, rest = divmod(depth - 2, 6)
    if rest or k < 1:
        raise ValueError(f"ResNet-{depth}: a CIFAR ResNet has 6k + 2 layers")
    blocks = [Block(c, 2 if stage and i == 0 else 1, shortcut if stage and i == 0 else "identity")
              for stage, c in enumerate((16, 32, 64)) for i in range(k)]
    return ResidualSpec((3, 32, 32), 16, tuple(blocks), act=act, bn=bn, export=export,
                        name=f"ResNet-{depth} ({shortcut}, {export})")


ACTIVATIONS = (
    (0.0, 0.0, 1.0),  # x * x
    (0.25, 0.5, 0.125),  # 0.125 x² + 0.5 x + 0.25 (a ReLU fit)
    (0.0, 0.5, 0.0, 0.25),  # 0.25 x³ + 0.5 x: a degree-3 fit
    (0.1, 0.5, 0.2, 0.05),
)


def draw_spec(rng: random.Random, small: bool = True, size: int | None = None) -> ResidualSpec:
    """A random residual net: 1-3 blocks, strides 1/2 anywhere (while the map allows),
    identity / A / B shortcuts, a polynomial activation of degree 2-3, BN placement and
    export form. `small`: an 8x8 or 16x16 map of 1-4 channels, so heirpy's matvecs and
    HEIR's conv kernels both occur at a size heir-opt compiles in seconds; `size` fixes the
    map's side (the draws of everything else stay those of the same seed)."""
    c, h = rng.choice((1, 2, 3, 4)), rng.choice((8, 16)) if small else 32
    h = size or h
    channels = rng.choice((2, 4)) if small else 16
    blocks, cin, size = [], channels, h
    for _ in range(rng.randint(1, 3)):
        stride = 2 if size >= 4 and rng.random() < 0.4 else 1
        cout = cin * 2 if stride == 2 and rng.random() < 0.7 else rng.choice((cin, cin * 2)) if small else cin
        same = stride == 1 and cout == cin
        shortcut = "identity" if same and rng.random() < 0.6 else rng.choice(("A", "B"))
        if shortcut == "A" and cout < cin:
            shortcut = "B"
        blocks.append(Block(cout, stride, shortcut))
        cin, size = cout, size // stride
    bn = rng.choice(BN_PLACES)
    export = rng.choice(EXPORTS) if bn == "conv" else "bn"  # only a BN after a conv folds
    return ResidualSpec(
        (c, h, h), channels, tuple(blocks), act=rng.choice(ACTIVATIONS), bn=bn,
        export=export, classes=rng.choice((2, 10)), seed=rng.randrange(1 << 16),
    )


CI_SPECS = (
    # the CI sample (tests/unit/test_fuzz_heir_residual_sample.py): one block each on an 8x8
    # map, heir-opt a few seconds a net; every shortcut, activation degree, BN place and form.
    ResidualSpec((2, 8, 8), 2, (Block(2, 1, "identity"),), bn="conv", export="bn", seed=1),
    ResidualSpec((1, 8, 8), 2, (Block(4, 2, "A"),), act=(0.25, 0.5, 0.125), bn="conv", export="folded", seed=2),
    ResidualSpec((2, 8, 8), 2, (Block(4, 2, "B"),), act=(0.0, 0.5, 0.0, 0.25), bn="act", export="bn", seed=3),
    ResidualSpec((3, 8, 8), 2, (Block(2, 1, "B"),), bn="none", seed=4),
)


def with_export(spec: ResidualSpec, export: str) -> ResidualSpec:
    return replace(spec, export=export)


# ------------------------------------------------------------------ PyTorch and torch-mlir
def build_torch(spec: ResidualSpec):  # -> torch.nn.Module (torch is imported lazily)
    """The net in PyTorch, in eval mode (benchmarks/residual_torch.py)."""
    from residual_torch import ResidualNet

    return ResidualNet(spec).eval()


def export_mlir(spec: ResidualSpec) -> tuple[str, list, list]:
    """torch-mlir's linalg-on-tensors export of the net with its defaults (weights as
    dense_resource blobs), and one input (uniform in [-1, 1]) with PyTorch's outputs."""
    import torch
    from torch_mlir import fx

    model = build_torch(spec)
    generator = torch.Generator().manual_seed(spec.seed + 1)
    x = torch.rand((1, *spec.image), generator=generator) * 2 - 1
    with torch.no_grad():
        y = model(x)
    module = fx.export_and_import(model, x, output_type="linalg-on-tensors")
    return str(module), [x.numpy()], [y.numpy()]
