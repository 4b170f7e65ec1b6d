// What Swift cannot call of SQLite's C API: `sqlite3_config` is variadic.
#ifndef CSQLITE_H
#define CSQLITE_H

/// Configures SQLite for this process without the locks it does not need. Debian's SQLite is
/// built serialized, with memory statistics on: every call (each step, bind and column read)
/// takes its connection's mutex, and every allocation a global one. GRDB uses a connection from
/// one thread at a time, so multi-thread mode (no connection mutex) is safe; anywall reads no
/// memory statistics. Effective only before SQLite's first use in the process; 1 when it was.
int csqlite_configure(void);

#endif
