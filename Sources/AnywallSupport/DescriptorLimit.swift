import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The number of file descriptors the process may open (`ulimit -n`).
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as a server that holds a descriptor per connection
    /// needs (the usual soft limit, 1024, is far below what a machine allows). Returns the limit
    /// now in force.
    public static func raiseToMaximum() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
