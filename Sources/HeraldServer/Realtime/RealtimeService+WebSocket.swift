import Foundation
import HeraldCore
import HeraldModels
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging

extension RealtimeService {
    /// Serves one session's socket until it closes: `hello` first, then whatever is delivered to
    /// the session, answering the client's `ping`s; closes when the session is revoked or expires.
    func serve(session: Session, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger) async {
        let connection = RealtimeConnection(session: session)
        let hello = RealtimeEnvelope.hello(
            .init(
                sessionId: session.id,
                uid: session.uid,
                appId: session.appId,
                instance: instance,
                pingIntervalSeconds: Int(settings.pingInterval.components.seconds)
            )
        )
        if let text = try? hello.jsonText() { connection.send(text) }
        await connected(connection)
        // One task per socket beside the connection's own: the reader. The writer runs here, so an
        // idle socket holds as little as it can (a task costs kilobytes of its own stack); a
        // session's expiry is swept centrally (``RealtimeService/closeExpired(now:)``).
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The client went (or broke the protocol): the writer below stops.
                    defer { connection.end() }
                    for try await message in inbound.messages(maxSize: 64 * 1024) {
                        Self.answer(message, on: connection)
                    }
                }
                writing: for await item in connection.outgoing {
                    switch item {
                    case .text(let text):
                        try await outbound.write(.text(text))
                    case .close(let code, let reason):
                        try await outbound.close(.init(codeNumber: Int(code)), reason: reason)
                        break writing
                    }
                }
                group.cancelAll()
            }
        } catch {
            logger.debug("websocket ended", metadata: ["error": "\(error)"])
        }
        await disconnected(connection)
    }

    private static func answer(_ message: WebSocketMessage, on connection: RealtimeConnection) {
        let reply: RealtimeEnvelope
        switch message {
        case .text(let text):
            if let ping = try? JSONDecoder().decode(RealtimeClientMessage.self, from: Data(text.utf8)) {
                reply =
                    ping.type == "ping"
                    ? .pong(id: ping.id)
                    : .error(code: "unknown_type", message: "'\(ping.type)' is not a message type; send {\"type\":\"ping\"}")
            } else {
                reply = .error(code: "bad_message", message: "messages are JSON objects with a type")
            }
        case .binary:
            reply = .error(code: "bad_message", message: "send text frames")
        }
        if let text = try? reply.jsonText() { connection.send(text) }
    }
}

/// `GET /v1/me/ws`: the session's WebSocket, authenticated by `Authorization: Bearer <authToken>`
/// or `?authToken=` (browsers cannot set headers on a WebSocket).
enum RealtimeRoutes {
    static let path = "/v1/me/ws"
    /// Routes the OpenAPI document does not list, for ``RouteTable``.
    static let undocumented: [String: [HTTPRequest.Method]] = [
        path: [.get], "/openapi.yaml": [.get], "/card-schema.json": [.get], "/metrics": [.get],
    ]

    static func bearer(_ request: Request) -> String? {
        bearer(authorization: request.headers[.authorization], target: request.uri.description)
    }

    /// HTTP/1 with this path's WebSocket upgrade. An upgrade with no, bad or revoked credentials
    /// is not attempted: ``AuthenticatedUpgradeChannel`` hands it to the HTTP router as a plain
    /// `GET`, which answers `401` with the error body (``register(on:services:)``).
    static func server(services: HeraldServices, pingInterval: Duration) -> HTTPServerBuilder {
        let responder = webSocketRouter(services: services).buildResponder()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: pingInterval), closeTimeout: .seconds(5))
        )
        return HTTPServerBuilder { httpResponder in
            AuthenticatedUpgradeChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: httpResponder, webSocketResponder: responder, configuration: configuration),
                path: path
            ) { head in
                (try? await services.authenticator.user(bearer: bearer(authorization: head.headers["authorization"].first, target: head.uri))) != nil
            }
        }
    }

    static func bearer(authorization: String?, target: String) -> String? {
        if let authorization {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return URLComponents(string: target)?.queryItems?.first { $0.name == "authToken" }?.value
    }

    /// The upgrade router: upgrades a request whose credentials hold (checked again here, as the
    /// session may have ended since the gate let it through).
    static func webSocketRouter(services: HeraldServices) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(stringLiteral: path)) { request, _ in
            guard (try? await services.authenticator.user(bearer: bearer(request))) != nil else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let session = try? await services.authenticator.user(bearer: bearer(context.request)) else {
                try? await outbound.close(.policyViolation, reason: "unauthorized")
                return
            }
            await services.realtime.serve(session: session, inbound: inbound, outbound: outbound, logger: context.logger)
        }
        return router
    }

    /// The plain-HTTP side of the path: why there was no upgrade.
    static func register<Context: RequestContext>(on router: Router<Context>, services: HeraldServices) {
        router.get(RouterPath(stringLiteral: path)) { request, _ -> Response in
            _ = try await services.authenticator.user(bearer: bearer(request))
            throw HeraldError(.upgradeRequired, "this path is a WebSocket: connect with an Upgrade: websocket request")
        }
    }
}
