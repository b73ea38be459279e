"""`heirpy-opt`: xdsl-opt with heirpy's dialects and passes, and one-line errors.

It takes every flag of xdsl-opt (`-p`, `--split-input-file`, `--print-op-generic`,
`--verify-diagnostics`, `-o`, `pass{opt=val}`, ...) and adds:

  --list-passes   print heirpy's passes with a one-line description (`--list-passes=all`
                  also lists xDSL's)
  --debug         show the Python traceback of an error
  --print-local-scope  print affine maps inline instead of as `#map` aliases ahead of
                  the module (mlir-opt's --mlir-print-local-scope)

Bad input (parse or verify error, unknown pass, bad option, missing file) prints one
`file:line:col: error: ...` line to stderr and exits 1.
"""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import os
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from io import StringIO
from typing import IO, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.syntax_printer import SyntaxPrinter
from xdsl.targets.mlir import MLIRTarget
from xdsl.universe import Universe
from xdsl.utils.arg_spec import parse_spec
from xdsl.xdsl_opt_main import xDSLOptMain

from heirpy.api import apply_pass, build_pipeline
from heirpy.ir.context import make_context
from heirpy.ir.diagnostics import ArgumentParser, HeirpyError, parse_module_text, verify_module
from heirpy.ir.printer import MLIRPrinter
from heirpy.transforms import HEIRPY_PASSES, available_passes, pass_summary

HEIR_EPILOG = """\
for HEIR's CKKS pipeline, one step and one slot count N (leave {slot-count=N} out and
heirpy picks it, naming heir-opt's flag in a remark when it is not HEIR's default 1024):
  heirpy-opt net.mlir -p 'heir-prepare{slot-count=N}' | heir-opt --secretize=function=main \\
      '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks=min-slot-count=N
(heir-prepare{slot-count=N} = linalg-canonicalizations,linalg-fuse-ops{slot-budget=N},
legalize-for-heir{slot-count=N flat-results=true pad-input-channels=true}: a result HEIR
cannot keep in its shape at the depth bound comes back flat, and a 3-channel image
argument takes 4 channels; remarks name both; flat-results=false and
pad-input-channels=false keep them; `-p report-slots` prints the N a module needs)"""

IREE_EPILOG = """for IREE, one step per target (llvm-cpu: target=cpu, the default; CUDA/ROCm: target=gpu):
  heirpy-opt net.mlir -p iree-prepare | iree-compile - --iree-hal-target-device=local \\
      --iree-hal-local-target-device-backends=llvm-cpu -o net.vmfb
(iree-prepare = linalg-canonicalizations{max-mac-growth=1},demote-f64,
linalg-fuse-ops{max-mac-growth=1 iree-reductions=true constant-budget=0},lower-tensor-ext,
detach-constant-transpose,detach-contraction-transpose,drop-softmax-unit-dims,
narrow-contraction-inputs,sink-widening-casts,narrow-rounded-reads,round-in-reductions,
unroll-depthwise-conv,detach-conv-init: fusion that never grows the multiply-accumulates, then
heirpy's ops in the form IREE fuses; target=gpu ends with lower-tensor-ext{target=gpu},detach-constant-transpose,
detach-contraction-transpose,drop-softmax-unit-dims,
narrow-contraction-inputs,sink-widening-casts,narrow-rounded-reads,round-in-reductions,
detach-conv-init; with IREE's
--iree-global-opt-use-im2col-for-convs, iree-prepare{im2col=true} also writes grouped convs as
im2col + a batched contraction and the 3x3 convs IREE runs faster direct as generics:
im2col-grouped-conv,generalize-direct-conv)"""


class AlreadyReported(HeirpyError):
    """Diagnostics were printed as they arose; only the exit code is left to set."""


@dataclass(frozen=True)
class HeirpyMLIRTarget(MLIRTarget):
    """xdsl-opt's `mlir` target (with all its printing flags), printing op names and
    aliases as MLIR's tools do (`module`, `return`, `#map`). `--syntax-highlight` keeps
    xDSL's printer."""

    print_local_scope: bool = False

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        printer: Printer
        if self.syntax_highlight:
            printer = SyntaxPrinter(
                stream=output,
                print_generic_format=self.print_generic_format,
                print_properties_as_attributes=self.print_properties_as_attributes,
                print_debuginfo=self.print_debuginfo,
            )
        else:
            printer = MLIRPrinter(
                stream=output,
                print_generic_format=self.print_generic_format,
                print_properties_as_attributes=self.print_properties_as_attributes,
                print_debuginfo=self.print_debuginfo,
                print_local_scope=self.print_local_scope,
            )
        # The op goes through a buffer, so a failure while printing it writes nothing;
        # the resource trailer (most of a network's text) goes straight to `output`.
        body = StringIO()
        printer.stream = body
        printer.print_op(module)
        output.write(body.getvalue())
        del body
        printer.stream = output
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


