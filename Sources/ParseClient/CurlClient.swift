import AnywallSupport
import CCurl
import Foundation
import ParseWire
import WallDomain

/// HTTP through libcurl: one easy handle for the life of the client, so connections (and TLS
/// sessions) to a server are reused from one request to the next.
///
/// TLS peer and host verification are always on; responses may come compressed (any encoding
/// libcurl knows); redirects are not followed (a Parse Server does not send them, and replaying a
/// POST elsewhere is not safe). Not for use from several threads at once.
public final class CurlClient {
    /// The largest answer accepted: a nearby query of 1,000 posts is well under 1 MiB.
    public static let responseLimit = 32 * 1_048_576

    public let timeouts: HTTPTimeouts
    /// `anywall/VERSION libcurl/VERSION`.
    public let userAgent: String
    private let handle: UnsafeMutableRawPointer

    /// Loads libcurl (on first use in the process) and opens a handle.
    public init(timeouts: HTTPTimeouts) throws {
        if let error = ccurl_load() {
            throw AnywallError.failure("cannot load libcurl (install libcurl4): \(String(cString: error))")
        }
        guard let handle = ccurl_easy_init() else { throw AnywallError.failure("libcurl could not start a session") }
        self.handle = handle
        self.timeouts = timeouts
        let curl = String(cString: ccurl_version()).split(separator: " ").first.map(String.init) ?? "libcurl"
        userAgent = "anywall/\(AnywallVersion.current) \(curl)"
    }

    deinit {
        ccurl_easy_cleanup(handle)
    }

    /// Sends `request` and waits for the whole answer, or says why there is none.
    public func perform(_ request: HTTPRequest) throws(HTTPFailure) -> HTTPResponse {
        let buffer = ResponseBuffer(limit: Self.responseLimit)
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headers: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers { headers = ccurl_slist_append(headers, "\(name): \(value)") }
        // libcurl adds `Expect: 100-continue` to larger POSTs, which costs a round trip; Parse does not need it.
        headers = ccurl_slist_append(headers, "Expect:")
        defer { ccurl_slist_free_all(headers) }

        ccurl_easy_reset(handle)
        ccurl_setopt_string(handle, CURLOPT_URL, request.url)
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeouts.connect))
        ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeouts.total))
        ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        ccurl_setopt_string(handle, CURLOPT_USERAGENT, userAgent)
        ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
        switch request.method {
        case .get:
            ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        case .delete:
            ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "DELETE")
        case .post, .put:
            let body = request.body ?? Data()
            ccurl_setopt_long(handle, CURLOPT_POST, 1)
            if request.method == .put { ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "PUT") }
            ccurl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
            // COPYPOSTFIELDS copies: the bytes below live only for this call.
            if body.isEmpty {
                ccurl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                body.withUnsafeBytes { bytes in
                    _ = ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
        }
        let code: CURLcode = withExtendedLifetime(buffer) {
            errorText.withUnsafeMutableBufferPointer { text in
                ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, text.baseAddress)
                ccurl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                    let buffer = Unmanaged<ResponseBuffer>.fromOpaque(context!).takeUnretainedValue()
                    return buffer.append(data, size * count)
                }
                ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(buffer).toOpaque())
                return ccurl_easy_perform(handle)
            }
        }
        guard code == CURLE_OK else {
            let detail = errorText.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw failure(code, detail: detail.isEmpty ? String(cString: ccurl_easy_strerror(code)) : detail)
        }
        var status = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, body: buffer.data)
    }

    private func failure(_ code: CURLcode, detail: String) -> HTTPFailure {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_SSL_CONNECT_ERROR,
             CURLE_PEER_FAILED_VERIFICATION, CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .cannotConnect(detail)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(timeouts.total)
        case CURLE_WRITE_ERROR:
            return .responseTooLarge(Self.responseLimit)
        default:
            return .connectionLost(detail)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int((duration.inSeconds * 1000).rounded()))
    }
}

/// Collects a response body, refusing to grow past a limit.
private final class ResponseBuffer {
    var data = Data()
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `count` bytes; returning less than `count` tells libcurl to stop.
    func append(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes, data.count + count <= limit else { return 0 }
        data.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }
}
