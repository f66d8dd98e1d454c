// Every op of a function is counted, once, for what it does (issue 11):
// ops after a cf.br, ops in scf regions (loop bodies times their static trip
// count, the costlier branch of an scf.if, with a remark), and a warning
// where something is not counted as it runs.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='report=%t.json' -verify-diagnostics %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %python %S/../Inputs/check_report.py %t.mlir %t.json
// RUN: %python -c "import json,sys; f={x['name']: x['total_us'] for x in json.load(open(sys.argv[1]))['functions']}; assert f['split_by_branch'] == f['straight'], f; assert abs(f['loop_of_four'] - 4 * f['one_matmul']) < 1e-9 * f['loop_of_four'], f; assert f['nested_loops'] > 0 and abs(f['nested_loops'] - 6 * f['one_matmul']) < 1e-9 * f['nested_loops'], f; assert f['branches'] == f['one_matmul'], f" %t.json

// A body split in two by an unconditional branch is still straight-line
// code: same kernels, same fusion, same total.
// CHECK-LABEL: func.func @straight
// CHECK-SAME: latency.kernels = 1 : i64
func.func @straight(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.add ins(%m, %m : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// CHECK-LABEL: func.func @split_by_branch
// CHECK-SAME: latency.kernels = 1 : i64
// CHECK: linalg.matmul
// CHECK-SAME: kernel = "matmul+add"
func.func @split_by_branch(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  cf.br ^bb1
^bb1:
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  cf.br ^bb2
^bb2:
  %r = linalg.add ins(%m, %m : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// Both successors of a conditional branch are counted once each (which
// one runs is not known): kernels never span the branch.
// CHECK-LABEL: func.func @conditional_blocks
// CHECK-SAME: latency.kernels = 2 : i64
func.func @conditional_blocks(%c: i1, %a: tensor<64x128xf32>) -> tensor<64x128xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = tosa.exp %a : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %x : tensor<64x128xf32>
^bb2:
  %y = tosa.tanh %a : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// CHECK-LABEL: func.func @one_matmul
func.func @one_matmul(%a: tensor<64x128xf32>, %b: tensor<128x128xf32>) -> tensor<64x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %m : tensor<64x128xf32>
}

// CHECK-LABEL: func.func @loop_of_four
// CHECK: linalg.matmul
// CHECK-SAME: count = 4.000000e+00 : f64
func.func @loop_of_four(%a: tensor<64x128xf32>, %b: tensor<128x128xf32>) -> tensor<64x128xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a) -> tensor<64x128xf32> {
    %m = linalg.matmul ins(%x, %b : tensor<64x128xf32>, tensor<128x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
    scf.yield %m : tensor<64x128xf32>
  }
  return %r : tensor<64x128xf32>
}

// Trip counts multiply down nested loops: 3 x 2 (step 2 over [0, 4)).
// CHECK-LABEL: func.func @nested_loops
// CHECK: linalg.matmul
// CHECK-SAME: count = 6.000000e+00 : f64
func.func @nested_loops(%a: tensor<64x128xf32>, %b: tensor<128x128xf32>) -> tensor<64x128xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a) -> tensor<64x128xf32> {
    %s = scf.execute_region -> tensor<64x128xf32> {
      %in = scf.for %j = %c0 to %c4 step %c2 iter_args(%y = %x) -> tensor<64x128xf32> {
        %m = linalg.matmul ins(%y, %b : tensor<64x128xf32>, tensor<128x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
        scf.yield %m : tensor<64x128xf32>
      }
      scf.yield %in : tensor<64x128xf32>
    }
    scf.yield %s : tensor<64x128xf32>
  }
  return %r : tensor<64x128xf32>
}

// Both branches are estimated and reported; the costlier one counts.
// CHECK-LABEL: func.func @branches
// CHECK-SAME: latency.kernels = 2 : i64
// CHECK: linalg.add
// CHECK-SAME: count = 0.000000e+00 : f64
func.func @branches(%c: i1, %a: tensor<64x128xf32>, %b: tensor<128x128xf32>) -> tensor<64x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  // expected-remark@+1 {{2 branches estimated; the costliest}}
  %r = scf.if %c -> tensor<64x128xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
    scf.yield %m : tensor<64x128xf32>
  } else {
    %n = linalg.add ins(%a, %a : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
    scf.yield %n : tensor<64x128xf32>
  }
  return %r : tensor<64x128xf32>
}

// A while loop's trip count depends on data: counted once, with a warning.
// CHECK-LABEL: func.func @while_loop
// CHECK-SAME: latency.kernels = 1 : i64
func.func @while_loop(%a: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  // expected-warning@+1 {{trip count is not static: its body is counted once}}
  %r = scf.while (%x = %a) : (tensor<8xf32>) -> tensor<8xf32> {
    scf.condition(%c) %x : tensor<8xf32>
  } do {
  ^bb0(%y: tensor<8xf32>):
    %e = tosa.exp %y : (tensor<8xf32>) -> tensor<8xf32>
    scf.yield %e : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
