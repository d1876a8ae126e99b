import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels

extension APIHandler {
    func listTemplates(_ input: Operations.ListTemplates.Input) async throws -> Operations.ListTemplates.Output {
        let appId = try await adminAppId()
        let all = try await services.templates.list(appId: appId, includeBuiltIn: input.query.includeBuiltIn ?? false)
        return .ok(.init(body: .json(.init(data: all.map { Wire.template($0.template, builtIn: $0.builtIn) }))))
    }

    func getTemplate(_ input: Operations.GetTemplate.Input) async throws -> Operations.GetTemplate.Output {
        let appId = try await adminAppId()
        let (template, builtIn) = try await services.templates.get(
            appId: appId,
            eventType: try eventKind(input.path.eventType.rawValue),
            receiverType: try receiverType(input.path.receiverType.rawValue),
            locale: input.path.locale
        )
        return .ok(.init(body: .json(Wire.template(template, builtIn: builtIn))))
    }

    func putTemplate(_ input: Operations.PutTemplate.Input) async throws -> Operations.PutTemplate.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let stored = try await services.templates.put(
            appId: appId,
            PushTemplate(
                eventType: try eventKind(input.path.eventType.rawValue),
                receiverType: try receiverType(input.path.receiverType.rawValue),
                locale: input.path.locale,
                title: body.title,
                body: body.body,
                titleLocKey: body.titleLocKey,
                titleLocArgs: body.titleLocArgs,
                bodyLocKey: body.bodyLocKey,
                bodyLocArgs: body.bodyLocArgs
            )
        )
        return .ok(.init(body: .json(Wire.template(stored, builtIn: false))))
    }

    func deleteTemplate(_ input: Operations.DeleteTemplate.Input) async throws -> Operations.DeleteTemplate.Output {
        let appId = try await adminAppId()
        try await services.templates.delete(
            appId: appId,
            eventType: try eventKind(input.path.eventType.rawValue),
            receiverType: try receiverType(input.path.receiverType.rawValue),
            locale: input.path.locale
        )
        return .noContent(.init())
    }

    func previewTemplate(_ input: Operations.PreviewTemplate.Input) async throws -> Operations.PreviewTemplate.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let receiver = try receiverType(body.receiverType.rawValue)
        let eventType = try eventKind(body.eventType.rawValue)
        let template = body.template.map {
            PushTemplate(
                eventType: eventType,
                receiverType: receiver,
                locale: body.locale ?? "default",
                title: $0.title,
                body: $0.body,
                titleLocKey: $0.titleLocKey,
                titleLocArgs: $0.titleLocArgs,
                bodyLocKey: $0.bodyLocKey,
                bodyLocArgs: $0.bodyLocArgs
            )
        }
        let text = try await services.templates.preview(
            appId: appId,
            eventType: eventType,
            receiverType: receiver,
            locale: body.locale,
            template: template,
            event: try body.event.map { .object(try JSONBridge.object($0)) }
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        title: text.title,
                        body: text.body,
                        titleLocKey: text.titleLocKey,
                        titleLocArgs: text.titleLocArgs,
                        locKey: text.locKey,
                        locArgs: text.locArgs
                    )
                )
            )
        )
    }

    private func eventKind(_ text: String) throws -> EventKind {
        try EventKind.notifiable(text, field: "eventType")
    }

    private func receiverType(_ text: String) throws -> ReceiverType {
        guard let type = ReceiverType(rawValue: text) else { throw HeraldError.invalidField("receiverType", "must be user or group") }
        return type
    }
}
