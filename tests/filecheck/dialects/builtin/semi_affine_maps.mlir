// Semi-affine maps (a product with a symbol, a quotient or remainder by a symbol) parse
// and print as MLIR reads them; the symbolic factor of a product goes on the right, as
// in MLIR. The output re-parses in heirpy and in heir-opt, and canonicalize leaves them be.
// RUN: heirpy-opt %s | filecheck %s
// RUN: heirpy-opt %s -p canonicalize,dce | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0)[s0] -> (d0 ceildiv s0)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0)[s0] -> (d0 floordiv s0)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0)[s0] -> (d0 mod s0)>
// CHECK-DAG: #[[MAP3:.+]] = affine_map<(d0)[s0] -> (d0 * s0)>
// CHECK-DAG: #[[MAP4:.+]] = affine_map<(d0)[s0] -> (d0 * (s0 * 2), (d0 + s0) * s0, (d0 floordiv s0) * 3 + 1)>
// CHECK-DAG: #[[MAP5:.+]] = affine_map<(d0)[s0] -> (d0 * s0 + 1)>
// CHECK-LABEL: func.func @maps(
// CHECK-SAME:  attributes {ceil = #[[MAP0]], floor = #[[MAP1]], mod = #[[MAP2]], mul = #[[MAP3]], nested = #[[MAP4]]}
// MLIR-DAG:    #{{.*}} = affine_map<(d0)[s0] -> (d0 floordiv s0)>
// MLIR-DAG:    #{{.*}} = affine_map<(d0)[s0] -> (d0 * s0)>
// MLIR-DAG:    #{{.*}} = affine_map<(d0)[s0] -> (d0 * (s0 * 2), (d0 + s0) * s0, (d0 floordiv s0) * 3 + 1)>
func.func @maps() attributes {
    floor = affine_map<(d0)[s0] -> (d0 floordiv s0)>,
    ceil = affine_map<(d0)[s0] -> (d0 ceildiv s0)>,
    mod = affine_map<(d0)[s0] -> (d0 mod s0)>,
    mul = affine_map<(d0)[s0] -> (s0 * d0)>,
    nested = affine_map<(d0)[s0] -> (d0 * (s0 * 2), (d0 + s0) * s0, (d0 floordiv s0) * 3 + 1)>} {
  return
}

// CHECK-LABEL: func.func @apply(
// CHECK:       affine.apply #[[MAP1]]
// CHECK:       affine.apply #[[MAP5]]
func.func @apply(%i: index, %n: index) -> index {
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%n]
  %1 = affine.apply affine_map<(d0)[s0] -> (d0 * s0 + 1)>(%0)[%n]
  return %1 : index
}
