import Logging
import OpenAPIRuntime

/// What an error may put in a log line. A database error's own description hides its cause
/// (PostgresNIO's says only "Generic description to prevent accidental leakage"); its debug
/// description names the server's message, SQL state and statement, with every bound value
/// masked. A generated handler's error describes the whole request, headers included (the
/// bearer credential): only its operation and cause go in.
enum LoggedError {
    static func text(_ error: any Error) -> String {
        if let error = error as? ServerError {
            return "\(error.operationID): \(String(reflecting: error.underlyingError))"
        }
        return String(reflecting: error)
    }
}

extension Logger.MetadataValue {
    /// An error as a log line's metadata (``LoggedError``).
    static func error(_ error: any Error) -> Self {
        .string(LoggedError.text(error))
    }
}
