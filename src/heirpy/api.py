"""The library entry points: parse, run a pipeline, print. The CLI is a thin layer on these.

    import heirpy
    module = heirpy.parse(open("model.mlir").read(), "model.mlir")
    heirpy.run_pipeline(module, "canonicalize,dce")
    print(heirpy.print_module(module))

Every function raises `heirpy.HeirpyError` with a one-line diagnostic for bad input.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline, get_pass_option_infos
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError

from heirpy.ir.context import clone_module, context_of, parse_module
from heirpy.ir.diagnostics import HeirpyError, verify_module
from heirpy.ir.printer import MLIRPrinter
from heirpy.transforms import available_passes

__all__ = [
    "apply_pass",
    "build_pipeline",
    "clone_module",
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
    """A pass pipeline from `pass-a,pass-b{opt=1}` using heirpy's and xDSL's passes.

    Options are spelled with dashes, as in MLIR (`slot-budget=4096`); xDSL also takes
    the field's own underscores. A bad pipeline is a `HeirpyError` that names the pass
    and the option as the user wrote them."""

    def fail(message: str) -> HeirpyError:
        return HeirpyError(f"error: invalid pass pipeline '{spec}': {message}")

    try:
        pass_specs = list(parse_pipeline(spec))
    except ArgSpecParseError as err:  # a BaseException in xDSL, so caught by name
        raise fail(_pipeline_syntax_error(err)) from err
    passes = available_passes()
    unknown = [p.name for p in pass_specs if p.name not in passes]
    if unknown:
        raise fail(f"Unrecognized passes: {unknown}")
    built: list[ModulePass] = []
    for pass_spec in pass_specs:
        pass_type = passes[pass_spec.name]()
        problem = _option_problem(pass_type, pass_spec)
        if problem is not None:
            raise fail(problem)
        try:
            built.append(pass_type.from_pass_spec(pass_spec))
        except ValueError as err:  # a required option left out
            raise fail(_dashed(_first(err))) from err
    return PassPipeline(tuple(built))


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


def print_module(module: ModuleOp, *, generic: bool = False, local_scope: bool = False) -> str:
    """MLIR text of `module` as MLIR's tools print it (`#map = affine_map<...>` aliases
    ahead of `module {`, `return` in a function), with the blobs of its dense_resource
    constants.

    `generic=True` prints the generic op form; `local_scope=True` prints affine maps
    inline, without aliases (mlir-opt's `--mlir-print-local-scope`).
    """
    out = StringIO()
    printer = MLIRPrinter(stream=out, print_generic_format=generic, print_local_scope=local_scope)
    printer.print_op(module)
    out.write("\n")
    printer.print_metadata(context_of(module).loaded_dialects)
    return out.getvalue()


def _option_problem(pass_type: type[ModulePass], pass_spec: ArgSpec) -> str | None:
    """What is wrong with `pass_spec`'s options (an unknown name, a value of the
    wrong type), in the user's spelling; None when nothing is."""
    infos = {
        info.name: info for info in get_pass_option_infos(pass_type) if info.name != "name"
    }
    init_fields = {f.name for f in dataclasses.fields(pass_type) if f.init}
    options = [_dashed(name) for name in infos if name in init_fields]
    for written, values in pass_spec.parameters.items():
        info = infos.get(written.replace("-", "_"))
        if info is None or info.name not in init_fields:
            known = f"its options are {', '.join(options)}" if options else "it has no options"
            return f"pass '{pass_spec.name}' has no option '{written}' ({known})"
        expected = info.expected_type.strip("'")  # a string annotation keeps its quotes
        if "bool" not in expected and any(isinstance(v, bool) for v in values):
            # xDSL takes true/false for an int (True == 1): `slot-count=true` is a typo.
            return f"option '{written}' of pass '{pass_spec.name}' expects {expected}, got {_spelled(values)}"
        try:
            pass_type.from_pass_spec(ArgSpec(pass_spec.name, {written: values}))
        except ValueError as err:
            if _first(err).startswith(("Incompatible types", "Argument must contain a value")):
                hint = ""
                if expected == "str" and values and not any(isinstance(v, str) for v in values):
                    # xDSL reads an unquoted 1 or 0,1 as numbers: a string option needs quotes.
                    hint = f" (quote it: {written}=\"{','.join(_spelled([v]) for v in values)}\")"
                return (
                    f"option '{written}' of pass '{pass_spec.name}' expects {expected}, "
                    f"got {_spelled(values)}{hint}"
                )
            # Any other complaint (another option is required) is the whole spec's.
    return None


def _spelled(values: Sequence[object]) -> str:
    if not values:
        return "no value"
    return ", ".join(
        str(v).lower() if isinstance(v, bool) else f"'{v}'" if isinstance(v, str) else str(v)
        for v in values
    )


def _dashed(text: str) -> str:
    """A pass-option name (or a message naming them) in the CLI's spelling."""
    return re.sub(r"\b([a-z0-9]+(?:_[a-z0-9]+)+)\b", lambda m: m.group(1).replace("_", "-"), text)


def _pipeline_syntax_error(err: ArgSpecParseError) -> str:
    # xDSL's message is an excerpt: `pass-pipeline:1:COL`, the spec, a caret, the text.
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    where = next((m.group(1) for line in lines if (m := re.fullmatch(r"pass-pipeline:\d+:(\d+)", line))), None)
    message = lines[-1] if lines else "malformed pipeline"
    return f"{message} (column {where})" if where is not None else message


def _first(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[-1] if text else type(err).__name__
