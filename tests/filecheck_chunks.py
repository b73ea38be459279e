"""The functions of a FileCheck test file, for numeric checks of the same inputs."""

from __future__ import annotations

import re
from pathlib import Path


def chunks(path: Path) -> list[str]:
    """The `--split-input-file` chunks of `path` that hold a function, RUN lines dropped."""
    text = "\n".join(line for line in path.read_text().splitlines() if not line.startswith("// RUN"))
    return [c for c in re.split(r"^// -----$", text, flags=re.M) if "func.func" in c]
