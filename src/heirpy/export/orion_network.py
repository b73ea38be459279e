"""The network class `heirpy.export.orion` builds. Importing this module loads torch and
Orion; it is a module of its own so that a saved network (`torch.save`) finds its class
again when loaded (`torch.load(path, weights_only=False)`)."""

from __future__ import annotations

import numpy as np
import orion.nn as on
import torch
from torch import nn

from heirpy.analysis.orion_packing import Layout
from heirpy.export.orion_layout import from_orion_layout


class OrionNetwork(on.Module):
    """Orion layers run in a fixed order. Value 0 is the input and value i + 1 the output
    of step i, whose inputs are earlier values. Orion's `fit` traces `forward` with
    torch.fx, which unrolls the loop into one call per layer: Orion sees an ordinary
    layer graph (residual adds included)."""

    def __init__(
        self,
        layers: list[tuple[str, nn.Module, tuple[int, ...]]],
        output: int,
        output_layout: Layout | None = None,
        result_shape: tuple[int, ...] | None = None,
    ):
        super().__init__()
        # Where Orion's ciphertext holds the result, and the IR's shape of it: see
        # `clear_output`. (Plain data, so the network still saves with torch.save.)
        self.output_layout = output_layout
        self.result_shape = result_shape
        self.steps: list[tuple[str, tuple[int, ...]]] = []
        for name, layer, inputs in layers:
            self.add_module(name, layer)
            self.steps.append((name, inputs))
        self.output = output

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        values = [x]
        for name, inputs in self.steps:
            values.append(self.get_submodule(name)(*(values[i] for i in inputs)))
        return values[self.output]

    def clear_output(self, decoded: torch.Tensor | np.ndarray) -> np.ndarray:
        """The IR's result from what Orion decrypts and decodes for this network's output
        (`ciphertext.decrypt().decode()`): a last conv or pool leaves it in Orion's
        multiplexed layout, which this reads back (`orion_layout.from_orion_layout`)."""
        assert self.output_layout is not None and self.result_shape is not None
        values = decoded.detach().cpu().numpy() if isinstance(decoded, torch.Tensor) else np.asarray(decoded)
        return from_orion_layout(values, self.output_layout, self.result_shape)
