"""HEIR's room: `legalize-for-heir` and `heir-prepare` (the one-step preparation for HEIR's
`--torch-linalg-to-ckks`), with the helpers only they use (`heir_*` forms, `generic_forms`)."""
