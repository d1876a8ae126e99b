import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels

extension APIHandler {
    /// The generated forms of the notify and discovery operations, which the generated protocol
    /// requires. They are never routed: ``MatrixRoutes`` serves them with Matrix's error shape.
    func matrixNotify(_ input: Operations.MatrixNotify.Input) async throws -> Operations.MatrixNotify.Output {
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let rejected = try await services.matrix.notify(
            try MatrixNotification.parse(.object(["notification": .object(try JSONBridge.object(body.notification))]))
        )
        return .ok(.init(body: .json(.init(rejected: rejected))))
    }

    func matrixGatewayDiscovery(_ input: Operations.MatrixGatewayDiscovery.Input) async throws -> Operations.MatrixGatewayDiscovery.Output {
        .ok(.init(body: .json(.init(unifiedpush: .init(gateway: .matrix)))))
    }

    func listMatrixAppIds(_ input: Operations.ListMatrixAppIds.Input) async throws -> Operations.ListMatrixAppIds.Output {
        let appId = try await adminAppId()
        return .ok(.init(body: .json(.init(data: try await services.matrixAppIds.list(appId: appId).map(Self.wire)))))
    }

    func putMatrixAppId(_ input: Operations.PutMatrixAppId.Input) async throws -> Operations.PutMatrixAppId.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let binding = try await services.matrixAppIds.put(
            appId: appId,
            pattern: input.path.matrixAppId,
            MatrixAppIds.Input(
                providerId: body.providerId,
                apnsPushType: body.apnsPushType?.rawValue,
                convertDeviceTokenToHex: body.convertDeviceTokenToHex,
                fcmOptions: try body.fcmOptions.map { try JSONBridge.object($0) },
                allowedEndpoints: body.allowedEndpoints
            )
        )
        return .ok(.init(body: .json(try Self.wire(binding))))
    }

    func deleteMatrixAppId(_ input: Operations.DeleteMatrixAppId.Input) async throws -> Operations.DeleteMatrixAppId.Output {
        let appId = try await adminAppId()
        try await services.matrixAppIds.delete(appId: appId, pattern: input.path.matrixAppId)
        return .noContent(.init())
    }

    static func wire(_ binding: MatrixAppBinding) throws -> Components.Schemas.MatrixAppId {
        .init(
            matrixAppId: binding.pattern,
            providerId: binding.providerId,
            apnsPushType: binding.apnsPushType,
            convertDeviceTokenToHex: binding.apnsPushType == nil ? nil : binding.convertDeviceTokenToHex,
            fcmOptions: try binding.fcmOptions.map { try JSONBridge.decode($0) },
            allowedEndpoints: binding.allowedEndpoints,
            createdAt: binding.createdAt,
            updatedAt: binding.updatedAt
        )
    }
}
