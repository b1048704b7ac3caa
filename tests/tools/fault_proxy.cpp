// fault_proxy: a loopback TCP proxy between a PostgreSQL client and the
// server that injects connection faults on demand, for the fault-injection
// suite.  The fault mode is one line in a control file that the proxy
// re-reads all the time; tests/tools/README.md documents the modes.
//
// One thread, one poll() loop.  Only the client->server stream is parsed
// (startup packet, then type byte + int32 length messages), and only to
// find simple-query COMMITs; everything else is forwarded byte for byte.
// The proxy binds 127.0.0.1 or ::1 only and connects only to the given
// unix socket or to a loopback TCP address.

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace
{
/// Most bytes held per direction before the proxy stops reading a side.
constexpr std::size_t buffer_cap = 256 * 1024;
/// Bytes read from one socket at a time.
constexpr std::size_t read_chunk = 64 * 1024;
/// Longest poll() wait: how often the control file is re-read when idle.
constexpr int tick_ms = 50;
/// A 'Q' message still looking like "COMMIT   ..." is held back until it is
/// complete; past this many bytes of text it is taken as not a COMMIT.
constexpr std::size_t max_commit_text = 1024;

// Special startup-phase request codes (PostgreSQL protocol 3.0).
constexpr std::uint32_t cancel_request_code = 80877102;
constexpr std::uint32_t ssl_request_code = 80877103;
constexpr std::uint32_t gssenc_request_code = 80877104;
/// PostgreSQL's own limit (MAX_STARTUP_PACKET_LENGTH).
constexpr std::uint32_t max_startup_length = 10000;

constexpr int exit_usage = 64; ///< EX_USAGE
constexpr int exit_oserr = 71; ///< EX_OSERR

volatile std::sig_atomic_t g_signal = 0;

void on_signal(int sig)
{
  g_signal = sig;
}

// --- logging -------------------------------------------------------------

int g_log_fd = STDERR_FILENO;

std::string timestamp()
{
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  tm utc{};
  ::gmtime_r(&ts.tv_sec, &utc);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &utc);
  std::string ms{std::to_string(ts.tv_nsec / 1000000)};
  ms.insert(0, 3 - ms.size(), '0');
  return std::string{when} + "." + ms + "Z";
}

/// Write one timestamped line with a single write(), so lines of several
/// writers appending to one file stay whole.
void log_line(std::string const &text)
{
  static std::string const who{" fault_proxy[" + std::to_string(::getpid()) +
                               "]: "};
  std::string const line{timestamp() + who + text + "\n"};
  std::size_t done = 0;
  while (done < line.size())
  {
    ssize_t const n{::write(g_log_fd, line.data() + done, line.size() - done)};
    if (n < 0)
    {
      if (errno == EINTR) continue;
      return;
    }
    done += static_cast<std::size_t>(n);
  }
}

std::string error_text(int err)
{
  return std::strerror(err);
}

bool would_block(int err) noexcept
{
  return err == EAGAIN or err == EWOULDBLOCK or err == EINTR;
}

// --- fault modes ---------------------------------------------------------

enum class Kind
{
  pass,
  close_after_bytes,
  drop_commit_request,
  drop_commit_reply,
  stall,
  blackhole,
  refuse
};

constexpr Kind all_kinds[] = {Kind::pass,
                              Kind::close_after_bytes,
                              Kind::drop_commit_request,
                              Kind::drop_commit_reply,
                              Kind::stall,
                              Kind::blackhole,
                              Kind::refuse};

std::string_view name_of(Kind k) noexcept
{
  switch (k)
  {
  case Kind::pass: return "pass";
  case Kind::close_after_bytes: return "close_after_bytes";
  case Kind::drop_commit_request: return "drop_commit_request";
  case Kind::drop_commit_reply: return "drop_commit_reply";
  case Kind::stall: return "stall";
  case Kind::blackhole: return "blackhole";
  case Kind::refuse: return "refuse";
  }
  return "?";
}

/// One line of the control file, parsed.
struct Mode
{
  Kind kind = Kind::pass;
  std::uint64_t bytes = 0; ///< The N of close_after_bytes.
  bool once = false;       ///< Fault one connection, then act as pass.
  /// drop_commit_*: only the COMMIT of a transaction in which the client
  /// sent these bytes (e.g. "publish_batch"); empty = any COMMIT.
  std::string after;
};

std::string describe(Mode const &m)
{
  std::string text{m.once ? "once:" : ""};
  text += name_of(m.kind);
  if (m.kind == Kind::close_after_bytes) text += " " + std::to_string(m.bytes);
  if (not m.after.empty()) text += " after " + m.after;
  return text;
}

bool is_space(char c) noexcept
{
  return c == ' ' or c == '\t' or c == '\n' or c == '\r' or c == '\f' or
         c == '\v';
}

std::string_view trim(std::string_view s) noexcept
{
  while (not s.empty() and is_space(s.front())) s.remove_prefix(1);
  while (not s.empty() and is_space(s.back())) s.remove_suffix(1);
  return s;
}

template<typename Number>
std::optional<Number> parse_number(std::string_view s)
{
  Number value{};
  if (s.empty()) return std::nullopt;
  auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc{} or end != s.data() + s.size()) return std::nullopt;
  return value;
}

