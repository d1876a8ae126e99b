import HeraldCore
import NIOCore
import NIOHTTP1

/// Holds back an upgrade request of one path until its credentials are checked; strips the
/// upgrade from a refused one, so that it goes on as a plain request (NIO's upgrade handler drops
/// an upgrade request that its upgraders decline), and leaves the accepted session for the
/// upgrader. Leaves the pipeline after the connection's first request.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let path: String
    private let authorize: @Sendable (HTTPRequestHead) async -> Session?
    private let accepted: NIOLoopBoundBox<Session?>
    private var held: [HTTPServerRequestPart]?
    private var readCompleteHeld = false

    init(path: String, accepted: NIOLoopBoundBox<Session?>, authorize: @escaping @Sendable (HTTPRequestHead) async -> Session?) {
        self.path = path
        self.accepted = accepted
        self.authorize = authorize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if held != nil {
            held?.append(part)
            return
        }
        guard case .head(var head) = part, head.headers.contains(name: "upgrade") else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        guard head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) == path else {
            // No other path upgrades: the request is answered as a plain one.
            head.headers.remove(name: "upgrade")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        held = []
        let authorize = self.authorize
        let promise = context.eventLoop.makePromise(of: Session?.self)
        promise.completeWithTask { await authorize(head) }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { result in
            let (gate, context) = bound.value
            gate.release(head: head, session: (try? result.get()) ?? nil, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if held != nil { readCompleteHeld = true } else { context.fireChannelReadComplete() }
    }

    private func release(head: HTTPRequestHead, session: Session?, context: ChannelHandlerContext) {
        var head = head
        accepted.value = session
        if session == nil {
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
