import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A client that completes the WebSocket handshake and then says nothing — not even a pong:
/// what a phone that lost its network looks like to the server.
public final class SilentWebSocket: Sendable {
    private let channel: any Channel
    private let state: NIOLockedValueBox<(upgraded: Bool, closed: Bool)>

    public static func connect(port: Int, token: String) async throws -> SilentWebSocket {
        let state = NIOLockedValueBox((upgraded: false, closed: false))
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Listener(state: state)) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request =
            "GET /v1/me/ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        let socket = SilentWebSocket(channel: channel, state: state)
        let deadline = ContinuousClock.now + .seconds(5)
        while !state.withLockedValue({ $0.upgraded || $0.closed }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        guard state.withLockedValue({ $0.upgraded }) else { throw TestFailure("the server did not upgrade the silent socket") }
        return socket
    }

    private init(channel: any Channel, state: NIOLockedValueBox<(upgraded: Bool, closed: Bool)>) {
        self.channel = channel
        self.state = state
    }

    public var isClosed: Bool { state.withLockedValue { $0.closed } }

    public func close() async { try? await channel.close() }

    private final class Listener: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let state: NIOLockedValueBox<(upgraded: Bool, closed: Bool)>

        init(state: NIOLockedValueBox<(upgraded: Bool, closed: Bool)>) {
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            if String(buffer: bytes).hasPrefix("HTTP/1.1 101") { state.withLockedValue { $0.upgraded = true } }
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.withLockedValue { $0.closed = true }
        }
    }
}
