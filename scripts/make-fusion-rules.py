#!/usr/bin/env python3
"""Writes fusion.csv for a device class (nn-Meter semantics: a (producer,
consumer) row lets the consumer join its single-use producer's kernel).

gpu: compute kernels absorb elementwise epilogues and the layout ops that
     exporters wrap around them, and elementwise ops fuse into chains (as
     TensorRT, XLA and Inductor do).
cpu: compute kernels absorb elementwise post-ops (oneDNN post-ops) and the
     transpose back to the exporter's layout, and batch-norm folds into the
     conv; elementwise chains stay separate.
both: data movement whose only user is a compute op folds into it (rows
     (transpose|copy|broadcast, conv2d|matmul|attention|...), (pad,
     conv*|pool)): weights are transposed or broadcast once at load time,
     activation layout changes (NCHW <-> NHWC around TOSA convs) are
     absorbed by layout propagation, as TensorRT, XLA and oneDNN do,
     attention kernels read Q, K, V in [batch, seq, heads, dim] as they are,
     convolution and pooling libraries pad (and crop: slice) implicitly, and a bias broadcast
     into a GEMM's or conv's accumulator is its C operand; a KV cache
     concatenated with the new key or value (concat, attention) is appended
     in place by runtimes, so the attention kernel is what runs; and an
     element type conversion of a GEMM's or conv's input (cast, matmul) is
     what mixed-precision kernels do while loading.

usage: scripts/make-fusion-rules.py gpu|cpu > PROFILE/fusion.csv
"""
import sys

CONVS = ["conv1d", "conv2d", "conv3d", "depthwise_conv2d", "transpose_conv2d"]
ANCHORS = CONVS + ["matmul", "batch_matmul"]
EPILOGUE = ["add", "sub", "mul", "div", "relu", "relu6", "clamp", "sigmoid",
            "tanh", "gelu", "batchnorm", "exp", "erf", "cast", "rsqrt", "neg",
            "pow", "silu", "softmax"]
# Normalisations are reductions: GPU compilers fuse the elementwise ops
# after them (GroupNorm + SiLU) but start a new kernel at them (rules are
# pairwise, so (add, layernorm) would also pull norms into conv epilogues).
NORMS = ["layernorm", "groupnorm", "rmsnorm"]
ELEMENTWISE = EPILOGUE + ["elementwise"]


def rules(kind):
    out = [(m, a) for m in ("transpose", "copy", "broadcast")
           for a in ANCHORS + ["attention", "pool"]]
    out += [(m, a) for m in ("pad", "slice") for a in CONVS + ["pool"]]
    out += [("concat", "attention")]
    out += [("cast", a) for a in ANCHORS]
    for a in ANCHORS:
        for c in EPILOGUE + ["transpose"] + (["copy"] if kind == "gpu" else []):
            out.append((a, c))
    if kind == "gpu":
        out += [(p, c) for p in ELEMENTWISE for c in ELEMENTWISE]
        out += [(p, c) for p in NORMS for c in ELEMENTWISE]
        # an elementwise kernel writes its output in whatever layout the
        # next op wants (XLA's and Inductor's layout assignment)
        out += [(p, "transpose") for p in ELEMENTWISE]
    else:
        out += [("batchnorm", c) for c in ("relu", "relu6", "clamp", "add")]
        out += [("add", c) for c in ("relu", "relu6", "clamp")]
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("gpu", "cpu"):
        sys.exit(__doc__)
    print("producer,consumer")
    for p, c in rules(sys.argv[1]):
        print(f"{p},{c}")
