"""heirpy IR -> other runtimes. The top floor, beside `tools/`: it may import every
floor below and nothing imports it.

- `network`: read one function of linalg IR as a backend-neutral list of encrypted-
  inference layers (conv, linear, x * x, per-channel affine, add, flatten).
- `orion`: those layers as an Orion network (`to_orion`); torch and Orion are imported
  only when a network is built, so `import heirpy` never loads them.
- `orion_cli`: `heirpy-export-orion`, the command-line form.
"""
