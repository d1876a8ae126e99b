import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels
import OpenAPIRuntime

/// API timestamps: written in UTC with milliseconds (`2026-05-21T12:43:55.206Z`, as CometChat Campaigns'
/// payloads and as stored); read with or without fractional seconds, in any offset.
struct MillisecondDates: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        WireTimestamp.format(date)
    }

    func decode(_ text: String) throws -> Date {
        if let date = WireTimestamp.parse(text) { return date }
        // The transcoder is not told which field it reads; the message quotes the value instead.
        throw HeraldError(
            .invalidField,
            "'\(text.prefix(64))' is not an ISO 8601 date-time such as 2026-11-23T09:30:00.000Z",
            details: ["field": "date-time"]
        )
    }
}
