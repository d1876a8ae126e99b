import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// HTTP/1 with WebSocket upgrades, where an upgrade whose credentials are refused is answered by
/// the HTTP router (`401` with the error body) instead of hummingbird-websocket's bare `400`.
///
/// A declined upgrade cannot carry a response of its own there: the upgrader writes an empty
/// `400 Bad Request`, and a client cannot tell "log in again" from a bug. So a small gate sits in
/// front of the upgrader for the first request of a connection: an upgrade of ``path`` waits
/// (its parts held back) while its credentials are checked; refused, it goes on without its
/// `Upgrade` header — a plain `GET`, which the router answers with the structured `401`.
struct AuthenticatedUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let path: String
    let authorize: @Sendable (HTTPRequestHead) async -> Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(UpgradeGate(path: path, authorize: authorize), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
