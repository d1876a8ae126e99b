import Foundation

public enum ProviderDeletion: Sendable, Equatable {
    case deleted(tokensRemoved: Int)
    case inUse(tokens: Int)
    case notFound
}
