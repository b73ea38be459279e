"""heirpy IR -> an Orion network (`orion.nn.Module`) for CKKS inference.

    import heirpy
    from heirpy.export.orion import to_orion
    module = heirpy.parse(open("model.mlir").read(), "model.mlir")
    heirpy.run_pipeline(module, ORION_PIPELINE)   # heirpy's fusions for Orion's packing
    net = to_orion(module, function="main")    # an orion.nn.Module
    net.eval(); y = net(x)                     # cleartext, as PyTorch
    # encrypted: orion.init_scheme(config); orion.fit(net, x); level = orion.compile(net)
    #   ct = orion.encrypt(orion.encode(x, level)); net.he(); y = decrypted_output(net, net(ct))

The layers `heirpy.export.network` reads from the function become Orion layers:

    Conv            on.Conv2d (stride, padding, dilation, groups), or on.AvgPool2d when
                    it is a plain average pool
    Linear          on.Linear            Square         on.Quad
    Add             on.Add               Flatten        on.Flatten
    ChannelAffine   on.BatchNorm2d / on.BatchNorm1d with mean 0, variance 1, eps 0

Orion spends one level per conv, linear layer and average pool (all plaintext-
ciphertext linear transforms), one per x * x, two per batch norm it cannot fold into a
preceding conv / linear layer, none for add and flatten (`orion_depth`). A network
heirpy has fused therefore needs fewer levels than the one PyTorch code would write.

torch and Orion are imported only when a network is built: `import heirpy` (and this
module) never loads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from heirpy.export.network import (
    Add,
    ChannelAffine,
    Conv,
    Flatten,
    Layer,
    Linear,
    Network,
    Square,
    extract_network,
)
from heirpy.export.orion_layout import output_layout

if TYPE_CHECKING:
    import orion.nn
    import torch

ORION_REQUIREMENT = "orion-fhe==1.0.2 (after torch==2.13.0 and torchvision==0.28.0)"
# heirpy's main pipeline for Orion's packing (the default of `heirpy-export-orion`):
# * the cost rule counts what Orion packs (`policy=diagonals`, in both passes, since
#   `linalg-canonicalizations` fuses conv + pool pairs too): a fusion is taken when the
#   plaintext diagonals Orion encodes for the fused layer are at most 2x those of the
#   layers it replaces per level saved (`heirpy.analysis.orion_packing`, at N = 2^14).
#   Orion's memory and time go with those diagonals, not with weights or MACs: the
#   VGG-style CIFAR net's last pool, global pool and Linear(64, 10) are 37 + 100 + 73
#   diagonals, the one 10 x 4096 Linear they fuse into (within the former MAC bound,
#   `max-mac-growth=4`) is 4105, and Orion's compile of that form was killed at 24 GiB
#   where the unfused net ran in 17 GB. Refused now, as is the MobileNet block's global
#   pool folded into its last Linear (4096 + 73 -> 65536 diagonals);
#   every other fusion of the FHE examples stays (levels pinned in
#   tests/unit/test_export_network.py);
# * no slot budget (`slot-budget=0`): the budget (HEIR's 1024 slots) stands for a back end
#   that packs each matrix vector into one ciphertext, while Orion splits a matrix into
#   slot-sized blocks itself (LeNet-5's pool + first Linear: 10 levels with the budget,
#   9 without).
ORION_PIPELINE = "linalg-canonicalizations{policy=diagonals},linalg-fuse-ops{slot-budget=0 policy=diagonals}"


def to_orion(module: ModuleOp, function: str = "main") -> orion.nn.Module:
    """The Orion network that computes `@function` of `module`, in eval mode.

    Raises `HeirpyError` (`file:line:col: error: ...`) for an op Orion cannot express.
    """
    return network_to_orion(extract_network(module, function))


def network_to_orion(network: Network) -> orion.nn.Module:
    """`network` as an `OrionNetwork`; layers are named by kind: conv2d1, quad1, ..."""
    from heirpy.export.orion_network import OrionNetwork

    layers = []
    counts: dict[str, int] = {}
    for layer in network.layers:
        module = _orion_layer(layer)
        kind = type(module).__name__.lower()
        counts[kind] = counts.get(kind, 0) + 1
        layers.append((f"{kind}{counts[kind]}", module, layer.inputs))
    layout, shape = output_layout(network)
    net = OrionNetwork(layers, network.output, layout, shape)
    net.eval()
    return net


_LEVELS: dict[type[Layer], int] = {Conv: 1, Linear: 1, Square: 1, ChannelAffine: 2, Add: 0, Flatten: 0}


def orion_depth(network: Network) -> int:
    """The levels Orion needs to run `network` without bootstrapping (its costliest path)."""
    depth = [0]
    for layer in network.layers:
        depth.append(max(depth[i] for i in layer.inputs) + _LEVELS[type(layer)])
    return depth[network.output]


def _orion_layer(layer: Layer) -> torch.nn.Module:
    import orion.nn as on

    if isinstance(layer, Conv):
        if layer.is_average_pool():
            return on.AvgPool2d(layer.weight.shape[2], stride=layer.stride)
        out_channels, per_group, size, _ = layer.weight.shape
        conv = on.Conv2d(
            per_group * layer.groups, out_channels, size, stride=layer.stride,
            padding=layer.padding, dilation=layer.dilation, groups=layer.groups,
        )
        return _with_parameters(conv, layer.weight, layer.bias)
    if isinstance(layer, Linear):
        out_features, in_features = layer.weight.shape
        return _with_parameters(on.Linear(in_features, out_features), layer.weight, layer.bias)
    if isinstance(layer, ChannelAffine):
        norm_class = on.BatchNorm2d if layer.rank == 4 else on.BatchNorm1d
        # mean 0, variance 1 and eps 0 leave exactly weight * x + bias.
        return _with_parameters(norm_class(layer.scale.shape[0], eps=0.0), layer.scale, layer.shift)
    if isinstance(layer, Square):
        return on.Quad()
    if isinstance(layer, Add):
        return on.Add()
    if isinstance(layer, Flatten):
        return on.Flatten()
    raise AssertionError(f"no Orion layer for {type(layer).__name__}")


def _with_parameters(module: torch.nn.Module, weight: np.ndarray, bias: np.ndarray) -> torch.nn.Module:
    import torch

    with torch.no_grad():
        for parameter, values in ((module.weight, weight), (module.bias, bias)):
            assert isinstance(parameter, torch.Tensor)
            parameter.copy_(torch.from_numpy(np.ascontiguousarray(values, dtype=np.float32)))
    return module


def decrypted_output(net: torch.nn.Module, ciphertext: object) -> np.ndarray:
    """Decrypt Orion's output `ciphertext` of `net` (a network `to_orion` made) into the
    IR's result shape. Orion decodes a network whose last layer is a conv or a pool (or
    x², a batch norm or an add after one) in its multiplexed layout: a 1x6x4x4 result of
    a stride-2 conv comes back as 2x8x8 = 128 slots, channels interleaved in the gaps
    (`heirpy.export.orion_layout`); this puts every value back in its place."""
    decoded = ciphertext.decrypt().decode()  # type: ignore[attr-defined]
    return net.clear_output(decoded)  # type: ignore[operator, unused-ignore]  # Any where torch is absent


def run_cleartext(net: torch.nn.Module, x: np.ndarray) -> np.ndarray:
    """`net(x)` in cleartext (as PyTorch computes it), as a numpy array."""
    import torch

    # The network's parameters are f32 (`_load_parameters`): an f16 input is widened, exactly.
    with torch.no_grad():
        return net(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))).numpy()
