#pragma once
/// libpq compiled in, its GSSAPI and LDAP libraries opened on first use
/// (db/pq_lazy.cpp, INVOICE_LOADER_STATIC_LIBPQ).  Internal to db/ and its
/// tests.

#include <functional>
#include <string>

namespace loader::db::detail
{
/// Where a library that cannot be opened is told of (the text names the
/// library, dlerror()'s reason and the package): by default one line on
/// standard error; main() sends it to the run's log instead, so that it
/// carries the run id and --log-format json stays JSON.  Set it before
/// the first connection; it must not throw.  Returns the one it replaces.
using Unavailable = std::function<void(std::string const &message)>;
Unavailable report_unavailable_to(Unavailable report);

/// A shared library opened with dlopen when first asked for a symbol.
/// Never throws: its callers are libpq's C code, which reads a failure from
/// the return value of the GSSAPI or LDAP call, so an unavailable library
/// or symbol is a null symbol, the reason in error(), and one report
/// (report_unavailable_to) naming the library, the reason and the package.
class LazyLibrary
{
public:
  LazyLibrary(char const *soname, char const *package) noexcept;
  LazyLibrary(LazyLibrary const &) = delete;
  LazyLibrary &operator=(LazyLibrary const &) = delete;

  /// The symbol `name`, or nullptr when the library or the symbol is
  /// missing.
  void *symbol(char const *name) noexcept;
  /// Why the library is unavailable; empty when it opened.
  std::string const &error() const noexcept { return error_; }

private:
  void *handle_;
  std::string error_;
  char const *soname_;
  char const *package_;
};

/// The libraries libpq calls: MIT Kerberos's GSSAPI (GSS encryption and
/// authentication) and OpenLDAP (LDAP lookup of connection parameters,
/// pg_service.conf).
inline constexpr char const *gssapi_library_soname = "libgssapi_krb5.so.2";
inline constexpr char const *ldap_library_soname = "libldap-2.5.so.0";
} // namespace loader::db::detail