/// Parse "pass", "close_after_bytes 1000", "once:drop_commit_reply", ...
std::optional<Mode> parse_mode(std::string_view line)
{
  Mode m;
  constexpr std::string_view once_prefix{"once:"};
  line = trim(line);
  if (line.substr(0, once_prefix.size()) == once_prefix)
  {
    m.once = true;
    line.remove_prefix(once_prefix.size());
  }
  std::size_t const space{line.find_first_of(" \t")};
  std::string_view const word{line.substr(0, space)};
  std::string_view const arg{
    space == std::string_view::npos ? "" : trim(line.substr(space))};
  bool known = false;
  for (Kind const k : all_kinds)
    if (word == name_of(k))
    {
      m.kind = k;
      known = true;
    }
  if (not known) return std::nullopt;
  if (m.kind == Kind::close_after_bytes)
  {
    auto const n{parse_number<std::uint64_t>(arg)};
    if (not n) return std::nullopt;
    m.bytes = *n;
  }
  else if ((m.kind == Kind::drop_commit_request or
            m.kind == Kind::drop_commit_reply) and
           not arg.empty())
  {
    constexpr std::string_view after{"after "};
    if (arg.substr(0, after.size()) != after) return std::nullopt;
    m.after = std::string{trim(arg.substr(after.size()))};
    if (m.after.empty()) return std::nullopt;
  }
  else if (not arg.empty()) { return std::nullopt; }
  return m;
}

enum class Verdict
{
  no,
  maybe,
  yes
};

/// Is the text of a 'Q' message COMMIT (any case, optional leading and
/// trailing whitespace and semicolons)?  `complete` says whether `text` is
/// the whole message body, including its terminating NUL; if not, the
/// answer may be "maybe".  END, COMMIT WORK and COMMIT PREPARED are not
/// matched.
Verdict commit_verdict(std::string_view text, bool complete) noexcept
{
  if (complete)
  {
    if (text.empty() or text.back() != '\0') return Verdict::no;
    text.remove_suffix(1);
  }
  std::size_t i = 0;
  while (i < text.size() and is_space(text[i])) ++i;
  for (char const want : std::string_view{"commit"})
  {
    if (i == text.size()) return complete ? Verdict::no : Verdict::maybe;
    char const got{text[i]};
    if (got != want and got != want - 'a' + 'A') return Verdict::no;
    ++i;
  }
  for (; i < text.size(); ++i)
    if (text[i] != ';' and not is_space(text[i])) return Verdict::no;
  return complete ? Verdict::yes : Verdict::maybe;
}

std::uint32_t read_be32(std::string const &buf, std::size_t at) noexcept
{
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i)
    v = (v << 8) | static_cast<unsigned char>(buf[at + i]);
  return v;
}

// --- addresses -----------------------------------------------------------

/// A socket address the proxy may bind or connect to.
struct Endpoint
{
  sockaddr_storage addr{};
  socklen_t len = 0;
  int family = AF_UNSPEC;
  std::string text;
};

sockaddr *sa(sockaddr_storage &ss) noexcept
{
  return reinterpret_cast<sockaddr *>(&ss);
}

std::string address_text(sockaddr_storage const &ss)
{
  char host[INET6_ADDRSTRLEN] = "?";
  std::uint16_t port = 0;
  if (ss.ss_family == AF_INET)
  {
    auto const &sin{reinterpret_cast<sockaddr_in const &>(ss)};
    ::inet_ntop(AF_INET, &sin.sin_addr, host, sizeof host);
    port = ntohs(sin.sin_port);
    return std::string{host} + ":" + std::to_string(port);
  }
  if (ss.ss_family == AF_INET6)
  {
    auto const &sin6{reinterpret_cast<sockaddr_in6 const &>(ss)};
    ::inet_ntop(AF_INET6, &sin6.sin6_addr, host, sizeof host);
    port = ntohs(sin6.sin6_port);
    return "[" + std::string{host} + "]:" + std::to_string(port);
  }
  return "?";
}

/// Parse HOST:PORT (or a bare PORT when `bare_port` is allowed, meaning
/// 127.0.0.1).  HOST may be 127.0.0.1, [::1] or localhost; with `any_127`
/// any 127.0.0.0/8 address too.  Anything else is refused: the proxy never
/// touches a non-loopback address.
std::optional<Endpoint> parse_loopback(std::string_view spec, bool bare_port,
                                       bool any_127, bool zero_port,
                                       std::string &error)
{
  std::string_view host, port;
  if (bare_port and parse_number<std::uint16_t>(spec))
  {
    host = "127.0.0.1";
    port = spec;
  }
  else if (not spec.empty() and spec.front() == '[')
  {
    std::size_t const close{spec.find(']')};
    if (close == std::string_view::npos or close + 1 >= spec.size() or
        spec[close + 1] != ':')
    {
      error = "expected [::1]:PORT";
      return std::nullopt;
    }
    host = spec.substr(1, close - 1);
    port = spec.substr(close + 2);
  }
  else
  {
    std::size_t const colon{spec.rfind(':')};
    if (colon == std::string_view::npos)
    {
      error = "expected HOST:PORT";
      return std::nullopt;
    }
    host = spec.substr(0, colon);
    port = spec.substr(colon + 1);
  }
  auto const number{parse_number<std::uint16_t>(port)};
  if (not number or (*number == 0 and not zero_port))
  {
    error = "bad port '" + std::string{port} + "'";
    return std::nullopt;
  }
  if (host == "localhost") host = "127.0.0.1";

  Endpoint ep;
  std::string const h{host};
  in_addr v4{};
  in6_addr v6{};
  if (::inet_pton(AF_INET, h.c_str(), &v4) == 1)
  {
    std::uint32_t const a{ntohl(v4.s_addr)};
    if (any_127 ? (a >> 24) != 127 : a != INADDR_LOOPBACK)
    {
      error = h + " is not " + (any_127 ? "a loopback address" : "127.0.0.1");
      return std::nullopt;
    }
    sockaddr_in sin{};
    sin.sin_family = AF_INET;
    sin.sin_port = htons(*number);
    sin.sin_addr = v4;
    std::memcpy(&ep.addr, &sin, sizeof sin);
    ep.len = sizeof sin;
    ep.family = AF_INET;
  }
  else if (::inet_pton(AF_INET6, h.c_str(), &v6) == 1)
  {
    if (std::memcmp(&v6, &in6addr_loopback, sizeof v6) != 0)
    {
      error = h + " is not ::1";
      return std::nullopt;
    }
    sockaddr_in6 sin6{};
    sin6.sin6_family = AF_INET6;
    sin6.sin6_port = htons(*number);
    sin6.sin6_addr = v6;
    std::memcpy(&ep.addr, &sin6, sizeof sin6);
    ep.len = sizeof sin6;
    ep.family = AF_INET6;
  }
  else
  {
    error = "'" + h + "' is not a loopback address";
    return std::nullopt;
  }
  ep.text = address_text(ep.addr);
  return ep;
}

