/// The request headers of Parse's REST API, as the client sends them and the server reads them.
public enum ParseHeader {
    public static let applicationId = "X-Parse-Application-Id"
    public static let restKey = "X-Parse-REST-API-Key"
    /// The JavaScript SDK's key, in place of the REST API key.
    public static let javascriptKey = "X-Parse-Javascript-Key"
    public static let masterKey = "X-Parse-Master-Key"
    public static let sessionToken = "X-Parse-Session-Token"
    public static let requestId = "X-Parse-Request-Id"
    public static let revocableSession = "X-Parse-Revocable-Session"
    public static let installationId = "X-Parse-Installation-Id"
    public static let clientVersion = "X-Parse-Client-Version"
}
