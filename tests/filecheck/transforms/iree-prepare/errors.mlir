// An unknown target is an error naming the ones there are, with no traceback.
// RUN: not heirpy-opt %s -p 'iree-prepare{target=tpu}' 2>&1 | filecheck %s
// RUN: not heirpy-opt %s -p 'iree-prepare{target=tpu}' 2>&1 | not grep Traceback

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// CHECK: error: iree-prepare{target=tpu}: expected one of cpu, gpu
