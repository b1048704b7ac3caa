#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gssapi/gssapi.h>
#include <libpq-fe.h>

#include "db/pq_lazy.hpp"
#include "temp_file.hpp"

using loader::db::detail::LazyLibrary;

// db/pq_lazy.cpp: libpq compiled in, its GSSAPI and LDAP libraries opened
// when libpq first calls them (INVOICE_LOADER_STATIC_LIBPQ; this file is
// built only then).

namespace
{
/// A loopback listener that takes one connection, keeps the first bytes
/// the client sends, and closes it; bounded: 10 s to be called, 10 s to
/// hear something.
class OneShotServer
{
public:
  OneShotServer()
  {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener_ >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr *>(&a), sizeof a) ==
            0);
    socklen_t len = sizeof a;
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr *>(&a),
                          &len) == 0);
    REQUIRE(::listen(listener_, 1) == 0);
    port = ntohs(a.sin_port);
    thread_ = std::thread{[this] { serve(); }};
  }
  OneShotServer(OneShotServer const &) = delete;
  OneShotServer &operator=(OneShotServer const &) = delete;
  ~OneShotServer()
  {
    if (thread_.joinable())
      thread_.join();
    ::close(listener_);
  }
  /// What the client sent, once it has gone.
  std::string const &received()
  {
    thread_.join();
    return received_;
  }
  int port = 0;

private:
  void serve()
  {
    pollfd p{listener_, POLLIN, 0};
    if (::poll(&p, 1, 10000) != 1)
      return;
    int const fd = ::accept(listener_, nullptr, nullptr);
    if (fd < 0)
      return;
    pollfd q{fd, POLLIN, 0};
    if (::poll(&q, 1, 10000) == 1)
    {
      char buf[256];
      ssize_t const n = ::read(fd, buf, sizeof buf);
      if (n > 0)
        received_.assign(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
  }
  int listener_ = -1;
  std::thread thread_;
  std::string received_;
};
} // namespace

TEST_CASE("a library that cannot be opened gives null symbols and says "
          "which library, why and which package",
          "[unit][db]")
{
  char const *const missing = "libinvoice-loader-no-such-library.so.0";
  LazyLibrary lib{missing, "invoice-loader-no-such-package"};
  CHECK(lib.symbol("gss_acquire_cred") == nullptr);
  std::string const &why = lib.error();
  CAPTURE(why);
  CHECK(why.find(missing) != std::string::npos);
  CHECK(why.find("No such file or directory") != std::string::npos);
  CHECK(why.find("install invoice-loader-no-such-package") !=
        std::string::npos);
}

TEST_CASE("a library that cannot be opened is reported where the loader "
          "says, once",
          "[unit][db]")
{
  std::vector<std::string> reports;
  auto const before = loader::db::detail::report_unavailable_to(
    [&reports](std::string const &m) { reports.push_back(m); });
  {
    LazyLibrary lib{"libinvoice-loader-no-such-library.so.1", "its-package"};
    CHECK(lib.symbol("a") == nullptr);
    CHECK(lib.symbol("b") == nullptr);
  }
  loader::db::detail::report_unavailable_to(before);
  REQUIRE(before); // the default: standard error
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].rfind("cannot load libinvoice-loader-no-such-library.so.1",
                         0) == 0);
  CHECK(reports[0].find("install its-package") != std::string::npos);
}

TEST_CASE("a library that opens gives its symbols, and none it lacks",
          "[unit][db]")
{
  LazyLibrary lib{loader::db::detail::gssapi_library_soname,
                  "libgssapi-krb5-2"};
  CHECK(lib.error().empty());
  CHECK(lib.symbol("gss_display_status") != nullptr);
  CHECK(lib.symbol("invoice_loader_no_such_function") == nullptr);
}

