// simdjson (libsimdjson-dev) for Swift: the fields of one post record of an import, read from
// its JSON some 25 times faster than Foundation's JSONDecoder, which was the bound of a large
// import (docs/performance.md).
//
// The library is loaded with dlopen at first use, as libcurl and GEOS are: linked, it cost every
// start of anywall 0.2 M instructions (docs/performance.md), while only `import` reads with it. Without it,
// every record goes the Codable way.
//
// Only a plain record is read here: anything else (not a JSON object, a field of another type,
// a field given twice, nesting deeper than a record's) is left to the Codable reader,
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
    /// 1 when the record has a `user` object (a `_User` pointer or an included user): the author
    /// is then its objectId, username and name, each absent unless a string, and `author` is ignored.
    int has_user;
    struct csimdjson_text user_object_id;
    struct csimdjson_text user_username;
    struct csimdjson_text user_name;
};

/// A parser and its buffers, for one thread.
struct csimdjson_reader;

/// A reader; NULL when libsimdjson cannot be loaded (or memory is short).
struct csimdjson_reader *csimdjson_reader_create(void);
void csimdjson_reader_destroy(struct csimdjson_reader *reader);

/// 1 when `record` is a plain post record, its fields then in `post`; 0 otherwise (`post` is
/// then undefined): read it the slow way.
int csimdjson_read_post(struct csimdjson_reader *reader, const char *record, size_t length, struct csimdjson_post *post);

/// A whole Parse export (`{"results":[...]}`), parsed at once; its records read from any thread.
struct csimdjson_export;

/// The export in `document`; NULL when it is not valid JSON holding one `results` array, or
/// libsimdjson cannot be loaded: read it the slow way.
struct csimdjson_export *csimdjson_export_parse(const char *document, size_t length);
void csimdjson_export_destroy(struct csimdjson_export *parsed);

/// The records in `results`.
size_t csimdjson_export_count(const struct csimdjson_export *parsed);

/// As `csimdjson_read_post`, for record `index` (its strings valid while the export lives).
int csimdjson_export_read_post(const struct csimdjson_export *parsed, size_t index, struct csimdjson_post *post);

/// Record `index` as JSON, for the slow reader: `length` bytes to free with `free`; NULL when
/// memory is short.
char *csimdjson_export_record_json(const struct csimdjson_export *parsed, size_t index, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
