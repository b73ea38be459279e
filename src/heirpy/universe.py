"""The `xdsl.universe` entry point: plain `xdsl-opt` finds heirpy's passes and tensor_ext.

`linalg` is not offered here: xDSL already registers a dialect of that name and a
universe may not redefine one. Under plain xdsl-opt, heirpy's passes therefore see
xDSL's linalg, which lacks the ops front ends emit (pooling_nchw_sum, matvec, ...);
use `heirpy-opt` for real front-end IR.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.universe import Universe

from heirpy.transforms import HEIRPY_PASSES


def _tensor_ext() -> Dialect:
    from heirpy.ir.dialects.tensor_ext import TensorExt

    return TensorExt


HEIRPY_UNIVERSE = Universe(all_dialects={"tensor_ext": _tensor_ext}, all_passes=dict(HEIRPY_PASSES))
