import Foundation

/// A message a client sends on its WebSocket. Only `{"type":"ping","id":…}` today: the server
/// answers `{"type":"pong","id":…}`. (Protocol-level pings keep the connection alive anyway.)
public struct RealtimeClientMessage: Codable, Sendable, Equatable {
    public var type: String
    public var id: String?

    public init(type: String, id: String? = nil) {
        self.type = type
        self.id = id
    }

    public static func ping(id: String? = nil) -> RealtimeClientMessage { .init(type: "ping", id: id) }
}
