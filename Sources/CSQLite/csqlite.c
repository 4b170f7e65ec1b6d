#include "CSQLite.h"

#include <sqlite3.h>

int csqlite_configure(void) {
    return sqlite3_config(SQLITE_CONFIG_MULTITHREAD) == SQLITE_OK && sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
}
