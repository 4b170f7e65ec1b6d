import Foundation
import TestSupport
import Testing

/// `anywall login --facebook --json` running while a test plays the user at facebook.com/device.
struct DeviceLoginRun {
    let process: LiveProcess
    /// The code anywall showed (on stderr, and as JSON on stdout).
    let userCode: String

    /// Starts it and waits for the code, checking that both stderr and the JSON name it and the URL.
    init(_ box: Sandbox, environment: [String: String]) throws {
        process = try LiveProcess(box, ["login", "--facebook", "--json"], environment: environment)
        try #require(process.waitUntil { !$0.jsonLines.isEmpty }, "no code shown: \(process.stderr)")
        let shown = process.jsonLines.first ?? [:]
        userCode = shown["user_code"] as? String ?? ""
        #expect(!userCode.isEmpty && shown["verification_uri"] as? String == "https://www.facebook.com/device" && shown["interval"] as? Int != nil,
                "\(shown)")
        #expect(process.stderr.contains(userCode) && process.stderr.contains("https://www.facebook.com/device"), "\(process.stderr)")
    }

    /// Waits until anywall has polled `count` times.
    func waitForPolls(_ count: Int, on facebook: FakeFacebook) -> Bool {
        process.waitUntil(timeout: .seconds(20)) { _ in ((try? facebook.pollTimes()) ?? []).count >= count }
    }
}
