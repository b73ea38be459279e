"""heirpy's passes, one module each. `HEIRPY_PASSES` is the single registry that the
CLI, the library API and the `xdsl.universe` entry point all read.

To add a pass: write `transforms/<name>.py` with a frozen-dataclass `ModulePass`
whose `name` is the CLI name, then add one line below.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass

PassFactory = Callable[[], type[ModulePass]]



def _lazy(module: str, cls: str) -> PassFactory:
    """A factory importing `heirpy.transforms.<module>.<cls>` on first use, so that
    listing passes does not import every pass module."""

    def factory() -> type[ModulePass]:
        from importlib import import_module

        return getattr(import_module(f"heirpy.transforms.{module}"), cls)

    return factory


HEIRPY_PASSES: dict[str, PassFactory] = {
    "linalg-fuse-conv-pool": _lazy("conv_pool_fusion", "LinalgFuseConvPoolPass"),
    "lower-tensor-ext": _lazy("lower_tensor_ext", "LowerTensorExtPass"),
    "linalg-fuse-ops": _lazy("linalg_fuse_ops", "LinalgFuseOpsPass"),
    "report-depth": _lazy("report_depth", "ReportDepthPass"),
    "linalg-fuse-linear-ops": _lazy("linalg_fuse_linear_ops", "LinalgFuseLinearOpsPass"),
    "linalg-fuse-linear-chains": _lazy("linear_chains", "LinalgFuseLinearChainsPass"),
    "linalg-canonicalizations": _lazy("linalg_canonicalizations", "LinalgCanonicalizationsPass"),
    "linalg-fuse-pointwise": _lazy("linalg_fuse_pointwise", "LinalgFusePointwisePass"),
    "report-kernels": _lazy("report_kernels", "ReportKernelsPass"),
}


def available_passes() -> dict[str, PassFactory]:
    """heirpy's passes plus xDSL's own (canonicalize, dce, cse, ...)."""
    from xdsl.transforms import get_all_passes

    passes = dict(get_all_passes())
    passes.update(HEIRPY_PASSES)
    return passes


def pass_summary(factory: PassFactory) -> str:
    """The first line of a pass's docstring: what `--list-passes` prints."""
    doc = (factory().__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""
