/*===- latency/column_walk.h - a loop-lowered matmul's weight column -------===*
 *
 * A matmul lowered to plain loops (`latency-profile`'s `loops` pipeline)
 * runs k innermost: every output element walks one column of the weight, k
 * elements a row's width apart. The next output element walks the next
 * column, on the same cache lines, so the walk is as fast as the cache the
 * column stays in between the two. Whether it stays depends on the cache's
 * sets more than its size: a power-of-two row width maps every element of
 * the column to a few sets (n = 1024 f32: one set of L1's 64), where a
 * column of 13 lines already overflows a 12-way L1. Measured on the
 * project's EPYC VM through `loops`: 0.45-0.6 ns per multiply-add when the
 * column stays in L1, 0.5-1.5 in L2, 2-3 beyond (docs/profiling.md, "The
 * column walk").
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_COLUMN_WALK_H
#define LATENCY_COLUMN_WALK_H

#ifdef __cplusplus
extern "C" {
#endif

/// A host's data caches: size and ways of L1 and L2, line size, in bytes
/// (device.csv `l1d_bytes`, `l1d_ways`, `l2_bytes`, `l2_ways`,
/// `cache_line_bytes`).
typedef struct {
  double l1Bytes, l1Ways; /* L1 data cache: bytes, ways         */
  double l2Bytes, l2Ways; /* L2: bytes, ways                    */
  double lineBytes;       /* line size of both                  */
} CmCacheGeometry;

/// Returns the cache level a column of `k` elements `strideBytes` apart
/// stays in: 1 (L1), 2 (L2) or 3 (beyond), the first whose busiest set gets
/// no more of the column's lines than it has ways; 0 when the geometry or
/// the shape is not usable (ways not a whole number in [1, 64], a line not
/// one in [16, 4096], sets not one in [1, 16384], k < 1, a span k x stride
/// of 2^52 bytes or more). Counts at most sets x ways elements per cache;
/// allocates nothing.
int cmColumnWalkLevel(const CmCacheGeometry *geometry, double k,
                      double strideBytes);

/// Returns how many of L1's sets a column of `k` elements `strideBytes`
/// apart falls in (1 to the set count): once the column spills L1, the
/// fewer sets it crowds, the slower its walk from L2 (n = 512 f32, 2 sets:
/// 1.4 ns per multiply-add on the project's VM; n = 1000, every set: 0.6).
/// 0 under the same conditions as cmColumnWalkLevel. Counts at most sets x
/// ways elements; allocates nothing.
double cmColumnWalkL1Sets(const CmCacheGeometry *geometry, double k,
                          double strideBytes);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_COLUMN_WALK_H */
