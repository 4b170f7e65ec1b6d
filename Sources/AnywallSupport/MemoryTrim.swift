#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Gives memory that was freed back to the system. glibc's allocator keeps what a thread freed in
/// that thread's arena for reuse: after a large answer (a page of large posts, a batch) a server's
/// resident memory would stay at the highest it ever reached, one step higher each time large
/// answers coincide, though nothing leaked. `malloc_trim` hands the free pages of every arena back.
public enum MemoryTrim {
    private static let pending = Atomic<Bool>(false)

    /// glibc's `malloc_trim` and `mallopt`, which Swift's Glibc module does not declare (they are in malloc.h).
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    private static let trim: Trim? = glibc("malloc_trim", as: Trim.self)
    private static let option: Option? = glibc("mallopt", as: Option.self)

    private static func glibc<T>(_ name: String, as type: T.Type) -> T? {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
        #else
        return nil
        #endif
    }

    /// Sets the allocator up for a long-running server: buffers of 256 KiB and more get pages of
    /// their own, returned to the system when freed. glibc raises that threshold after each such
    /// buffer is freed (up to 32 MiB), after which every large answer came from the arenas and
    /// stayed there.
    public static func configureForServer() {
        _ = option?(-3, 256 * 1024)  // M_MMAP_THRESHOLD
    }

    /// Notes that much memory was freed: the next `trimIfNoted` gives it back.
    public static func noteLargeRelease() {
        pending.store(true, ordering: .relaxed)
    }

    /// Gives the free pages back, if much memory was freed since the last call. Cheap otherwise.
    public static func trimIfNoted() {
        guard pending.exchange(false, ordering: .relaxed) else { return }
        _ = trim?(0)
    }
}
