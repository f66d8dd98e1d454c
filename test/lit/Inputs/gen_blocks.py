#!/usr/bin/python3
"""Emits hand-written model blocks in TOSA (MLIR 22 syntax) for lit tests.

No exported diffusion or LLM-layer graph in TOSA was at hand, so these are
written here: the op spelling follows torch-mlir's TOSA export as seen in
test/models (NCHW tensors, NHWC convs inside transposes, linear layers as
transpose(W) -> reshape -> matmul, decomposed norms and softmax); the sizes
follow the real models named below. Weights are function arguments, or
elided constants (see usage).

  sd      Stable Diffusion 1.5's first down block at 32x32 latents (320
          channels, 8 heads, 77x768 text context): GroupNorm, SiLU, convs,
          self- and cross-attention, GEGLU with slices, nearest resize.
  llama   a Llama-3-8B decoder layer over a 128-token prompt: RMSNorm,
          q/k/v projections, rotary embedding (slice, negate, concat),
          grouped-query attention (32 query, 8 KV heads, tiled) with a
          causal mask, SwiGLU MLP.
  decode  the same layer for one new token against a 1024-token KV cache
          (the cache concatenated with the new key and value).
  resnet50  one bottleneck block from each of ResNet-50's four stages
          (torchvision v1.5: stride on the 3x3, projection shortcuts), in
          the spelling of torch-mlir's ResNet-18 export in test/models:
          OIHW weights transposed in the graph, batch norm decomposed,
          ReLU as clamp.

  mobilenet_v2, shufflenet_v2  torchvision's whole networks at 224x224
          in the same spelling (depthwise convs as tosa.depthwise_conv2d,
          ReLU6 as a clamp to 6, pools in NHWC between transposes).

usage: gen_blocks.py sd|llama|decode|resnet50|mobilenet_v2|shufflenet_v2
       [f16|f32|bf16] [arg|const] > block.tosa.mlir
Weights are function arguments (arg, the default but for the CNNs) or
constants with elided data (const), as exported models print them.
"""
import sys

MODEL = sys.argv[1] if len(sys.argv) > 1 else "sd"
DT = sys.argv[2] if len(sys.argv) > 2 else "f16"
WHOLE_CNNS = ("resnet50", "mobilenet_v2", "shufflenet_v2")
WEIGHTS = sys.argv[3] if len(sys.argv) > 3 else "const" if MODEL in WHOLE_CNNS else "arg"
if WEIGHTS not in ("arg", "const"):
    sys.exit(f"gen_blocks.py: weights are 'arg' or 'const', not '{WEIGHTS}'")
lines, args, consts = [], [], {}
counter = [0]


def t(shape):
    return f"tensor<{'x'.join(map(str, shape))}x{DT}>" if shape else f"tensor<{DT}>"


def fresh():
    counter[0] += 1
    return f"%v{counter[0]}"


def arg(shape):
    name = f"%arg{len(args)}"
    args.append(f"{name}: {t(shape)}")
    return name, list(shape)


def weight(shape):
    """A weight: a function argument, or with WEIGHTS == "const" a constant
    as exporters print one with its data elided (whose transposes a TOSA
    pipeline folds before the model runs)."""
    if WEIGHTS != "const":
        return arg(shape)
    name = fresh()
    lines.append(f'    {name} = "tosa.const"() <{{values = dense_resource<__elided__> : {t(shape)}}}> : () -> {t(shape)}')
    return name, list(shape)


def const(value, rank):
    key = (value, rank)
    if key not in consts:
        name = f"%c{len(consts)}"
        shape = [1] * rank
        consts[key] = name
        lines.insert(0, f'    {name} = "tosa.const"() <{{values = dense<{value}> : {t(shape)}}}> : () -> {t(shape)}')
    return consts[key], [1] * rank


def shape_const(shape):
    name = fresh()
    lines.append(f"    {name} = tosa.const_shape {{values = dense<[{', '.join(map(str, shape))}]> : tensor<{len(shape)}xindex>}} : () -> !tosa.shape<{len(shape)}>")
    return name


def raw(text_fmt, out_shape):
    v = fresh()
    lines.append("    " + text_fmt.replace("@V", v).replace("@OUT", t(out_shape)))
    return v, list(out_shape)


SHIFT = "%shift"
ZP = "%zp"


def bshape(a, b):
    return [max(x, y) for x, y in zip(a, b)]


