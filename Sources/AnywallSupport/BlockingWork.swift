import Dispatch

/// Work that holds a thread for long (a password hash: a third of a second; decoding a page of
/// large posts), run on Dispatch's threads: the threads that answer requests (a server's event
/// loops) must stay free to answer other clients meanwhile.
public enum BlockingWork {
    /// `body`'s result, computed on a Dispatch thread.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}
