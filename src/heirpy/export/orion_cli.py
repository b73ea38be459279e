"""`heirpy-export-orion`: an MLIR model as an Orion network, saved with `torch.save`.

    heirpy-export-orion MODEL.mlir [-o NET.pt] [--function NAME]
                        [-p PIPELINE | --no-pipeline] [--check [SEED]] [--debug]

Runs heirpy's pipeline (default `heirpy.export.orion.ORION_PIPELINE`,
`linalg-canonicalizations{policy=diagonals},linalg-fuse-ops{slot-budget=0
policy=diagonals}`: fusions judged by the diagonals Orion packs; that module says why),
exports the function (default `main`) with `heirpy.export.orion.to_orion`, prints one
line per Orion layer with the op it came from, the levels Orion will need and the
plaintext diagonals it will pack (`heirpy.export.orion_layout.network_diagonals`, at
N = 2^14), and with `-o` saves the network
(`torch.load(path, weights_only=False)` gives it back; heirpy must be importable
there). `--check` runs the network in cleartext and heirpy's evaluator on
the same random input (seed 0, or SEED) and exits 1 if they differ beyond
`1e-5 + 1e-4 * |expected|` (an f16 or bf16 result: beyond 4 ulps of its type, of its
largest value; the network computes in f32 what the IR rounds to f16 at each op).

Needs torch and orion-fhe (see `ORION_REQUIREMENT`). Errors print one line,
`file:line:col: error: ...`, and exit 1; `--debug` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from heirpy.analysis.orion_packing import ORION_SLOTS
from heirpy.api import run_pipeline
from heirpy.export.network import Add, ChannelAffine, Conv, Flatten, Layer, Linear, Network, Square, extract_network
from heirpy.export.orion import ORION_PIPELINE, ORION_REQUIREMENT, network_to_orion, orion_depth, run_cleartext
from heirpy.export.orion_layout import network_diagonals
from heirpy.interp.equivalence import compare_arrays, is_half, random_inputs
from heirpy.interp.evaluator import run_function
from heirpy.interp.resources import load_file
from heirpy.ir.diagnostics import ArgumentParser, HeirpyError, location_prefix, run_guarded

DEFAULT_PIPELINE = ORION_PIPELINE


def parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="heirpy-export-orion", description="Export an MLIR model as an Orion network.")
    p.add_argument("file", help="MLIR file")
    p.add_argument("-o", "--output", type=Path, help="save the network here (torch.save)")
    p.add_argument("--function", default="main", help="function to export (default: main)")
    pipeline = p.add_mutually_exclusive_group()
    pipeline.add_argument(
        "-p", "--pipeline", default=DEFAULT_PIPELINE,
        help=f"heirpy passes first (default: {DEFAULT_PIPELINE})",
    )
    pipeline.add_argument("--no-pipeline", action="store_true", help="export the IR as it is")
    p.add_argument("--check", nargs="?", type=int, const=0, metavar="SEED",
                   help="compare the network with heirpy's evaluator on a random input")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    return p


def run(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    _require_orion()
    loaded = load_file(args.file)
    if not args.no_pipeline:
        run_pipeline(loaded.module, args.pipeline)
    network = extract_network(loaded.module, args.function)
    net = network_to_orion(network)
    names = [name for name, _ in net.named_children()]
    for name, layer in zip(names, network.layers):
        print(f"{name:12} {describe(layer):44} {location_prefix(layer.op).rstrip(': ') or layer.op.name}")
    print(f"levels Orion needs without bootstrapping: {orion_depth(network)}")
    diagonals = sum(count or 0 for count in network_diagonals(network, ORION_SLOTS))
    print(f"plaintext diagonals Orion packs at N = 2^{ORION_SLOTS.bit_length()}: {diagonals}")
    status = 0
    if args.check is not None:
        status = _check(loaded.module, args.function, net, network, args.check)
    if args.output is not None:
        import torch

        try:
            torch.save(net, args.output)
        except OSError as err:
            raise HeirpyError(f"error: cannot write '{args.output}': {err.strerror or err}") from err
        print(f"saved {args.output}")
    return status


def describe(layer: Layer) -> str:
    """One line for a layer: its kind and the parameters that set its cost."""
    if isinstance(layer, Conv):
        out_channels, per_group, size, _ = layer.weight.shape
        if layer.is_average_pool():
            return f"AvgPool2d {size}x{size}, stride {layer.stride}"
        text = f"Conv2d {per_group * layer.groups}->{out_channels}, {size}x{size}, stride {layer.stride}"
        text += f", padding {layer.padding}" if layer.padding else ""
        text += f", dilation {layer.dilation}" if layer.dilation != 1 else ""
        return text + (f", groups {layer.groups}" if layer.groups != 1 else "")
    if isinstance(layer, Linear):
        return f"Linear {layer.weight.shape[1]}->{layer.weight.shape[0]}"
    if isinstance(layer, ChannelAffine):
        return f"BatchNorm{'2d' if layer.rank == 4 else '1d'} (per-channel scale and shift)"
    return {Square: "Quad (x * x)", Add: "Add", Flatten: "Flatten"}[type(layer)]


def _check(module, function: str, net, network: Network, seed: int) -> int:
    from xdsl.dialects.func import FuncOp

    func = next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == function)
    inputs = random_inputs(func, seed)
    (expected,) = run_function(module, function, inputs)
    got = run_cleartext(net, inputs[0])
    # An f16 module's network computes in f32 the polynomial the f16 IR rounds at every op:
    # read in the result's type, it is judged within 4 ulps of the result's largest value.
    half = is_half(expected.dtype)
    comparison = compare_arrays(0, expected, got.astype(expected.dtype) if half else got,
                                rtol=1e-4, atol=1e-5, scale_atol=half)
    print(f"check (seed {seed}): network vs evaluator: max abs error {comparison.max_abs_error:.3g}: "
          + ("ok" if comparison.ok else "MISMATCH"))
    return 0 if comparison.ok else 1


def _require_orion() -> None:
    """A clear error, before any import, when torch or orion-fhe is missing."""
    for distribution in ("torch", "orion-fhe"):
        try:
            metadata.version(distribution)
        except metadata.PackageNotFoundError:
            raise HeirpyError(f"error: heirpy-export-orion needs {distribution}: pip install torch==2.13.0, "
                              f"then {ORION_REQUIREMENT.split(' ')[0]}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `heirpy-export-orion`."""
    return run_guarded(run, argv)


if __name__ == "__main__":
    sys.exit(main())
