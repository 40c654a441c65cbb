#include "common/format.hpp"

#include <cmath>
#include <cstdio>

namespace envelope {

std::string format_number(double value, int digits) {
    if (std::isnan(value)) return "not a number";
    if (std::isinf(value)) {
        return value > 0 ? "a number beyond +1.8e308" : "a number beyond -1.8e308";
    }
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

std::string format_gb(double bytes) { return format_number(bytes / 1e9, 3) + " GB"; }

}  // namespace envelope
