#include "settings.h"

namespace cudajudge::detail {

Settings& settings() {
    static Settings instance;
    return instance;
}

}  // namespace cudajudge::detail
