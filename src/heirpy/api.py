"""The library entry points: parse, run a pipeline, print. The CLI is a thin layer on these.

    import heirpy
    module = heirpy.parse(open("model.mlir").read(), "model.mlir")
    heirpy.run_pipeline(module, "canonicalize,dce")
    print(heirpy.print_module(module))

Every function raises `heirpy.HeirpyError` with a one-line diagnostic for bad input.
"""

from __future__ import annotations

from io import StringIO
from weakref import WeakKeyDictionary

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer

from heirpy.context import make_context
from heirpy.diagnostics import HeirpyError, parse_module_text, verify_module
from heirpy.transforms import available_passes


_MODULE_CONTEXTS: WeakKeyDictionary[ModuleOp, Context] = WeakKeyDictionary()
"""The context each parsed module came from, so printing finds its resource blobs."""


def parse(
    text: str | bytes,
    filename: str = "<string>",
    *,
    ctx: Context | None = None,
    verify: bool = True,
) -> ModuleOp:
    """Parse MLIR text (custom or generic form) into a verified module."""
    ctx = make_context() if ctx is None else ctx
    module = _parse(text, filename, ctx, verify)
    _MODULE_CONTEXTS[module] = ctx
    return module


def context_of(module: ModuleOp) -> Context:
    """The context `module` was parsed with (its dense_resource blobs live there).

    A module built in Python rather than parsed gets a fresh context on first use.
    """
    ctx = _MODULE_CONTEXTS.get(module)
    if ctx is None:
        ctx = _MODULE_CONTEXTS[module] = make_context()
    return ctx


def _parse(text: str | bytes, filename: str, ctx: Context, verify: bool) -> ModuleOp:
    module = parse_module_text(ctx, text, filename)
    if verify:
        verify_module(module)
    return module


def build_pipeline(spec: str) -> PassPipeline:
    """A pass pipeline from `pass-a,pass-b{opt=1}` using heirpy's and xDSL's passes."""
    try:
        return PassPipeline.parse_spec(available_passes(), spec)
    except Exception as err:  # xDSL raises several types for bad specs
        raise HeirpyError(f"error: invalid pass pipeline '{spec}': {_first(err)}") from err


def run_pipeline(
    module: ModuleOp, spec: str, *, ctx: Context | None = None, verify: bool = True
) -> ModuleOp:
    """Apply `spec` to `module` in place (and return it), verifying after each pass."""
    ctx = context_of(module) if ctx is None else ctx
    pipeline = build_pipeline(spec)
    for module_pass in pipeline.passes:
        apply_pass(module_pass, module, ctx)
        if verify:
            verify_module(module)
    return module


def apply_pass(module_pass: ModulePass, module: ModuleOp, ctx: Context) -> None:
    try:
        module_pass.apply(ctx, module)
    except HeirpyError:
        raise
    except Exception as err:
        raise HeirpyError(f"error: pass '{module_pass.name}' failed: {_first(err)}") from err


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    """MLIR text of `module`, with the blobs of its dense_resource constants.

    `generic=True` prints the generic op form.
    """
    out = StringIO()
    printer = Printer(stream=out, print_generic_format=generic)
    printer.print_op(module)
    out.write("\n")
    printer.print_metadata(context_of(module).loaded_dialects)
    return out.getvalue()


def _first(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[-1] if text else type(err).__name__
