"""The slot budget of `linalg-fuse-linear-chains`' matrix form: how long a fused
matrix's input and output vectors may be (see `SlotBudget`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from heirpy.analysis.slots import linear_stages


def carried_vectors(func: FuncOp) -> dict[Operation, int]:
    """Each linear op of `func` on secret data (`heirpy.analysis.slots.linear_stages`:
    matvec, vecmat, matmul, convs, sum pools, fused conv+pool) -> the longer of the
    secret tensor it reads and the one it writes, in elements."""
    return {stage.op: max(stage.d_in, stage.d_out) for stage in linear_stages(func)}


@dataclass(frozen=True)
class SlotBudget:
    """How long a fused matrix's vectors may be.

    HEIR's CKKS kernels need a linear op's secret input and output each in ONE
    ciphertext, so the ring (`min-slot-count`) a function needs is set by its longest
    such vector. A matrix is within budget when its vectors fit `slots`, or when they
    are no longer than `carried`: the longest secret tensor a linear op OUTSIDE the
    chain reads or writes (`carried_vectors`, taken before any chain of the function is
    fused), or the function takes or returns (`boundary_vectors`: those are
    ciphertexts whatever is fused). Then the function needs that ring anyway and the
    matrix costs no larger one; LeNet-5's pool2+FC1 matrix (1600 x 120) fits beside
    conv1's 6x28x28 = 4704 output, and a chain that is the whole function fits beside
    its own input. The chain's own ops do not count otherwise: they are what the fusion
    replaces (a 1600-wide intermediate of the chain is not a vector the fused function
    carries).
    """

    slots: int
    carried: int

    def allows(self, d_in: int, d_out: int, tensor_in: int, tensor_out: int) -> bool:
        """`d_in`/`d_out`: one sample's vectors; `tensor_in`/`tensor_out`: the whole
        secret tensors the matrix op reads and writes (the batch included), compared
        with `carried`, which is measured the same way."""
        if max(d_in, d_out) <= self.slots:
            return True
        return max(tensor_in, tensor_out) <= self.carried
