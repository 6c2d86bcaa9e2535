// `edgecompile completion bash` and `edgecompile manpage`: a bash completion script and
// the edgecompile(1) man page, both written from the CLI's own command tree (CLI11's
// subcommands, options and their help), so neither can drift from what the CLI accepts.
// The Debian package installs both (packaging/, CMakeLists.txt's install rules).
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands/commands.h"
#include "core/errors.h"
#include "ec_version.h"

namespace ec::cli {
namespace {

const CLI::App& root_of(const CLI::App& app) {
  const CLI::App* a = &app;
  while (a->get_parent()) a = a->get_parent();
  return *a;
}

// The visible subcommands (a hidden one has an empty group).
std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    out.push_back(sub);
  return out;
}

// Every name of every non-positional option ("-v", "--verbose", "--help").
std::string option_words(const CLI::App& app) {
  std::string words;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty()) continue;
    for (const auto& s : o->get_snames()) words += " -" + s;
    for (const auto& l : o->get_lnames()) words += " --" + l;
  }
  return words.empty() ? words : words.substr(1);
}

std::string join_names(const std::vector<const CLI::App*>& apps) {
  std::string s;
  for (const CLI::App* a : apps) s += (s.empty() ? "" : " ") + a->get_name();
  return s;
}

void write_bash(const CLI::App& root, std::ostream& out) {
  const auto subs = visible_subcommands(root);
  out << "# bash completion for edgecompile " EC_VERSION " (written by `edgecompile completion bash`)\n"
      << "_edgecompile() {\n"
      << "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" cmd=\"\" sub=\"\" opts words i w\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    w=\"${COMP_WORDS[i]}\"\n"
      << "    case \"$cmd:$w\" in\n";
  for (const CLI::App* s : subs) {
    out << "      :" << s->get_name() << ") cmd=" << s->get_name() << " ;;\n";
    for (const CLI::App* n : visible_subcommands(*s))
      out << "      " << s->get_name() << ":" << n->get_name() << ") sub=" << n->get_name() << " ;;\n";
  }
  out << "    esac\n"
      << "  done\n"
      << "  case \"$cmd:$sub\" in\n";
  const std::string global = option_words(root);
  for (const CLI::App* s : subs) {
    const auto nested = visible_subcommands(*s);
    out << "    " << s->get_name() << ":) opts=\"" << option_words(*s) << ' ' << global << "\"; words=\""
        << join_names(nested) << "\" ;;\n";
    for (const CLI::App* n : nested)
      out << "    " << s->get_name() << ":" << n->get_name() << ") opts=\"" << option_words(*n) << ' ' << global
          << "\"; words=\"\" ;;\n";
  }
  out << "    *) opts=\"" << global << "\"; words=\"" << join_names(subs) << "\" ;;\n"
      << "  esac\n"
      << "  if [[ \"$cur\" == -* ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
      << "  else\n"
      << "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
      << "  fi\n"
      << "}\n"
      << "complete -o filenames -o bashdefault -F _edgecompile edgecompile\n";
}

// roff text: backslashes escaped, a line starting with '.' or '\'' protected.
std::string roff(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

void write_options(const CLI::App& app, std::ostream& out) {
  for (const CLI::Option* o : app.get_options()) {
    std::string names;
    if (o->get_lnames().empty() && o->get_snames().empty()) {
      names = "\\fI" + roff(o->get_name()) + "\\fR";  // a positional
    } else {
      for (const auto& s : o->get_snames()) names += (names.empty() ? "" : ", ") + std::string("\\fB\\-") + roff(s) + "\\fR";
      for (const auto& l : o->get_lnames()) names += (names.empty() ? "" : ", ") + std::string("\\fB\\-\\-") + roff(l) + "\\fR";
      if (o->get_type_size() != 0 && !o->get_type_name().empty()) names += " \\fI" + roff(o->get_type_name()) + "\\fR";
    }
    out << ".TP\n" << names << '\n' << roff(o->get_description()) << '\n';
  }
}

void write_man(const CLI::App& root, std::ostream& out) {
  out << ".TH EDGECOMPILE 1 \"\" \"edgecompile " EC_VERSION "\" \"User Commands\"\n"
      << ".SH NAME\nedgecompile \\- compile trained models for edge accelerators and see what the compiler did\n"
      << ".SH SYNOPSIS\n.B edgecompile\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fICOMMAND OPTIONS\\fR] \\fIMODEL\\fR\n.br\n"
      << ".B edgecompile\n\\fIMODEL\\fR \\fB\\-\\-target\\fR \\fITARGET\\fR \\fB\\-\\-output\\fR \\fIFILE\\fR "
         "(the same as \\fBedgecompile compile\\fR)\n"
      << ".SH DESCRIPTION\n" << roff(root.get_description()) << '\n'
      << ".PP\nExit status: 0 on success, 1 when the input is refused (one line on stderr names the file, op or "
         "tensor), 2 for usage errors, 70 for internal errors.\n"
      << ".SH OPTIONS\nThese apply to every command.\n";
  write_options(root, out);
  out << ".SH COMMANDS\n";
  for (const CLI::App* s : visible_subcommands(root)) {
    out << ".SS " << s->get_name() << '\n' << roff(s->get_description()) << '\n';
    write_options(*s, out);
    for (const CLI::App* n : visible_subcommands(*s)) {
      out << ".PP\n\\fB" << s->get_name() << ' ' << n->get_name() << "\\fR: " << roff(n->get_description()) << '\n';
      write_options(*n, out);
    }
  }
  out << ".SH ENVIRONMENT\n.TP\n\\fBEC_RUNS_DB\\fR\nThe run history database (default "
         "$XDG_DATA_HOME/edgecompiler/runs.db).\n"
      << ".TP\n\\fBEC_ISA\\fR\ngeneric, avx2 or avx512: the widest instruction set the CPU runtime's kernels use.\n"
      << ".SH SEE ALSO\n\\fBedgecompiler\\-workbench\\fR(1)\n";
}

}  // namespace

Command add_completion_command(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("completion", "Print a shell completion script: edgecompile completion bash > FILE");
  cmd->add_option("shell", *shell, "The shell (bash)")->required()->check(CLI::IsMember({"bash"}));
  return {cmd, [cmd, shell] {
            write_bash(root_of(*cmd), std::cout);
            return 0;
          }};
}

Command add_manpage_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("manpage", "Print the edgecompile(1) man page (roff)");
  cmd->group("");  // not listed: for packaging
  return {cmd, [cmd] {
            write_man(root_of(*cmd), std::cout);
            return 0;
          }};
}

}  // namespace ec::cli
