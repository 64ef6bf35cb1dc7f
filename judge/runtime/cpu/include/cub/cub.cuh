// <cub/cub.cuh> brings CUB's device-wide algorithms, which the judge does not run yet (the policy
// refuses this header before a build); the block and warp primitives have headers of their own.
#pragma once
#error "<cub/cub.cuh> is not supported: include the block- or warp-level header you use, e.g. <cub/block/block_reduce.cuh>"
