//===- PassWrappers.h - C++ shells around the C passes ----------*- C++ -*-===//
//
// MLIR has no C API to declare pass options or to put a pass in the global
// registry, so each pass is a thin PassWrapper whose Option<> members are
// parsed by MLIR and handed to the C entry points in passes/.
//
//===----------------------------------------------------------------------===//
#ifndef LATENCY_PLUGIN_PASSWRAPPERS_H
#define LATENCY_PLUGIN_PASSWRAPPERS_H

namespace latency {
/// Registers `annotate-latency` and `detect-fusion-kernels` in the global
/// pass registry; safe to call more than once.
void registerLatencyPasses();
} // namespace latency

#endif // LATENCY_PLUGIN_PASSWRAPPERS_H
