import Foundation

/// Herald's timestamps on the wire: ISO 8601 in UTC with milliseconds
/// (`2026-05-21T12:43:55.206Z`, CometChat Campaigns' shape), read with or without fractional seconds.
/// Shared by the server's API and payloads and by the SDK, so the two read what the other writes.
public enum WireTimestamp {
    public static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    public static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
