#pragma once
#include <chrono>
#include <string>

namespace loader
{
/// SIGTERM and SIGINT (systemd stop, an Airflow kill, Ctrl-C).  The first
/// one sets a flag and cancels the query in flight through the registered
/// canceller; the flows then close their attempt as interrupted and exit
/// 75.  A second one ends the process at once (the default action).
void install_interrupt_handlers() noexcept;

/// The signal that interrupted the run, or 0.
int interrupted() noexcept;

/// Throws LoaderError{interrupted} ("interrupted by SIGTERM during ...")
/// when a signal came.
void throw_if_interrupted(std::string const &during);

/// Sleep d, or less when SIGTERM/SIGINT comes meanwhile (the retry
/// layer's waits in the flows).
void sleep_unless_interrupted(std::chrono::milliseconds d);

/// What the signal handler calls to cancel the running query, with its
/// argument; it must be async-signal-safe (libpq's PQcancel is).  nullptr:
/// nothing to cancel.
using Canceller = void (*)(void *) noexcept;
void set_canceller(Canceller fn, void *arg) noexcept;
} // namespace loader
