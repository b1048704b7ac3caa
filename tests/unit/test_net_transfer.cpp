// net/ against the real loopback servers of tests/tools (http_server.py,
// smtp_server.py).  Tagged [.http]: hidden from the plain unit run; ctest
// runs them as net.transfer when python3 is installed (tests/CMakeLists).
// The cases tagged [unit][net] need no server (a refused port, file://,
// the spool checks) and run with the other unit tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.hpp"
#include "io/sha256.hpp"
#include "net/transport.hpp"

extern char **environ;

namespace fs = std::filesystem;
using loader::ErrorKind;
using loader::net::TransportError;

namespace
{
std::string const tools_dir = TOOLS_DIR;

/// A fresh directory under $TMPDIR, removed at the end of the test.
struct TempDir
{
  fs::path path;
  TempDir()
  {
    std::string tmpl =
      (fs::temp_directory_path() / "net-test-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) FAIL("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir()
  {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write_file(fs::path const &p, std::string const &content)
{
  std::ofstream out{p, std::ios::binary | std::ios::trunc};
  out << content;
}

std::string read_file(fs::path const &p)
{
  std::ifstream in{p, std::ios::binary};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string sha256_of(std::string const &s)
{
  loader::io::Sha256 h;
  h.update(s.data(), s.size());
  return h.hex();
}

/// One of the python servers, killed (SIGTERM) at the end of the test.  It
/// stops by itself after 120 s in any case (--lifetime).
class Server
{
public:
  explicit Server(std::vector<std::string> args)
  {
    int fds[2];
    if (::pipe(fds) != 0) FAIL("pipe failed");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    args.insert(args.begin(), "python3");
    args.emplace_back("--lifetime");
    args.emplace_back("120");
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int const rc = ::posix_spawnp(&m_pid, "python3", &fa, nullptr, argv.data(),
                                  environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(fds[1]);
    if (rc != 0)
    {
      ::close(fds[0]);
      FAIL("cannot start python3");
    }
    // The first line is the port; a server that dies gives EOF.
    std::string line;
    char c = 0;
    while (::read(fds[0], &c, 1) == 1 and c != '\n') line += c;
    ::close(fds[0]);
    if (line.empty()) FAIL("the test server did not start");
    m_port = std::stoi(line);
  }
  Server(Server const &) = delete;
  Server &operator=(Server const &) = delete;
  ~Server()
  {
    ::kill(m_pid, SIGTERM);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
  }
  int port() const noexcept { return m_port; }

private:
  pid_t m_pid = -1;
  int m_port = 0;
};

class Http
{
public:
  explicit Http(std::string const &script = "{}", bool tls = false,
                std::string const &tls_dir = {}) :
          m_server{args(script, tls, tls_dir)},
          m_base{std::string{tls ? "https" : "http"} +
                 "://127.0.0.1:" + std::to_string(m_server.port())}
  {}
  fs::path const &root() const { return m_root.path; }
  std::string url(std::string const &path) const { return m_base + path; }
  /// Requests the server saw for path (its /_count endpoint).
  int count(std::string const &path,
            loader::net::TransferOptions const &o = {}) const
  {
    auto const r = loader::net::post(url("/_count?path=" + path), "", {}, o);
    REQUIRE(r.http_status == 200);
    return std::stoi(r.body_head);
  }
  std::string requests(std::string const &path,
                       loader::net::TransferOptions const &o = {}) const
  {
    return loader::net::post(url("/_requests?path=" + path), "", {}, o)
      .body_head;
  }

private:
  std::vector<std::string> args(std::string const &script, bool tls,
                                std::string const &tls_dir)
  {
    std::vector<std::string> a{tools_dir + "/http_server.py", "--root",
                               m_root.path.string(), "--script", script};
    if (tls)
    {
      a.emplace_back("--tls");
      a.emplace_back("--tls-dir");
      a.push_back(tls_dir);
    }
    return a;
  }
  TempDir m_root; // before m_server: exists while it runs
  Server m_server;
  std::string m_base;
};

/// The files in the spool, sidecars and temporaries included.
std::vector<std::string> spool_files(fs::path const &dir)
{
  std::vector<std::string> out;
  if (not fs::exists(dir)) return out;
  for (auto const &e : fs::directory_iterator{dir})
    out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

template<typename F> TransportError transport_error(F &&f)
{
  try
  {
    f();
  }
  catch (TransportError const &e)
  {
    return e;
  }
  FAIL("no TransportError thrown");
  throw;
}

loader::net::DownloadOptions quick()
{
  loader::net::DownloadOptions o;
  o.transfer.connect_timeout = std::chrono::milliseconds{5000};
  o.transfer.low_speed_time = std::chrono::seconds{2};
  return o;
}

std::string const day =
  "invoice_number,issue_date,gross\nA-1,2026-11-30,10.00\n"
  "A-2,2026-11-30,20.00\n";
} // namespace

TEST_CASE("download: a 503 throws transient after one request; the caller "
          "retries",
          "[.http][net]")
{
  Http http{R"({"/day3.csv": ["503", "503", "200"]})"};
  write_file(http.root() / "day3.csv", day);
  TempDir spool;
  for (int call = 1; call <= 2; ++call)
  {
    CAPTURE(call);
    auto const e = transport_error([&] {
      loader::net::download(http.url("/day3.csv"), spool.path, quick());
    });
    CHECK(e.kind == ErrorKind::transient);
    CHECK(e.http_status == 503);
    CHECK_FALSE(e.not_delivered);
    // One request per call: nothing below the caller retried.
    CHECK(http.count("/day3.csv") == call);
    CHECK(spool_files(spool.path).empty());
  }
  auto const d = loader::net::download(http.url("/day3.csv"), spool.path,
                                       quick());
  CHECK(http.count("/day3.csv") == 3);
  CHECK(d.http_status == 200);
  CHECK(d.sha256 == sha256_of(day));
  CHECK(d.size == day.size());
  CHECK(d.path == (spool.path / d.sha256).string());
  CHECK(read_file(d.path) == day);
  CHECK_FALSE(d.not_modified);
}

TEST_CASE("download: a body cut in the middle is transient and leaves no "
          "file",
          "[.http][net]")
{
  Http http{R"({"/day.csv": ["cut"]})"};
  write_file(http.root() / "day.csv", day);
  TempDir spool;
  auto const e = transport_error(
    [&] { loader::net::download(http.url("/day.csv"), spool.path, quick()); });
  CHECK(e.kind == ErrorKind::transient);
  CHECK(e.curl_code == 18); // CURLE_PARTIAL_FILE
  CHECK(spool_files(spool.path).empty());
  CHECK(http.count("/day.csv") == 1);

  auto const d = loader::net::download(http.url("/day.csv"), spool.path,
                                       quick());
  CHECK(d.sha256 == sha256_of(day));
  CHECK(read_file(d.path) == day);
}

TEST_CASE("download: a changed file gets a new hash; an unchanged one a 304",
          "[.http][net]")
{
  Http http;
  write_file(http.root() / "day.csv", day);
  TempDir spool;
  auto const first = loader::net::download(http.url("/day.csv"), spool.path,
                                           quick());
  CHECK_FALSE(first.etag.empty());
  CHECK_FALSE(first.last_modified.empty());

  SECTION("unchanged: 304, no body, the earlier file")
  {
    auto const again = loader::net::download(http.url("/day.csv"), spool.path,
                                             quick());
    CHECK(again.not_modified);
    CHECK(again.http_status == 304);
    CHECK(again.sha256 == first.sha256);
    CHECK(again.path == first.path);
    CHECK(again.etag == first.etag);
    auto const log = http.requests("/day.csv");
    CHECK(log.find(R"("If-None-Match": )" + loader::json_quote(first.etag)) !=
          std::string::npos);
    CHECK(log.find(R"("status": 304, "bytes": 0)") != std::string::npos);
    CHECK(http.count("/day.csv") == 2);
  }
  SECTION("changed: a new hash, a new file, the old one untouched")
  {
    std::string const v2 = day + "A-3,2026-11-30,30.00\n";
    write_file(http.root() / "day.csv", v2);
    auto const second = loader::net::download(http.url("/day.csv"), spool.path,
                                              quick());
    CHECK_FALSE(second.not_modified);
    CHECK(second.sha256 == sha256_of(v2));
    CHECK(second.sha256 != first.sha256);
    CHECK(read_file(second.path) == v2);
    CHECK(read_file(first.path) == day);
  }
  SECTION("the spooled file gone: an unconditional GET")
  {
    fs::remove(first.path);
    auto const again = loader::net::download(http.url("/day.csv"), spool.path,
                                             quick());
    CHECK_FALSE(again.not_modified);
    CHECK(again.http_status == 200);
    CHECK(read_file(again.path) == day);
  }
  SECTION("a sidecar that names no spooled file by its hash is ignored")
  {
    int sidecars = 0;
    for (auto const &e : fs::directory_iterator{spool.path})
      if (e.path().extension() == ".meta")
      {
        ++sidecars;
        write_file(e.path(), "sha256=../" + std::string(61, 'a') +
                               "\nsize=1\netag=" + first.etag + "\n");
      }
    CHECK(sidecars == 1);
    // What "../aaa..." names outside the spool exists, with that size: a
    // sidecar naming it must still not make it an earlier download.
    fs::path const outside = spool.path.parent_path() / std::string(61, 'a');
    write_file(outside, "x");
    auto const again = loader::net::download(http.url("/day.csv"), spool.path,
                                             quick());
    fs::remove(outside);
    CHECK(again.http_status == 200);
    CHECK(again.path == first.path);
    CHECK(http.requests("/day.csv").find("If-None-Match\": \"\\\"") ==
          std::string::npos);
  }
  SECTION("conditional off: a full GET")
  {
    auto o = quick();
    o.conditional = false;
    auto const again = loader::net::download(http.url("/day.csv"), spool.path,
                                             o);
    CHECK(again.http_status == 200);
    CHECK_FALSE(again.not_modified);
  }
}

TEST_CASE("download: a stalled server trips the low-speed limit",
          "[.http][net]")
{
  // The server sends headers, then nothing for 30 s.  Had the client
  // waited for that, it would see the connection close: curl 18.  The
  // low-speed limit (1 s here) gives 28 instead.
  Http http{R"({"/day.csv": ["stall:30"]})"};
  write_file(http.root() / "day.csv", day);
  TempDir spool;
  auto o = quick();
  o.transfer.low_speed_time = std::chrono::seconds{1};
  auto const e = transport_error(
    [&] { loader::net::download(http.url("/day.csv"), spool.path, o); });
  CHECK(e.kind == ErrorKind::transient);
  CHECK(e.curl_code == 28); // CURLE_OPERATION_TIMEDOUT
  CHECK(spool_files(spool.path).empty());
  CHECK(http.count("/day.csv") == 1);
}

TEST_CASE("download: 401 is a credential failure after one request",
          "[.http][net]")
{
  Http http{R"({"/day.csv": ["401", "401", "401", "401", "401"]})"};
  write_file(http.root() / "day.csv", day);
  TempDir spool;
  auto const e = transport_error(
    [&] { loader::net::download(http.url("/day.csv"), spool.path, quick()); });
  CHECK(e.kind == ErrorKind::permission);
  CHECK(loader::exit_code_of(e.kind) == 77);
  CHECK(e.http_status == 401);
  CHECK(http.count("/day.csv") == 1);
  CHECK(spool_files(spool.path).empty());
}

TEST_CASE("download: 404 and 410 are not delivered yet", "[.http][net]")
{
  Http http{R"({"/gone.csv": ["410"]})"};
  TempDir spool;
  auto const missing = transport_error([&] {
    loader::net::download(http.url("/missing.csv"), spool.path, quick());
  });
  CHECK(missing.kind == ErrorKind::transient);
  CHECK(missing.not_delivered);
  CHECK(missing.http_status == 404);
  auto const gone = transport_error([&] {
    loader::net::download(http.url("/gone.csv"), spool.path, quick());
  });
  CHECK(gone.not_delivered);
  CHECK(gone.http_status == 410);
  CHECK(spool_files(spool.path).empty());
}

TEST_CASE("download: 429 and 503 return the server's Retry-After",
          "[.http][net]")
{
  Http http{R"({"/a.csv": ["429"], "/b.csv": ["503:7"], "/c.csv": ["503"]})"};
  TempDir spool;
  auto const a = transport_error(
    [&] { loader::net::download(http.url("/a.csv"), spool.path, quick()); });
  CHECK(a.kind == ErrorKind::transient);
  CHECK(a.http_status == 429);
  REQUIRE(a.retry_after);
  CHECK(*a.retry_after == std::chrono::seconds{1});
  auto const b = transport_error(
    [&] { loader::net::download(http.url("/b.csv"), spool.path, quick()); });
  REQUIRE(b.retry_after);
  CHECK(*b.retry_after == std::chrono::seconds{7});
  auto const c = transport_error(
    [&] { loader::net::download(http.url("/c.csv"), spool.path, quick()); });
  CHECK_FALSE(c.retry_after);
}

TEST_CASE("download: HTTPS trusts the CA given, refuses another as config",
          "[.http][net]")
{
  TempDir tls;
  Http http{"{}", true, tls.path.string()};
  write_file(http.root() / "day.csv", day);
  TempDir spool;
  auto o = quick();
  SECTION("the right CA")
  {
    o.transfer.ca_file = (tls.path / "ca.pem").string();
    auto const d = loader::net::download(http.url("/day.csv"), spool.path, o);
    CHECK(d.sha256 == sha256_of(day));
  }
  SECTION("a wrong CA: config (78), nothing requested, nothing spooled")
  {
    o.transfer.ca_file = (tls.path / "other-ca.pem").string();
    auto const e = transport_error(
      [&] { loader::net::download(http.url("/day.csv"), spool.path, o); });
    CHECK(e.kind == ErrorKind::config);
    CHECK(loader::exit_code_of(e.kind) == 78);
    CHECK(e.curl_code == 60); // CURLE_PEER_FAILED_VERIFICATION
    CHECK(spool_files(spool.path).empty());
    auto right = o.transfer;
    right.ca_file = (tls.path / "ca.pem").string();
    CHECK(http.count("/day.csv", right) == 0);
  }
  SECTION("a CA file that does not exist: config")
  {
    o.transfer.ca_file = (tls.path / "nonexistent.pem").string();
    auto const e = transport_error(
      [&] { loader::net::download(http.url("/day.csv"), spool.path, o); });
    CHECK(e.kind == ErrorKind::config);
    CHECK(e.curl_code == 77); // CURLE_SSL_CACERT_BADFILE
  }
}

namespace
{
/// A loopback port bound but not listening, held for the test: a connect
/// to it is refused, and no other process can take it meanwhile.
class ClosedPort
{
public:
  ClosedPort()
  {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (m_fd < 0 or
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 or
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
      FAIL("cannot bind on loopback");
    m_port = ntohs(a.sin_port);
  }
  ClosedPort(ClosedPort const &) = delete;
  ClosedPort &operator=(ClosedPort const &) = delete;
  ~ClosedPort() { ::close(m_fd); }
  int port() const noexcept { return m_port; }

private:
  int m_fd = -1;
  int m_port = 0;
};
} // namespace

TEST_CASE("download: connection refused is transient", "[unit][net]")
{
  ClosedPort closed;
  int const port = closed.port();
  TempDir spool;
  auto const e = transport_error([&] {
    loader::net::download("http://127.0.0.1:" + std::to_string(port) + "/x",
                          spool.path, quick());
  });
  CHECK(e.kind == ErrorKind::transient);
  CHECK(e.curl_code == 7); // CURLE_COULDNT_CONNECT
}

TEST_CASE("download: credentials never reach a message or the debug lines",
          "[.http][net]")
{
  Http http{R"({"/day.csv": ["503"]})"};
  TempDir spool;
  auto o = quick();
  std::vector<std::string> lines;
  o.transfer.debug = [&](std::string_view l) { lines.emplace_back(l); };
  std::string const url = http.url("/day.csv");
  std::string const with_user = "http://feeduser:Sup3rSecret@" +
                                url.substr(std::string{"http://"}.size());
  auto const e = transport_error(
    [&] { loader::net::download(with_user, spool.path, o); });
  std::string const what = e.what();
  CHECK(what.find("Sup3rSecret") == std::string::npos);
  CHECK(what.find("feeduser") == std::string::npos);
  CHECK(what.find("127.0.0.1") != std::string::npos);
  REQUIRE_FALSE(lines.empty());
  bool saw_auth = false;
  for (auto const &l : lines)
  {
    CAPTURE(l);
    CHECK(l.find("Sup3rSecret") == std::string::npos);
    // Basic auth is base64("feeduser:Sup3rSecret").
    CHECK(l.find("ZmVlZHVzZXI6U3VwM3JTZWNyZXQ=") == std::string::npos);
    if (l.find("Authorization: [redacted]") != std::string::npos)
      saw_auth = true;
  }
  CHECK(saw_auth);
}

TEST_CASE("download: netrc credentials are used; a missing netrc is config",
          "[.http][net]")
{
  Http http;
  write_file(http.root() / "day.csv", day);
  TempDir spool;
  auto o = quick();
  SECTION("used")
  {
    fs::path const netrc = spool.path.parent_path() /
                           (spool.path.filename().string() + ".netrc");
    write_file(netrc, "machine 127.0.0.1 login feeduser password pw\n");
    fs::permissions(netrc, fs::perms::owner_read | fs::perms::owner_write);
    o.transfer.netrc_file = netrc.string();
    auto const d = loader::net::download(http.url("/day.csv"), spool.path, o);
    fs::remove(netrc);
    CHECK(d.sha256 == sha256_of(day));
    CHECK(http.requests("/day.csv").find(R"("Authorization": "[present]")") !=
          std::string::npos);
  }
  SECTION("missing")
  {
    o.transfer.netrc_file = (spool.path / "no-such-netrc").string();
    auto const e = transport_error(
      [&] { loader::net::download(http.url("/day.csv"), spool.path, o); });
    CHECK(e.kind == ErrorKind::config);
    CHECK(http.count("/day.csv") == 0);
  }
  SECTION("readable by others: refused like a --config file, never read")
  {
    fs::path const netrc = spool.path.parent_path() /
                           (spool.path.filename().string() + ".netrc");
    write_file(netrc, "machine 127.0.0.1 login feeduser password pw\n");
    fs::permissions(netrc, fs::perms::owner_read | fs::perms::owner_write |
                             fs::perms::others_read);
    o.transfer.netrc_file = netrc.string();
    auto const e = transport_error(
      [&] { loader::net::download(http.url("/day.csv"), spool.path, o); });
    fs::remove(netrc);
    CHECK(e.kind == ErrorKind::config);
    CHECK_THAT(e.what(), Catch::Matchers::Contains("chmod 600"));
    CHECK_THAT(e.what(), !Catch::Matchers::Contains("pw"));
    CHECK(http.count("/day.csv") == 0);
  }
}

TEST_CASE("download: file:// URLs, present and missing", "[.http][net]")
{
  TempDir in;
  TempDir spool;
  write_file(in.path / "day.csv", day);
  auto const d = loader::net::download(
    "file://" + (in.path / "day.csv").string(), spool.path, quick());
  CHECK(d.sha256 == sha256_of(day));
  CHECK(d.http_status == 0);
  CHECK(read_file(d.path) == day);
  auto const e = transport_error([&] {
    loader::net::download("file://" + (in.path / "later.csv").string(),
                          spool.path, quick());
  });
  CHECK(e.kind == ErrorKind::transient);
  CHECK(e.not_delivered);
}

TEST_CASE("download: an unsupported scheme is config, before any transfer",
          "[unit][net]")
{
  TempDir spool;
  auto const e = transport_error([&] {
    loader::net::download("gopher://127.0.0.1:1/x", spool.path, quick());
  });
  CHECK(e.kind == ErrorKind::config);
  CHECK(spool_files(spool.path).empty());
}

TEST_CASE("post: the webhook gets the body and Idempotency-Key; statuses "
          "are returned",
          "[.http][net]")
{
  Http http{R"({"/hook": ["500", "500", "200", "400"]})"};
  std::vector<std::string> const headers{"Content-Type: application/json",
                                         "Idempotency-Key: batch-7:published"};
  std::string const body = R"({"batch_id":7,"kind":"published"})";
  std::vector<long> statuses;
  for (int i = 0; i < 4; ++i)
    statuses.push_back(
      loader::net::post(http.url("/hook"), body, headers).http_status);
  CHECK(statuses == std::vector<long>{500, 500, 200, 400});
  CHECK(loader::classify_http_status(500) == ErrorKind::transient);
  CHECK(http.count("/hook") == 4);
  auto const log = http.requests("/hook");
  std::size_t keys = 0;
  for (auto p = log.find("batch-7:published"); p != std::string::npos;
       p = log.find("batch-7:published", p + 1))
    ++keys;
  CHECK(keys == 4);
  CHECK(log.find(R"(\"batch_id\":7)") != std::string::npos);
}

namespace
{
class Smtp
{
public:
  explicit Smtp(std::string const &script) :
          m_server{{tools_dir + "/smtp_server.py", "--record-dir",
                    m_dir.path.string(), "--script", script}}
  {}
  std::string url() const
  {
    return "smtp://127.0.0.1:" + std::to_string(m_server.port());
  }
  std::string log() const { return read_file(m_dir.path / "log.jsonl"); }

private:
  TempDir m_dir;
  Server m_server;
};

std::string const mail =
  "From: loader@example.com\r\nTo: finance@example.com\r\n"
  "Message-ID: <batch-7.published@invoice-loader>\r\n"
  "Subject: batch 7 published\r\n\r\nBatch 7 is published.\r\n"
  ".a line that starts with a dot\r\n";
} // namespace

TEST_CASE("send_mail: accepted, in doubt, rejected, not sent", "[.http][net]")
{
  using loader::net::MailOutcome;
  Smtp smtp{R"(["accept", "drop_after_data", "reject_rcpt:550",
                "reject_data:554", "drop_before_data"])"};
  std::vector<std::string> const to{"finance@example.com"};
  auto send = [&] {
    return loader::net::send_mail(smtp.url(), "loader@example.com", to, mail);
  };
  auto const accepted = send();
  CHECK(accepted.outcome == MailOutcome::accepted);
  CHECK(accepted.data_accepted());
  CHECK(accepted.smtp_code == 250);

  auto const dropped = send();
  CHECK(dropped.outcome == MailOutcome::in_doubt);
  CHECK(dropped.kind == ErrorKind::in_doubt);
  CHECK_FALSE(dropped.data_accepted());

  auto const rcpt = send();
  CHECK(rcpt.outcome == MailOutcome::rejected);
  CHECK(rcpt.smtp_code == 550);
  CHECK(rcpt.kind == ErrorKind::config);

  auto const data = send();
  CHECK(data.outcome == MailOutcome::rejected);
  CHECK(data.smtp_code == 554);

  auto const before = send();
  CHECK(before.outcome == MailOutcome::not_sent);
  CHECK(before.kind == ErrorKind::transient);

  // The server kept the accepted and the dropped message, both whole.
  auto const log = smtp.log();
  CHECK(log.find(R"("outcome": "accepted")") != std::string::npos);
  CHECK(log.find(R"("outcome": "dropped", "file")") != std::string::npos);
  std::size_t ids = 0;
  for (auto p = log.find("<batch-7.published@invoice-loader>");
       p != std::string::npos;
       p = log.find("<batch-7.published@invoice-loader>", p + 1))
    ++ids;
  CHECK(ids == 2);
}

TEST_CASE("download: redirects are followed a few times, never to a weaker "
          "scheme",
          "[.http][net]")
{
  std::string loop = R"({"/loop.csv": [)";
  for (int i = 0; i < 8; ++i)
    loop += std::string{i ? "," : ""} + R"("redirect:/loop.csv")";
  loop += R"(], "/moved.csv": ["redirect:/day.csv"]})";
  Http http{loop};
  write_file(http.root() / "day.csv", day);
  TempDir spool;
  SECTION("one redirect: the target's body, its URL")
  {
    auto const d = loader::net::download(http.url("/moved.csv"), spool.path,
                                         quick());
    CHECK(d.sha256 == sha256_of(day));
    CHECK(d.url == http.url("/day.csv"));
    CHECK(http.count("/moved.csv") == 1);
    CHECK(http.count("/day.csv") == 1);
  }
  SECTION("a loop: config after max_redirects + 1 requests")
  {
    auto const e = transport_error([&] {
      loader::net::download(http.url("/loop.csv"), spool.path, quick());
    });
    CHECK(e.kind == ErrorKind::config);
    CHECK(e.curl_code == 47); // CURLE_TOO_MANY_REDIRECTS
    CHECK(http.count("/loop.csv") == 6);
    CHECK(spool_files(spool.path).empty());
  }
  SECTION("max_redirects 0: the 302 itself is a config error")
  {
    auto o = quick();
    o.transfer.max_redirects = 0;
    auto const e = transport_error(
      [&] { loader::net::download(http.url("/moved.csv"), spool.path, o); });
    CHECK(e.kind == ErrorKind::config);
    CHECK(e.http_status == 302);
    CHECK(http.count("/day.csv") == 0);
  }
}

TEST_CASE("download: an https feed is never redirected to http",
          "[.http][net]")
{
  Http plain;
  write_file(plain.root() / "day.csv", day);
  TempDir tls;
  Http secure{R"({"/day.csv": ["redirect:)" + plain.url("/day.csv") + R"("]})",
              true, tls.path.string()};
  TempDir spool;
  auto o = quick();
  o.transfer.ca_file = (tls.path / "ca.pem").string();
  auto const e = transport_error(
    [&] { loader::net::download(secure.url("/day.csv"), spool.path, o); });
  CHECK(e.kind == ErrorKind::config);
  CHECK(std::string{e.what()}.find("the scheme changes") != std::string::npos);
  CHECK(plain.count("/day.csv") == 0);
  CHECK(spool_files(spool.path).empty());
}

TEST_CASE("download: a redirect to another port or host only when allowed",
          "[.http][net]")
{
  Http other;
  write_file(other.root() / "day.csv", day);
  Http feed{R"({"/day.csv": ["redirect:)" + other.url("/day.csv") + R"("]})"};
  TempDir spool;
  SECTION("refused by default: config, no request to the other server")
  {
    auto const e = transport_error([&] {
      loader::net::download(feed.url("/day.csv"), spool.path, quick());
    });
    CHECK(e.kind == ErrorKind::config);
    CHECK(e.http_status == 302);
    CHECK(std::string{e.what()}.find("--allow-redirect-host 127.0.0.1") !=
          std::string::npos);
    CHECK(other.count("/day.csv") == 0);
    CHECK(spool_files(spool.path).empty());
  }
  SECTION("allowed: followed, and reported to on_redirect")
  {
    auto o = quick();
    o.transfer.redirect_hosts = {"127.0.0.1"};
    std::vector<std::string> seen;
    o.on_redirect = [&](long status, std::string const &from,
                        std::string const &to) {
      seen.push_back(std::to_string(status) + " " + from + " " + to);
    };
    auto const d = loader::net::download(feed.url("/day.csv"), spool.path, o);
    CHECK(d.sha256 == sha256_of(day));
    CHECK(other.count("/day.csv") == 1);
    REQUIRE(seen.size() == 1);
    CHECK(seen[0] ==
          "302 " + feed.url("/day.csv") + " " + other.url("/day.csv"));
  }
}

TEST_CASE("download: progress is reported with the total", "[.http][net]")
{
  Http http;
  std::string big(300'000, 'x');
  write_file(http.root() / "big.csv", big);
  TempDir spool;
  auto o = quick();
  std::int64_t last_done = -1, last_total = 0;
  int calls = 0;
  o.transfer.progress = [&](std::int64_t done, std::int64_t total) {
    ++calls;
    if (total > 0) last_total = total;
    last_done = done;
  };
  auto const d = loader::net::download(http.url("/big.csv"), spool.path, o);
  CHECK(d.size == big.size());
  CHECK(calls > 0);
  CHECK(last_done == static_cast<std::int64_t>(big.size()));
  CHECK(last_total == static_cast<std::int64_t>(big.size()));
}

TEST_CASE("remove_stale_temporaries: only old .part- files go", "[unit][net]")
{
  TempDir spool;
  write_file(spool.path / ".part-old", "x");
  write_file(spool.path / ".part-new", "x");
  write_file(spool.path / std::string(64, 'a'), "kept");
  write_file(spool.path / "abc.meta", "sha256=...\n");
  auto const old = fs::file_time_type::clock::now() - std::chrono::hours{2};
  fs::last_write_time(spool.path / ".part-old", old);
  fs::last_write_time(spool.path / std::string(64, 'a'), old);
  CHECK(loader::net::remove_stale_temporaries(spool.path.string(),
                                              std::chrono::hours{1}) == 1);
  CHECK(
    spool_files(spool.path) ==
    std::vector<std::string>{".part-new", std::string(64, 'a'), "abc.meta"});
  CHECK(loader::net::remove_stale_temporaries(
          (spool.path / "missing").string(), std::chrono::hours{1}) == 0);
}

TEST_CASE("send_mail: STARTTLS with the CA, AUTH from the URL, no password "
          "in the debug lines",
          "[.http][net]")
{
  using loader::net::MailOutcome;
  TempDir tls;
  {
    // The certificates http_server.py makes; start it once to get them.
    Http make{"{}", true, tls.path.string()};
  }
  TempDir rec;
  Server smtp{{tools_dir + "/smtp_server.py", "--record-dir",
               rec.path.string(), "--tls-dir", tls.path.string(), "--auth",
               "mailer:pw0rd"}};
  std::string const host = "127.0.0.1:" + std::to_string(smtp.port());
  std::vector<std::string> const to{"finance@example.com"};
  loader::net::MailOptions o;
  o.require_tls = true;
  o.transfer.ca_file = (tls.path / "ca.pem").string();
  std::vector<std::string> lines;
  o.transfer.debug = [&](std::string_view l) { lines.emplace_back(l); };

  SECTION("the right password: accepted over TLS")
  {
    auto const r = loader::net::send_mail("smtp://mailer:pw0rd@" + host,
                                          "loader@example.com", to, mail, o);
    CHECK(r.outcome == MailOutcome::accepted);
    CHECK(r.detail.find("pw0rd") == std::string::npos);
    bool saw_auth = false;
    for (auto const &l : lines)
    {
      CAPTURE(l);
      CHECK(l.find("pw0rd") == std::string::npos);
      CHECK(l.find("cHcwcmQ") == std::string::npos); // base64 "pw0rd"
      if (l == "> AUTH [redacted]") saw_auth = true;
    }
    CHECK(saw_auth);
    CHECK(read_file(rec.path / "log.jsonl").find(R"("outcome": "accepted")") !=
          std::string::npos);
  }
  SECTION("TLS not required: STARTTLS all the same, since it is offered")
  {
    o.require_tls = false;
    auto const r = loader::net::send_mail("smtp://mailer:pw0rd@" + host,
                                          "loader@example.com", to, mail, o);
    CHECK(r.outcome == MailOutcome::accepted);
    CHECK(std::find(lines.begin(), lines.end(), "> STARTTLS") != lines.end());
  }
  SECTION("a wrong password: rejected, permission, not sent")
  {
    auto const r = loader::net::send_mail("smtp://mailer:nope@" + host,
                                          "loader@example.com", to, mail, o);
    CHECK(r.outcome == MailOutcome::rejected);
    CHECK(r.kind == ErrorKind::permission);
    CHECK(r.smtp_code == 535);
    CHECK(r.detail.find("nope") == std::string::npos);
  }
  SECTION("a wrong CA: not sent, config")
  {
    o.transfer.ca_file = (tls.path / "other-ca.pem").string();
    auto const r = loader::net::send_mail("smtp://mailer:pw0rd@" + host,
                                          "loader@example.com", to, mail, o);
    CHECK(r.outcome == MailOutcome::not_sent);
    CHECK(r.kind == ErrorKind::config);
    CHECK(r.curl_code == 60);
  }
}

TEST_CASE("send_mail: a server that is not there: not sent, transient",
          "[unit][net]")
{
  ClosedPort closed;
  int const port = closed.port();
  auto const r = loader::net::send_mail(
    "smtp://127.0.0.1:" + std::to_string(port), "a@example.com",
    {"b@example.com"}, mail);
  CHECK(r.outcome == loader::net::MailOutcome::not_sent);
  CHECK(r.kind == ErrorKind::transient);
  CHECK(r.curl_code == 7);
}

namespace
{
/// A loopback listener that resets (SO_LINGER 0) the first connection
/// as soon as it is accepted: a TLS handshake cut by the network.
class Resetter
{
public:
  Resetter()
  {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (m_fd < 0 or
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 or
        ::listen(m_fd, 4) != 0 or
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
      FAIL("cannot listen on loopback");
    m_port = ntohs(a.sin_port);
    m_thread = std::thread{[this] {
      int const c = ::accept(m_fd, nullptr, nullptr);
      if (c < 0) return;
      linger l{1, 0};
      ::setsockopt(c, SOL_SOCKET, SO_LINGER, &l, sizeof l);
      char buf[512];
      (void)::recv(c, buf, sizeof buf, 0); // the ClientHello
      ::close(c);
    }};
  }
  ~Resetter()
  {
    ::shutdown(m_fd, SHUT_RDWR);
    ::close(m_fd);
    m_thread.join();
  }
  int port() const noexcept { return m_port; }

private:
  int m_fd = -1;
  int m_port = 0;
  std::thread m_thread;
};
} // namespace

TEST_CASE("download: TLS handshake failures: a reset is transient, a "
          "protocol mismatch config",
          "[.http][net]")
{
  TempDir spool;
  SECTION("reset during the handshake: transient")
  {
    Resetter r;
    auto const e = transport_error([&] {
      loader::net::download("https://127.0.0.1:" + std::to_string(r.port()) +
                              "/day.csv",
                            spool.path, quick());
    });
    CHECK(e.curl_code == 35); // CURLE_SSL_CONNECT_ERROR
    CHECK(e.kind == ErrorKind::transient);
  }
  SECTION("https:// to a plain HTTP server: config")
  {
    Http http;
    std::string const url = "https" + http.url("/day.csv").substr(4);
    auto const e = transport_error(
      [&] { loader::net::download(url, spool.path, quick()); });
    CHECK(e.curl_code == 35);
    CHECK(e.kind == ErrorKind::config);
  }
  CHECK(spool_files(spool.path).empty());
}

TEST_CASE("download: a spool directory others may write to is refused",
          "[unit][net]")
{
  TempDir in;
  write_file(in.path / "day.csv", day);
  TempDir spool;
  fs::permissions(spool.path, fs::perms::others_write, fs::perm_options::add);
  auto const e = transport_error([&] {
    loader::net::download("file://" + (in.path / "day.csv").string(),
                          spool.path, quick());
  });
  CHECK(e.kind == ErrorKind::config);
  CHECK(spool_files(spool.path).empty());

  SECTION("a new one is made private")
  {
    auto const fresh = spool.path / "made" / "here";
    fs::permissions(spool.path, fs::perms::others_write,
                    fs::perm_options::remove);
    auto const d = loader::net::download(
      "file://" + (in.path / "day.csv").string(), fresh, quick());
    CHECK(read_file(d.path) == day);
    CHECK((fs::status(fresh).permissions() & fs::perms::all) ==
          fs::perms::owner_all);
  }
}

TEST_CASE("send_mail: TLS required from a server without STARTTLS: not "
          "sent, config",
          "[.http][net]")
{
  TempDir rec;
  Server smtp{
    {tools_dir + "/smtp_server.py", "--record-dir", rec.path.string()}};
  loader::net::MailOptions o;
  o.require_tls = true;
  auto const r = loader::net::send_mail(
    "smtp://127.0.0.1:" + std::to_string(smtp.port()), "a@example.com",
    {"b@example.com"}, mail, o);
  CHECK(r.outcome == loader::net::MailOutcome::not_sent);
  CHECK(r.kind == ErrorKind::config);
  CHECK(r.curl_code == 64); // CURLE_USE_SSL_FAILED
  o.require_tls = false;
  auto const plain = loader::net::send_mail(
    "smtp://127.0.0.1:" + std::to_string(smtp.port()), "a@example.com",
    {"b@example.com"}, mail, o);
  CHECK(plain.outcome == loader::net::MailOutcome::accepted);
}