TEST_CASE("the GSSAPI stand-ins reach MIT Kerberos: status texts, "
          "credentials, the host-based service name type",
          "[unit][db]")
{
  // gss_display_status and gss_release_buffer: the library's own text
  OM_uint32 minor = 0;
  OM_uint32 context = 0;
  gss_buffer_desc text{0, nullptr};
  REQUIRE(gss_display_status(&minor, GSS_S_BAD_NAME, GSS_C_GSS_CODE,
                             GSS_C_NO_OID, &context, &text) ==
          GSS_S_COMPLETE);
  std::string const message{static_cast<char const *>(text.value),
                            text.length};
  CHECK(message == "An invalid name was supplied");
  CHECK(gss_release_buffer(&minor, &text) == GSS_S_COMPLETE);
  CHECK(text.value == nullptr);

  // gss_acquire_cred without a credential cache: the library's refusal,
  // which libpq reads as "no GSS encryption to try"
  char const *const saved = std::getenv("KRB5CCNAME");
  std::string const saved_value = saved != nullptr ? saved : "";
  ::setenv("KRB5CCNAME", "FILE:/nonexistent/invoice-loader-test-ccache", 1);
  gss_cred_id_t cred = GSS_C_NO_CREDENTIAL;
  OM_uint32 const major =
    gss_acquire_cred(&minor, GSS_C_NO_NAME, 0, GSS_C_NO_OID_SET,
                     GSS_C_INITIATE, &cred, nullptr, nullptr);
  if (saved != nullptr)
    ::setenv("KRB5CCNAME", saved_value.c_str(), 1);
  else
    ::unsetenv("KRB5CCNAME");
  CHECK(GSS_ERROR(major));
  CHECK(cred == GSS_C_NO_CREDENTIAL);

  // our GSS_C_NT_HOSTBASED_SERVICE has the library's value
  void *lib = dlopen(loader::db::detail::gssapi_library_soname,
                     RTLD_NOW | RTLD_LOCAL);
  REQUIRE(lib != nullptr);
  auto const *theirs =
    static_cast<gss_OID const *>(dlsym(lib, "GSS_C_NT_HOSTBASED_SERVICE"));
  REQUIRE(theirs != nullptr);
  REQUIRE(*theirs != GSS_C_NT_HOSTBASED_SERVICE);
  REQUIRE(GSS_C_NT_HOSTBASED_SERVICE->length == (*theirs)->length);
  CHECK(std::memcmp(GSS_C_NT_HOSTBASED_SERVICE->elements, (*theirs)->elements,
                    (*theirs)->length) == 0);
  dlclose(lib);
}

TEST_CASE("libpq's LDAP lookup reaches OpenLDAP through the stand-ins",
          "[unit][db]")
{
  // an ldap:// line of a service file whose server hangs up at once:
  // libpq has OpenLDAP open the connection and send its anonymous bind,
  // then (no answer) goes on to the next line, and the connection fails
  // for want of a server.  Without the library libpq would stop at
  // "could not create LDAP structure" and nothing would be sent.
  OneShotServer server;
  std::string const url = "ldap://127.0.0.1:" + std::to_string(server.port) +
                          "/dc=example,dc=invalid?description?one?(cn=x)";
  TempFile const services{"[lazy]\n" + url + "\n"};
  char const *const saved = std::getenv("PGSERVICEFILE");
  std::string const saved_value = saved != nullptr ? saved : "";
  ::setenv("PGSERVICEFILE", services.path.c_str(), 1);
  PGconn *conn =
    PQconnectdb("service=lazy host=/nonexistent-invoice-loader-test");
  if (saved != nullptr)
    ::setenv("PGSERVICEFILE", saved_value.c_str(), 1);
  else
    ::unsetenv("PGSERVICEFILE");
  REQUIRE(conn != nullptr);
  std::string const error{PQerrorMessage(conn)};
  CAPTURE(error);
  CHECK(PQstatus(conn) == CONNECTION_BAD);
  CHECK(error.find("could not create LDAP structure") == std::string::npos);
  CHECK(error.find("/nonexistent-invoice-loader-test") != std::string::npos);
  PQfinish(conn);
  // an LDAPMessage (a BER SEQUENCE, 0x30) holding a BindRequest
  // ([APPLICATION 0], 0x60): OpenLDAP's own bytes
  std::string const &sent = server.received();
  REQUIRE(sent.size() > 2);
  CHECK(static_cast<unsigned char>(sent[0]) == 0x30);
  CHECK(sent.find('\x60') != std::string::npos);
}