def binary(name, a, b):
    out = bshape(a[1], b[1])
    if name == "tosa.mul":
        return raw(f'@V = "tosa.mul"({a[0]}, {b[0]}, {SHIFT}) : ({t(a[1])}, {t(b[1])}, tensor<1xi8>) -> @OUT', out)
    return raw(f'@V = "{name}"({a[0]}, {b[0]}) : ({t(a[1])}, {t(b[1])}) -> @OUT', out)


def unary(name, a):
    return raw(f'@V = "{name}"({a[0]}) : ({t(a[1])}) -> @OUT', a[1])


def reshape(a, shape):
    s = shape_const(shape)
    return raw(f'@V = "tosa.reshape"({a[0]}, {s}) : ({t(a[1])}, !tosa.shape<{len(shape)}>) -> @OUT', shape)


def transpose(a, perms):
    out = [a[1][p] for p in perms]
    return raw(f'@V = "tosa.transpose"({a[0]}) <{{perms = array<i32: {", ".join(map(str, perms))}>}}> : ({t(a[1])}) -> @OUT', out)


def reduce(name, a, axis):
    out = list(a[1]); out[axis] = 1
    return raw(f'@V = "{name}"({a[0]}) <{{axis = {axis} : i32}}> : ({t(a[1])}) -> @OUT', out)


def matmul(a, b):
    out = [a[1][0], a[1][1], b[1][2]]
    return raw(f'@V = "tosa.matmul"({a[0]}, {b[0]}, {ZP}, {ZP}) : ({t(a[1])}, {t(b[1])}, tensor<1x{DT}>, tensor<1x{DT}>) -> @OUT', out)


def slice_(a, start, size):
    s0, s1 = shape_const(start), shape_const(size)
    n = len(size)
    return raw(f'@V = "tosa.slice"({a[0]}, {s0}, {s1}) : ({t(a[1])}, !tosa.shape<{n}>, !tosa.shape<{n}>) -> @OUT', size)


def linear(x, cin, cout):
    """x [1, s, cin] @ W^T + b, PyTorch style: transpose(W) -> reshape -> matmul -> add."""
    w = weight([cout, cin]); b = weight([cout])
    wt = transpose(w, [1, 0])
    w3 = reshape(wt, [1, cin, cout])
    y = matmul(x, w3)
    b3 = reshape(b, [1, 1, cout])
    return binary("tosa.add", y, b3)


def conv(x, cin, cout, k):
    """x NCHW -> NHWC conv -> NCHW, as torch-mlir's TOSA export wraps convs."""
    n, c, h, wd = x[1]
    w = weight([cout, k, k, cin]); b = weight([cout])
    xh = transpose(x, [0, 2, 3, 1])
    p = k // 2
    out = [n, h, wd, cout]
    y = raw(f'@V = "tosa.conv2d"({xh[0]}, {w[0]}, {b[0]}, {ZP}, {ZP}) <{{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: {p}, {p}, {p}, {p}>, stride = array<i64: 1, 1>}}> : ({t(xh[1])}, {t(w[1])}, {t(b[1])}, tensor<1x{DT}>, tensor<1x{DT}>) -> @OUT', out)
    return transpose(y, [0, 3, 1, 2])


