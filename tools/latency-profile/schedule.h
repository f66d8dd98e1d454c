/*===- schedule.h - the transform schedule of the vectorized pipeline -----===*/
#ifndef LATENCY_PROFILE_SCHEDULE_H
#define LATENCY_PROFILE_SCHEDULE_H

/// The transform-dialect library (`@__transform_main`) the `vectorized`
/// pipeline preloads: tiles and vectorizes matmuls, batch matmuls and NHWC
/// convolutions, each op with failures suppressed.
extern const char lpVectorizeSchedule[];

#endif /* LATENCY_PROFILE_SCHEDULE_H */
