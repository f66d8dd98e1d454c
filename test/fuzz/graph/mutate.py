#!/usr/bin/env python3
"""Graph fuzzer, part 1: derive mutants of the bundled models.

Python 3 standard library only. The models (test/models/*.mlir) are printed in
MLIR's generic form once (`mlir-opt --mlir-print-op-generic
--mlir-print-local-scope`), which makes every op one regular piece of text:

    %5 = "tosa.add"(%3, %4) : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>

A mutant starts as a small function cut out of a model (a window of its ops;
values defined before the window become arguments, or their constant
definitions are copied in; values used after it are returned), then gets up
to three mutations (MUTATIONS below: one small function each). Mutant I of
seed S is a function of (S, I) alone (and of this file's version), so
`--seed S --index I` rebuilds it. A mutant is kept only when stock mlir-opt
(no plugin) verifies it; the verification runs many mutants per mlir-opt
process (--split-input-file) and maps errors back by line.

Standalone use (prints generated vs kept per mutation kind):

    mutate.py --mlir-opt /usr/lib/llvm-22/bin/mlir-opt --models test/models \
        --seed 1 --count 200 [--variants] [--out DIR [--all]] [--print]
"""

import argparse
import bisect
import collections
import os
import random
import re
import subprocess
import sys
import tempfile

# --------------------------------------------------------------------------
# Text helpers

VALUE_RE = re.compile(r"(%[A-Za-z0-9_$.\-]+)(#\d+)?")
HEAD_RE = re.compile(r'^(?:(%[A-Za-z0-9_$.\-]+)(?::(\d+))? = )?"([^"]+)"\(')
DEF_RE = re.compile(r"^\s*(%[A-Za-z0-9_$.\-]+)(?::\d+)? = ")
BB_RE = re.compile(r"^\s*\^[A-Za-z0-9_$.\-]+(?:\((.*)\))?:\s*$")
SPLIT_MARKER = "// -----"


def match_close(s, i):
    """Index of the bracket closing the one at s[i] ('(', '<', '[', '{')."""
    depth = 0
    in_str = False
    j = i
    while j < len(s):
        c = s[j]
        if in_str:
            if c == "\\":
                j += 2
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "(<[{":
            depth += 1
        elif c in ")]}" or (c == ">" and s[j - 1] != "-"):
            depth -= 1
            if depth == 0:
                return j
        j += 1
    raise ValueError("unbalanced: " + s)


def split_top(s):
    """Split s at the commas outside brackets and strings."""
    parts, cur, depth, in_str = [], [], 0, False
    i = 0
    while i < len(s):
        c = s[i]
        if in_str:
            if c == "\\":
                cur.append(s[i:i + 2])
                i += 2
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "(<[{":
            depth += 1
        elif c in ")]}" or (c == ">" and i > 0 and s[i - 1] != "-"):
            depth -= 1
        elif c == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    rest = "".join(cur).strip()
    if rest:
        parts.append(rest)
    return parts


def subst(text, mapping):
    """Rename value references (%x, %x#1) by mapping (keys: full refs or bases)."""
    if not mapping:
        return text

    def rep(mo):
        full, base, idx = mo.group(0), mo.group(1), mo.group(2)
        if full in mapping:
            return mapping[full]
        if idx and base in mapping:
            return mapping[base] + idx
        return full

    return VALUE_RE.sub(rep, text)


def base_of(ref):
    return ref.split("#")[0]