@dataclass(frozen=True)
class LocalScopeMLIRTarget(HeirpyMLIRTarget):
    """The `mlir` target under `--print-local-scope`."""

    print_local_scope: bool = True


class HeirpyOptMain(xDSLOptMain):
    """xdsl-opt's driver with heirpy's context, passes and diagnostics."""

    def __init__(self, args: Sequence[str] | None = None):
        self.available_frontends = {}
        self.available_passes = {}
        self.available_targets = {}
        self.ctx = make_context()
        self.register_all_dialects()
        self.register_all_frontends()
        self.register_all_passes()
        self.register_all_targets()
        arg_parser = ArgumentParser(
            prog="heirpy-opt",
            description="heirpy: MLIR linalg fusion passes on xDSL",
            epilog=f"{HEIR_EPILOG}\n\n{IREE_EPILOG}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        self.register_all_arguments(arg_parser)
        self.args = arg_parser.parse_args(args=args)
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        self.pipeline_passes: tuple[ModulePass, ...] = ()
        self.last_module: ModuleOp | None = None
        if not self.args.list_passes:
            self.pipeline_passes = build_pipeline(self.args.passes).passes

    def register_all_dialects(self) -> None:
        # heirpy's context already holds xDSL's dialects with heirpy's linalg; add any
        # other plugin's dialects that it does not name.
        registered = set(self.ctx.registered_dialect_names)
        for name, factory in Universe.get_multiverse().all_dialects.items():
            if name not in registered:
                self.ctx.register_dialect(name, factory)

    def register_all_targets(self) -> None:
        super().register_all_targets()

        # xdsl-opt tells target factories from legacy emit functions by their arity,
        # and calls the factory after parsing the arguments.
        def mlir_target() -> type[MLIRTarget]:
            return LocalScopeMLIRTarget if self.args.print_local_scope else HeirpyMLIRTarget

        self.available_targets["mlir"] = mlir_target

    def register_all_passes(self) -> None:
        for name, factory in available_passes().items():
            self.register_pass(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--list-passes",
            nargs="?",
            const="heirpy",
            choices=["heirpy", "all"],
            help="list heirpy's passes (or all passes) with a one-line description",
        )
        arg_parser.add_argument(
            "--debug", action="store_true", help="show Python tracebacks of errors"
        )
        arg_parser.add_argument(
            "--print-local-scope",
            action="store_true",
            help="print affine maps inline, without `#map = ...` aliases ahead of the "
            "module (mlir-opt's --mlir-print-local-scope)",
        )

    def start_new_context(self) -> None:
        """A context of its own for the next `--split-input-file` chunk.

        Chunks are separate inputs, as in mlir-opt: a `dense_resource` handle that an
        earlier chunk defined made xDSL rename the next chunk's (`weights_0`), and that
        chunk's blob, its constant's values, was lost from the output."""
        self.ctx = make_context(allow_unregistered=self.args.allow_unregistered_dialect)
        self.register_all_dialects()

    def list_passes(self, stream: IO[str]) -> None:
        names = HEIRPY_PASSES if self.args.list_passes == "heirpy" else available_passes()
        width = max((len(n) for n in names), default=0)
        for name in sorted(names):
            stream.write(f"{name.ljust(width)}  {pass_summary(names[name])}\n")

    def parse_text(self, chunk: bytes, line_offset: int) -> ModuleOp:
        return parse_module_text(
            self.ctx,
            chunk,
            self.get_input_name(),
            line_offset=line_offset,
            implicit_module=not self.args.no_implicit_module,
        )

    def process(self, module: ModuleOp, output: IO[str]) -> None:
        if not self.args.disable_verify:
            verify_module(module)
        for index, module_pass in enumerate(self.pipeline_passes):
            start = time.perf_counter()
            apply_pass(module_pass, module, self.ctx)
            if self.args.time_passes:
                print(f"Pass {module_pass.name} took {time.perf_counter() - start} seconds")
            if not self.args.disable_verify:
                verify_module(module)
            if self.args.print_between_passes and index + 1 < len(self.pipeline_passes):
                print(f"IR after {module_pass.name}:")
                MLIRPrinter(
                    stream=sys.stdout, print_local_scope=self.args.print_local_scope
                ).print_op(module)
                print("\n\n\n")
        self.write_resulting_program(module, output)

    def write_resulting_program(self, module: ModuleOp, output: IO[str]) -> None:
        """`output.write(self.output_resulting_program(module))` without holding the
        whole text in memory: heirpy's `mlir` target writes straight to `output` (a
        network's text is tens of MB of weights; other targets keep xdsl-opt's way)."""
        spec = parse_spec(self.args.target)
        if spec.name != "mlir":
            output.write(self.output_resulting_program(module))
            return
        target_class = LocalScopeMLIRTarget if self.args.print_local_scope else HeirpyMLIRTarget
        target = dataclasses.replace(
            target_class.from_spec(spec),
            print_generic_format=self.args.print_op_generic,
            print_properties_as_attributes=self.args.print_no_properties,
            print_debuginfo=self.args.print_debuginfo,
            syntax_highlight=self.args.syntax_highlight,
        )
        target.emit(self.ctx, module, output)

    def run(self) -> None:
        if self.args.list_passes:
            self.list_passes(sys.stdout)
            return
        target = parse_spec(self.args.target).name
        if target not in self.available_targets:  # before any input is read or written
            raise HeirpyError(f"error: unknown target '{target}' (-t): heirpy-opt's targets are "
                              f"{', '.join(sorted(self.available_targets))}")
        chunks = self.read_chunks()
        output = self.open_output()
        failed = False
        try:
            for index, (chunk, line_offset) in enumerate(chunks):
                if index > 0:
                    output.write("// -----\n")
                    self.start_new_context()
                try:
                    module = self.parse_text(chunk, line_offset)
                    if index == len(chunks) - 1:
                        self.last_module = module  # freed at exit, or not at all (main)
                    self.process(module, output)
                    del module
                except HeirpyError as err:
                    # Like mlir-opt: with --verify-diagnostics the diagnostic is the
                    # expected output, so it goes to stdout and is not a failure.
                    # Otherwise report it and go on with the next chunk.
                    if self.args.verify_diagnostics or self.args.parsing_diagnostics:
                        output.write(f"{err}\n")
                    else:
                        print(str(err), file=sys.stderr)
                        failed = True
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()
        if failed:
            raise AlreadyReported()

    def read_chunks(self) -> list[tuple[bytes, int]]:
        path = self.args.input_file
        try:
            if path is None:
                data = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as stream:
                    data = stream.read()
        except OSError as err:
            raise HeirpyError(f"error: cannot read '{path}': {err.strerror}") from err
        if not self.args.split_input_file:
            return [(data, 0)]
        chunks: list[tuple[bytes, int]] = []
        line_offset = 0
        for chunk in data.split(b"// -----"):
            chunks.append((chunk, line_offset))
            line_offset += chunk.count(b"\n")
        return chunks

    def open_output(self) -> IO[str]:
        if self.args.output_file is None:
            return sys.stdout
        try:
            return open(self.args.output_file, "w")
        except OSError as err:
            raise HeirpyError(
                f"error: cannot write '{self.args.output_file}': {err.strerror}"
            ) from err


def main(argv: Sequence[str] | None = None) -> int:
    """heirpy-opt on `argv`, or on the command line when None: then heirpy-opt is the
    process, and it ends it as soon as its output is out (see `_end_process`)."""
    code = _main(list(sys.argv[1:] if argv is None else argv), keep=[])
    if argv is None:
        _end_process(code)
    return code


def _end_process(code: int) -> NoReturn:
    """Exit with `code` without freeing the IR first, as LLVM's tools do (they skip
    their own teardown at exit): Python's teardown takes every op, value and
    attribute of the module apart one by one, 0.15 s on a network. Output streams are
    flushed and `atexit` handlers run, as at a normal exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = code or 141
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(code)


def _main(argv: list[str], keep: list[object]) -> int:
    """heirpy-opt's exit code on `argv`; `keep` receives the driver, so the IR it holds
    outlives the call."""
    debug = "--debug" in argv
    try:
        driver = HeirpyOptMain(argv)
        keep.append(driver)
        driver.run()
    except AlreadyReported:
        return 1
    except HeirpyError as err:
        if debug:
            traceback.print_exc()
        print(str(err), file=sys.stderr)
        return 1
    except RecursionError:
        if debug:
            traceback.print_exc()
        print("error: input is nested too deeply", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`heirpy-opt model.mlir | head`): stop quietly, as a tool
        # killed by SIGPIPE does. stdout is pointed at /dev/null so that Python's own
        # flush at exit does not fail on the closed pipe a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as err:  # a bug in heirpy or xDSL: still one line for the user
        if debug:
            traceback.print_exc()
        detail = str(err).strip().splitlines()
        print(
            f"error: internal error ({type(err).__name__}: {detail[0] if detail else ''}); "
            "rerun with --debug for a traceback",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    main()
