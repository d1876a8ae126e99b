import Foundation
import HeraldModels

/// How much a push matters to its recipient: whether it mentions them, and what that makes of
/// its APNs `interruption-level` and `relevance-score` and its Android channel.
///
/// - `time-sensitive` (relevance 1.0): calls, and messages that mention the recipient — by uid,
///   `mentionsAll`, or one of the recipient's keywords. They break through Focus and scheduled
///   summaries (the app needs the Time Sensitive Notifications capability).
/// - `active` (the default level): every other alert, ranked in the summary by relevance — a
///   direct message 0.8, a group message 0.5, a reaction or a group action 0.2.
public enum Importance {
    public static let mentionRelevance = 1.0
    public static let directRelevance = 0.8
    public static let groupRelevance = 0.5
    public static let otherRelevance = 0.2

    /// Whether a message mentions `uid`: named in `mentions`, everyone (`mentionsAll`), or its
    /// text holds one of `keywords` as a whole word, in any case.
    public static func mentions(_ event: ChatEvent, uid: String, keywords: [String]) -> Bool {
        guard case .message(let message) = event.body else { return false }
        if message.mentionsAll || message.mentions.contains(uid) { return true }
        guard !keywords.isEmpty, let text = message.text, !text.isEmpty else { return false }
        return keywords.contains { containsWord($0, in: text) }
    }

    /// Whether `word` occurs in `text` with no letter, digit or underscore on either side,
    /// compared without regard to case (Unicode-aware: "café" is a word, "cafés" does not hold it).
    public static func containsWord(_ word: String, in text: String) -> Bool {
        let needle = word.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return false }
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: needle, options: [.caseInsensitive], range: searchRange) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if !isWordCharacter(before) && !isWordCharacter(after) { return true }
            searchRange = text.index(after: found.lowerBound)..<text.endIndex
        }
        return false
    }

    static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }

    /// The APNs interruption level and relevance score of an alert.
    public static func level(_ event: ResolvedEvent, mentioned: Bool) -> (level: APS.InterruptionLevel, relevance: Double) {
        if event.isCall || mentioned { return (.timeSensitive, mentionRelevance) }
        switch event.event.body {
        case .message: return (.active, event.receiverType == .user ? directRelevance : groupRelevance)
        default: return (.active, otherRelevance)
        }
    }
}
