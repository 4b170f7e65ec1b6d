import Foundation
import TestSupport
import Testing

/// `GET /serverInfo` over HTTP.
@Suite("anywall-server: server info")
struct ServerInfoTests {
    @Test("master key only; Parse Server's shape, stating what anywall-server does")
    func serverInfo() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-info-\(UUID().uuidString).sqlite"))
        let refused = try server.send("GET", "/serverInfo")
        #expect(refused.status == 403 && refused.text == #"{"error":"unauthorized: master key is required"}"#, "\(refused)")
        var headers = WallServer.keyHeaders
        headers["X-Parse-Master-Key"] = Sandbox.masterKey
        let info = try server.send("GET", "/serverInfo", headers: headers)
        #expect(info.status == 200, "\(info)")
        #expect((info.json["parseServerVersion"] as? String)?.hasSuffix("+anywall-server") == true, "\(info)")
        let features = try #require(info.json["features"] as? [String: [String: Bool]], "\(info)")
        #expect(Set(features.keys) == ["globalConfig", "hooks", "cloudCode", "logs", "push", "schemas"])
        #expect(features["globalConfig"] == ["create": true, "read": true, "update": true, "delete": true])
        #expect(features["schemas"]?.filter(\.value).keys.sorted() == ["addField", "removeField"], "fields, never classes: \(features)")
        #expect(features.filter { $0.key != "globalConfig" && $0.key != "schemas" }.values.allSatisfy { $0.values.allSatisfy { !$0 } },
                "no hooks, cloud code, logs or push: \(features)")
        #expect(server.stop() == 0)
    }
}
