import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import NIOTLS

/// Reports the protocol the TLS handshake agreed on (ALPN), or why there was none.
final class ALPNObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let negotiated: EventLoopPromise<String?>
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var done = false

    init(negotiated: EventLoopPromise<String?>, timeout: TimeAmount) {
        self.negotiated = negotiated
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (observer, context) = loopBound.value
            observer.finish(.failure(HTTP2TransportError.notProcessed("no TLS handshake within \(observer.timeout)")))
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted(let chosen) = event {
            finish(.success(chosen))
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(HTTP2TransportError.notProcessed("the connection closed during the TLS handshake")))
        context.fireChannelInactive()
    }

    private func finish(_ result: Result<String?, any Error>) {
        guard !done else { return }
        done = true
        deadline?.cancel()
        negotiated.completeWith(result)
    }
}
