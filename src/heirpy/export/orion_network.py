"""The network class `heirpy.export.orion` builds. Importing this module loads torch and
Orion; it is a module of its own so that a saved network (`torch.save`) finds its class
again when loaded (`torch.load(path, weights_only=False)`)."""

from __future__ import annotations

import orion.nn as on
import torch
from torch import nn


class OrionNetwork(on.Module):
    """Orion layers run in a fixed order. Value 0 is the input and value i + 1 the output
    of step i, whose inputs are earlier values. Orion's `fit` traces `forward` with
    torch.fx, which unrolls the loop into one call per layer: Orion sees an ordinary
    layer graph (residual adds included)."""

    def __init__(self, layers: list[tuple[str, nn.Module, tuple[int, ...]]], output: int):
        super().__init__()
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
