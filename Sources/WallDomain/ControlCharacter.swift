extension Unicode.Scalar {
    /// C0 and C1 control characters (and DEL): they would steer a terminal that prints them.
    public var isControl: Bool { properties.generalCategory == .control }
}
