"""The heir-opt command line for a prepared module: every flag HEIR's CKKS pipeline needs.

heirpy knows the two numbers HEIR's `--torch-linalg-to-ckks` must be told: the slot
count (`min-slot-count`, `heirpy.analysis.slots`) and the depth (`heirpy.analysis.depth`).
HEIR's greedy ciphertext management keeps a ciphertext within `greedy-level-budget`
levels (10 by default) and bootstraps it when the budget runs out, so a net deeper than
that bootstraps under the bare pipeline even when one parameter set holds all its
levels (ResNet-20, depth 39: 28 levels and 6 bootstraps at HEIR's default; 39 and none
with `greedy-level-budget=40`, docs/heir.md). Measured with heir-opt 2026.11.1:

* a budget of depth + 1 gives no bootstrap (ResNet-20 at 40, the VGG-style net at 14);
  the budget is never set below HEIR's own 10, so a net HEIR compiles a level or two
  above heirpy's depth still spends levels rather than a bootstrap;
* the largest modulus chain HEIR generates holds 57 levels (logN 17 at 128-bit security,
  45-bit scaling primes: a chain of 57 squares compiles with `greedy-level-budget=58`,
  one of 58 squares dies with SIGFPE in parameter generation). A deeper net must
  bootstrap; it gets HEIR's default budget and the remark says so.

Pure functions of numbers: nothing here reads or changes IR.
"""

from __future__ import annotations

import shlex

from heirpy.analysis.slots import DEFAULT_SLOT_COUNT

DEFAULT_LEVEL_BUDGET = 10
"""HEIR's default `--torch-linalg-to-ckks` greedy-level-budget."""

MAX_LEVELS_WITHOUT_BOOTSTRAP = 57
"""The most levels one HEIR CKKS parameter set holds (heir-opt 2026.11.1, default
scaling and first-modulus bits): a deeper net cannot compile without a bootstrap."""


def level_budget(depth: int) -> int | None:
    """The `greedy-level-budget` that compiles a net of `depth` levels with no bootstrap
    (depth + 1, at least HEIR's default), or None when no parameter set holds `depth`."""
    if depth > MAX_LEVELS_WITHOUT_BOOTSTRAP:
        return None
    return max(depth + 1, DEFAULT_LEVEL_BUDGET)


def ckks_options(slots: int, depth: int, exact: bool = True) -> list[str]:
    """The options of `--torch-linalg-to-ckks` for a module of `slots` slots and `depth`
    levels; HEIR's defaults are left out. `exact=False`: HEIR is known to spend more
    levels than `depth` (a strided conv left to its kernel, whose gapped layout it
    converts at about a level per bit of the slot count), so no budget is named: one
    that holds only `depth` would make HEIR crash (SIGFPE) once it passes the 57 levels
    of its largest parameter set, where its own budget bootstraps."""
    options = [f"min-slot-count={slots}"] if slots > DEFAULT_SLOT_COUNT else []
    budget = level_budget(depth) if exact else None
    if budget is not None and budget != DEFAULT_LEVEL_BUDGET:
        options.append(f"greedy-level-budget={budget}")
    return options


def heir_opt_args(function: str, slots: int, depth: int, exact: bool = True) -> list[str]:
    """heir-opt's arguments (without the program and the file): `function`'s arguments
    secret, OpenFHE's CKKS, the CKKS pipeline with `ckks_options`."""
    options = ckks_options(slots, depth, exact)
    return [
        f"--secretize=function={function}",
        "--annotate-module=backend=openfhe scheme=ckks",
        "--torch-linalg-to-ckks" + ("=" + " ".join(options) if options else ""),
    ]


def heir_opt_command(function: str, slots: int, depth: int, exact: bool = True) -> str:
    """`heir-opt ...` as a shell command line (options with spaces quoted)."""
    return shlex.join(["heir-opt", *heir_opt_args(function, slots, depth, exact)])


def needs_flags(slots: int, depth: int) -> bool:
    """Whether the bare `--torch-linalg-to-ckks` is not enough: more slots than HEIR's
    default, or a depth its default level budget would bootstrap."""
    return bool(ckks_options(slots, depth))


def command_remark(pass_name: str, function: str, slots: int, depth: int, exact: bool = True) -> str:
    """The remark naming heir-opt's whole command for a prepared module, or '' when
    HEIR's defaults serve (`exact`: see `ckks_options`)."""
    if not exact and needs_flags(slots, depth):
        return (
            f"remark: {pass_name}: @{function} has depth {depth} and needs {slots} slots, but keeps strided convs "
            f"HEIR lays out with gaps (more levels than the depth), so no level budget is named: run "
            f"{heir_opt_command(function, slots, depth, exact)}"
        )
    if depth > MAX_LEVELS_WITHOUT_BOOTSTRAP:
        return (
            f"remark: {pass_name}: @{function} has depth {depth}, more than the {MAX_LEVELS_WITHOUT_BOOTSTRAP} "
            f"levels HEIR's largest CKKS parameter set holds, so heir-opt must bootstrap: run "
            f"{heir_opt_command(function, slots, depth)}"
        )
    if not needs_flags(slots, depth):
        return ""
    budget = level_budget(depth)
    why = f" (a level budget of {budget} holds the depth: no bootstrap)" if budget != DEFAULT_LEVEL_BUDGET else ""
    return (
        f"remark: {pass_name}: @{function} has depth {depth} and needs {slots} slots: run "
        f"{heir_opt_command(function, slots, depth)}{why}"
    )
