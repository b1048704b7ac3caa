#include "core/errors.hpp"
#include "core/printable.hpp"

#include <cerrno>
#include <string>

#include <curl/curl.h>

namespace loader
{
std::vector<ExitCodeInfo> const &exit_codes()
{
  using K = ErrorKind;
  static std::vector<ExitCodeInfo> const table{
    {exit_ok, "EX_OK",
     "success; for load: the batch is published (by this run or an "
     "earlier one)",
     "success; for `load`, the batch is published (by this run or an "
     "earlier one); for `catch-up`, every date up to the last one asked "
     "for is",
     "nothing: what was asked for is done; never anything less", 0},
    {exit_usage, "EX_USAGE", "usage error: the command line is malformed",
     "usage error: an unknown command or option, a missing value or "
     "required option, an extra argument, options that cannot be "
     "combined, a value that is not what its option takes (not a real "
     "YYYY-MM-DD date, a number out of range, a word not among the "
     "choices, an empty or blank value), an argument that is not UTF-8; "
     "nothing is registered or stored",
     "fix the command line; the same one fails the same way",
     kind_bit(K::usage)},
    {exit_data, "EX_DATAERR",
     "data error: the batch is quarantined; the reasons are stored",
     "data error: the batch is quarantined (schema, validation, "
     "reconciliation, the file changing while read); the reasons are in "
     "`ingest.rejection`",
     "do not retry; alert the data owner (`invoice-loader status` shows "
     "the reasons), and after the fix `replay` the batch or deliver a "
     "corrected file",
     kind_bit(K::data)},
    {exit_no_input, "EX_NOINPUT", "the input does not exist",
     "the input or its manifest does not exist (the delivery is not "
     "complete; nothing is registered)",
     "not delivered yet: retry until the delivery deadline, then alert",
     kind_bit(K::no_input)},
    {exit_internal, "EX_SOFTWARE", "internal error (a bug)",
     "internal error (a bug)", "page a human and report it",
     kind_bit(K::internal)},
    {exit_temp_fail, "EX_TEMPFAIL",
     "temporary failure; rerunning later is safe",
     "try later: the batch waits for an earlier business date, or is "
     "written and awaiting an operator's approval (a source with "
     "`--require-approval`: `approve` or `reject`), the retry "
     "budget ran out (server unreachable, another run holding the batch), "
     "the file is not delivered yet (a URL "
     "answering 404 or 410), a commit's outcome is not known yet, or the "
     "run was stopped by SIGTERM/SIGINT; rerunning is safe",
     "retry the same command after a delay",
     kind_bit(K::transient) | kind_bit(K::in_doubt) |
       kind_bit(K::interrupted)},
    {exit_permission, "EX_NOPERM", "permission or credential failure",
     "permission or credential failure: a login or a download refused, a "
     "missing privilege (the error names the role the command needs), a "
     "file the loader may not read, a confirm by the operator who "
     "requested the action (four eyes: a second, different login "
     "confirms)",
     "page a human; retrying cannot help", kind_bit(K::permission)},
    {exit_config, "EX_CONFIG",
     "configuration error (unknown source, a bad value in --config)",
     "configuration error: unknown source or batch, a bad value in the "
     "`--config` file, a password where a secret may not be, the "
     "same bytes registered for another date, an edited migration, a "
     "schema other than the binary's, an operator action on a batch in "
     "the wrong state (an approve or reject of a batch not awaiting "
     "approval), a confirm of an unknown or already confirmed action, an "
     "input larger than `--max-input-bytes`",
     "page a human; retrying cannot help", kind_bit(K::config)},
  };
  return table;
}

int exit_code_of(ErrorKind kind) noexcept
{
  for (ExitCodeInfo const &row : exit_codes())
    if ((row.kinds & kind_bit(kind)) != 0) return row.code;
  return exit_internal;
}

std::string_view name_of(ErrorKind kind) noexcept
{
  switch (kind)
  {
  case ErrorKind::usage: return "usage";
  case ErrorKind::data: return "data";
  case ErrorKind::no_input: return "no_input";
  case ErrorKind::internal: return "internal";
  case ErrorKind::transient: return "transient";
  case ErrorKind::in_doubt: return "in_doubt";
  case ErrorKind::interrupted: return "interrupted";
  case ErrorKind::permission: return "permission";
  case ErrorKind::config: return "config";
  }
  return "internal";
}

namespace
{
bool starts_with(std::string_view s, std::string_view prefix) noexcept
{
  return s.substr(0, prefix.size()) == prefix;
}
} // namespace

ErrorKind classify_sqlstate(std::string_view s) noexcept
{
  // Our own codes first (sql/ERRCODES.md, whose every row a unit test
  // checks against this): IV1xx bad input, IV2xx batch state, IV3xx
  // configuration, IV4xx permission.
  if (s == "IV203" or s == "IV209" or s == "IV216" or s == "IV218" or
      s == "IV219")
    return ErrorKind::transient;
  if (s == "IV208" or s == "IV215" or s == "IV217") return ErrorKind::config;
  if (starts_with(s, "IV1")) return ErrorKind::data;
  if (starts_with(s, "IV3")) return ErrorKind::config;
  if (starts_with(s, "IV4")) return ErrorKind::permission;
  if (starts_with(s, "IV")) return ErrorKind::internal;

  // Transient: the same unit of work may succeed when tried again.
  if (starts_with(s, "08") and s != "08P01") return ErrorKind::transient;
  if (s == "40001" or s == "40P01" or s == "55P03" or s == "55006" or
      s == "57P01" or s == "57P02" or s == "57P03" or s == "57P05" or
      s == "25P03" or s == "53300" or s == "53200")
    return ErrorKind::transient;
  if (s == "40003") return ErrorKind::in_doubt;

  // Credentials and privileges: never retried (lockout).
  if (starts_with(s, "28") or s == "42501") return ErrorKind::permission;

  // The data is wrong: the same input fails again.
  if (starts_with(s, "22") or starts_with(s, "23")) return ErrorKind::data;

  // 3D000: the database named in the DSN does not exist.
  if (s == "3D000") return ErrorKind::config;

  return ErrorKind::internal;
}
std::string one_line(std::string_view message, bool keep_context)
{
  std::string out;
  std::size_t start = 0;
  bool in_context = false;
  while (start <= message.size())
  {
    auto end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    std::string_view line = message.substr(start, end - start);
    start = end + 1;
    while (not line.empty() and
           (line.back() == ' ' or line.back() == '\r' or line.back() == '\t'))
      line.remove_suffix(1);
    if (line.substr(0, 8) == "CONTEXT:")
      in_context = true;
    else if (line.substr(0, 7) == "DETAIL:" or line.substr(0, 5) == "HINT:")
      in_context = false;
    if (line.empty() or (in_context and not keep_context)) continue;
    if (not out.empty()) out += "; ";
    out += printable(line);
    if (end == message.size()) break;
  }
  // "step: ERROR:  message" -> "step: message"
  for (auto at = out.find("ERROR:  "); at != std::string::npos;
       at = out.find("ERROR:  ", at))
    out.erase(at, 8);
  return out;
}

ErrorKind classify_errno(int err) noexcept
{
  switch (err)
  {
  case ENOENT:
  case ENOTDIR:
  case EISDIR:
  case ENAMETOOLONG:
  case ELOOP: return ErrorKind::no_input;
  case EACCES:
  case EPERM: return ErrorKind::permission;
  case EIO:
  case EINTR:
  case EAGAIN:
  case ENOMEM:
  case EMFILE:
  case ENFILE:
  case ESTALE:
  case ETIMEDOUT: return ErrorKind::transient;
  default: return ErrorKind::internal;
  }
}

ErrorKind classify_curl(int code) noexcept
{
  switch (static_cast<CURLcode>(code))
  {
  // The network or the server failed this time; the same transfer may
  // work when tried again.  A cut body (18) is one of them: the server's
  // Content-Length promised more than arrived.
  case CURLE_COULDNT_RESOLVE_PROXY:
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_CONNECT:
  case CURLE_WEIRD_SERVER_REPLY:
  case CURLE_HTTP2:
  case CURLE_PARTIAL_FILE:
  case CURLE_OUT_OF_MEMORY:
  case CURLE_OPERATION_TIMEDOUT:
  case CURLE_GOT_NOTHING:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_SSL_SHUTDOWN_FAILED:
  case CURLE_AGAIN:
  case CURLE_SSH:
  case CURLE_HTTP2_STREAM:
  case CURLE_HTTP3:
  case CURLE_QUIC_CONNECT_ERROR:
  case CURLE_PROXY:
  case CURLE_UNRECOVERABLE_POLL: return ErrorKind::transient;

  // Not there (yet): file:// and sftp://.  is_not_delivered_curl().
  case CURLE_REMOTE_FILE_NOT_FOUND:
  case CURLE_FILE_COULDNT_READ_FILE: return ErrorKind::transient;

  // The server refused who we are.
  case CURLE_REMOTE_ACCESS_DENIED:
  case CURLE_LOGIN_DENIED:
  case CURLE_AUTH_ERROR: return ErrorKind::permission;

  // The same settings fail the same way: the URL, the CA, the TLS setup.
  // A TLS handshake failure (35) is config too: with a wrong CA or a
  // protocol mismatch it never heals by itself (net/ makes one that a
  // socket error caused, a reset mid-handshake, transient).
  case CURLE_UNSUPPORTED_PROTOCOL:
  case CURLE_URL_MALFORMAT:
  case CURLE_NOT_BUILT_IN:
  case CURLE_SSL_CONNECT_ERROR:
  case CURLE_TOO_MANY_REDIRECTS:
  case CURLE_INTERFACE_FAILED:
  case CURLE_SSL_ENGINE_NOTFOUND:
  case CURLE_SSL_ENGINE_SETFAILED:
  case CURLE_SSL_CERTPROBLEM:
  case CURLE_SSL_CIPHER:
  case CURLE_PEER_FAILED_VERIFICATION:
  case CURLE_BAD_CONTENT_ENCODING:
  case CURLE_FILESIZE_EXCEEDED:
  case CURLE_USE_SSL_FAILED:
  case CURLE_SSL_ENGINE_INITFAILED:
  case CURLE_SSL_CACERT_BADFILE:
  case CURLE_SSL_CRL_BADFILE:
  case CURLE_SSL_ISSUER_ERROR:
  case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
  case CURLE_SSL_INVALIDCERTSTATUS:
  case CURLE_SSL_CLIENTCERT:
  case CURLE_QUOTE_ERROR: return ErrorKind::config;

  default: return ErrorKind::internal;
  }
}

ErrorKind classify_http_status(int status) noexcept
{
  if (status == 408 or status == 429) return ErrorKind::transient;
  if (status >= 500 and status <= 599) return ErrorKind::transient;
  if (status == 401 or status == 403 or status == 407)
    return ErrorKind::permission;
  if (is_not_delivered_http(status)) return ErrorKind::transient;
  if (status >= 300 and status <= 499) return ErrorKind::config;
  if (status >= 100 and status <= 299) return ErrorKind::internal;
  // Not an HTTP status at all: a broken server or a proxy in between.
  return ErrorKind::transient;
}

bool is_not_delivered_http(int status) noexcept
{
  return status == 404 or status == 410;
}

bool is_not_delivered_curl(int code) noexcept
{
  return code == CURLE_REMOTE_FILE_NOT_FOUND or
         code == CURLE_FILE_COULDNT_READ_FILE;
}

ErrorKind classify_smtp_reply(int code) noexcept
{
  if (code == 530 or code == 534 or code == 535 or code == 538)
    return ErrorKind::permission;
  if (code >= 400 and code <= 499) return ErrorKind::transient;
  if (code >= 500 and code <= 599) return ErrorKind::config;
  return ErrorKind::internal;
}
} // namespace loader
