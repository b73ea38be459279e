// generalize-direct-conv's rule in IR, at each limit and on each side of it: the output
// width a multiple of 8 (H and W apart; a power of two, or no wider than the output is
// high), 64 to 80 filters or a power of two under 64, a 3x3
// window, unit strides and dilations, all operands f32. Numerics: tests/unit/test_generalize_direct_conv.py; the
// times behind the rule: benchmarks/bench_direct_conv.py.
// RUN: heirpy-opt %s -p generalize-direct-conv | filecheck %s
// RUN: heirpy-opt %s -p 'iree-prepare{im2col=true}' | filecheck %s --check-prefix=PREP
// RUN: heirpy-opt %s -p iree-prepare | filecheck %s --check-prefix=DEFAULT

// At the filter bound, an output 1 high and 8 wide: generalised.
func.func @filters_at_bound(%x: tensor<1x4x3x10xf32>, %w: tensor<80x4x3x3xf32>, %i: tensor<1x80x1x8xf32>) -> tensor<1x80x1x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x3x10xf32>, tensor<80x4x3x3xf32>) outs(%i : tensor<1x80x1x8xf32>) -> tensor<1x80x1x8xf32>
  return %r : tensor<1x80x1x8xf32>
}
// CHECK-LABEL: func.func @filters_at_bound
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       linalg.generic
// PREP-LABEL:  func.func @filters_at_bound
// PREP-NOT:    linalg.conv_2d_nchw_fchw
// PREP:        linalg.generic
// PREP-NOT:    linalg.conv_2d_nchw_fchw
// PREP:        return
// DEFAULT-LABEL: func.func @filters_at_bound
// DEFAULT:     linalg.conv_2d_nchw_fchw

// One filter over it: kept.
func.func @filters_over_bound(%x: tensor<1x4x3x10xf32>, %w: tensor<81x4x3x3xf32>, %i: tensor<1x81x1x8xf32>) -> tensor<1x81x1x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x3x10xf32>, tensor<81x4x3x3xf32>) outs(%i : tensor<1x81x1x8xf32>) -> tensor<1x81x1x8xf32>
  return %r : tensor<1x81x1x8xf32>
}
// CHECK-LABEL: func.func @filters_over_bound
// CHECK:       linalg.conv_2d_nchw_fchw
// PREP-LABEL:  func.func @filters_over_bound
// PREP:        linalg.conv_2d_nchw_fchw
// DEFAULT-LABEL: func.func @filters_over_bound
// DEFAULT:     linalg.conv_2d_nchw_fchw

// 64 filters (MIN_WIDE_FILTERS): generalised; 63 and 48: kept; 32, a power of two: generalised.
func.func @filters_64(%x: tensor<1x4x3x10xf32>, %w: tensor<64x4x3x3xf32>, %i: tensor<1x64x1x8xf32>) -> tensor<1x64x1x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x3x10xf32>, tensor<64x4x3x3xf32>) outs(%i : tensor<1x64x1x8xf32>) -> tensor<1x64x1x8xf32>
  return %r : tensor<1x64x1x8xf32>
}
// CHECK-LABEL: func.func @filters_64
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       linalg.generic
func.func @filters_63(%x: tensor<1x4x3x10xf32>, %w: tensor<63x4x3x3xf32>, %i: tensor<1x63x1x8xf32>) -> tensor<1x63x1x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x3x10xf32>, tensor<63x4x3x3xf32>) outs(%i : tensor<1x63x1x8xf32>) -> tensor<1x63x1x8xf32>
  return %r : tensor<1x63x1x8xf32>
}
// CHECK-LABEL: func.func @filters_63
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @filters_48(%x: tensor<1x4x10x10xf32>, %w: tensor<48x4x3x3xf32>, %i: tensor<1x48x8x8xf32>) -> tensor<1x48x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x10xf32>, tensor<48x4x3x3xf32>) outs(%i : tensor<1x48x8x8xf32>) -> tensor<1x48x8x8xf32>
  return %r : tensor<1x48x8x8xf32>
}
// CHECK-LABEL: func.func @filters_48
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @filters_32(%x: tensor<1x4x10x10xf32>, %w: tensor<32x4x3x3xf32>, %i: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x10xf32>, tensor<32x4x3x3xf32>) outs(%i : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}
// CHECK-LABEL: func.func @filters_32
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       linalg.generic

