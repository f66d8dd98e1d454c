#include <stdio.h>
int main(void) { puts("usage: latency-eval"); return 0; }
