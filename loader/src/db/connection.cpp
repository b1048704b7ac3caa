#include "db/session.hpp"

// The Connection: libpqxx over the PGconn db::connect opened, with the
// client-side reply bound (session.cpp opens and classifies; this file
// keeps the session it opened).

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <libpq-events.h>
#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <pqxx/connectionpolicy>
#include <pqxx/except>

#include "core/errors.hpp"

namespace loader::db
{
using ms = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

namespace detail
{
/// Closes the socket under a session that has waited too long for the
/// server (no reply for statement_timeout + reply_grace).  libpq then sees
/// the connection as lost, as it would a reset: the step fails as
/// transient (in doubt during COMMIT) and the retry layer takes over.
/// Written by hand: libpq has no client-side reply timeout.  Progress is
/// every result libpq completes (a libpq event, PGEVT_RESULTCREATE).
class Watchdog
{
public:
  explicit Watchdog(int fd) : m_fd{fd}, m_last{Clock::now()}
  {
    m_thread = std::thread{[this] { watch(); }};
  }
  Watchdog(Watchdog const &) = delete;
  Watchdog &operator=(Watchdog const &) = delete;
  ~Watchdog()
  {
    {
      std::lock_guard<std::mutex> lock{m_mutex};
      m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
  }

  /// Bound on the time without a reply; nullopt: none.
  void set_bound(std::optional<ms> bound)
  {
    {
      std::lock_guard<std::mutex> lock{m_mutex};
      m_bound = bound;
      m_last = Clock::now();
    }
    m_changed.notify_all();
  }

  void progress() noexcept
  {
    std::lock_guard<std::mutex> lock{m_mutex};
    m_last = Clock::now();
  }

  /// The socket is about to be closed: never touch it again.
  void forget_socket() noexcept
  {
    std::lock_guard<std::mutex> lock{m_mutex};
    m_fd = -1;
  }

private:
  void watch()
  {
    std::unique_lock<std::mutex> lock{m_mutex};
    while (not m_stop)
    {
      if (not m_bound or m_fd < 0)
      {
        m_changed.wait(lock);
        continue;
      }
      auto const due = m_last + *m_bound;
      if (Clock::now() < due)
      {
        // Woken early by a change, or the due time moved on (progress):
        // look again.  Progress does not notify, so wake at the old due
        // time at the latest and recompute.
        m_changed.wait_until(lock, due);
        continue;
      }
      ::shutdown(m_fd, SHUT_RDWR);
      m_fd = -1; // once: the connection is gone
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_changed;
  int m_fd;
  std::optional<ms> m_bound;
  Clock::time_point m_last;
  bool m_stop = false;
  std::thread m_thread;
};

/// libpqxx 6.4 cannot take a PGconn it did not open, except through a
/// connection policy: this one hands libpqxx the connection connect()
/// opened (and classified), and refuses libpqxx's own reconnection
/// ("reactivation"), which would be a second, unclassified attempt below
/// the one retry layer.
class AdoptPolicy final : public pqxx::connectionpolicy
{
public:
  AdoptPolicy(PGconn *adopted, Watchdog &watchdog) :
          pqxx::connectionpolicy{std::string{}},
          m_adopted{adopted},
          m_watchdog{watchdog}
  {}
  ~AdoptPolicy() noexcept override
  {
    if (m_adopted) PQfinish(m_adopted);
  }
  handle do_startconnect(handle orig) override
  {
    if (orig) return orig;
    if (not m_adopted)
      throw pqxx::broken_connection{
        "connection lost; reconnecting is left to the retry layer"};
    handle const h{m_adopted};
    m_adopted = nullptr;
    return h;
  }
  handle do_disconnect(handle orig) noexcept override
  {
    m_watchdog.forget_socket();
    if (orig) PQfinish(orig);
    return nullptr;
  }

private:
  PGconn *m_adopted;
  Watchdog &m_watchdog;
};

ConnectionParts::ConnectionParts(PGconn *adopted) :
        watchdog{std::make_unique<Watchdog>(PQsocket(adopted))},
        policy{std::make_unique<AdoptPolicy>(adopted, *watchdog)}
{}
ConnectionParts::~ConnectionParts() = default;
} // namespace detail

namespace
{
int on_libpq_event(PGEventId id, void *, void *pass_through)
{
  if (id == PGEVT_RESULTCREATE)
    static_cast<detail::Watchdog *>(pass_through)->progress();
  return 1;
}
} // namespace

Connection::Connection(PGconn *adopted, ms initial_timeout) :
        detail::ConnectionParts{adopted},
        pqxx::connection_base{*policy},
        m_initial_timeout{initial_timeout}
{
  // The event proc lives as long as the PGconn; the watchdog outlives the
  // PGconn (close() in the destructor runs before the parts go).
  PQregisterEventProc(adopted, on_libpq_event, "invoice-loader watchdog",
                      watchdog.get());
  init();
  bound_replies(initial_timeout);
}

Connection::~Connection() noexcept
{
  close();
}

void Connection::bound_replies(ms statement_timeout)
{
  watchdog->set_bound(statement_timeout > ms{0}
                        ? std::optional<ms>{statement_timeout + reply_grace}
                        : std::nullopt);
}

void Connection::set_statement_timeout(ms timeout)
{
  ms const t{std::max(timeout, ms{0})};
  try
  {
    set_variable("statement_timeout", std::to_string(t.count()));
  }
  catch (...)
  {
    rethrow_classified("setting statement_timeout");
  }
  bound_replies(t);
}

void set_statement_timeout(Connection &cx, ms timeout)
{
  cx.set_statement_timeout(timeout);
}

ms statement_timeout_for(ms remaining_budget, ms configured) noexcept
{
  ms t{remaining_budget};
  if (configured > ms{0}) t = std::min(t, configured);
  return std::max(t, ms{1'000});
}
} // namespace loader::db