def map_tensor_types(text, fn):
    """Rewrite every tensor<...> type: fn(dims, elem) -> (dims, elem) | None."""
    out, i = [], 0
    while True:
        j = text.find("tensor<", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        if j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_."):
            out.append(text[i:j + 7])
            i = j + 7
            continue
        try:
            k = match_close(text, j + 6)
        except ValueError:
            out.append(text[i:])
            return "".join(out)
        body = text[j + 7:k]
        m = re.match(r"^((?:(?:\d+|\?)x)*)(.*)$", body, re.S)
        res = None
        if m and "," not in m.group(2) and not body.startswith("*"):
            dims = [d for d in m.group(1).split("x") if d]
            res = fn(dims, m.group(2))
        out.append(text[i:j])
        if res is None:
            out.append(text[j:k + 1])
        else:
            dims, elem = res
            out.append("tensor<" + "".join(d + "x" for d in dims) + elem + ">")
        i = k + 1


def parse_tensor(t):
    """(dims, elem) of a ranked tensor type, else None."""
    t = t.strip()
    if not t.startswith("tensor<") or t.startswith("tensor<*"):
        return None
    body = t[7:-1]
    m = re.match(r"^((?:(?:\d+|\?)x)*)(.*)$", body, re.S)
    if not m or "," in m.group(2):
        return None
    return [d for d in m.group(1).split("x") if d], m.group(2)


def make_tensor(dims, elem):
    return "tensor<" + "".join(d + "x" for d in dims) + elem + ">"


# --------------------------------------------------------------------------
# IR pieces: ops (generic form text), block labels, functions, modules


class Op:
    """One op in generic form: its lines (nested regions included)."""

    def __init__(self, lines):
        self.lines = [l.rstrip("\n") for l in lines]
        first = self.lines[0].lstrip()
        self.lines[0] = first
        m = HEAD_RE.match(first)
        if not m:
            raise ValueError("not a generic op: " + first)
        self.base, count, self.name = m.group(1), m.group(2), m.group(3)
        if self.base is None:
            self.results = []
        elif count is None:
            self.results = [self.base]
        else:
            self.results = ["%s#%d" % (self.base, k) for k in range(int(count))]
        paren = m.end() - 1
        close = match_close(first, paren)
        self.operands = split_top(first[paren + 1:close])
        last = self.lines[-1]
        pos = last.rfind(" : (")
        if pos < 0:
            raise ValueError("no signature: " + last)
        self.sig_prefix = last[:pos]
        rest = last[pos + 3:]
        close = match_close(rest, 0)
        self.in_types = split_top(rest[1:close])
        tail = rest[close + 1:].strip()
        if not tail.startswith("->"):
            raise ValueError("bad signature: " + last)
        res = tail[2:].strip()
        if res.startswith("(") and match_close(res, 0) == len(res) - 1:
            self.out_types = split_top(res[1:-1])
        else:
            self.out_types = [res]
        if len(self.out_types) != len(self.results):
            raise ValueError("result count mismatch: " + first)
        self.has_regions = len(self.lines) > 1
        self._uses = None

    def uses(self):
        """Value refs read by this op (operands and captures in its regions)."""
        if self._uses is None:
            internal = set()
            for l in self.lines[1:]:
                m = DEF_RE.match(l)
                if m:
                    internal.add(m.group(1))
                m = BB_RE.match(l)
                if m and m.group(1):
                    for a in split_top(m.group(1)):
                        internal.add(a.split(":")[0].strip())
            seen, out = set(), []
            first = self.lines[0]
            m = HEAD_RE.match(first)
            texts = [first[m.end() - 1:]] + self.lines[1:]
            for t in texts:
                for mo in VALUE_RE.finditer(t):
                    ref = mo.group(0)
                    if mo.group(1) in internal or ref in seen:
                        continue
                    seen.add(ref)
                    out.append(ref)
            self._uses = out
        return self._uses

    def inner_defs(self):
        """Base names defined inside this op's regions (results, block args)."""
        out = set()
        for l in self.lines[1:]:
            m = DEF_RE.match(l)
            if m:
                out.add(m.group(1))
            m = BB_RE.match(l)
            if m and m.group(1):
                for a in split_top(m.group(1)):
                    out.add(a.split(":")[0].strip())
        return out

    def renamed(self, mapping):
        return Op([subst(l, mapping) for l in self.lines])

    def with_sig(self, in_types=None, out_types=None):
        in_types = self.in_types if in_types is None else in_types
        out_types = self.out_types if out_types is None else out_types
        last = self.sig_prefix + " : " + render_fn_type(in_types, out_types)
        return Op(self.lines[:-1] + [last])

    def is_const(self):
        return (not self.operands and not self.has_regions and
                len(self.results) == 1)


class Label:
    """A block label starting a new block of the function body."""

    def __init__(self, name, args):
        self.name, self.args = name, list(args)

    def uses(self):
        return []


def render_fn_type(ins, outs):
    o = ", ".join(outs)
    if len(outs) == 1 and not outs[0].startswith("("):
        return "(%s) -> %s" % (", ".join(ins), o)
    return "(%s) -> (%s)" % (", ".join(ins), o)


class Func:
    def __init__(self, name, args, items, rets, private=False, decl=False):
        self.name = name
        self.args = list(args)          # [(name, type)]
        self.items = list(items)        # [Op | Label]
        self.rets = list(rets)          # [(ref, type)]
        self.private = private
        self.decl = decl

    def ops(self):
        return [it for it in self.items if isinstance(it, Op)]

    def value_types(self):
        types = dict(self.args)
        for it in self.items:
            if isinstance(it, Op):
                types.update(zip(it.results, it.out_types))
            else:
                types.update(it.args)
        return types

    def fn_type(self):
        return render_fn_type([t for _, t in self.args], [t for _, t in self.rets])

    def render(self, out):
        attrs = 'function_type = %s, sym_name = "%s"' % (self.fn_type(), self.name)
        if self.private:
            attrs += ', sym_visibility = "private"'
        out.append('  "func.func"() <{%s}> ({' % attrs)
        if not self.decl:
            out.append("  ^bb0(%s):" % ", ".join("%s: %s" % a for a in self.args)
                       if self.args else "  ^bb0:")
            for it in self.items:
                if isinstance(it, Label):
                    a = ", ".join("%s: %s" % x for x in it.args)
                    out.append("  %s%s:" % (it.name, "(%s)" % a if a else ""))
                else:
                    out.append("    " + it.lines[0])
                    out.extend("    " + l for l in it.lines[1:])
            out.append('    "func.return"(%s) : (%s) -> ()' % (
                ", ".join(r for r, _ in self.rets),
                ", ".join(t for _, t in self.rets)))
        out.append("  }) : () -> ()")


class Module:
    def __init__(self, main):
        self.main = main
        self.others = []                # callees, declarations
        self.counter = 0
        self.post = []                  # text rewrites of the rendered module

    def fresh(self, prefix):
        self.counter += 1
        return "%%z_%s%d" % (prefix, self.counter)

    def funcs(self):
        return [self.main] + self.others

    def render(self):
        out = ['"builtin.module"() ({']
        for f in self.others:
            f.render(out)
        self.main.render(out)
        out.append("}) : () -> ()")
        text = "\n".join(out) + "\n"
        for fn in self.post:
            text = fn(text)
        return text


def map_func_text(f, fn):
    """Apply a text rewrite to every type and op line of a function."""
    f.args = [(n, fn(t)) for n, t in f.args]
    f.rets = [(r, fn(t)) for r, t in f.rets]
    items = []
    for it in f.items:
        if isinstance(it, Label):
            items.append(Label(it.name, [(n, fn(t)) for n, t in it.args]))
        else:
            items.append(Op([fn(l) for l in it.lines]))
    f.items = items


# --------------------------------------------------------------------------
# Models


def parse_generic_model(text, name):
    """The first func.func with a body of a generic-form module, as a Func."""
    lines = text.split("\n")
    i = 0
    while i < len(lines) and not lines[i].startswith('  "func.func"()'):
        i += 1
    if i == len(lines):
        raise ValueError("no func.func in " + name)
    m = re.search(r'sym_name = "([^"]+)"', lines[i])
    fname = m.group(1) if m else "f"
    i += 1
    m = BB_RE.match(lines[i])
    args = []
    if m and m.group(1):
        for a in split_top(m.group(1)):
            n, t = a.split(":", 1)
            args.append((n.strip(), t.strip()))
    i += 1
    items, cur = [], None
    while i < len(lines) and not lines[i].startswith("  })"):
        l = lines[i]
        if l.startswith("    %") or l.startswith('    "'):
            if cur:
                items.append(cur)
            cur = [l[4:]]
        else:
            cur.append(l[4:] if l.startswith("    ") else l.strip())
        i += 1
    if cur:
        items.append(cur)
    ops = [Op(c) for c in items]
    ret = ops.pop()
    if ret.name != "func.return":
        raise ValueError("last op is not func.return in " + name)
    rets = list(zip(ret.operands, ret.in_types))
    return Func(fname, args, ops, rets)


def generic_models(mlir_opt, models_dir, env=None):
    """{name: Func} for every test/models/*.mlir, printed in generic form."""
    out = {}
    for fn in sorted(os.listdir(models_dir)):
        if not fn.endswith(".mlir"):
            continue
        path = os.path.join(models_dir, fn)
        p = subprocess.run(
            [mlir_opt, "--mlir-print-op-generic", "--mlir-print-local-scope",
             "--mlir-disable-threading", path],
            capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise RuntimeError("mlir-opt cannot print %s:\n%s" % (path, p.stderr))
        out[fn[:-len(".mlir")]] = parse_generic_model(p.stdout, fn)
    return out


# --------------------------------------------------------------------------
# Extraction: a window of a model's ops as a new function


def extract(rng, func, min_ops=1):
    ops = func.ops()
    n = len(ops)
    r = rng.random()
    if r < 0.3:
        length = rng.randint(1, 4)
    elif r < 0.75:
        length = rng.randint(5, 12)
    elif r < 0.95:
        length = rng.randint(13, 40)
    elif r < 0.98:
        length = rng.randint(41, 90)
    else:
        length = n                      # the whole model
    length = max(min_ops, min(length, n))
    start = 0 if rng.random() < 0.15 else rng.randrange(n - length + 1)
    window = ops[start:start + length]
    after = ops[start + length:]
    types = func.value_types()
    defining = {}
    for op in ops:
        for r_ in op.results:
            defining[r_] = op
    defined = set(r_ for op in window for r_ in op.results)
    consts, args, mapping, done = [], [], {}, set()
    k = 0
    for op in window:
        for u in op.uses():
            if u in defined or u in done:
                continue
            done.add(u)
            d = defining.get(u)
            t = types.get(u)
            if t is None:
                raise ValueError("no type for " + u)
            if d is not None and d.is_const() and (
                    rng.random() < 0.8 or t.startswith("!tosa.shape")):
                consts.append(d)
            else:
                name = "%%in%d" % k
                k += 1
                args.append((name, t))
                mapping[u] = name
    body = consts + [op.renamed(mapping) if mapping else op for op in window]
    used_later = set(func_uses(after)) | set(r_ for r_, _ in func.rets)
    used_in = set(u for op in window for u in op.uses())
    outs = [r_ for op in window for r_ in op.results
            if r_ in used_later or r_ not in used_in]
    if len(outs) > 6:
        outs = sorted(rng.sample(outs, 6), key=outs.index)
    if not outs and window and window[-1].results:
        outs = window[-1].results[:1]
    out_types = func.value_types()
    rets = [(o, out_types[o]) for o in outs]
    return Func("fuzz", args, body, rets)


def func_uses(items):
    out = []
    for it in items:
        out.extend(it.uses())
    return out


def uses_after(f, p):
    """Refs used by items[p:] and the return."""
    s = set(func_uses(f.items[p:]))
    s.update(r for r, _ in f.rets)
    return s


def rename_uses_in(it, mapping):
    """it with its uses renamed (its own result names kept)."""
    if not isinstance(it, Op) or not mapping:
        return it
    lines = list(it.lines)
    m = HEAD_RE.match(lines[0])
    head = lines[0][:m.end() - 1]
    lines[0] = head + subst(lines[0][m.end() - 1:], mapping)
    lines[1:] = [subst(l, mapping) for l in lines[1:]]
    return Op(lines)


def replace_uses(f, start, mapping):
    """Rename uses in items[start:] and the return (not definitions)."""
    f.items = f.items[:start] + [rename_uses_in(it, mapping) for it in f.items[start:]]
    f.rets = [(subst(r, mapping), t) for r, t in f.rets]


def op_positions(f, pred=None):
    return [i for i, it in enumerate(f.items)
            if isinstance(it, Op) and (pred is None or pred(it))]


def retype_value(f, ref, new_type, start=0):
    """Give ref a new type where it is an operand (signatures) and returned."""
    items = f.items[:start]
    for it in f.items[start:]:
        if isinstance(it, Op) and ref in it.operands:
            ins = list(it.in_types)
            for k, o in enumerate(it.operands):
                if o == ref and k < len(ins):
                    ins[k] = new_type
            items.append(it.with_sig(in_types=ins))
        else:
            items.append(it)
    f.items = items
    f.rets = [(r, new_type if r == ref else t) for r, t in f.rets]


# --------------------------------------------------------------------------
# Mutations. Each takes (rng, module) and returns a short variant name, or
# None when it does not apply to this function.


def m_dynamic_dims(rng, mod):
    f = mod.main

    def dynamize(t):
        pt = parse_tensor(t)
        if not pt or not pt[0] or all(d == "?" for d in pt[0]):
            return None
        dims, elem = pt
        if rng.random() < 0.1:
            return "tensor<*x%s>" % elem, "unranked"
        if rng.random() < 0.3:
            return make_tensor(["?"] * len(dims), elem), "all"
        nd = list(dims)
        idx = [i for i, d in enumerate(dims) if d != "?"]
        for i in rng.sample(idx, rng.randint(1, len(idx))):
            nd[i] = "?"
        return make_tensor(nd, elem), "some"

    if f.args and rng.random() < 0.65:
        cands = [i for i, (_, t) in enumerate(f.args) if dynamize(t)]
        if cands:
            i = rng.choice(cands)
            name, t = f.args[i]
            nt, how = dynamize(t)
            f.args[i] = (name, nt)
            retype_value(f, name, nt)
            return "arg-" + how
    cands = [(p, k) for p in op_positions(f, lambda o: not o.is_const())
             for k, t in enumerate(f.items[p].out_types) if dynamize(t)]
    if not cands:
        return None
    p, k = rng.choice(cands)
    op = f.items[p]
    nt, how = dynamize(op.out_types[k])
    outs = list(op.out_types)
    outs[k] = nt
    f.items[p] = op.with_sig(out_types=outs)
    retype_value(f, op.results[k], nt, p + 1)
    return "result-" + how


ELEM_TARGETS = ["f16", "bf16", "i8", "i1", "complex<f32>",
                "f64", "f8E4M3FN", "i4", "index"]
INT_ARITH = {"addf": "addi", "subf": "subi", "mulf": "muli", "divf": "divsi",
             "maximumf": "maxsi", "minimumf": "minsi", "maxnumf": "maxsi",
             "minnumf": "minsi"}
FLOAT_LIT = re.compile(r"(?<![\w.#])-?\d+\.\d*(?:[eE][+-]?\d+)?")


def elem_types_of(text):
    found = set()

    def see(dims, elem):
        found.add(elem)
        return None

    map_tensor_types(text, see)
    return found


def m_elem_type(rng, mod):
    text = mod.render()
    elems = sorted(elem_types_of(text))
    if not elems:
        return None
    src = rng.choice(elems)
    dst = rng.choice([e for e in ELEM_TARGETS if e != src])
    to_int = dst.startswith("i")
    scalar_re = re.compile(r"(?<![A-Za-z0-9_.$%])" + re.escape(src) + r"(?![A-Za-z0-9_])")

    def tensors(t):
        return map_tensor_types(
            t, lambda dims, e: (dims, dst) if e == src else None)

    def literals(t):
        if not to_int:
            return t
        # float arithmetic in linalg bodies becomes integer arithmetic
        t = re.sub(r" <\{fastmath = #arith.fastmath<[a-z,]+>\}>", "", t)
        t = re.sub(r'"arith\.(addf|subf|mulf|divf|maximumf|minimumf|maxnumf|minnumf)"',
                   lambda mo: '"arith.%s"' % INT_ARITH[mo.group(1)], t)
        return FLOAT_LIT.sub(lambda mo: str(int(float(mo.group(0)))
                                            if dst != "i1" else
                                            int(float(mo.group(0)) != 0)), t)

    r = rng.random()
    if r < 0.5:
        variant = "all"

        def fn(t):
            t = scalar_re.sub(dst, t)
            t = tensors(t)
            return literals(t) if src.startswith(("f", "bf")) else t
        for g in mod.funcs():
            map_func_text(g, fn)
    elif r < 0.75:
        variant = "tensors"
        for g in mod.funcs():
            map_func_text(g, tensors)
    else:
        variant = "arg"
        f = mod.main
        cands = [i for i, (_, t) in enumerate(f.args) if parse_tensor(t)]
        if not cands:
            return None
        i = rng.choice(cands)
        name, t = f.args[i]
        dims, _ = parse_tensor(t)
        nt = make_tensor(dims, dst)
        f.args[i] = (name, nt)
        retype_value(f, name, nt)
    return "%s-%s" % (variant, dst.split("<")[0])


EXTREME = [0, 0, 2**31 - 1, 2**40, 2**40, 2**62]


def m_extreme_dims(rng, mod):
    text = mod.render()
    dimvals = collections.Counter()

    def see(dims, elem):
        dimvals.update(d for d in dims if d != "?")
        return None

    map_tensor_types(text, see)
    if not dimvals:
        return None
    d = rng.choice(sorted(dimvals))
    v = rng.choice(EXTREME)
    nv = str(v)

    def tensors(t):
        return map_tensor_types(
            t, lambda dims, e: ([nv if x == d else x for x in dims], e)
            if d in dims else None)

    def arrays(t):
        t = re.sub(r"array<i64:([^>]*)>", lambda mo: "array<i64:" + ",".join(
            (" " + nv) if x.strip() == d else x for x in mo.group(1).split(",")) + ">", t)
        return re.sub(r"dense<\[([0-9, ]*)\]> : tensor<(\d+)xindex>",
                      lambda mo: "dense<[" + ", ".join(
                          nv if x.strip() == d else x.strip()
                          for x in mo.group(1).split(",")) + "]> : tensor<%sxindex>" % mo.group(2), t)

    r = rng.random()
    if r < 0.15:
        # every static dim above 1 at once: products of huge dims overflow
        variant = "every"
        big = set(x for x in dimvals if x not in ("0", "1"))

        def every(t):
            t = map_tensor_types(t, lambda dims, e: (
                [nv if x in big else x for x in dims], e))
            t = re.sub(r"array<i64:([^>]*)>", lambda mo: "array<i64:" + ",".join(
                (" " + nv) if x.strip() in big else x for x in mo.group(1).split(",")) + ">", t)
            return t
        for g in mod.funcs():
            map_func_text(g, every)
    elif r < 0.5:
        variant = "all"
        for g in mod.funcs():
            map_func_text(g, lambda t: arrays(tensors(t)))
    elif r < 0.7:
        variant = "types"
        for g in mod.funcs():
            map_func_text(g, tensors)
    else:
        variant = "arg"
        f = mod.main
        cands = [i for i, (_, t) in enumerate(f.args)
                 if parse_tensor(t) and any(x != "?" for x in parse_tensor(t)[0])]
        if not cands:
            return None
        i = rng.choice(cands)
        name, t = f.args[i]
        dims, elem = parse_tensor(t)
        idx = [k for k, x in enumerate(dims) if x != "?"]
        k = rng.choice(idx)
        dims = list(dims)
        dims[k] = nv
        nt = make_tensor(dims, elem)
        f.args[i] = (name, nt)
        retype_value(f, name, nt)
    return "%s-%s" % (variant, {0: "0", 2**31 - 1: "2^31-1", 2**40: "2^40",
                                 2**62: "2^62"}[v])


def m_delete_op(rng, mod):
    f = mod.main
    cands = op_positions(f)
    if not cands:
        return None
    p = rng.choice(cands)
    op = f.items[p]
    mapping = {}
    for r, t in zip(op.results, op.out_types):
        name = mod.fresh("del")
        f.args.append((name, t))
        mapping[r] = name
    del f.items[p]
    replace_uses(f, p, mapping)
    return "with-results" if op.results else "no-results"


ODD_TYPES = ["!foo.t", "i32", "index", "vector<4xf32>", "memref<4x?xf32>", "none",
             "tuple<i32, f32>", "tensor<*xf32>", "tensor<4x?xf32>", "tensor<0xf32>",
             "complex<f32>", "tensor<2x!foo.t>", "tensor<f32>", "f8E4M3FN",
             "tensor<3x4xf8E4M3FN>", "tensor<8xi4>"]
UNREG_NAMES = ["foo.bar", "foo.matmul", "test.conv2d", "x.softmax", "my.add",
               "foo.reshape"]


def m_unregistered_op(rng, mod):
    f = mod.main
    name = rng.choice(UNREG_NAMES)
    types = f.value_types()
    # (position after the definition, ref) for every value
    vals = [(0, n) for n, _ in f.args]
    for p, it in enumerate(f.items):
        if isinstance(it, Op):
            vals += [(p + 1, r) for r in it.results]
        else:
            vals += [(p + 1, n) for n, _ in it.args]
    r = rng.random()
    if r < 0.12:
        # inside a linalg body, before its yield
        cands = [p for p in op_positions(f) if any(
            '"linalg.yield"(%' in l for l in f.items[p].lines[1:])]
        if cands:
            p = rng.choice(cands)
            lines = list(f.items[p].lines)
            k = max(i for i, l in enumerate(lines) if '"linalg.yield"(%' in l)
            y = Op([lines[k]])
            if y.operands:
                ind = lines[k][:len(lines[k]) - len(lines[k].lstrip())]
                u = mod.fresh("ub")
                t = y.in_types[0]
                lines.insert(k, '%s%s = "%s"(%s) : (%s) -> %s' % (
                    ind, u, name, y.operands[0], t, t))
                lines[k + 1] = lines[k + 1].replace("(%s" % y.operands[0], "(%s" % u, 1)
                f.items[p] = Op(lines)
                return "in-linalg-body"
    if not vals:
        return None
    p, v = rng.choice(vals)
    t = types[v]
    u = mod.fresh("u")
    if r < 0.45:
        text = '%s = "%s"(%s) : (%s) -> %s' % (u, name, v, t, t)
        new = [text]
        mapping = {v: u}
        variant = "wrap"
    elif r < 0.53:
        w_p, w = rng.choice(vals)
        if w_p > p:
            p = w_p
        new = ['"%s"(%s, %s) {foo.flag} : (%s, %s) -> ()' % (
            name, v, w, t, types[w])]
        mapping = {}
        variant = "sink"
    elif r < 0.61:
        new = ['%s = "%s"() {value = 1 : i64} : () -> %s' % (u, name, t)]
        mapping = {v: u}
        variant = "source"
    elif r < 0.8:
        odd = rng.choice(ODD_TYPES)
        how = rng.choice(["used", "returned", "argument"])
        if how == "argument":
            a = mod.fresh("odd")
            f.args.append((a, odd))
            new = ['%s = "%s"(%s, %s) : (%s, %s) -> %s' % (u, name, a, v, odd, t, t)]
            mapping = {v: u}
        else:
            new = ['%s = "%s"(%s) : (%s) -> %s' % (u, name, v, t, odd)]
            if how == "used":
                new = [new[0], '"foo.use"(%s) : (%s) -> ()' % (u, odd)]
                f.items.insert(p, Op(new[1:]))
                new = new[:1]
            else:
                f.rets.append((u, odd))
            mapping = {}
        variant = "odd-type-" + how
    elif r < 0.87:
        new = ['%s:2 = "%s"(%s) {foo.attr = 1 : i64} : (%s) -> (%s, i32)' % (
            u, name, v, t, t)]
        mapping = {v: u + "#0"}
        variant = "multi-result"
    else:
        new = ['%s = "%s"(%s) ({' % (u, name, v),
               "^bb0(%%z_r%d: %s):" % (mod.counter, t),
               '  "foo.yield"(%%z_r%d) : (%s) -> ()' % (mod.counter, t),
               "}) : (%s) -> %s" % (t, t)]
        mapping = {v: u}
        variant = "region"
    # after the labels of a new block, not between a terminator and a label
    f.items.insert(p, Op(new))
    if mapping:
        if rng.random() < 0.3:
            # only the first later use
            for q in range(p + 1, len(f.items)):
                if v in f.items[q].uses():
                    f.items[q] = rename_uses_in(f.items[q], mapping)
                    break
            else:
                f.rets = [(mapping[v] if r_ == v else r_, t_) for r_, t_ in f.rets]
        else:
            replace_uses(f, p + 1, mapping)
    return variant


def outline(rng, mod, f, lo, hi, callee_name):
    """Move items[lo:hi] (ops only) into a new private function; call it."""
    seg = f.items[lo:hi]
    types = f.value_types()
    defined = set(r for op in seg for r in op.results)
    ins, seen = [], set()
    for op in seg:
        for u in op.uses():
            if u not in defined and u not in seen:
                seen.add(u)
                ins.append(u)
    later = uses_after(f, hi)
    outs = [r for op in seg for r in op.results if r in later]
    defining = {r: it for it in f.items[:lo] if isinstance(it, Op) for r in it.results}
    consts = [defining[u] for u in ins if u in defining and defining[u].is_const()
              and (types[u].startswith("!tosa.shape") or rng.random() < 0.5)]
    ins = [u for u in ins if not any(u in c.results for c in consts)]
    mapping = {}
    args = []
    for k, u in enumerate(ins):
        a = "%%p%d" % k
        mapping[u] = a
        args.append((a, types[u]))
    body = consts + [op.renamed(mapping) for op in seg]
    callee = Func(callee_name, args, body, [(o, types[o]) for o in outs],
                  private=True)
    c = mod.fresh("call")
    res = [c] if len(outs) == 1 else ["%s#%d" % (c, k) for k in range(len(outs))]
    head = "%s = " % c if len(outs) == 1 else ("%s:%d = " % (c, len(outs)) if outs else "")
    call = Op(['%s"func.call"(%s) <{callee = @%s}> : %s' % (
        head, ", ".join(ins), callee_name,
        render_fn_type([types[u] for u in ins], [types[o] for o in outs]))])
    f.items[lo:hi] = [call]
    replace_uses(f, lo + 1, dict(zip(outs, res)))
    return callee, call


def m_call(rng, mod):
    f = mod.main
    r = rng.random()
    ops = op_positions(f)
    if r < 0.25:
        # the whole body becomes a private function, called once or twice
        twice = rng.random() < 0.4
        callee = Func(f.name + "_impl", f.args, f.items, f.rets, private=True)
        mod.others.append(callee)
        args = ", ".join(n for n, _ in f.args)
        ftype = callee.fn_type()
        items, rets = [], []
        for k in range(2 if twice else 1):
            c = mod.fresh("call")
            n = len(f.rets)
            head = "%s = " % c if n == 1 else ("%s:%d = " % (c, n) if n else "")
            items.append(Op(['%s"func.call"(%s) <{callee = @%s}> : %s' % (
                head, args, callee.name, ftype)]))
            refs = [c] if n == 1 else ["%s#%d" % (c, i) for i in range(n)]
            rets += list(zip(refs, [t for _, t in f.rets]))
        f.items = items
        f.rets = rets
        return "duplicate-twice" if twice else "duplicate"
    if r < 0.6 and ops:
        # a run of ops moves into a callee (not across block labels)
        lo = rng.choice(ops)
        hi = lo + 1
        while hi < len(f.items) and isinstance(f.items[hi], Op) and rng.random() < 0.7:
            hi += 1
        callee, _ = outline(rng, mod, f, lo, hi, "outlined%d" % len(mod.others))
        mod.others.append(callee)
        if rng.random() < 0.3 and callee.rets:
            # and it is called a second time, results unused
            callee2 = callee
            c = mod.fresh("call")
            n = len(callee2.rets)
            head = "%s = " % c if n == 1 else "%s:%d = " % (c, n)
            call = f.items[lo]
            f.items.insert(lo + 1, Op([head + call.lines[0].split(" = ", 1)[1]]))
            return "outline-called-twice"
        return "outline"
    if r < 0.8:
        # a recursive call to the function itself
        p = rng.choice(op_positions(f) + [len(f.items)])
        args = ", ".join(n for n, _ in f.args)
        n = len(f.rets)
        c = mod.fresh("rec")
        head = "%s = " % c if n == 1 else ("%s:%d = " % (c, n) if n else "")
        f.items.insert(p, Op(['%s"func.call"(%s) <{callee = @%s}> : %s' % (
            head, args, f.name, f.fn_type())]))
        return "recursive"
    # an op replaced by a call to a declaration (no body)
    cands = [p for p in ops if f.items[p].results and not f.items[p].has_regions
             and not any(t.startswith("!tosa.shape") for t in f.items[p].out_types)]
    if not cands:
        return None
    p = rng.choice(cands)
    op = f.items[p]
    types = f.value_types()
    ins = op.uses()
    name = "extern%d" % len(mod.others)
    decl = Func(name, [("%%d%d" % k, types[u]) for k, u in enumerate(ins)], [],
                [("", t) for t in op.out_types], private=True, decl=True)
    mod.others.append(decl)
    head = op.lines[0][:HEAD_RE.match(op.lines[0]).end() - 1].split('"')[0]
    f.items[p] = Op(['%s"func.call"(%s) <{callee = @%s}> : %s' % (
        head, ", ".join(ins), name, decl.fn_type())])
    return "declaration"


def m_truncate(rng, mod):
    f = mod.main
    ops = op_positions(f)
    if not ops:
        return None
    if any(isinstance(it, Label) for it in f.items):
        return None
    k = rng.choice(ops)
    f.items = f.items[:k + 1]
    types = f.value_types()
    avail = [n for n, _ in f.args] + [r for op in f.ops() for r in op.results]
    r = rng.random()
    if r < 0.1 or not avail:
        f.rets = []
        return "return-nothing"
    if r < 0.2 and f.args:
        n = rng.choice(f.args)[0]
        f.rets = [(n, types[n])]
        return "return-argument"
    last = f.items[k].results
    if r < 0.7 and last:
        f.rets = [(x, types[x]) for x in last]
        return "return-last"
    pick = rng.sample(avail, min(len(avail), rng.randint(1, 3)))
    f.rets = [(x, types[x]) for x in pick]
    return "return-some"


def m_split_blocks(rng, mod):
    f = mod.main
    ops = [p for p in op_positions(f) if p > 0 and isinstance(f.items[p - 1], Op)]
    if not ops:
        ops = op_positions(f)
    if not ops:
        return None
    variant = rng.choice(["dominance", "block-args", "block-args", "cond-br",
                          "dead-block", "early-return", "switch", "loop"])
    if variant in ("early-return", "loop"):
        return split_special(rng, mod, variant)
    nsplit = rng.randint(1, 3) if variant != "dead-block" else 1
    points = sorted(set(rng.sample(ops, min(nsplit, len(ops)))), reverse=True)
    for p in points:
        label = "^bb%d" % (mod.counter + 100)
        mod.counter += 1
        types = f.value_types()
        if variant in ("block-args", "cond-br") and rng.random() < 0.8:
            defined = set(n for n, _ in f.args)
            for it in f.items[:p]:
                if isinstance(it, Op):
                    defined.update(it.results)
                else:
                    defined.update(n for n, _ in it.args)
            live = [u for u in sorted(uses_after(f, p)) if u in defined]
            live = rng.sample(live, min(len(live), rng.randint(1, 4))) if live else []
        else:
            live = []
        new_names = [mod.fresh("b") for _ in live]
        lt = [types[u] for u in live]
        new_label = Label(label, list(zip(new_names, lt)))
        replace_uses(f, p, dict(zip(live, new_names)))
        br_ops = ", ".join(live)
        br_types = ", ".join(lt)
        if variant == "cond-br":
            c = mod.fresh("c")
            other = "^bb%d" % (mod.counter + 100)
            mod.counter += 1
            cond = rng.choice(["true", "false"])
            seq = [Op(['%s = "arith.constant"() <{value = %s}> : () -> i1' % (c, cond)]),
                   Op(['"cf.cond_br"(%s%s)[%s, %s] <{operandSegmentSizes = array<i32: 1, 0, %d>}> : (i1%s) -> ()' % (
                       c, ", " + br_ops if live else "", other, label, len(live),
                       ", " + br_types if live else "")]),
                   Label(other, []),
                   Op(['"cf.br"(%s)[%s] : (%s) -> ()' % (br_ops, label, br_types)]),
                   new_label]
        elif variant == "switch":
            flag = mod.fresh("flag")
            cases = sorted(rng.sample(range(-3, 50), rng.randint(1, 3)))
            blocks = ["^bb%d" % (mod.counter + 100 + k) for k in range(len(cases))]
            mod.counter += len(cases)
            seq = []
            if rng.random() < 0.5:
                f.args.append((flag, "i32"))
            else:
                seq.append(Op(['%s = "arith.constant"() <{value = %d : i32}> : () -> i32'
                               % (flag, rng.choice(cases + [99]))]))
            seq.append(Op(['"cf.switch"(%s%s)[%s] <{case_operand_segments = array<i32: %s>, '
                           'case_values = dense<[%s]> : vector<%dxi32>, operandSegmentSizes = '
                           'array<i32: 1, %d, %d>}> : (i32%s) -> ()' % (
                               flag, ", " + br_ops if live else "",
                               ", ".join([label] + blocks),
                               ", ".join(["0"] * len(cases)),
                               ", ".join(map(str, cases)), len(cases), len(live), 0,
                               ", " + br_types if live else "")]))
            for b in blocks:
                seq += [Label(b, []),
                        Op(['"cf.br"(%s)[%s] : (%s) -> ()' % (br_ops, label, br_types)])]
            seq.append(new_label)
        elif variant == "dead-block":
            dead = "^bb%d" % (mod.counter + 100)
            mod.counter += 1
            seq = [Op(['"cf.br"()[%s] : () -> ()' % label]),
                   Label(dead, []),
                   Op(['"cf.br"()[%s] : () -> ()' % label]),
                   new_label]
        else:
            seq = [Op(['"cf.br"(%s)[%s] : (%s) -> ()' % (br_ops, label, br_types)]),
                   new_label]
        f.items[p:p] = seq
    return variant


def split_special(rng, mod, variant):
    """early-return: a cond_br to a block holding renamed copies of the rest
    of the body and its own func.return. loop: a run of ops becomes a block
    that branches back to itself (a CFG loop) before going on."""
    f = mod.main
    cands = [p for p in op_positions(f)
             if all(isinstance(it, Op) for it in f.items[p:])]
    if not cands:
        return None
    p = rng.choice(cands)
    c = mod.fresh("c")
    cond = rng.choice(["true", "false"])
    seq = [Op(['%s = "arith.constant"() <{value = %s}> : () -> i1' % (c, cond)])]
    a = "^bb%d" % (mod.counter + 100)
    b = "^bb%d" % (mod.counter + 101)
    mod.counter += 2
    if variant == "early-return":
        rest = f.items[p:]
        clone, mapping = clone_renamed(mod, rest, "r%d" % mod.counter)
        ret = Op(['"func.return"(%s) : (%s) -> ()' % (
            ", ".join(subst(r, mapping) for r, _ in f.rets),
            ", ".join(t for _, t in f.rets))])
        f.items[p:] = seq + [
            Op(['"cf.cond_br"(%s)[%s, %s] <{operandSegmentSizes = array<i32: 1, 0, 0>}>'
                ' : (i1) -> ()' % (c, a, b)]),
            Label(a, [])] + clone + [ret, Label(b, [])] + rest
        return variant + "-" + cond
    q = rng.randint(p + 1, len(f.items))
    body = f.items[p:q]
    f.items[p:q] = [Op(['"cf.br"()[%s] : () -> ()' % a]), Label(a, [])] + body + seq + [
        Op(['"cf.cond_br"(%s)[%s, %s] <{operandSegmentSizes = array<i32: 1, 0, 0>}>'
            ' : (i1) -> ()' % (c, a, b)]),
        Label(b, [])]
    return variant + "-" + cond


def clone_renamed(mod, ops, suffix):
    defs = set()
    for op in ops:
        defs.update(base_of(r) for r in op.results)
        defs.update(op.inner_defs())
    mapping = {d: "%%z_%s_%s" % (suffix, d[1:]) for d in defs}
    return [op.renamed(mapping) for op in ops], mapping


def indent(lines, by="  "):
    return [by + l for l in lines]


def carried_inits(rng, mod, f, lo, outs, out_t, types, pre):
    """Initial values for loop-carried results: an earlier value of the same
    type when there is one (the body then reads the carried value instead),
    else a tensor.empty. None when a type has neither."""
    avail = [n_ for n_, _ in f.args]
    for it in f.items[:lo]:
        if isinstance(it, Op):
            avail += it.results
        else:
            avail += [a for a, _ in it.args]
    inits = []
    for t in out_t:
        same = [a for a in avail if types.get(a) == t and a not in inits]
        if same and rng.random() < 0.8:
            inits.append(rng.choice(same))
            continue
        pt = parse_tensor(t)
        if pt and "?" not in pt[0]:
            e = mod.fresh("init")
            pre.append(Op(['%s = "tensor.empty"() : () -> %s' % (e, t)]))
            inits.append(e)
        elif same:
            inits.append(same[0])
        else:
            return None
    return inits


def m_scf_wrap(rng, mod):
    """A run of ops moves into a region: scf.execute_region (one or two
    blocks), scf.if / tosa.cond_if / scf.index_switch (the other branches
    hold renamed copies), scf.for (static, huge or dynamic trip count) or
    scf.while / tosa.while_loop (results carried)."""
    f = mod.main
    ops = op_positions(f, lambda o: not o.name.startswith("cf.") and
                       o.name != "func.return")
    if not ops:
        return None
    lo = rng.choice(ops)
    hi = lo + 1
    while (hi < len(f.items) and isinstance(f.items[hi], Op) and
           not f.items[hi].name.startswith("cf.") and
           f.items[hi].name != "func.return" and rng.random() < 0.75):
        hi += 1
    seg = f.items[lo:hi]
    types = f.value_types()
    hoist = [op for op in seg if op.is_const() and (
        types[op.results[0]].startswith("!tosa.shape") or rng.random() < 0.3)]
    seg = [op for op in seg if op not in hoist]
    if not seg:
        return None
    later = uses_after(f, hi)
    outs = [r for op in seg for r in op.results if r in later]
    out_t = [types[o] for o in outs]
    w = mod.fresh("w")
    n = len(outs)
    head = "%s = " % w if n == 1 else ("%s:%d = " % (w, n) if n else "")
    res = [w] if n == 1 else ["%s#%d" % (w, k) for k in range(n)]
    body = [l for op in seg for l in op.lines]

    def yield_of(op_name, vals=outs, tys=out_t):
        return '"%s"(%s) : (%s) -> ()' % (op_name, ", ".join(vals), ", ".join(tys))

    def clone_body(term):
        clone, mapping = clone_renamed(mod, seg, "e%d" % mod.counter)
        mod.counter += 1
        return [l for op in clone for l in op.lines] + [subst(term, mapping)]

    yield_ = yield_of("scf.yield")
    pre = list(hoist)
    kind = rng.choice(["execute_region", "execute_region-blocks", "if", "if",
                       "for", "for", "for", "for-dynamic", "for-i32", "while",
                       "index_switch", "tosa.cond_if", "tosa.while_loop"])
    if kind == "execute_region":
        lines = ['%s"scf.execute_region"() ({' % head] + indent(body + [yield_]) + [
            "}) : %s" % render_fn_type([], out_t)]
    elif kind == "execute_region-blocks":
        lbl = "^bb1"
        k = rng.randint(0, len(seg))
        first = [l for op in seg[:k] for l in op.lines]
        second = [l for op in seg[k:] for l in op.lines]
        lines = (['%s"scf.execute_region"() ({' % head] +
                 indent(first + ['"cf.br"()[%s] : () -> ()' % lbl]) +
                 ["%s:" % lbl] + indent(second + [yield_]) +
                 ["}) : %s" % render_fn_type([], out_t)])
    elif kind == "if":
        c = mod.fresh("c")
        cond = rng.choice(["true", "false"])
        pre.append(Op(['%s = "arith.constant"() <{value = %s}> : () -> i1' % (c, cond)]))
        other = [] if n == 0 and rng.random() < 0.5 else clone_body(yield_)
        lines = (['%s"scf.if"(%s) ({' % (head, c)] + indent(body + [yield_]) +
                 ["}, {"] + indent(other) + ["}) : %s" % render_fn_type(["i1"], out_t)])
        kind = "if-" + cond
    elif kind == "tosa.cond_if":
        c = mod.fresh("c")
        cond = rng.choice(["true", "false"])
        pre.append(Op(['%s = "tosa.const"() <{values = dense<%s> : tensor<i1>}> : () -> tensor<i1>'
                       % (c, cond)]))
        ty = yield_of("tosa.yield")
        lines = (['%s"tosa.cond_if"(%s) ({' % (head, c)] + indent(body + [ty]) +
                 ["}, {"] + indent(clone_body(ty)) +
                 ["}) : %s" % render_fn_type(["tensor<i1>"], out_t)])
    elif kind == "index_switch":
        x = mod.fresh("x")
        cases = sorted(rng.sample(range(-2, 9), rng.randint(0, 3)))
        sel = rng.choice(cases + [99]) if cases else 0
        pre.append(Op(['%s = "arith.constant"() <{value = %d : index}> : () -> index' % (x, sel)]))
        regions = [body + [yield_]] + [clone_body(yield_) for _ in cases]
        lines = ['%s"scf.index_switch"(%s) <{cases = array<i64%s>}> ({' % (
            head, x, (": " + ", ".join(map(str, cases))) if cases else "")]
        for k, r in enumerate(regions):
            if k:
                lines.append("}, {")
            lines += indent(r)
        lines.append("}) : %s" % render_fn_type(["index"], out_t))
        kind = "index_switch-%d" % len(cases)
    elif kind in ("while", "tosa.while_loop"):
        inits = carried_inits(rng, mod, f, lo, outs, out_t, types, pre)
        if inits is None:
            return None
        cond = rng.choice(["true", "false"])
        before = [mod.fresh("bf") for _ in outs]
        after = [mod.fresh("af") for _ in outs]
        c = mod.fresh("c")
        body = [subst(l, dict(zip(inits, after))) for l in body]
        args_b = ", ".join("%s: %s" % x for x in zip(before, out_t))
        args_a = ", ".join("%s: %s" % x for x in zip(after, out_t))
        if kind == "while":
            cregion = ['%s = "arith.constant"() <{value = %s}> : () -> i1' % (c, cond),
                       '"scf.condition"(%s) : (%s) -> ()' % (
                           ", ".join([c] + before), ", ".join(["i1"] + out_t))]
            term = yield_
        else:
            cregion = ['%s = "tosa.const"() <{values = dense<%s> : tensor<i1>}> : () -> tensor<i1>'
                       % (c, cond), '"tosa.yield"(%s) : (tensor<i1>) -> ()' % c]
            term = yield_of("tosa.yield")
        lines = (['%s"%s"(%s) ({' % (head, "scf.while" if kind == "while" else kind,
                                     ", ".join(inits))] +
                 ["^bb0(%s):" % args_b] + indent(cregion) + ["}, {"] +
                 ["^bb0(%s):" % args_a] + indent(body + [term]) +
                 ["}) : %s" % render_fn_type(out_t, out_t)])
        kind += "-" + cond
    else:
        ivt = "index"
        if kind == "for-i32":
            ivt = "i32"
            trips = rng.choice([0, 3, 2**31 - 1])
        else:
            trips = rng.choice([0, 1, 1, 2, 3, 7, 2**40, 2**62])
        lb, ub, st = mod.fresh("lb"), mod.fresh("ub"), mod.fresh("st")
        bounds = [(lb, 0), (ub, trips), (st, 1)]
        if rng.random() < 0.15:
            bounds = [(lb, 5), (ub, 2), (st, 1)]     # upper below lower
            trips = "neg"
        elif rng.random() < 0.1 and ivt == "index":
            # more than 2^63 trips: upper - lower overflows int64
            bounds = [(lb, -2**63 + 1), (ub, 2**63 - 1), (st, rng.choice([1, 2, 3]))]
            trips = "2^64"
        elif rng.random() < 0.15 and trips not in (0, 1):
            bounds = [(lb, 0), (ub, trips), (st, 3)]
        if kind == "for-dynamic":
            # the upper bound is a function argument
            ub = mod.fresh("n")
            f.args.append((ub, "index"))
            bounds = [(lb, 0), (st, 1)]
        pre += [Op(['%s = "arith.constant"() <{value = %d : %s}> : () -> %s' % (x, v, ivt, ivt)])
                for x, v in bounds]
        inits = carried_inits(rng, mod, f, lo, outs, out_t, types, pre)
        if inits is None:
            return None
        iv = mod.fresh("iv")
        iters = [mod.fresh("it") for _ in outs]
        body = [subst(l, dict(zip(inits, iters))) for l in body]
        lines = (['%s"scf.for"(%s) ({' % (head, ", ".join([lb, ub, st] + inits))] +
                 ["^bb0(%s):" % ", ".join(["%s: %s" % (iv, ivt)] + [
                     "%s: %s" % x for x in zip(iters, out_t)])] +
                 indent(body + [yield_]) +
                 ["}) : %s" % render_fn_type([ivt] * 3 + out_t, out_t)])
        if kind == "for":
            kind = "for-%s" % ({2**40: "2^40", 2**62: "2^62"}.get(trips, trips))
        elif trips == "2^64":
            kind += "-2^64"
    f.items[lo:hi] = pre + [Op(lines)]
    replace_uses(f, lo + len(pre) + 1, dict(zip(outs, res)))
    return kind


# Strings for symbol names and locations: quotes, backslashes, control
# characters, Markdown / CSV / JSON specials, multi-byte UTF-8, and lengths
# past the plugin's fixed-size fields (a location is 192 bytes there).
WEIRD_STRINGS = [
    'we\\"ird', "back\\\\slash", "new\\nline", "tab\\tx", "ctl\\01\\1F",
    "pipe|in|md", "comma,in,csv", "<html>&amp;", "{brace}", "%percent%s%n",
    "\u00e9\u00e8\u2211\u4e2d\u6587", "\U0001F600emoji", "x" * 300,
    "\u00e9" * 120, "a.b::c$d-e", " ", "",
]


def m_names(rng, mod):
    """Odd symbol names, locations and opaque type names, in the text."""
    s = rng.choice(WEIRD_STRINGS)
    variant = rng.choice(["func-name", "callee-name", "locations", "type-name"])
    if variant == "callee-name" and not mod.others:
        variant = "locations"
    if variant in ("func-name", "callee-name"):
        old = mod.main.name if variant == "func-name" else rng.choice(mod.others).name
        if not s:
            return None

        def fn(text):
            text = text.replace('sym_name = "%s"' % old, 'sym_name = "%s"' % s)
            return re.sub(r"@%s\b" % re.escape(old), lambda _: '@"%s"' % s, text)
    elif variant == "locations":
        kinds = [
            lambda: 'loc("%s":%d:%d)' % (s, rng.randint(0, 2**31), rng.randint(0, 99)),
            lambda: 'loc("%s")' % s,
            lambda: 'loc("%s"("f.mlir":1:2))' % s,
            lambda: 'loc(fused["%s", "b.py":3:4])' % s,
            lambda: 'loc(callsite("%s" at "c.py":5:6))' % s,
            lambda: "loc(unknown)",
        ]
        seed = rng.random()

        def fn(text):
            r = random.Random(seed)
            out = []
            for line in text.split("\n"):
                st = line.lstrip()
                if (st.startswith(("%", '"', "})")) and " : " in line and
                        not st.startswith(('"func.func"', '"builtin.module"')) and
                        not line.endswith("({") and r.random() < 0.7):
                    line += " " + r.choice(kinds)()
                out.append(line)
            return "\n".join(out)
    else:
        # an unregistered op makes a tensor of a long opaque element type,
        # another reads it, and the function returns it
        name = "!foo." + re.sub(r"[^A-Za-z0-9_]", "_", s or "t") * 2
        t = "tensor<%dx%s>" % (rng.choice([0, 2, 2**40]), name)
        f = mod.main
        u, v = mod.fresh("ty"), mod.fresh("ty")
        p = rng.choice(op_positions(f) + [len(f.items)])
        f.items[p:p] = [Op(['%s = "foo.make"() : () -> %s' % (u, t)]),
                        Op(['%s = "foo.read"(%s) : (%s) -> %s' % (v, u, t, t)])]
        f.rets.append((v, t))
        return variant
    mod.post.append(fn)
    return variant


# Applied in this order when a mutant gets two kinds.
MUTATIONS = [
    ("delete_op", m_delete_op, 10),
    ("truncate", m_truncate, 8),
    ("dynamic_dims", m_dynamic_dims, 12),
    ("unregistered_op", m_unregistered_op, 10),
    ("call", m_call, 10),
    ("scf_wrap", m_scf_wrap, 12),
    ("split_blocks", m_split_blocks, 10),
    ("elem_type", m_elem_type, 12),
    ("extreme_dims", m_extreme_dims, 12),
    ("names", m_names, 6),
]
KIND_NAMES = ["extract"] + [k for k, _, _ in MUTATIONS]

# The plugin runs a mutant is given (run_fuzz.py): the default pipeline
# always, one of these sometimes. {out} is replaced by a scratch path; JSON
# files written there must parse.
EXTRA_RUNS = [
    ("nofusion", ["--pass-pipeline=builtin.module(annotate-latency{fusion=false})"]),
    ("greedy", ["--pass-pipeline=builtin.module(annotate-latency{fusion=greedy})"]),
    ("greedy-report", ["--pass-pipeline=builtin.module(annotate-latency{fusion=greedy "
                       "report={out}.json})"]),
    ("epyc-9654", ["--pass-pipeline=builtin.module(annotate-latency{profile=epyc-9654})"]),
    ("b200", ["--pass-pipeline=builtin.module(annotate-latency{profile=b200})"]),
    ("detect-only", ["--detect-fusion-kernels"]),
    ("inputs", None),
    ("report-json", ["--annotate-latency=report={out}.json trace={out}.trace.json"]),
    ("report-md-csv", ["--pass-pipeline=builtin.module(annotate-latency{report={out}.md "
                       "interpolation=false},annotate-latency{report={out}.csv})"]),
    ("precision", None),
    ("bad-option", None),
]
BAD_OPTIONS = [
    "--annotate-latency=profile=/nonexistent-profile",
    "--annotate-latency=profile=",
    "--annotate-latency=report=/nonexistent-dir/r.json",
    "--annotate-latency=report={out}.txt",
    "--annotate-latency=trace=/nonexistent-dir/t.json",
    "--detect-fusion-kernels=rules=/nonexistent-rules.csv",
    "--detect-fusion-kernels=profile=/nonexistent-profile",
]
RUN_NAMES = ["default"] + [n for n, _ in EXTRA_RUNS]


def extra_run(rng, nargs, name=None):
    """A second plugin run: a random configuration, or the one named."""
    name, args = rng.choice(EXTRA_RUNS) if name is None else (name, dict(EXTRA_RUNS)[name])
    if name == "precision":
        args = ["--pass-pipeline=builtin.module(annotate-latency{precision=%s})" %
                rng.choice(["bf16", "f16", "fp8", "int8", "as-is", "fp4"])]
    elif name == "bad-option":
        args = [rng.choice(BAD_OPTIONS)]
    elif args is None:
        # weights as arguments: argument indices, some out of range
        pool = list(range(nargs)) + [-1, nargs, 99, 2**31]
        idx = [rng.choice(pool) for _ in range(rng.randint(1, 3))]
        args = ["--pass-pipeline=builtin.module(annotate-latency{inputs=%s})" %
                ",".join(map(str, idx))]
    return name, args


class Mutant:
    def __init__(self, seed, index, model, kinds, variants, text, runs, nargs=0):
        self.seed, self.index, self.model = seed, index, model
        self.nargs = nargs              # arguments of the fuzzed function
        self.kinds = kinds              # mutation kinds applied (or ["extract"])
        self.variants = variants        # their variant names
        self.text = text
        self.runs = runs                # [(run name, extra mlir-opt args)]

    def label(self):
        return "+".join(self.kinds)

    def describe(self):
        return "seed %d index %d model %s kinds %s" % (
            self.seed, self.index, self.model,
            ", ".join("%s(%s)" % kv for kv in zip(self.kinds, self.variants)))


def make_mutant(models, seed, index):
    """Mutant `index` of `seed`: deterministic in (seed, index) alone."""
    rng = random.Random("graph-fuzz/%d/%d" % (seed, index))
    names = sorted(models)
    for _attempt in range(20):
        model = rng.choice(names)
        try:
            f = extract(rng, models[model])
        except ValueError:
            continue
        mod = Module(f)
        r = rng.random()
        if r < 0.06:
            chosen = []
        else:
            total = sum(w for _, _, w in MUTATIONS)
            chosen = []
            for _ in range(3 if r > 0.93 else 2 if r > 0.7 else 1):
                x = rng.uniform(0, total)
                for name, fn, w in MUTATIONS:
                    x -= w
                    if x <= 0:
                        chosen.append(name)
                        break
            chosen.sort(key=[k for k, _, _ in MUTATIONS].index)
        kinds, variants = [], []
        ok = True
        for name in chosen:
            fn = dict((k, v) for k, v, _ in MUTATIONS)[name]
            try:
                v = fn(rng, mod)
            except (ValueError, KeyError, IndexError):
                v = None
            if v is None:
                ok = False
                break
            kinds.append(name)
            variants.append(v)
        if not ok:
            continue
        if not kinds:
            kinds, variants = ["extract"], ["window"]
        try:
            text = mod.render()
        except (ValueError, KeyError):
            continue
        runs = [("default", ["--annotate-latency"])]
        if rng.random() < 0.4:
            runs.append(extra_run(rng, len(mod.main.args)))
        header = "// graph fuzz mutant: %s\n" % Mutant(
            seed, index, model, kinds, variants, "", runs).describe()
        return Mutant(seed, index, model, kinds, variants, header + text, runs,
                      len(mod.main.args))
    raise RuntimeError("no mutant for seed %d index %d" % (seed, index))


# --------------------------------------------------------------------------
# Verification with stock mlir-opt, many mutants per process




def check_batch(mlir_opt, texts, workdir, tag, extra=(), env=None, timeout=600):
    """For each text, None if mlir-opt verifies it, else the first error line.

    All texts go into one file split by `// -----`; errors are mapped back to
    texts by line number. If mlir-opt dies (a crash in upstream parsing or
    verification), the batch is split in halves and retried."""
    if not texts:
        return []
    path = os.path.join(workdir, "batch-%s.mlir" % tag)
    starts, line = [], 1
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
        for k, t in enumerate(texts):
            if k:
                fh.write(SPLIT_MARKER + "\n")
                line += 1
            starts.append(line)
            fh.write(t)
            if not t.endswith("\n"):
                fh.write("\n")
                line += 1
            line += t.count("\n")
    cmd = [mlir_opt, "--split-input-file", "--allow-unregistered-dialect",
           "--mlir-disable-threading"] + list(extra) + [path, "-o", os.devnull]
    try:
        p = subprocess.run(cmd, capture_output=True, encoding="utf-8",
                           errors="replace", env=env, timeout=timeout)
        died = None if p.returncode in (0, 1) else "exit %d" % p.returncode
    except subprocess.TimeoutExpired:
        died = "timeout"
    if died:
        if len(texts) == 1:
            return ["mlir-opt without the plugin failed: " + died]
        h = len(texts) // 2
        return (check_batch(mlir_opt, texts[:h], workdir, tag + "a", extra, env, timeout) +
                check_batch(mlir_opt, texts[h:], workdir, tag + "b", extra, env, timeout))
    result = [None] * len(texts)
    unmapped = False
    for line in p.stderr.splitlines():
        if "error:" not in line:
            continue
        # only `<batch file>:line:col: error:` maps to a text; an op's own
        # location (loc("x"), a file:line:col of another file) does not
        m = re.match(re.escape(path) + r":(\d+):\d+: error:", line)
        if not m:
            unmapped = True
            continue
        k = bisect.bisect_right(starts, int(m.group(1))) - 1
        if 0 <= k < len(texts) and result[k] is None:
            result[k] = line
    if unmapped or (p.returncode != 0 and all(r is None for r in result)):
        # errors we cannot place: halve the batch until each text is alone
        if len(texts) == 1:
            errs = [l for l in p.stderr.splitlines() if "error:" in l]
            return [errs[0] if errs else (p.stderr.strip().splitlines() or ["error"])[0]]
        h = len(texts) // 2
        os.unlink(path)
        return (check_batch(mlir_opt, texts[:h], workdir, tag + "a", extra, env, timeout) +
                check_batch(mlir_opt, texts[h:], workdir, tag + "b", extra, env, timeout))
    os.unlink(path)
    return result


def verify_mutants(mlir_opt, mutants, workdir, jobs=2, batch=60):
    """Mutants that stock mlir-opt verifies (order kept)."""
    from concurrent.futures import ThreadPoolExecutor
    chunks = [mutants[i:i + batch] for i in range(0, len(mutants), batch)]
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(
            lambda kc: check_batch(mlir_opt, [m.text for m in kc[1]], workdir,
                                   "verify%d" % kc[0]),
            enumerate(chunks)))
    kept = []
    for chunk, res in zip(chunks, results):
        for m, r in zip(chunk, res):
            m.verify_error = r
            if r is None:
                kept.append(m)
    return kept


def kind_table(generated, kept, variants=False):
    """Rows 'kind generated kept' for every kind (or kind:variant) seen."""
    def keys(m):
        if variants:
            return ["%s:%s" % kv for kv in zip(m.kinds, m.variants)]
        return m.kinds
    gen, kep = collections.Counter(), collections.Counter()
    for m in generated:
        gen.update(set(keys(m)))
    for m in kept:
        kep.update(set(keys(m)))
    order = KIND_NAMES if not variants else sorted(
        gen, key=lambda k: (KIND_NAMES.index(k.split(":")[0]), k))
    w = max([16] + [len(k) for k in gen])
    lines = ["  %-*s %9s %6s %6s" % (w, "kind", "generated", "kept", "kept%")]
    for k in order:
        if gen[k]:
            lines.append("  %-*s %9d %6d %5.0f%%" % (w, k, gen[k], kep[k],
                                                     100.0 * kep[k] / gen[k]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--models", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--index", type=int, help="only this mutant of the seed")
    ap.add_argument("--out", help="write kept mutants (and rejected ones with "
                    "--all) here, one file each")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--print", action="store_true", help="print the mutant(s)")
    ap.add_argument("--variants", action="store_true",
                    help="figures per variant of each kind")
    args = ap.parse_args(argv)
    models = generic_models(args.mlir_opt, args.models)
    idx = [args.index] if args.index is not None else range(args.count)
    mutants = [make_mutant(models, args.seed, i) for i in idx]
    with tempfile.TemporaryDirectory() as tmp:
        kept = verify_mutants(args.mlir_opt, mutants, tmp)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for m in mutants:
            if m in kept or args.all:
                with open(os.path.join(args.out, "s%d-i%d.mlir" % (m.seed, m.index)), "w",
                          encoding="utf-8") as fh:
                    fh.write(m.text)
    if args.print:
        for m in mutants:
            sys.stdout.write(m.text)
            if m.verify_error:
                print("// rejected: " + m.verify_error)
    print("mutants: %d generated, %d kept (verified by stock mlir-opt)" % (
        len(mutants), len(kept)))
    print(kind_table(mutants, kept, args.variants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
