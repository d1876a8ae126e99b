import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

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
            head.headers.contains(name: "upgrade")
        else {
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
