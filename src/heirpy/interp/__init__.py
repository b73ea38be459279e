"""heirpy's numeric oracle: a numpy evaluator for heirpy's IR and an equivalence checker.

    from heirpy.interp import load_file, run_function, check_equivalence
    loaded = load_file("examples/tiny_cnn.mlir")
    (logits,) = run_function(loaded.module, "main", [x], resources=loaded.resources)

See `evaluator` for how ops are run and `registry` for adding an op family.
"""

from heirpy.interp.equivalence import (
    EquivalenceReport,
    ResultComparison,
    check_equivalence,
    random_inputs,
)
from heirpy.interp.errors import EvaluationError
from heirpy.interp.evaluator import OP_HANDLERS, Evaluator, run_function
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.interp.resources import LoadedModule, load_file, load_module
from heirpy.ir.constants import module_resources

__all__ = [
    "OP_HANDLERS",
    "EquivalenceReport",
    "EvaluationError",
    "Evaluator",
    "EvaluatorProtocol",
    "HandlerTable",
    "LoadedModule",
    "ResultComparison",
    "check_equivalence",
    "load_file",
    "load_module",
    "module_resources",
    "random_inputs",
    "run_function",
]
