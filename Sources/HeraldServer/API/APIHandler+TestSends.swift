import Foundation
import HeraldAPI
import HeraldCore

extension APIHandler {
    func testProvider(_ input: Operations.TestProvider.Input) async throws -> Operations.TestProvider.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let verdict = try await services.testSends.viaProvider(
            appId: appId,
            providerId: input.path.providerId,
            TestPushInput(
                pushToken: body.pushToken,
                platform: body.platform,
                uid: body.uid,
                title: body.title ?? "Herald test",
                body: body.body ?? "It works.",
                data: body.data?.additionalProperties ?? [:]
            )
        )
        return .ok(.init(body: .json(Wire.verdict(verdict))))
    }

    func testUserPush(_ input: Operations.TestUserPush.Input) async throws -> Operations.TestUserPush.Output {
        let appId = try await adminAppId()
        var request: Components.Schemas.TestUserPushRequest?
        if case .json(let body) = input.body { request = body }
        let verdicts = try await services.testSends.toUser(
            appId: appId,
            uid: input.path.uid,
            TestPushInput(
                title: request?.title ?? "Herald test",
                body: request?.body ?? "It works.",
                data: request?.data?.additionalProperties ?? [:]
            )
        )
        return .ok(.init(body: .json(.init(data: verdicts.map(Wire.verdict)))))
    }

    func listPrunedTokens(_ input: Operations.ListPrunedTokens.Input) async throws -> Operations.ListPrunedTokens.Output {
        let appId = try await adminAppId()
        let limit = input.query.limit ?? 100
        guard (1...1000).contains(limit) else { throw HeraldError.invalidField("limit", "must be between 1 and 1000") }
        let pruned = try await services.store.prunedTokens(appId: appId, uid: input.query.uid, limit: limit)
        return .ok(
            .init(
                body: .json(
                    .init(
                        data: pruned.map { item in
                            .init(
                                pushToken: item.token.token,
                                platform: item.token.platform.rawValue,
                                providerId: item.token.providerId,
                                uid: item.token.uid,
                                reason: item.reason,
                                hint: item.hint,
                                invalidSince: item.invalidSince,
                                prunedAt: item.prunedAt
                            )
                        }
                    )
                )
            )
        )
    }
}

extension Wire {
    static func verdict(_ verdict: TestSendVerdict) -> Components.Schemas.TestPushVerdict {
        let result = verdict.result
        var hint: String?
        var retryAfter: Double?
        switch result.outcome {
        case .retryLater(let after?): retryAfter = after.seconds
        case .tokenInvalid(_, let tokenHint): hint = tokenHint
        default: break
        }
        return .init(
            status: result.outcome == .delivered ? .delivered : .failed,
            outcome: .init(rawValue: result.outcome.name) ?? .failed,
            providerId: verdict.providerId,
            pushToken: verdict.pushToken,
            platform: verdict.platform?.rawValue,
            providerStatus: result.providerStatus,
            reason: result.reason,
            hint: hint,
            retryAfterSeconds: retryAfter,
            providerMessageId: result.providerMessageId,
            latencyMs: (result.latency.seconds * 1000).rounded(),
            pruned: verdict.pruned
        )
    }
}

extension Duration {
    /// In seconds, as a Double.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
