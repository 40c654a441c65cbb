#pragma once
// envelope import-hf: a Hugging Face config.json as an Envelope model document.
namespace envelope::cli {

// argv[0] is "import-hf". Returns the process exit code (0, 1 internal, 2 bad input).
int import_hf_command(int argc, char** argv);

}  // namespace envelope::cli
