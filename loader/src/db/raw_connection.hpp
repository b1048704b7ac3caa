#pragma once
#include <libpq-fe.h>
#include <pqxx/largeobject>

namespace loader::db
{
/// The PGconn under a libpqxx 6.4 transaction.  libpqxx hands it out only
/// to its large-object classes, through a protected static; a subclass may
/// call it.  Used where libpqxx 6.4 has no API: raw-bytes COPY and the
/// after_publish_commit failpoint.
struct RawConnection : pqxx::largeobject
{
  static PGconn *of(pqxx::dbtransaction const &tx)
  {
    return raw_connection(tx);
  }
};
} // namespace loader::db
