"""Shape helpers shared by the passes."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute


def static_shape(type_: Attribute) -> tuple[int, ...] | None:
    """The shape of a ranked tensor type with no dynamic size, else None.

    Memrefs give None too: heirpy's rewrites are for tensors only.
    """
    if not isinstance(type_, TensorType):
        return None
    shape = tuple(type_.get_shape())
    return None if any(d < 0 for d in shape) else shape
