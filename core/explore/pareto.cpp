#include "explore/pareto.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace envelope {

std::vector<std::size_t> pareto_front(std::size_t n, const std::function<double(std::size_t)>& x,
                                      const std::function<double(std::size_t)>& y) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return x(a) < x(b) || (x(a) == x(b) && y(a) < y(b));
    });
    // After sorting by x then y, a point is dominated exactly when an earlier one has y no
    // larger (an earlier point has x no larger; equal in both: the earlier is kept).
    std::vector<std::size_t> front;
    double best_y = std::numeric_limits<double>::infinity();
    for (std::size_t i : order) {
        if (y(i) < best_y) {
            front.push_back(i);
            best_y = y(i);
        }
    }
    return front;
}

}  // namespace envelope
