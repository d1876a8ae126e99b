import Foundation

/// What a user wants to be told (`GET/PATCH /v1/me/preferences`); the app's defaults
/// (`defaultPreferences` in `/v1/push/settings`) fill what the user left unset.
public struct NotificationPreferences: Codable, Sendable, Equatable {
    /// Per event type (`message`, `call`, `reaction`, `group_action`): pushes on or off.
    public var events: [EventKind: Bool]?
    /// In groups, only messages that mention the user.
    public var groupMentionsOnly: Bool?
    public var doNotDisturb: DoNotDisturb?
    /// Words that count as a mention of the user (whole words, any case): they break through as
    /// mentions do, and through "mentions only" in groups.
    public var keywords: [String]?
    /// What this user's chat pushes carry, over the app's `contentMode`.
    public var contentMode: ContentMode?

    public static let maxKeywords = 50

    public init(
        events: [EventKind: Bool]? = nil,
        groupMentionsOnly: Bool? = nil,
        doNotDisturb: DoNotDisturb? = nil,
        keywords: [String]? = nil,
        contentMode: ContentMode? = nil
    ) {
        self.events = events
        self.groupMentionsOnly = groupMentionsOnly
        self.doNotDisturb = doNotDisturb
        self.keywords = keywords
        self.contentMode = contentMode
    }

    /// Quiet hours in the user's time zone (`start`–`end`, `HH:mm`, may wrap midnight), and/or
    /// quiet until a time. Calls still ring unless `allowCalls` is false.
    public struct DoNotDisturb: Codable, Sendable, Equatable {
        public var enabled: Bool
        public var start: String?
        public var end: String?
        public var until: Date?
        public var allowCalls: Bool?

        public init(enabled: Bool, start: String? = nil, end: String? = nil, until: Date? = nil, allowCalls: Bool? = nil) {
            self.enabled = enabled
            self.start = start
            self.end = end
            self.until = until
            self.allowCalls = allowCalls
        }
    }

    /// Switches per event type as a client sends them: every key must name a notifiable kind
    /// (the error names the key under `field`).
    public static func events(_ given: [String: Bool]?, field: String = "events") throws -> [EventKind: Bool]? {
        guard let given else { return nil }
        var events: [EventKind: Bool] = [:]
        for (name, on) in given { events[try EventKind.notifiable(name, field: "\(field).\(name)")] = on }
        return events
    }

    /// These preferences over `defaults`: what is set here wins.
    public func over(_ defaults: NotificationPreferences) -> NotificationPreferences {
        NotificationPreferences(
            events: (defaults.events ?? [:]).merging(events ?? [:]) { $1 },
            groupMentionsOnly: groupMentionsOnly ?? defaults.groupMentionsOnly,
            doNotDisturb: doNotDisturb ?? defaults.doNotDisturb,
            keywords: keywords ?? defaults.keywords,
            contentMode: contentMode ?? defaults.contentMode
        )
    }

    public func allows(_ kind: EventKind) -> Bool { events?[kind] ?? true }

    /// Checks the values a client may send.
    public func validated() throws -> NotificationPreferences {
        for kind in (events ?? [:]).keys where !EventKind.notifiable.contains(kind) {
            _ = try EventKind.notifiable(kind.rawValue, field: "events.\(kind.rawValue)")
        }
        if let keywords {
            guard keywords.count <= Self.maxKeywords else {
                throw HeraldError.invalidField("keywords", "must hold at most \(Self.maxKeywords) words")
            }
            for (index, word) in keywords.enumerated() {
                guard !word.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw HeraldError.invalidField("keywords[\(index)]", "must not be blank")
                }
                try Validate.text(word, field: "keywords[\(index)]", maxLength: 100, required: true)
            }
        }
        if let dnd = doNotDisturb {
            for (field, value) in [("start", dnd.start), ("end", dnd.end)] {
                if let value, Self.minutes(value) == nil {
                    throw HeraldError.invalidField("doNotDisturb.\(field)", "must be a time of day, HH:mm")
                }
            }
            if dnd.enabled, dnd.until == nil, dnd.start == nil || dnd.end == nil {
                throw HeraldError.invalidField("doNotDisturb", "needs start and end, or until")
            }
        }
        return self
    }

    /// Minutes after midnight of `HH:mm`.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes),
            parts[1].count == 2
        else { return nil }
        return hours * 60 + minutes
    }

    /// Whether do-not-disturb holds at `now` for a user in `timeZone` (UTC when unknown).
    public func isQuiet(at now: Date, timeZone: String?, isCall: Bool) -> Bool {
        guard let dnd = doNotDisturb, dnd.enabled else { return false }
        if isCall, dnd.allowCalls ?? true { return false }
        if let until = dnd.until, now < until { return true }
        guard let start = dnd.start.flatMap(Self.minutes), let end = dnd.end.flatMap(Self.minutes), start != end else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }
}
