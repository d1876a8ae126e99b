import Foundation
import HeraldModels
import Logging

public enum HeraldLogging {
    /// JSON lines unless the format is `text` (`HERALD_LOG_FORMAT`, `log.format`).
    public static func bootstrap(level: Logger.Level, format: String = ProcessInfo.processInfo.environment["HERALD_LOG_FORMAT"] ?? "json") {
        let text = format.lowercased() == "text"
        LoggingSystem.bootstrap { label in
            if text {
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
            return JSONLogHandler(label: label, level: level)
        }
    }
}
