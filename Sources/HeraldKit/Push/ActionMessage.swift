import Foundation
import HeraldModels

/// Something that happened rather than something said: a group member added, a reaction…
public struct ActionMessage: HeaderedMessage, Equatable {
    public var header: MessageHeader
    /// `added`, `joined`, `kicked`… when the push says; the reaction for reactions.
    public var action: String?
    /// What the notification said.
    public var message: String
    public var type: String
    public var category: MessageCategory { .action }
}
