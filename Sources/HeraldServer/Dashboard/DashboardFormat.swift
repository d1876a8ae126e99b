import Foundation

/// Formatting shared by the pages.
enum DashboardFormat {
    /// `2026-11-23 06:30:57` (a value type: one for every row of every page).
    private static let timestamp = Date.ISO8601FormatStyle(
        dateSeparator: .dash,
        dateTimeSeparator: .space,
        timeSeparator: .colon,
        timeZone: TimeZone(identifier: "UTC")!
    )
    .year().month().day().time(includingFractionalSeconds: false)

    static func date(_ date: Date?) -> String {
        guard let date else { return "—" }
        return date.formatted(timestamp) + " UTC"
    }

    /// A formatter of UTC times in a fixed pattern.
    static func utc(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }

    /// What `<input type="datetime-local">` sends, read as UTC.
    static func parseLocalInput(_ text: String) -> Date? {
        ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"].lazy.compactMap { utc($0).date(from: text) }.first
    }

    /// A value as one segment of a dashboard path (a `/` in it escaped).
    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }

    /// A device token's start and end (enough to recognise it).
    static func shortToken(_ token: String) -> String {
        token.count > 20 ? "\(token.prefix(10))…\(token.suffix(6))" : token
    }
}
