"""The help lines of heirpy-heir's options and of the options heirpy-opt adds to
xdsl-opt's, pinned: `--help` is the interface users read, and a help text lost, emptied
or garbled in a refactor must be a deliberate change (the defaults it quotes are checked
against the parser's own)."""

from __future__ import annotations

import argparse

import pytest

from heirpy.analysis.heir_command import DEFAULT_LEVEL_BUDGET
from heirpy.tools.heirpy_heir import heir_parser
from heirpy.tools.heirpy_opt import HeirpyOptMain


def helps(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    return {a.dest: a.help for a in parser._actions if a.dest != "help"}


def test_heirpy_heir_help_lines() -> None:
    parser = heir_parser()
    assert helps(parser) == {
        "file": "MLIR file (linalg on tensors, e.g. torch-mlir's export)",
        "options": "heir-prepare's options, e.g. slot-count=8192 flat-results=false",
        "level_budget": f"heir-opt's greedy-level-budget (default: heirpy's depth + 1, at least {DEFAULT_LEVEL_BUDGET})",
        "timeout": f"heir-opt's limit in seconds (default: {parser.get_default('timeout') / 3600:g} h)",
        "prepared": "write heirpy's output (heir-opt's input)",
        "output": "write heir-opt's output",
        "heir_opt": "the heir-opt to run (default: PATH, then heir-py's)",
        "debug": "show tracebacks",
    }


def test_heirpy_opts_own_options_help_lines(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        HeirpyOptMain(["--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse wraps the lines (at hyphens too)
    for option, line in [
        ("--list-passes [{heirpy,all}]", "list heirpy's passes (or all passes) with a one-line description"),
        ("--debug", "show Python tracebacks of errors"),
        ("--print-local-scope", "print affine maps inline, without `#map = ...` aliases ahead of the module "
                                "(mlir-opt's --mlir-print-local-scope)"),
    ]:
        assert "".join(f"{option} {line}".split()) in text
    driver = HeirpyOptMain(["--list-passes"])
    assert driver.args.list_passes == "heirpy" and driver.args.debug is False
    assert HeirpyOptMain(["--list-passes", "all", "--debug"]).args.list_passes == "all"
