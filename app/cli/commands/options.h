// Option helpers shared by every subcommand, so that each states its values and
// refuses bad ones the same way: a usage error (exit 2) with a message a person
// can read ("--iterations: must be a whole number of at least 1 (got 0)").
#pragma once

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"

namespace ec::cli {

/// A whole number >= `min`. CLI11's own range checks print the bounds as doubles
/// (1.797693e+308 in full), and its NonNegativeNumber takes 2.5 for an int.
inline CLI::Validator whole_number_at_least(long long min) {
  return CLI::Validator(
      [min](std::string& value) -> std::string {
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || errno == ERANGE)
          return "must be a whole number of at least " + std::to_string(min) + " (got '" + value + "')";
        if (v < min) return "must be at least " + std::to_string(min) + " (got " + value + ")";
        return {};
      },
      "INT>=" + std::to_string(min));
}

/// A number in (lo, hi].
inline CLI::Validator number_in(double lo, double hi, const std::string& what) {
  return CLI::Validator(
      [lo, hi, what](std::string& value) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !(v > lo && v <= hi)) return "must be " + what + " (got '" + value + "')";
        return {};
      },
      what);
}

/// The positional MODEL argument's help text, naming every format the frontends read.
inline std::string model_help() { return "Model file (" + frontends::supported_extensions() + ")"; }

/// --threads, the same for every subcommand that runs kernels.
inline void add_threads_option(CLI::App* cmd, int& threads, const std::string& what = "Threads for the kernels") {
  cmd->add_option("--threads", threads, what + " (0 = every core)")->check(whole_number_at_least(0));
}

/// --int8-nchw (run, bench): SessionOptions::int8_channels_last off.
inline void add_int8_nchw_flag(CLI::App* cmd, bool& nchw) {
  cmd->add_flag("--int8-nchw", nchw,
                "Run an int8 graph in its NCHW layout on our own int8 kernels (by default it runs channels-last, "
                "its Convs on oneDNN's VNNI int8 convolutions; the same integers)");
}

/// Refuses an output path that cannot be written before any work is done (kind Io: exit 1).
using flows::check_writable;

}  // namespace ec::cli
