import Foundation
import HeraldModels
import NIOCore
import NIOWebSocket

/// A session's socket after the upgrade, on its channel's event loop: answers the client's
/// `ping` envelopes and protocol pings, pings the client every period and closes a socket that
/// stayed silent for a whole period, and runs the closing handshake. What the server sends to
/// the session goes through its ``RealtimeConnection``.
final class RealtimeSocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long a closing frame waits for the client's before the connection is closed anyway.
    static let closeTimeout: TimeAmount = .seconds(5)

    private let connection: RealtimeConnection
    private let service: RealtimeService
    private let hello: String
    private let pingInterval: TimeAmount
    private var context: ChannelHandlerContext?
    private var pinger: Scheduled<Void>?
    private var closer: Scheduled<Void>?
    /// Something came from the client since the last ping.
    private var heard = true
    private var closeSent = false
    /// Presence recorded and `hello` sent; the disconnection is recorded after it.
    private var opening: Task<Void, Never>?

    init(connection: RealtimeConnection, service: RealtimeService, hello: String, pingInterval: TimeAmount) {
        self.connection = connection
        self.service = service
        self.hello = hello
        self.pingInterval = pingInterval
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let (service, connection, hello) = (self.service, self.connection, self.hello)
        opening = Task {
            await service.connected(connection)
            connection.open(hello: hello)
        }
        schedulePing(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pinger?.cancel()
        closer?.cancel()
        connection.ended()
        let (service, connection, opening) = (self.service, self.connection, self.opening)
        Task {
            await opening?.value
            await service.disconnected(connection)
        }
        self.context = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        heard = true
        switch frame.opcode {
        case .text:
            guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                return close(code: 1007, reason: "text frames are UTF-8")
            }
            connection.send(Self.answer(text))
        case .binary:
            connection.send(Self.reply(.error(code: "bad_message", message: "send text frames")))
        case .ping:
            guard frame.fin else { return close(code: 1002, reason: "fragmented ping") }
            // A client that pings without reading gets no more pongs once its socket's buffer is
            // full (RFC 6455 asks a pong for the latest ping only): its pings cannot grow our memory.
            guard context.channel.isWritable else { return }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            guard !closeSent else {
                context.close(promise: nil)
                return
            }
            // The client closes: the same code back, then the connection ends.
            closeSent = true
            connection.ended()
            var data = frame.unmaskedData
            var echo = context.channel.allocator.buffer(capacity: 2)
            if let code = data.readInteger(as: UInt16.self) { echo.writeInteger(code) }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo)))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A message over the size limit, too many fragments: the aggregator's refusals.
        close(code: 1009, reason: "message too big")
        context.close(promise: nil)
    }

    /// Sends `last` (if given) and a closing frame; the connection ends when the client answers
    /// or ``closeTimeout`` passes.
    func close(code: UInt16, reason: String, last: String? = nil) {
        guard let context, !closeSent else { return }
        closeSent = true
        connection.ended()
        if let last {
            context.write(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: last))),
                promise: nil
            )
        }
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.writeInteger(code)
        data.writeString(reason)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
        closer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeTimeout) { context.close(promise: nil) }
    }

    /// Every period: a ping, or — when nothing came since the last one — the end of the socket.
    private func schedulePing(context: ChannelHandlerContext) {
        pinger = context.eventLoop.assumeIsolated().scheduleTask(in: pingInterval) { [self] in
            guard self.context != nil else { return }
            guard heard else {
                close(code: 1001, reason: "ping timeout")
                context.close(promise: nil)
                return
            }
            heard = false
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(string: "herald"))),
                promise: nil
            )
            schedulePing(context: context)
        }
    }

    /// The answer to a client's text message: `pong` to a `ping`, an error envelope otherwise.
    static func answer(_ text: String) -> String {
        guard let message = try? JSONDecoder().decode(RealtimeClientMessage.self, from: Data(text.utf8)) else {
            return reply(.error(code: "bad_message", message: "messages are JSON objects with a type"))
        }
        return reply(
            message.type == "ping"
                ? .pong(id: message.id)
                : .error(code: "unknown_type", message: "'\(message.type)' is not a message type; send {\"type\":\"ping\"}")
        )
    }

    private static func reply(_ envelope: RealtimeEnvelope) -> String {
        (try? envelope.jsonText()) ?? #"{"type":"error"}"#
    }
}
