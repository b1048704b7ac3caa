#include "flows/source_add.hpp"

#include "core/printable.hpp"
#include "io/file_format.hpp"

namespace loader::flows
{
Result source_add(std::string const &dsn, SourceAddRequest const &request)
{
  db::Database database{dsn};
  db::StoredSource const s{db::add_source(database, request)};
  auto const shown = [](std::optional<std::string> const &v) {
    return v ? printable(*v) : std::string{"-"};
  };
  return {
    Outcome::done,
    "source " + printable(s.name) + ": policy " + s.policy +
      ", max rejected share " + shown(s.max_rejected_share) + ", start date " +
      shown(s.start_date) + ", feed url " + shown(s.feed_url) +
      ", unknown columns " +
      (s.allow_unknown_columns ? "allowed" : "rejected") + ", deadline " +
      shown(s.deadline) + " UTC on D+1, staging kept " +
      std::to_string(s.retention_days) + " days, input limit " +
      (s.max_input_bytes ? std::to_string(*s.max_input_bytes) + " bytes"
                         : std::string{"the loader's"}) +
      ", decompressed limit " +
      (s.max_decompressed_bytes
         ? std::to_string(*s.max_decompressed_bytes) + " bytes"
         : std::string{"20 times the file, at most 10 GiB"}) +
      ", file format " +
      (s.format_version
         ? "version " + std::to_string(*s.format_version) + " (" +
             io::describe(io::parse_format(s.format_json.value_or("{}"))) + ")"
         : io::describe(io::FileFormat{})) +
      (s.require_approval ? ", approval required (four eyes)"
                          : ", no approval required") +
      ", extract " + s.extract +
      (s.extract == "full" ? ", max absent share " + s.max_absent_share
                           : std::string{}) +
      "\n"};
}
} // namespace loader::flows
