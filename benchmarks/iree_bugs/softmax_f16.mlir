// linalg.softmax on f16: IREE 3.13's llvm-cpu back end emits a call to libm's fmaxf,
// which its embedded linker does not provide ("iree-lld: error: undefined symbol:
// fmaxf") for a CPU without AVX512-FP16 (=generic, =x86-64-v3; on a host with it the f16
// max is an instruction and the module links). IREE raises torch-mlir's
// written-out f16 softmax (max, subtract, exp, sum, divide, all in f16) to this op
// itself, so the raw torch form fails the same way; f32, and torch-mlir's half-precision
// form (softmax computed in f32 between extf and truncf), compile.
func.func @main(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %e = tensor.empty() : tensor<2x3xf16>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x3xf16>) outs(%e : tensor<2x3xf16>) -> tensor<2x3xf16>
  return %r : tensor<2x3xf16>
}
