/// `invoice-loader __reference completion`: the bash completion script,
/// packaging/invoice-loader.bash-completion, from the command table.
///
/// What it offers: the commands and subcommands; after a command, its
/// options and the global ones; after an option, the values of a Choice,
/// files for a FILE/PATH value, directories for a DIR value, nothing for
/// free text.
#include <algorithm>

#include <boost/program_options/cmdline.hpp>
#include <boost/program_options/options_description.hpp>

#include "cli/help.hpp"
#include "cli/reference.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
struct Option
{
  std::vector<std::string> names; ///< "--verbose", "-v"
  bool takes_value = false;       ///< the next word is its value
  std::string value_name;         ///< "FILE", "PATH|URL"
};

std::vector<Option> options_of(po::options_description const &d)
{
  std::vector<Option> r;
  for (auto const &o : d.options())
  {
    Option x;
    x.names.push_back("--" + o->long_name());
    std::string const s{
      o->canonical_display_name(po::command_line_style::allow_dash_for_short)};
    if (s.size() == 2 and s[0] == '-') x.names.push_back(s);
    // An implicit value (--smtp-require-tls[=BOOL]) never takes the next
    // word: only a value written with '='.
    x.takes_value = o->semantic()->min_tokens() > 0;
    x.value_name = o->semantic()->name();
    r.push_back(x);
  }
  return r;
}

/// The words, wrapped at column 79 after the indent, in single quotes.
std::string word_list(std::vector<std::string> const &words,
                      std::size_t first_column, std::size_t indent)
{
  std::string r = "'";
  std::size_t column = first_column + 1;
  for (std::string const &w : words)
  {
    bool const first = r.size() == 1;
    if (not first and column + 1 + w.size() + 5 > help_line_length)
    {
      r += "\n" + std::string(indent, ' ');
      column = indent;
    }
    else if (not first)
      r += ' ', ++column;
    r += w;
    column += w.size();
  }
  return r + "'";
}

std::vector<std::string> names_of(std::vector<Option> const &options)
{
  std::vector<std::string> r;
  for (Option const &o : options)
    r.insert(r.end(), o.names.rbegin(), o.names.rend());
  return r;
}

/// `case $prev in ... esac` completing the options' values.
std::string value_cases(std::vector<Option> const &options,
                        std::vector<Choice> const &choices,
                        std::string const &in)
{
  if (std::none_of(options.begin(), options.end(),
                   [](Option const &o) { return o.takes_value; }))
    return {};
  std::vector<std::string> files, dirs, free;
  std::string r = in + "case $prev in\n";
  for (Option const &o : options)
  {
    if (not o.takes_value) continue;
    std::string const &name = o.names.front();
    auto const c = std::find_if(
      choices.begin(), choices.end(),
      [&](Choice const &x) { return "--" + std::string{x.option} == name; });
    if (c != choices.end())
    {
      std::vector<std::string> const v{c->values.begin(), c->values.end()};
      std::string const head{in + "  " + name + ")\n" + in +
                             "    COMPREPLY=($(compgen -W "};
      r += head +
           word_list(v, head.size() - head.rfind('\n') - 1, in.size() + 6) +
           " -- \"$cur\"))\n" + in + "    return ;;\n";
    }
    else if (o.value_name == "DIR")
      dirs.push_back(name);
    else if (o.value_name == "FILE" or
             o.value_name.find("PATH") != std::string::npos)
      files.push_back(name);
    else
      free.push_back(name);
  }
  auto const group = [&](std::vector<std::string> const &names,
                         std::string const &action) {
    if (names.empty()) return;
    std::string line = in + " ";
    for (std::string const &n : names)
    {
      std::string const piece = " " + n + (&n == &names.back() ? ")" : " |");
      if (line.size() + piece.size() > help_line_length)
        r += line + " \\\n", line = in + " ";
      line += piece;
    }
    r += line + "\n" + in + "    " + action + "\n";
  };
  group(files, "_filedir; return ;;");
  group(dirs, "_filedir -d; return ;;");
  group(free, "return ;; # free text: nothing to offer");
  return r + in + "esac\n";
}

/// The first words of the commands, in table order, and which of them
/// have subcommands.
std::vector<std::string> first_words(bool with_subcommands_only)
{
  std::vector<std::string> r;
  for (CommandSpec const &c : command_table())
  {
    auto const space = c.name.find(' ');
    if (with_subcommands_only and space == std::string_view::npos) continue;
    std::string const w{c.name.substr(0, space)};
    if (std::find(r.begin(), r.end(), w) == r.end()) r.push_back(w);
  }
  return r;
}

