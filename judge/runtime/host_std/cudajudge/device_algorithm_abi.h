/* One device-wide algorithm call (CUB's Device* or Thrust's), as the host-side API hands it to the
 * backend: the CPU runtime runs it sequentially, the GPU runtime passes it to the judge's harness,
 * which runs it with the judge's kernels on the submission's stream. Plain C, mirrored by a ctypes structure. */
#pragma once

#include <stddef.h>

enum cudajudge_item_type {
    CUDAJUDGE_T_NONE, CUDAJUDGE_T_I8, CUDAJUDGE_T_U8, CUDAJUDGE_T_I16, CUDAJUDGE_T_U16, CUDAJUDGE_T_I32,
    CUDAJUDGE_T_U32, CUDAJUDGE_T_I64, CUDAJUDGE_T_U64, CUDAJUDGE_T_F32, CUDAJUDGE_T_F64
};

enum cudajudge_algorithm_kind {
    CUDAJUDGE_ALGO_REDUCE = 1,      /* op(init, in[0..n)) -> *result */
    CUDAJUDGE_ALGO_ARG_REDUCE,      /* first index of the min (op MIN) or max (op MAX) -> *result (int64) */
    CUDAJUDGE_ALGO_SCAN,            /* in -> out, inclusive or exclusive (seeded with init) */
    CUDAJUDGE_ALGO_RADIX_SORT,      /* in -> out by bits [begin_bit, end_bit) of the keys, stable; values too */
    CUDAJUDGE_ALGO_SORT,            /* out[0..n) sorted in place by value (<, or > when descending), stable; values too */
    CUDAJUDGE_ALGO_SELECT_FLAGGED,  /* in[i] where aux[i] != 0 -> out, their count -> *result */
    CUDAJUDGE_ALGO_UNIQUE,          /* the first of each run of equal items -> out, their count -> *result */
    CUDAJUDGE_ALGO_RUN_LENGTH,      /* each run's item -> out, its length -> aux_out, the run count -> *result */
    CUDAJUDGE_ALGO_HISTOGRAM_EVEN,  /* counts of in over num_levels - 1 even bins of [lower, upper) -> aux_out */
    CUDAJUDGE_ALGO_SEGMENTED_REDUCE,/* out[s] = op(init, in[aux[s]..aux_end[s])) for s < num_segments */
    CUDAJUDGE_ALGO_FILL,            /* out[0..n) = init */
    CUDAJUDGE_ALGO_SEQUENCE,        /* out[i] = init + i * step */
    CUDAJUDGE_ALGO_COUNT,           /* how many in[i] == init -> *result (int64) */
    CUDAJUDGE_ALGO_COPY             /* in -> out */
};

enum cudajudge_algorithm_op { CUDAJUDGE_OP_NONE, CUDAJUDGE_OP_SUM, CUDAJUDGE_OP_MIN, CUDAJUDGE_OP_MAX };

struct cudajudge_algorithm_call {
    const char* name;        /* as the user calls it, e.g. "cub::DeviceReduce::Sum" */
    const char* refusal;     /* non-null: the call is refused for this reason (recorded as the user's error) */
    int line;                /* the call's line in the user's file */
    int kind;                /* cudajudge_algorithm_kind */
    int op;                  /* cudajudge_algorithm_op */
    int item_type;           /* of in, out and init (keys, samples) */
    int value_bytes;         /* sorts with values: the size of one value; else 0 */
    int aux_type;            /* of aux/aux_end (flags, offsets) or aux_out (run lengths, histogram counters) */
    int result_type;         /* of *result */
    int result_on_host;      /* 1: result points to host memory, 0: to device memory */
    int descending;
    int exclusive;
    int begin_bit, end_bit;
    long long num_items;
    long long num_segments;  /* segmented reduce: segments; histogram: levels */
    const void* in;
    void* out;
    const void* values_in;
    void* values_out;
    const void* aux;
    const void* aux_end;
    void* aux_out;
    void* result;
    void* temp;              /* CUB's d_temp_storage, or null */
    size_t temp_bytes;       /* the bytes of it the call uses (its size query's answer) */
    unsigned char init[8];   /* an item_type value: init, fill value, sequence start, counted value */
    unsigned char step[8];   /* an item_type value: the sequence step */
    double lower, upper;     /* histogram levels */
};

#ifdef __cplusplus
extern "C"
#endif
int cudajudge_device_algorithm(const struct cudajudge_algorithm_call* call);
