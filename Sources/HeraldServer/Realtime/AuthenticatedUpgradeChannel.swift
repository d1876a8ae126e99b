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

/// Holds back an upgrade request of one path until its credentials are checked; strips the
/// upgrade from a refused one. Leaves the pipeline after the connection's first request.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let path: String
    private let authorize: @Sendable (HTTPRequestHead) async -> Bool
    private var held: [HTTPServerRequestPart]?
    private var readCompleteHeld = false

    init(path: String, authorize: @escaping @Sendable (HTTPRequestHead) async -> Bool) {
        self.path = path
        self.authorize = authorize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if held != nil {
            held?.append(part)
            return
        }
        guard case .head(let head) = part, head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) == path,
              head.headers.contains(name: "upgrade") else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        held = []
        let authorize = self.authorize
        let promise = context.eventLoop.makePromise(of: Bool.self)
        promise.completeWithTask { await authorize(head) }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { result in
            let (gate, context) = bound.value
            gate.release(head: head, allowed: (try? result.get()) == true, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if held != nil { readCompleteHeld = true } else { context.fireChannelReadComplete() }
    }

    private func release(head: HTTPRequestHead, allowed: Bool, context: ChannelHandlerContext) {
        var head = head
        if !allowed {
            head.headers.remove(name: "upgrade")
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        let parts = [HTTPServerRequestPart.head(head)] + (held ?? [])
        held = nil
        for part in parts { context.fireChannelRead(wrapInboundOut(part)) }
        if readCompleteHeld { context.fireChannelReadComplete() }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
