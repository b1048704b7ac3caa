// The table of notification sinks (flows/notify_sink.hpp).
#include "flows/notify_sink.hpp"

namespace loader::flows::notify_detail
{
// Each sink's factory, defined in its own file.
std::unique_ptr<Sink> make_webhook_sink(NotifyRequest const &rq,
                                        net::TransferOptions const &transfer);
std::unique_ptr<Sink> make_smtp_sink(NotifyRequest const &rq,
                                     net::TransferOptions const &transfer);

std::vector<SinkKind> const &sink_table()
{
  // Delivery order matters: the at-least-once webhook goes before the
  // at-most-once e-mail.  A row the webhook leaves pending is sent again
  // later; had the mail gone out first, that resend would mail twice.
  static std::vector<SinkKind> const table{
    {"webhook",
     [](NotifyRequest const &rq) { return not rq.webhook_url.empty(); },
     make_webhook_sink},
    {"smtp", [](NotifyRequest const &rq) { return not rq.smtp_url.empty(); },
     make_smtp_sink},
  };
  return table;
}
} // namespace loader::flows::notify_detail
