/// libpq's GSSAPI and LDAP libraries, opened on first use.  The binary has
/// libpq compiled in (libpq.a, INVOICE_LOADER_STATIC_LIBPQ in the top
/// CMakeLists.txt): the shared libpq brings MIT Kerberos and OpenLDAP and,
/// through them, GnuTLS, SASL and p11-kit, about twenty libraries whose
/// loading cost every start 7.5-11 ms on the slower test host
/// (docs/PERFORMANCE.md, "libpq compiled in").  libpq calls GSSAPI only
/// for a TCP connection (GSS encryption is tried there first when
/// gssencmode is prefer, its default) or when the server asks for GSS
/// authentication, and LDAP only for an ldap:// line of pg_service.conf;
/// a load over a Unix socket calls neither.  So these definitions stand in for the GSSAPI and LDAP
/// functions libpq calls, and the first of each library opens it with
/// dlopen.  Written by hand because no library does this: one dlsym per
/// function, the header's own prototype checked by the compiler.
/// A library that cannot be opened makes each call fail the way libpq
/// already handles (a GSSAPI major status, a null LDAP handle), after one
/// report (the run's log, in the loader) saying which library and why.
#include "db/pq_lazy.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <dlfcn.h>

#include <gssapi/gssapi.h>
#define LDAP_DEPRECATED 1 // ldap_init, ldap_simple_bind, ...: libpq's calls
#include <ldap.h>

namespace loader::db::detail
{
namespace
{
Unavailable &reporter()
{
  static Unavailable report{[](std::string const &message) {
    std::fprintf(stderr, "invoice-loader: %s\n", message.c_str());
  }};
  return report;
}

void report(std::string const &message) noexcept
{
  try
  {
    reporter()(message);
  }
  catch (...)
  {
    // the report is all that is lost; libpq still sees the failure
  }
}
} // namespace

Unavailable report_unavailable_to(Unavailable report)
{
  return std::exchange(reporter(), std::move(report));
}

LazyLibrary::LazyLibrary(char const *soname, char const *package) noexcept
    : handle_{dlopen(soname, RTLD_NOW | RTLD_LOCAL)}, soname_{soname},
      package_{package}
{
  if (handle_ != nullptr)
    return;
  char const *const why = dlerror();
  error_ = std::string{"cannot load "} + soname + " (" +
           (why != nullptr ? why : "unknown error") + "); install " + package;
  report(error_);
}

void *LazyLibrary::symbol(char const *name) noexcept
{
  if (handle_ == nullptr)
    return nullptr;
  void *const f = dlsym(handle_, name);
  if (f == nullptr)
    report(std::string{soname_} + " has no " + name + "; install a " +
           package_ + " that has it");
  return f;
}
} // namespace loader::db::detail

namespace
{
using loader::db::detail::LazyLibrary;

LazyLibrary &gssapi() noexcept
{
  static LazyLibrary lib{loader::db::detail::gssapi_library_soname,
                         "libgssapi-krb5-2"};
  return lib;
}

LazyLibrary &openldap() noexcept
{
  static LazyLibrary lib{loader::db::detail::ldap_library_soname,
                         "libldap-2.5-0"};
  return lib;
}

/// The function `name` of `lib` with the type F of its declaration.
template<typename F> F *from(LazyLibrary &lib, char const *name) noexcept
{
  return reinterpret_cast<F *>(lib.symbol(name));
}

OM_uint32 gss_unavailable(OM_uint32 *minor_status) noexcept
{
  if (minor_status != nullptr)
    *minor_status = 0;
  return GSS_S_FAILURE;
}

/// RFC 2743's GSS_C_NT_HOSTBASED_SERVICE, 1.2.840.113554.1.2.1.4: libpq
/// reads this variable before any GSSAPI call, and GSSAPI compares name
/// types by value.
gss_OID_desc hostbased_service{
  10, const_cast<char *>("\x2a\x86\x48\x86\xf7\x12\x01\x02\x01\x04")};
} // namespace

extern "C" {
gss_OID GSS_C_NT_HOSTBASED_SERVICE = &hostbased_service;

OM_uint32 gss_acquire_cred(OM_uint32 *minor_status, gss_name_t desired_name,
                           OM_uint32 time_req, gss_OID_set desired_mechs,
                           gss_cred_usage_t cred_usage,
                           gss_cred_id_t *output_cred_handle,
                           gss_OID_set *actual_mechs, OM_uint32 *time_rec)
{
  static auto *const f =
    from<decltype(::gss_acquire_cred)>(gssapi(), "gss_acquire_cred");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, desired_name, time_req, desired_mechs, cred_usage,
           output_cred_handle, actual_mechs, time_rec);
}

