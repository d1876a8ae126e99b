#ifndef HERALD_CSQLITE_SETTINGS_H
#define HERALD_CSQLITE_SETTINGS_H

/// Turns off SQLite's memory statistics for the whole process (SQLITE_CONFIG_MEMSTATUS), which
/// Swift cannot do itself: sqlite3_config is variadic. With them on, every allocation SQLite
/// makes takes a process-wide mutex to count itself. Effective only before SQLite's first use in
/// the process; returns SQLite's result code (SQLITE_MISUSE when it is too late).
int herald_sqlite_disable_memory_statistics(void);

#endif
