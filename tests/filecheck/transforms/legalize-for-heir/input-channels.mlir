// legalize-for-heir{pad-input-channels=true} (heir-prepare's default) gives an image
// argument that only convs read a power-of-two number of channels: HEIR's first conv on
// CIFAR's 3x32x32 costs two levels, on 4x32x32 one. The filters get zero weights for the
// added channels, so the caller's values there do not matter. slot-count=16 keeps the
// convs convs (no dense matrix fits 16 slots).
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16 pad-input-channels=true}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16 pad-input-channels=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' | filecheck %s --check-prefix=OFF
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16 pad-input-channels=true}' 2>&1 >/dev/null | not grep "@channel_pad_low takes"

func.func @stem(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %w4 = arith.constant dense<0.25> : tensor<4x3x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}
// REMARK:      @stem has a secret tensor
// REMARK:      legalize-for-heir: @stem takes power-of-two inputs (pad-input-channels): argument #0 tensor<1x4x8x8xf32> is the tensor<1x3x8x8xf32> input with 1 channel(s) added at the end
// CHECK-LABEL: func.func @stem(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:       } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>)
// OFF-LABEL:   func.func @stem(%x: tensor<1x3x8x8xf32>)
// OFF-LABEL:   func.func @shared_pad(%x: tensor<1x3x8x8xf32>

// -----

// One pad read by two convs: one widened pad, both filters widened.
func.func @shared_pad(%x: tensor<1x3x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %w4 = arith.constant dense<0.25> : tensor<4x3x3x3xf32>
  %w = arith.constant dense<[[[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[-0.1, -0.2, -0.3], [-0.4, -0.5, -0.6], [-0.7, -0.8, -0.9]], [[1.0, 0.0, -1.0], [0.5, 0.0, -0.5], [0.25, 0.0, -0.25]]]]> : tensor<1x3x3x3xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x1x8x8xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x3x10x10xf32>, tensor<1x3x3x3xf32>) outs(%b1 : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  return %c, %d : tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>
}
// REMARK:      @shared_pad has a secret tensor
// REMARK:      @shared_pad takes power-of-two inputs
// CHECK-LABEL: func.func @shared_pad(%x: tensor<1x4x8x8xf32>)
// CHECK:       tensor.pad
// CHECK-NOT:   tensor.pad
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>)
// CHECK-NOT:   tensor.pad
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x10x10xf32>, tensor<1x4x3x3xf32>)

// -----

// The argument is also squared: that op would read the added channel, so it stays.
func.func @other_reader(%x: tensor<1x3x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x3x8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %w4 = arith.constant dense<0.25> : tensor<4x3x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x3x8x8xf32>) outs(%e : tensor<1x3x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x3x8x8xf32>
  return %c, %s : tensor<1x4x8x8xf32>, tensor<1x3x8x8xf32>
}
// REMARK:      @other_reader has a secret tensor
// REMARK-NOT:  @other_reader takes
// CHECK-LABEL: func.func @other_reader(%x: tensor<1x3x8x8xf32>)

// -----

// The padded input is also squared and returned, with its 3 channels: it stays.
func.func @pad_squared(%x: tensor<1x3x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x3x10x10xf32>) {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %w4 = arith.constant dense<0.25> : tensor<4x3x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x3x10x10xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x3x10x10xf32>) outs(%e : tensor<1x3x10x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x3x10x10xf32>
  return %c, %s : tensor<1x4x8x8xf32>, tensor<1x3x10x10xf32>
}
// REMARK:      @pad_squared has a secret tensor
// REMARK-NOT:  @pad_squared takes
// CHECK-LABEL: func.func @pad_squared(%x: tensor<1x3x8x8xf32>)

// -----

// A 6x6 plane: no channel count makes 36*C a power of two, so it stays.
func.func @plane_not_pow2(%x: tensor<1x3x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x6x6xf32>
  %w4 = arith.constant dense<0.25> : tensor<4x3x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x6x6xf32> to tensor<1x3x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %c : tensor<1x4x6x6xf32>
}
// REMARK:      @plane_not_pow2 has a secret tensor
// REMARK-NOT:  @plane_not_pow2 takes
// CHECK-LABEL: func.func @plane_not_pow2(%x: tensor<1x3x6x6xf32>)

// -----

// The filter is an argument too: no zero channel can be added to it, so it stays.
func.func @secret_filter(%x: tensor<1x3x8x8xf32>, %w4: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}
// REMARK:      @secret_filter has a secret tensor
// REMARK-NOT:  @secret_filter takes
// CHECK-LABEL: func.func @secret_filter(%x: tensor<1x3x8x8xf32>, %w4: tensor<4x3x3x3xf32>)

// -----

// A pad of the channels too: the added channel would move, so it stays.
func.func @channel_pad(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %w5 = arith.constant dense<0.25> : tensor<4x5x3x3xf32>
  %p = tensor.pad %x low[0, 1, 1, 1] high[0, 1, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x5x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w5 : tensor<1x5x10x10xf32>, tensor<4x5x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}
// REMARK:      @channel_pad has a secret tensor
// CHECK-LABEL: func.func @channel_pad(%x: tensor<1x3x8x8xf32>)

// -----

// A pad of the channels on the high side only (1x3 to 1x4 channels, as a user might pad
// to a power of two by hand): the widened argument's channel would land where the pad's
// is, and a widened pad would have 5 channels, not 4; so it stays.
func.func @channel_pad_high(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %w4 = arith.constant dense<0.25> : tensor<4x4x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 1, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x4x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}
// REMARK:      @channel_pad_high has a secret tensor
// REMARK-NOT:  @channel_pad_high takes
// CHECK-LABEL: func.func @channel_pad_high(%x: tensor<1x3x8x8xf32>)
// CHECK:       tensor.pad %x low[0, 0, 1, 1] high[0, 1, 1, 1]
// CHECK:       } : tensor<1x3x8x8xf32> to tensor<1x4x10x10xf32>

// -----

// A pad of the channels on the low side only: it stays too.
func.func @channel_pad_low(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x4x8x8xf32>
  %w4 = arith.constant dense<0.25> : tensor<4x4x3x3xf32>
  %p = tensor.pad %x low[0, 1, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x8x8xf32> to tensor<1x4x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w4 : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}
// REMARK:      @channel_pad_low has a secret tensor
// CHECK-LABEL: func.func @channel_pad_low(%x: tensor<1x3x8x8xf32>)
// CHECK:       tensor.pad %x low[0, 1, 1, 1] high[0, 0, 1, 1]
// CHECK:       } : tensor<1x3x8x8xf32> to tensor<1x4x10x10xf32>
