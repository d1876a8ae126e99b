import Foundation
import HeraldCore
import HeraldModels
import Hummingbird
import HummingbirdCore
import Logging

extension RealtimeService {
    /// The first envelope of a session's socket.
    func hello(for session: Session) -> String {
        let hello = RealtimeEnvelope.hello(
            .init(
                sessionId: session.id,
                uid: session.uid,
                appId: session.appId,
                instance: instance,
                pingIntervalSeconds: Int(settings.pingInterval.components.seconds)
            )
        )
        return (try? hello.jsonText()) ?? #"{"type":"hello"}"#
    }

    /// Closes every socket of this process (the server is stopping).
    func closeAll(reason: String) {
        hub.closeAll(code: 1001, reason: reason)
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

    /// HTTP/1 with this path's WebSocket upgrade (``RealtimeSocketChannel``). An upgrade with no,
    /// bad or revoked credentials is not made: the router answers it as a plain `GET`, with the
    /// `401` and its error body (``register(on:services:)``).
    static func server(services: HeraldServices, pingInterval: Duration) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            RealtimeSocketChannel(
                responder: responder,
                path: path,
                realtime: services.realtime,
                pingInterval: .nanoseconds(Int64(pingInterval / .nanoseconds(1))),
                maxFrameSize: 1 << 16
            ) { head in
                try? await services.authenticator.user(bearer: bearer(authorization: head.headers["authorization"].first, target: head.uri))
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

    /// The plain-HTTP side of the path: why there was no upgrade.
    static func register<Context: RequestContext>(on router: Router<Context>, services: HeraldServices) {
        router.get(RouterPath(stringLiteral: path)) { request, _ -> Response in
            _ = try await services.authenticator.user(bearer: bearer(request))
            throw HeraldError(.upgradeRequired, "this path is a WebSocket: connect with an Upgrade: websocket request")
        }
    }
}
