#include "CSimdjson.h"

#include <simdjson.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <new>
#include <string_view>
#include <vector>

using simdjson::dom::element;
using simdjson::dom::object;

struct csimdjson_reader {
    simdjson::dom::parser parser;
    // The record copied with the padding simdjson reads past its end.
    std::vector<char> padded;
};

namespace {

using ActiveImplementation = simdjson::internal::atomic_ptr<const simdjson::implementation> &(*)();

using ToChars = char *(*)(char *, const char *, double);

// libsimdjson's functions the header does not inline, once the library is loaded: the parser's
// and the number writer's (a record is written back as JSON for the Codable reader).
ActiveImplementation loadedActiveImplementation = nullptr;
ToChars loadedToChars = nullptr;

// Loads libsimdjson once (the version of the header this was built with); false when it cannot.
bool loadSimdjson() {
    static const bool loaded = [] {
        void *library = dlopen("libsimdjson.so.14", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return false;
        loadedActiveImplementation =
            reinterpret_cast<ActiveImplementation>(dlsym(library, "_ZN8simdjson25get_active_implementationEv"));
        loadedToChars = reinterpret_cast<ToChars>(dlsym(library, "_ZN8simdjson8internal8to_charsEPcPKcd"));
        return loadedActiveImplementation != nullptr && loadedToChars != nullptr;
    }();
    return loaded;
}

// Deeper than any plain record (createdAt's Date object is at depth 2); a deeper record is left
// to the Codable reader, whose own limit then applies.
constexpr size_t maximumDepth = 16;

bool readText(element value, csimdjson_text &text) {
    std::string_view view;
    if (value.get_string().get(view)) return false;
    text.bytes = view.data();
    text.length = view.size();
    return true;
}

bool readNumber(element value, double &number) {
    return value.is_number() && !value.get_double().get(number);
}

// {"latitude":..,"longitude":..}: other fields are ignored, as GeoPoint's decoder ignores them.
bool readLocation(element value, csimdjson_post &post) {
    object location;
    if (value.get_object().get(location)) return false;
    bool latitude = false, longitude = false;
    for (auto field : location) {
        if (field.key == "latitude") {
            if (latitude || !readNumber(field.value, post.latitude)) return false;
            latitude = true;
        } else if (field.key == "longitude") {
            if (longitude || !readNumber(field.value, post.longitude)) return false;
            longitude = true;
        }
    }
    return latitude && longitude;
}

// A string, or Parse's {"__type":"Date","iso":..} (only `iso` is read, as the Codable reader does).
bool readDate(element value, csimdjson_text &text) {
    if (value.is_string()) return readText(value, text);
    object date;
    if (value.get_object().get(date)) return false;
    bool iso = false;
    for (auto field : date) {
        if (field.key == "iso") {
            if (iso || !readText(field.value, text)) return false;
            iso = true;
        }
    }
    return iso;
}

// Parse's `user`: a `_User` pointer or an included user. As the Codable reader: `objectId`,
// `username` and `name` are read when they are strings, anything else in it is ignored.
bool readUser(element value, csimdjson_post &post) {
    object user;
    if (value.get_object().get(user)) return false;
    post.has_user = 1;
    for (auto field : user) {
        csimdjson_text *text = field.key == "objectId" ? &post.user_object_id
                               : field.key == "username" ? &post.user_username
                               : field.key == "name" ? &post.user_name : nullptr;
        if (text == nullptr) continue;
        // Given twice: which one the Codable reader keeps is its own business.
        if (text->bytes) return false;
        if (field.value.is_string() && !readText(field.value, *text)) return false;
    }
    return true;
}

// A plain post record's fields, from its object; false leaves the record to the Codable reader.
bool readPost(object fields, csimdjson_post &post) {
    post = csimdjson_post{};
    bool location = false, user = false;
    for (auto field : fields) {
        auto key = field.key;
        if (key == "objectId") {
            if (post.object_id.bytes || !readText(field.value, post.object_id)) return false;
        } else if (key == "text") {
            if (post.text.bytes || !readText(field.value, post.text)) return false;
        } else if (key == "location") {
            if (location || !readLocation(field.value, post)) return false;
            location = true;
        } else if (key == "createdAt") {
            if (post.created_at.bytes || !readDate(field.value, post.created_at)) return false;
        } else if (key == "author") {
            if (post.author.bytes || !readText(field.value, post.author)) return false;
        } else if (key == "user") {
            if (user || !readUser(field.value, post)) return false;
            user = true;
        }
    }
    return post.text.bytes && location;
}

}  // namespace

struct csimdjson_export {
    simdjson::dom::parser parser;
    std::vector<element> records;
};

// Defined here instead of linked: the header's inline code calls them, and they forward to the
// library loaded at first use (`csimdjson_reader_create` and `csimdjson_export_parse` load it
// before any parser exists). Hidden, so that the library's own calls stay inside the library.
__attribute__((visibility("hidden"))) simdjson::internal::atomic_ptr<const simdjson::implementation> &
simdjson::get_active_implementation() {
    return loadedActiveImplementation();
}

__attribute__((visibility("hidden"))) char *simdjson::internal::to_chars(char *first, const char *last, double value) {
    return loadedToChars(first, last, value);
}

extern "C" struct csimdjson_reader *csimdjson_reader_create(void) {
    if (!loadSimdjson()) return nullptr;
    auto reader = new (std::nothrow) csimdjson_reader();
    if (reader == nullptr) return nullptr;
    if (reader->parser.allocate(4096, maximumDepth)) {
        delete reader;
        return nullptr;
    }
    return reader;
}

extern "C" void csimdjson_reader_destroy(struct csimdjson_reader *reader) { delete reader; }

extern "C" int csimdjson_read_post(struct csimdjson_reader *reader, const char *record, size_t length, struct csimdjson_post *post) {
    if (record == nullptr) return 0;
    if (reader->padded.size() < length + simdjson::SIMDJSON_PADDING) reader->padded.resize(length + simdjson::SIMDJSON_PADDING);
    std::memcpy(reader->padded.data(), record, length);
    if (reader->parser.capacity() < length && reader->parser.allocate(length, maximumDepth)) return 0;
    element document;
    if (reader->parser.parse(reader->padded.data(), length, false).get(document)) return 0;
    object fields;
    if (document.get_object().get(fields)) return 0;
    return readPost(fields, *post) ? 1 : 0;
}

extern "C" struct csimdjson_export *csimdjson_export_parse(const char *document, size_t length) {
    if (document == nullptr || !loadSimdjson()) return nullptr;
    auto parsed = new (std::nothrow) csimdjson_export();
    if (parsed == nullptr) return nullptr;
    element root;
    object top;
    simdjson::dom::array results;
    size_t resultsKeys = 0;
    if (!parsed->parser.parse(document, length, true).get(root) && !root.get_object().get(top)) {
        for (auto field : top) {
            if (field.key != "results") continue;
            ++resultsKeys;
            if (field.value.get_array().get(results)) resultsKeys = 0;
        }
    }
    // One `results` array, or the Codable reader decides.
    if (resultsKeys != 1) {
        delete parsed;
        return nullptr;
    }
    parsed->records.reserve(results.size());
    for (auto record : results) parsed->records.push_back(record);
    return parsed;
}

extern "C" void csimdjson_export_destroy(struct csimdjson_export *parsed) { delete parsed; }

extern "C" size_t csimdjson_export_count(const struct csimdjson_export *parsed) { return parsed->records.size(); }

extern "C" int csimdjson_export_read_post(const struct csimdjson_export *parsed, size_t index, struct csimdjson_post *post) {
    object fields;
    if (parsed->records[index].get_object().get(fields)) return 0;
    return readPost(fields, *post) ? 1 : 0;
}

extern "C" char *csimdjson_export_record_json(const struct csimdjson_export *parsed, size_t index, size_t *length) {
    std::string json = simdjson::minify(parsed->records[index]);
    auto copy = static_cast<char *>(std::malloc(json.size()));
    if (copy == nullptr) return nullptr;
    std::memcpy(copy, json.data(), json.size());
    *length = json.size();
    return copy;
}
