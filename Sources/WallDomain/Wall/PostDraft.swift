/// A new post as a client sends it: Anywall's fields, who may read and change it, and the fields
/// the client added.
public struct PostDraft: Equatable, Sendable {
    public let text: String
    public let location: GeoPoint
    /// nil: Anywall's (everyone reads, only the author writes), as anywall's clients ask.
    public let access: PostAccess?
    public let fields: [String: JSONValue]

    public init(text: String, location: GeoPoint, access: PostAccess? = nil, fields: [String: JSONValue] = [:]) {
        self.text = text
        self.location = location
        self.access = access
        self.fields = fields
    }
}

/// What an update changes in a post; what it leaves nil (or out of `fields`) stays.
public struct PostChanges: Equatable, Sendable {
    public var text: String?
    public var location: GeoPoint?
    public var access: PostAccess?
    public var fields: [String: FieldChange]

    public init(text: String? = nil, location: GeoPoint? = nil, access: PostAccess? = nil, fields: [String: FieldChange] = [:]) {
        self.text = text
        self.location = location
        self.access = access
        self.fields = fields
    }

    /// The added fields after the changes, from `current`, admitted by `schema`.
    public func fields(after current: [String: JSONValue], schema: inout PostSchema) throws(AnywallError) -> [String: JSONValue] {
        var result = current
        for name in fields.keys.sorted() {
            result[name] = try fields[name]!.applied(to: current[name], field: name)
        }
        try schema.admit(result.filter { fields[$0.key] != nil })
        try StoredFields.checkSize(result)
        return result
    }
}
