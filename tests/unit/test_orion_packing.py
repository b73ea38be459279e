"""heirpy.analysis.orion_packing: the multiplexed layouts and the diagonals Orion packs.

Pure numbers first (the VGG-style CIFAR net's tail, whose fusion Orion could not
compile, and the packing rules one by one), then the same counts against Orion's own
packing (`orion.core.packing`) on the layers of a small network Orion has fitted:
Python 3.11 only, where the orion extra installs orion-fhe (as in test_export_orion.py).
"""

from __future__ import annotations

import contextlib
import io
import sys

import numpy as np
import pytest

from heirpy.analysis.orion_packing import (
    Layout,
    conv_diagonals,
    conv_output_layout,
    count_diagonals,
    dense_mask,
    linear_diagonals,
    pool_mask,
    slot_index,
)

SLOTS = 8192  # N = 2^14


def vgg_tail_layout() -> Layout:
    """Where the VGG-style CIFAR net's last stage leaves its 64 x 8 x 8 activation: after
    two 2x2 pools (gap 4) of a 16 x 32 x 32 one, then a 32- and a 64-channel conv."""
    x = Layout((1, 3, 32, 32))
    x = conv_output_layout(x, 16, (32, 32), 1)
    x = conv_output_layout(x, 16, (16, 16), 2)  # pool 1
    x = conv_output_layout(x, 32, (16, 16), 1)
    x = conv_output_layout(x, 32, (8, 8), 2)  # pool 2
    return conv_output_layout(x, 64, (8, 8), 1)


def test_strided_layers_multiplex_their_output() -> None:
    x = vgg_tail_layout()
    assert (x.gap, x.packed) == (4, (1, 4, 32, 32))  # 64 channels at gap 4: 4 planes of 32 x 32
    pooled = conv_output_layout(x, 64, (4, 4), 2)
    assert (pooled.gap, pooled.packed) == (8, (1, 1, 32, 32))
    assert pooled.slots_needed() == 1024
    # Channel c, row h, column w sits in plane c // g², at row h*g + (c % g²) // g.
    assert slot_index(x, np.array(17), np.array(2), np.array(3)) == 1 * 1024 + (2 * 4 + 0) * 32 + (3 * 4 + 1)


def test_vgg_tail_diagonals_as_orion_packed_them() -> None:
    """The issue's figures: raw, the last pool, the global pool and the Linear(64, 10)
    are 37 + 100 + 73 diagonals; fused into one 10 x 4096 Linear (the network's last,
    packed square) they are 4096 + 9 = 4105."""
    x = vgg_tail_layout()
    pooled = conv_output_layout(x, 64, (4, 4), 2)
    gap = conv_output_layout(pooled, 64, (1, 1), 4)
    assert conv_diagonals(pool_mask(64, (2, 2)), x, (4, 4), stride=2) == 37
    assert conv_diagonals(pool_mask(64, (4, 4)), pooled, (1, 1), stride=4) == 100
    assert linear_diagonals(np.ones((10, 64), bool), gap, SLOTS, last=True) == 73
    assert linear_diagonals(np.ones((10, 4096), bool), x, SLOTS, last=True) == 4105
    # The same matrix in the middle of a network: hybrid packing, 16-row blocks.
    assert linear_diagonals(np.ones((10, 4096), bool), x, SLOTS, last=False) == 16