// 16 high, 20 wide: kept (the width decides).
func.func @wide_20(%x: tensor<1x4x18x22xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x16x20xf32>) -> tensor<1x8x16x20xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x18x22xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x16x20xf32>) -> tensor<1x8x16x20xf32>
  return %r : tensor<1x8x16x20xf32>
}
// CHECK-LABEL: func.func @wide_20
// CHECK:       linalg.conv_2d_nchw_fchw

// 20 high, 16 wide: generalised.
func.func @high_20(%x: tensor<1x4x22x18xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x20x16xf32>) -> tensor<1x8x20x16xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x22x18xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x20x16xf32>) -> tensor<1x8x20x16xf32>
  return %r : tensor<1x8x20x16xf32>
}
// CHECK-LABEL: func.func @high_20
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       linalg.generic

// 24 wide: 24 high, generalised; 23 high, kept. 32 wide and 16 high (a power of two): generalised.
func.func @wide_24_high_24(%x: tensor<1x4x26x26xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x24x24xf32>) -> tensor<1x8x24x24xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x26x26xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x24x24xf32>) -> tensor<1x8x24x24xf32>
  return %r : tensor<1x8x24x24xf32>
}
// CHECK-LABEL: func.func @wide_24_high_24
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       linalg.generic
func.func @wide_24_high_23(%x: tensor<1x4x25x26xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x23x24xf32>) -> tensor<1x8x23x24xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x25x26xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x23x24xf32>) -> tensor<1x8x23x24xf32>
  return %r : tensor<1x8x23x24xf32>
}
// CHECK-LABEL: func.func @wide_24_high_23
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @wide_32_high_16(%x: tensor<1x4x18x34xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x18x34xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  return %r : tensor<1x8x16x32xf32>
}
// CHECK-LABEL: func.func @wide_32_high_16
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       linalg.generic

// Widths 7 and 9, either side of 8: kept.
func.func @wide_7(%x: tensor<1x4x10x9xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x8x7xf32>) -> tensor<1x8x8x7xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x9xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x8x7xf32>) -> tensor<1x8x8x7xf32>
  return %r : tensor<1x8x8x7xf32>
}
// CHECK-LABEL: func.func @wide_7
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @wide_9(%x: tensor<1x4x10x11xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x8x9xf32>) -> tensor<1x8x8x9xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x11xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x8x9xf32>) -> tensor<1x8x8x9xf32>
  return %r : tensor<1x8x8x9xf32>
}
// CHECK-LABEL: func.func @wide_9
// CHECK:       linalg.conv_2d_nchw_fchw

// Strided (in W only), dilated (in H only), a 3x1 window: kept.
func.func @strided_w(%x: tensor<1x4x10x17xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x17xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
// CHECK-LABEL: func.func @strided_w
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @dilated_h(%x: tensor<1x4x12x10xf32>, %w: tensor<8x4x3x3xf32>, %i: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x12x10xf32>, tensor<8x4x3x3xf32>) outs(%i : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
// CHECK-LABEL: func.func @dilated_h
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @window_3x1(%x: tensor<1x4x10x8xf32>, %w: tensor<8x4x3x1xf32>, %i: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x8xf32>, tensor<8x4x3x1xf32>) outs(%i : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
// CHECK-LABEL: func.func @window_3x1
// CHECK:       linalg.conv_2d_nchw_fchw

// torch-mlir's f16 form (f16 operands, an f32 init): kept.
func.func @half(%x: tensor<1x4x10x10xf16>, %w: tensor<8x4x3x3xf16>, %i: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x10xf16>, tensor<8x4x3x3xf16>) outs(%i : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
// CHECK-LABEL: func.func @half
// CHECK:       linalg.conv_2d_nchw_fchw
// PREP-LABEL:  func.func @half
// PREP:        linalg.conv_2d_nchw_fchw
// DEFAULT-LABEL: func.func @half
// DEFAULT:     linalg.conv_2d_nchw_fchw
