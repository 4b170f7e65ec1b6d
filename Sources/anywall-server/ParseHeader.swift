import HTTPTypes

/// The request headers of Parse's REST API.
enum ParseHeader {
    static let applicationId = HTTPField.Name("X-Parse-Application-Id")!
    static let restKey = HTTPField.Name("X-Parse-REST-API-Key")!
    static let masterKey = HTTPField.Name("X-Parse-Master-Key")!
    static let sessionToken = HTTPField.Name("X-Parse-Session-Token")!
    static let requestId = HTTPField.Name("X-Parse-Request-Id")!
}