OM_uint32 gss_release_cred(OM_uint32 *minor_status, gss_cred_id_t *cred_handle)
{
  static auto *const f =
    from<decltype(::gss_release_cred)>(gssapi(), "gss_release_cred");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, cred_handle);
}

OM_uint32 gss_init_sec_context(
  OM_uint32 *minor_status, gss_cred_id_t claimant_cred_handle,
  gss_ctx_id_t *context_handle, gss_name_t target_name, gss_OID mech_type,
  OM_uint32 req_flags, OM_uint32 time_req,
  gss_channel_bindings_t input_chan_bindings, gss_buffer_t input_token,
  gss_OID *actual_mech_type, gss_buffer_t output_token, OM_uint32 *ret_flags,
  OM_uint32 *time_rec)
{
  static auto *const f =
    from<decltype(::gss_init_sec_context)>(gssapi(), "gss_init_sec_context");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, claimant_cred_handle, context_handle, target_name,
           mech_type, req_flags, time_req, input_chan_bindings, input_token,
           actual_mech_type, output_token, ret_flags, time_rec);
}

OM_uint32 gss_delete_sec_context(OM_uint32 *minor_status,
                                 gss_ctx_id_t *context_handle,
                                 gss_buffer_t output_token)
{
  static auto *const f = from<decltype(::gss_delete_sec_context)>(
    gssapi(), "gss_delete_sec_context");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, context_handle, output_token);
}

OM_uint32 gss_wrap(OM_uint32 *minor_status, gss_ctx_id_t context_handle,
                   int conf_req_flag, gss_qop_t qop_req,
                   gss_buffer_t input_message_buffer, int *conf_state,
                   gss_buffer_t output_message_buffer)
{
  static auto *const f = from<decltype(::gss_wrap)>(gssapi(), "gss_wrap");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, context_handle, conf_req_flag, qop_req,
           input_message_buffer, conf_state, output_message_buffer);
}

OM_uint32 gss_unwrap(OM_uint32 *minor_status, gss_ctx_id_t context_handle,
                     gss_buffer_t input_message_buffer,
                     gss_buffer_t output_message_buffer, int *conf_state,
                     gss_qop_t *qop_state)
{
  static auto *const f = from<decltype(::gss_unwrap)>(gssapi(), "gss_unwrap");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, context_handle, input_message_buffer,
           output_message_buffer, conf_state, qop_state);
}

OM_uint32 gss_wrap_size_limit(OM_uint32 *minor_status,
                              gss_ctx_id_t context_handle, int conf_req_flag,
                              gss_qop_t qop_req, OM_uint32 req_output_size,
                              OM_uint32 *max_input_size)
{
  static auto *const f =
    from<decltype(::gss_wrap_size_limit)>(gssapi(), "gss_wrap_size_limit");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, context_handle, conf_req_flag, qop_req,
           req_output_size, max_input_size);
}

OM_uint32 gss_import_name(OM_uint32 *minor_status,
                          gss_buffer_t input_name_buffer,
                          gss_OID input_name_type, gss_name_t *output_name)
{
  static auto *const f =
    from<decltype(::gss_import_name)>(gssapi(), "gss_import_name");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, input_name_buffer, input_name_type, output_name);
}

OM_uint32 gss_release_name(OM_uint32 *minor_status, gss_name_t *input_name)
{
  static auto *const f =
    from<decltype(::gss_release_name)>(gssapi(), "gss_release_name");
  if (f == nullptr)
    return gss_unavailable(minor_status);
  return f(minor_status, input_name);
}

/// Without the library, the GSSAPI part of libpq's error message
/// ("GSSAPI name import error: ...") says why: the text is ours, and
/// gss_release_buffer below frees it.
OM_uint32 gss_display_status(OM_uint32 *minor_status, OM_uint32 status_value,
                             int status_type, gss_OID mech_type,
                             OM_uint32 *message_context,
                             gss_buffer_t status_string)
{
  static auto *const f =
    from<decltype(::gss_display_status)>(gssapi(), "gss_display_status");
  if (f != nullptr)
    return f(minor_status, status_value, status_type, mech_type,
             message_context, status_string);
  std::string const &why = gssapi().error();
  if (status_type != GSS_C_GSS_CODE || why.empty() || status_string == nullptr)
    return gss_unavailable(minor_status);
  status_string->value = strdup(why.c_str());
  if (status_string->value == nullptr)
    return gss_unavailable(minor_status);
  status_string->length = why.size();
  if (message_context != nullptr)
    *message_context = 0;
  if (minor_status != nullptr)
    *minor_status = 0;
  return GSS_S_COMPLETE;
}

