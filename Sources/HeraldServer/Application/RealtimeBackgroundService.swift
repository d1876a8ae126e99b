import Foundation
import HeraldAPI
import HeraldStorage
import Hummingbird
import HummingbirdWebSocket
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// Presence heartbeats and the listener between processes, for the life of the server.
struct RealtimeBackgroundService: Service {
    let realtime: RealtimeService

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await realtime.run() }
    }
}
