import Foundation

extension Process {
    /// `run()`, run again (at most twice) when the spawn fails with "Bad file descriptor".
    ///
    /// On Linux, Foundation's `run()` tells the child to close each descriptor the parent had
    /// open when it looked; a test on another thread closing one of them before the spawn fails
    /// it (seen once in CI, 359 tests running at once). A failed spawn starts nothing and leaves
    /// the process unlaunched, so running it again is safe.
    package func runRetryingDescriptorRace() throws {
        var attempt = 1
        while true {
            do {
                return try run()
            } catch where attempt < 3 && Self.isBadDescriptor(error) {
                attempt += 1
            }
        }
    }

    private static func isBadDescriptor(_ error: Error) -> Bool {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return error.code == Int(EBADF) }
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError else { return false }
        return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(EBADF)
    }
}
