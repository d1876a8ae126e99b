import Foundation
import HeraldAPI
import HeraldStorage
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// Presence heartbeats and the listener between processes, for the life of the server.
struct RealtimeBackgroundService: Service {
    let realtime: RealtimeService

    func run() async throws {
        // Sockets live in their channels, not in tasks the server waits for: each is told.
        defer { realtime.closeAll(reason: "server stopping") }
        try await cancelWhenGracefulShutdown { try await realtime.run() }
    }
}
