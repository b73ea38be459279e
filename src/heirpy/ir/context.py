"""The one place that decides which dialects heirpy parses: used by the CLI and the API.

Also where a parsed module's context is remembered (`context_of`): the module's
`dense_resource` blobs live in that context's store, so printing the module or reading
its constants needs it. The record is a weak map, so it never keeps a module alive.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.ir import Dialect

from heirpy.ir.diagnostics import parse_module_text, verify_module


def make_context(*, allow_unregistered: bool = False) -> Context:
    """A context with every xDSL dialect, heirpy's `arith`, `linalg`, `tensor` and `scf`
    in place of xDSL's, and heirpy's `tensor_ext`.

    Dialects load lazily, as in xdsl-opt, so building a context is cheap (heirpy's
    own too: their modules are imported when a parse first meets their ops). Each
    context has a `builtin` dialect of its own, hence its own store of
    `dense_resource` blobs.
    """
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        if name in ("arith", "linalg", "tensor", "builtin", "scf"):
            continue
        ctx.register_dialect(name, factory)
    ctx.register_dialect("builtin", _builtin_with_own_blob_store)
    ctx.register_dialect("arith", _arith)
    ctx.register_dialect("linalg", _linalg)
    ctx.register_dialect("tensor", _tensor)
    ctx.register_dialect("scf", _scf)
    ctx.register_dialect("tensor_ext", _tensor_ext)
    return ctx


def _arith() -> Dialect:
    from heirpy.ir.dialects.arith import Arith

    return Arith


def _linalg() -> Dialect:
    from heirpy.ir.dialects.linalg import Linalg

    return Linalg


def _tensor() -> Dialect:
    from heirpy.ir.dialects.tensor import Tensor

    return Tensor


def _scf() -> Dialect:
    from heirpy.ir.dialects.scf import Scf

    return Scf


def _tensor_ext() -> Dialect:
    from heirpy.ir.dialects.tensor_ext import TensorExt

    return TensorExt


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


_MODULE_CONTEXTS: WeakKeyDictionary[ModuleOp, Context] = WeakKeyDictionary()
"""The context each parsed module came from, so printing finds its resource blobs."""


def parse_module(
    text: str | bytes,
    filename: str = "<string>",
    *,
    ctx: Context | None = None,
    verify: bool = True,
) -> ModuleOp:
    """Parse MLIR text (custom or generic form) into a (verified) module and remember
    the context it was parsed with (`context_of`)."""
    ctx = make_context() if ctx is None else ctx
    module = parse_module_text(ctx, text, filename)
    if verify:
        verify_module(module)
    _MODULE_CONTEXTS[module] = ctx
    return module


def clone_module(module: ModuleOp) -> ModuleOp:
    """A deep copy of `module` that reads its dense_resource blobs from `module`'s
    context (a plain `module.clone()` would get a fresh context, without them).

    Copying is some 20 times cheaper than parsing the text again: what a caller that
    needs the model twice (before and after a pipeline) should do on whole networks."""
    copy = module.clone()
    _MODULE_CONTEXTS[copy] = context_of(module)
    return copy


def context_of(module: ModuleOp) -> Context:
    """The context `module` was parsed with (its dense_resource blobs live there).

    A module built in Python rather than parsed gets a fresh context on first use.
    """
    ctx = _MODULE_CONTEXTS.get(module)
    if ctx is None:
        ctx = _MODULE_CONTEXTS[module] = make_context()
    return ctx
