#include "flows/notify_message.hpp"

#include <ctime>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_exact.hpp"
#include "flows/notify.hpp"

namespace loader::flows
{
namespace notify_detail
{
/// A header value on one line: CR, LF and other controls become spaces
/// (a source name must not add a header).
std::string one_header_line(std::string s)
{
  for (char &c : s)
    if (static_cast<unsigned char>(c) < 0x20 or c == 0x7f) c = ' ';
  return s;
}
} // namespace notify_detail

namespace
{
using notify_detail::one_header_line;

/// A payload value as text: strings as they are, null as "-", numbers as
/// written (parse_exact keeps 4200.00).
std::string text_of(nlohmann::ordered_json const &doc, char const *key)
{
  auto const it = doc.find(key);
  if (it == doc.end() or it->is_null()) return "-";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

std::string rfc5322_now()
{
  std::time_t const t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  return buffer;
}
} // namespace

std::string message_id_of(std::string const &key)
{
  static char const hex[] = "0123456789ABCDEF";
  std::string id;
  for (std::size_t i = 0; i < key.size(); ++i)
  {
    unsigned char const c = static_cast<unsigned char>(key[i]);
    bool const plain = (c >= 'a' and c <= 'z') or (c >= 'A' and c <= 'Z') or
                       (c >= '0' and c <= '9') or c == '_' or c == '-';
    // ':' as '.', unless a dot-atom could not have it there.
    bool const dot = c == ':' and i > 0 and i + 1 < key.size() and
                     key[i - 1] != ':' and key[i + 1] != ':';
    if (plain)
      id += static_cast<char>(c);
    else if (dot)
      id += '.';
    else
      id += {'=', hex[c >> 4], hex[c & 15]};
  }
  return "<" + id + "@invoice-loader>";
}

std::string mail_message(std::string const &payload,
                         std::string const &dedupe_key,
                         std::string const &from,
                         std::vector<std::string> const &to)
{
  nlohmann::ordered_json const doc = parse_exact(payload);
  nlohmann::ordered_json const none = nlohmann::ordered_json::object();
  auto const &p = doc.is_object() ? doc : none;
  auto const v = [&p](char const *key) {
    return one_header_line(text_of(p, key));
  };
  std::string to_line;
  for (std::string const &a : to)
    to_line += (to_line.empty() ? "" : ", ") + one_header_line(a);
  std::string const subject{"[invoice-loader] " + v("kind") + ": " +
                            v("source") + " " + v("business_date") +
                            " (batch " + v("batch_id") + ")"};
  std::string m;
  auto const line = [&m](std::string const &s) { m += s + "\r\n"; };
  line("From: " + one_header_line(from));
  line("To: " + to_line);
  line("Subject: " + subject);
  line("Date: " + rfc5322_now());
  line("Message-ID: " + message_id_of(dedupe_key));
  line("X-Invoice-Loader-Dedupe-Key: " + one_header_line(dedupe_key));
  line("MIME-Version: 1.0");
  line("Content-Type: text/plain; charset=utf-8");
  line("Content-Transfer-Encoding: 8bit");
  line("");
  line("invoice-loader notification " + v("notification_id") + ": " +
       v("kind"));
  line("");
  line("Batch:          " + v("batch_id"));
  line("Source:         " + v("source"));
  line("Business date:  " + v("business_date"));
  line("Kind:           " + v("kind"));
  line("Records:        " + v("record_count"));
  line("Control total:  " + v("control_total"));
  // A file of several currencies has its totals per currency instead.
  auto const per = p.find("control_totals");
  if (per != p.end() and per->is_object())
  {
    std::string totals;
    for (auto const &[code, amount] : per->items())
      totals += (totals.empty() ? "" : ", ") + one_header_line(code) + " " +
                one_header_line(amount.is_string() ? amount.get<std::string>()
                                                   : amount.dump());
    line("Per currency:   " + totals);
  }
  line("Accepted:       " + v("accepted_count"));
  line("Rejected:       " + v("rejected_count"));
  line("Published at:   " + v("published_at"));
  line("Dedupe key:     " + one_header_line(dedupe_key));
  line("");
  line("Details: invoice-loader status --batch " + v("batch_id"));
  return m;
}
} // namespace loader::flows
