"""The one place that decides which dialects heirpy parses: used by the CLI and the API."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import get_all_dialects


def make_context(*, allow_unregistered: bool = False) -> Context:
    """A context with every xDSL dialect, heirpy's `linalg` in place of xDSL's, and
    heirpy's `tensor_ext`.

    Dialects load lazily, as in xdsl-opt, so building a context is cheap.
    """
    from heirpy.dialects.linalg import Linalg
    from heirpy.dialects.tensor_ext import TensorExt

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        if name == "linalg":
            continue
        ctx.register_dialect(name, factory)
    ctx.register_dialect("linalg", lambda: Linalg)
    ctx.register_dialect("tensor_ext", lambda: TensorExt)
    return ctx