def test_count_diagonals_blocks_and_embeddings() -> None:
    rows, cols = np.array([0, 1, 2, 0]), np.array([0, 1, 2, 5])
    # One 3-row block, not the last layer: hybrid, block height 4, diagonals (c - r) mod 4.
    assert count_diagonals(rows, cols, 3, 8, 8, last=False) == 2  # offsets 0 and 5 = 1 mod 4
    assert count_diagonals(rows, cols, 3, 8, 8, last=True) == 2  # square: offsets 0 and 5
    assert count_diagonals(rows, cols, 3, 8, 8, last=False, hybrid=False) == 2
    assert count_diagonals(np.array([0, 0]), np.array([1, 5]), 3, 8, 8, last=False) == 1  # 1 = 5 mod 4
    assert count_diagonals(np.array([0, 0]), np.array([1, 5]), 3, 8, 8, last=True) == 2
    # Two block columns of 4 slots: the same offset in each block counts twice.
    assert count_diagonals(np.array([0, 0]), np.array([1, 5]), 4, 8, 4, last=True) == 2
    assert count_diagonals(np.array([0, 4]), np.array([1, 5]), 8, 8, 4, last=True) == 2


def reference_diagonals(matrix: np.ndarray, slots: int, last: bool) -> int:
    """Orion's `diagonalize` by its definition: per `slots` x `slots` block, the distinct
    (c - r) mod B of its nonzero entries (B: the height rounded up to a power of two for a
    single block row off the last layer, else `slots`)."""
    height = matrix.shape[0]
    single = height <= slots
    block_height = 1 << (height - 1).bit_length() if single and not last else slots
    found = set()
    for r, c in zip(*np.nonzero(matrix)):
        found.add((r // slots, c // slots, (c % slots - r % slots) % block_height))
    return len(found)


@pytest.mark.parametrize("last", [False, True])
@pytest.mark.parametrize("size", [SLOTS - 1, SLOTS, SLOTS + 1])
def test_a_linear_at_the_slot_count_and_on_each_side(size: int, last: bool) -> None:
    """A Linear whose input or output has one slot less, exactly the slots or one more
    (a second block column / row, 2^13 = N / 2 slots at N = 2^14): the count stays in
    its matrix's blocks and equals the definition's. A band keeps the reference small."""
    for height, width in ((size, 3), (3, size), (size, size)):
        mask = np.zeros((height, width), dtype=bool)
        for offset in (0, 1, width - 1):
            r = np.arange(height)
            mask[r, (r + offset) % width] = True
        assert linear_diagonals(mask, Layout((1, width)), SLOTS, last) == reference_diagonals(mask, SLOTS, last)


def test_an_image_of_more_elements_than_slots_spans_block_columns() -> None:
    """A 1x1 conv over 2 x 64 x 128 (16384 = 2 x 8192 elements) at 8192 slots: an
    identity per channel, one diagonal per block on the block diagonal; a conv over 3
    channels the layout does not hold is refused with the reason, not an IndexError."""
    x = Layout((1, 2, 64, 128))
    assert conv_diagonals(dense_mask(2, 2, (1, 1), groups=2), x, (64, 128), slots=SLOTS) == 2
    assert conv_diagonals(dense_mask(2, 2, (1, 1)), x, (64, 128), slots=SLOTS) == 4
    with pytest.raises(ValueError, match="a conv over 3 channels reads a layout of 2"):
        conv_diagonals(dense_mask(2, 3, (1, 1)), x, (64, 128), slots=SLOTS)


def test_padding_and_dilation_set_the_offsets() -> None:
    """One 4x4 channel, 16 slots in use: output (ho, wo) is row 4*ho + wo and reads column
    4*(ho + d*kh - p) + (wo + d*kw - p), so each tap is one diagonal, offset 4*d*(kh-1) + d*(kw-1)."""
    x = Layout((1, 1, 4, 4))
    ones = np.ones((1, 1, 3, 3), dtype=bool)
    assert conv_diagonals(ones, x, (4, 4), padding=1) == 9  # offsets -5..5 without +-2
    assert conv_diagonals(ones, x, (2, 2)) == 9  # no padding: the same 9 taps
    # Dilation 2, padding 2: offsets 0, +-2, +-6, +-8, +-10; mod 16 (hybrid) 6 of them...
    assert conv_diagonals(ones, x, (4, 4), padding=2, dilation=2) == 6
    # ... and all 9 when the layer is the last one (square: mod the slot count).
    assert conv_diagonals(ones, x, (4, 4), padding=2, dilation=2, last=True) == 9
    assert conv_diagonals(np.zeros_like(ones), x, (4, 4), padding=1) == 0
    # A depthwise conv of 4 channels keeps each channel on its own offsets.
    assert conv_diagonals(dense_mask(4, 4, (3, 3), groups=4), Layout((1, 4, 4, 4)), (4, 4), padding=1) == 9


def test_batch_packs_block_diagonally() -> None:
    one = linear_diagonals(np.ones((3, 5), bool), Layout((1, 5)), 64, last=True)
    two = linear_diagonals(np.ones((3, 5), bool), Layout((2, 5)), 64, last=True)
    assert (one, two) == (7, 9)  # kron(eye(2), W): offsets -2..4 and, shifted by 5 - 3, 0..6


# ----------------------------------------------------------------------------- against Orion
ORION_ONLY = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="orion-fhe is installed by the orion extra on Python 3.11 only"
)


@ORION_ONLY
def test_counts_equal_orions_packing_on_a_fitted_network() -> None:
    """Every linear layer of a small net (a padded conv, a depthwise conv, a stride-2 conv,
    a pool, a Linear after a flatten, a Linear after a Linear, the last one square) at
    1024 and 512 slots (one block for some layers, several for others): heirpy's layout and count equal the
    fhe shape, gap and diagonals Orion builds."""
    import orion
    import orion.nn as on
    import torch
    from orion.core import packing
    from orion.nn.linear import LinearTransform

    class Net(on.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = torch.nn.Sequential(
                on.Conv2d(3, 8, 3, padding=1), on.Conv2d(8, 8, 3, padding=1, groups=8), on.Quad(),
                on.Conv2d(8, 12, 3, stride=2, padding=1), on.AvgPool2d(2), on.Flatten(),
                on.Linear(12 * 4 * 4, 40), on.Linear(40, 10),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.layers(x)

    for log_n in (11, 10):
        torch.manual_seed(0)
        net = Net()
        with contextlib.redirect_stdout(io.StringIO()):
            orion.init_scheme({
                "ckks_params": {"LogN": log_n, "LogQ": [30, 26], "LogP": [31], "LogScale": 26, "H": 192,
                                "RingType": "standard"},
                "orion": {"backend": "lattigo", "debug": False, "embedding_method": "hybrid"},
            })
            orion.fit(net, torch.randn(1, 3, 16, 16))
        slots = 2 ** (log_n - 1)
        linear = [m for m in net.layers if isinstance(m, LinearTransform)]
        layout = Layout((1, 3, 16, 16))
        for module in linear:
            module.init_orion_params()
            if hasattr(module, "update_params"):
                module.update_params()
            last = module is linear[-1]
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                pack = packing.pack_linear if isinstance(module, on.Linear) else packing.pack_conv2d
                diagonals, _ = pack(module, last)
            theirs = sum(len(d) for d in diagonals.values() if any(any(v) for v in d.values()))
            if isinstance(module, on.Linear):
                ours = linear_diagonals(np.ones(tuple(module.weight.shape), bool), layout, slots, last)
                layout = Layout(tuple(module.output_shape))
            else:
                if isinstance(module, on.AvgPool2d):
                    mask = pool_mask(layout.shape[1], tuple(module.kernel_size))
                else:
                    mask = dense_mask(module.out_channels, module.in_channels, tuple(module.kernel_size),
                                      module.groups)
                out_hw = tuple(module.output_shape[2:])
                ours = conv_diagonals(mask, layout, out_hw, module.stride[0], module.padding[0],
                                      module.dilation[0], slots, last)
                layout = conv_output_layout(layout, module.output_shape[1], out_hw, module.stride[0])
                assert (layout.packed, layout.gap) == (tuple(module.fhe_output_shape), module.output_gap)
            assert ours == theirs, f"{type(module).__name__} at {slots} slots"
