/*===- latency_eval_main.c - hold-out accuracy reports (not yet) -----------===*
 *
 * The hold-out evaluator of docs/architecture.md is issue 5's work; until
 * then this binary states its planned usage and that it does nothing yet.
 *
 *===----------------------------------------------------------------------===*/
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  fputs("usage: latency-eval --profile DIR [--kernel K] "
        "[--holdout F --seed S | --leave-one-out] [--format md|json]\n",
        stdout);
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
    return 0;
  fputs("latency-eval: hold-out evaluation is not implemented yet\n", stderr);
  return 2;
}
