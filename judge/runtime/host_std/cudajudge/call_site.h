// The line of the user's call, as a defaulted last parameter that no argument of theirs can bind to:
// the judge's CUB and Thrust (host and CPU device code alike) name the user's line in messages.
#pragma once

namespace cudajudge {
struct CallSite {
    int value;
};
}  // namespace cudajudge

#define CUDAJUDGE_CALL_SITE ::cudajudge::CallSite site = {__builtin_LINE()}