std::optional<Endpoint> unix_endpoint(std::string const &path,
                                      std::string &error)
{
  sockaddr_un sun{};
  if (path.empty() or path.size() >= sizeof sun.sun_path)
  {
    error = "unix socket path is empty or too long";
    return std::nullopt;
  }
  sun.sun_family = AF_UNIX;
  std::memcpy(sun.sun_path, path.c_str(), path.size() + 1);
  Endpoint ep;
  std::memcpy(&ep.addr, &sun, sizeof sun);
  ep.len = sizeof sun;
  ep.family = AF_UNIX;
  ep.text = path;
  return ep;
}

void set_int_option(int fd, int level, int name, int value) noexcept
{
  ::setsockopt(fd, level, name, &value, sizeof value);
}

/// Close `fd`; with `reset` (TCP only) abortively, so the peer gets a RST.
void close_fd(int &fd, bool reset) noexcept
{
  if (fd < 0) return;
  if (reset)
  {
    linger const abortive{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
  }
  ::close(fd);
  fd = -1;
}

/// Wait (at most ~100 ms) until the kernel has sent what was written to a
/// TCP socket: a RST discards unsent data.
void drain_tcp(int fd) noexcept
{
  for (int i = 0; i < 100; ++i)
  {
    int queued = 0;
    if (::ioctl(fd, SIOCOUTQ, &queued) != 0 or queued <= 0) return;
    ::usleep(1000);
  }
}

// --- options -------------------------------------------------------------

struct Options
{
  std::string listen;
  std::string upstream_unix;
  std::string upstream_tcp;
  std::string control;
  std::string log;
  unsigned exit_after = 0; ///< Seconds; 0 means run until signalled.
};

constexpr char const usage[] =
  "usage: fault_proxy --listen [127.0.0.1:|[::1]:]PORT\n"
  "                   (--upstream-unix PATH | --upstream-tcp HOST:PORT)\n"
  "                   --control FILE [--log FILE] [--exit-after SECONDS]\n"
  "\n"
  "A loopback TCP proxy to PostgreSQL that injects faults.  FILE holds\n"
  "one line: pass | close_after_bytes N | drop_commit_request |\n"
  "drop_commit_reply | stall | blackhole | refuse, optionally prefixed\n"
  "with once: (see tests/tools/README.md).  PORT 0 picks a free port;\n"
  "the log says which.  SIGTERM or SIGINT stop it (exit status 0).\n";

/// Parse argv; nullopt means exit with `status` (0 for --help).
std::optional<Options> parse_options(int argc, char **argv, int &status)
{
  Options o;
  std::string exit_after;
  status = exit_usage;
  for (int i = 1; i < argc; ++i)
  {
    std::string arg{argv[i]};
    if (arg == "--help" or arg == "-h")
    {
      std::cout << usage;
      status = 0;
      return std::nullopt;
    }
    std::string value;
    std::size_t const eq{arg.find('=')};
    if (arg.rfind("--", 0) == 0 and eq != std::string::npos)
    {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    else if (i + 1 < argc) { value = argv[++i]; }
    else
    {
      std::cerr << "fault_proxy: " << arg << " needs a value\n" << usage;
      return std::nullopt;
    }
    if (arg == "--listen")
      o.listen = value;
    else if (arg == "--upstream-unix")
      o.upstream_unix = value;
    else if (arg == "--upstream-tcp")
      o.upstream_tcp = value;
    else if (arg == "--control")
      o.control = value;
    else if (arg == "--log")
      o.log = value;
    else if (arg == "--exit-after")
      exit_after = value;
    else
    {
      std::cerr << "fault_proxy: unknown option " << arg << "\n" << usage;
      return std::nullopt;
    }
  }
  if (o.listen.empty() or o.control.empty() or
      o.upstream_unix.empty() == o.upstream_tcp.empty())
  {
    std::cerr << "fault_proxy: --listen, --control and exactly one of "
                 "--upstream-unix and --upstream-tcp are required\n"
              << usage;
    return std::nullopt;
  }
  if (not exit_after.empty())
  {
    auto const seconds{parse_number<unsigned>(exit_after)};
    if (not seconds)
    {
      std::cerr << "fault_proxy: bad --exit-after '" << exit_after << "'\n";
      return std::nullopt;
    }
    o.exit_after = *seconds;
  }
  return o;
}

// --- the proxy -----------------------------------------------------------

/// One client connection and its upstream connection.
struct Conn
{
  enum class Up
  {
    none,
    connecting,
    open
  };
  enum class Phase
  {
    startup,
    messages,
    opaque,
    stopped
  };
  enum class View
  {
    forwarding,
    stalled,
    blackholed
  };

  std::uint64_t id = 0;
  std::string peer;
  int client = -1;
  int upstream = -1;
  Up up = Up::none;

  std::string c2s;       ///< From the client, not yet written upstream.
  std::size_t ready = 0; ///< Leading bytes of c2s that may be written.
  std::string s2c;       ///< For the client, not yet written to it.
  std::uint64_t c2s_in = 0, c2s_sent = 0, s2c_in = 0, s2c_sent = 0;

  /// Parser of the client stream: where it is, and how many bytes of the
  /// current packet it has still to let through unexamined.
  Phase phase = Phase::startup;
  std::uint64_t body_left = 0;

  /// drop_commit_request: stream offset of the withheld COMMIT; the
  /// connection is reset once everything before it has been written.
  std::optional<std::uint64_t> commit_cut;
  /// drop_commit_reply: stream offset just past the forwarded COMMIT; once
  /// written, the next server bytes are the reply to drop.
  std::optional<std::uint64_t> commit_end;
  /// The bytes of the mode's "after" were seen since the last COMMIT.
  bool after_seen = false;

  bool client_eof = false, up_eof = false;
  bool client_shut = false, up_shut = false;
  bool black = false;          ///< Bytes were swallowed: never forward.
  std::uint64_t stall_pin = 0; ///< once:stall generation holding it.
  View view = View::forwarding;
  short cev = 0, uev = 0; ///< poll() results of this round.
  bool dead = false;
};

enum class End
{
  graceful,
  reset_both,
  reset_client
};

class Proxy
{
public:
  Proxy(Options opt, Endpoint upstream, int listener, std::string listening) :
          m_opt{std::move(opt)},
          m_upstream{std::move(upstream)},
          m_listener{listener},
          m_listening{std::move(listening)}
  {}

  int run();

private:
  void refresh_control();
  Kind effective(Conn const &c) const;
  void accept_all();
  void admit(int fd, std::string peer);
  void service(Conn &c);
  void swallow(Conn &c);
  bool start_upstream(Conn &c);
  void finish_connect(Conn &c);
  void read_client(Conn &c);
  void read_upstream(Conn &c);
  void parse(Conn &c);
  void flush(Conn &c);
  std::optional<std::uint64_t> cut_point(Conn const &c) const;
  std::size_t sendable(Conn const &c) const;
  short client_events(Conn const &c, Kind k) const;
  short upstream_events(Conn const &c, Kind k) const;
  void end(Conn &c, End how, std::string const &why);
  void say(Conn const &c, std::string const &text) const;
  std::string mode_text() const;

  Options m_opt;
  Endpoint m_upstream;
  int m_listener;
  std::string m_listening;
  std::vector<std::unique_ptr<Conn>> m_conns;
  std::uint64_t m_last_id = 0;
  std::chrono::steady_clock::time_point m_listen_resume{};

  Mode m_mode;                    ///< The control file's current line.
  std::uint64_t m_generation = 1; ///< Bumped whenever the file changes.
  bool m_once_spent = false;      ///< A once: fault fired this generation.
  std::string m_control_key;      ///< What the file looked like last time.
};

void Proxy::say(Conn const &c, std::string const &text) const
{
  log_line("conn " + std::to_string(c.id) + ": " + text);
}

std::string Proxy::mode_text() const
{
  return describe(m_mode) + (m_mode.once and m_once_spent ? " (spent)" : "");
}

/// Re-read the control file.  A missing file means pass; an empty one is
/// ignored (a writer is half-way through "echo mode > FILE"); a line that
/// does not parse is logged and ignored.  Any change of content or of the
/// file's inode or times starts a new generation, which re-arms once: and
/// releases connections held by once:stall.
void Proxy::refresh_control()
{
  int const fd{::open(m_opt.control.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd < 0)
  {
    int const err{errno};
    std::string const key{"<" + error_text(err) + ">"};
    if (key == m_control_key) return;
    m_control_key = key;
    if (err != ENOENT)
    {
      log_line("control: cannot read " + m_opt.control + ": " +
               error_text(err) + "; keeping " + mode_text());
      return;
    }
    m_mode = Mode{};
    ++m_generation;
    m_once_spent = false;
    log_line("control: " + m_opt.control + " does not exist: pass");
    return;
  }
  struct stat st
  {};
  ::fstat(fd, &st);
  char buf[512];
  ssize_t const n{::read(fd, buf, sizeof buf)};
  ::close(fd);
  if (n < 0) return;
  std::string_view content{buf, static_cast<std::size_t>(n)};
  content = trim(content.substr(0, content.find('\n')));
  if (content.empty()) return;
  std::string const key{std::string{content} + "|" +
                        std::to_string(st.st_ino) + "|" +
                        std::to_string(st.st_mtim.tv_sec) + "." +
                        std::to_string(st.st_mtim.tv_nsec) + "|" +
                        std::to_string(st.st_ctim.tv_sec) + "." +
                        std::to_string(st.st_ctim.tv_nsec)};
  if (key == m_control_key) return;
  m_control_key = key;
  auto const mode{parse_mode(content)};
  if (not mode)
  {
    log_line("control: ignoring invalid line '" + std::string{content} +
             "'; keeping " + mode_text());
    return;
  }
  m_mode = *mode;
  ++m_generation;
  m_once_spent = false;
  log_line("control: mode " + describe(m_mode));
}

/// The mode that applies to `c` right now.  refuse only turns away new
/// connections; once: stall/blackhole/refuse apply to the next new
/// connection only (see admit()).
Kind Proxy::effective(Conn const &c) const
{
  if (c.black) return Kind::blackhole;
  if (c.stall_pin == m_generation) return Kind::stall;
  if (m_mode.once and m_once_spent) return Kind::pass;
  switch (m_mode.kind)
  {
  case Kind::refuse: return Kind::pass;
  case Kind::stall:
  case Kind::blackhole: return m_mode.once ? Kind::pass : m_mode.kind;
  default: return m_mode.kind;
  }
}

void Proxy::accept_all()
{
  for (;;)
  {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    int const fd{
      ::accept4(m_listener, sa(ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC)};
    if (fd >= 0)
    {
      admit(fd, address_text(ss));
      continue;
    }
    int const err{errno};
    if (err == ECONNABORTED) continue;
    if (would_block(err)) return;
    log_line("accept failed: " + error_text(err) + "; pausing 100 ms");
    m_listen_resume = std::chrono::steady_clock::now() +
                      std::chrono::milliseconds{100};
    return;
  }
}

void Proxy::admit(int fd, std::string peer)
{
  refresh_control();
  auto owned{std::make_unique<Conn>()};
  Conn &c{*owned};
  c.id = ++m_last_id;
  c.client = fd;
  c.peer = std::move(peer);
  set_int_option(fd, IPPROTO_TCP, TCP_NODELAY, 1);
  say(c, "accepted from " + c.peer + "; mode " + mode_text() + "; " +
           std::to_string(m_conns.size() + 1) + " open");

  bool const armed{m_mode.once and not m_once_spent};
  if (m_mode.kind == Kind::refuse and (armed or not m_mode.once))
  {
    if (armed) m_once_spent = true;
    end(c, End::reset_client, "fault refuse: reset at once");
    return;
  }
  if (armed and m_mode.kind == Kind::stall)
  {
    c.stall_pin = m_generation;
    m_once_spent = true;
  }
  else if (armed and m_mode.kind == Kind::blackhole)
  {
    c.black = true;
    m_once_spent = true;
  }
  m_conns.push_back(std::move(owned));
}

bool Proxy::start_upstream(Conn &c)
{
  int const fd{::socket(m_upstream.family,
                        SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)};
  if (fd < 0)
  {
    end(c, End::reset_client, "upstream socket: " + error_text(errno));
    return false;
  }
  c.upstream = fd;
  if (m_upstream.family != AF_UNIX)
    set_int_option(fd, IPPROTO_TCP, TCP_NODELAY, 1);
  if (::connect(fd, sa(m_upstream.addr), m_upstream.len) == 0)
  {
    c.up = Conn::Up::open;
    return true;
  }
  if (errno == EINPROGRESS)
  {
    c.up = Conn::Up::connecting;
    return true;
  }
  end(c, End::reset_client,
      "cannot connect to " + m_upstream.text + ": " + error_text(errno));
  return false;
}

void Proxy::finish_connect(Conn &c)
{
  int err = 0;
  socklen_t len = sizeof err;
  if (::getsockopt(c.upstream, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
    err = errno;
  if (err != 0)
  {
    end(c, End::reset_client,
        "cannot connect to " + m_upstream.text + ": " + error_text(err));
    return;
  }
  c.up = Conn::Up::open;
}

/// Where the client stream must stop and both sides be reset, if anywhere:
/// before a withheld COMMIT, or after close_after_bytes N bytes.
std::optional<std::uint64_t> Proxy::cut_point(Conn const &c) const
{
  std::optional<std::uint64_t> cut{c.commit_cut};
  if (effective(c) == Kind::close_after_bytes and
      (not cut or m_mode.bytes < *cut))
    cut = m_mode.bytes;
  return cut;
}

std::size_t Proxy::sendable(Conn const &c) const
{
  if (c.up != Conn::Up::open or c.up_shut) return 0;
  std::uint64_t n{c.ready};
  if (auto const cut{cut_point(c)})
    n = std::min<std::uint64_t>(n, *cut > c.c2s_sent ? *cut - c.c2s_sent : 0);
  return static_cast<std::size_t>(n);
}

short Proxy::client_events(Conn const &c, Kind k) const
{
  if (k == Kind::stall) return 0;
  int ev = 0;
  if (not c.client_eof and (k == Kind::blackhole or c.c2s.size() < buffer_cap))
    ev |= POLLIN;
  if (k != Kind::blackhole and not c.s2c.empty()) ev |= POLLOUT;
  return static_cast<short>(ev);
}

short Proxy::upstream_events(Conn const &c, Kind k) const
{
  if (k == Kind::stall or c.up == Conn::Up::none) return 0;
  if (c.up == Conn::Up::connecting)
    return k == Kind::blackhole ? 0 : static_cast<short>(POLLOUT);
  int ev = 0;
  if (not c.up_eof and (k == Kind::blackhole or c.s2c.size() < buffer_cap))
    ev |= POLLIN;
  if (k != Kind::blackhole and sendable(c) > 0) ev |= POLLOUT;
  return static_cast<short>(ev);
}

/// Close both sides, log why with the byte counts, and forget `c`.
void Proxy::end(Conn &c, End how, std::string const &why)
{
  bool const tcp_up{m_upstream.family != AF_UNIX};
  if (how == End::reset_both and tcp_up and c.up == Conn::Up::open)
    drain_tcp(c.upstream);
  close_fd(c.upstream, how == End::reset_both and tcp_up);
  close_fd(c.client, how != End::graceful);
  say(c, why + " [client->server " + std::to_string(c.c2s_sent) + " of " +
           std::to_string(c.c2s_in) + " bytes, server->client " +
           std::to_string(c.s2c_sent) + " of " + std::to_string(c.s2c_in) +
           "]");
  c.dead = true;
}

/// Parse what is new in c.c2s and move c.ready past every byte that may
/// be forwarded.  A 'Q' message that may be a COMMIT is held back until
/// it is complete, then dealt with as the mode says.
void Proxy::parse(Conn &c)
{
  for (;;)
  {
    std::size_t const avail{c.c2s.size() - c.ready};
    if (c.phase == Conn::Phase::stopped) return;
    if (c.phase == Conn::Phase::opaque)
    {
      c.ready = c.c2s.size();
      return;
    }
    if (c.body_left > 0)
    {
      std::size_t const take{
        static_cast<std::size_t>(std::min<std::uint64_t>(avail, c.body_left))};
      c.ready += take;
      c.body_left -= take;
      if (c.body_left > 0) return;
      continue;
    }
    if (c.phase == Conn::Phase::startup)
    {
      // Startup packet, SSLRequest, GSSENCRequest, CancelRequest: int32
      // length, int32 code, no type byte.
      if (avail < 8) return;
      std::uint32_t const len{read_be32(c.c2s, c.ready)};
      std::uint32_t const code{read_be32(c.c2s, c.ready + 4)};
      if (len < 8 or len > max_startup_length)
      {
        say(c, "unexpected startup packet; forwarding blindly from now on");
        c.phase = Conn::Phase::opaque;
        continue;
      }
      if (len == 8 and
          (code == ssl_request_code or code == gssenc_request_code))
      {
        // Answer "not supported" ourselves: the stream stays plain and
        // parseable.  libpq then goes on without encryption, unless
        // sslmode=require, which fails.
        c.c2s.erase(c.ready, 8);
        c.s2c.push_back('N');
        ++c.s2c_in;
        say(c, std::string{code == ssl_request_code ? "SSLRequest"
                                                    : "GSSENCRequest"} +
                 " answered 'N'");
        continue;
      }
      c.body_left = len;
      c.phase = code == cancel_request_code ? Conn::Phase::opaque
                                            : Conn::Phase::messages;
      if (code == cancel_request_code) say(c, "CancelRequest forwarded");
      continue;
    }
    // Regular message: type byte, int32 length counting itself, body.
    if (avail < 5) return;
    char const type{c.c2s[c.ready]};
    std::uint32_t const len{read_be32(c.c2s, c.ready + 1)};
    if (len < 4)
    {
      say(c, "malformed message; forwarding blindly from now on");
      c.phase = Conn::Phase::opaque;
      continue;
    }
    std::uint64_t const total{std::uint64_t{len} + 1};
    if (type != 'Q')
    {
      c.body_left = total;
      continue;
    }
    bool const complete{avail >= total};
    std::size_t const text_len{
      static_cast<std::size_t>(std::min<std::uint64_t>(avail, total)) - 5};
    Verdict v{commit_verdict(
      std::string_view{c.c2s}.substr(c.ready + 5, text_len), complete)};
    if (v == Verdict::maybe and text_len > max_commit_text) v = Verdict::no;
    if (v == Verdict::maybe) return;
    if (v == Verdict::yes)
    {
      bool const targeted{m_mode.after.empty() or c.after_seen};
      c.after_seen = false;
      Kind const k{targeted ? effective(c) : Kind::pass};
      if (k == Kind::drop_commit_request)
      {
        if (m_mode.once) m_once_spent = true;
        c.commit_cut = c.c2s_sent + c.ready;
        c.phase = Conn::Phase::stopped;
        say(c, "fault drop_commit_request: COMMIT withheld from the server");
        return;
      }
      if (k == Kind::drop_commit_reply and not c.commit_end)
      {
        if (m_mode.once) m_once_spent = true;
        c.commit_end = c.c2s_sent + c.ready + total;
        say(c, "fault drop_commit_reply: COMMIT forwarded; its reply will "
               "be dropped");
      }
    }
    c.body_left = total;
  }
}

void Proxy::read_client(Conn &c)
{
  char buf[read_chunk];
  ssize_t const n{::recv(c.client, buf, sizeof buf, 0)};
  if (n > 0)
  {
    auto const got{static_cast<std::size_t>(n)};
    c.c2s_in += got;
    c.c2s.append(buf, got);
    if (not m_mode.after.empty() and not c.after_seen)
    {
      // Search the new bytes and the tail before them (a split match).
      std::size_t const overlap{m_mode.after.size() - 1};
      std::size_t const from{
        c.c2s.size() - got > overlap ? c.c2s.size() - got - overlap : 0};
      c.after_seen = c.c2s.find(m_mode.after, from) != std::string::npos;
    }
    parse(c);
    return;
  }
  if (n == 0)
  {
    c.client_eof = true;
    // What is held back can never complete now: let it through.
    if (c.phase != Conn::Phase::stopped) c.ready = c.c2s.size();
    return;
  }
  if (would_block(errno)) return;
  end(c, End::reset_both,
      "client read failed: " + error_text(errno) + "; reset both sides");
}

void Proxy::read_upstream(Conn &c)
{
  char buf[read_chunk];
  ssize_t const n{::recv(c.upstream, buf, sizeof buf, 0)};
  if (n > 0)
  {
    auto const got{static_cast<std::size_t>(n)};
    c.s2c_in += got;
    if (c.commit_end and c.c2s_sent >= *c.commit_end)
    {
      // The server has received the COMMIT and answered: it committed (or
      // failed to) and the client will never know which.
      end(c, End::reset_client,
          "fault drop_commit_reply: dropped " + std::to_string(got) +
            " reply bytes, reset the client");
      return;
    }
    c.s2c.append(buf, got);
    return;
  }
  if (n == 0)
  {
    c.up_eof = true;
    return;
  }
  if (would_block(errno)) return;
  end(c, End::reset_both,
      "upstream read failed: " + error_text(errno) + "; reset both sides");
}

void Proxy::flush(Conn &c)
{
  if (std::size_t const n{sendable(c)}; n > 0)
  {
    ssize_t const sent{::send(c.upstream, c.c2s.data(), n, MSG_NOSIGNAL)};
    if (sent < 0 and not would_block(errno))
    {
      end(c, End::reset_both,
          "upstream write failed: " + error_text(errno) +
            "; reset both sides");
      return;
    }
    if (sent > 0)
    {
      auto const k{static_cast<std::size_t>(sent)};
      c.c2s.erase(0, k);
      c.ready -= k;
      c.c2s_sent += k;
    }
  }
  if (not c.s2c.empty())
  {
    ssize_t const sent{
      ::send(c.client, c.s2c.data(), c.s2c.size(), MSG_NOSIGNAL)};
    if (sent < 0 and not would_block(errno))
    {
      end(c, End::reset_both,
          "client write failed: " + error_text(errno) + "; reset both sides");
      return;
    }
    if (sent > 0)
    {
      auto const k{static_cast<std::size_t>(sent)};
      c.s2c.erase(0, k);
      c.s2c_sent += k;
    }
  }

  if (auto const cut{cut_point(c)}; cut and c.c2s_sent >= *cut)
  {
    if (c.commit_cut and c.c2s_sent >= *c.commit_cut)
    {
      end(c, End::reset_both,
          "fault drop_commit_request: reset both sides, the server never "
          "saw the COMMIT");
      return;
    }
    if (m_mode.once) m_once_spent = true;
    end(c, End::reset_both,
        "fault close_after_bytes " + std::to_string(m_mode.bytes) +
          ": reset both sides");
    return;
  }

  // Pass half-closes on once the data before them is through.
  if (c.client_eof and c.c2s.empty() and not c.up_shut)
  {
    if (c.up == Conn::Up::none)
    {
      end(c, End::graceful, "closed by the client before any upstream");
      return;
    }
    if (c.up == Conn::Up::open)
    {
      ::shutdown(c.upstream, SHUT_WR);
      c.up_shut = true;
    }
  }
  if (c.up_eof and c.s2c.empty() and not c.client_shut)
  {
    ::shutdown(c.client, SHUT_WR);
    c.client_shut = true;
  }
  if (c.client_eof and c.up_eof and c.c2s.empty() and c.s2c.empty())
    end(c, End::graceful, "closed by both sides");
}

/// blackhole: read and discard what either side sends; forward nothing.
void Proxy::swallow(Conn &c)
{
  char buf[read_chunk];
  if (c.cev != 0 and not c.client_eof)
  {
    ssize_t const n{::recv(c.client, buf, sizeof buf, 0)};
    if (n > 0)
    {
      c.c2s_in += static_cast<std::size_t>(n);
      c.black = true;
    }
    else if (n == 0 or not would_block(errno))
    {
      end(c, End::graceful, "closed by the client (black hole)");
      return;
    }
  }
  if (c.uev != 0 and c.up == Conn::Up::open and not c.up_eof)
  {
    ssize_t const n{::recv(c.upstream, buf, sizeof buf, 0)};
    if (n > 0)
    {
      c.s2c_in += static_cast<std::size_t>(n);
      c.black = true;
    }
    else if (n == 0 or not would_block(errno)) { c.up_eof = true; }
  }
}

void Proxy::service(Conn &c)
{
  Kind const k{effective(c)};
  Conn::View const view{k == Kind::stall       ? Conn::View::stalled
                        : k == Kind::blackhole ? Conn::View::blackholed
                                               : Conn::View::forwarding};
  if (view != c.view)
  {
    c.view = view;
    say(c, view == Conn::View::stalled
             ? "fault stall: nothing is read or written"
           : view == Conn::View::blackholed
             ? "fault blackhole: bytes are read and discarded"
             : "forwarding again");
  }
  if (k == Kind::stall) return;
  if (k == Kind::blackhole)
  {
    swallow(c);
    return;
  }
  if (c.up == Conn::Up::none and not start_upstream(c)) return;
  if (c.up == Conn::Up::connecting and c.uev != 0)
  {
    finish_connect(c);
    if (c.dead) return;
    c.uev = 0;
  }
  // Until the upstream is connected, client bytes just queue up.
  if (c.cev != 0 and not c.client_eof) read_client(c);
  if (c.dead) return;
  if (c.uev != 0 and c.up == Conn::Up::open and not c.up_eof) read_upstream(c);
  if (c.dead) return;
  flush(c);
}

int Proxy::run()
{
  log_line("listening on " + m_listening + ", upstream " + m_upstream.text +
           ", control " + m_opt.control);
  refresh_control();
  auto const started{std::chrono::steady_clock::now()};
  std::vector<pollfd> fds;
  std::vector<std::pair<Conn *, bool>> slots;
  while (g_signal == 0)
  {
    auto const now{std::chrono::steady_clock::now()};
    if (m_opt.exit_after > 0 and
        now - started >= std::chrono::seconds{m_opt.exit_after})
    {
      log_line("--exit-after " + std::to_string(m_opt.exit_after) +
               " s reached");
      break;
    }
    fds.clear();
    slots.clear();
    bool const listening{now >= m_listen_resume};
    fds.push_back(pollfd{m_listener, listening ? short{POLLIN} : short{0}, 0});
    for (auto const &owned : m_conns)
    {
      Conn &c{*owned};
      Kind const k{effective(c)};
      c.cev = c.uev = 0;
      if (short const ev{client_events(c, k)}; ev != 0)
      {
        fds.push_back(pollfd{c.client, ev, 0});
        slots.emplace_back(&c, false);
      }
      if (short const ev{upstream_events(c, k)}; ev != 0)
      {
        fds.push_back(pollfd{c.upstream, ev, 0});
        slots.emplace_back(&c, true);
      }
    }
    int const ready{::poll(fds.data(), fds.size(), tick_ms)};
    if (ready < 0 and errno != EINTR)
    {
      log_line("poll failed: " + error_text(errno));
      return exit_oserr;
    }
    if (g_signal != 0) break;
    for (std::size_t i = 1; ready > 0 and i < fds.size(); ++i)
    {
      auto const [c, up] = slots[i - 1];
      (up ? c->uev : c->cev) = fds[i].revents;
    }
    // Read the control file before acting on any byte: a mode written
    // before the client sent something applies to it.
    refresh_control();
    if (ready > 0 and (fds[0].revents & POLLIN) != 0) accept_all();
    for (std::size_t i = 0; i < m_conns.size(); ++i) service(*m_conns[i]);
    m_conns.erase(std::remove_if(m_conns.begin(), m_conns.end(),
                                 [](auto const &c) { return c->dead; }),
                  m_conns.end());
  }
  if (g_signal != 0)
    log_line("stopping on signal " + std::to_string(g_signal) + ", closing " +
             std::to_string(m_conns.size()) + " connection(s)");
  for (auto const &c : m_conns)
    end(*c, End::graceful, "closed: the proxy is stopping");
  m_conns.clear();
  ::close(m_listener);
  log_line("stopped");
  return 0;
}

int make_listener(Endpoint &ep, std::string &error)
{
  int const fd{
    ::socket(ep.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)};
  if (fd < 0)
  {
    error = "socket: " + error_text(errno);
    return -1;
  }
  set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1);
  if (ep.family == AF_INET6) set_int_option(fd, IPPROTO_IPV6, IPV6_V6ONLY, 1);
  if (::bind(fd, sa(ep.addr), ep.len) != 0 or ::listen(fd, 128) != 0)
  {
    error = "cannot listen on " + ep.text + ": " + error_text(errno);
    ::close(fd);
    return -1;
  }
  socklen_t len = sizeof ep.addr;
  ::getsockname(fd, sa(ep.addr), &len);
  ep.text = address_text(ep.addr);
  return fd;
}
} // namespace

int main(int argc, char **argv)
{
  int status = 0;
  auto opt{parse_options(argc, argv, status)};
  if (not opt) return status;

  std::string error;
  auto listen_ep{parse_loopback(opt->listen, true, false, true, error)};
  if (not listen_ep)
  {
    std::cerr << "fault_proxy: --listen " << opt->listen << ": " << error
              << " (only 127.0.0.1 and ::1 may be bound)\n";
    return exit_usage;
  }
  auto upstream{
    opt->upstream_unix.empty()
      ? parse_loopback(opt->upstream_tcp, false, true, false, error)
      : unix_endpoint(opt->upstream_unix, error)};
  if (not upstream)
  {
    std::cerr << "fault_proxy: upstream: " << error
              << " (only loopback addresses or a unix socket)\n";
    return exit_usage;
  }
  if (not opt->log.empty())
  {
    int const fd{::open(opt->log.c_str(),
                        O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)};
    if (fd < 0)
    {
      std::cerr << "fault_proxy: cannot open --log " << opt->log << ": "
                << std::strerror(errno) << "\n";
      return exit_usage;
    }
    g_log_fd = fd;
  }

  struct sigaction act
  {};
  act.sa_handler = on_signal;
  sigemptyset(&act.sa_mask);
  act.sa_flags = 0; // no SA_RESTART: poll() returns EINTR at once
  ::sigaction(SIGTERM, &act, nullptr);
  ::sigaction(SIGINT, &act, nullptr);
  ::signal(SIGPIPE, SIG_IGN);

  int const listener{make_listener(*listen_ep, error)};
  if (listener < 0)
  {
    log_line(error);
    if (g_log_fd != STDERR_FILENO)
      std::cerr << "fault_proxy: " << error << "\n";
    return exit_oserr;
  }
  Proxy proxy{std::move(*opt), std::move(*upstream), listener,
              listen_ep->text};
  return proxy.run();
}
