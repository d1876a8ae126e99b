import HeraldCore
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// HTTP/1 connections, with `GET /v1/me/ws` upgraded to a session's WebSocket.
///
/// The upgrade is decided by the session's credentials, checked by an ``UpgradeGate`` before the
/// upgrade handler sees the request: refused (no, bad or revoked credentials), the request goes on
/// as a plain `GET`, which the router answers with the structured `401` — a client can tell "log
/// in again" from a bug. Accepted, the socket is served by channel handlers on its event loop
/// (``RealtimeSocketHandler``), with no task of its own: the connection's task ends at the
/// upgrade, and 10,000 idle sockets cost their channels, not 10,000 suspended tasks' stacks.
struct RealtimeSocketChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
        case webSocket
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let path: String
    let realtime: RealtimeService
    let pingInterval: TimeAmount
    let maxFrameSize: Int
    /// The session a request's credentials hold, if any.
    let authenticate: @Sendable (HTTPRequestHead) async -> Session?
    let http1 = HTTP1Channel.Configuration()

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let accepted = NIOLoopBoundBox<Session?>(nil, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: maxFrameSize,
                shouldUpgrade: { channel, _ in
                    // Only an upgrade the gate accepted comes here (it strips the others).
                    channel.eventLoop.makeSucceededFuture(accepted.value.map { _ in HTTPHeaders() })
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let session = accepted.value else { throw ChannelError.inappropriateOperationForState }
                        try channel.pipeline.syncOperations.addHandlers(
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 0,
                                maxAccumulatedFrameCount: 64,
                                maxAccumulatedFrameSize: maxFrameSize
                            ),
                            RealtimeSocketHandler(
                                connection: RealtimeConnection(session: session, channel: channel),
                                service: realtime,
                                hello: realtime.hello(for: session),
                                pingInterval: pingInterval
                            )
                        )
                        return .webSocket
                    }
                }
            )
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration(upgraders: [upgrader]) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try channel.pipeline.syncOperations.addHandlers(http1.additionalChannelHandlers())
                    try channel.pipeline.syncOperations.addHandler(
                        HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { .nanoseconds($0.nanoseconds) }, logger: logger)
                    )
                    return .http(
                        try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true)
                        )
                    )
                }
            }
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Negotiated>(upgradeConfiguration: upgrade)
            configuration.enablePipelining = false  // HTTP is pipelined by NIOAsyncChannel
            configuration.enableErrorHandling = false  // as Hummingbird's own HTTP/1 channel
            configuration.enableResponseHeaderValidation = false  // Swift HTTP Types validate
            configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            let decoder = try channel.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(
                UpgradeGate(path: path, accepted: accepted, authorize: authenticate),
                position: .after(decoder.handler)
            )
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .webSocket:
                // The socket lives on in its channel handlers.
                break
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("connection closed before its first request")
        } catch {
            // An upgrade NIO refused (no key, another version): nothing more to say on it.
            logger.debug("connection not negotiated", metadata: ["error": .error(error)])
            try? await value.channel.close()
        }
    }
}
