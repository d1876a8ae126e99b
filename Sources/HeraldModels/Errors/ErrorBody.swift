/// The body of every error Herald answers: `{"error":{"code","message","details"}}`.
public struct ErrorBody: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
        public var details: [String: String]?

        public init(code: String, message: String, details: [String: String]? = nil) {
            self.code = code
            self.message = message
            self.details = details
        }
    }

    public var error: Detail

    public init(error: Detail) { self.error = error }
}
