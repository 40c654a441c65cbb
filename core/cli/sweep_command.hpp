#pragma once
// envelope sweep: an inference scenario evaluated along one axis (cli/sweep_command.cpp).
namespace envelope::cli {

// argv[0] is "sweep". Returns the exit code.
int sweep_command(int argc, char** argv);

}  // namespace envelope::cli
