import Foundation
import HeraldModels

public struct CardStyle: Codable, Sendable, Equatable {
    public var background: ColorPair?
    public var borderColor: ColorPair?
    public var borderRadius: Double?
    public var borderWidth: Double?
    public var padding: Double?

    public init(
        background: ColorPair? = nil,
        borderColor: ColorPair? = nil,
        borderRadius: Double? = nil,
        borderWidth: Double? = nil,
        padding: Double? = nil
    ) {
        self.background = background
        self.borderColor = borderColor
        self.borderRadius = borderRadius
        self.borderWidth = borderWidth
        self.padding = padding
    }
}
