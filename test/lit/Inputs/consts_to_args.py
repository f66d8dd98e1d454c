"""Rewrites a model so that its weights are function arguments, as exporters
that keep parameters outside the graph write it: every tosa.const /
arith.constant tensor of more than one element in the function bodies
becomes a new argument after the existing ones (splats and scalars stay
constants). Used to check that `inputs=` makes both exports cost the same.

usage: consts_to_args.py model.mlir > model-weights-as-args.mlir
"""
import re
import sys

CONST = re.compile(
    r'^\s*(%[\w.$-]+) = (?:"tosa\.const"\(\)|arith\.constant ).*:\s*(?:\(\) -> )?'
    r'(tensor<([0-9x]+)x?[a-z0-9]+>)\s*$')
FUNC = re.compile(r'^(\s*func\.func (?:(?:public|private) )?@[\w.]+\()(.*?)(\)( ->.*)?\{\s*)$')


def elements(dims):
    n = 1
    for d in dims.split("x"):
        if d:
            n *= int(d)
    return n


def main():
    out, func_line, args, count = [], None, [], 0
    for line in open(sys.argv[1]):
        m = FUNC.match(line)
        if m:
            func_line, args = len(out), []
            out.append(m)
            continue
        c = CONST.match(line)
        if c and func_line is not None and elements(c.group(3)) > 1:
            args.append("%s: %s" % (c.group(1), c.group(2)))
            count += 1
            continue
        if line.strip() == "}" and func_line is not None and line.startswith("  }"):
            m = out[func_line]
            params = m.group(2) + (", " if m.group(2) and args else "") + ", ".join(args)
            out[func_line] = m.group(1) + params + m.group(3)
            func_line = None
        out.append(line)
    sys.stdout.write("".join(out))
    sys.stderr.write("consts_to_args: %d constants made arguments\n" % count)


main()
