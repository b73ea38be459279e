"""The one place that decides which dialects heirpy parses: used by the CLI and the API."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import Builtin
from xdsl.ir import Dialect


def make_context(*, allow_unregistered: bool = False) -> Context:
    """A context with every xDSL dialect, heirpy's `linalg` in place of xDSL's, and
    heirpy's `tensor_ext`.

    Dialects load lazily, as in xdsl-opt, so building a context is cheap. Each context
    has a `builtin` dialect of its own, hence its own store of `dense_resource` blobs.
    """
    from heirpy.dialects.linalg import Linalg
    from heirpy.dialects.tensor_ext import TensorExt

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        if name in ("linalg", "builtin"):
            continue
        ctx.register_dialect(name, factory)
    ctx.register_dialect("builtin", _builtin_with_own_blob_store)
    ctx.register_dialect("linalg", lambda: Linalg)
    ctx.register_dialect("tensor_ext", lambda: TensorExt)
    return ctx


def _builtin_with_own_blob_store() -> Dialect:
    """xDSL's builtin dialect with a fresh `dense_resource` blob store.

    xDSL keeps blobs in the OpAsmDialectInterface of its one `Builtin` object, shared
    by every context: parsing a model twice in one process renames the second copy's
    handles (`name_0`) and leaves their blobs empty, and a later parse overwrites
    blobs an earlier module reads. One store per context keeps modules apart.
    """
    return Dialect(
        Builtin.name, list(Builtin.operations), list(Builtin.attributes), [OpAsmDialectInterface()]
    )


def blob_store(ctx: Context) -> OpAsmDialectInterface:
    """The `dense_resource` blobs of modules parsed with `ctx` (hex text as printed)."""
    interface = ctx.get_dialect("builtin").get_interface(OpAsmDialectInterface)
    assert interface is not None, "make_context's builtin always has a blob store"
    return interface
