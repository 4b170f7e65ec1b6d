// simdjson (libsimdjson-dev) for Swift: the fields of one post record of an import, read from
// its JSON some 25 times faster than Foundation's JSONDecoder, which was the bound of a large
// import (docs/performance.md).
//
// The library is loaded with dlopen at first use, as libcurl and GEOS are: linked, it cost every
// start of anywall 0.2 M instructions (docs/performance.md), while only `import` reads with it. Without it,
// every record goes the Codable way.
//
// Only a plain record is read here: anything else (not a JSON object, a field of another type,
// a field given twice, a `user`, nesting deeper than a record's) is left to the Codable reader,
// which is the reference: the fast path must give the same post or none (the `import` fuzz
// target checks it on every line the fuzzer makes; ImportRecordDecoderTests on chosen ones).
#ifndef CSIMDJSON_H
#define CSIMDJSON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A string field's UTF-8 bytes (escapes resolved), valid until the reader reads again;
/// `bytes` is NULL when the record has no such field.
struct csimdjson_text {
    const char *bytes;
    size_t length;
};

/// The fields of a plain post record.
struct csimdjson_post {
    struct csimdjson_text object_id;
    /// Never absent in a record read.
    struct csimdjson_text text;
    double latitude;
    double longitude;
    /// `createdAt` as a string, or the `iso` of a Parse Date object.
    struct csimdjson_text created_at;
    struct csimdjson_text author;
};

/// A parser and its buffers, for one thread.
struct csimdjson_reader;

/// A reader; NULL when libsimdjson cannot be loaded (or memory is short).
struct csimdjson_reader *csimdjson_reader_create(void);
void csimdjson_reader_destroy(struct csimdjson_reader *reader);

/// 1 when `record` is a plain post record, its fields then in `post`; 0 otherwise (`post` is
/// then undefined): read it the slow way.
int csimdjson_read_post(struct csimdjson_reader *reader, const char *record, size_t length, struct csimdjson_post *post);

#ifdef __cplusplus
}
#endif

#endif
