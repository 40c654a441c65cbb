#pragma once
// envelope collective: one collective on a system, predicted like nccl-tests measures it.
namespace envelope::cli {

// argv[0] is "collective". Returns the process exit code (0, 1 internal, 2 bad input).
int collective_command(int argc, char** argv);

}  // namespace envelope::cli
