import Foundation
import HeraldModels

/// One thing wrong with a card, where it is (a JSON pointer).
public struct CardProblem: Sendable, Equatable {
    public var pointer: String
    public var message: String

    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }
}
