#pragma once
// Numbers as text for messages and warnings, formatted from doubles.
//
// Never through an integer conversion: a size of 1e27 bytes must print as such, not
// wrap to a negative number (std::lround returns a 32-bit long on wasm32).
#include <string>

namespace envelope {

// Up to `digits` significant digits, no trailing zeros: 0.5, 80, 1.23457e+15.
// Infinities and NaN are spelled out ("a number beyond ±1.8e308", "not a number").
std::string format_number(double value, int digits = 6);

// Decimal gigabytes with three significant digits: "17.5 GB", "1.47e+11 GB".
std::string format_gb(double bytes);

}  // namespace envelope
