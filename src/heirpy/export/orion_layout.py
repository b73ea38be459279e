"""Where Orion keeps each value of an exported network, and what each layer packs.

Orion does not compact the output of a strided conv or pool: it leaves the values
spread out with a gap and fills the gaps with further channels (its multiplexed
layout, `heirpy.analysis.orion_packing.Layout`). A network whose last layer is a conv
(or a pool, or x² / a batch norm / an add after one) therefore decrypts to Orion's
multiplexed tensor, not to the IR's result: a 1x6x4x4 conv output after a stride-2 conv
decodes as 2x8x8 = 128 slots, channel c at row h, column w of the clear result sitting
in plane c // 4, at row 2h + (c % 4) // 2, column 2w + c % 2. A Linear's output is in
the clear layout already.

`network_layouts` follows Orion's shape propagation through a `Network` (Orion's
`Conv2d.compute_fhe_output_shape` / `compute_fhe_output_gap`; Flatten, x², batch norm
and add keep their input's layout); `from_orion_layout` reads a decrypted output back
into the IR's result shape; `network_diagonals` counts the plaintext diagonals Orion
packs for each linear layer (`orion_packing.conv_diagonals` / `linear_diagonals`),
as `benchmarks/bench_orion_layers.py` reads them from Orion after its compile.

numpy only: no torch, no Orion.
"""

from __future__ import annotations

from math import prod

import numpy as np

from heirpy.analysis.orion_packing import (
    ORION_SLOTS,
    Layout,
    conv_diagonals,
    conv_output_layout,
    linear_diagonals,
    linear_output_layout,
    slot_index,
)
from heirpy.export.network import Add, ChannelAffine, Conv, Flatten, Linear, Network, Square


def network_layouts(network: Network) -> tuple[list[Layout], list[tuple[int, ...]]]:
    """For every value of `network` (0: the input, i + 1: layer i's output), Orion's
    layout and the clear shape heirpy's IR gives it (a Flatten's is 2-D, while Orion
    keeps the 4-D layout of its input)."""
    layouts = [Layout(network.input_shape)]
    shapes = [network.input_shape]
    for layer in network.layers:
        source = layer.inputs[0]
        layout, shape = layouts[source], shapes[source]
        if isinstance(layer, Conv):
            n, _, h, w = shape
            size = layer.weight.shape[2]
            span = layer.dilation * (size - 1) + 1
            out_hw = ((h + 2 * layer.padding - span) // layer.stride + 1,
                      (w + 2 * layer.padding - span) // layer.stride + 1)
            layout = conv_output_layout(layout, layer.weight.shape[0], out_hw, layer.stride)
            shape = layout.shape
        elif isinstance(layer, Linear):
            layout = linear_output_layout(shape[0], layer.weight.shape[0])
            shape = layout.shape
        elif isinstance(layer, Flatten):
            shape = (shape[0], prod(shape[1:]))
        else:
            assert isinstance(layer, (Square, ChannelAffine, Add))
        layouts.append(layout)
        shapes.append(shape)
    return layouts, shapes


def output_layout(network: Network) -> tuple[Layout, tuple[int, ...]]:
    """Orion's layout of the network's output and the IR's result shape."""
    layouts, shapes = network_layouts(network)
    return layouts[network.output], shapes[network.output]


def from_orion_layout(decoded: np.ndarray, layout: Layout, shape: tuple[int, ...]) -> np.ndarray:
    """The IR's result (of `shape`) from what Orion decrypts and decodes for a value of
    `layout` (its `fhe_shape` tensor, or the flat slots: the first ones are read)."""
    flat = np.asarray(decoded).reshape(-1)
    needed = layout.slots_needed()
    if flat.size < needed:
        raise ValueError(f"Orion's output has {flat.size} values; its layout {layout.packed} needs {needed}")
    samples = flat[:needed].reshape(layout.packed[0], -1)
    if len(layout.shape) != 4:
        return samples[:, :prod(layout.shape[1:])].reshape(shape)
    _, c, h, w = layout.shape
    cc, hh, ww = np.meshgrid(np.arange(c), np.arange(h), np.arange(w), indexing="ij")
    index = slot_index(layout, cc, hh, ww).reshape(-1)
    return samples[:, index].reshape(shape)


def network_diagonals(network: Network, slots: int = ORION_SLOTS) -> list[int | None]:
    """Per layer, the plaintext diagonals Orion packs at `slots` slots (None for the
    layers that are not linear transforms: x², batch norm, add, flatten). Orion packs
    its last linear layer "square"; weights count where they are nonzero."""
    layouts, shapes = network_layouts(network)
    linear = [i for i, layer in enumerate(network.layers) if isinstance(layer, (Conv, Linear))]
    last = linear[-1] if linear else -1
    counts: list[int | None] = []
    for index, layer in enumerate(network.layers):
        layout = layouts[layer.inputs[0]]
        if isinstance(layer, Conv):
            mask = _full_mask(layer)
            out_hw = (shapes[index + 1][2], shapes[index + 1][3])
            counts.append(conv_diagonals(mask, layout, out_hw, layer.stride, layer.padding, layer.dilation,
                                         slots, index == last))
        elif isinstance(layer, Linear):
            counts.append(linear_diagonals(layer.weight != 0, layout, slots, index == last))
        else:
            counts.append(None)
    return counts


def _full_mask(conv: Conv) -> np.ndarray:
    """A grouped conv's weights over all input channels (Orion's `resolve_grouped_conv`)."""
    out_channels, per_group, kh, kw = conv.weight.shape
    mask = np.zeros((out_channels, per_group * conv.groups, kh, kw), dtype=bool)
    per_out = out_channels // conv.groups
    for group in range(conv.groups):
        rows = slice(group * per_out, (group + 1) * per_out)
        mask[rows, group * per_group:(group + 1) * per_group] = conv.weight[rows] != 0
    return mask