def group_norm(x, groups=32):
    n, c, h, w = x[1]
    g = reshape(x, [n, groups, c // groups, h * w])
    count = float((c // groups) * h * w)
    s = reduce("tosa.reduce_sum", reduce("tosa.reduce_sum", g, 3), 2)
    mean = binary("tosa.mul", s, const(f"{1 / count:.8e}", 4))
    d = binary("tosa.sub", g, mean)
    sq = binary("tosa.mul", d, d)
    v = reduce("tosa.reduce_sum", reduce("tosa.reduce_sum", sq, 3), 2)
    var = binary("tosa.mul", v, const(f"{1 / count:.8e}", 4))
    r = unary("tosa.rsqrt", binary("tosa.add", var, const("9.99999974E-6", 4)))
    y = reshape(binary("tosa.mul", d, r), [n, c, h, w])
    gamma = reshape(weight([c]), [1, c, 1, 1]); beta = reshape(weight([c]), [1, c, 1, 1])
    return binary("tosa.add", binary("tosa.mul", y, gamma), beta)


def layer_norm(x):
    _, s, c = x[1]
    m = binary("tosa.mul", reduce("tosa.reduce_sum", x, 2), const(f"{1 / c:.8e}", 3))
    d = binary("tosa.sub", x, m)
    v = binary("tosa.mul", reduce("tosa.reduce_sum", binary("tosa.mul", d, d), 2), const(f"{1 / c:.8e}", 3))
    r = unary("tosa.rsqrt", binary("tosa.add", v, const("9.99999974E-6", 3)))
    gamma = reshape(weight([c]), [1, 1, c]); beta = reshape(weight([c]), [1, 1, c])
    return binary("tosa.add", binary("tosa.mul", binary("tosa.mul", d, r), gamma), beta)


def silu(x):
    return binary("tosa.mul", x, unary("tosa.sigmoid", x))


def heads_split(x, heads):
    _, s, c = x[1]
    d = c // heads
    return reshape(transpose(reshape(x, [1, s, heads, d]), [0, 2, 1, 3]), [heads, s, d])


def heads_merge(x, heads):
    h, s, d = x[1]
    return reshape(transpose(reshape(x, [1, heads, s, d]), [0, 2, 1, 3]), [1, s, heads * d])


def softmax(x):
    m = reduce("tosa.reduce_max", x, 2)
    e = unary("tosa.exp", binary("tosa.sub", x, m))
    r = unary("tosa.reciprocal", reduce("tosa.reduce_sum", e, 2))
    return binary("tosa.mul", e, r)


def attention(x, ctx, c, heads):
    q = heads_split(linear_nobias(x, c, c), heads)
    src = ctx if ctx else x
    k = heads_split(linear_nobias(src, src[1][2], c), heads)
    v = heads_split(linear_nobias(src, src[1][2], c), heads)
    kt = transpose(k, [0, 2, 1])
    scores = binary("tosa.mul", matmul(q, kt), const(f"{(c // heads) ** -0.5:.8e}", 3))
    o = matmul(softmax(scores), v)
    return linear(heads_merge(o, heads), c, c)


def linear_nobias(x, cin, cout):
    w = weight([cout, cin])
    return matmul(x, reshape(transpose(w, [1, 0]), [1, cin, cout]))


def gelu(x):
    inner = unary("tosa.erf", binary("tosa.mul", x, const("0.707106769", 3)))
    return binary("tosa.mul", binary("tosa.mul", x, const("5.000000e-01", 3)),
                  binary("tosa.add", inner, const("1.000000e+00", 3)))


def sd_block():
    """SD 1.5 UNet: ResBlock, spatial transformer, upsample."""
    C, H, HEADS, TXT, TEMB = 320, 32, 8, 77, 1280
    x = arg([1, C, H, H]); temb = arg([1, TEMB]); ctx = arg([1, TXT, 768])

    # ResBlock
    h = conv(silu(group_norm(x)), C, C, 3)
    t_ = linear(reshape(silu(temb), [1, 1, TEMB]), TEMB, C)
    h = binary("tosa.add", h, reshape(t_, [1, C, 1, 1]))
    h = conv(silu(group_norm(h)), C, C, 3)
    res = binary("tosa.add", x, h)

    # Spatial transformer
    s = conv(group_norm(res), C, C, 1)
    s = reshape(transpose(s, [0, 2, 3, 1]), [1, H * H, C])
    s = binary("tosa.add", s, attention(layer_norm(s), None, C, HEADS))
    s = binary("tosa.add", s, attention(layer_norm(s), ctx, C, HEADS))
    ff = linear(layer_norm(s), C, 8 * C)
    a = slice_(ff, [0, 0, 0], [1, H * H, 4 * C])
    gate = slice_(ff, [0, 0, 4 * C], [1, H * H, 4 * C])
    s = binary("tosa.add", s, linear(binary("tosa.mul", a, gelu(gate)), 4 * C, C))
    s = transpose(reshape(s, [1, H, H, C]), [0, 3, 1, 2])
    out = binary("tosa.add", conv(s, C, C, 1), res)

    # Upsample (nearest, 2x) then conv, as in the UNet's up blocks
    nh = transpose(out, [0, 2, 3, 1])
    sc, of, bo = shape_const([2, 1, 2, 1]), shape_const([0, 0]), shape_const([1, 1])
    up = raw(f'@V = "tosa.resize"({nh[0]}, {sc}, {of}, {bo}) <{{mode = #tosa.resize_mode<NEAREST_NEIGHBOR>}}> : ({t(nh[1])}, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> @OUT', [1, 2 * H, 2 * H, C])
    up = transpose(up, [0, 3, 1, 2])
    final = conv(up, C, C, 3)
    return final, ["A Stable-Diffusion-1.5-style UNet block (ResBlock with time embedding,",
                   "spatial transformer with self- and cross-attention and a GEGLU feed-forward,",
                   "nearest 2x upsample + conv)"]


def rms_norm(x):
    _, s, c = x[1]
    ms = binary("tosa.mul", reduce("tosa.reduce_sum", binary("tosa.mul", x, x), 2),
                const(f"{1 / c:.8e}", 3))
    r = unary("tosa.rsqrt", binary("tosa.add", ms, const("9.99999974E-6", 3)))
    gamma = reshape(weight([c]), [1, 1, c])
    return binary("tosa.mul", binary("tosa.mul", x, r), gamma)


def negate(x):
    return raw(f'@V = "tosa.negate"({x[0]}, {ZP}, {ZP}) : ({t(x[1])}, tensor<1x{DT}>, tensor<1x{DT}>) -> @OUT', x[1])


def concat(a, b, axis):
    out = list(a[1]); out[axis] += b[1][axis]
    return raw(f'@V = "tosa.concat"({a[0]}, {b[0]}) <{{axis = {axis} : i32}}> : ({t(a[1])}, {t(b[1])}) -> @OUT', out)


def tile(x, multiples):
    m = shape_const(multiples)
    out = [d * k for d, k in zip(x[1], multiples)]
    return raw(f'@V = "tosa.tile"({x[0]}, {m}) : ({t(x[1])}, !tosa.shape<{len(multiples)}>) -> @OUT', out)


def rotary(x, cos, sin):
    """x * cos + rotate_half(x) * sin, rotate_half = concat(-x2, x1)."""
    b, h, s, d = x[1]
    x1 = slice_(x, [0, 0, 0, 0], [b, h, s, d // 2])
    x2 = slice_(x, [0, 0, 0, d // 2], [b, h, s, d // 2])
    rot = concat(negate(x2), x1, 3)
    return binary("tosa.add", binary("tosa.mul", x, cos), binary("tosa.mul", rot, sin))


def llama_layer(decode):
    """Llama-3-8B decoder layer: prefill of 128 tokens, or one decode step."""
    C, HEADS, KV, D, FFN = 4096, 32, 8, 128, 14336
    S = 1 if decode else 128
    CACHE = 1024
    x = arg([1, S, C])
    cos = arg([1, 1, S, D]); sin = arg([1, 1, S, D])
    L = CACHE + S if decode else S
    mask = arg([1, S, L])
    h = rms_norm(x)
    q = transpose(reshape(linear_nobias(h, C, HEADS * D), [1, S, HEADS, D]), [0, 2, 1, 3])
    k = transpose(reshape(linear_nobias(h, C, KV * D), [1, S, KV, D]), [0, 2, 1, 3])
    v = transpose(reshape(linear_nobias(h, C, KV * D), [1, S, KV, D]), [0, 2, 1, 3])
    q, k = rotary(q, cos, sin), rotary(k, cos, sin)
    if decode:
        k = concat(arg([1, KV, CACHE, D]), k, 2)
        v = concat(arg([1, KV, CACHE, D]), v, 2)
    rep = HEADS // KV

    def repeat(t_):
        r = tile(reshape(t_, [1, KV, 1, L, D]), [1, 1, rep, 1, 1])
        return reshape(r, [HEADS, L, D])
    q3 = reshape(q, [HEADS, S, D])
    kt = transpose(repeat(k), [0, 2, 1])
    scores = binary("tosa.mul", matmul(q3, kt), const(f"{D ** -0.5:.8e}", 3))
    scores = binary("tosa.add", scores, mask)
    o = matmul(softmax(scores), repeat(v))
    o = reshape(transpose(reshape(o, [1, HEADS, S, D]), [0, 2, 1, 3]), [1, S, C])
    x = binary("tosa.add", x, linear_nobias(o, C, C))
    h = rms_norm(x)
    gate = linear_nobias(h, C, FFN)
    up = linear_nobias(h, C, FFN)
    x = binary("tosa.add", x, linear_nobias(binary("tosa.mul", silu(gate), up), FFN, C))
    what = "one decode step against a 1024-token KV cache" if decode else "a 128-token prompt"
    return x, [f"A Llama-3-8B-style decoder layer over {what}: RMSNorm,",
               "rotary embedding, grouped-query attention (32 query / 8 KV heads),",
               "SwiGLU MLP"]


def batch_norm(x):
    """Inference batch norm as torch-mlir decomposes it: (x - mean) * rsqrt(var + eps) * gamma + beta."""
    c = x[1][1]
    mean = weight([1, c, 1, 1]); var = weight([c, 1, 1])
    gamma = weight([1, c, 1, 1]); beta = weight([1, c, 1, 1])
    r = reshape(unary("tosa.rsqrt", binary("tosa.add", var, const("9.99999974E-6", 3))), [1, c, 1, 1])
    y = binary("tosa.mul", binary("tosa.sub", x, mean), r)
    return binary("tosa.add", binary("tosa.mul", y, gamma), beta)


def relu(x):
    big = "3.40282347E+38" if DT == "f32" else "6.550400e+04" if DT == "f16" else "3.38953139E+38"
    return raw(f'@V = "tosa.clamp"({x[0]}) <{{min_val = 0.000000e+00 : {DT}, max_val = {big} : {DT}}}> : ({t(x[1])}) -> @OUT', x[1])


def tosa_pads(size, k, stride):
    """Top and bottom padding of a k-window at `stride` over `size` rows, and
    the rows to keep: TOSA wants the padded extent less the window to divide
    by the stride, so torch-mlir pads one side less, or slices the input."""
    p = k // 2
    rem = (size - 1 + 2 * p - (k - 1)) % stride
    bottom = p - rem
    return p, max(bottom, 0), size + min(bottom, 0)


def conv_oihw(x, cout, k, stride, depthwise=False):
    """A conv whose constant OIHW weight is transposed to OHWI in the graph,
    for any window and stride, or a depthwise conv (weight [c, 1, k, k]
    transposed to [k, k, c, 1], as torch-mlir exports it)."""
    n, c, h, wd = x[1]
    top, bottom, keep = tosa_pads(h, k, stride)
    if depthwise:
        w = transpose(weight([c, 1, k, k]), [2, 3, 0, 1])
        op, cout = "tosa.depthwise_conv2d", c
    else:
        w = transpose(weight([cout, c, k, k]), [0, 2, 3, 1])
        op = "tosa.conv2d"
    b = weight([cout])
    xh = transpose(x, [0, 2, 3, 1])
    if keep < h:
        xh = slice_(xh, [0, 0, 0, 0], [n, keep, keep, c])
    o = (keep + top + bottom - k) // stride + 1
    pad = ", ".join(map(str, [top, bottom, top, bottom]))
    y = raw(f'@V = "{op}"({xh[0]}, {w[0]}, {b[0]}, {ZP}, {ZP}) <{{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: {pad}>, stride = array<i64: {stride}, {stride}>}}> : ({t(xh[1])}, {t(w[1])}, {t(b[1])}, tensor<1x{DT}>, tensor<1x{DT}>) -> @OUT', [n, o, o, cout])
    return transpose(y, [0, 3, 1, 2])


def relu6(x):
    return raw(f'@V = "tosa.clamp"({x[0]}) <{{min_val = 0.000000e+00 : {DT}, max_val = 6.000000e+00 : {DT}}}> : ({t(x[1])}) -> @OUT', x[1])


def pool(x, name, k, stride):
    """max_pool2d (k, stride) or a global avg_pool2d, in NHWC between transposes."""
    n, c, h, w = x[1]
    xh = transpose(x, [0, 2, 3, 1])
    if name == "avg":
        y = raw(f'@V = "tosa.avg_pool2d"({xh[0]}, {ZP}, {ZP}) <{{acc_type = f32, kernel = array<i64: {h}, {w}>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}}> : ({t(xh[1])}, tensor<1x{DT}>, tensor<1x{DT}>) -> @OUT', [n, 1, 1, c])
        return reshape(y, [n, 1, c])
    top, bottom, _ = tosa_pads(h, k, stride)
    o = (h + top + bottom - k) // stride + 1
    pad = ", ".join(map(str, [top, bottom, top, bottom]))
    y = raw(f'@V = "tosa.max_pool2d"({xh[0]}) <{{kernel = array<i64: {k}, {k}>, pad = array<i64: {pad}>, stride = array<i64: {stride}, {stride}>}}> : ({t(xh[1])}) -> @OUT', [n, o, o, c])
    return transpose(y, [0, 3, 1, 2])


def classifier(x, classes=1000):
    return reshape(linear(pool(x, "avg", 0, 1), x[1][1], classes), [1, classes])


def mobilenet_v2():
    """torchvision's MobileNet-V2 at 224x224: inverted residuals of a 1x1
    expansion, a 3x3 depthwise conv and a 1x1 projection, ReLU6."""
    x = relu6(batch_norm(conv_oihw(arg([1, 3, 224, 224]), 32, 3, 2)))
    cin = 32
    for t_, c, n, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                        (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)):
        for i in range(n):
            stride = s if i == 0 else 1
            h = x if t_ == 1 else relu6(batch_norm(conv_oihw(x, cin * t_, 1, 1)))
            h = relu6(batch_norm(conv_oihw(h, 0, 3, stride, depthwise=True)))
            h = batch_norm(conv_oihw(h, c, 1, 1))
            x = binary("tosa.add", x, h) if stride == 1 and cin == c else h
            cin = c
    x = relu6(batch_norm(conv_oihw(x, 1280, 1, 1)))
    return classifier(x), ["torchvision's MobileNet-V2 at 224x224 (inverted residuals, ReLU6)"]


def shuffle_unit(x, cout, stride):
    n, c, h, w = x[1]
    half = cout // 2
    if stride == 1:
        a = slice_(x, [0, 0, 0, 0], [n, c // 2, h, w])
        b = slice_(x, [0, c // 2, 0, 0], [n, c // 2, h, w])
    else:
        a = relu(batch_norm(conv_oihw(batch_norm(conv_oihw(x, 0, 3, 2, depthwise=True)), half, 1, 1)))
        b = x
    b = relu(batch_norm(conv_oihw(b, half, 1, 1)))
    b = batch_norm(conv_oihw(b, 0, 3, stride, depthwise=True))
    b = relu(batch_norm(conv_oihw(b, half, 1, 1)))
    y = concat(a, b, 1)
    o = y[1][2]
    y = reshape(transpose(reshape(y, [n, 2, half, o, o]), [0, 2, 1, 3, 4]), [n, cout, o, o])
    return y


def shufflenet_v2():
    """torchvision's ShuffleNetV2 x1.0 at 224x224: split, 1x1, 3x3
    depthwise, 1x1, concat and channel shuffle."""
    x = pool(relu(batch_norm(conv_oihw(arg([1, 3, 224, 224]), 24, 3, 2))), "max", 3, 2)
    for c, n in ((116, 4), (232, 8), (464, 4)):
        for i in range(n):
            x = shuffle_unit(x, c, 2 if i == 0 else 1)
    x = relu(batch_norm(conv_oihw(x, 1024, 1, 1)))
    return classifier(x), ["torchvision's ShuffleNetV2 x1.0 at 224x224 (channel split and shuffle)"]


def bottleneck(x, width, stride):
    cout = 4 * width
    h = relu(batch_norm(conv_oihw(x, width, 1, 1)))
    h = relu(batch_norm(conv_oihw(h, width, 3, stride)))
    h = batch_norm(conv_oihw(h, cout, 1, 1))
    shortcut = batch_norm(conv_oihw(x, cout, 1, stride))
    return relu(binary("tosa.add", h, shortcut))


def resnet50_blocks():
    """The first block of each stage: 56x56 (64 -> 256), then strided to 28, 14, 7."""
    x = arg([1, 64, 56, 56])
    for width, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        x = bottleneck(x, width, stride)
    return x, ["The first bottleneck block of each of ResNet-50's four stages",
               "(torchvision v1.5: stride on the 3x3 conv, projection shortcuts),",
               "from a 56x56x64 stem output to 7x7x2048"]


final, about = {"sd": sd_block, "resnet50": resnet50_blocks, "llama": lambda: llama_layer(False),
                "decode": lambda: llama_layer(True), "mobilenet_v2": mobilenet_v2,
                "shufflenet_v2": shufflenet_v2}[MODEL]()
for line in about:
    print("// " + line)
print(f"// in the op spelling of torch-mlir's TOSA export. Generated by")
print(f"// test/lit/Inputs/gen_blocks.py {MODEL} {DT}; weights are "
      + ("elided constants." if WEIGHTS == "const" else "arguments."))
print("module {")
print(f"  func.func @forward({', '.join(args)}) -> {t(final[1])} {{")
print(f'    %shift = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>')
print(f'    %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1x{DT}>}}> : () -> tensor<1x{DT}>')
for l in lines:
    print(l)
print(f"    return {final[0]} : {t(final[1])}")
print("  }")
print("}")
