// Bad input gives one diagnostic line and exit code 1 (`not` fails if it exits 0).
// RUN: not heirpy-opt %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// The diagnostic is the first and only line: no traceback before or after it.
// MISSING-NOT: Traceback
// MISSING: {{^}}error: cannot read '{{.*}}heirpy_opt_errors.mlir.missing': No such file or directory
// MISSING-EMPTY:

// An unknown output target is a usage error, not an internal one, reported before any input is read.
// RUN: not heirpy-opt %s.missing -t irdl 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET: {{^}}error: unknown target 'irdl' (-t): heirpy-opt's targets are {{.*}}mlir{{.*}}{{$}}
// TARGET-EMPTY:

// A hexadecimal float literal wider than its type is MLIR's diagnostic at the literal (xDSL's
// parser raised OverflowError; -inf in f32 bits given an f16 type). 0xFC00 is f16's -inf.
// RUN: printf 'func.func @f() -> f16 {\n  %%%%c = arith.constant 0xFF800000 : f16\n  return %%%%c : f16\n}\n' > %t.hex.mlir
// RUN: not heirpy-opt %t.hex.mlir 2>&1 | filecheck %s --check-prefix=HEX
// HEX-NOT: internal error
// HEX: {{^}}{{.*}}.hex.mlir:2:23: error: hexadecimal float constant out of range for type{{$}}
// RUN: printf 'func.func @f() -> f16 {\n  %%%%c = arith.constant 0xFC00 : f16\n  return %%%%c : f16\n}\n' | heirpy-opt | filecheck %s --check-prefix=HEXOK
// HEXOK: arith.constant 0xFC00 : f16

// RUN: not heirpy-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// PASS: error: invalid pass pipeline 'no-such-pass': Unrecognized passes: ['no-such-pass']

// RUN: not heirpy-opt %s -p 'dce{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: {{^}}error: invalid pass pipeline 'dce{bogus=1}': pass 'dce' has no option 'bogus' (it has no options){{$}}

// Options are named as the user wrote them, with MLIR's dashes (the pass's field is slot_budget).
// RUN: not heirpy-opt %s -p 'linalg-fuse-ops{slot-budget=abc}' 2>&1 | filecheck %s --check-prefix=VALUE
// VALUE: {{^}}error: invalid pass pipeline 'linalg-fuse-ops{slot-budget=abc}': option 'slot-budget' of pass 'linalg-fuse-ops' expects int, got 'abc'{{$}}
// RUN: not heirpy-opt %s -p 'linalg-fuse-ops{conv-pool}' 2>&1 | filecheck %s --check-prefix=NOVALUE
// NOVALUE: {{^}}error: invalid pass pipeline 'linalg-fuse-ops{conv-pool}': option 'conv-pool' of pass 'linalg-fuse-ops' expects bool, got no value{{$}}
// RUN: not heirpy-opt %s -p 'linalg-fuse-linear-chains{slot-count=4}' 2>&1 | filecheck %s --check-prefix=NAMES
// NAMES: {{^}}error: invalid pass pipeline 'linalg-fuse-linear-chains{slot-count=4}': pass 'linalg-fuse-linear-chains' has no option 'slot-count' (its options are slot-budget, policy, max-weight-growth, max-mac-growth, max-diagonal-growth, orion-slots, max-constant-growth, constant-budget, free-constant-bytes, max-bought-weight-growth, contraction-form){{$}}

// The cost rule's options are checked by every pass that takes them (on valid input:
// this file's own IR is invalid further down).
// RUN: echo 'func.func @f() { return }' | not heirpy-opt -p 'linalg-canonicalizations{policy=fast}' 2>&1 | filecheck %s --check-prefix=POLICY
// RUN: echo 'func.func @f() { return }' | not heirpy-opt -p 'linalg-fuse-conv-pool{max-weight-growth=0.5}' 2>&1 | filecheck %s --check-prefix=GROWTH
// POLICY: {{^}}error: linalg-canonicalizations{policy=fast}: expected one of depth, balanced, size, diagonals{{$}}
// GROWTH: {{^}}error: linalg-fuse-conv-pool{max-weight-growth=0.5}: expected a number >= 1{{$}}

// A malformed pipeline is one line too (xDSL's parse error is a BaseException, which escaped as a traceback).
// RUN: not heirpy-opt %s -p 'dce}' 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX-NOT: Traceback
// SYNTAX: {{^}}error: invalid pass pipeline 'dce}': Expected a comma or pass arguments here (column 4){{$}}
// SYNTAX-EMPTY:

// A spec that does not start with a pass name (xDSL raises a BaseException for it).
// RUN: not heirpy-opt %s -p '36:x = "a,b"' 2>&1 | filecheck %s --check-prefix=NONAME
// NONAME-NOT: Traceback
// NONAME: {{^}}error: invalid pass pipeline '36:x = "a,b"': Expected pass name here
// NONAME-EMPTY:

// A string option given unquoted numbers (xDSL reads them as numbers): say how to quote it.
// RUN: not heirpy-opt %s -p 'report-depth{plaintext-args=0,1}' 2>&1 | filecheck %s --check-prefix=QUOTE
// QUOTE: {{^}}error: invalid pass pipeline 'report-depth{plaintext-args=0,1}': option 'plaintext-args' of pass 'report-depth' expects str, got 0, 1 (quote it: plaintext-args="0,1")
// QUOTE-EMPTY:

// RUN: not heirpy-opt %s --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG: error: unrecognized arguments: --no-such-flag

// RUN: not heirpy-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=VERIFY
// VERIFY-NOT: Traceback
// VERIFY: heirpy_opt_errors.mlir:[[# @LINE + 2]]:8: error: 'linalg.matvec' op inferred input/output operand #1 has shape's dimension #0 to be 3, but found 5
func.func @f(%a: tensor<4x3xf32>, %x: tensor<5xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.matvec ins(%a, %x : tensor<4x3xf32>, tensor<5xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
// RUN: not heirpy-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: heirpy_opt_errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Operation linalg.no_such_op is not registered
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.no_such_op ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