OM_uint32 gss_release_buffer(OM_uint32 *minor_status, gss_buffer_t buffer)
{
  static auto *const f =
    from<decltype(::gss_release_buffer)>(gssapi(), "gss_release_buffer");
  if (f != nullptr)
    return f(minor_status, buffer);
  // only gss_display_status above fills a buffer when the library is absent
  if (buffer != nullptr)
  {
    std::free(buffer->value);
    buffer->value = nullptr;
    buffer->length = 0;
  }
  if (minor_status != nullptr)
    *minor_status = 0;
  return GSS_S_COMPLETE;
}

/// libpq's LDAP lookup starts here: a null handle is its "could not create
/// LDAP structure", and no other LDAP call follows it.
LDAP *ldap_init(char const *host, int port)
{
  static auto *const f = from<decltype(::ldap_init)>(openldap(), "ldap_init");
  return f == nullptr ? nullptr : f(host, port);
}

int ldap_set_option(LDAP *ld, int option, void const *invalue)
{
  static auto *const f =
    from<decltype(::ldap_set_option)>(openldap(), "ldap_set_option");
  return f == nullptr ? LDAP_OPT_ERROR : f(ld, option, invalue);
}

int ldap_simple_bind(LDAP *ld, char const *who, char const *passwd)
{
  static auto *const f =
    from<decltype(::ldap_simple_bind)>(openldap(), "ldap_simple_bind");
  return f == nullptr ? -1 : f(ld, who, passwd);
}

int ldap_result(LDAP *ld, int msgid, int all, struct timeval *timeout,
                LDAPMessage **result)
{
  static auto *const f = from<decltype(::ldap_result)>(openldap(), "ldap_result");
  return f == nullptr ? -1 : f(ld, msgid, all, timeout, result);
}

int ldap_search_st(LDAP *ld, char const *base, int scope, char const *filter,
                   char **attrs, int attrsonly, struct timeval *timeout,
                   LDAPMessage **res)
{
  static auto *const f =
    from<decltype(::ldap_search_st)>(openldap(), "ldap_search_st");
  return f == nullptr ? LDAP_OTHER
                      : f(ld, base, scope, filter, attrs, attrsonly, timeout,
                          res);
}

int ldap_count_entries(LDAP *ld, LDAPMessage *chain)
{
  static auto *const f =
    from<decltype(::ldap_count_entries)>(openldap(), "ldap_count_entries");
  return f == nullptr ? -1 : f(ld, chain);
}

LDAPMessage *ldap_first_entry(LDAP *ld, LDAPMessage *chain)
{
  static auto *const f =
    from<decltype(::ldap_first_entry)>(openldap(), "ldap_first_entry");
  return f == nullptr ? nullptr : f(ld, chain);
}

struct berval **ldap_get_values_len(LDAP *ld, LDAPMessage *entry,
                                    char const *target)
{
  static auto *const f =
    from<decltype(::ldap_get_values_len)>(openldap(), "ldap_get_values_len");
  return f == nullptr ? nullptr : f(ld, entry, target);
}

void ldap_value_free_len(struct berval **vals)
{
  static auto *const f =
    from<decltype(::ldap_value_free_len)>(openldap(), "ldap_value_free_len");
  if (f != nullptr)
    f(vals);
}

int ldap_msgfree(LDAPMessage *lm)
{
  static auto *const f = from<decltype(::ldap_msgfree)>(openldap(), "ldap_msgfree");
  return f == nullptr ? LDAP_OTHER : f(lm);
}

int ldap_unbind(LDAP *ld)
{
  static auto *const f = from<decltype(::ldap_unbind)>(openldap(), "ldap_unbind");
  return f == nullptr ? LDAP_OTHER : f(ld);
}

char *ldap_err2string(int err)
{
  static auto *const f =
    from<decltype(::ldap_err2string)>(openldap(), "ldap_err2string");
  if (f != nullptr)
    return f(err);
  static char unavailable[] = "LDAP library unavailable";
  return unavailable;
}
} // extern "C"