std::string subcommands_of(std::string const &word)
{
  std::string r;
  for (CommandSpec const &c : command_table())
    if (c.name.substr(0, c.name.find(' ')) == word and
        c.name.find(' ') != std::string_view::npos)
      r += (r.empty() ? "" : " ") +
           std::string{c.name.substr(c.name.find(' ') + 1)};
  return r;
}

/// The case arm of one command: its option values, then what to offer.
std::string command_arm(CommandSpec const &c,
                        std::vector<std::string> const &global_names)
{
  std::vector<Option> const opts{options_of(c.options())};
  std::string const name{c.name};
  std::string r =
    "    " + (name.find(' ') == std::string::npos ? name : "'" + name + "'") +
    ")\n" + value_cases(opts, c.choices, "      ");
  std::vector<std::string> words{names_of(opts)};
  words.insert(words.end(), global_names.begin(), global_names.end());
  r += "      opts=" + word_list(words, 11, 8) + "\n";
  // `notify` is a command and the first word of `notify resolve`.
  std::string const subs{subcommands_of(name)};
  if (not subs.empty())
    r += "      [[ $cur != -* ]] && opts=\"" + subs + " $opts\"\n";
  return r + "      ;;\n";
}

std::string find_command_part(std::vector<Option> const &global)
{
  std::vector<std::string> with_value;
  for (Option const &o : global)
    if (o.takes_value) with_value.push_back(o.names.front());
  std::string skip;
  for (std::string const &n : with_value)
    skip += (skip.empty() ? "" : " | ") + n;
  std::string groups;
  for (std::string const &w : first_words(true))
    groups += (groups.empty() ? "" : "|") + w;
  return "  # The command (one word, or two: \"source add\"), after the "
         "global options\n  # and their values.\n"
         "  local i=1 cmd='' sub=''\n"
         "  while ((i < cword)); do\n"
         "    case ${words[i]} in\n"
         "      " +
         skip +
         ") ((i += 2)); continue ;;\n"
         "      -*) ((i++)); continue ;;\n"
         "    esac\n"
         "    cmd=${words[i]}\n"
         "    if [[ $cmd == @(" +
         groups +
         ") ]] && ((i + 1 < cword)) &&\n"
         "       [[ ${words[i + 1]} != -* ]]; then\n"
         "      sub=${words[i + 1]}\n"
         "    fi\n"
         "    break\n"
         "  done\n";
}
} // namespace

std::string bash_completion()
{
  std::vector<Option> const global{options_of(global_options())};
  std::vector<std::string> const global_names{names_of(global)};
  std::string r =
    "# bash completion for invoice-loader(1)            -*- shell-script -*-\n"
    "# GENERATED by `invoice-loader __reference completion`\n"
    "# (scripts/gen-reference.sh) from the command table; do not edit by "
    "hand.\n# Installed as share/bash-completion/completions/invoice-"
    "loader; loaded on\n# demand by bash-completion.\n"
    "# COMPREPLY=($(compgen ...)) is the idiom; no word has a blank.\n"
    "# shellcheck shell=bash disable=SC2207\n\n"
    "_invoice_loader()\n{\n  local cur prev words cword\n"
    "  _init_completion -n = || return\n\n" +
    find_command_part(global) + "\n  # Values of the global options.\n" +
    value_cases(global, global_choices(), "  ") +
    "\n  local opts=''\n  case $cmd${sub:+ $sub} in\n    '')\n"
    "      if [[ $cur == -* ]]; then\n        opts=" +
    word_list(global_names, 13, 10) +
    "\n      else\n        opts=" + word_list(first_words(false), 13, 10) +
    "\n      fi ;;\n";
  for (std::string const &w : first_words(true))
  {
    bool const own = std::any_of(
      command_table().begin(), command_table().end(),
      [&](CommandSpec const &c) { return c.name == w; });
    if (not own) r += "    " + w + ") opts='" + subcommands_of(w) + "' ;;\n";
  }
  for (CommandSpec const &c : command_table())
    r += command_arm(c, global_names);
  return r + "  esac\n  COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
             "} &&\n  complete -F _invoice_loader invoice-loader\n";
}
} // namespace loader::cli
