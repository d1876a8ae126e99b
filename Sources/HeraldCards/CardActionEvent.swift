import Foundation
import HeraldModels

/// What the user tapped: the action and the element that carries it.
public struct CardActionEvent: Sendable, Equatable {
    public var elementId: String
    public var action: CardAction

    public init(elementId: String, action: CardAction) {
        self.elementId = elementId
        self.action = action
    }
}
