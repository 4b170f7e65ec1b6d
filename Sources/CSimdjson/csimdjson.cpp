#include "CSimdjson.h"

#include <simdjson.h>

#include <dlfcn.h>

#include <cstring>
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

// libsimdjson's one function the header does not inline, once the library is loaded.
ActiveImplementation loadedActiveImplementation = nullptr;

// Loads libsimdjson once (the version of the header this was built with); false when it cannot.
bool loadSimdjson() {
    static const bool loaded = [] {
        void *library = dlopen("libsimdjson.so.14", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return false;
        loadedActiveImplementation =
            reinterpret_cast<ActiveImplementation>(dlsym(library, "_ZN8simdjson25get_active_implementationEv"));
        return loadedActiveImplementation != nullptr;
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

}  // namespace

// Defined here instead of linked: the parser's inline code calls it, and it forwards to the
// library loaded at first use (`csimdjson_reader_create` loads it before any parser exists).
// Hidden, so that the library's own calls to it stay inside the library.
__attribute__((visibility("hidden"))) simdjson::internal::atomic_ptr<const simdjson::implementation> &
simdjson::get_active_implementation() {
    return loadedActiveImplementation();
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
    *post = csimdjson_post{};
    bool location = false;
    for (auto field : fields) {
        auto key = field.key;
        if (key == "objectId") {
            if (post->object_id.bytes || !readText(field.value, post->object_id)) return 0;
        } else if (key == "text") {
            if (post->text.bytes || !readText(field.value, post->text)) return 0;
        } else if (key == "location") {
            if (location || !readLocation(field.value, *post)) return 0;
            location = true;
        } else if (key == "createdAt") {
            if (post->created_at.bytes || !readDate(field.value, post->created_at)) return 0;
        } else if (key == "author") {
            if (post->author.bytes || !readText(field.value, post->author)) return 0;
        } else if (key == "user") {
            return 0;
        }
    }
    return post->text.bytes && location ? 1 : 0;
}
