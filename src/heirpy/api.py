"""The library entry points: parse, run a pipeline, print. The CLI is a thin layer on these.

    import heirpy
    module = heirpy.parse(open("model.mlir").read(), "model.mlir")
    heirpy.run_pipeline(module, "canonicalize,dce")
    print(heirpy.print_module(module))

Every function raises `heirpy.HeirpyError` with a one-line diagnostic for bad input.
"""

from __future__ import annotations

from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from heirpy.ir.context import context_of, parse_module
from heirpy.ir.diagnostics import HeirpyError, verify_module
from heirpy.ir.printer import MLIRPrinter
from heirpy.transforms import available_passes

__all__ = [
    "apply_pass",
    "build_pipeline",
    "context_of",
    "parse",
    "print_module",
    "run_pipeline",
]


def parse(
    text: str | bytes,
    filename: str = "<string>",
    *,
    ctx: Context | None = None,
    verify: bool = True,
) -> ModuleOp:
    """Parse MLIR text (custom or generic form) into a verified module.

    `ctx` defaults to a fresh `heirpy.make_context()`; the module remembers it
    (`context_of`), so printing and constant folding find its dense_resource blobs."""
    return parse_module(text, filename, ctx=ctx, verify=verify)


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
    """MLIR text of `module` as MLIR's tools print it (`module {`, `return` in a
    function), with the blobs of its dense_resource constants.

    `generic=True` prints the generic op form.
    """
    out = StringIO()
    printer = MLIRPrinter(stream=out, print_generic_format=generic)
    printer.print_op(module)
    out.write("\n")
    printer.print_metadata(context_of(module).loaded_dialects)
    return out.getvalue()


def _first(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[-1] if text else type(err).__name__
