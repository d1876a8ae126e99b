import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels

extension APIHandler {
    func getUserPresence(_ input: Operations.GetUserPresence.Input) async throws -> Operations.GetUserPresence.Output {
        let appId = try await adminAppId()
        _ = try await services.directory.user(appId: appId, uid: input.path.uid)
        let records = try await services.realtime.presence(appId: appId, uid: input.path.uid)
        let sessions = Dictionary(grouping: records, by: \.sessionId).values.map { rows in
            // A session with sockets on several processes shows its connected one first.
            let row = rows.sorted { ($0.isConnected ? 0 : 1, $0.since) < ($1.isConnected ? 0 : 1, $1.since) }[0]
            return Components.Schemas.PresenceSession(
                sessionId: row.sessionId,
                since: row.since,
                instance: row.instance,
                connected: row.isConnected,
                offlineAt: row.offlineAt
            )
        }.sorted { $0.since < $1.since }
        return .ok(.init(body: .json(.init(online: !sessions.isEmpty, sessions: sessions))))
    }

    func sendRealtimeMessage(_ input: Operations.SendRealtimeMessage.Input) async throws -> Operations.SendRealtimeMessage.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let uids = body.uids ?? []
        let sessionIds = body.sessionIds ?? []
        guard !uids.isEmpty || !sessionIds.isEmpty else { throw HeraldError.invalidField("uids", "give uids or sessionIds") }
        guard uids.count <= 10_000, sessionIds.count <= 10_000 else { throw HeraldError.invalidField("uids", "at most 10,000 per call") }
        let envelope = RealtimeEnvelope.custom(.init(data: try JSONBridge.object(body.data)))
        var reached = Set<String>()
        if !uids.isEmpty { reached.formUnion(await services.realtime.deliver(envelope, appId: appId, uids: uids)) }
        if !sessionIds.isEmpty { reached.formUnion(await services.realtime.deliver(envelope, appId: appId, sessionIds: sessionIds)) }
        return .ok(.init(body: .json(.init(reached: reached.sorted()))))
    }
}
